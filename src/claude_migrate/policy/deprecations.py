"""The deprecation catalogue (`rules/deprecations.toml`): loaded, validated, and asked questions.

(`catalogue.py` is the other catalogue: the rules and their pages, for `explain`.)

The catalogue is data: retired models with their end-of-life dates and replacements, the Python
SDK's removed surface, and the API versions with what each rejects. Rules read it through
`load()`; a malformed entry is a `ConfigError` naming the file, the line and the entry, raised at
start-up (policy validation loads it) so the run exits 2 before any file is touched.

A model string in code is looked up in every spelling the platforms use: the API id or alias
(`claude-3-opus-20240229`, `claude-3-opus-latest`), a Bedrock id with or without a cross-region
prefix or an ARN (`us.anthropic.claude-3-opus-20240229-v1:0`), a Vertex id
(`claude-3-opus@20240229`) and any of those behind a LiteLLM prefix (`anthropic/`, `bedrock/`,
`vertex_ai/`). Only the API ids are data; the platform spellings are derived by rule unless an
entry lists them, and a replacement is written back in the spelling it replaces.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from claude_migrate.core.errors import ConfigError, parse_toml
from claude_migrate.core.paths import as_shown
from claude_migrate.core.resources import rules_dir

CATALOGUE_NAME = "deprecations.toml"
SCHEMA = 1

_DATED = re.compile(r"^(?P<name>.+)-(?P<date>20\d{6})$")
_API_VERSION = re.compile(r"^\d{4}-\d{2}-\d{2}$")
# `us.`, `eu.`, `apac.`, `global.`, `us-gov.` ... before a Bedrock id: a cross-region profile.
_BEDROCK = re.compile(r"^(?P<region>(?:[a-z]{2,8}(?:-[a-z]+)?\.)?)(?P<id>anthropic\..+)$")
# Provisioned-throughput variants of a Bedrock id: `anthropic.claude-v2:1:200k`.
_CONTEXT_SUFFIX = re.compile(r"^(?P<id>.+?)(?P<suffix>:\d+k)$")
# What goes before an OpenRouter name (its own `anthropic/`), and the variants OpenRouter lists
# beside a model (https://openrouter.ai/models: `:beta` self-moderated, `:thinking`).
OPENROUTER_PREFIXES = ("anthropic/",)
OPENROUTER_VARIANTS = (":beta", ":thinking")
# A provider prefix written with a colon (pydantic-ai: "anthropic:claude-...", "bedrock:...";
# aisuite 0.1.14 `aisuite/client.py`: "anthropic:claude-...", "aws:anthropic.claude-...", the
# provider before the first colon).
_PROVIDER_PREFIX = re.compile(r"^(?:anthropic|bedrock|google-vertex|aws):")

MODEL_KEYS = (
    "id",
    "aliases",
    "patterns",
    "bedrock",
    "vertex",
    "openrouter",
    "retires",
    "bedrock-retires",
    "vertex-retires",
    "replacement",
    "recommended",
    "source",
)
# Which replacement a retired model's fix writes (`[retired-models] prefer`).
PREFERENCES = ("nearest", "recommended")
PLATFORMS = {"bedrock": "Amazon Bedrock", "vertex": "Google Cloud Vertex AI"}
REMOVAL_KEYS = ("name", "kind", "calls", "removed-in", "replacement", "rule")
REMOVAL_KINDS = (
    "client-method",
    "client-attribute",
    "argument",
    "resource",
    "constant",
    "constructor",
)
VERSION_KEYS = ("version", "rejects", "sdk-default-from", "note")
TOP_KEYS = ("schema", "models", "sdk-removals", "api-versions")


@dataclass(frozen=True)
class Model:
    """One model: its API ids, its platform ids, and when it retires (if it does)."""

    id: str
    aliases: tuple[str, ...] = ()
    patterns: tuple[str, ...] = ()
    bedrock: tuple[str, ...] = ()
    vertex: tuple[str, ...] = ()
    # OpenRouter's names of the model, written after its `anthropic/` prefix (dotted versions,
    # no date: `claude-3.7-sonnet`); listed, never derived.
    openrouter: tuple[str, ...] = ()
    retires: dt.date | None = None
    replacement: str | None = None  # the nearest: the fewest request changes
    source: str = ""
    # The current model Anthropic's pages recommend moving to (None: the same as `replacement`).
    recommended: str | None = None
    # A platform's own end-of-life date, where known (Bedrock and Vertex set their own).
    bedrock_retires: dt.date | None = None
    vertex_retires: dt.date | None = None

    def platform_retires(self, form: str) -> dt.date | None:
        """Return the platform's own date for a "bedrock" or "vertex" spelling, else None."""
        return {"bedrock": self.bedrock_retires, "vertex": self.vertex_retires}.get(form)

    @classmethod
    def derived(cls, model_id: str, **given: Any) -> Model:
        """Return a model with the platform ids a dated or undated API id implies."""
        bedrock = tuple(given.pop("bedrock", ()) or ())
        vertex = tuple(given.pop("vertex", ()) or ())
        dated = _DATED.match(model_id)
        if not bedrock and dated:
            bedrock = (f"anthropic.{model_id}-v1:0",)
        if not vertex:
            vertex = (f"{dated['name']}@{dated['date']}",) if dated else (model_id,)
        return cls(model_id, bedrock=bedrock, vertex=vertex, **given)

    def retired(self, as_of: dt.date) -> bool:
        return self.retires is not None and self.retires <= as_of


