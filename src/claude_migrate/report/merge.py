"""`claude-migrate report --merge`: the JSON or SARIF outputs of `--shard K/N` runs made into one.

Each shard checks a disjoint share of the same tree, so merging is a union: findings and file
errors are concatenated and put back in the order one unsharded run reports them (errors by path
and line; findings by path, line, column and code; a file is whole in one shard, so the order
within a file is kept as its shard gave it), and the counts are summed. The result is the
document an unsharded run of the same tree would have printed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from claude_migrate.core.source import FileTooLarge, read_regular


class MergeError(ValueError):
    """Inputs that cannot be merged: unreadable, not our output, or of different formats."""


MIB = 1024 * 1024
MAX_INPUT_BYTES = 256 * MIB


def _load(path: Path) -> Any:
    try:
        # A regular file only (a FIFO would block the merge forever), within the size cap.
        raw = read_regular(path, limit=MAX_INPUT_BYTES)
    except FileTooLarge:
        raise MergeError(f"{path}: larger than {MAX_INPUT_BYTES // MIB} MiB") from None
    except OSError as exc:
        raise MergeError(f"{path}: cannot read: {exc.strerror or exc}") from None
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


def _check_json_place(item: dict[str, Any], path: Path, where: str, first_line: int) -> None:
    """Check a finding's or file error's place: a relative path, a line and column in range."""
    _require(isinstance(item.get("path"), str), path, f"`{where}.path`: expected a string")
    _require(_local(item["path"]), path, f"`{where}.path`: expected a file path, not a URI")
    for key, least in (("line", first_line), ("column", 0), ("cell", 1)):
        value = item.get(key)
        if value is None and key != "line":
            continue
        if value is None and first_line == 0:
            continue  # a file error may name no line
        _require(
            isinstance(value, int) and not isinstance(value, bool) and value >= least,
            path,
            f"`{where}.{key}`: expected a whole number of at least {least}, got {value!r}",
        )


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")


def _local(uri: str) -> bool:
    """Return whether a path or URI names a local file: a path (no scheme), or a `file:` URI."""
    if _SCHEME.match(uri) and not re.match(r"^[A-Za-z]:[\\/]", uri):
        return uri.lower().startswith("file:")
    return True


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
        for i, item in enumerate(found):
            _check_json_place(item, path, f"diagnostics[{i}]", first_line=1)
        for i, item in enumerate(lost):
            _check_json_place(item, path, f"errors[{i}]", first_line=0)
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


def _check_sarif_result(result: Any, path: Path, where: str) -> None:
    """Check a SARIF result's places: URIs relative or `file:`, lines and columns from 1.

    (SARIF 2.1.0 §3.30.5: `startLine` and `startColumn` are 1 or more; a viewer follows an
    artifact's `uri`, so a `javascript:` or web address must not pass through a merge.)
    """
    _require(isinstance(result, dict), path, f"`{where}`: expected an object")
    locations = result.get("locations") or []
    _require(isinstance(locations, list), path, f"`{where}.locations`: expected a list")
    for i, location in enumerate(locations):
        at = f"{where}.locations[{i}].physicalLocation"
        physical = location.get("physicalLocation") if isinstance(location, dict) else None
        _require(isinstance(physical, dict), path, f"`{at}`: expected an object")
        assert isinstance(physical, dict)
        artifact = physical.get("artifactLocation") or {}
        uri = artifact.get("uri") if isinstance(artifact, dict) else None
        _require(isinstance(uri, str), path, f"`{at}.artifactLocation.uri`: expected a string")
        assert isinstance(uri, str)
        _require(
            _local(uri), path, f"`{at}.artifactLocation.uri`: expected a relative or file: URI"
        )
        region = physical.get("region") or {}
        _require(isinstance(region, dict), path, f"`{at}.region`: expected an object")
        for key in ("startLine", "startColumn", "endLine", "endColumn"):
            value = region.get(key)
            _require(
                value is None
                or (isinstance(value, int) and not isinstance(value, bool) and value >= 1),
                path,
                f"`{at}.region.{key}`: expected a whole number of at least 1, got {value!r}",
            )


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
        for i, result in enumerate(run["results"]):
            _check_sarif_result(result, path, f"runs[0].results[{i}]")
        results.extend(run["results"])
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
