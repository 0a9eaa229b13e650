"""`--format github`: GitHub Actions workflow commands, one annotation per finding.

`::error file=app/a.py,line=10,col=9,endLine=10,endColumn=24,title=claude-migrate (CM101)::...`
(`::warning` and `::notice` for warnings and info findings).
Paths are relative to the repository root, where Actions places annotations.
"""

from __future__ import annotations

from claude_migrate.core.diagnostics import Severity
from claude_migrate.core.escapes import escape_undecodable
from claude_migrate.report import Run, repo_relative

# Workflow commands for our severities: Actions shows each in its own colour and count.
COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _data(text: str) -> str:
    text = escape_undecodable(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _property(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, message: str, **properties: object) -> str:
    """Return one workflow command line with its properties and message escaped."""
    props = ",".join(
        f"{name}={_property(str(value))}" for name, value in properties.items() if value is not None
    )
    return f"::{level} {props}::{_data(message)}"


def _in_cell(run: Run, path: str, cell: int, line: int | None) -> int | None:
    """Return the notebook-file line a cell's line is written on (where Actions shows it)."""
    found = run.notebook_line(path, cell, line or 1)
    return found[1] if found is not None else None


def render(run: Run) -> str:
    lines = []
    for error in run.errors:
        if error.cell is not None:
            place = f"cell {error.cell}" + (f", line {error.line}" if error.line else "")
            lines.append(
                command(
                    "error",
                    f"{error.code} {place}: {error.message}",
                    file=repo_relative(error.path, run.cwd),
                    line=_in_cell(run, error.path, error.cell, error.line),
                    title=f"claude-migrate ({error.code}) cell {error.cell}",
                )
            )
            continue
        lines.append(
            command(
                "error",
                f"{error.code} {error.message}",
                file=repo_relative(error.path, run.cwd),
                line=error.line,
                col=error.column,
                title=f"claude-migrate ({error.code})",
            )
        )
    for d in run.diagnostics:
        message = f"{d.code} {d.message}"
        if d.fix is not None and d.fix.applies(run.unsafe):
            message += f" (fix: {d.fix.description})"
        if d.cell is not None:
            # Lines and columns inside a JSON string mean nothing in the file view: the
            # annotation sits on the file line that holds the code and names the cell.
            lines.append(
                command(
                    "error",
                    f"cell {d.cell}, line {d.line}, column {d.column}: {message}",
                    file=repo_relative(d.path, run.cwd),
                    line=_in_cell(run, d.path, d.cell, d.line),
                    title=f"claude-migrate ({d.code}) cell {d.cell}",
                )
            )
            continue
        lines.append(
            command(
                COMMANDS[d.severity],
                message,
                file=repo_relative(d.path, run.cwd),
                line=d.line,
                col=d.column,
                endLine=d.end_line,
                endColumn=d.end_column,
                title=f"claude-migrate ({d.code})",
            )
        )
    for d in run.suppressed:  # a trusted gate shows reviewers every suppression it honoured
        lines.append(
            command(
                "notice",
                f"{d.code} {d.message} (suppressed by `{d.suppressed_by}`)",
                file=repo_relative(d.path, run.cwd),
                line=_in_cell(run, d.path, d.cell, d.line) if d.cell is not None else d.line,
                col=d.column if d.cell is None else None,
                title=f"claude-migrate ({d.code}) suppressed in the file",
            )
        )
    for entry in run.stale:  # a stale entry fails the run whatever --fail-on says
        lines.append(
            command(
                "error",
                entry.describe() + "; run with --prune-baseline to remove it",
                file=repo_relative(run.baseline or entry.display, run.cwd),
                title="claude-migrate (stale baseline)",
            )
        )
    return "\n".join(lines) + ("\n" if lines else "")
