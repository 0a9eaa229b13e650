"""`--format json`: the documented JSON contract (version 1; README, "JSON output")."""

from __future__ import annotations

import json
from typing import Any

from claude_migrate import __version__
from claude_migrate.core.diagnostics import Diagnostic, FileError
from claude_migrate.report import Run, escape_strings


def diagnostic_to_dict(d: Diagnostic) -> dict[str, Any]:
    data: dict[str, Any] = {
        "path": d.path,
        "line": d.line,
        "column": d.column,
        "end_line": d.end_line,
        "end_column": d.end_column,
        "code": d.code,
        "rule": d.rule,
        "message": d.message,
        "severity": d.severity.value,
        "fix": None,
    }
    if d.cell is not None:
        data["cell"] = d.cell  # a notebook: `line` and `end_line` count within the cell
    if d.fix is not None:
        data["fix"] = {"applicability": d.fix.applicability.value, "description": d.fix.description}
    if d.left_because is not None:
        data["left_because"] = d.left_because
    if d.related:
        data["related"] = [{"path": p, "line": n, "message": m} for p, n, m in d.related]
        for place, cell in zip(data["related"], d.related_cells):  # noqa: B905
            if cell:
                place["cell"] = cell  # a line of this notebook: `line` counts within the cell
    return data


def error_to_dict(e: FileError) -> dict[str, Any]:
    data: dict[str, Any] = {"path": e.path, "code": e.code, "line": e.line, "message": e.message}
    if e.column is not None:
        data["column"] = e.column
    if e.cell is not None:
        data["cell"] = e.cell
    return data


def render(run: Run) -> str:
    summary: dict[str, Any] = {
        "files": run.files,
        "diagnostics": len(run.diagnostics),
        "fixable": run.fixable,
        # Files that could not be read or checked (CM001), not findings of severity error:
        # those are counted in `severities`.
        "errors": len(run.errors),
        "severities": run.severity_counts(),
    }
    if run.fixing:
        summary["fixed"] = run.fixed
    payload = {
        "version": 1,
        "tool": {"name": "claude-migrate", "version": __version__},
        "diagnostics": [diagnostic_to_dict(d) for d in run.diagnostics],
        "errors": [error_to_dict(e) for e in run.errors],
        "summary": summary,
    }
    if run.baseline is not None:
        # Only with `--baseline`: the keys above stay the version-1 contract.
        payload["baseline"] = {
            "path": run.baseline,
            "baselined": len(run.baselined),
            "stale": [
                {
                    "path": entry.display,
                    "code": entry.key.code,
                    "context": entry.key.context,
                    "recorded": entry.recorded,
                    "found": entry.found,
                }
                for entry in run.stale
            ],
        }
    if run.trusted is not None:
        # Only in a trusted gate's run: what it read, and every finding a comment silenced.
        payload["trusted"] = {
            "policy": run.trusted.policy,
            "baseline": run.trusted.baseline,
            "cache": run.trusted.cache,
            "suppressed": [
                {**diagnostic_to_dict(d), "suppressed_by": d.suppressed_by} for d in run.suppressed
            ],
        }
    # Names that are not UTF-8 are escaped, never lone surrogates (which strict JSON readers
    # reject).
    return json.dumps(escape_strings(payload), indent=2) + "\n"
