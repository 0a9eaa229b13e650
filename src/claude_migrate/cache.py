"""The result cache: what a file was found to hold, kept by everything that decides it.

An entry is keyed by a hash of the file's bytes, its `FileSettings.digest` (the policy in effect
for it), its kind and name, and the run's mode; entries live under a folder named by a hash of
the tool's own source, so an upgrade (or an edit of an editable install) starts afresh. File
modification times play no part: CI checkouts reset them, and a content hash is what decides
the findings.

Only files that pass the prefilter are cached: the others are decided from their bytes faster
than an entry could be read. On a warm run every such file is answered from its entry, so nothing
is parsed and LibCST is never imported.

Layout and safety under concurrent runs: one small JSON file per entry
(`<root>/<build>/<ab>/<key>.json`), written to a temporary file in the same folder and renamed
into place, so a reader sees a whole entry or none; there is no shared index to tear. Two runs
storing the same key write the same bytes. An entry that is unreadable, truncated or not what
this build writes is a miss (and is overwritten), never an error. JSON, not pickle: a cache
folder can come from anywhere (a CI cache restore), and reading it must not run code.

Pruning: an entry used by a run has its modification time refreshed; entries and whole builds
unused for `MAX_AGE` are deleted, at most once per `PRUNE_EVERY` per cache folder.

`fix`: an entry records the result of checking a file. A `fix` run uses a check entry only when
it holds no finding (then there is nothing to fix, and the fix result is the same); otherwise it
uses its own entries, keyed by `--unsafe-fixes` too, stored only for files a fix left unchanged
(their remaining findings, each with why it was left). A file `fix` rewrote is not stored: its
new bytes are checked again next time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from . import __version__
from .config import CONFIG_NAME, PYPROJECT, FileSettings
from .diagnostics import Applicability, Diagnostic, Edit, FileError, FileResult, Fix, Severity

CACHE_DIR_NAME = ".claude-migrate-cache"
FORMAT = 1
MAX_AGE = 7 * 24 * 3600.0  # seconds an entry or build may go unused before it is pruned
PRUNE_EVERY = 3600.0  # seconds between two prunes of one cache folder
_TOUCH_AFTER = 3600.0  # refresh an entry's time at most this often
_PRUNED_MARK = ".last-prune"
# FileResult fields that describe this run rather than the file: never stored.
_RUN_FIELDS = frozenset(
    {"path", "parsed", "from_cache", "written", "fixed", "original_text", "fixed_text"}
)


@functools.cache
def build_id() -> str:
    """Return a hash of this installation's version and source, naming its cache folder."""
    digest = hashlib.blake2b(f"{FORMAT}:{__version__}".encode(), digest_size=10)
    package = Path(__file__).resolve().parent
    from .resources import rules_dir

    shipped = rules_dir()
    # The code and the shipped data (presets, the deprecation catalogue) decide every result.
    files = [*sorted(package.rglob("*.py")), *sorted(shipped.glob("*.toml"))]
    for path in files:
        digest.update(path.name.encode() if path.parent == shipped else path.relative_to(package).as_posix().encode())
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return f"{__version__}-{digest.hexdigest()}"


def project_root(start: Path) -> Path:
    """Return where the default cache folder goes for a run started in `start`.

    The nearest folder holding `.git` (one cache per repository, wherever in it the command
    runs and however many policy files a monorepo nests: entries are keyed by each file's own
    policy, so they can share a folder); else the nearest folder holding a policy file; else
    `start` itself.
    """
    start = start.resolve()
    chain = [start, *start.parents]
    for folder in chain:
        if (folder / ".git").exists():
            return folder
    for folder in chain:
        if (folder / CONFIG_NAME).is_file() or (folder / PYPROJECT).is_file():
            return folder
    return start


def default_dir(start: Path) -> Path:
    return project_root(start) / CACHE_DIR_NAME


# Entries ------------------------------------------------------------------------------------


def _fix_to_json(fix: Fix | None) -> Any:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "description": fix.description,
        "edits": [[e.start, e.end, e.replacement] for e in fix.edits],
    }


def _fix_from_json(data: Any) -> Fix | None:
    if data is None:
        return None
    return Fix(
        Applicability(data["applicability"]),
        data["description"],
        tuple(Edit(int(s), int(e), str(r)) for s, e, r in data["edits"]),
    )


def _fields(cls: type, skip: frozenset[str] = frozenset({"path"})) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in skip]


