"""What the `anthropic` package installed next to claude-migrate says about models.

Two facts are read from it: the model ids its `Model` type lists (`anthropic/types/model.py`) and
its deprecation table (`anthropic/_data/deprecated_models.py`, model id -> "Month Dth, YYYY").
`catalogue --check` compares them with the shipped catalogue, and CM302 falls back to the table
for a model the catalogue does not know. The package is the environment's own, never the checked
tree's; without it (claude-migrate does not depend on it) both answers are None.
"""

from __future__ import annotations

import datetime as dt
import re
import typing
from dataclasses import dataclass
from functools import cache

_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)\b")


@dataclass(frozen=True)
class Sdk:
    version: str
    models: tuple[str, ...]
    deprecations: dict[str, dt.date]

    @property
    def label(self) -> str:
        return f"anthropic {self.version}"


def parse_date(text: str) -> dt.date | None:
    """Return the date of "January 22nd, 2027", or None when it reads otherwise."""
    try:
        return dt.datetime.strptime(_ORDINAL.sub(r"\1", text.strip()), "%B %d, %Y").date()
    except ValueError:
        return None


def _literal_ids(alias: object) -> tuple[str, ...]:
    found: list[str] = []
    for arg in typing.get_args(alias):
        if typing.get_origin(arg) is typing.Literal:
            found.extend(a for a in typing.get_args(arg) if isinstance(a, str))
    return tuple(found)


@cache
def installed() -> Sdk | None:
    """Return the installed SDK's model facts, or None when it is missing or unreadable."""
    try:
        import anthropic
        from anthropic.types import model as model_module
    except Exception:  # noqa: BLE001 - a broken or missing package is "no SDK" here
        return None
    models = _literal_ids(getattr(model_module, "Model", None))
    deprecations: dict[str, dt.date] = {}
    try:
        from anthropic._data import deprecated_models
    except Exception:  # noqa: BLE001 - older SDKs have no table
        deprecated_models = None  # type: ignore[assignment]
    table = getattr(deprecated_models, "DEPRECATED_MODELS", {}) if deprecated_models else {}
    if isinstance(table, dict):
        for model_id, text in table.items():
            date = parse_date(text) if isinstance(text, str) else None
            if isinstance(model_id, str) and date is not None:
                deprecations[model_id] = date
    return Sdk(str(getattr(anthropic, "__version__", "?")), models, deprecations)


@dataclass(frozen=True)
class Gap:
    """One thing the installed SDK knows that the catalogue lacks or says otherwise."""

    kind: str  # "missing-model", "missing-facts", "missing-retirement", "different-date"
    model: str
    detail: str

    def line(self) -> str:
        return f"{self.kind}: {self.model}: {self.detail}"


def compare(sdk: Sdk) -> list[Gap]:
    """Return what the shipped catalogue and model facts lack or contradict, against `sdk`."""
    from . import deprecations, model_facts

    known = deprecations.load(None)
    facts = model_facts.load()
    gaps: list[Gap] = []
    for model_id in sdk.models:
        model = known.find(model_id)
        if model is None:
            gaps.append(
                Gap(
                    "missing-model",
                    model_id,
                    "listed by anthropic.types.Model, not in the catalogue",
                )
            )
        elif facts.for_model(model.id) is None:
            gaps.append(Gap("missing-facts", model_id, "no family in rules/models.toml"))
    for model_id, date in sorted(sdk.deprecations.items()):
        model = known.find(model_id)
        if model is None or model.retires is None:
            gaps.append(
                Gap(
                    "missing-retirement",
                    model_id,
                    f"the SDK's deprecation table says end of life {date.isoformat()}",
                )
            )
        elif model.retires != date:
            gaps.append(
                Gap(
                    "different-date",
                    model_id,
                    f"the catalogue says {model.retires.isoformat()}, the SDK {date.isoformat()}",
                )
            )
    return gaps
