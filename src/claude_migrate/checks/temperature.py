"""CM101 temperature: a Claude call whose temperature is above the team's ceiling.

Finds: `temperature=` on any recognised Claude call (keyword, `**params` dict entry, constant),
when its value is proven above `temperature.max`. Writes instead: `temperature.fix-to`.
Where the target API or SDK rejects temperature altogether, CM107 (sampling-params) reports it
instead: a ceiling on a parameter that cannot be sent means nothing.
No fix where the call may turn extended thinking on (`thinking` not proven off): with it the API
answers 400 to any temperature but 1
(https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#feature-compatibility).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.rejections import rejection
from claude_migrate.checks.base import Option
from claude_migrate.checks.ceiling import CeilingCheck
from claude_migrate.targets import TEMPERATURE

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext


class TemperatureCheck(CeilingCheck):
    code = "CM101"
    name = "temperature"
    summary = "temperature above the policy maximum"
    parameter = TEMPERATURE
    label = "temperature"
    options = {
        "max": Option("number", 0.2, "highest temperature allowed", minimum=0.0, maximum=1.0),
        "fix-to": Option("number", 0.0, "temperature the fix writes", minimum=0.0, maximum=1.0),
    }

    def defers(self, ctx: FileContext, site: CallSite) -> bool:
        return rejection(ctx, site, TEMPERATURE) is not None

    def withholds(self, ctx: FileContext, site: CallSite) -> str:
        from claude_migrate.analysis.thinking import thinking

        if thinking(ctx, site).may_be_on:
            return (
                "the call may turn extended thinking on, and with it the API takes "
                "temperature 1 only"
            )
        return ""

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        if table["fix-to"] > table["max"]:
            return [
                (
                    "fix-to",
                    f"expected a number at most max ({table['max']:g}), got {table['fix-to']!r}",
                )
            ]
        return []
