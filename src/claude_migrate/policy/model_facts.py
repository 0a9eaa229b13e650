"""Model facts (`rules/models.toml`): what a request to each Claude model may carry.

Per family of models: whether temperature / top_p / top_k may be sent (all, one of temperature
and top_p, none), whether the last turn may be a prefilled assistant turn, which `thinking`
types are accepted, the highest `max_tokens`, and the tool versions and beta headers the models
no longer take. Every fact names a public source; a fact the sources do not give is absent and
never checked. Models are named by their ids in the deprecation catalogue, so every spelling
the catalogue recognises (Bedrock, Vertex, LiteLLM prefixes) finds the same facts.

Loaded and validated with the deprecation catalogue at start-up; a malformed entry is a
`ConfigError` naming the file, the line and the entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from claude_migrate.core.errors import ConfigError, parse_toml
from claude_migrate.core.resources import rules_dir

FACTS_NAME = "models.toml"
SCHEMA = 1
SAMPLING_KINDS = ("any", "one-of", "none")
THINKING_TYPES = ("enabled", "adaptive", "disabled", "between_tools")
FACT_KEYS = (
    "sampling",
    "prefill",
    "thinking",
    "max-tokens",
    "dropped-tools",
    "dropped-betas",
    "forced-tool-choice",
)
FAMILY_KEYS = ("name", "models", *FACT_KEYS, "source")
TOOL_KEYS = ("replacement", "name", "replacement-name", "note")
TOP_KEYS = ("schema", "sources", "families", "tools")
# The parameters a `sampling` fact is about.
SAMPLING_PARAMS = ("temperature", "top_p", "top_k")


@dataclass(frozen=True)
class ToolVersion:
    """A tool type some model no longer takes, and what to send instead."""

    type: str
    replacement: str
    name: str = ""
    replacement_name: str = ""
    note: str = ""


@dataclass(frozen=True)
class Facts:
    """What one family's requests may carry; None (or empty) where no source says."""

    family: str
    sampling: str | None = None
    prefill: bool | None = None
    thinking: tuple[str, ...] | None = None
    max_tokens: int | None = None
    dropped_tools: tuple[str, ...] = ()
    dropped_betas: tuple[str, ...] = ()
    # Whether `tool_choice` may force tool use ({"type": "any"} or {"type": "tool", ...}).
    forced_tool_choice: bool | None = None
    sources: Mapping[str, str] = field(default_factory=dict)

    def source(self, fact: str) -> str:
        """Return the public source of one fact (a URL or an SDK file and version)."""
        return self.sources.get(fact, "")

    def rejects_sampling(self, present: set[str]) -> dict[str, str]:
        """Return, for sampling parameters the model refuses in this combination, why."""
        if self.sampling == "none":
            return {p: "takes no sampling parameters" for p in SAMPLING_PARAMS if p in present}
        if self.sampling == "one-of" and {"temperature", "top_p"} <= present:
            return {"temperature+top_p": "takes temperature or top_p, not both"}
        return {}


@dataclass
class ModelFacts:
    """Every family, indexed by the catalogue ids of its models."""

    families: list[Facts] = field(default_factory=list)
    tools: dict[str, ToolVersion] = field(default_factory=dict)
    by_id: dict[str, Facts] = field(default_factory=dict)
    path: str = ""

    def for_model(self, model_id: str) -> Facts | None:
        """Return the facts of a catalogue model (by its `id`), or None when none are known."""
        return self.by_id.get(model_id)


def shipped_path() -> Path:
    return rules_dir() / FACTS_NAME


