"""Retirement of the model a Claude call names: when, on which platform, and what to move to.

CM302 reports it; CM301 moves a retired model inside its rewrite of a legacy call (CM302 never
rewrites the model of a legacy call on its own). Both ask here. `compose` is the model fix
checked against the replacement's facts (rules/models.toml): the edits that move a call to the
new model and change what the new model refuses, or why no such fix exists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import string_literal
from claude_migrate.analysis.model_requests import Problem, edits_for, model_entry, problems
from claude_migrate.analysis.values import Entry
from claude_migrate.core.diagnostics import Edit
from claude_migrate.core.lazy import lazy_import
from claude_migrate.policy.model_ids import SDK_SOURCE, sdk_spelling

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.value_edits import ValueEdit
    from claude_migrate.policy.deprecations import Spelling
    from claude_migrate.policy.model_facts import Facts

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
    if spelling is None and entry.value.spelled is not None:
        # A wrapper spells the model around the value passed, into no id the catalogue knows
        # (`f"bedrock/{model}"` given a bare API id): the value passed is the model named.
        prefix, suffix = entry.value.spelled
        passed = entry.value.value[len(prefix) : len(entry.value.value) - len(suffix)]
        spelling = known.lookup(passed) or sdk_spelling(passed)
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


def _model_edit(ctx: FileContext, entry: Entry, text: str) -> ValueEdit | str:
    """Return where the model `text` is written for this call (`value_edits.value_edit`), or
    why it cannot be."""
    from claude_migrate.analysis.value_edits import local_reader, value_edit

    current = entry.value.value

    def parameter_of(other: CallSite) -> Entry | None:
        return model_entry(ctx, other)

    def same_fix(other: Entry) -> bool:
        return bool(other.value.value == current)

    shared = local_reader(ctx, entry, parameter_of, same_fix, "model")
    if shared is not None:
        return shared
    written = value_edit(ctx, entry, text, parameter_of, same_fix, "model")
    if written is None:
        return "the model is read through an expression the fix cannot rewrite"
    return written


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
    from claude_migrate.policy import model_facts

    node = entry.value.node
    assert node is not None
    current = entry.value.value
    passed = _unspelled(entry, target)
    if passed is None:
        return (
            f"the call spells the model around the value passed here, and {target!r} is not "
            "spelled that way"
        )
    written = _model_edit(ctx, entry, string_literal(node, passed))
    if isinstance(written, str):
        return written
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
    if site.via is not None and facts is not None:
        unchecked = _wrapped_refusal(ctx, site, entry, str(current), target, facts)
        if unchecked:
            return unchecked
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
            ctx,
            other,
            facts,
            repr(target),
            prefer=prefer,
            yielding=False,
            legacy=migrating,
            unseen=True,
        )
        refusal = _refused(ctx, other, needed)
        if refusal:
            return refusal + where
        repaired = edits_for(ctx, needed)
        if repaired is None:
            return "the parameters the new model needs changed cannot be rewritten" + where
        edits.extend(repaired)
        changes.extend(problem.change + where for problem in needed)
    edits.extend(comment_edits(ctx, node, str(current), target))
    place = f" in {written.subject}" if written.constant else ""
    caveat = f"; {written.caveat}" if written.caveat else ""
    return edits, changes, place + written.note + caveat


# What a wrapper's request this fix cannot read is taken to carry: sampling parameters (almost
# every wrapper sends a temperature, often a default). A move to a model that refuses them keeps
# the id there. A prefilled assistant turn counts where the project phase saw one written in
# the call (`Hop.prefills`); the other facts (a thinking type, a forced tool) are rarer in such
# a request and are not assumed.
UNSEEN_REFUSALS = frozenset({"sampling parameters"})
PREFILL = "a prefilled assistant turn"
# Counted where the project phase saw the call send both (`Hop.sampling_pairs`).
PAIR = "temperature with top_p"
# How strict each `sampling` fact is (rules/models.toml): a move to a stricter one may refuse a
# request the current model took.
_SAMPLING_RANK = {None: 0, "any": 0, "one-of": 1, "none": 2}


def narrowed(old: Facts | None, new: Facts) -> list[str]:
    """Return what a request to a model with `old` facts may carry that one with `new` facts
    refuses (each as a short phrase); [] when the new model takes every request the old took."""
    from claude_migrate.policy.model_facts import Facts as Known

    before = old if old is not None else Known(family="")
    found: list[str] = []
    if _SAMPLING_RANK.get(new.sampling, 0) > _SAMPLING_RANK.get(before.sampling, 0):
        found.append("sampling parameters" if new.sampling == "none" else "temperature with top_p")
    if new.prefill is False and before.prefill is not False:
        found.append(PREFILL)
    # A model that took no thinking (`()`): its requests send none.
    if (
        new.thinking is not None
        and before.thinking != ()
        and (before.thinking is None or set(before.thinking) - set(new.thinking))
    ):
        found.append("a thinking type")
    if new.max_tokens is not None and (
        before.max_tokens is None or new.max_tokens < before.max_tokens
    ):
        found.append(f"max_tokens above {new.max_tokens}")
    if new.forced_tool_choice is False and before.forced_tool_choice is not False:
        found.append("a forcing tool_choice")
    if set(new.dropped_tools) - set(before.dropped_tools):
        found.append("a dropped tool version")
    if set(new.dropped_betas) - set(before.dropped_betas):
        found.append("a dropped beta")
    return found


def _wrapped_refusal(
    ctx: FileContext, site: CallSite, entry: Entry, current: str, target: str, facts: Facts
) -> str:
    """Return why a model passed to a wrapper keeps it: the Claude call it reaches sends what
    `target` refuses, or is in another module whose request this fix cannot check while the
    target refuses what the current model took; "" when the move keeps every request valid.

    `ask("claude-sonnet-4-5", q)` where `ask` sends `temperature=0.5`: the call's own finding
    carries no parameter change (the wrapper's request is not this call's), so moving the id
    alone would make every request of the wrapper one Claude Sonnet 5.5 answers 400 to.
    """
    import os

    from claude_migrate.policy import model_facts

    via = site.via
    assert via is not None
    reaches = [(path, line) for name, path, line in via.reaches if name == entry.key]
    if not reaches:
        return ""
    here = {ctx.path, ctx.path.replace(os.sep, "/"), os.path.abspath(ctx.file_path)}
    spelling = ctx.facts.catalogue.lookup(current)
    old = model_facts.load().for_model(spelling.model.id) if spelling is not None else None
    prefer = ctx.facts.sampling_preference
    for path, line in reaches:
        wrapped = []
        if path in here or os.path.abspath(path) in here:
            wrapped = [
                other
                for other in ctx.all_sites
                if other.via is None and ctx.range(other.node).start.line == line
            ]
        for other in wrapped:
            needed = problems(
                ctx, other, facts, repr(target), prefer=prefer, yielding=False, unseen=True
            )
            if needed:
                return (
                    f"the Claude call it reaches (line {line}) sends what {target} refuses: "
                    f"{needed[0].message}; move both by hand"
                )
        unseen = UNSEEN_REFUSALS | ({PREFILL} if (path, line) in via.prefills else set())
        if (path, line) in via.sampling_pairs:
            unseen = unseen | {PAIR}
        refused = [] if wrapped else [r for r in narrowed(old, facts) if r in unseen]
        if refused:
            # In another module, or a call this module's analysis does not read as Claude's
            # on its own (a Bedrock call whose model is only the wrapper's parameter).
            return (
                f"the Claude call it reaches ({path}:{line}) is not checked by this fix, and "
                f"{target} refuses what {current} took ({', '.join(refused)}): move it with "
                "that call's parameters by hand"
            )
    return ""


def read_refusal(
    ctx: FileContext, places: Sequence[tuple[str, int]], current: str, target: str
) -> str:
    """Return why a module's model constant that Claude calls of other modules read keeps its
    id: the fix edits the constant only, so each call's request must stay valid on `target`
    as it is; "" when the move takes every request `current` took (as far as known).

    What such a request is taken to carry is what a wrapper's is (`UNSEEN_REFUSALS`), with a
    prefilled turn or both of temperature and top_p where the project phase saw the call
    send them (`ProjectView.own["read_requests"]`).
    """
    project = ctx.project
    new = _facts_of(ctx, target)
    if project is None or new is None:
        return ""
    old = _facts_of(ctx, current)
    narrower = narrowed(old, new)
    marks = project.modules.get(project.module, {}).get("read_requests", [])
    for path, line in places:
        what = {str(mark[2]) for mark in marks if (str(mark[0]), int(mark[1])) == (path, line)}
        unseen = UNSEEN_REFUSALS | ({PREFILL} if "prefill" in what else set())
        unseen = unseen | ({PAIR} if "pair" in what else set())
        refused = [phrase for phrase in narrower if phrase in unseen]
        if refused:
            return (
                f"the Claude call at {path}:{line} reads it, and {target} refuses what {current} "
                f"took ({', '.join(refused)}), which that call's request may carry: move the "
                "model with that call's parameters by hand"
            )
    return ""


def _facts_of(ctx: FileContext, model_id: str) -> Facts | None:
    """Return the model facts of a model id in any spelling the catalogue knows."""
    from claude_migrate.policy import model_facts

    spelling = ctx.facts.catalogue.lookup(model_id)
    return model_facts.load().for_model(spelling.model.id) if spelling is not None else None


# The kind of `model_requests.Problem` each phrase of `narrowed` is about.
_NARROWED_KINDS = {
    "sampling parameters": "sampling",
    "temperature with top_p": "sampling",
    PREFILL: "prefill",
    "a thinking type": "thinking",
    "a forcing tool_choice": "tool-choice",
    "a dropped tool version": "tool",
    "a dropped beta": "beta",
}


def unread_refusal(ctx: FileContext, current: str, target: str) -> str:
    """Return why a model id written as data keeps it: a Claude call of the module whose
    model the analysis cannot read (so it may be the one reading the id) sends what `target`
    refuses and `current` took; "" when no such call does.

    `model: str = "claude-sonnet-4-20250514"` on a settings dataclass, read by a call of the
    same module as `**self._request()`, a dict that also sends `temperature` and spreads options
    a caller passes: the data fix would move every request built from the default to a model
    that answers 400 to temperature with top_p, a request no fix of the id can vouch for.
    """
    from claude_migrate.policy import model_facts

    known = model_facts.load()
    catalogue = ctx.facts.catalogue
    new_spelling = catalogue.lookup(target)
    facts = known.for_model(new_spelling.model.id) if new_spelling is not None else None
    if facts is None:
        return ""
    old_spelling = catalogue.lookup(current)
    old = known.for_model(old_spelling.model.id) if old_spelling is not None else None
    kinds = set()
    for phrase in narrowed(old, facts):
        kinds.add("max-tokens" if phrase.startswith("max_tokens") else _NARROWED_KINDS[phrase])
    if not kinds:
        return ""
    prefer = ctx.facts.sampling_preference
    for site in ctx.sites:
        if site.via is not None or site.legacy:
            continue
        entry = model_entry(ctx, site)
        if entry is not None and entry.value.known:
            continue  # the call names its model: not this id, or reported as the call's
        needed = [
            problem
            for problem in problems(
                ctx, site, facts, repr(target), prefer=prefer, yielding=False, unseen=True
            )
            if problem.kind in kinds
        ]
        if needed:
            line = ctx.range(site.node).start.line
            return (
                f"the Claude call on line {ctx.line_label(line)}, whose model this analysis "
                f"cannot read, may send it, and {needed[0].message}"
            )
    return ""


def _refused(ctx: FileContext, site: CallSite, needed: list[Problem]) -> str:
    """Return why the changes a move needs cannot be made ("" when all can)."""
    for problem in needed:
        if not problem.fixable:
            return problem.message
        if asserted := _asserted(ctx, site, problem):
            return asserted
    return ""


def _asserted(ctx: FileContext, site: CallSite, problem: Problem) -> str:
    """Return why a parameter the move removes stays: the test making the call asserts on it."""
    from claude_migrate.analysis.expectations import asserted_parameter

    words = problem.change.split()
    if problem.kind != "sampling" or len(words) < 2 or words[0] != "remove":
        return ""
    line = asserted_parameter(ctx, site, words[1])
    if not line:
        return ""
    return (
        f"the move removes {words[1]}, and the test asserts on it (line {line}): change both "
        "by hand"
    )


def _unspelled(entry: Entry, target: str) -> str | None:
    """Return what to pass for a call to send `target`: the id itself, or, for a model a
    wrapper spells around what it is given (`f"anthropic.{model}-v1:0"`), the text between
    its prefix and suffix (None when `target` does not start and end with them)."""
    if entry.value.spelled is None:
        return target
    prefix, suffix = entry.value.spelled
    if len(target) <= len(prefix) + len(suffix):
        return None
    if not (target.startswith(prefix) and target.endswith(suffix)):
        return None
    return target[len(prefix) : len(target) - len(suffix)]


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
