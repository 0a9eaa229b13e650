"""A baseline: today's findings recorded so that only new ones are reported.

An entry is keyed by rule code, the file's path relative to the baseline file's folder, the
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
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import Diagnostic, FileError, FileResult
from .fixer import write_atomic

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

    @property
    def folder(self) -> Path:
        return Path(os.path.abspath(self.path)).parent

    @classmethod
    def load(cls, path: Path) -> Baseline:
        """Read a baseline file; a missing or malformed one is a `BaselineError`."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise BaselineError(
                f"{path}: baseline file not found (create it with --write-baseline {path})"
            ) from None
        except (OSError, UnicodeDecodeError) as exc:
            raise BaselineError(f"{path}: cannot read the baseline: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BaselineError(
                f"{path}:{exc.lineno}: invalid JSON in the baseline: {exc.msg}"
            ) from None
        if not isinstance(data, dict) or data.get("version") != VERSION:
            raise BaselineError(
                f'{path}: expected a claude-migrate baseline object with "version": {VERSION}'
            )
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise BaselineError(f"{path}: `entries`: expected a list of entries")
        baseline = cls(path)
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
                entry["message"] = self.messages[key]
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


def _parse_entry(path: Path, index: int, entry: Any) -> tuple[Key, int, str]:
    where = f"{path}: `entries[{index}]`"
    if not isinstance(entry, dict):
        raise BaselineError(f"{where}: expected an object")
    values = []
    for name in ("path", "code", "context", "fingerprint"):
        value = entry.get(name)
        if not isinstance(value, str):
            raise BaselineError(f"{where}.{name}: expected a string, got {value!r}")
        values.append(value)
    count = entry.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise BaselineError(f"{where}.count: expected a positive integer, got {count!r}")
    message = entry.get("message", "")
    return Key(*values), count, message if isinstance(message, str) else ""


def _write(path: Path, text: str) -> None:
    """Replace or create `path` atomically (temporary file in the same folder, then rename)."""
    folder = Path(os.path.abspath(path)).parent
    folder.mkdir(parents=True, exist_ok=True)
    write_atomic(folder / path.name, text.encode("utf-8"))


# Matching -------------------------------------------------------------------------------------


def _relative(display: str, cwd: Path, folder: Path) -> str:
    absolute = os.path.normpath(os.path.join(cwd, display))
    return Path(os.path.relpath(absolute, folder)).as_posix()


def _error_key(error: FileError, rel: str) -> Key:
    from .diagnostics import fingerprint

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
        if key.path not in checked and (folder / key.path).exists():
            continue  # not checked in this run: nothing to say about it
        if key.path in unanalysed and key.code != "CM001":
            continue  # the file could not be analysed this time: its findings are unknown
        outcome.judged.add(key)
        found = outcome.matched.get(key, 0)
        if found < recorded:
            display = Path(os.path.relpath(folder / key.path, cwd)).as_posix()
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
    baseline = Baseline.load(path) if path.exists() else Baseline(path)
    folder = baseline.folder
    results = list(results)
    checked = {_relative(r.path, cwd, folder) for r in results}
    counts: Counter[Key] = Counter()
    messages: dict[Key, str] = {}
    for key, count in baseline.counts.items():
        if key.path not in checked and (folder / key.path).exists():
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