@dataclass(frozen=True)
class Spelling:
    """How a model string in code names a catalogue model, and what around it to keep."""

    model: Model
    # "api" (a dated id), "alias" (an undated id or family pattern), "bedrock", "vertex",
    # "openrouter" (OpenRouter's name after `anthropic/`)
    form: str
    prefix: str = ""  # kept on the replacement: "anthropic/", "us.", "arn:...:foundation-model/"
    # A Bedrock provisioned-throughput context suffix (":200k"), or an OpenRouter variant
    # (":beta", ":thinking"): no other model has the same, so no replacement is written.
    suffix: str = ""


@dataclass(frozen=True)
class SdkRemoval:
    name: str
    kind: str
    removed_in: str
    replacement: str
    rule: str
    calls: tuple[str, ...] = ()


@dataclass(frozen=True)
class ApiVersion:
    version: str
    rejects: tuple[str, ...] = ()
    sdk_default_from: str | None = None
    note: str = ""


@dataclass
class Catalogue:
    """Every fact of the catalogue files, indexed for lookups."""

    models: list[Model] = field(default_factory=list)
    sdk_removals: list[SdkRemoval] = field(default_factory=list)
    api_versions: list[ApiVersion] = field(default_factory=list)
    paths: tuple[str, ...] = ()
    _api: dict[str, tuple[Model, str]] = field(default_factory=dict, repr=False)
    _bedrock: dict[str, Model] = field(default_factory=dict, repr=False)
    _vertex: dict[str, Model] = field(default_factory=dict, repr=False)
    _openrouter: dict[str, Model] = field(default_factory=dict, repr=False)

    def index(self) -> None:
        self._api, self._bedrock, self._vertex, self._openrouter = {}, {}, {}, {}
        for model in self.models:
            self._api[model.id] = (model, "api" if _DATED.match(model.id) else "alias")
            for alias in model.aliases:
                self._api[alias] = (model, "alias")
            for bedrock in model.bedrock:
                self._bedrock[bedrock] = model
            for vertex in model.vertex:
                if "@" in vertex:
                    self._vertex[vertex] = model
            for name in model.openrouter:
                self._openrouter[name] = model

    # Questions ----------------------------------------------------------------------------------
    def find(self, model_id: str) -> Model | None:
        """Return the model an API id, alias or family pattern names."""
        found = self._api.get(model_id)
        if found is not None:
            return found[0]
        for model in self.models:
            if any(fnmatch.fnmatchcase(model_id, p) for p in model.patterns):
                return model
        return None

    def lookup(self, text: str) -> Spelling | None:
        """Return the catalogue model a model string in code names, in whatever spelling."""
        text = text.strip()
        cut = text.rfind("/") + 1
        if not cut:
            # pydantic-ai's "anthropic:claude-..." / "bedrock:anthropic.claude-..." spelling.
            provider = _PROVIDER_PREFIX.match(text)
            cut = provider.end() if provider else 0
        prefix, rest = text[:cut], text[cut:]
        bedrock = _BEDROCK.match(rest)
        if bedrock:
            bedrock_id, suffix = bedrock["id"], ""
            context = _CONTEXT_SUFFIX.match(bedrock_id)
            if context and bedrock_id not in self._bedrock:
                bedrock_id, suffix = context["id"], context["suffix"]
            model = self._bedrock.get(bedrock_id)
            if model is None:
                return None
            return Spelling(model, "bedrock", prefix + bedrock["region"], suffix)
        if "@" in rest:
            model = self._vertex.get(rest)
            return Spelling(model, "vertex", prefix) if model is not None else None
        found = self._api.get(rest)
        if found is not None:
            return Spelling(found[0], found[1], prefix)
        if prefix in OPENROUTER_PREFIXES:
            named = self._openrouter_spelling(prefix, rest)
            if named is not None:
                return named
        model = self.find(rest)
        return Spelling(model, "alias", prefix) if model is not None else None

    def _openrouter_spelling(self, prefix: str, rest: str) -> Spelling | None:
        """Return the model an OpenRouter name (after `anthropic/`) serves, its variant kept."""
        name, colon, variant = rest.partition(":")
        suffix = colon + variant
        if suffix and suffix not in OPENROUTER_VARIANTS:
            return None
        model = self._openrouter.get(name)
        return Spelling(model, "openrouter", prefix, suffix) if model is not None else None

    def spell(self, model: Model, like: Spelling, api_id: str | None = None) -> str | None:
        """Return `model` written the way `like` was written (platform, prefix), if it can be.

        `api_id` is the id to write on the API (a policy replacement names it exactly).
        """
        if like.suffix:
            return None  # provisioned throughput is bought per model: no id to carry over
        if like.form == "bedrock":
            return like.prefix + model.bedrock[0] if model.bedrock else None
        if like.form == "vertex":
            return like.prefix + model.vertex[0] if model.vertex else None
        if like.form == "openrouter":
            return like.prefix + model.openrouter[0] if model.openrouter else None
        if like.prefix.startswith("bedrock"):
            # An API id behind a Bedrock route (`bedrock/claude-instant-v1`): Bedrock knows no
            # such id, so there is no spelling of the replacement to write in its place.
            return None
        if api_id is not None:
            return like.prefix + api_id
        if like.form == "alias" and model.aliases:
            return like.prefix + model.aliases[0]
        return like.prefix + model.id

    def successor(
        self,
        model: Model,
        until: dt.date,
        replace: Mapping[str, str] | None = None,
        prefer: str = "nearest",
    ) -> tuple[Model, str | None] | None:
        """Return the model to move to (and the exact API id a policy asked for, if any).

        Follows replacements while the next model also retires by `until` (the last day a
        warning would be shown), so a fix never writes a model it would flag again. None when
        the chain ends in a model that retires too (or loops).
        """
        replace = replace or {}
        seen: set[str] = set()
        current = model
        while current.id not in seen:
            seen.add(current.id)
            wanted = _policy_replacement(current, replace)
            api_id: str | None = None
            if wanted is not None:
                target = self.find(wanted)
                api_id = wanted
                if target is None:
                    return Model.derived(wanted), wanted
            elif (chosen := _catalogue_replacement(current, prefer)) is not None:
                target = self.find(chosen)
            else:
                return None
            if target is None:
                return None
            if target.retires is None or target.retires > until:
                return target, api_id
            current = target
        return None

    def removals(self, kind: str, rule: str) -> list[SdkRemoval]:
        return [r for r in self.sdk_removals if r.kind == kind and r.rule == rule]

    def rejecting_version(self, version: str | None, parameter: str) -> ApiVersion | None:
        """Return the oldest API version at or before `version` that rejects `parameter`."""
        if version is None:
            return None
        for known in sorted(self.api_versions, key=lambda v: v.version):
            if known.version <= version and parameter in known.rejects:
                return known
        return None


