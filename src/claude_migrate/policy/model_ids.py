"""Whether a string is a Claude model id, and what the catalogue says of the model it names.

A model id is data wherever it is written: a Python literal, a notebook cell, a YAML, JSON,
TOML, `.env` or `.ini` value. This module answers for one whole string, with nothing but the
catalogues (`rules/deprecations.toml`, a team catalogue, and the installed `anthropic`
package's deprecation table): there is no list of ids here. A string is a model id when it is,
exactly, a catalogue spelling (API id or alias, a family pattern, a Bedrock id with a
cross-region inference-profile prefix such as `us.`, `eu.`, `apac.`, `au.` or `global.`, a
Vertex id) behind at most one of the prefixes the clients that route to Claude write:

- LiteLLM: `anthropic/`, `bedrock/` (also `bedrock/converse/`, `bedrock/invoke/`),
  `vertex_ai/` (https://docs.litellm.ai/docs/providers/bedrock, .../providers/vertex);
- OpenRouter: `anthropic/` before its own names of the models, dotted and undated
  (`anthropic/claude-3.7-sonnet`, https://openrouter.ai/models), which the catalogue lists;
- LangChain's `init_chat_model` and pydantic-ai: `anthropic:`, `bedrock:`, `google-vertex:`;
- a Bedrock ARN: `arn:aws:bedrock:REGION:ACCOUNT:foundation-model/` or `.../inference-profile/`.

Anything else (another vendor's id, a URL that ends in a model id, a sentence that mentions
one, a path) is not a model id: the tests hold other vendors' ids that must never match.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.model_shape import WHOLE as _WHOLE
from claude_migrate.core.model_shape import WORD as WORD  # re-exported: callers read it here

if TYPE_CHECKING:
    from collections.abc import Callable

    from claude_migrate.policy.deprecations import Catalogue, Model, Spelling
    from claude_migrate.policy.facts import ProjectFacts


def dated_model_test(catalogue: Catalogue) -> Callable[[str], bool]:
    """Return the test whether a text, as a whole, spells a model with a retirement date.

    The models `catalogue` (or the installed SDK's table) knows; one without a date is active
    on every day under every policy (`Status.state`), so no finding ever names it.
    """

    def dated(text: str) -> bool:
        spelling = recognise(text, catalogue)
        return spelling is not None and spelling.model.retires is not None

    return dated


def recognise(text: str, catalogue: Catalogue) -> Spelling | None:
    """Return how `text`, as a whole, spells a model of the catalogues; None when it does not.

    The installed `anthropic` package's deprecation table answers for an API id the
    catalogue lacks (such a model has no replacement).
    """
    if WORD not in text or len(text) > 200:
        return None
    match = _WHOLE.fullmatch(text)
    if match is None:
        return None
    found = catalogue.lookup(text)
    if found is not None:
        return found
    if match["prefix"] and match["prefix"].startswith("arn:"):
        return None
    return sdk_spelling(text)


SDK_SOURCE = "sdk-table"


def sdk_spelling(text: str) -> Spelling | None:
    """Return a model the catalogue lacks but the installed SDK's deprecation table lists.

    The SDK's table is the run-time fallback: a deprecation published in a newer `anthropic`
    than the catalogue knows is still reported (without a replacement, so without a fix).
    """
    from claude_migrate.policy import installed_sdk
    from claude_migrate.policy.deprecations import Model, Spelling

    sdk = installed_sdk.installed()
    if sdk is None:
        return None
    cut = text.rfind("/") + 1
    date = sdk.deprecations.get(text[cut:].strip())
    if date is None:
        return None
    model = Model(text[cut:].strip(), retires=date, source=f"{SDK_SOURCE}:{sdk.label}")
    return Spelling(model, "api", text[:cut])


@dataclass(frozen=True)
class Status:
    """A model id's end of life as the policy judges it, and what a fix would write."""

    spelling: Spelling
    retires: dt.date | None  # the date that applies to this spelling (None: no date known)
    # The platform (e.g. "Amazon Bedrock") whose own date is unknown, so `retires` is the
    # Anthropic API's; "" when the date is the one that applies.
    platform: str
    target: str | None  # the replacement in the same spelling, if one is known

    def state(self, as_of: dt.date, warn_days: int) -> str:
        """Return "retired", "retiring" (within `warn_days`) or "active"."""
        if self.retires is None:
            return "active"
        if self.retires <= as_of:
            return "retired"
        if (self.retires - as_of).days <= warn_days:
            return "retiring"
        return "active"


def assess(spelling: Spelling, facts: ProjectFacts) -> Status | None:
    """Return the status of a recognised id under the policy's facts; None when the policy's
    `platform-dates = "ignore"` leaves a platform id without a date to judge it by."""
    from claude_migrate.policy import deprecations

    model = spelling.model
    retires = model.retires
    platform = ""
    if retires is not None and spelling.form in deprecations.PLATFORMS:
        own = model.platform_retires(spelling.form)
        if own is not None:
            retires = own
        elif facts.platform_dates == "ignore":
            return None
        elif facts.platform_dates == "warn":
            platform = deprecations.PLATFORMS[spelling.form]
    target = None
    if retires is not None:
        # A fix never writes a model that retires within the warning window if a later
        # successor exists: follow the chain up to the window's end.
        horizon = facts.as_of + dt.timedelta(days=facts.retirement_warn_days)
        known = facts.catalogue
        found = known.successor(model, horizon, dict(facts.model_replacements))
        target = known.spell(found[0], spelling, found[1]) if found is not None else None
    return Status(spelling, retires, platform, target)


def platform_dates(model: Model) -> dict[str, str | None]:
    """Return the model's end-of-life date per platform ("api", "bedrock", "vertex").

    A platform without its own date shows None: the Anthropic API's date is then the only one
    published in the catalogue.
    """
    return {
        "api": model.retires.isoformat() if model.retires else None,
        "bedrock": model.bedrock_retires.isoformat() if model.bedrock_retires else None,
        "vertex": model.vertex_retires.isoformat() if model.vertex_retires else None,
    }
