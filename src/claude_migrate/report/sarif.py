"""`--format sarif`: SARIF 2.1.0 as GitHub code scanning reads it.

Every rule is listed with id, name, short and full descriptions and its page as help; every
finding is a result with ruleId, level, message, a repository-relative location with start and
end line and column, and a `partialFingerprints` entry built from the same identity the baseline
uses (code, path, enclosing scope, fingerprint of the offending source), so an alert keeps its
identity when unrelated edits move it. Columns are Unicode code points, as `columnKind` says.
With a baseline, results carry `baselineState` (`new`; `unchanged` for baselined findings shown
with `--show-baselined`).
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any
from urllib.parse import quote

from claude_migrate import __version__, project_url
from claude_migrate.core.diagnostics import Diagnostic, FileError, Severity
from claude_migrate.core.escapes import escape_undecodable
from claude_migrate.policy.catalogue import RuleInfo, all_rules
from claude_migrate.report import Run, escape_strings, repo_relative, repo_root

SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
FINGERPRINT_KEY = "claudeMigrate/v1"
SRCROOT = "%SRCROOT%"
# SARIF's levels for our severities.
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def uri(path: str) -> str:
    """Return a relative POSIX path as a URI reference, byte for byte (RFC 3986).

    Percent-encoding keeps every name exact, one that is not UTF-8 too (`caf%E9.py`), and
    spaces, `#` or `%` in a name no longer make an invalid or different URI.
    """
    try:
        data = path.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        data = escape_undecodable(path).encode("utf-8")
    return quote(data, safe="/!$&'()*+,;=:@-._~")


def _rule(rule: RuleInfo) -> dict[str, Any]:
    page = rule.page() or f"{rule.code} {rule.name}: {rule.summary}"
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.description()},
        "help": {"text": page, "markdown": page},
        "defaultConfiguration": {
            "level": LEVELS[Severity(rule.severity)],
            "enabled": not rule.opt_in,
        },
        "properties": {"tags": ["claude-migrate", "policy"], "fix": rule.fix},
    }


def _digest(*parts: object) -> str:
    text = "\x1f".join(str(p) for p in parts)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


class _Builder:
    def __init__(self, run: Run) -> None:
        self.run = run
        self.rules = all_rules()
        self.index = {rule.code: i for i, rule in enumerate(self.rules)}
        self.seen: Counter[tuple[str, ...]] = Counter()

    def _location(self, path: str, region: dict[str, Any] | None) -> dict[str, Any]:
        location = {"uri": uri(repo_relative(path, self.run.cwd)), "uriBaseId": SRCROOT}
        physical: dict[str, Any] = {"artifactLocation": location}
        if region:
            physical["region"] = region
        return {"physicalLocation": physical}

    def _result(
        self,
        code: str,
        message: str,
        location: dict[str, Any],
        identity: tuple[str, ...],
        severity: Severity = Severity.ERROR,
    ) -> dict[str, Any]:
        # Identical findings in one scope are told apart by their order.
        self.seen[identity] += 1
        result: dict[str, Any] = {
            "ruleId": code,
            "level": LEVELS[severity],
            "message": {"text": message},
            "locations": [location],
            "partialFingerprints": {FINGERPRINT_KEY: _digest(*identity, self.seen[identity])},
        }
        if code in self.index:
            result["ruleIndex"] = self.index[code]
        return result

    def _cell_region(self, path: str, cell: int, line: int | None) -> dict[str, Any] | None:
        """Return a notebook finding's region: the file line its cell line is written on, and
        that line's code as the snippet (positions inside a JSON string mean nothing to a viewer).
        """
        found = self.run.notebook_line(path, cell, line or 1)
        if found is None:
            return None
        code, file_line = found
        return {"startLine": file_line, "snippet": {"text": code}}

    def _related_region(self, path: str, line: int, d: Diagnostic, i: int) -> dict[str, Any] | None:
        """Return a related place's region: in a notebook, the file line its cell line is on."""
        cell = d.related_cells[i] if i < len(d.related_cells) else 0
        if cell:
            return self._cell_region(path, cell, line)
        return {"startLine": line}

    def diagnostic(self, d: Diagnostic, state: str | None) -> dict[str, Any]:
        region: dict[str, Any] | None = {
            "startLine": d.line,
            "startColumn": d.column,
            "endLine": d.end_line,
            "endColumn": d.end_column,
        }
        message = d.message
        if d.cell is not None:
            region = self._cell_region(d.path, d.cell, d.line)
            message = f"cell {d.cell}, line {d.line}, column {d.column}: {d.message}"
        path = repo_relative(d.path, self.run.cwd)
        result = self._result(
            d.code,
            message,
            self._location(d.path, region),
            (d.code, path, d.context, d.fingerprint),
            d.severity,
        )
        if d.related:
            places = [
                {**self._location(p, self._related_region(p, n, d, i)), "message": {"text": m}}
                for i, (p, n, m) in enumerate(d.related)
            ]
            result["relatedLocations"] = [{"id": i, **place} for i, place in enumerate(places)]
            # The same chain as a path code scanning can step through: the value where it is
            # written, then each hop to the Claude call (a SARIF 2.1.0 result's `codeFlows`).
            steps = [{"location": {**self._location(d.path, region), "message": {"text": message}}}]
            steps.extend({"location": place} for place in places)
            result["codeFlows"] = [{"threadFlows": [{"locations": steps}]}]
        if d.fix is not None:
            result["properties"] = {
                "fix": {
                    "applicability": d.fix.applicability.value,
                    "description": d.fix.description,
                }
            }
        if state is not None:
            result["baselineState"] = state
        return result

    def error(self, e: FileError, state: str | None) -> dict[str, Any]:
        region: dict[str, Any] | None = None
        message = e.message
        if e.cell is not None:
            region = self._cell_region(e.path, e.cell, e.line)
            message = f"cell {e.cell}" + (f", line {e.line}" if e.line else "") + f": {e.message}"
        elif e.line:
            region = {"startLine": e.line}
            if e.column:
                region["startColumn"] = e.column
        path = repo_relative(e.path, self.run.cwd)
        result = self._result(
            e.code, message, self._location(e.path, region), (e.code, path, e.message)
        )
        if state is not None:
            result["baselineState"] = state
        return result


