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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..calls import BEDROCK, LITELLM, MODEL, CallSite
from ..diagnostics import Applicability, Diagnostic, Severity
from ..edits import string_literal
from ..lazy import lazy_import
from ..value_edits import value_edit
from ..values import Entry
from .base import Check, Option

if TYPE_CHECKING:
    from ..context import FileContext
    from ..deprecations import Spelling

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST


def model_entry(ctx: FileContext, site: CallSite) -> Entry | None:
    """Return where a Claude call names its model (keyword, body entry or first argument)."""
    names = site.target.model
    if site.family == BEDROCK and site.call_args is not None:
        return site.call_args.get(*names)
    entry = site.params.get(*names)
    if entry is not None or site.family != LITELLM or site.via is not None:
        return entry
    # LiteLLM takes the model as its first positional argument too.
    call = site.node
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        first = call.args[0]
        value = ctx.resolver.values.value(first.value, site.record.scope)
        return Entry(MODEL, first, first.value, value, call)
    return None


class RetiredModelCheck(Check):
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
        "catalogue": Option(
            "path",
            None,
            "a TOML catalogue whose entries extend rules/deprecations.toml",
            example="deprecations-extra.toml",
        ),
    }

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        from .. import deprecations

        extra = table.get("catalogue")
        if extra is not None and not Path(extra).is_file():
            return [("catalogue", f"expected an existing TOML file, {extra} not found")]
        # Loading validates the catalogue at start-up; a bad entry raises naming itself.
        known = deprecations.for_settings(table)
        for name in dict(table.get("replace") or {}):
            if known.find(name) is None:
                return [("replace", f"{name!r} is not a model of the catalogue")]
        return []

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        known = ctx.facts.catalogue
        as_of = ctx.facts.as_of
        warn_days = self.settings["warn-days"]
        replace = dict(self.settings.get("replace") or {})
        for site in ctx.all_sites:
            entry = model_entry(ctx, site)
            if entry is None or not entry.value.known or not isinstance(entry.value.value, str):
                continue
            spelling = known.lookup(entry.value.value)
            if spelling is None or spelling.model.retires is None:
                continue
            retires = spelling.model.retires
            # A fix never writes a model that retires within the warning window if a later
            # successor exists: follow the chain up to the window's end.
            horizon = as_of + dt.timedelta(days=warn_days)
            found = known.successor(spelling.model, horizon, replace)
            target = known.spell(found[0], spelling, found[1]) if found is not None else None
            if retires <= as_of:
                yield self._retired(ctx, site, entry, spelling, retires, target)
            elif (retires - as_of).days <= warn_days:
                yield self._retiring(ctx, site, entry, retires, as_of, target)

    def _retired(
        self,
        ctx: FileContext,
        site: CallSite,
        entry: Entry,
        spelling: Spelling,
        retires: dt.date,
        target: str | None,
    ) -> Diagnostic:
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key)})"
        message = f"model {current!r}{via} was retired on {retires.isoformat()}"
        fix = None
        if target is None:
            message += self._why_no_fix(spelling)
        else:
            message += f"; use {target!r}"
            node = entry.value.node
            found = None
            if node is not None:
                found = value_edit(
                    ctx,
                    entry,
                    string_literal(node, target),
                    lambda other: model_entry(ctx, other),
                    lambda other: other.value.value == current,
                )
            if found is not None:
                where = f" in {found.subject}" if found.constant else ""
                fix = ctx.fix(
                    Applicability.UNSAFE,
                    f"replace {current!r} with {target!r}{where}{found.note}",
                    found.edit,
                )
        related = site.via.related(entry.key, "the model") if site.via else ()
        return ctx.diagnostic(
            self, entry.holder, message, fix, site.record.scope.qualname, related=related
        )

    def _retiring(
        self,
        ctx: FileContext,
        site: CallSite,
        entry: Entry,
        retires: dt.date,
        as_of: dt.date,
        target: str | None,
    ) -> Diagnostic:
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key)})"
        days = (retires - as_of).days
        message = (
            f"model {current!r}{via} retires on {retires.isoformat()} "
            f"(in {days} day{'s' if days != 1 else ''})"
        )
        if target is not None:
            message += f"; plan the move to {target!r}"
        related = site.via.related(entry.key, "the model") if site.via else ()
        # Not broken yet: a date alone must not fail a build that passed yesterday.
        return ctx.diagnostic(
            self, entry.holder, message, None, site.record.scope.qualname, Severity.WARNING,
            related=related,
        )  # fmt: skip

    @staticmethod
    def _why_no_fix(spelling: Spelling) -> str:
        if spelling.suffix:
            return (
                f"; the provisioned-throughput id ({spelling.suffix}) has no automatic "
                "replacement: buy throughput for a current model"
            )
        return (
            "; no current replacement is known for this spelling: set one in "
            "[retired-models.replace]"
        )