def _catalogue_replacement(model: Model, prefer: str) -> str | None:
    if prefer == "recommended" and model.recommended is not None:
        return model.recommended
    return model.replacement


def _policy_replacement(model: Model, replace: Mapping[str, str]) -> str | None:
    for name in (model.id, *model.aliases):
        if name in replace:
            return replace[name]
    return None


# Loading and validation -------------------------------------------------------------------------


def shipped_path() -> Path:
    return rules_dir() / CATALOGUE_NAME


class _Reader:
    """Reads one catalogue file, raising `ConfigError`s that name the entry and its line."""

    def __init__(self, path: Path) -> None:
        self.display = "catalogue:" + CATALOGUE_NAME if path == shipped_path() else as_shown(path)
        try:
            self.text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ConfigError(self.display, None, "catalogue file not found") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(self.display, None, f"cannot read the catalogue: {exc}") from None
        self.data = parse_toml(self.text, self.display)
        self._lines = self.text.splitlines()

    def line_of(self, *needles: str) -> int | None:
        """Return the first line holding every needle (an entry's `id = "..."` line)."""
        for number, line in enumerate(self._lines, 1):
            if all(n in line for n in needles):
                return number
        return None

    def entry_line(self, table: str, index: int, key: str | None = None) -> int | None:
        """Return the line of `key` in the index-th `[[table]]` (else its first key's line)."""
        header = re.compile(rf"^\s*\[\[\s*\"?{re.escape(table)}\"?\s*\]\]")
        seen = -1
        start = None
        for number, line in enumerate(self._lines, 1):
            if header.match(line):
                seen += 1
                if seen == index:
                    start = number
                    break
        if start is None:
            return None
        first = None
        key_re = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=") if key else None
        for number in range(start + 1, len(self._lines) + 1):
            line = self._lines[number - 1]
            if line.lstrip().startswith("["):
                break
            if first is None and re.match(r"^\s*[\w\"-]+\s*=", line):
                first = number
            if key_re is not None and key_re.match(line):
                return number
        return first or start

    def fail(self, entry: str, message: str, *needles: str) -> ConfigError:
        return ConfigError(
            self.display, entry, message, self.line_of(*needles) if needles else None
        )

    def fail_at(
        self, entry: str, message: str, table: str, index: int, key: str | None = None
    ) -> ConfigError:
        return ConfigError(self.display, entry, message, self.entry_line(table, index, key))

    def table_list(self, key: str) -> list[dict[str, Any]]:
        value = self.data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, f"expected an array of tables ([[{key}]])", key)
        return value