def render(run: Run) -> str:
    builder = _Builder(run)
    with_baseline = run.baseline is not None
    results = [builder.error(e, "new" if with_baseline else None) for e in run.errors]
    results += [builder.diagnostic(d, "new" if with_baseline else None) for d in run.diagnostics]
    if with_baseline and run.show_baselined:
        results += [builder.diagnostic(d, "unchanged") for d in run.baselined]
    for d in run.suppressed:
        # SARIF's own record of an in-source suppression: code scanning shows it as such.
        result = builder.diagnostic(d, "new" if with_baseline else None)
        result["suppressions"] = [
            {"kind": "inSource", "justification": f"suppressed by `{d.suppressed_by}`"}
        ]
        results.append(result)
    notifications = [
        {
            "level": "error",
            "message": {"text": entry.describe() + "; run with --prune-baseline to remove it"},
            "locations": [builder._location(run.baseline or entry.display, None)],
        }
        for entry in run.stale
    ]
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if run.trusted is not None:
        invocation["properties"] = {
            "trustedGate": {
                "policy": run.trusted.policy,
                "baseline": run.trusted.baseline,
                "cache": run.trusted.cache,
                "suppressed": len(run.suppressed),
            }
        }
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    root = repo_root(run.cwd) or run.cwd.resolve()
    driver: dict[str, Any] = {
        "name": "claude-migrate",
        "version": __version__,
        "semanticVersion": __version__,
        "rules": [_rule(rule) for rule in builder.rules],
    }
    homepage = project_url()
    if homepage is not None:
        driver["informationUri"] = homepage
    sarif_run: dict[str, Any] = {
        "tool": {"driver": driver},
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri().rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "invocations": [invocation],
        "results": results,
    }
    document = {"$schema": SCHEMA, "version": "2.1.0", "runs": [sarif_run]}
    return json.dumps(escape_strings(document), indent=2, ensure_ascii=False) + "\n"
