"""CM304 migrate-model: move every Claude call to the model `[migrate-model] to` names.

What changed upstream: each new Claude model comes with a migration guide listing what its
requests may no longer carry (https://platform.claude.com/docs/en/about-claude/models/
migration-guide; for Claude Sonnet 5.5: thinking budgets, sampling parameters, assistant prefill,
forced tool choice and `thinking: {"type": "disabled"}` answer 400). Those facts are data in
rules/models.toml, each with its source.
Finds: a Claude call whose model (in any platform's spelling) is the target's tier and not newer
than it, or one of `from` when the policy lists models; and a call already on the target whose
request the target refuses.
Writes instead: the target in the platform's spelling (Bedrock, Vertex, LiteLLM prefixes kept),
with every parameter change the target's facts require (the same composition CM302 uses for a
replacement): sampling parameters removed, a thinking budget turned into adaptive thinking,
dropped tool versions and betas, `max_tokens` within the output limit. Forcing `tool_choice`
becomes `{"type": "auto"}` only as an unsafe fix. A request no rewrite keeps working (a prefilled
assistant turn, `thinking` the target refuses with no equivalent, a platform id no public source
gives, a table keyed by model id the call's function looks its model up in that has no entry
for the target) keeps its model and is reported with the reason, for `migrate --checklist`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.model_requests import Problem, edits_for, model_entry, problems
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.policy.deprecations import Catalogue, Model
    from claude_migrate.policy.model_facts import Facts
    from claude_migrate.project.triage import Wanted
else:
    cst = lazy_import("libcst")

RULE = "CM304"
TIERS = ("opus", "sonnet", "haiku", "fable", "mythos")
# Tierless ids of the first models, placed where the catalogue's replacements place them.
_OLD_TIERS = (("claude-instant", "haiku"), ("claude-1", "sonnet"), ("claude-2", "sonnet"))
_NUMBERS = re.compile(r"(?<![0-9])(\d{1,2})(?![0-9])")
# Problems whose repair changes what the call does beyond what the target requires.
_BEHAVIOUR = frozenset({"tool-choice"})


def _applicability(needed: list[Problem]) -> Applicability:
    """Return UNSAFE when a repair changes what the call does beyond what the target requires."""
    return Applicability.UNSAFE if any(p.kind in _BEHAVIOUR for p in needed) else Applicability.SAFE


def tier(model_id: str) -> str | None:
    """Return the tier (opus, sonnet, haiku, fable, mythos) a catalogue id belongs to."""
    for name in TIERS:
        if name in model_id.split("-"):
            return name
    for prefix, name in _OLD_TIERS:
        if model_id.startswith(prefix):
            return name
    return None


def generation(model_id: str) -> tuple[int, ...]:
    """Return the version numbers of a catalogue id (dates left out): (3, 5), (4, 1), (5, 5)."""
    undated = re.sub(r"-20\d{6}$", "", model_id)
    numbers = tuple(int(n) for n in _NUMBERS.findall(undated))
    return numbers + (0,) * (3 - len(numbers))


def moves(model: Model, target: Model, sources: frozenset[str]) -> bool:
    """Return whether a call on `model` moves to `target` (`sources`: the policy's `from`)."""
    if model.id == target.id:
        return True
    if sources:
        return model.id in sources
    same = tier(model.id) == tier(target.id) and tier(target.id) is not None
    return same and generation(model.id) <= generation(target.id)


def target_of(catalogue: Catalogue, name: str) -> Model | None:
    """Return the catalogue model a `to` or `from` value names, in any spelling."""
    spelling = catalogue.lookup(name)
    return spelling.model if spelling is not None else None


class MigrateModelCheck(Check["FileContext"]):
    code = RULE
    name = "migrate-model"
    summary = "a Claude call to move to the model `[migrate-model] to` names"
    fix_applicability = Applicability.SAFE
    options = {
        "to": Option(
            "string",
            "",
            "the model every call moves to, an API id such as claude-sonnet-5-5 (empty: off)",
            example="claude-sonnet-5-5",
        ),
        "from": Option(
            "string-list",
            [],
            "move only calls to these models (empty: every model of the target's tier that is "
            "not newer than it)",
        ),
    }

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        return bool(table.get("to"))

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        from claude_migrate.policy import deprecations

        known = deprecations.load(None)
        wanted = table.get("to") or ""
        if wanted:
            model = target_of(known, wanted)
            if model is None:
                return [("to", f"a model of the catalogue, not {wanted!r}")]
            if model.retires is not None:
                return [("to", f"a current model: {model.id} retires on {model.retires}")]
        for name in table.get("from") or ():
            if target_of(known, name) is None:
                return [("from", f"models of the catalogue, not {name!r}")]
        return []

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.all_sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        from claude_migrate.policy import model_facts

        known = ctx.facts.catalogue
        target = target_of(known, self.settings.get("to") or "")
        if target is None:
            return
        facts = model_facts.load().for_model(target.id)
        sources = frozenset(
            m.id for name in self.settings.get("from") or () if (m := target_of(known, name))
        )
        from claude_migrate.analysis.constant_reads import Reading, one_per_value

        readings: list[Reading] = []
        moving = []
        seen: set[int] = set()
        for site in ctx.all_sites:
            # A call split by a value set moves once, as the call, when the split was on another
            # parameter (`if temperature is None: temperature = 0.2`); a split on the model
            # (`model = A if fast else B`) moves each value where it is written.
            site = _moving_site(ctx, site)
            if id(site) in seen:
                continue
            seen.add(id(site))
            entry = model_entry(ctx, site)
            if entry is None or not entry.value.known or not isinstance(entry.value.value, str):
                continue
            spelling = known.lookup(entry.value.value)
            if spelling is None or not moves(spelling.model, target, sources):
                continue
            moving.append((site, entry))
        merged = _merged_registers(ctx, moving)
        going = {id(site) for site, _ in moving}
        staying = [site for site in ctx.all_sites if id(_moving_site(ctx, site)) not in going]
        for site, entry in moving:
            reason = merged.get(id(site), "")
            found = self._judge(ctx, site, entry, target, facts, reason, staying)
            if found is not None:
                readings.append(Reading(site, entry, found))
        # A model constant several calls of the module read moves once, at the constant.
        yield from one_per_value(ctx, self, readings, "model")[0]

    def _judge(
        self,
        ctx: FileContext,
        site: CallSite,
        entry: Entry,
        target: Model,
        facts: Facts | None,
        merged: str = "",
        staying: Sequence[CallSite] = (),
    ) -> Diagnostic | None:
        from claude_migrate.analysis.bound_tools import profile_reason
        from claude_migrate.analysis.expectations import expected_id
        from claude_migrate.analysis.model_tables import missed_lookup
        from claude_migrate.analysis.retirements import compose
        from claude_migrate.checks.retired_model import EXPECTED_AGAIN, recorded_reason

        known = ctx.facts.catalogue
        current = entry.value.value
        spelling = known.lookup(current)
        assert spelling is not None
        written = known.spell(target, spelling)
        scope = site.record.scope.qualname
        related = site.via.related(entry.key, "the model") if site.via else ()
        if written is None:
            platform = {"bedrock": "Amazon Bedrock", "vertex": "Vertex AI"}.get(spelling.form, "")
            why = f"no {platform} id of {target.id} is known" if platform else "no id to write"
            return ctx.diagnostic(
                self,
                entry.holder,
                f"model {current!r} cannot move to {target.id}: {why} (rules/deprecations.toml "
                "lists the platform ids public sources give)",
                None,
                scope,
                related=related,
            )
        if site.target.legacy:
            return ctx.diagnostic(
                self,
                entry.holder,
                f"model {current!r} cannot move to {target.id} on the Text Completions endpoint: "
                "CM301 (legacy-completions) rewrites the call to the Messages API first",
                None,
                scope,
                related=related,
            )
        needed = self._needed(ctx, site, facts, written)
        if written == current:
            if not needed:
                return None
            return self._repair(ctx, site, entry, needed, _applicability(needed), related)
        composed: tuple[list[Edit], list[str], str] | str
        if entry.value.node is None:
            composed = "the model is not written where a fix can reach it"
        elif merged:
            composed = merged
        elif replayed := recorded_reason(ctx, str(current)):
            composed = replayed
        elif line := expected_id(ctx, site, entry):
            composed = EXPECTED_AGAIN.format(line)
        elif profiled := profile_reason(ctx, site, written):
            composed = profiled
        elif missed := missed_lookup(ctx, site, entry, written):
            composed = missed
        else:
            composed = compose(ctx, site, entry, written)
            composed = _unshared(ctx, site, composed, staying) or composed
        if isinstance(composed, str):
            return ctx.diagnostic(
                self,
                entry.holder,
                f"model {current!r} cannot move to {written!r} automatically: {composed}",
                None,
                scope,
                related=related,
            )
        edits, changes, where = composed
        # A constant read by other calls moves them too: the fix carries their changes.
        for other in ctx.all_sites:
            shared = model_entry(ctx, other)
            if other is not site and shared is not None and shared.value.node is entry.value.node:
                needed = needed + self._needed(ctx, other, facts, written)
        applicability = _applicability(needed)
        description = "; ".join([f"replace {current!r} with {written!r}{where}", *changes])
        message = f"model {current!r} moves to {written!r}"
        if changes:
            message += ", with: " + "; ".join(changes)
        fix = ctx.fix(applicability, description, *edits)
        return ctx.diagnostic(self, entry.holder, message, fix, scope, related=related)

    @staticmethod
    def _needed(
        ctx: FileContext, site: CallSite, facts: Facts | None, written: str
    ) -> list[Problem]:
        """Return what the target refuses in this call's request (nothing without facts)."""
        if facts is None:
            return []
        prefer = ctx.facts.sampling_preference
        return problems(ctx, site, facts, repr(written), prefer=prefer, yielding=False)

    def _repair(
        self,
        ctx: FileContext,
        site: CallSite,
        entry: Entry,
        needed: list[Problem],
        applicability: Applicability,
        related: Any,
    ) -> Diagnostic:
        """Return the finding for a call already on the target whose request it refuses."""
        scope = site.record.scope.qualname
        refused = [p for p in needed if not p.fixable]
        if refused:
            return ctx.diagnostic(self, refused[0].node, refused[0].message, None, scope)
        edits = edits_for(ctx, needed)
        changes = "; ".join(p.change for p in needed)
        if site.branch_of is not None:
            # One value of a model the call chooses: the repair would change the request the
            # call sends for every other value too.
            message = (
                f"{entry.value.value!r} refuses part of this request: {changes} (no automatic "
                "fix: the call's other parameters would change for every value of the model)"
            )
            return ctx.diagnostic(self, entry.holder, message, None, scope, related=related)
        if edits is None:
            message = "the parameters the target needs changed cannot be rewritten"
            return ctx.diagnostic(self, entry.holder, message, None, scope, related=related)
        message = f"{entry.value.value!r} refuses part of this request: {changes}"
        fix = ctx.fix(applicability, changes, *edits)
        return ctx.diagnostic(self, entry.holder, message, fix, scope, related=related)


def _moving_site(ctx: FileContext, site: CallSite) -> CallSite:
    """Return the site a migration judges for `site`: the call it was split from by a value set
    of another parameter than the model (every branch sends the call's one model), else itself."""
    origin = site.branch_of
    if origin is None:
        return site
    own, shared = model_entry(ctx, site), model_entry(ctx, origin)
    if (
        own is not None
        and shared is not None
        and (own.value.node is not shared.value.node or own.value.known != shared.value.known)
    ):
        # One value of the model: it moves where it is written (a string built from a chosen
        # part is written nowhere: judged, and left on the checklist).
        return site
    return origin


def _merged_registers(ctx: FileContext, moving: list[tuple[CallSite, Entry]]) -> dict[int, str]:
    """Return why each moving call that registers a model object keeps its model, by site id.

    `register(ChatModel("claude-3-5-sonnet-20240620"))` beside another `ChatModel(...)` of the
    file: the ids are the register's names, and moving two of them to the target (or one onto
    an entry that is already it) would give two entries one id.
    """
    from claude_migrate.analysis.model_mentions import register_of

    groups: dict[str, list[int]] = {}
    for site, entry in moving:
        name = register_of(ctx, site.node, entry.value_node)
        if name is not None:
            groups.setdefault(name, []).append(id(site))
    return {
        member: f"a register of models built through {name}, whose other entries move too: "
        "two entries would share one id"
        for name, members in groups.items()
        if len(members) > 1
        for member in members
    }


def _unshared(
    ctx: FileContext,
    site: CallSite,
    composed: tuple[list[Edit], list[str], str] | str,
    staying: Sequence[CallSite],
) -> str:
    """Return why a move's request changes cannot be made: one edits a module-level value
    (`PARAMS = {"temperature": 0.3, "top_p": 0.9}`, read by `**PARAMS`) that a Claude call which
    does not move also sends, whose request would change with it; "" when none does."""
    if isinstance(composed, str) or not staying:
        return ""
    start, end = ctx.span(site.node)
    outside = [edit for edit in composed[0] if edit.start < start or edit.end > end]
    for statement in ctx.module.body if outside else ():
        first, last = ctx.span(statement)
        if not any(first <= edit.start and edit.end <= last for edit in outside):
            continue
        for name in _bound_names(statement):
            pattern = re.compile(rf"\b{re.escape(name)}\b")
            for other in staying:
                scope = other.record.scope.node
                if other is not site and pattern.search(ctx.module.code_for_node(scope)):
                    line = ctx.range(other.node).start.line
                    return (
                        f"the request change edits {name}, which the call on line {line} also "
                        "sends, and that call does not move: its request would change too; give "
                        "the moved call its own value first"
                    )
    return ""


def _bound_names(statement: cst.CSTNode) -> list[str]:
    """Return the plain names a module-level assignment statement binds."""
    names: list[str] = []
    for small in (
        getattr(statement, "body", ()) if isinstance(statement, cst.SimpleStatementLine) else ()
    ):
        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else []
        if isinstance(small, cst.AnnAssign):
            targets = [small.target]
        names.extend(t.value for t in targets if isinstance(t, cst.Name))
    return names
