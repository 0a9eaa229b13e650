"""Which files to look at: the paths given, folders walked, policy excludes and .gitignore.

Files named explicitly are always checked (unless `force_exclude` and the policy excludes them,
as pre-commit needs); files found by walking a folder skip the usual tool and environment folders,
anything the repository's `.gitignore` files (and `.git/info/exclude`) ignore, and the policy's
`exclude` globs. A tree may be hostile: only regular files inside the paths given are read,
each once, and no folder is entered twice (see `discover`).
"""

from __future__ import annotations

import bisect
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate.configs import config_kind
from claude_migrate.core.atomic import is_stale_temp, is_temp_name
from claude_migrate.core.compiled import COMPILED_KIND
from claude_migrate.core.compiled import classify as compiled_kind
from claude_migrate.core.gitignore import gitignore_spec
from claude_migrate.core.source import describe_mode
from claude_migrate.discovery.git import tracked_files, work_tree_root
from claude_migrate.manifests import manifest_kind
from claude_migrate.notebook import notebook_kind

if TYPE_CHECKING:
    import pathspec  # loaded where a `.gitignore` is read (`gitignore`)

# Python source: `.pyw` is a module Python imports on Windows (importlib.machinery's
# SOURCE_SUFFIXES there), a pull request's code as much as a `.py` file.
PYTHON_SUFFIXES = (".py", ".pyi", ".pyw")
SKIP_DIRS = frozenset(
    {
        ".git", ".hg", ".svn", ".bzr", "__pycache__", ".venv", "venv", ".env",
        "node_modules", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
        ".claude-migrate-cache", "site-packages", ".eggs", "__pypackages__", ".ipynb_checkpoints",
    }
)  # fmt: skip


_VCS_FOLDERS = frozenset({".git", ".hg", ".svn", ".bzr"})
# A cache folder says so with this file (https://bford.info/cachedir/); the result cache writes it.
CACHE_TAG = "CACHEDIR.TAG"
# Folders that are never the project's source, whatever their name: a cache folder, a virtual
# environment (`pyvenv.cfg` at its root, https://peps.python.org/pep-0405/) and a conda
# environment (`conda-meta/`, https://docs.conda.io/projects/conda/en/latest/user-guide/concepts/environments.html).
# A folder named `env` is walked unless it is one of these: research code keeps its RL
# environments there, and `python -m venv env` writes `env/pyvenv.cfg`. A folder given on the
# command line is walked even if it is an environment (`virtualenv .` in a project's root):
# its `site-packages` is skipped by name.
NOT_SOURCE_MARKERS = frozenset({CACHE_TAG, "pyvenv.cfg", "conda-meta"})
# A virtual environment has its scripts folder beside `pyvenv.cfg` (PEP 405: `bin/`, or
# `Scripts\` on Windows); a `pyvenv.cfg` committed alone in a source folder (`python -m venv .`
# run there, the environment's own folders ignored by git) does not make the source an
# environment.
VENV_SCRIPTS = frozenset({"bin", "Scripts"})
ROOT_MARKERS = frozenset({CACHE_TAG})


def _not_source(names: set[str], markers: frozenset[str]) -> bool:
    """Return whether a folder holding `names` is one of the `markers` say is never source."""
    found = names & markers
    if "pyvenv.cfg" in found and not names & VENV_SCRIPTS:
        found.discard("pyvenv.cfg")
    return bool(found)


def python_kind(path: Path) -> str | None:
    return "python" if path.suffix in PYTHON_SUFFIXES else None


# A script Python runs by its first line, with no suffix (`bin/serve` starting
# `#!/usr/bin/env python3`, `#!/usr/bin/python3.12 -u`, `#!/usr/bin/env -S python3 -u`,
# `#!/usr/bin/env -S PYTHONUTF8=1 python3`: env's options and variables before the command),
# and a script uv runs (`#!/usr/bin/env -S uv run --script`, inline metadata per PEP 723:
# https://docs.astral.sh/uv/guides/scripts/#using-a-shebang-to-create-an-executable-file).
_PYTHON_SHEBANG = re.compile(
    rb"#![ \t]*\S*/(?:env[ \t]+(?:(?:-\S+|[A-Za-z_]\w*=\S*)[ \t]+)*)?"
    rb"(?:python[0-9.]*|uv[ \t]+run(?:[ \t]+[^\s]+)*?[ \t]+--script)(?:[ \t\r\n]|\Z)"
)
_SHEBANG_BYTES = 256


