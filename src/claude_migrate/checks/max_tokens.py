"""CM102 max-tokens: a Claude call whose output budget is above the team's ceiling.

Finds: `max_tokens` (and the legacy `max_tokens_to_sample`) proven above `max-tokens.max`.
Writes instead: `max-tokens.fix-to`, which defaults to the maximum itself.
No fix where the call may turn extended thinking on with a `budget_tokens` the new budget would
not stay above (or one this analysis cannot read): the API answers 400 when `max_tokens` is not
greater than it
(https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size-with-extended-thinking).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.checks.base import Option
from claude_migrate.checks.ceiling import CeilingCheck
from claude_migrate.targets import MAX_TOKENS

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext

# Far above any Claude model's output limit (128k tokens at most in
# https://docs.anthropic.com/en/docs/about-claude/models/overview), so no real policy meets it;
# a larger number is a typo, and the fix would write it into code.
MAX_BUDGET = 1_000_000


class MaxTokensCheck(CeilingCheck):
    code = "CM102"
    name = "max-tokens"
    summary = "output budget (max_tokens) above the policy maximum"
    parameter = MAX_TOKENS
    label = "max_tokens"
    options = {
        "max": Option(
            "integer", 1024, "largest output budget allowed", minimum=1, maximum=MAX_BUDGET
        ),
        "fix-to": Option(
            "integer",
            None,
            "budget the fix writes (default: max)",
            minimum=1,
            maximum=MAX_BUDGET,
            default_from="max",
        ),
    }

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        if table["fix-to"] > table["max"]:
            return [
                (
                    "fix-to",
                    f"expected an integer at most max ({table['max']}), got {table['fix-to']!r}",
                )
            ]
        return []

    def withholds(self, ctx: FileContext, site: CallSite) -> str:
        from claude_migrate.analysis.thinking import thinking

        found = thinking(ctx, site)
        if not found.may_be_on:
            return ""
        fix_to = self.settings["fix-to"]
        if found.budget is not None and found.budget < fix_to:
            return ""
        if found.budget is not None:
            return (
                f"the call's thinking budget_tokens {found.budget} must stay below max_tokens, "
                f"and {fix_to} is not above it"
            )
        if found.budget_unknown:
            return (
                "the call may turn extended thinking on with a budget_tokens this analysis cannot "
                f"read, which must stay below max_tokens ({fix_to} may not be above it)"
            )
        return ""
