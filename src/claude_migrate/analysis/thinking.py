"""What a call's `thinking` parameter may turn on, for fixes that must keep the request valid.

With extended thinking on, the Messages API answers 400 to a temperature other than 1 and to a
`max_tokens` not above `thinking.budget_tokens`
(https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking, "Feature
compatibility" and "Max tokens and context window size with extended thinking"). A fix that
lowers either (CM101, CM102) is right only on a call whose thinking is proven off, or whose
budget it stays above.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
else:
    cst = lazy_import("libcst")

# The SDK's sentinels for a parameter left out (anthropic `_types.py`: `NOT_GIVEN`, `omit`).
_LEFT_OUT = frozenset({"NOT_GIVEN", "NotGiven", "omit", "Omit"})
# Where a Bedrock Converse call's parameters live (`targets.bedrock`): its request fields
# beyond `inferenceConfig` go in `additionalModelRequestFields`.
CONVERSE_FIELDS = "inference-config"


@dataclass(frozen=True)
class Thinking:
    """What a call's `thinking` may be: off for sure, or possibly on with a known budget."""

    may_be_on: bool
    # `budget_tokens` when the call's thinking config proves it; None when absent or unknown.
    budget: int | None = None
    # True when the config may set a budget this analysis cannot read.
    budget_unknown: bool = False


OFF = Thinking(False)


def _left_out(node: cst.BaseExpression) -> bool:
    """Return whether `node` is `None` or one of the SDK's left-out sentinels."""
    if isinstance(node, cst.Name):
        return node.value == "None" or node.value in _LEFT_OUT
    if isinstance(node, cst.Attribute):
        return node.attr.value in _LEFT_OUT
    if isinstance(node, cst.Call):
        return _left_out(node.func)  # `NotGiven()`, `Omit()`
    return False


def _in_extra_body(ctx: FileContext, site: CallSite) -> Entry | Thinking | None:
    """Return the `thinking` entry of the call's `extra_body` (the SDKs merge it into the JSON
    body they send: anthropic `_base_client.py` and openai alike), or of a Bedrock Converse
    call's `additionalModelRequestFields` (passed to the model as its own request fields:
    https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html),
    a Thinking that may be on when that body cannot be read, or None when it sends no
    `thinking`."""
    extra = site.params.get("extra_body")
    if extra is None and site.call_args is not None and site.target.location == CONVERSE_FIELDS:
        extra = site.call_args.get("additionalModelRequestFields")
    if extra is None or _left_out(extra.value_node):
        return None
    if extra.value.known and extra.value.value is None:
        return None
    body = ctx.resolver.values.nested(extra, site.record.scope)
    if body is None:
        return Thinking(True, budget_unknown=True)
    entry = body.get("thinking")
    if entry is None and (body.opaque or "thinking" in body.unknown_keys):
        return Thinking(True, budget_unknown=True)
    return entry


def extra_body_thinking(ctx: FileContext, site: CallSite) -> Entry | None:
    """Return the `thinking` entry the call sends through `extra_body`, when it can be read."""
    found = _in_extra_body(ctx, site)
    return None if isinstance(found, Thinking) else found


def thinking(ctx: FileContext, site: CallSite) -> Thinking:
    """Return what the call's `thinking` parameter may turn on.

    Off only when the call sends none, sends `None` or a left-out sentinel, or a config whose
    `type` is proven `"disabled"`; anything else (a conditional, a config built elsewhere) may
    be on.
    """
    if site.via is not None and site.via.thinking:
        # A wrapper's caller: the request the wrapper makes may turn thinking on, with a
        # budget read where the wrapper builds it, not here.
        return Thinking(True, budget_unknown=True)
    entry = site.params.get("thinking")
    if entry is None:
        extra = _in_extra_body(ctx, site)
        if isinstance(extra, Thinking):
            return extra
        entry = extra
    if entry is None and "thinking" in site.params.unknown_keys:
        # Sent with a value this analysis cannot read (`params["thinking"] = ...` under a
        # condition, after the dict is written).
        return Thinking(True, budget_unknown=True)
    if entry is None or _left_out(entry.value_node):
        return OFF
    if entry.value.known and entry.value.value is None:
        return OFF
    config = ctx.resolver.values.nested(entry, site.record.scope)
    if config is None:
        return Thinking(True, budget_unknown=True)
    kind = config.get("type")
    if kind is not None and kind.value.known and kind.value.value == "disabled":
        return OFF
    budget = config.get("budget_tokens")
    if budget is None:
        return Thinking(True, budget_unknown=bool(config.opaque or config.unknown_keys))
    value = budget.value.value
    if budget.value.known and isinstance(value, int) and not isinstance(value, bool):
        return Thinking(True, budget=value)
    return Thinking(True, budget_unknown=True)
