"""A baseline: today's findings recorded so that only new ones are reported.

An entry is keyed by rule code, the file's path relative to the baseline file's folder (or the
folder `--baseline-root` names, for a copy read from elsewhere), the
enclosing function or class, and a fingerprint of the offending node's source with whitespace
and comments stripped, never the line number: unrelated edits that move code leave it matched,
editing the offending code does not. A count covers identical findings in one scope.

An entry is judged only when its file was checked in this run (a pre-commit run checks a few
files) or its file is gone. One whose findings were fixed is *stale*: the run fails until
`--prune-baseline` rewrites the file without it, so the baseline only ever shrinks.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_migrate.core.diagnostics import Diagnostic, FileError, FileResult
from claude_migrate.core.errors import number_too_long
from claude_migrate.core.escapes import escape_undecodable, unescape_undecodable
from claude_migrate.core.output_file import write_output

VERSION = 1
ERROR_CONTEXT = ""
_COMMENT = (
    "Findings accepted when claude-migrate was adopted; `check --baseline` reports only new "
    "ones. Regenerate with `--write-baseline`, shrink with `--prune-baseline`."
)


class BaselineError(Exception):
    """A baseline file that cannot be read or does not have the expected shape (exit 2)."""


@dataclass(frozen=True, order=True)
class Key:
    path: str  # relative to the baseline file's folder, forward slashes
    code: str
    context: str
    fingerprint: str


@dataclass(frozen=True)
class StaleEntry:
    """A baseline entry that matches fewer findings than it records."""

    key: Key
    recorded: int
    found: int
    display: str  # the file, relative to the working directory
    message: str = ""

    def describe(self) -> str:
        where = f" in {self.key.context}" if self.key.context else ""
        return (
            f"{self.display}: baseline entry {self.key.code}{where} no longer matches "
            f"(recorded {self.recorded}, found {self.found})"
        )


@dataclass
class Baseline:
    """The entries of one baseline file."""

    path: Path
    counts: dict[Key, int] = field(default_factory=dict)
    messages: dict[Key, str] = field(default_factory=dict)
    # The folder entries' paths are relative to, when it is not the file's own (a copy of a
    # repository's baseline read from outside the checkout, `--baseline-root`).
    root: Path | None = None

    @property
    def folder(self) -> Path:
        if self.root is not None:
            return Path(os.path.abspath(self.root))
        return Path(os.path.abspath(self.path)).parent

    @classmethod
    def load(cls, path: Path, root: Path | None = None) -> Baseline:
        """Read a baseline file; a missing or malformed one is a `BaselineError`.

        `root` is the folder its entries' paths are relative to (default: the file's folder).
        """
        text = _read(path)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BaselineError(
                f"{path}:{exc.lineno}: invalid JSON in the baseline: {exc.msg}"
            ) from None
        except RecursionError:
            raise BaselineError(
                f"{path}: invalid baseline: nested too deeply (a baseline is a list of entries)"
            ) from None
        except ValueError:
            words, line = number_too_long(text)
            where = f"{path}:{line}" if line else str(path)
            raise BaselineError(f"{where}: invalid JSON in the baseline: {words}") from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise BaselineError(
                f'{path}: expected a claude-migrate baseline object with "version": {VERSION}'
            )
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise BaselineError(f"{path}: `entries`: expected a list of entries")
        baseline = cls(path, root=root)
        for index, entry in enumerate(entries):
            key, count, message = _parse_entry(path, index, entry)
            baseline.counts[key] = baseline.counts.get(key, 0) + count
            baseline.messages.setdefault(key, message)
        return baseline

    def save(self) -> None:
        """Write the baseline atomically, entries sorted so diffs stay small."""
        entries = []
        for key in sorted(self.counts):
            entry: dict[str, Any] = {
                "path": key.path,
                "code": key.code,
                "context": key.context,
                "fingerprint": key.fingerprint,
                "count": self.counts[key],
            }
            if self.messages.get(key):
                entry["message"] = escape_undecodable(self.messages[key])
            entries.append(entry)
        payload = {
            "version": VERSION,
            "tool": "claude-migrate",
            "comment": _COMMENT,
            "entries": entries,
        }
        _write(self.path, json.dumps(payload, indent=2, ensure_ascii=False) + "\n")

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def _read(path: Path) -> str:
    """Return a baseline file's text; anything but a readable regular file is a `BaselineError`.

    Opened without blocking and checked before reading: a FIFO or a device given as the
    baseline is an error, never a hang.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise BaselineError(
            f"{path}: baseline file not found (create it with --write-baseline {path})"
        ) from None
    except OSError as exc:
        raise BaselineError(f"{path}: cannot read the baseline: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise BaselineError(f"{path}: cannot read the baseline: not a regular file")
        try:
            data = handle.read()
        except OSError as exc:
            raise BaselineError(
                f"{path}: cannot read the baseline: {exc.strerror or exc}"
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise BaselineError(f"{path}:{line}: cannot read the baseline: not UTF-8") from None


# A path a file system can hold: no component longer than NAME_MAX, the whole within PATH_MAX
# (the Linux limits, which are the smallest common ones).
_NAME_MAX = 255
_PATH_MAX = 4096


def _path_problem(value: str) -> str | None:
    """Return why a baseline entry's path can name no file, or None if it can."""
    if not value:
        return "an empty path"
    if "\0" in value:
        return "a path with a NUL character"
    if value.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", value):
        return "an absolute path (entries are relative to the baseline's folder)"
    data = unescape_undecodable(value).encode("utf-8", "surrogateescape")
    if len(data) > _PATH_MAX:
        return f"a path of {len(data)} bytes (at most {_PATH_MAX})"
    longest = max(len(part) for part in data.split(b"/"))
    if longest > _NAME_MAX:
        return f"a path with a {longest}-byte name (at most {_NAME_MAX} bytes each)"
    return None


def _lone(text: str) -> str:
    return next(ch for ch in text if 0xD800 <= ord(ch) <= 0xDFFF)


# More identical findings in one scope than any file holds: a larger count is not a baseline.
_MAX_COUNT = 1_000_000


def _parse_entry(path: Path, index: int, entry: Any) -> tuple[Key, int, str]:
    where = f"{path}: `entries[{index}]`"
    if not isinstance(entry, dict):
        raise BaselineError(f"{where}: expected an object, got {type(entry).__name__}")
    values = []
    for name in ("path", "code", "context", "fingerprint"):
        value = entry.get(name)
        if not isinstance(value, str):
            shown = repr(value) if len(repr(value)) <= 80 else type(value).__name__
            raise BaselineError(f"{where}.{name}: expected a string, got {shown}")
        # JSON may spell a lone surrogate (`"\\udcff"`); a baseline we write never does.
        if escape_undecodable(value) != value:
            raise BaselineError(f"{where}.{name}: a lone surrogate (\\u{ord(_lone(value)):04x})")
        values.append(value)
    problem = _path_problem(values[0])
    if problem is not None:
        raise BaselineError(f"{where}.path: expected a relative file path, got {problem}")
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= _MAX_COUNT:
        shown = repr(count) if len(repr(count)) <= 80 else type(count).__name__
        raise BaselineError(
            f"{where}.count: expected a positive integer (at most {_MAX_COUNT}), got {shown}"
        )
    message = entry.get("message", "")
    return Key(*values), count, message if isinstance(message, str) else ""


def _write(path: Path, text: str) -> None:
    """Replace or create `path` atomically; a failed write is a `BaselineError` (exit 2)."""
    try:
        write_output(Path(os.path.abspath(path)), text.encode("utf-8"))
    except OSError as exc:
        raise BaselineError(f"{path}: cannot write the baseline: {exc.strerror or exc}") from None


def _exists(folder: Path, rel: str) -> bool:
    """Return whether an entry's file exists (its name as recorded, escapes turned back)."""
    for name in {rel, unescape_undecodable(rel)}:
        try:
            if (folder / name).exists():
                return True
        except (OSError, ValueError):
            continue
    return False


# Matching -------------------------------------------------------------------------------------


def _relative(display: str, cwd: Path, folder: Path) -> str:
    # Bytes of a name that is not UTF-8 are recorded escaped, so the file is valid JSON.
    absolute = os.path.normpath(os.path.join(cwd, display))
    return escape_undecodable(Path(os.path.relpath(absolute, folder)).as_posix())


def _error_key(error: FileError, rel: str) -> Key:
    from claude_migrate.core.diagnostics import fingerprint

    # Parser messages quote positions ("error at 4:4"): leave numbers out of the identity.
    return Key(rel, error.code, ERROR_CONTEXT, fingerprint(re.sub(r"\d+", "#", error.message)))


def _diagnostic_key(diagnostic: Diagnostic, rel: str) -> Key:
    return Key(rel, diagnostic.code, diagnostic.context, diagnostic.fingerprint)


@dataclass
class Outcome:
    """What applying a baseline did to a run."""

    baselined: list[Diagnostic] = field(default_factory=list)
    baselined_errors: list[FileError] = field(default_factory=list)
    stale: list[StaleEntry] = field(default_factory=list)
    # What each judged entry still matches (for pruning).
    matched: dict[Key, int] = field(default_factory=dict)
    judged: set[Key] = field(default_factory=set)


def apply(results: Sequence[FileResult], baseline: Baseline, cwd: Path) -> Outcome:
    """Remove baselined findings from `results` (in place); return them and the stale entries."""
    folder = baseline.folder
    outcome = Outcome()
    remaining = dict(baseline.counts)
    checked: set[str] = set()
    unanalysed: set[str] = set()
    for result in results:
        rel = _relative(result.path, cwd, folder)
        checked.add(rel)
        if result.errors and not result.parsed:
            unanalysed.add(rel)
        kept_errors = []
        for error in result.errors:
            key = _error_key(error, rel)
            if remaining.get(key, 0) > 0:
                remaining[key] -= 1
                outcome.matched[key] = outcome.matched.get(key, 0) + 1
                outcome.baselined_errors.append(error)
            else:
                kept_errors.append(error)
        result.errors = kept_errors
        kept = []
        for diagnostic in sorted(result.diagnostics, key=Diagnostic.sort_key):
            key = _diagnostic_key(diagnostic, rel)
            if remaining.get(key, 0) > 0:
                remaining[key] -= 1
                outcome.matched[key] = outcome.matched.get(key, 0) + 1
                outcome.baselined.append(diagnostic)
            else:
                kept.append(diagnostic)
        result.diagnostics = kept
    for key, recorded in sorted(baseline.counts.items()):
        if key.path not in checked and _exists(folder, key.path):
            continue  # not checked in this run: nothing to say about it
        if key.path in unanalysed and key.code != "CM001":
            continue  # the file could not be analysed this time: its findings are unknown
        outcome.judged.add(key)
        found = outcome.matched.get(key, 0)
        if found < recorded:
            display = Path(os.path.relpath(folder / unescape_undecodable(key.path), cwd)).as_posix()
            outcome.stale.append(
                StaleEntry(key, recorded, found, display, baseline.messages.get(key, ""))
            )
    return outcome


def prune(baseline: Baseline, outcome: Outcome) -> int:
    """Lower or drop the stale entries in place; return how many findings were removed."""
    removed = 0
    for entry in outcome.stale:
        removed += entry.recorded - entry.found
        if entry.found:
            baseline.counts[entry.key] = entry.found
        else:
            del baseline.counts[entry.key]
            baseline.messages.pop(entry.key, None)
    outcome.stale = []
    return removed


def record(results: Iterable[FileResult], path: Path, cwd: Path) -> Baseline:
    """Return a baseline of every finding in `results`, kept with the entries of other files.

    Entries for files this run did not check are kept while the file exists, so recording from
    a partial run (a few files) never forgets the rest.
    """
    # Only a regular file holds entries to keep; a device or FIFO (`/dev/stdout`) is written to.
    baseline = Baseline.load(path) if path.is_file() else Baseline(path)
    folder = baseline.folder
    results = list(results)
    checked = {_relative(r.path, cwd, folder) for r in results}
    counts: Counter[Key] = Counter()
    messages: dict[Key, str] = {}
    for key, count in baseline.counts.items():
        if key.path not in checked and _exists(folder, key.path):
            counts[key] = count
            messages[key] = baseline.messages.get(key, "")
    for result in results:
        rel = _relative(result.path, cwd, folder)
        for error in result.errors:
            key = _error_key(error, rel)
            counts[key] += 1
            messages.setdefault(key, error.message)
        for diagnostic in result.diagnostics:
            key = _diagnostic_key(diagnostic, rel)
            counts[key] += 1
            messages.setdefault(key, diagnostic.message)
    baseline.counts = dict(counts)
    baseline.messages = messages
    return baseline
