"""Configuration files as a kind of file: where a model id is data (settings, router configs, env).

Discovery hands these to the engine as the kind `"config"`; the format is told by the name:
YAML (`.yaml`, `.yml`), JSON (`.json`), TOML (`.toml`, other than the dependency files of
`manifests` and this tool's own policy), `.env` and `.env.*` files, and `.ini` / `.cfg` files
(other than `setup.cfg`, a dependency file). Lock files are data no one edits by hand and are
left out. `scalars` finds every scalar of a file with its exact place in the text; `processor`
is the engine's entry point for the kind.
"""

from __future__ import annotations

from pathlib import PurePath

CONFIG_KIND = "config"

SUFFIXES = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
}
# Never read as configuration: this tool's own policy (it names retired ids on purpose),
# and generated lock files.
NOT_CONFIG = frozenset({"claude-migrate.toml", "package-lock.json", "pnpm-lock.yaml"})


def format_of(path: str | PurePath) -> str | None:
    """Return the config format a file name stands for ("yaml", "json", "toml", "env", "ini")."""
    name = PurePath(path).name
    if name in NOT_CONFIG or name.endswith((".lock.json", "-lock.yaml", "-lock.json")):
        return None
    if name == ".env" or name.startswith(".env."):
        return "env"
    return SUFFIXES.get(PurePath(name).suffix.lower())


def config_kind(path: PurePath) -> str | None:
    """Discovery's classifier (after the dependency files'): `"config"`, else None."""
    return CONFIG_KIND if format_of(path) is not None else None


__all__ = ["CONFIG_KIND", "config_kind", "format_of"]
