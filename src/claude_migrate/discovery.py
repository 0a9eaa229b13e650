"""Which files to look at: the paths given, folders walked, policy excludes and .gitignore.

Files named explicitly are always checked (unless `force_exclude` and the policy excludes them,
as pre-commit needs); files found by walking a folder skip the usual tool and environment folders,
anything the repository's `.gitignore` files (and `.git/info/exclude`) ignore, and the policy's
`exclude` globs.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pathspec

from .gitignore import gitignore_spec
from .manifests import manifest_kind
from .notebook import notebook_kind

PYTHON_SUFFIXES = (".py", ".pyi")
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env", "env",
        "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".claude-migrate-cache", "site-packages", ".eggs", "__pypackages__", ".ipynb_checkpoints",
    }
)  # fmt: skip


def python_kind(path: Path) -> str | None:
    return "python" if path.suffix in PYTHON_SUFFIXES else None


# Classifiers in order; the first that names a kind wins.
CLASSIFIERS: list[Callable[[Path], str | None]] = [python_kind, notebook_kind, manifest_kind]


def kind_of(path: Path) -> str | None:
    """Return the kind of file ("python", "notebook", "manifest") the checks read, or None."""
    for classify in CLASSIFIERS:
        kind = classify(path)
        if kind is not None:
            return kind
    return None


@dataclass(frozen=True)
class Candidate:
    path: Path
    kind: str
    explicit: bool


class _GitIgnores:
    """The .gitignore specs that apply in one folder, outermost first."""

    def __init__(self) -> None:
        self._cache: dict[Path, list[tuple[Path, pathspec.PathSpec]]] = {}
        self._roots: dict[Path, Path | None] = {}
        self._stops: set[Path] = set()

    def repo_root(self, folder: Path) -> Path | None:
        if folder in self._roots:
            return self._roots[folder]
        root: Path | None = None
        if (folder / ".git").exists():
            root = folder
        elif folder.parent != folder:
            root = self.repo_root(folder.parent)
        self._roots[folder] = root
        return root

    def start_at(self, folder: Path) -> None:
        """Walk `folder`, named explicitly, even if a .gitignore above it ignores it.

        Asking for an ignored folder by name means wanting it checked (a vendored tree, a
        benchmark corpus): the .gitignore files above it then no longer apply inside it.
        """
        root = self.repo_root(folder)
        if root is None or folder == root:
            return
        current = folder
        ignored = False
        while current != root:
            if self.ignored(current, True):
                ignored = True
                break
            current = current.parent
        if ignored:
            self._cache[folder.parent] = []
            self._cache.pop(folder, None)
            self._stops.add(folder)

    def specs(self, folder: Path) -> list[tuple[Path, pathspec.PathSpec]]:
        if folder in self._cache:
            return self._cache[folder]
        root = self.repo_root(folder)
        if root is None:
            specs: list[tuple[Path, pathspec.PathSpec]] = []
        else:
            inherit = folder != root and folder not in self._stops
            specs = list(self.specs(folder.parent)) if inherit else []
            if folder == root and folder not in self._stops:
                exclude = root / ".git" / "info" / "exclude"
                if exclude.is_file():
                    specs.append((root, _load(exclude)))
            ignore = folder / ".gitignore"
            if ignore.is_file():
                specs.append((folder, _load(ignore)))
        self._cache[folder] = specs
        return specs

    def ignored(self, path: Path, is_dir: bool) -> bool:
        decision: bool | None = None
        for base, spec in self.specs(path.parent):
            rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
            result = spec.check_file(rel)
            if result.include is not None:
                decision = result.include
        return bool(decision)


def _load(path: Path) -> pathspec.PathSpec:
    # Undecodable bytes stay as the surrogates `os.scandir` gives undecodable names, so a
    # pattern written in another encoding still matches the file it names; a line git would
    # ignore as malformed is ignored here too (`gitignore_spec`), never an error.
    try:
        lines = path.read_bytes().decode("utf-8", "surrogateescape").splitlines()
    except OSError:
        lines = []
    return gitignore_spec(lines)


# Why a named path yields nothing to check (`discover`'s `on_skip`).
NOT_A_KIND = "not a Python, notebook or dependency file"
NOTHING_UNDER = "no Python, notebook or dependency file to check in it"
EXCLUDED = "excluded by the policy (--force-exclude)"


def discover(
    paths: list[Path],
    is_excluded: Callable[[Path], bool],
    force_exclude: bool = False,
    respect_gitignore: bool = True,
    on_skip: Callable[[Path, str], None] | None = None,
) -> Iterator[Candidate]:
    """Yield every file to check under `paths`, each once, in a stable order.

    `on_skip(path, why)` hears of every named path that yields nothing: a file of no kind the
    checks read, a file the policy excludes under `force_exclude`, a folder with nothing to check.
    """
    ignores = _GitIgnores()
    seen: set[Path] = set()
    skip = on_skip or (lambda path, why: None)
    for given in paths:
        path = Path(os.path.abspath(given))
        if not path.is_dir():
            if path in seen:
                continue
            seen.add(path)
            if force_exclude and is_excluded(path):
                skip(path, EXCLUDED)
                continue
            kind = kind_of(path)
            if kind is not None:
                yield Candidate(path, kind, explicit=True)
            else:
                skip(path, NOT_A_KIND)
            continue
        ignores.start_at(path)
        found = 0
        for file in _walk(path, ignores, is_excluded, respect_gitignore):
            if file not in seen:
                seen.add(file)
                kind = kind_of(file)
                if kind is not None:
                    found += 1
                    yield Candidate(file, kind, explicit=False)
        if not found:
            skip(path, NOTHING_UNDER)


def _walk(
    folder: Path,
    ignores: _GitIgnores,
    is_excluded: Callable[[Path], bool],
    respect_gitignore: bool,
) -> Iterator[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    subfolders: list[Path] = []
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()
        except OSError:
            continue
        if is_dir:
            if entry.name in SKIP_DIRS or entry.name.endswith(".egg-info"):
                continue
            if respect_gitignore and ignores.ignored(path, True):
                continue
            if is_excluded(path):
                continue
            subfolders.append(path)
            continue
        if kind_of(path) is None:
            continue
        if respect_gitignore and ignores.ignored(path, False):
            continue
        if is_excluded(path):
            continue
        yield path
    for sub in subfolders:
        yield from _walk(sub, ignores, is_excluded, respect_gitignore)
