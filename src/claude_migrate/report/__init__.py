"""Turn a run's results into what people and CI systems read.

Each format is a module with `render(run) -> str`; `FORMATS` maps the `--format` names to them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.core.diagnostics import Diagnostic, FileError, FileResult, Severity
from claude_migrate.core.escapes import escape_undecodable
from claude_migrate.discovery.git import work_tree_root

if TYPE_CHECKING:
    from claude_migrate.engine.baseline import (
        StaleEntry,  # a baseline is read only when one is named
    )


def offers_fix(diagnostic: Diagnostic, unsafe: bool) -> bool:
    """Return whether running `fix` (with `unsafe`) would apply this finding's fix.

    After a `fix` run, a finding whose fix was refused, conflicted or was not written is left
    for a reason another run would not change: it is not offered again.
    """
    fix = diagnostic.fix
    if fix is None or not fix.applies(unsafe):
        return False
    return diagnostic.left_because in (None, "unsafe-fix-not-enabled")


@dataclass(frozen=True)
class Trusted:
    """How a trusted gate's run was set up: what it read, all named by the CI, none by the tree."""

    policy: str  # the policy file (`--trusted-config`), as given
    baseline: str | None  # the baseline file, as given, if any
    cache: str | None  # the cache folder used, None when the run was not cached


@dataclass
class Run:
    """Everything a reporter needs about one run."""

    results: list[FileResult]
    fixing: bool = False
    unsafe: bool = False
    color: bool = False
    # Group by file and show each finding's source line with a caret (text on a terminal).
    show_source: bool = False
    # Findings a baseline hid, and baseline entries that no longer match anything.
    baselined: list[Diagnostic] = field(default_factory=list)
    stale: list[StaleEntry] = field(default_factory=list)
    baseline: str | None = None  # the baseline file used, as given
    show_baselined: bool = False  # SARIF: list baselined findings as `unchanged`
    # Source text of files that are not on disk as checked (stdin), by display path.
    sources: dict[str, str] = field(default_factory=dict)
    cwd: Path = field(default_factory=lambda: Path(os.getcwd()))
    # Findings of this severity or worse fail the run (`--fail-on`).
    fail_on: Severity = Severity.ERROR
    # Named paths that were not checked, with why (shown in the summary).
    skipped: list[tuple[str, str]] = field(default_factory=list)
    # A trusted gate's run: its setup, and the findings a comment in a checked file silenced
    # (each with `suppressed_by`), listed for reviewers and never counted.
    trusted: Trusted | None = None
    suppressed: list[Diagnostic] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(init=False)
    errors: list[FileError] = field(init=False)
    _notebooks: dict[str, dict[int, list[tuple[str, int]]] | None] = field(
        init=False, default_factory=dict, repr=False
    )

    def __post_init__(self) -> None:
        for result in self.results:
            if any(d.suppressed_by for d in result.diagnostics):
                self.suppressed.extend(d for d in result.diagnostics if d.suppressed_by)
                result.diagnostics = [d for d in result.diagnostics if not d.suppressed_by]
        self.suppressed.sort(key=Diagnostic.sort_key)
        self.diagnostics = sorted(
            (d for r in self.results for d in r.diagnostics), key=Diagnostic.sort_key
        )
        self.errors = sorted(
            (e for r in self.results for e in r.errors),
            key=lambda e: (e.path, e.cell or 0, e.line or 0),
        )

    @property
    def files(self) -> int:
        return sum(1 for r in self.results if r.skipped is None)

    def cell_lines(self, path: str) -> dict[int, list[tuple[str, int]]] | None:
        """Return a notebook's source lines per cell, each with its line in the file (or None).

        Read from the notebook as it is now (or as given on standard input), once per report.
        """
        if path not in self._notebooks:
            from claude_migrate.notebook.document import NotebookError, cell_lines, load

            try:
                data: bytes | str = (
                    self.sources[path] if path in self.sources else (self.cwd / path).read_bytes()
                )
                self._notebooks[path] = cell_lines(load(data))
            except (OSError, NotebookError):
                self._notebooks[path] = None
        return self._notebooks[path]

    def notebook_line(self, path: str, cell: int, line: int) -> tuple[str, int] | None:
        """Return a cell line's text and the notebook-file line it is written on, if known."""
        cells = self.cell_lines(path)
        if cells is None or cell not in cells or not 1 <= line <= len(cells[cell]):
            return None
        return cells[cell][line - 1]

    @property
    def fixable(self) -> int:
        return sum(1 for d in self.diagnostics if offers_fix(d, True))

    @property
    def fixed(self) -> int:
        return sum(len(r.fixed) for r in self.results)

    @property
    def reported(self) -> bool:
        return bool(self.diagnostics or self.errors or self.stale)

    def fails(self, diagnostic: Diagnostic) -> bool:
        """Return whether this finding alone makes the run fail under `fail_on`."""
        return diagnostic.severity.at_least(self.fail_on)

    @property
    def failed(self) -> bool:
        """Return whether the run fails: a file error, a stale baseline entry, or a finding at
        or above `fail_on` (findings below it are reported, never a reason to exit 1)."""
        return bool(self.errors or self.stale or any(self.fails(d) for d in self.diagnostics))

    def severity_counts(self) -> dict[str, int]:
        """Return how many findings there are of each severity (every severity named)."""
        counts = {severity.value: 0 for severity in Severity}
        for d in self.diagnostics:
            counts[d.severity.value] += 1
        return counts