def _strings(
    reader: _Reader, entry: str, key: str, value: Any, at: tuple[str, int]
) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise reader.fail_at(f"{entry}.{key}", "expected a list of non-empty strings", *at, key)
    return tuple(value)


def _models(reader: _Reader) -> list[Model]:
    models = []
    for index, raw in enumerate(reader.table_list("models")):
        at = ("models", index)
        model_id = raw.get("id")
        if not isinstance(model_id, str) or not model_id:
            raise reader.fail_at(
                f"models[{index}]", "expected `id`, the model's API id (a string)", *at, "id"
            )
        entry = f"models[{index}] ({model_id})"
        for key in raw:
            if key not in MODEL_KEYS:
                raise reader.fail_at(
                    f"{entry}.{key}", "unknown key (known: " + ", ".join(MODEL_KEYS) + ")", *at, key
                )
        lists = {
            key: _strings(reader, entry, key, raw.get(key, []), at)
            for key in ("aliases", "patterns", "bedrock", "vertex", "openrouter")
        }
        for bedrock in lists["bedrock"]:
            if not bedrock.startswith("anthropic."):
                raise reader.fail_at(
                    f"{entry}.bedrock",
                    f"expected Bedrock ids starting `anthropic.`, got {bedrock!r}",
                    *at,
                    "bedrock",
                )
        dates = {}
        for key in ("retires", "bedrock-retires", "vertex-retires"):
            value = raw.get(key)
            if value is not None and (
                not isinstance(value, dt.date) or isinstance(value, dt.datetime)
            ):
                raise reader.fail_at(
                    f"{entry}.{key}",
                    f"expected a date such as 2026-01-05, got {value!r}",
                    *at,
                    key,
                )
            dates[key] = value
        retires = dates["retires"]
        replacement = raw.get("replacement")
        recommended = raw.get("recommended")
        for key, value in (("replacement", replacement), ("recommended", recommended)):
            if value is not None and (not isinstance(value, str) or not value):
                raise reader.fail_at(f"{entry}.{key}", "expected a model id (a string)", *at, key)
        if retires is not None and replacement is None:
            raise reader.fail_at(
                entry,
                "a model with `retires` needs a `replacement` (the id of another model)",
                *at,
                "id",
            )
        source = raw.get("source", "")
        if not isinstance(source, str):
            raise reader.fail_at(f"{entry}.source", "expected a string", *at, "source")
        models.append(
            Model.derived(
                model_id,
                aliases=lists["aliases"],
                patterns=lists["patterns"],
                bedrock=lists["bedrock"],
                vertex=lists["vertex"],
                openrouter=lists["openrouter"],
                retires=retires,
                replacement=replacement,
                recommended=recommended,
                source=source,
                bedrock_retires=dates["bedrock-retires"],
                vertex_retires=dates["vertex-retires"],
            )
        )
    return models


