"""`--format text` and `--format concise`.

Text on a terminal groups findings by file and shows each one's source line with a caret under
the offending code, in colour (rich). Piped or written to a file, and always for `concise`, it is
one plain `path:line:col: CODE message` line per finding, which editors and grep read. A
warning or info finding says so after its code (`CM302 warning: ...`); an error does not, so
the lines of a run with no warnings read as they always have. `[*]` marks a finding that
`claude-migrate fix` fixes (with `--unsafe-fixes` when the run used it); the summary says so.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate.core.compiled import classify as compiled_kind
from claude_migrate.core.diagnostics import Diagnostic, FileError, Severity
from claude_migrate.core.source import DecodeError, SourceText
from claude_migrate.notebook import is_notebook_path
from claude_migrate.report import Run, offers_fix, where

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

TAB_SIZE = 8
STYLES = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}


# Terminal control characters (C0, DEL, C1) in text from the checked tree (a file name, a message
# quoting the code, a source line): written as `\xNN`, so that none moves the cursor, erases a
# line or retitles the terminal where the report is read (a terminal, a CI log).
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """Return `text` with its terminal control characters written as `\\xNN`."""
    if _CONTROLS.search(text) is None:
        return text
    return _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _label(d: Diagnostic) -> str:
    """Return `warning: ` / `info: ` for findings that are not errors, else ""."""
    return "" if d.severity is Severity.ERROR else f"{d.severity.value}: "


def _fix_hint(run: Run) -> str:
    safe = sum(1 for d in run.diagnostics if offers_fix(d, False))
    unsafe = sum(1 for d in run.diagnostics if offers_fix(d, True) and not offers_fix(d, False))
    parts = []
    if safe:
        parts.append(f"{safe} fixable with `claude-migrate fix`")
    if unsafe:
        # "more fixable": these are findings already counted, that unsafe fixes would fix.
        more = "more " if safe or run.fixing else ""
        parts.append(f"{unsafe} {more}fixable with `--unsafe-fixes`")
    return "; ".join(parts)


def _marker_note(run: Run) -> str:
    """Return what `[*]` means in this run's lines, when any line carries it."""
    if not any(_fixable_marker(run, d) for d in run.diagnostics):
        return ""
    how = "`claude-migrate fix --unsafe-fixes`" if run.unsafe else "`claude-migrate fix`"
    return f"[*] marks what {how} fixes"


def _severity_breakdown(run: Run) -> str:
    """Return "2 errors, 1 warning" when a run has findings that are not errors, else ""."""
    counts = run.severity_counts()
    if counts["error"] == len(run.diagnostics):
        return ""
    names = {"error": "error", "warning": "warning", "info": "info"}
    parts = []
    for level, count in counts.items():
        if count:
            plural = "s" if count != 1 and level != "info" else ""
            parts.append(f"{count} {names[level]}{plural}")
    return ", ".join(parts)


def _fixable_marker(run: Run, d: Diagnostic) -> bool:
    return offers_fix(d, run.unsafe or False)


def _error_where(error: FileError) -> str:
    place = where(error.line, error.column, error.cell)
    return error.path + (f":{place}" if place else "")


def plain_lines(run: Run) -> list[str]:
    """Return one `path:line:col: CODE message` line per error, finding and stale entry."""
    lines = []
    for error in run.errors:
        lines.append(shown(f"{_error_where(error)}: {error.code} {error.message}"))
    for d in run.diagnostics:
        marker = " [*]" if _fixable_marker(run, d) else ""
        lines.append(
            shown(
                f"{d.path}:{where(d.line, d.column, d.cell)}: {d.code}{marker} {_label(d)}"
                f"{d.message}"
            )
        )
        lines.extend(shown(f"    {path}:{line}: {message}") for path, line, message in d.related)
    lines.extend(_stale_lines(run))
    return lines


