"""Dependency files: which files are manifests, and reading each format into `Pin`s.

One module per format (`requirements_txt`, `pyproject` (also `Pipfile`), `setup_cfg`,
`setup_py`, `locks`), one shared module for what a constraint admits and how to raise it
(`requirement`, the only one that needs `packaging`'s parser), the plain data they produce
(`pin`) and package-name normalisation (`names`). Discovery hands every manifest to the engine
as the kind `"manifest"`; the format is told by the file's name. `setup.py` stays a Python
file (the Python rules check it too) and is read from its LibCST tree by `setup_py`.
"""

from __future__ import annotations

from pathlib import PurePath
from typing import TYPE_CHECKING

from claude_migrate.manifests.names import canonical_name

if TYPE_CHECKING:
    from claude_migrate.manifests.pin import Pin, Problem

MANIFEST_KIND = "manifest"

EXACT_NAMES = {
    "pyproject.toml": "pyproject",
    "Pipfile": "pipfile",
    "setup.cfg": "setup-cfg",
    "poetry.lock": "toml-lock",
    "uv.lock": "toml-lock",
    "pdm.lock": "toml-lock",
    "Pipfile.lock": "pipfile-lock",
}
# `.in` files that are not pip-tools inputs.
NOT_REQUIREMENTS_IN = frozenset({"MANIFEST.in", "Makefile.in", "GNUmakefile.in", "configure.in"})


def format_of(path: str | PurePath) -> str | None:
    """Return the manifest format a file name stands for ("requirements", "pyproject", ...)."""
    pure = PurePath(path)
    name = pure.name
    exact = EXACT_NAMES.get(name)
    if exact is not None:
        return exact
    if name.endswith(".txt"):
        if (
            "requirements" in name
            or name.startswith("constraints")
            or pure.parent.name == "requirements"
        ):
            return "requirements"
        return None
    if name.endswith(".in") and name not in NOT_REQUIREMENTS_IN and "." not in name[:-3]:
        return "requirements"  # pip-tools input (`requirements.in`, `dev.in`)
    return None


def manifest_kind(path: PurePath) -> str | None:
    """Discovery's classifier: `"manifest"` for a dependency file, else None."""
    return MANIFEST_KIND if format_of(path) is not None else None


def read_text(fmt: str, text: str, name: str) -> tuple[list[Pin], list[Problem]]:
    """Return the pins and the unreadable parts of a manifest's text (any format but setup.py)."""
    if fmt == "requirements":
        from claude_migrate.manifests.requirements_txt import read

        return read(text)
    if fmt == "pyproject":
        from claude_migrate.manifests.pyproject import read_pyproject

        return read_pyproject(text)
    if fmt == "pipfile":
        from claude_migrate.manifests.pyproject import read_pipfile

        return read_pipfile(text)
    if fmt == "setup-cfg":
        from claude_migrate.manifests.setup_cfg import read as read_setup_cfg

        return read_setup_cfg(text)
    if fmt == "toml-lock":
        from claude_migrate.manifests.locks import read_toml_lock

        return read_toml_lock(text, name)
    if fmt == "pipfile-lock":
        from claude_migrate.manifests.locks import read_pipfile_lock

        return read_pipfile_lock(text)
    raise ValueError(f"unknown manifest format {fmt!r}")


__all__ = ["MANIFEST_KIND", "canonical_name", "format_of", "manifest_kind", "read_text"]
