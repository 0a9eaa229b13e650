"""Retirement of the model a Claude call names: when, on which platform, and what to move to.

CM302 reports it; CM301 moves a retired model inside its rewrite of a legacy call (CM302 never
rewrites the model of a legacy call on its own). Both ask here. `compose` is the model fix
checked against the replacement's facts (rules/models.toml): the edits that move a call to the
new model and change what the new model refuses, or why no such fix exists.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import string_literal
from claude_migrate.analysis.model_requests import edits_for, model_entry, problems
from claude_migrate.analysis.values import Entry
from claude_migrate.core.diagnostics import Edit
from claude_migrate.core.lazy import lazy_import
from claude_migrate.policy.model_ids import SDK_SOURCE, sdk_spelling

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.policy.deprecations import Spelling

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST


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


def judge(ctx: FileContext, site: CallSite) -> Judged | None:
    """Return a call's model when it has a retirement date (past or future); None otherwise."""
    entry = model_entry(ctx, site)
    return None if entry is None else judge_entry(ctx, entry)


def judge_entry(ctx: FileContext, entry: Entry) -> Judged | None:
    """Return a model entry's retirement, when it has a date (past or future)."""
    from claude_migrate.policy import deprecations

    facts = ctx.facts
    known = facts.catalogue
    as_of = facts.as_of
    if not entry.value.known or not isinstance(entry.value.value, str):
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
        elif facts.platform_dates == "ignore":
            return None
        elif facts.platform_dates == "warn":
            platform = deprecations.PLATFORMS[spelling.form]
    # A fix never writes a model that retires within the warning window if a later successor
    # exists: follow the chain up to the window's end.
    horizon = as_of + dt.timedelta(days=facts.retirement_warn_days)
    found = known.successor(
        spelling.model, horizon, dict(facts.model_replacements), facts.replacement_preference
    )
    target = known.spell(found[0], spelling, found[1]) if found is not None else None
    return Judged(entry, spelling, target, retires, platform)


def retired_target(ctx: FileContext, site: CallSite) -> tuple[Entry, str] | None:
    """Return the model entry and its replacement when the call's model is retired today
    (under the policy's `[retired-models]`) and a replacement is known."""
    found = judge(ctx, site)
    if found is None or found.target is None or found.entry.value.node is None:
        return None
    if found.platform or found.retires > ctx.facts.as_of:
        return None
    return found.entry, found.target


def compose(
    ctx: FileContext,
    site: CallSite,
    entry: Entry,
    target: str,
    migrating: bool = False,
) -> tuple[list[Edit], list[str], str] | str:
    """Return the edits moving a call to `target` with the parameter changes its facts need,
    the list of those changes and where the model is written (for the fix's description), or
    why no such fix exists. `migrating` is CM301's case: the legacy call itself is being
    rewritten into a Messages call in the same fix.

    The model is written where `value_edits.value_edit` says: a constant only Claude calls of
    the same fix read (then every one of them must take the new model, and the fix carries all
    their changes, the same for each call's finding), else this call's own argument.
    """
    from claude_migrate.analysis.value_edits import value_edit
    from claude_migrate.policy import model_facts

    node = entry.value.node
    assert node is not None
    current = entry.value.value
    written = value_edit(
        ctx,
        entry,
        string_literal(node, target),
        lambda other: model_entry(ctx, other),
        lambda other: other.value.value == current,
        "model",
    )
    if written is None:
        return "the model is read through an expression the fix cannot rewrite"
    spelling = ctx.facts.catalogue.lookup(target)
    facts = model_facts.load().for_model(spelling.model.id) if spelling is not None else None
    sharing = [site]
    if written.constant:
        sharing = [
            other
            for other in ctx.sites
            if (found := model_entry(ctx, other)) is not None and found.value.node is node
        ]
    prefer = ctx.facts.sampling_preference
    if site.branch_of is not None and facts is not None:
        for other in sharing:
            if problems(ctx, other, facts, repr(target), prefer=prefer, yielding=False):
                # The call's other parameters are shared by every branch's model.
                return "the call's other parameters would change for every value of the model"
    edits = [written.edit]
    changes: list[str] = []
    for other in sharing:
        line = ctx.range(other.node).start.line
        where = "" if other is site else f" (the call on line {line} reads the same constant)"
        if other.legacy and not (migrating and other is site):
            return f"the constant also names the model of a legacy completions call on line {line}"
        if facts is None:
            continue
        needed = problems(
            ctx, other, facts, repr(target), prefer=prefer, yielding=False, legacy=migrating
        )
        for problem in needed:
            if not problem.fixable:
                return problem.message + where
        repaired = edits_for(ctx, needed)
        if repaired is None:
            return "the parameters the new model needs changed cannot be rewritten" + where
        edits.extend(repaired)
        changes.extend(problem.change + where for problem in needed)
    edits.extend(comment_edits(ctx, node, str(current), target))
    place = f" in {written.subject}" if written.constant else ""
    caveat = f"; {written.caveat}" if written.caveat else ""
    return edits, changes, place + written.note + caveat


def comment_edits(ctx: FileContext, node: cst.CSTNode, old: str, new: str) -> list[Edit]:
    """Return edits that rename `old` to `new` in comments on the line of `node` or the one
    before it (`# claude-3-opus: best at long contracts`), so no comment names a model the code
    no longer sends."""
    line = ctx.range(node).start.line
    edits = []
    for comment in ctx.comments({line - 1, line}):
        if old not in comment.text:
            continue
        start = ctx.source.offset(comment.line, comment.column)
        edits.append(Edit(start, start + len(comment.text), comment.text.replace(old, new)))
    return edits


def sdk_note(spelling: Spelling) -> str:
    """Return the note naming the installed SDK when it is the source of a date."""
    source = spelling.model.source
    if source.startswith(SDK_SOURCE + ":"):
        return f" (per the deprecation table of the installed {source.split(':', 1)[1]})"
    return ""


def _within(ctx: FileContext, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    start, end = ctx.span(node)
    outer_start, outer_end = ctx.span(outer)
    return outer_start <= start and end <= outer_end