def script_kind(path: Path) -> str | None:
    """Return "python" for a file with no suffix whose first line runs Python (a shebang).

    Only a regular file met by its own name is read (never through a symlink, never a FIFO or
    a device: opened without following links and without blocking), and only its first bytes.
    """
    if path.suffix or not path.name:
        return None
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        handle = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            return None
        head = os.read(handle, _SHEBANG_BYTES)
    except OSError:
        return None
    finally:
        os.close(handle)
    return "python" if _PYTHON_SHEBANG.match(head) else None


# Classifiers in order; the first that names a kind wins.
CLASSIFIERS: list[Callable[[Path], str | None]] = [
    python_kind,
    notebook_kind,
    manifest_kind,
    config_kind,
    script_kind,
]


def kind_of(path: Path) -> str | None:
    """Return the kind of file ("python", "notebook", "manifest", "config") read, or None."""
    for classify in CLASSIFIERS:
        kind = classify(path)
        if kind is not None:
            return kind
    return None


@dataclass(frozen=True)
class Candidate:
    path: Path  # as found: the path given, or a path below a folder given (what is reported)
    kind: str
    explicit: bool
    real: Path | None = None  # symlinks resolved: what is read and written (None: `path`)


class _GitIgnores:
    """The .gitignore specs that apply in one folder, outermost first."""

    def __init__(self) -> None:
        self._cache: dict[Path, list[tuple[Path, pathspec.GitIgnoreSpec]]] = {}
        self._roots: dict[Path, Path | None] = {}
        self._stops: set[Path] = set()
        # Per work tree: the files git tracks, as a set and in order (`tracked`).
        self._tracked: dict[Path, tuple[frozenset[str], list[str]]] = {}

    def repo_root(self, folder: Path) -> Path | None:
        return work_tree_root(folder, self._roots)

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

    def specs(self, folder: Path) -> list[tuple[Path, pathspec.GitIgnoreSpec]]:
        if folder in self._cache:
            return self._cache[folder]
        root = self.repo_root(folder)
        if root is None:
            specs: list[tuple[Path, pathspec.GitIgnoreSpec]] = []
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

    def tracked(self, path: Path, is_dir: bool) -> bool:
        """Return whether git tracks the file (or, for a folder, a file under it)."""
        root = self.repo_root(path.parent)
        if root is None:
            return False
        if root not in self._tracked:
            # A folder holds a tracked file when a name in order after "folder/" starts with
            # it: no folder is spelled out per name, as each of its prefixes would cost the
            # name's length (a name of 100,000 parts from a tree's own index: 10^10 bytes).
            names = tracked_files(root)
            self._tracked[root] = (names, sorted(names))
        files, ordered = self._tracked[root]
        rel = path.relative_to(root).as_posix()
        if rel == ".":
            return bool(files)
        if not is_dir:
            return rel in files
        folder = rel + "/"
        at = bisect.bisect_left(ordered, folder)
        return at < len(ordered) and ordered[at].startswith(folder)

    def ignored(self, path: Path, is_dir: bool) -> bool:
        decision: bool | None = None
        for base, spec in self.specs(path.parent):
            rel = path.relative_to(base).as_posix() + ("/" if is_dir else "")
            result = spec.check_file(rel)
            if result.include is not None:
                decision = result.include
        return bool(decision)


def _load(path: Path) -> pathspec.GitIgnoreSpec:
    # Undecodable bytes stay as the surrogates `os.scandir` gives undecodable names, so a
    # pattern written in another encoding still matches the file it names; a line git would
    # ignore as malformed is ignored here too (`gitignore_spec`), never an error.
    # Lines split as git splits them: at "\n" only, a "\r" before it dropped, a leading
    # UTF-8 byte-order mark skipped.
    try:
        data = path.read_bytes()
    except OSError:
        data = b""
    data = data.removeprefix(b"\xef\xbb\xbf")
    text = data.decode("utf-8", "surrogateescape")
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    return gitignore_spec(lines)


