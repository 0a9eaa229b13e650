"""CM302 retired-models: a Claude call that names a model past (or near) its end of life.

What changed upstream: Anthropic retires models on fixed dates (rules/deprecations.toml lists
them with their sources); a request to a retired model fails.
Finds: the model of any recognised Claude call (a literal or a constant; the SDK's `model=`, a
Bedrock `modelId`, LangChain's `model` / `model_name` / `model_id`, a LiteLLM model, a raw HTTP
body's "model"), in any spelling the catalogue knows (API id or alias, Bedrock id with a region
prefix or ARN, Vertex id, LiteLLM prefix), retired as of `as-of` (default: today, UTC).
A model retiring within `warn-days` is reported too, with its date and no fix.
Writes instead (unsafe: another model answers): the replacement, in the same platform's spelling
and keeping any prefix; `[retired-models.replace]` in the policy overrides the catalogue's choice.
The fix is checked against the replacement's facts (rules/models.toml): it carries the parameter
changes the new model needs, or is refused with the reason. A legacy Text Completions call gets
no fix here: CM301's rewrite moves its model. A Bedrock or Vertex id is judged by its platform's
own date where the catalogue has one, else as `platform-dates` says. A model only the installed
SDK's deprecation table knows is reported too, naming the SDK.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.retirements import SDK_SOURCE, Judged, compose, judge, sdk_note
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Severity

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.policy.deprecations import Spelling
    from claude_migrate.project.triage import Wanted


class RetiredModelCheck(Check["FileContext"]):
    code = "CM302"
    name = "retired-models"
    summary = "a Claude call names a retired (or soon retiring) model"
    fix_applicability = Applicability.UNSAFE
    options = {
        "as-of": Option(
            "date",
            None,
            "the date retirements are judged on (default: today, UTC)",
            example=lambda: dt.date(dt.date.today().year + 1, 1, 1),  # always ahead
        ),
        "warn-days": Option(
            "integer",
            90,
            "report models retiring within this many days (0: never)",
            minimum=0,
            # A century: longer than any model's life, and `as-of` plus it stays a real date.
            maximum=36_500,
        ),
        "replace": Option(
            "string-table", {}, "model id -> the model id its fix writes (overrides the catalogue)"
        ),
        "prefer": Option(
            "enum",
            "nearest",
            "which catalogue replacement the fix writes: the nearest model (fewest request "
            "changes) or the one Anthropic recommends (recommended)",
            choices=("nearest", "recommended"),
        ),
        "platform-dates": Option(
            "enum",
            "warn",
            "a Bedrock or Vertex id whose platform date is unknown: judged by the API's date "
            "(api), reported without a fix (warn), or not reported (ignore)",
            choices=("api", "warn", "ignore"),
        ),
        "catalogue": Option(
            "path",
            None,
            "a TOML catalogue whose entries extend rules/deprecations.toml",
            example="deprecations-extra.toml",
        ),
    }

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        from claude_migrate.policy import deprecations

        extra = table.get("catalogue")
        if extra is not None and not Path(extra).is_file():
            return [("catalogue", f"expected an existing TOML file, {extra} not found")]
        # Loading validates the catalogue at start-up; a bad entry raises naming itself.
        known = deprecations.for_settings(table)
        for name in dict(table.get("replace") or {}):
            if known.find(name) is None:
                return [("replace", f"{name!r} is not a model of the catalogue")]
        return []

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        as_of = ctx.facts.as_of
        warn_days = self.settings["warn-days"]
        for site in ctx.all_sites:
            found = judge(ctx, site)
            if found is None:
                continue
            if found.retires <= as_of:
                yield self._retired(ctx, site, found)
            elif (found.retires - as_of).days <= warn_days:
                yield self._retiring(ctx, site, found, as_of)

    def _retired(self, ctx: FileContext, site: CallSite, found: Judged) -> Diagnostic:
        entry, spelling, target = found.entry, found.spelling, found.target
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key)})"
        related = site.via.related(entry.key, "the model") if site.via else ()
        if found.platform:
            message = (
                f"model {current!r}{via} was retired on the Anthropic API on "
                f"{found.retires.isoformat()}; {found.platform} sets its own date"
            )
        else:
            message = f"model {current!r}{via} was retired on {found.retires.isoformat()}"
        message += sdk_note(spelling)
        fix = None
        if target is None:
            message += self._why_no_fix(spelling)
        elif found.platform:
            # The platform may still serve it: a warning with the move to plan, no rewrite
            # (`platform-dates = "api"` judges platform ids by the API's date instead).
            message += f": check it, and plan the move to {target!r}"
            return ctx.diagnostic(
                self, entry.holder, message, None, site.record.scope.qualname, Severity.WARNING,
                related=related,
            )  # fmt: skip
        elif site.target.legacy:
            # The Text Completions endpoint never served a Messages-era model: the model moves
            # only with the call, in CM301's rewrite.
            message += (
                f"; use {target!r} once CM301 (legacy-completions) moves this call to the "
                "Messages API: the Text Completions endpoint never served it"
            )
        else:
            message += f"; use {target!r}"
            if entry.value.node is not None:
                composed = compose(ctx, site, entry, target)
                if isinstance(composed, str):
                    message += f" (no automatic fix: {composed})"
                else:
                    edits, changes, where = composed
                    if changes:
                        message += ", with: " + "; ".join(changes)
                    fix = ctx.fix(
                        Applicability.UNSAFE,
                        "; ".join([f"replace {current!r} with {target!r}{where}", *changes]),
                        *edits,
                    )
        return ctx.diagnostic(
            self, entry.holder, message, fix, site.record.scope.qualname, related=related
        )

    def _retiring(
        self, ctx: FileContext, site: CallSite, found: Judged, as_of: dt.date
    ) -> Diagnostic:
        entry = found.entry
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key)})"
        days = (found.retires - as_of).days
        where = " on the Anthropic API" if found.platform else ""
        message = (
            f"model {current!r}{via} retires{where} on {found.retires.isoformat()} "
            f"(in {days} day{'s' if days != 1 else ''}){sdk_note(found.spelling)}"
        )
        if found.platform:
            message += f"; {found.platform} sets its own date"
        if found.target is not None:
            message += f"; plan the move to {found.target!r}"
        related = site.via.related(entry.key, "the model") if site.via else ()
        # Not broken yet: a date alone must not fail a build that passed yesterday.
        return ctx.diagnostic(
            self, entry.holder, message, None, site.record.scope.qualname, Severity.WARNING,
            related=related,
        )  # fmt: skip

    @staticmethod
    def _why_no_fix(spelling: Spelling) -> str:
        if spelling.model.source.startswith(SDK_SOURCE):
            return "; the catalogue knows no replacement: set one in [retired-models.replace]"
        if spelling.suffix:
            return (
                f"; the provisioned-throughput id ({spelling.suffix}) has no automatic "
                "replacement: buy throughput for a current model"
            )
        return (
            "; no current replacement is known for this spelling: set one in "
            "[retired-models.replace]"
        )