def _version(reader: _Reader, entry: str, key: str, value: Any, at: tuple[str, int]) -> str:
    try:
        Version(value)
    except (InvalidVersion, TypeError):
        raise reader.fail_at(
            f"{entry}.{key}", f'expected a version such as "0.39.0", got {value!r}', *at, key
        ) from None
    return str(value)


def _removals(reader: _Reader) -> list[SdkRemoval]:
    removals = []
    for index, raw in enumerate(reader.table_list("sdk-removals")):
        at = ("sdk-removals", index)
        name = raw.get("name")
        if not isinstance(name, str) or not name:
            raise reader.fail_at(
                f"sdk-removals[{index}]", "expected `name` (a string)", *at, "name"
            )
        entry = f"sdk-removals[{index}] ({name})"
        for key in raw:
            if key not in REMOVAL_KEYS:
                raise reader.fail_at(
                    f"{entry}.{key}",
                    "unknown key (known: " + ", ".join(REMOVAL_KEYS) + ")",
                    *at,
                    key,
                )
        kind = raw.get("kind")
        if kind not in REMOVAL_KINDS:
            raise reader.fail_at(
                f"{entry}.kind",
                "expected one of " + ", ".join(f'"{k}"' for k in REMOVAL_KINDS) + f", got {kind!r}",
                *at,
                "kind",
            )
        calls = _strings(reader, entry, "calls", raw.get("calls", []), at)
        if kind in ("argument", "constructor") and not calls:
            raise reader.fail_at(
                f"{entry}.calls", f"a{'n' if kind == 'argument' else ''} {kind} removal needs "
                "`calls`", *at, "calls"
            )  # fmt: skip
        for key in ("replacement", "rule"):
            if not isinstance(raw.get(key), str) or not raw[key]:
                raise reader.fail_at(f"{entry}.{key}", "expected a non-empty string", *at, key)
        removals.append(
            SdkRemoval(
                name=name,
                kind=kind,
                removed_in=_version(reader, entry, "removed-in", raw.get("removed-in"), at),
                replacement=raw["replacement"],
                rule=raw["rule"],
                calls=calls,
            )
        )
    return removals


def _api_versions(reader: _Reader) -> list[ApiVersion]:
    versions = []
    for index, raw in enumerate(reader.table_list("api-versions")):
        at = ("api-versions", index)
        version = raw.get("version")
        if not isinstance(version, str) or not _API_VERSION.match(version):
            raise reader.fail_at(
                f"api-versions[{index}]",
                f'expected `version` as "YYYY-MM-DD", got {version!r}',
                *at,
                "version",
            )
        entry = f"api-versions[{index}] ({version})"
        for key in raw:
            if key not in VERSION_KEYS:
                raise reader.fail_at(
                    f"{entry}.{key}",
                    "unknown key (known: " + ", ".join(VERSION_KEYS) + ")",
                    *at,
                    key,
                )
        rejects = _strings(reader, entry, "rejects", raw.get("rejects", []), at)
        default_from = raw.get("sdk-default-from")
        if default_from is not None:
            default_from = _version(reader, entry, "sdk-default-from", default_from, at)
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise reader.fail_at(f"{entry}.note", "expected a string", *at, "note")
        versions.append(ApiVersion(version, rejects, default_from, note))
    return versions


