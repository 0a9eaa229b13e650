"""What `fix` did: the closing table per rule, and the `--report FILE` JSON for the migration PR.

Per rule: how many findings were found, fixed and left, the applicability of the fixes of the
findings found (safe, unsafe, display-only, none), and why each one left was left. The JSON
report lists every changed file with the fixes applied in it, every finding left with its
reason, every file error, and the changed files that already had uncommitted changes; and, for
review, every file with what changed in it and what was refused and why (`files`).
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from claude_migrate import __version__
from claude_migrate.checks import CHECKS_BY_CODE, PSEUDO_RULES
from claude_migrate.core.diagnostics import Diagnostic, FileResult
from claude_migrate.engine.fixer import REASONS, LeftBecause
from claude_migrate.report import Run, escape_strings

# Short labels for the table's "why left" column.
SHORT_REASONS = {
    LeftBecause.UNSAFE: "unsafe, not enabled",
    LeftBecause.DISPLAY_ONLY: "display-only",
    LeftBecause.NO_FIX: "no fix",
    LeftBecause.REFUSED: "refused: would not parse",
    LeftBecause.CONFLICT: "conflict",
    LeftBecause.UNSETTLED: "did not settle",
    LeftBecause.NOT_WRITTEN: "not written",
}
APPLICABILITIES = ("safe", "unsafe", "display-only", "none")


def _applicability(d: Diagnostic) -> str:
    return d.fix.applicability.value if d.fix is not None else "none"


def _rule_name(code: str) -> str:
    check = CHECKS_BY_CODE.get(code)
    if check is not None:
        return check.name
    return PSEUDO_RULES.get(code, (code, ""))[0]


@dataclass
class RuleTally:
    """One rule's line in the closing table."""

    code: str
    fixed: int = 0
    left: int = 0
    by_applicability: Counter[str] = field(default_factory=Counter)
    left_because: Counter[str] = field(default_factory=Counter)

    @property
    def found(self) -> int:
        return self.fixed + self.left


def tally(run: Run) -> list[RuleTally]:
    """Return one tally per rule that found anything, in code order (CM001 counts file errors)."""
    rules: dict[str, RuleTally] = {}

    def rule(code: str) -> RuleTally:
        return rules.setdefault(code, RuleTally(code))

    for result in run.results:
        for d in result.applied:
            entry = rule(d.code)
            entry.fixed += 1
            entry.by_applicability[_applicability(d)] += 1
    for d in run.diagnostics:
        entry = rule(d.code)
        entry.left += 1
        entry.by_applicability[_applicability(d)] += 1
        entry.left_because[d.left_because or LeftBecause.NO_FIX] += 1
    for error in run.errors:
        entry = rule(error.code)
        entry.left += 1
        entry.by_applicability["none"] += 1
        entry.left_because[LeftBecause.NO_FIX] += 1
    return [rules[code] for code in sorted(rules)]


# Below this many columns the table leaves out the four applicability columns (the JSON report
# and `--format json` keep them).
WIDE = 120


def _why(entry: RuleTally) -> str:
    reasons = sorted(entry.left_because.items())
    return ", ".join(f"{count} {SHORT_REASONS.get(key, key)}" for key, count in reasons)


def render_table(
    run: Run,
    *,
    dry_run: bool,
    color: bool = False,
    width: int | None = None,
    terminal: bool = False,
) -> str:
    """Return the closing per-rule summary of a `fix` run ("" when nothing was found).

    On a terminal, a table as wide as the terminal (or `width`): narrower than `WIDE` columns
    it drops the applicability columns, and long cells wrap. Elsewhere (a pipe, a log,
    pre-commit's output) one plain line per rule, which neither wraps nor needs box drawing.
    """
    tallies = tally(run)
    if not tallies:
        return ""
    verb = "would fix" if dry_run else "fixed"
    title = f"claude-migrate fix: {verb} per rule"
    if not terminal:
        return _plain_table(tallies, title, verb)
    if width is None:
        import shutil

        width = shutil.get_terminal_size((80, 24)).columns
    return _rich_table(tallies, title, verb, color=color, width=width)


def _plain_table(tallies: list[RuleTally], title: str, verb: str) -> str:
    lines = [title + ":"]
    for entry in tallies:
        line = (
            f"  {entry.code} {_rule_name(entry.code)}: {entry.found} found, "
            f"{entry.fixed} {verb}, {entry.left} left"
        )
        why = _why(entry)
        lines.append(line + (f" ({why})" if why else ""))
    return "\n".join(lines) + "\n"


def _rich_table(tallies: list[RuleTally], title: str, verb: str, *, color: bool, width: int) -> str:
    from rich.console import Console  # imported when a table is drawn, not by every run
    from rich.table import Table

    wide = width >= WIDE
    table = Table(title=title, title_justify="left")
    table.add_column("rule", overflow="fold")
    for name in ("found", verb, "left"):
        table.add_column(name, justify="right", no_wrap=True)
    if wide:
        for name in APPLICABILITIES:
            table.add_column(name, justify="right", no_wrap=True)
    table.add_column("why left", overflow="fold")
    for entry in tallies:
        counts = [str(entry.found), str(entry.fixed), str(entry.left)]
        if wide:
            counts += [str(entry.by_applicability[a]) for a in APPLICABILITIES]
        table.add_row(f"{entry.code} {_rule_name(entry.code)}", *counts, _why(entry))
    buffer = io.StringIO()
    Console(file=buffer, force_terminal=color, no_color=not color, width=width).print(table)
    return "".join(line.rstrip() + "\n" for line in buffer.getvalue().splitlines())