def result_to_json(result: FileResult) -> dict[str, Any]:
    """Return what a result says about its file, as JSON data (no path, nothing run-specific)."""
    data: dict[str, Any] = {}
    for name in _fields(FileResult, _RUN_FIELDS):
        data[name] = getattr(result, name)
    data["diagnostics"] = [
        {
            **{name: getattr(d, name) for name in _fields(Diagnostic)},
            "fix": _fix_to_json(d.fix),
            "severity": d.severity.value,
        }
        for d in result.diagnostics
    ]
    data["errors"] = [
        {name: getattr(e, name) for name in _fields(FileError)} for e in result.errors
    ]
    return data


def result_from_json(data: dict[str, Any], path: str) -> FileResult:
    """Return the result an entry holds, reported at `path`; raises on anything malformed."""
    values = {name: data[name] for name in _fields(FileResult, _RUN_FIELDS)}
    values["diagnostics"] = [
        Diagnostic(
            path=path,
            **{
                **d,
                "fix": _fix_from_json(d["fix"]),
                "severity": Severity(d["severity"]),
                "related": tuple((str(p), int(n), str(m)) for p, n, m in d["related"]),
            },
        )
        for d in data["diagnostics"]
    ]
    values["errors"] = [FileError(path=path, **e) for e in data["errors"]]
    return FileResult(path=path, from_cache=True, **values)


class ResultCache:
    """One cache folder, used by one run (several runs may share the folder at once)."""

    def __init__(self, folder: Path, max_age: float = MAX_AGE) -> None:
        self.folder = Path(folder)
        self.max_age = max_age
        self._build: Path | None = None
        self._digests: dict[FileSettings, str] = {}
        self.hits = 0
        self.stores = 0

    @property
    def build_folder(self) -> Path:
        if self._build is None:
            self._build = self.folder / build_id()
        return self._build

    def key(
        self,
        data: bytes,
        settings: FileSettings,
        kind: str,
        name: str,
        mode: str,
        outside: str = "",
    ) -> str:
        """Return the entry key for a file's bytes under a policy, kind, name and mode.

        `outside` is what findings depend on beyond the file and its policy (the project facts,
        `external_state`): today's date for retirements, a team catalogue, the project's pins.
        """
        digest = self._digests.get(settings)
        if digest is None:
            digest = self._digests[settings] = settings.digest
        header = f"{kind}\0{name}\0{digest}\0{mode}\0{outside}\0".encode()
        return hashlib.blake2b(header + data, digest_size=20).hexdigest()

    def _entry(self, key: str) -> Path:
        return self.build_folder / key[:2] / f"{key}.json"

    def load(self, key: str, path: str) -> FileResult | None:
        """Return the stored result for `key` reported at `path`, or None (missing or broken)."""
        entry = self._entry(key)
        try:
            with open(entry, "rb") as handle:
                raw = handle.read()
        except OSError:
            return None
        try:
            stored = json.loads(raw)
            if not isinstance(stored, dict) or stored.get("format") != FORMAT:
                return None
            result = result_from_json(stored["result"], path)
        except Exception:  # a torn or foreign entry is a miss, whatever is wrong with it
            return None
        self._touch(entry)
        self.hits += 1
        return result

    def _touch(self, entry: Path) -> None:
        with contextlib.suppress(OSError):
            if time.time() - os.stat(entry).st_mtime > _TOUCH_AFTER:
                os.utime(entry)

    def load_data(self, key: str) -> Any:
        """Return the JSON data stored under `key` by `store_data`, or None (missing or broken)."""
        try:
            with open(self._entry(key), "rb") as handle:
                stored = json.loads(handle.read())
        except (OSError, ValueError, RecursionError):
            return None
        if not isinstance(stored, dict) or stored.get("format") != FORMAT:
            return None
        self._touch(self._entry(key))
        return stored.get("data")

    def store_data(self, key: str, data: Any) -> None:
        """Store JSON data (the project phase's facts) under `key`, atomically."""
        try:
            payload = json.dumps({"format": FORMAT, "data": data}, separators=(",", ":")).encode()
        except (TypeError, ValueError, RecursionError):
            return
        self._write(key, payload)

    def store(self, key: str, result: FileResult) -> None:
        """Write the entry for `key` atomically; a cache that can't be written is skipped."""
        try:
            payload = json.dumps(
                {"format": FORMAT, "result": result_to_json(result)}, separators=(",", ":")
            ).encode()
        except (TypeError, ValueError):  # a field JSON cannot hold: don't cache this file
            return
        self._write(key, payload)

    def _write(self, key: str, payload: bytes) -> None:
        entry = self._entry(key)
        try:
            self._prepare(entry.parent)
            fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=entry.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(payload)
                os.replace(temp, entry)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError:
            return
        self.stores += 1

    def _prepare(self, folder: Path) -> None:
        if folder.is_dir():
            return
        if not self.folder.is_dir():
            self.folder.mkdir(parents=True, exist_ok=True)
            # Never committed, and skipped by backup tools (https://bford.info/cachedir/).
            with contextlib.suppress(OSError):
                (self.folder / ".gitignore").write_text("# Created by claude-migrate\n*\n")
                (self.folder / "CACHEDIR.TAG").write_text(
                    "Signature: 8a477f597d28d172789f06886806bc55\n"
                    "# This file is a cache directory tag created by claude-migrate.\n"
                )
        folder.mkdir(parents=True, exist_ok=True)

    # Pruning --------------------------------------------------------------------------------
    def maybe_prune(self) -> None:
        """Prune when this folder was last pruned more than `PRUNE_EVERY` ago."""
        mark = self.folder / _PRUNED_MARK
        try:
            if time.time() - os.stat(mark).st_mtime < PRUNE_EVERY:
                return
        except FileNotFoundError:
            if not self.folder.is_dir():
                return
        except OSError:
            return
        with contextlib.suppress(OSError):
            mark.touch()
        self.prune()

    def prune(self, now: float | None = None) -> int:
        """Delete entries and other builds' folders unused for `max_age`; return how many."""
        now = time.time() if now is None else now
        removed = 0
        try:
            builds = list(os.scandir(self.folder))
        except OSError:
            return 0
        for build in builds:
            if not build.is_dir(follow_symlinks=False):
                continue
            newest = 0.0
            for shard in _scandir(build.path):
                if not shard.is_dir(follow_symlinks=False):
                    continue
                for entry in _scandir(shard.path):
                    try:
                        mtime = entry.stat(follow_symlinks=False).st_mtime
                    except OSError:
                        continue
                    if now - mtime > self.max_age:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)
                            removed += 1
                    else:
                        newest = max(newest, mtime)
            if build.name != build_id() and now - newest > self.max_age:
                shutil.rmtree(build.path, ignore_errors=True)
        return removed