def _stale_lines(run: Run) -> list[str]:
    """Return one line per stale baseline entry, saying whether its finding went or changed.

    An entry's finding is either gone (fixed, or its code removed) or still there with
    different code, in which case it is among the new findings of the same rule and scope.
    """
    reported = {(d.path, d.code, d.context) for d in run.diagnostics}
    lines = []
    for entry in run.stale:
        if (entry.display, entry.key.code, entry.key.context) in reported:
            lines.append(
                shown(entry.describe()) + ": its code changed, and it is reported again above"
            )
        else:
            lines.append(shown(entry.describe()) + ": no longer found (fixed or removed)")
    if len(run.stale) == 1:
        lines.append(
            f"1 stale baseline entry in {run.baseline}; run with --prune-baseline to remove it."
        )
    elif run.stale:
        lines.append(
            f"{len(run.stale)} stale baseline entries in {run.baseline}; run with "
            "--prune-baseline to remove them."
        )
    return lines


def render_concise(run: Run) -> str:
    lines = plain_lines(run)
    return "\n".join(lines) + ("\n" if lines else "") + suppressed_section(run)


def render(run: Run) -> str:
    if not run.show_source:
        return render_concise(run)
    return render_rich(run) + suppressed_section(run)


def suppressed_section(run: Run) -> str:
    """Return a trusted gate's list of the findings comments in the checked files silenced."""
    if not run.suppressed:
        return ""
    count = len(run.suppressed)
    lines = [
        f"Suppressed by comments in the checked files ({count}); the trusted gate honoured "
        f"{'it' if count == 1 else 'them'}, review each:"
    ]
    for d in run.suppressed:
        lines.append(
            shown(
                f"  {d.path}:{where(d.line, d.column, d.cell)}: {d.code} {d.message} "
                f"[{d.suppressed_by}]"
            )
        )
    return "\n".join(lines) + "\n"


def trusted_note(run: Run) -> str:
    """Return what a trusted gate's summary says about what it read, else ""."""
    if run.trusted is None:
        return ""
    setup = run.trusted
    baseline = f"baseline {setup.baseline}" if setup.baseline else "no baseline"
    cache = f"cache {setup.cache}" if setup.cache else "no cache"
    count = len(run.suppressed)
    honoured = f"{count} suppression{'s' if count != 1 else ''} by comments in the files"
    return (
        f"Trusted gate: policy {setup.policy}, {baseline}, {cache}; the tree's own policy "
        f"files, baselines and caches were not read; {honoured} (listed above)."
    )


# Grouped, with source -------------------------------------------------------------------------


def _console(run: Run, buffer: io.StringIO) -> Console:
    import shutil

    from rich.console import Console  # ~50 ms to import: only the terminal report pays it

    width = shutil.get_terminal_size((100, 24)).columns
    return Console(
        file=buffer,
        force_terminal=run.color,
        no_color=not run.color or bool(os.environ.get("NO_COLOR")),
        color_system="standard" if run.color else None,
        width=width,
        highlight=False,
        emoji=False,
        markup=False,
    )


def _cell_source(run: Run, path: str, cell: int) -> SourceText | None:
    """Return one notebook cell's source, for the line under a finding in it."""
    cells = run.cell_lines(path)
    if cells is None or cell not in cells:
        return None
    return SourceText("\n".join(line for line, _ in cells[cell]))


def _source(run: Run, path: str) -> SourceText | None:
    if is_notebook_path(path):
        return None  # its lines are shown per cell
    if path in run.sources:
        return SourceText(run.sources[path])
    if compiled_kind(Path(path)) is not None:
        return None  # a compiled module (CM003): no source line to show
    try:
        data = (run.cwd / path).read_bytes()
    except OSError:
        return None
    try:
        return SourceText.from_bytes(data, is_python=Path(path).suffix in (".py", ".pyi", ".pyw"))
    except DecodeError:
        return None


def _findings_by_file(run: Run) -> Iterator[tuple[str, list[FileError], list[Diagnostic]]]:
    errors = {path: list(group) for path, group in groupby(run.errors, key=lambda e: e.path)}
    found = {path: list(group) for path, group in groupby(run.diagnostics, key=lambda d: d.path)}
    for path in sorted(set(errors) | set(found)):
        yield path, errors.get(path, []), found.get(path, [])