# Why a named path yields nothing to check (`discover`'s `on_skip`).
NOT_A_KIND = "not a Python, notebook, dependency or configuration file"
NOTHING_UNDER = "no Python, notebook, dependency or configuration file to check in it"
EXCLUDED = "excluded by the policy (--force-exclude)"


class DiscoveryError(Exception):
    """A path named on the command line cannot be checked (not a regular file, leads outside)."""


@dataclass
class Notices:
    """What the walk met and left alone, for the command to say (and `fix` to tidy up)."""

    # (path, why it was skipped): files and folders the walk did not read or enter.
    skipped: list[tuple[Path, str]] = field(default_factory=list)
    # Temporary files a killed `fix` left behind (our name shape, old enough).
    stale_temps: list[Path] = field(default_factory=list)
    # Files an ignore file names that git tracks: checked, and the ignore file overruled.
    overruled: list[Path] = field(default_factory=list)
    # Files git tracks in a folder the walk skips by its name or a marker file: checked.
    unskipped: list[Path] = field(default_factory=list)


def _inside(real: str, roots: Sequence[str]) -> bool:
    for root in roots:
        prefix = root if root.endswith(os.sep) else root + os.sep
        if real == root or real.startswith(prefix):
            return True
    return False


def discover(
    paths: list[Path],
    is_excluded: Callable[[Path], bool],
    force_exclude: bool = False,
    respect_gitignore: bool = True,
    on_skip: Callable[[Path, str], None] | None = None,
    notices: Notices | None = None,
    compiled: bool = False,
) -> Iterator[Candidate]:
    """Yield every file to check under `paths`, each once, in a stable order.

    With `compiled` (a trusted gate), also the files Python may import code from that are not
    source (`compiled.classify`: extension modules, bytecode, archives), as COMPILED_KIND, in
    `__pycache__` folders too.

    `on_skip(path, why)` hears of every named path that yields nothing: a file of no kind the
    checks read, a file the policy excludes under `force_exclude`, a folder with nothing to check.

    Only regular files are read, and only inside the paths given: a folder given is a root, and
    a file given makes its own folder one (after resolving symlinks). The walk enters each real
    folder once (by device and inode) and never follows a symlink to a folder; a symlink to a
    file inside the roots is checked once, at its target (`Candidate.real`); one that leads
    outside, a FIFO, a device or a dangling link is skipped and listed in `notices`. A file named
    on the command line that cannot be checked that way raises DiscoveryError.
    """
    notices = notices if notices is not None else Notices()
    skip = on_skip or (lambda path, why: None)
    ignores = _GitIgnores()
    absolute = [Path(os.path.abspath(given)) for given in paths]
    roots = [os.path.realpath(path if path.is_dir() else path.parent) for path in absolute]
    walk = _Walk(ignores, is_excluded, respect_gitignore, roots, notices, compiled)
    for given, path in zip(paths, absolute, strict=True):
        if not path.is_dir():
            if force_exclude and is_excluded(path):
                skip(path, EXCLUDED)
                continue
            kind = walk.kind(path)
            if kind is None:
                skip(path, NOT_A_KIND)
                continue
            real, key = _named_file(given, path, roots)
            if key not in walk.files:
                walk.files.add(key)
                yield Candidate(path, kind, explicit=True, real=Path(real))
            continue
        ignores.start_at(path)
        found = 0
        linked = len(walk.links)
        for candidate in walk.folder(path):
            found += 1
            yield candidate
        if not found and len(walk.links) == linked:
            skip(path, NOTHING_UNDER)
    yield from walk.linked_folders()
    yield from walk.linked_files()


