"""CM102 max-tokens: a Claude call whose output budget is above the team's ceiling.

Finds: `max_tokens` (and the legacy `max_tokens_to_sample`) proven above `max-tokens.max`.
Writes instead: `max-tokens.fix-to`, which defaults to the maximum itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from claude_migrate.checks.base import Option
from claude_migrate.checks.ceiling import CeilingCheck
from claude_migrate.targets import MAX_TOKENS

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
