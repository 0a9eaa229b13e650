"""`claude-migrate report --merge`: the JSON or SARIF outputs of `--shard K/N` runs made into one.

Each shard checks a disjoint share of the same tree, so merging is a union: findings and file
errors are concatenated and put back in the order one unsharded run reports them (errors by path
and line; findings by path, line, column and code; a file is whole in one shard, so the order
within a file is kept as its shard gave it), and the counts are summed. The result is the
document an unsharded run of the same tree would have printed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


class MergeError(ValueError):
    """Inputs that cannot be merged: unreadable, not our output, or of different formats."""


def _load(path: Path) -> Any:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(256 * 1024 * 1024 + 1)
    except OSError as exc:
        raise MergeError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(raw) > 256 * 1024 * 1024:
        raise MergeError(f"{path}: larger than 256 MiB")
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise MergeError(f"{path}: not a JSON document: {exc}") from None


def kind_of(document: Any) -> str | None:
    """Return "sarif", "json" (a `check --format json` document) or None."""
    if not isinstance(document, dict):
        return None
    if isinstance(document.get("runs"), list) and document.get("version") == "2.1.0":
        return "sarif"
    if isinstance(document.get("diagnostics"), list) and isinstance(document.get("summary"), dict):
        return "json"
    return None


def _require(condition: bool, path: Path, what: str) -> None:
    if not condition:
        raise MergeError(f"{path}: {what}")


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _diagnostic_key(d: dict[str, Any]) -> tuple[str, int, int, int, str]:
    # A notebook's findings carry a "cell"; their lines count within it.
    path, cell = str(d.get("path", "")), _int(d.get("cell"))
    return (path, cell, _int(d.get("line")), _int(d.get("column")), str(d.get("code")))


def _error_key(e: dict[str, Any]) -> tuple[str, int, int]:
    return (str(e.get("path", "")), _int(e.get("cell")), _int(e.get("line")))


def _add_counts(total: dict[str, Any], counts: dict[str, Any]) -> None:
    """Add a shard's summary counts into `total`; a table of counts (`severities`) key by key."""
    for key, value in counts.items():
        if isinstance(value, dict):
            _add_counts(total.setdefault(key, {}), value)
        else:
            total[key] = total.get(key, 0) + _int(value)


def merge_json(documents: Sequence[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    """Return one `--format json` document holding every shard's findings."""
    diagnostics: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    summary: dict[str, Any] = {}
    baseline: dict[str, Any] | None = None
    for path, document in documents:
        found = document["diagnostics"]
        lost = document.get("errors", [])
        _require(isinstance(lost, list), path, "`errors`: expected a list")
        _require(all(isinstance(d, dict) for d in found), path, "`diagnostics`: expected objects")
        _require(all(isinstance(e, dict) for e in lost), path, "`errors`: expected objects")
        diagnostics.extend(found)
        errors.extend(lost)
        _add_counts(summary, document["summary"])
        shard_baseline = document.get("baseline")
        if isinstance(shard_baseline, dict):
            if baseline is None:
                baseline = {"path": shard_baseline.get("path"), "baselined": 0, "stale": []}
            baseline["baselined"] += _int(shard_baseline.get("baselined"))
            stale = shard_baseline.get("stale")
            if isinstance(stale, list):
                baseline["stale"].extend(stale)
    diagnostics.sort(key=_diagnostic_key)
    errors.sort(key=_error_key)
    summary["diagnostics"] = len(diagnostics)
    summary["errors"] = len(errors)
    merged: dict[str, Any] = {
        "version": documents[0][1].get("version", 1),
        "tool": documents[0][1].get("tool"),
        "diagnostics": diagnostics,
        "errors": errors,
        "summary": summary,
    }
    if baseline is not None:
        baseline["stale"].sort(key=lambda s: json.dumps(s, sort_keys=True))
        merged["baseline"] = baseline
    return merged


def _sarif_location(result: dict[str, Any]) -> tuple[str, int, int]:
    try:
        physical = result["locations"][0]["physicalLocation"]
        region = physical.get("region") or {}
        return (
            str(physical["artifactLocation"]["uri"]),
            _int(region.get("startLine")),
            _int(region.get("startColumn")),
        )
    except (KeyError, IndexError, TypeError, AttributeError):
        return ("", 0, 0)


def _sarif_key(result: dict[str, Any]) -> tuple[Any, ...]:
    uri, line, column = _sarif_location(result)
    # A run lists file errors (CM001) first, by path and line, then findings in report order.
    if result.get("ruleId") == "CM001":
        return (0, uri, line)
    return (1, uri, line, column, str(result.get("ruleId")))


def merge_sarif(documents: Sequence[tuple[Path, dict[str, Any]]]) -> dict[str, Any]:
    """Return one SARIF log whose single run holds every shard's results."""
    results: list[dict[str, Any]] = []
    notifications: list[Any] = []
    first_run: dict[str, Any] | None = None
    for path, document in documents:
        runs = document["runs"]
        _require(len(runs) == 1 and isinstance(runs[0], dict), path, "expected one SARIF run")
        run = runs[0]
        tool = (
            run.get("tool", {}).get("driver", {}).get("name")
            if isinstance(run.get("tool"), dict)
            else None
        )
        _require(tool == "claude-migrate", path, "not a claude-migrate SARIF log")
        _require(isinstance(run.get("results"), list), path, "`runs[0].results`: expected a list")
        if first_run is None:
            first_run = run
        results.extend(r for r in run["results"] if isinstance(r, dict))
        for shard_invocation in run.get("invocations") or []:
            if isinstance(shard_invocation, dict):
                for note in shard_invocation.get("toolExecutionNotifications") or []:
                    if note not in notifications:
                        notifications.append(note)
    assert first_run is not None
    results.sort(key=_sarif_key)
    merged_run = dict(first_run)
    merged_run["results"] = results
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    merged_run["invocations"] = [invocation]
    merged = dict(documents[0][1])
    merged["runs"] = [merged_run]
    return merged


def merge(paths: Sequence[Path]) -> tuple[str, str]:
    """Return (format, merged document text) for the outputs of several shards."""
    if not paths:
        raise MergeError("nothing to merge: give the JSON or SARIF outputs of the shards")
    loaded: list[tuple[Path, Any]] = [(path, _load(path)) for path in paths]
    kinds = {path: kind_of(document) for path, document in loaded}
    for path, kind in kinds.items():
        if kind is None:
            raise MergeError(
                f"{path}: expected the output of `claude-migrate check --format json` or "
                "`--format sarif`"
            )
    if len(set(kinds.values())) > 1:
        raise MergeError("cannot merge JSON and SARIF outputs together; merge each format apart")
    kind = next(iter(kinds.values()))
    assert kind is not None
    if kind == "sarif":
        return kind, json.dumps(merge_sarif(loaded), indent=2, ensure_ascii=False) + "\n"
    return kind, json.dumps(merge_json(loaded), indent=2) + "\n"
