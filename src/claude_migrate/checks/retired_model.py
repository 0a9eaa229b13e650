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
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..calls import BEDROCK, LITELLM, MODEL, CallSite
from ..diagnostics import Applicability, Diagnostic, Edit
from ..lazy import lazy_import
from ..values import Entry
from .base import Check, Option, as_date

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
    if entry is not None or site.family != LITELLM:
        return entry
    # LiteLLM takes the model as its first positional argument too.
    call = site.node
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        first = call.args[0]
        value = ctx.resolver.values.value(first.value, site.record.scope)
        return Entry(MODEL, first, first.value, value, call)
    return None


def string_literal(original: cst.CSTNode, text: str) -> str:
    """Return `text` as a string literal written with the quotes of `original`."""
    if isinstance(original, cst.SimpleString):
        quote = original.quote
        prefix = original.prefix.replace("f", "").replace("F", "")
        if quote in text or "\\" in text:
            return repr(text)
        return f"{prefix}{quote}{text}{quote}"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@dataclass(frozen=True)
class Judged:
    """A call's model with a retirement date, and what a fix would write."""

    entry: Entry
    spelling: Spelling
    target: str | None
    retires: dt.date
    # The platform (e.g. "Amazon Bedrock") whose own date is unknown, so `retires` is the
    # Anthropic API's; "" when the date is the one that applies.
    platform: str = ""


def judge(ctx: FileContext, site: CallSite, settings: Mapping[str, Any]) -> Judged | None:
    """Return a call's model when it has a retirement date (past or future); None otherwise."""
    from .. import deprecations

    known = deprecations.for_settings(settings)
    as_of = as_date(settings.get("as-of")) or deprecations.today()
    entry = model_entry(ctx, site)
    if entry is None or not entry.value.known or not isinstance(entry.value.value, str):
        return None
    spelling = known.lookup(entry.value.value) or sdk_spelling(entry.value.value)
    if spelling is None or spelling.model.retires is None:
        return None
    retires = spelling.model.retires
    platform = ""
    if spelling.form in deprecations.PLATFORMS:
        own = spelling.model.platform_retires(spelling.form)
        if own is not None:
            retires = own
        elif settings.get("platform-dates", "warn") == "ignore":
            return None
        elif settings.get("platform-dates", "warn") == "warn":
            platform = deprecations.PLATFORMS[spelling.form]
    # A fix never writes a model that retires within the warning window if a later successor
    # exists: follow the chain up to the window's end.
    horizon = as_of + dt.timedelta(days=settings["warn-days"])
    found = known.successor(spelling.model, horizon, dict(settings.get("replace") or {}))
    target = known.spell(found[0], spelling, found[1]) if found is not None else None
    return Judged(entry, spelling, target, retires, platform)


SDK_SOURCE = "sdk-table"


def sdk_spelling(text: str) -> Spelling | None:
    """Return a model the catalogue lacks but the installed SDK's deprecation table lists.

    The SDK's table is the run-time fallback: a deprecation published in a newer `anthropic`
    than the catalogue knows is still reported (without a replacement, so without a fix).
    """
    from .. import installed_sdk
    from ..deprecations import Model, Spelling

    sdk = installed_sdk.installed()
    if sdk is None:
        return None
    cut = text.rfind("/") + 1
    date = sdk.deprecations.get(text[cut:].strip())
    if date is None:
        return None
    model = Model(text[cut:].strip(), retires=date, source=f"{SDK_SOURCE}:{sdk.label}")
    return Spelling(model, "api", text[:cut])


def retired_target(ctx: FileContext, site: CallSite) -> tuple[Entry, str] | None:
    """Return the model entry and its replacement when the call's model is retired today
    (under the policy's `[retired-models]`) and a replacement is known."""
    from .. import deprecations

    settings = ctx.settings.table("retired-models")
    found = judge(ctx, site, settings)
    if found is None or found.target is None or found.entry.value.node is None:
        return None
    as_of = as_date(settings.get("as-of")) or deprecations.today()
    if found.platform or found.retires > as_of:
        return None
    return found.entry, found.target