def _snippet(
    source: SourceText, line: int, column: int, end_line: int, end_column: int
) -> list[Text]:
    """Return the source line and a caret line under columns `column`..`end_column`."""
    from rich.cells import cell_len
    from rich.text import Text

    raw = source.line_text(line)
    if not raw.strip():
        return []
    start = max(column - 1, 0)
    end = end_column - 1 if end_line == line else len(raw)
    end = max(min(end, len(raw)), start + 1)
    visible = shown(raw.expandtabs(TAB_SIZE))
    pad = cell_len(raw[:start].expandtabs(TAB_SIZE))
    width = max(cell_len(raw[:end].expandtabs(TAB_SIZE)) - pad, 1)
    gutter = f"{line:>6} | "
    source_line = Text()
    source_line.append(gutter, style="blue")
    source_line.append(visible)
    caret = Text()
    caret.append(" " * 7 + "| ", style="blue")
    caret.append(" " * pad + "^" * width, style="bold red")
    return [source_line, caret]


def render_rich(run: Run) -> str:
    from rich.text import Text

    buffer = io.StringIO()
    console = _console(run, buffer)
    first = True
    for path, errors, found in _findings_by_file(run):
        if not first:
            console.print()
        first = False
        console.print(Text(shown(path), style="bold underline"), soft_wrap=True)
        source = _source(run, path)
        for error in errors:
            place = where(error.line or 1, error.column or 1, error.cell)
            line = Text(f"  {place:<8} ")
            line.append(error.code, style="bold red")
            line.append(f" {shown(error.message)}")
            console.print(line, soft_wrap=True)
            lines = _cell_source(run, path, error.cell) if error.cell else source
            if lines is not None and error.line:
                col = error.column or 1
                for part in _snippet(lines, error.line, col, error.line, col + 1):
                    console.print(part, soft_wrap=True)
        for d in found:
            place = where(d.line, d.column, d.cell)
            line = Text(f"  {place:<8} ")
            line.append(d.code, style=STYLES[d.severity])
            if _fixable_marker(run, d):
                line.append(" [*]", style="cyan")
            if d.severity is not Severity.ERROR:
                line.append(f" {d.severity.value}:", style=STYLES[d.severity])
            line.append(f" {shown(d.message)}")
            console.print(line, soft_wrap=True)
            for related, number, message in d.related:
                console.print(
                    Text(shown(f"    {related}:{number}: {message}"), style="dim"), soft_wrap=True
                )
            lines = _cell_source(run, path, d.cell) if d.cell else source
            if lines is not None:
                for part in _snippet(lines, d.line, d.column, d.end_line, d.end_column):
                    console.print(part, soft_wrap=True)
    stale = _stale_lines(run)
    if stale:
        if not first:
            console.print()
        for text in stale:
            console.print(Text(text, style="yellow"), soft_wrap=True)
    return buffer.getvalue()


def summary(run: Run) -> str:
    """Return the closing line of a text report."""
    files = f"{run.files} file{'s' if run.files != 1 else ''} checked"
    found = len(run.diagnostics)
    if run.fixing:
        head = f"Fixed {run.fixed}, {found} remaining"
    elif found:
        head = f"Found {found} finding{'s' if found != 1 else ''}"
    else:
        head = "No findings"
    hint = _fix_hint(run) if not run.fixing or not run.unsafe else ""
    if run.fixing:
        hint = hint.replace(" with `claude-migrate fix`", "")
    breakdown = _severity_breakdown(run)
    if breakdown:
        head += f": {breakdown}"
    text = head + (f" ({hint})" if hint else "") + f"; {files}"
    if run.baselined:
        count = len(run.baselined)
        text += f"; {count} baselined finding{'s' if count != 1 else ''} hidden"
    if run.errors:
        count = len(run.errors)
        text += f"; {count} file error{'s' if count != 1 else ''} (CM001)"
    passed_over = sum(1 for r in run.results if r.skipped is not None)
    if passed_over:
        text += (
            f"; {passed_over} notebook{'s' if passed_over != 1 else ''} in another language "
            "not checked (--verbose names them)"
        )
    if run.skipped:
        count = len(run.skipped)
        text += f"; {count} named path{'s' if count != 1 else ''} not checked (see the warnings)"
    text += "."
    note = _marker_note(run)
    if note:
        text += f" {note}."
    below = sum(1 for d in run.diagnostics if not run.fails(d))
    if below:
        text += f" Findings below `--fail-on {run.fail_on.value}` do not fail the run."
    trusted = trusted_note(run)
    if trusted:
        text += "\n" + trusted
    return text