def _read(path: Path) -> tuple[_Reader, list[Model], list[SdkRemoval], list[ApiVersion]]:
    reader = _Reader(path)
    for key in reader.data:
        if key not in TOP_KEYS:
            raise reader.fail(key, "unknown key (known: " + ", ".join(TOP_KEYS) + ")", key)
    schema = reader.data.get("schema", SCHEMA)
    if schema != SCHEMA:
        raise reader.fail("schema", f"expected {SCHEMA}, got {schema!r}", "schema")
    return reader, _models(reader), _removals(reader), _api_versions(reader)


def _merge_by(base: list[Any], extra: Iterable[Any], key: str) -> list[Any]:
    """Return `base` with entries of `extra` replacing those with the same key, others appended."""
    merged = {getattr(item, key): item for item in base}
    for item in extra:
        merged[getattr(item, key)] = item
    return list(merged.values())


def _check_consistency(catalogue: Catalogue, readers: Sequence[_Reader]) -> None:
    """Raise for ids claimed twice, replacements that name nothing, and replacement loops."""
    reader = readers[-1]

    def fail(model: Model, message: str) -> ConfigError:
        for candidate in reversed(readers):
            line = candidate.line_of("id", f'"{model.id}"')
            if line is not None:
                return ConfigError(candidate.display, f"models ({model.id})", message, line)
        return reader.fail(f"models ({model.id})", message)

    owners: dict[tuple[str, str], Model] = {}
    for model in catalogue.models:
        names = [("API id", n) for n in (model.id, *model.aliases)]
        names += [("Bedrock id", n) for n in model.bedrock]
        names += [("Vertex id", n) for n in model.vertex if "@" in n]
        names += [("OpenRouter name", n) for n in model.openrouter]
        for kind, name in names:
            owner = owners.get((kind, name))
            if owner is not None and owner is not model:
                raise fail(model, f"{kind} {name!r} is already claimed by {owner.id!r}")
            owners[(kind, name)] = model
    for model in catalogue.models:
        wrong = _named_wrongly(catalogue, model)
        if wrong:
            raise fail(model, wrong)
    for model in catalogue.models:
        seen = [model.id]
        current = model
        while current.replacement is not None:
            nxt = catalogue.find(current.replacement)
            if nxt is None:
                break
            if nxt.id in seen:
                raise fail(model, "replacements loop: " + " -> ".join([*seen, nxt.id]))
            seen.append(nxt.id)
            current = nxt


def _named_wrongly(catalogue: Catalogue, model: Model) -> str:
    """Return what is wrong with a model's `replacement` or `recommended` ("" when nothing)."""
    for key, named in (("replacement", model.replacement), ("recommended", model.recommended)):
        if named is None:
            continue
        target = catalogue.find(named)
        if target is None:
            return f"{key} {named!r} is not a model of the catalogue"
        if target is model:
            return "a model cannot replace itself"
    return ""


@cache
def load(extra: str | None = None) -> Catalogue:
    """Return the shipped catalogue, extended by the file at `extra` (an absolute path)."""
    paths = [shipped_path()] + ([Path(extra)] if extra else [])
    catalogue = Catalogue(paths=tuple(str(p) for p in paths))
    readers = []
    for path in paths:
        reader, models, removals, versions = _read(path)
        readers.append(reader)
        catalogue.models = _merge_by(catalogue.models, models, "id")
        catalogue.sdk_removals = _merge_by(catalogue.sdk_removals, removals, "name")
        catalogue.api_versions = _merge_by(catalogue.api_versions, versions, "version")
    catalogue.index()
    _check_consistency(catalogue, readers)
    return catalogue


def for_settings(table: Mapping[str, Any]) -> Catalogue:
    """Return the catalogue a `[retired-models]` policy table points at."""
    extra = table.get("catalogue")
    return load(extra if isinstance(extra, str) and extra else None)


def today() -> dt.date:
    """Return today's date in UTC: the default `as-of` of every date comparison."""
    return dt.datetime.now(dt.timezone.utc).date()