def _scandir(path: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(path))
    except OSError:
        return []


# The engine's side ---------------------------------------------------------------------------


def external_state(settings: FileSettings, kind: str, path: str) -> str:
    """Return what a file's findings may depend on outside the file and its policy.

    The project's facts (`facts.ProjectFacts.cache_key`), the same for every rule selection and
    file kind: a rule reads facts, never state of its own, so none can be left out of the key.
    """
    from .facts import facts_for

    return facts_for(settings).cache_key(path)


def mode_of(fix: bool, unsafe: bool) -> str:
    if not fix:
        return "check"
    return "fix-unsafe" if unsafe else "fix"


def lookup(
    cache: ResultCache,
    data: bytes,
    settings: FileSettings,
    kind: str,
    path: str,
    display: str,
    fix: bool,
    unsafe: bool,
    project: str = "",
) -> tuple[FileResult | None, str]:
    """Return (the cached result or None, the key to store this run's result under).

    `project` is the digest of what the project phase told the file (the facts of the modules
    it imports, and what other modules' calls decide about its own functions): a change there
    changes the file's findings without changing its bytes.
    """
    name = os.path.basename(path)
    mode = mode_of(fix, unsafe)
    outside = external_state(settings, kind, path)
    if project:
        outside = f"{outside};project={project}"
    key = cache.key(data, settings, kind, name, mode, outside)
    result = cache.load(key, display)
    if result is None and fix:
        # A file checked clean needs no fix: the check entry answers for `fix` too.
        checked = cache.load(cache.key(data, settings, kind, name, "check", outside), display)
        if checked is not None and not checked.diagnostics:
            result = checked
    return result, key


def storable(result: FileResult, fix: bool) -> bool:
    """Return whether a fresh result describes its file's bytes as they were read."""
    if fix and (result.written or result.fixed or result.fixed_text is not None):
        return False  # the file (or its preview) changed: next time its new bytes are checked
    return not any(e.message.startswith(_TRANSIENT) for e in result.errors)


def unchanged(path: str, data: bytes) -> bool:
    """Return whether the file still holds `data` (it may change while a worker reads it)."""
    try:
        with open(path, "rb") as handle:
            return handle.read() == data
    except OSError:
        return False


# Errors that say something about this run, not about the file's bytes.
_TRANSIENT = ("cannot read", "worker process crashed", "internal error")
