"""The policy reference and the JSON schema of `claude-migrate.toml`, from the rules' `Option`s.

Every rule declares its options (kind, default, range, description) once, in its check; the
documentation site's options page and the schema editors use to complete and validate the file
are generated from those declarations, so neither can drift from what the loader accepts.
The loader stays the judge: the schema describes the file's shape and each value's range, not
what only the loader can tell (a glob git would never match, a model id the catalogue lacks).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from claude_migrate.checks import ALL_CHECKS, KNOWN_CODES
from claude_migrate.checks.base import Check, Option
from claude_migrate.core.diagnostics import SEVERITIES
from claude_migrate.policy.config import CALL_SITE_PARAMETERS, preset_names

SCHEMA_ID = "claude-migrate.schema.json"

# The top-level keys of a policy that are not a rule's table.
TOP_LEVEL = {
    "extend": "A preset's name or a TOML file (relative to this file) that this policy builds on.",
    "select": "Rule codes or prefixes to turn on (ruff's meaning: the most specific wins).",
    "ignore": "Rule codes or prefixes to turn off.",
    "exclude": "gitignore-style globs, relative to this file's folder, to leave out of the walk.",
    "severity": 'A rule\'s findings as "error", "warning" or "info", by code or prefix.',
    "overrides": "Per-path layers: `paths` globs, then select, ignore, severity or rule tables.",
    "call-sites": "Team wrappers checked like Claude calls: `function` and parameter mappings.",
}


def _json_default(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, tuple):
        return list(value)
    return value


def option_schema(option: Option) -> dict[str, Any]:
    """Return the JSON schema of one option's value."""
    kind = option.kind
    schema: dict[str, Any]
    if kind in ("number", "integer"):
        schema = {"type": kind}
        if option.minimum is not None:
            schema["minimum"] = option.minimum
        if option.maximum is not None:
            schema["maximum"] = option.maximum
    elif kind == "bool":
        schema = {"type": "boolean"}
    elif kind == "enum":
        schema = {"enum": list(option.choices)}
    elif kind == "string-list":
        schema = {"type": "array", "items": {"type": "string"}}
    elif kind == "string-table":
        schema = {"type": "object", "additionalProperties": {"type": "string"}}
    elif kind == "date":
        # TOML dates reach JSON validators as strings in the same form.
        schema = {"type": "string", "format": "date"}
    else:  # "string", "path"
        schema = {"type": "string"}
    schema["description"] = option.description
    if option.default is not None:
        schema["default"] = _json_default(option.default)
    return schema


def rule_table_schema(check: type[Check[Any]]) -> dict[str, Any]:
    """Return the schema of one rule's table (no other keys than its options)."""
    return {
        "type": "object",
        "description": f"{check.code} {check.name}: {check.summary}",
        "properties": {key: option_schema(o) for key, o in check.options.items()},
        "additionalProperties": False,
    }


def _selectors() -> dict[str, Any]:
    prefixes = sorted({code[:n] for code in KNOWN_CODES for n in range(2, len(code) + 1)})
    return {"type": "array", "items": {"enum": prefixes}}


def _severity_table() -> dict[str, Any]:
    return {
        "type": "object",
        "propertyNames": {"pattern": "^CM[0-9]{0,3}$"},
        "additionalProperties": {"enum": list(SEVERITIES)},
    }


def json_schema() -> dict[str, Any]:
    """Return the JSON schema (draft 2020-12) of a `claude-migrate.toml`."""
    tables = {check.name: rule_table_schema(check) for check in ALL_CHECKS if check.options}
    override_props: dict[str, Any] = {
        "paths": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "select": _selectors(),
        "ignore": _selectors(),
        "severity": _severity_table(),
        **tables,
    }
    call_site_props: dict[str, Any] = {
        "function": {"type": "string", "pattern": r"^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$"},
        **{p: {"type": "string", "pattern": r"^[A-Za-z_]\w*$"} for p in CALL_SITE_PARAMETERS},
    }
    properties: dict[str, Any] = {
        "extend": {
            "type": "string",
            "description": TOP_LEVEL["extend"],
            "examples": preset_names(),
        },
        "select": {**_selectors(), "description": TOP_LEVEL["select"]},
        "ignore": {**_selectors(), "description": TOP_LEVEL["ignore"]},
        "exclude": {
            "type": "array",
            "items": {"type": "string"},
            "description": TOP_LEVEL["exclude"],
        },
        "severity": {**_severity_table(), "description": TOP_LEVEL["severity"]},
        "overrides": {
            "type": "array",
            "description": TOP_LEVEL["overrides"],
            "items": {
                "type": "object",
                "required": ["paths"],
                "properties": override_props,
                "additionalProperties": False,
            },
        },
        "call-sites": {
            "type": "array",
            "description": TOP_LEVEL["call-sites"],
            "items": {
                "type": "object",
                "required": ["function"],
                "minProperties": 2,
                "properties": call_site_props,
                "additionalProperties": False,
            },
        },
        **tables,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "claude-migrate policy (claude-migrate.toml, or [tool.claude-migrate])",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


def schema_text() -> str:
    """Return the schema as the JSON file the site publishes."""
    return json.dumps(json_schema(), indent=2) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _default(option: Option) -> str:
    if option.default_from is not None:
        return f"the value of `{option.default_from}`"
    if option.default is None:
        return "unset"
    value = _json_default(option.default)
    return f"`{json.dumps(value)}`"


def options_markdown() -> str:
    """Return the policy options page: the top-level keys, then each rule's table."""
    lines = [
        "# Policy options",
        "",
        "Generated from the options each rule declares in its check, the same declarations the",
        "policy loader validates against. Editors can validate and complete a",
        "`claude-migrate.toml` with the [JSON schema](claude-migrate.schema.json) generated from",
        "them too (Even Better TOML and Taplo read a `#:schema` comment on the first line).",
        "",
        "## Top-level keys",
        "",
        "| key | what it holds |",
        "|---|---|",
    ]
    lines += [f"| `{key}` | {_cell(text)} |" for key, text in TOP_LEVEL.items()]
    lines += ["", "Presets: " + ", ".join(f"`{name}`" for name in preset_names()) + ".", ""]
    for check in ALL_CHECKS:
        if not check.options:
            continue
        lines += [
            f"## `[{check.name}]` ({check.code})",
            "",
            f"Finds: {check.summary}. See [{check.code}](../rules/{check.code}.md).",
            "",
            "| option | accepts | default | what it does |",
            "|---|---|---|---|",
        ]
        for key, option in check.options.items():
            lines.append(
                f"| `{key}` | {_cell(option.expected())} | {_cell(_default(option))} "
                f"| {_cell(option.description)} |"
            )
        lines.append("")
    without = [f"{c.code} {c.name}" for c in ALL_CHECKS if not c.options]
    lines += ["## Rules without options", "", ", ".join(without) + ".", ""]
    return "\n".join(lines)
