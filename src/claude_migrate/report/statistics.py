"""`--statistics`: how many findings each rule has, as ruff prints them, instead of the findings.

One line per rule, most findings first: the count, the code, `[*]` when `claude-migrate fix`
(with `--unsafe-fixes` when the run used it) fixes some of them, and the rule's name. With
`--format json`, a list of objects with the same facts. Files that could not be checked count
under CM001.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass

from claude_migrate.checks import CHECKS_BY_CODE, PSEUDO_RULES
from claude_migrate.report import Run, offers_fix


@dataclass(frozen=True)
class RuleCount:
    """One rule's line: how many findings, and how many of them the run's `fix` would fix."""

    code: str
    name: str
    count: int
    fixable: int


def _name(code: str) -> str:
    check = CHECKS_BY_CODE.get(code)
    if check is not None:
        return check.name
    return PSEUDO_RULES.get(code, (code, ""))[0]


def counts(run: Run) -> list[RuleCount]:
    """Return one count per rule with findings, the most findings first, then by code."""
    found: Counter[str] = Counter(d.code for d in run.diagnostics)
    found.update(e.code for e in run.errors)
    fixable: Counter[str] = Counter(
        d.code for d in run.diagnostics if offers_fix(d, run.unsafe or False)
    )
    rows = [RuleCount(code, _name(code), n, fixable[code]) for code, n in found.items()]
    return sorted(rows, key=lambda r: (-r.count, r.code))


def render_text(run: Run) -> str:
    """Return the statistics as aligned lines ("" when nothing was found)."""
    rows = counts(run)
    if not rows:
        return ""
    width = len(str(rows[0].count))
    code_width = max(len(r.code) for r in rows)
    lines = [
        f"{r.count:>{width}}  {r.code:<{code_width}}  {'[*]' if r.fixable else '[ ]'} {r.name}"
        for r in rows
    ]
    return "\n".join(lines) + "\n"


def render_json(run: Run) -> str:
    """Return the statistics as a JSON list."""
    rows = [
        {"code": r.code, "name": r.name, "count": r.count, "fixable": r.fixable}
        for r in counts(run)
    ]
    return json.dumps(rows, indent=2) + "\n"
