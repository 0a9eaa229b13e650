"""`--format text`: `path:line:col: CODE message`, then a short summary."""

from __future__ import annotations

from . import Run


def _fix_hint(run: Run) -> str:
    safe = sum(1 for d in run.diagnostics if d.fix is not None and d.fix.applies(False))
    unsafe = sum(
        1 for d in run.diagnostics if d.fix is not None and d.fix.applies(True) and not d.fix.applies(False)
    )
    parts = []
    if safe:
        parts.append(f"{safe} fixable with `claude-migrate fix`")
    if unsafe:
        parts.append(f"{unsafe} more with `--unsafe-fixes`")
    return "; ".join(parts)


def render(run: Run) -> str:
    lines = []
    for error in run.errors:
        where = error.path + (f":{error.line}" if error.line else "") + (
            f":{error.column}" if error.column else ""
        )
        lines.append(f"{where}: {error.code} {error.message}")
    for d in run.diagnostics:
        marker = ""
        if d.fix is not None and d.fix.applies(run.unsafe or False):
            marker = " [*]"
        lines.append(f"{d.path}:{d.line}:{d.column}: {d.code}{marker} {d.message}")
    return "\n".join(lines) + ("\n" if lines else "")


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
    text = head + (f" ({hint})" if hint else "") + f"; {files}"
    if run.errors:
        count = len(run.errors)
        text += f"; {count} file error{'s' if count != 1 else ''} (CM001)"
    return text + "."
