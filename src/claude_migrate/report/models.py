"""The model inventory (`claude-migrate models`): its data, as text, JSON (a contract), Markdown.

`inventory.build` fills these plain types; the renderers here read nothing else.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from typing import Any

from claude_migrate import __version__
from claude_migrate.core.diagnostics import FileError

SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Place:
    """One mention of a model id."""

    path: str
    line: int
    column: int  # 1-based
    text: str  # the id as written
    use: str  # "call": proven to be a Claude call's model in its file; "data": not proven
    status: str  # "retired", "retiring" or "active", under the file's policy
    replacement: str | None  # what CM302's fix writes there (same spelling), if anything
    form: str  # "api", "alias", "bedrock" or "vertex"
    cell: int | None = None  # in a notebook: the cell, `line` counting within it


@dataclass
class ModelEntry:
    """One catalogue model and every place that names it."""

    model: str
    status: str
    retires: str | None
    platforms: dict[str, dict[str, str | None]]
    replacement: str | None
    places: list[Place] = field(default_factory=list)


@dataclass
class Inventory:
    files: int = 0
    models: list[ModelEntry] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    as_of: dt.date | None = None


def _where(place: Place) -> str:
    cell = f"cell {place.cell} " if place.cell is not None else ""
    return f"{place.path}:{cell}{place.line}:{place.column}"


def _platforms(entry: ModelEntry) -> str:
    parts = []
    for name in ("bedrock", "vertex"):
        own = entry.platforms[name]
        if own["retires"] is not None:
            parts.append(f"{name} {own['status']} {own['retires']}")
    return "; ".join(parts)


def _headline(entry: ModelEntry) -> str:
    status = entry.status + (f" {entry.retires}" if entry.retires else "")
    move = f" -> {entry.replacement}" if entry.replacement and entry.status != "active" else ""
    platforms = _platforms(entry)
    platforms = f" ({platforms})" if platforms else ""
    count = len(entry.places)
    return f"{entry.model}: {status}{platforms}{move}, {count} mention{'s' if count != 1 else ''}"


def _summary(inventory: Inventory) -> dict[str, int]:
    return {
        "files": inventory.files,
        "models": len(inventory.models),
        "mentions": sum(len(e.places) for e in inventory.models),
        "retired": sum(1 for e in inventory.models if e.status == "retired"),
        "retiring": sum(1 for e in inventory.models if e.status == "retiring"),
        "errors": len(inventory.errors),
    }


def render_text(inventory: Inventory) -> str:
    lines = []
    for entry in inventory.models:
        lines.append(_headline(entry))
        for place in entry.places:
            fix = f" -> {place.replacement}" if place.replacement else ""
            lines.append(f"  {_where(place)}  {place.use}  {place.text}{fix}")
    for error in inventory.errors:
        where = f":{error.line}" if error.line else ""
        lines.append(f"{error.path}{where}: not read: {error.message}")
    summary = _summary(inventory)
    as_of = f" as of {inventory.as_of.isoformat()}" if inventory.as_of else ""
    lines.append(
        f"{summary['mentions']} mention(s) of {summary['models']} Claude model(s){as_of}: "
        f"{summary['retired']} retired, {summary['retiring']} retiring; "
        f"{summary['files']} file(s) read"
    )
    return "\n".join(lines) + "\n"


def as_json(inventory: Inventory) -> dict[str, Any]:
    return {
        "version": SCHEMA_VERSION,
        "tool": {"name": "claude-migrate", "version": __version__},
        "as_of": inventory.as_of.isoformat() if inventory.as_of else None,
        "models": [
            {
                "model": entry.model,
                "status": entry.status,
                "retires": entry.retires,
                "platforms": entry.platforms,
                "replacement": entry.replacement,
                "count": len(entry.places),
                "places": [
                    {
                        "path": p.path,
                        "line": p.line,
                        "column": p.column,
                        "cell": p.cell,
                        "text": p.text,
                        "form": p.form,
                        "use": p.use,
                        "status": p.status,
                        "replacement": p.replacement,
                    }
                    for p in entry.places
                ],
            }
            for entry in inventory.models
        ],
        "errors": [
            {"path": e.path, "line": e.line, "message": e.message} for e in inventory.errors
        ],
        "summary": _summary(inventory),
    }


def render_json(inventory: Inventory) -> str:
    return json.dumps(as_json(inventory), indent=2) + "\n"


def _cell(text: str | None) -> str:
    return (text or "-").replace("|", "\\|")


def render_markdown(inventory: Inventory) -> str:
    """Return the inventory as a Markdown section for a migration ticket."""
    as_of = f" (as of {inventory.as_of.isoformat()})" if inventory.as_of else ""
    lines = [
        f"## Claude models in this tree{as_of}",
        "",
        "| model | status | retires (API) | Bedrock | Vertex AI | replacement | mentions |",
        "|---|---|---|---|---|---|---|",
    ]
    for e in inventory.models:
        bedrock, vertex = e.platforms["bedrock"]["retires"], e.platforms["vertex"]["retires"]
        lines.append(
            f"| `{e.model}` | {e.status} | {_cell(e.retires)} | {_cell(bedrock)} | "
            f"{_cell(vertex)} | {_cell(e.replacement and f'`{e.replacement}`')} | "
            f"{len(e.places)} |"
        )
    for e in inventory.models:
        if e.status == "active":
            continue
        lines += ["", f"### `{e.model}`", ""]
        for p in e.places:
            fix = f" -> `{p.replacement}`" if p.replacement else ""
            lines.append(f"- [ ] `{_where(p)}` ({p.use}): `{p.text}`{fix}")
    if inventory.errors:
        lines += ["", "### Not read", ""]
        lines += [f"- `{e.path}`: {e.message}" for e in inventory.errors]
    return "\n".join(lines) + "\n"


RENDERERS = {"text": render_text, "json": render_json, "markdown": render_markdown}