def compose(
    ctx: FileContext,
    site: CallSite,
    entry: Entry,
    target: str,
    settings: Mapping[str, Any],
    migrating: bool = False,
) -> tuple[list[Edit], list[str]] | str:
    """Return the edits moving a call to `target` with the parameter changes its facts need
    (and the list of those changes), or why no such fix exists. `migrating` is CM301's case:
    the legacy call itself is being rewritten into a Messages call in the same fix.

    A model read through a constant changes every call that reads it: each of them must take
    the new model, so their changes come in the same fix (identical for each call's finding).
    """
    from .. import deprecations, model_facts
    from .model_params import edits_for, problems

    assert entry.value.node is not None
    model_edit = ctx.replace(entry.value.node, string_literal(entry.value.node, target))
    spelling = deprecations.for_settings(settings).lookup(target)
    facts = model_facts.load().for_model(spelling.model.id) if spelling is not None else None
    node = entry.value.node
    sharing = [site]
    if not _within(ctx, node, site.node):
        sharing = [
            other
            for other in ctx.sites
            if (found := model_entry(ctx, other)) is not None and found.value.node is node
        ]
    prefer = ctx.settings.table("model-params").get("prefer", "temperature")
    edits = [model_edit]
    changes: list[str] = []
    for other in sharing:
        line = ctx.range(other.node).start.line
        where = "" if other is site else f" (the call on line {line} reads the same constant)"
        if other.target.legacy and not (migrating and other is site):
            return f"the constant also names the model of a legacy completions call on line {line}"
        if facts is None:
            continue
        found = problems(
            ctx, other, facts, repr(target), prefer=prefer, yielding=False, legacy=migrating
        )
        for problem in found:
            if not problem.fixable:
                return problem.message + where
        repaired = edits_for(ctx, found)
        if repaired is None:
            return "the parameters the new model needs changed cannot be rewritten" + where
        edits.extend(repaired)
        changes.extend(problem.change + where for problem in found)
    return edits, changes


def _sdk_note(spelling: Spelling) -> str:
    source = spelling.model.source
    if source.startswith(SDK_SOURCE + ":"):
        return f" (per the deprecation table of the installed {source.split(':', 1)[1]})"
    return ""


def _within(ctx: FileContext, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    start, end = ctx.span(node)
    outer_start, outer_end = ctx.span(outer)
    return outer_start <= start and end <= outer_end


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
            example=dt.date(2026, 1, 31),
        ),
        "warn-days": Option(
            "integer", 90, "report models retiring within this many days (0: never)", minimum=0
        ),
        "replace": Option(
            "string-table", {}, "model id -> the model id its fix writes (overrides the catalogue)"
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
    def external_state(cls, table: Mapping[str, Any], path: str) -> str:
        # Retirement is judged on a date (today unless `as-of` is set) against the shipped
        # catalogue and, optionally, a team catalogue file.
        from .. import deprecations

        as_of = as_date(table.get("as-of")) or deprecations.today()
        extra = table.get("catalogue")
        digest = ""
        if isinstance(extra, str) and extra:
            try:
                digest = hashlib.sha256(Path(extra).read_bytes()).hexdigest()[:16]
            except OSError:
                digest = "missing"
        from .. import installed_sdk

        # The installed SDK's deprecation table is the fallback for models the catalogue lacks.
        sdk = installed_sdk.installed()
        return f"{as_of.isoformat()}|{digest}|{sdk.version if sdk else '-'}"

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
        from .. import deprecations

        as_of = as_date(self.settings.get("as-of")) or deprecations.today()
        warn_days = self.settings["warn-days"]
        for site in ctx.sites:
            found = judge(ctx, site, self.settings)
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
        if found.platform:
            message = (
                f"model {current!r}{via} was retired on the Anthropic API on "
                f"{found.retires.isoformat()}; {found.platform} sets its own date"
            )
        else:
            message = f"model {current!r}{via} was retired on {found.retires.isoformat()}"
        message += _sdk_note(spelling)
        fix = None
        if target is None:
            message += self._why_no_fix(spelling)
        elif found.platform:
            # The platform may still serve it: a warning with the move to plan, no rewrite
            # (`platform-dates = "api"` judges platform ids by the API's date instead).
            message += f": check it, and plan the move to {target!r}"
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
                composed = compose(ctx, site, entry, target, self.settings)
                if isinstance(composed, str):
                    message += f" (no automatic fix: {composed})"
                else:
                    edits, changes = composed
                    if changes:
                        message += ", with: " + "; ".join(changes)
                    fix = ctx.fix(
                        Applicability.UNSAFE,
                        "; ".join([f"replace {current!r} with {target!r}", *changes]),
                        *edits,
                    )
        return ctx.diagnostic(self, entry.holder, message, fix, site.record.scope.qualname)

    def _retiring(
        self, ctx: FileContext, site: CallSite, found: Judged, as_of: dt.date
    ) -> Diagnostic:
        entry = found.entry
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        days = (found.retires - as_of).days
        where = " on the Anthropic API" if found.platform else ""
        message = (
            f"model {current!r}{via} retires{where} on {found.retires.isoformat()} "
            f"(in {days} day{'s' if days != 1 else ''}){_sdk_note(found.spelling)}"
        )
        if found.platform:
            message += f"; {found.platform} sets its own date"
        if found.target is not None:
            message += f"; plan the move to {found.target!r}"
        return ctx.diagnostic(self, entry.holder, message, None, site.record.scope.qualname)

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