class _Reader:
    def __init__(self, path: Path) -> None:
        self.display = "catalogue:" + FACTS_NAME
        try:
            self.text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(self.display, None, f"cannot read the model facts: {exc}") from None
        self.data = parse_toml(self.text, self.display)
        self.lines = self.text.splitlines()

    def family_line(self, index: int, key: str | None = None) -> int | None:
        """Return the line of `key` in the index-th [[families]] (else the header's line)."""
        seen = -1
        start = None
        for number, line in enumerate(self.lines, 1):
            if re.match(r"^\s*\[\[\s*families\s*\]\]", line):
                seen += 1
                if seen == index:
                    start = number
                    break
        if start is None or key is None:
            return start
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if line.lstrip().startswith("["):
                break
            if re.match(rf"^\s*{re.escape(key)}\s*=", line):
                return number
        return start

    def line_of(self, needle: str) -> int | None:
        for number, line in enumerate(self.lines, 1):
            if needle in line:
                return number
        return None

    def fail(self, entry: str, message: str, line: int | None) -> ConfigError:
        return ConfigError(self.display, entry, message, line)


def _family(
    reader: _Reader, index: int, raw: Any, sources: Mapping[str, str]
) -> tuple[Facts, tuple[str, ...]]:
    if not isinstance(raw, dict):
        raise reader.fail(f"families[{index}]", "expected a table", reader.family_line(index))
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise reader.fail(
            f"families[{index}]", "expected `name` (a string)", reader.family_line(index, "name")
        )
    entry = f"families[{index}] ({name})"

    def fail(key: str, message: str) -> ConfigError:
        return reader.fail(f"{entry}.{key}", message, reader.family_line(index, key))

    for key in raw:
        if key not in FAMILY_KEYS:
            raise fail(key, "unknown key (known: " + ", ".join(FAMILY_KEYS) + ")")
    models = raw.get("models")
    if (
        not isinstance(models, list)
        or not models
        or not all(isinstance(m, str) and m for m in models)
    ):
        raise fail("models", "expected a non-empty list of model ids")
    _check_values(raw, fail)
    lists = {}
    for key in ("dropped-tools", "dropped-betas"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise fail(key, "expected a list of non-empty strings")
        lists[key] = tuple(value)
    resolved = _fact_sources(raw, sources, fail)
    sampling, prefill, thinking = raw.get("sampling"), raw.get("prefill"), raw.get("thinking")
    limit = raw.get("max-tokens")
    facts = Facts(
        family=name,
        sampling=sampling,
        prefill=prefill,
        thinking=tuple(thinking) if thinking is not None else None,
        max_tokens=limit,
        dropped_tools=lists["dropped-tools"],
        dropped_betas=lists["dropped-betas"],
        forced_tool_choice=raw.get("forced-tool-choice"),
        sources=resolved,
    )
    return facts, tuple(models)


def _check_values(raw: dict[str, Any], fail: Callable[[str, str], ConfigError]) -> None:
    """Raise for a family's fact whose value has the wrong type or is not a known choice."""
    sampling = raw.get("sampling")
    if sampling is not None and sampling not in SAMPLING_KINDS:
        raise fail("sampling", "expected one of " + ", ".join(f'"{k}"' for k in SAMPLING_KINDS))
    prefill = raw.get("prefill")
    if prefill is not None and not isinstance(prefill, bool):
        raise fail("prefill", "expected true or false")
    thinking = raw.get("thinking")
    if thinking is not None and (
        not isinstance(thinking, list) or not all(t in THINKING_TYPES for t in thinking)
    ):
        raise fail("thinking", "expected a list of " + ", ".join(f'"{t}"' for t in THINKING_TYPES))
    forced = raw.get("forced-tool-choice")
    if forced is not None and not isinstance(forced, bool):
        raise fail("forced-tool-choice", "expected true or false")
    limit = raw.get("max-tokens")
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise fail("max-tokens", "expected a positive integer")


def _fact_sources(
    raw: dict[str, Any], sources: Mapping[str, str], fail: Callable[[str, str], ConfigError]
) -> dict[str, str]:
    """Return each fact's source, by name from [sources]; every fact given must name one."""
    given = raw.get("source", {})
    if not isinstance(given, dict):
        raise fail("source", "expected a table { fact = source-name }")
    for fact in FACT_KEYS:
        present = raw.get(fact) is not None and raw.get(fact) != []
        if fact in ("thinking",):
            present = raw.get(fact) is not None
        if present and fact not in given:
            raise fail("source", f"the fact `{fact}` names no source")
    resolved = {}
    for fact, source in given.items():
        if fact not in FACT_KEYS:
            raise fail("source", f"unknown fact {fact!r} (known: " + ", ".join(FACT_KEYS) + ")")
        if source not in sources:
            raise fail("source", f"{source!r} is not a name of [sources]")
        resolved[fact] = sources[source]
    return resolved


def _tools(reader: _Reader) -> dict[str, ToolVersion]:
    raw = reader.data.get("tools", {})
    if not isinstance(raw, dict):
        raise reader.fail("tools", 'expected tables [tools."TYPE"]', reader.line_of("[tools"))
    tools = {}
    for type_, table in raw.items():
        line = reader.line_of(f'"{type_}"')
        if not isinstance(table, dict):
            raise reader.fail(f"tools.{type_}", "expected a table", line)
        for key, value in table.items():
            if key not in TOOL_KEYS:
                raise reader.fail(
                    f"tools.{type_}.{key}",
                    "unknown key (known: " + ", ".join(TOOL_KEYS) + ")",
                    line,
                )
            if not isinstance(value, str) or not value:
                raise reader.fail(f"tools.{type_}.{key}", "expected a non-empty string", line)
        if "replacement" not in table:
            raise reader.fail(f"tools.{type_}", "expected `replacement` (the type to send)", line)
        tools[type_] = ToolVersion(
            type_,
            table["replacement"],
            table.get("name", ""),
            table.get("replacement-name", ""),
            table.get("note", ""),
        )
    return tools


def read(path: Path, find: Any) -> ModelFacts:
    """Read and validate a facts file; `find(id)` returns the catalogue model of an id."""
    reader = _Reader(path)
    for key in reader.data:
        if key not in TOP_KEYS:
            raise reader.fail(
                key, "unknown key (known: " + ", ".join(TOP_KEYS) + ")", reader.line_of(key)
            )
    if reader.data.get("schema", SCHEMA) != SCHEMA:
        raise reader.fail("schema", f"expected {SCHEMA}", reader.line_of("schema"))
    sources = reader.data.get("sources", {})
    if not isinstance(sources, dict) or not all(
        isinstance(v, str) and v.strip() for v in sources.values()
    ):
        raise reader.fail(
            "sources", "expected a table of name = URL or SDK file", reader.line_of("[sources]")
        )
    families = reader.data.get("families", [])
    if not isinstance(families, list):
        raise reader.fail("families", "expected an array of tables ([[families]])", None)
    facts = ModelFacts(tools=_tools(reader), path=str(path))
    for index, raw in enumerate(families):
        family, models = _family(reader, index, raw, sources)
        for tool in family.dropped_tools:
            if tool not in facts.tools:
                raise reader.fail(
                    f"families[{index}] ({family.family}).dropped-tools",
                    f'{tool!r} has no [tools."{tool}"] table',
                    reader.family_line(index, "dropped-tools"),
                )
        facts.families.append(family)
        for model_id in models:
            model = find(model_id)
            if model is None:
                raise reader.fail(
                    f"families[{index}] ({family.family}).models",
                    f"{model_id!r} is not a model of rules/deprecations.toml",
                    reader.family_line(index, "models"),
                )
            if model.id in facts.by_id:
                raise reader.fail(
                    f"families[{index}] ({family.family}).models",
                    f"{model_id!r} already has facts ({facts.by_id[model.id].family})",
                    reader.family_line(index, "models"),
                )
            facts.by_id[model.id] = family
    return facts


@cache
def load() -> ModelFacts:
    """Return the shipped model facts, checked against the shipped deprecation catalogue."""
    from claude_migrate.policy import deprecations

    return read(shipped_path(), deprecations.load(None).find)