def render_shown_fixes(run: Run, *, dry_run: bool) -> str:
    """Return `--show-fixes`: per changed file, how many fixes of each rule ("" if none)."""
    changed = sorted(_changed(run.results), key=lambda r: r.path)
    if not changed:
        return ""
    total = sum(len(r.applied) for r in changed)
    verb = "Would fix" if dry_run else "Fixed"
    findings = f"{total} finding{'s' if total != 1 else ''}"
    lines = [f"{verb} {findings}:"]
    for result in changed:
        lines.append(f"- {result.path}:")
        per_rule = Counter(d.code for d in result.applied)
        for code in sorted(per_rule):
            lines.append(f"    {per_rule[code]} × {code} ({_rule_name(code)})")
    return "\n".join(lines) + "\n"


def _changed(results: Iterable[FileResult]) -> list[FileResult]:
    return [r for r in results if r.applied]


# How a finding words why it has no fix ("...; no fix: the project's tests stand in for ...",
# "(no automatic fix: ...)", "(no automatic rewrite: ...)").
_WHY = re.compile(r"\b(?:no fix|no automatic fix|no automatic rewrite): (?P<why>.+)$")


def why_left(d: Diagnostic) -> str:
    """Return why a finding was left: its own words when it gives them, else the engine's."""
    reason = d.left_because or LeftBecause.NO_FIX
    if reason == LeftBecause.NO_FIX:
        match = _WHY.search(d.message)
        if match is not None:
            why = match.group("why")
            return why[:-1] if why.endswith(")") and why.count(")") > why.count("(") else why
    return REASONS.get(reason, "")


def _by_file(run: Run) -> list[dict[str, Any]]:
    """Return, per file with a finding, what was changed in it and what was refused and why."""
    files = []
    for result in sorted(run.results, key=lambda r: r.path):
        if not (result.applied or result.diagnostics or result.errors):
            continue
        files.append(
            {
                "path": result.path,
                "changed": [
                    {
                        "line": d.line,
                        "code": d.code,
                        "rule": d.rule,
                        "applicability": _applicability(d),
                        "description": d.fix.description if d.fix is not None else "",
                    }
                    for d in result.applied
                ],
                "refused": [
                    {
                        **({"cell": d.cell} if d.cell is not None else {}),
                        "line": d.line,
                        "code": d.code,
                        "rule": d.rule,
                        "reason": d.left_because or LeftBecause.NO_FIX,
                        "why": why_left(d),
                        "message": d.message,
                    }
                    for d in result.diagnostics
                ],
                "errors": [{"line": e.line, "message": e.message} for e in result.errors],
            }
        )
    return files


def render_report(run: Run, *, dry_run: bool, uncommitted: Sequence[str] = ()) -> str:
    """Return the `--report FILE` JSON of a `fix` run."""
    dirty = set(uncommitted)
    changed = []
    for result in sorted(_changed(run.results), key=lambda r: r.path):
        changed.append(
            {
                "path": result.path,
                "codes": sorted(set(result.fixed)),
                "fixes": [
                    {
                        "code": d.code,
                        "rule": d.rule,
                        "applicability": _applicability(d),
                        "description": d.fix.description if d.fix is not None else "",
                        "message": d.message,
                    }
                    for d in result.applied
                ],
                "had_uncommitted_changes": result.path in dirty,
            }
        )
    left = [
        {
            "path": d.path,
            **({"cell": d.cell} if d.cell is not None else {}),
            "line": d.line,
            "column": d.column,
            "code": d.code,
            "rule": d.rule,
            "message": d.message,
            "applicability": _applicability(d),
            "reason": d.left_because or LeftBecause.NO_FIX,
            "why": REASONS.get(d.left_because or LeftBecause.NO_FIX, ""),
        }
        for d in run.diagnostics
    ]
    errors = [
        {"path": e.path, "code": e.code, "line": e.line, "message": e.message} for e in run.errors
    ]
    rules: list[dict[str, Any]] = [
        {
            "code": t.code,
            "rule": _rule_name(t.code),
            "found": t.found,
            "fixed": t.fixed,
            "left": t.left,
            "found_by_applicability": {a: t.by_applicability[a] for a in APPLICABILITIES},
            "left_because": dict(sorted(t.left_because.items())),
        }
        for t in tally(run)
    ]
    payload = {
        "version": 1,
        "tool": {"name": "claude-migrate", "version": __version__},
        "dry_run": dry_run,
        "unsafe_fixes": run.unsafe,
        "summary": {
            "files": run.files,
            "files_changed": len(changed),
            "fixed": sum(len(r.applied) for r in run.results),
            "left": len(left),
            "errors": len(errors),
        },
        "rules": rules,
        "changed": changed,
        "left": left,
        "errors": errors,
        "files": _by_file(run),
        "uncommitted": sorted(dirty),
        "reasons": dict(REASONS),
    }
    return json.dumps(escape_strings(payload), indent=2) + "\n"


def uncommitted_note(paths: Sequence[str], dry_run: bool) -> str:
    """Return the summary's warning about fixed files that already had uncommitted changes."""
    if not paths:
        return ""
    count = len(paths)
    verb = "would rewrite" if dry_run else "rewrote"
    shown = ", ".join(paths[:5]) + (f" and {count - 5} more" if count > 5 else "")
    return (
        f"Note: fix {verb} {count} file{'s' if count != 1 else ''} that already had uncommitted "
        f"changes, so the migration diff mixes with other work: {shown}. "
        "Use --require-clean to refuse instead."
    )