def _named_file(given: Path, path: Path, roots: Sequence[str]) -> tuple[str, tuple[int, int]]:
    """Return a named file's real path and identity, or raise DiscoveryError saying why not."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise DiscoveryError(f"{given}: cannot read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        what = describe_mode(info.st_mode)
        raise DiscoveryError(f"{given}: not a regular file ({what}); only regular files are read")
    real = os.path.realpath(path)
    if not _inside(real, roots):
        raise DiscoveryError(
            f"{given}: a symlink to {real}, outside the paths given; name the target instead"
        )
    return real, (info.st_dev, info.st_ino)


class _Walk:
    """One walk over the folders given: the files and folders it has met, by device and inode."""

    def __init__(
        self,
        ignores: _GitIgnores,
        is_excluded: Callable[[Path], bool],
        respect_gitignore: bool,
        roots: Sequence[str],
        notices: Notices,
        compiled: bool = False,
    ) -> None:
        self.ignores = ignores
        self.compiled = compiled
        # `__pycache__` folders git does not track, entered (with `compiled`) for the bytecode
        # in them only.
        self.bytecode_only: set[Path] = set()
        self.is_excluded = is_excluded
        self.respect_gitignore = respect_gitignore
        self.roots = roots
        self.notices = notices
        self.files: set[tuple[int, int]] = set()
        self.folders: set[tuple[int, int]] = set()
        # Symlinks to files inside the roots: yielded last, so a file is reported at its own
        # name when the walk meets it there, and at the first link's name otherwise.
        self.links: list[tuple[Candidate, tuple[int, int]]] = []
        # Folders an ignore file names that are entered for the files git tracks in them.
        self.ignored_folders: set[Path] = set()
        # Folders skipped by their name or a marker file (a cache, an environment) that are
        # entered for the files git tracks in them: a pull request could otherwise hide a
        # package it imports by committing a `CACHEDIR.TAG` into it or naming it `node_modules`.
        # True: Python files only (a folder skipped by name: a committed `node_modules` holds
        # JSON of other languages' packages, not the project's data).
        self.tracked_only: dict[Path, bool] = {}
        # The real paths of the folders walked, and the symlinks to folders inside the roots:
        # a linked folder the walk did not enter at its own name (`pkg -> .venv/pkg`, which
        # Python imports as `pkg`) is walked at the link's name.
        self.entered: set[str] = set()
        self.folder_links: list[tuple[Path, str]] = []

    def folder(self, path: Path) -> Iterator[Candidate]:
        try:
            info = os.stat(path)
        except OSError:
            return
        key = (info.st_dev, info.st_ino)
        if key in self.folders:
            return
        self.folders.add(key)
        yield from self._walk(path, os.path.realpath(path), info.st_dev)

    def linked_folders(self) -> Iterator[Candidate]:
        index = 0
        while index < len(self.folder_links):  # a linked folder may hold links of its own
            path, real = self.folder_links[index]
            index += 1
            if real in self.entered:
                continue
            try:
                info = os.stat(real)
            except OSError:
                continue
            self.folders.add((info.st_dev, info.st_ino))
            yield from self._walk(path, real, info.st_dev, NOT_SOURCE_MARKERS)

    def linked_files(self) -> Iterator[Candidate]:
        for candidate, key in self.links:
            if key not in self.files:
                self.files.add(key)
                yield candidate

    def kind(self, path: Path) -> str | None:
        """Return the kind of a file the walk looks at, compiled modules included if asked."""
        kind = kind_of(path)
        if kind is None and self.compiled:
            kind = compiled_kind(path)
        return kind

    def _skip(self, path: Path, why: str) -> None:
        self.notices.skipped.append((path, why))

    def _wanted(self, path: Path, is_dir: bool) -> bool:
        python_only = self.tracked_only.get(path.parent)
        if python_only is not None:
            if not self.ignores.tracked(path, is_dir):
                return False
            if is_dir:
                self.tracked_only[path] = python_only
            elif python_only and self.kind(path) not in ("python", COMPILED_KIND):
                return False
            else:
                self.notices.unskipped.append(path)
        if self.respect_gitignore and (
            path.parent in self.ignored_folders or self.ignores.ignored(path, is_dir)
        ):
            # Git tracks what was added before an ignore file named it (or despite it): the
            # ignore file does not apply to it, and a pull request cannot hide a file with one.
            # An ignored folder holding tracked files is entered for those files only.
            if not self.ignores.tracked(path, is_dir):
                return False
            if is_dir:
                self.ignored_folders.add(path)
            else:
                self.notices.overruled.append(path)
        return not self.is_excluded(path)

    def _enter_by_name(self, name: str, path: Path) -> bool:
        """Return whether a folder's name lets the walk enter it.

        A folder skipped by name whose name Python can import (`node_modules`, `venv`) is
        entered for the files git tracks in it.
        """
        if name not in SKIP_DIRS and not name.endswith(".egg-info"):
            return True
        if self.compiled and name == "__pycache__" and not self.ignores.tracked(path, True):
            self.bytecode_only.add(path)
            return True
        if not (name.isidentifier() and self.ignores.tracked(path, True)):
            return False
        self.tracked_only[path] = True
        return True

    def _enter(
        self, folder: Path, real: str, markers: frozenset[str]
    ) -> list[os.DirEntry[str]] | None:
        """Return a folder's entries, or None when it is not walked (again)."""
        if real in self.entered:
            return None
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            return None
        if _not_source({entry.name for entry in entries}, markers):
            # A cache folder or an environment, under any name: never source, except the files
            # git tracks in it (nobody commits a cache; a committed marker hides nothing).
            if not self.ignores.tracked(folder, True):
                return None
            self.tracked_only.setdefault(folder, False)
        self.entered.add(real)
        return entries

    def _walk(
        self, folder: Path, real: str, device: int, markers: frozenset[str] = ROOT_MARKERS
    ) -> Iterator[Candidate]:
        entries = self._enter(folder, real, markers)
        if entries is None:
            return
        subfolders: list[tuple[Path, str, int]] = []
        for entry in entries:
            path = Path(entry.path)
            try:
                if entry.is_symlink():
                    self._link(entry, path)
                elif entry.is_dir(follow_symlinks=False):
                    if not self._enter_by_name(entry.name, path) or not self._wanted(path, True):
                        continue
                    info = entry.stat(follow_symlinks=False)
                    key = (info.st_dev, info.st_ino)
                    if key not in self.folders:  # a bind mount of a folder above, say
                        self.folders.add(key)
                        subfolders.append((path, os.path.join(real, entry.name), info.st_dev))
                elif entry.is_file(follow_symlinks=False):
                    candidate = self._file(entry, path, os.path.join(real, entry.name))
                    if candidate is not None:
                        key = (device, entry.inode())
                        if key not in self.files:  # a hard link met before
                            self.files.add(key)
                            yield candidate
                elif self.kind(path) is not None:
                    mode = entry.stat(follow_symlinks=False).st_mode
                    self._skip(path, f"not a regular file ({describe_mode(mode)})")
            except OSError:
                continue
        for sub, sub_real, sub_device in subfolders:
            yield from self._walk(sub, sub_real, sub_device, NOT_SOURCE_MARKERS)

    def _file(self, entry: os.DirEntry[str], path: Path, real: str) -> Candidate | None:
        kind = self.kind(path)
        if path.parent in self.bytecode_only and kind != COMPILED_KIND:
            return None
        if kind is None:
            if (
                is_temp_name(entry.name)
                and is_stale_temp(entry.name, entry.stat(follow_symlinks=False))
                and not self.ignores.tracked(path, False)  # a file git tracks is nobody's leftover
            ):
                self.notices.stale_temps.append(path)
            return None
        if not self._wanted(path, False):
            return None
        return Candidate(path, kind, explicit=False, real=Path(real))

    def _link(self, entry: os.DirEntry[str], path: Path) -> None:
        """Note a symlink: a link to a file inside the roots is checked at the end."""
        kind = self.kind(path)
        if entry.name in SKIP_DIRS or not self._wanted(path, False):
            return
        try:
            info = os.stat(path)
        except OSError as exc:
            if kind is not None:
                self._skip(path, f"a symlink that leads nowhere ({exc.strerror or exc})")
            return
        real = os.path.realpath(path)
        if stat.S_ISDIR(info.st_mode):
            # Never followed: a folder inside the roots is walked at its own name, and one
            # outside is not ours to read.
            if not _inside(real, self.roots):
                self._skip(path, f"a symlink to a folder outside the paths given ({real})")
            elif not any(
                _VCS_FOLDERS.intersection(Path(os.path.relpath(real, root)).parts)
                for root in self.roots
                if _inside(real, [root])
            ):
                # (A version control folder holds no file of the tree's own: never walked.)
                self.folder_links.append((path, real))
            return
        if kind is None:
            return
        if not stat.S_ISREG(info.st_mode):
            self._skip(path, f"a symlink to {describe_mode(info.st_mode)} ({real})")
        elif not _inside(real, self.roots):
            self._skip(path, f"a symlink to a file outside the paths given ({real})")
        else:
            candidate = Candidate(path, kind, explicit=False, real=Path(real))
            self.links.append((candidate, (info.st_dev, info.st_ino)))