def escape_strings(value: Any) -> Any:
    """Return a JSON-ready value with `escape_undecodable` applied to every string in it."""
    if isinstance(value, str):
        return escape_undecodable(value)
    if isinstance(value, dict):
        return {escape_strings(k): escape_strings(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escape_strings(v) for v in value]
    return value


def encode_report(text: str) -> bytes:
    """Return a rendered report as the bytes to write, file names byte for byte.

    Plain text keeps a file name's own bytes (surrogate escapes turn back into them), so a
    `path:line:col` line opens the file it names; the structured formats have escaped theirs
    already (`escape_undecodable`), so for them this is plain UTF-8.
    """
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        # A surrogate that is no escaped byte (U+D800..U+DC7F) cannot be written as one.
        return escape_undecodable(text).encode("utf-8")


def where(line: int | None, column: int | None, cell: int | None) -> str:
    """Return `line:column` (parts known), after `cell N:` in a notebook: `cell 7:3:9`."""
    parts = [f"cell {cell}"] if cell is not None else []
    if line:
        parts.append(str(line))
        if column:
            parts.append(str(column))
    return ":".join(parts)


def repo_root(start: Path) -> Path | None:
    """Return the top of the git work tree holding `start`, if any."""
    return work_tree_root(start.resolve())


def repo_relative(path: str, cwd: Path) -> str:
    """Return a reported path relative to the repository root (else the working directory).

    CI systems (GitHub annotations, code scanning) place findings by repository-relative paths,
    whatever folder the tool ran in.
    """
    absolute = Path(os.path.normpath(os.path.join(cwd, path)))
    root = repo_root(cwd) or cwd.resolve()
    try:
        return absolute.resolve().relative_to(root).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _text(run: Run) -> str:
    from claude_migrate.report.text import render

    return render(run)


def _concise(run: Run) -> str:
    from claude_migrate.report.text import render_concise

    return render_concise(run)


def _json(run: Run) -> str:
    from claude_migrate.report.json import render

    return render(run)


def _github(run: Run) -> str:
    from claude_migrate.report.github import render

    return render(run)


def _sarif(run: Run) -> str:
    from claude_migrate.report.sarif import render

    return render(run)


def _junit(run: Run) -> str:
    from claude_migrate.report.junit import render

    return render(run)


FORMATS: dict[str, Callable[[Run], str]] = {
    "text": _text,
    "concise": _concise,
    "json": _json,
    "github": _github,
    "sarif": _sarif,
    "junit": _junit,
}
