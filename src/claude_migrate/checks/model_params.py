"""CM108 model-params: a Claude call carrying something the model it names answers 400 to.

What changed upstream (rules/models.toml, each fact with its public source): from Claude
Sonnet 4.5 / Haiku 4.5 / Opus 4.1, `temperature` and `top_p` cannot be sent together; from Claude
Opus 4.7 (and the Claude 5 families) no sampling parameter is taken and `thinking` with a
`budget_tokens` is refused (adaptive thinking only); Claude 4.6 and later answer 400 to a request
ending in a prefilled assistant turn; every model has a highest `max_tokens`; Claude 4 models no
longer take the `text_editor_20250124` tool or the `token-efficient-tools-2025-02-19` beta.
Finds: on every call shape the registry knows (SDK, Bedrock, LangChain, LiteLLM, raw HTTP), with
the model read as a literal or through a constant, in any spelling the deprecation catalogue
recognises:
- temperature with top_p on a one-of model; any sampling parameter on a model that takes none
  (where CM107 already reports the parameter, because the target API or SDK rejects it, this rule
  yields);
- `thinking` of a type the model does not accept;
- a prefilled assistant turn where the model refuses it (report only);
- `max_tokens` above the model's limit;
- a tool version or beta header the model no longer takes.
Writes instead: without the sampling parameter (unsafe; `prefer` says which of temperature and
top_p stays); `{"type": "adaptive"}` for `enabled` thinking (unsafe: the model decides how much
to think); the model's limit for `max_tokens` (safe); the beta header removed (safe); the current
tool version and its name (unsafe: tool_use blocks carry the new name).

The reading itself is `model_requests.problems()`, which CM302 and CM301 also run against a
replacement model's facts, so a model fix carries the parameter changes the new model needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.model_requests import edits_for, facts_of, model_entry, problems
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.model_requests import Problem
    from claude_migrate.analysis.values import Entry
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted


class ModelParamsCheck(Check["FileContext"]):
    code = "CM108"
    name = "model-params"
    summary = "a Claude call carries a parameter the model it names refuses"
    fix_applicability = Applicability.UNSAFE
    options = {
        "prefer": Option(
            "enum",
            "temperature",
            "which of temperature and top_p the fix keeps on a model that takes only one",
            choices=("temperature", "top_p"),
        ),
    }

    @classmethod
    def validate(cls, table: Any) -> list[tuple[str, str]]:
        from claude_migrate.policy import model_facts

        model_facts.load()  # validated at start-up: a bad entry raises naming itself
        return []

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        from claude_migrate.analysis.constant_reads import Reading, one_per_value

        prefer = self.settings.get("prefer", "temperature")
        readings: list[Reading] = []
        for site, split in _sites(ctx):
            found = facts_of(ctx, site)
            if found is None:
                continue
            facts, label, _entry = found
            for problem in problems(ctx, site, facts, f"model {label}", prefer=prefer):
                fix = None
                # A model among several the call may send: the request serves every one, so
                # nothing is edited for this one alone.
                edits = edits_for(ctx, [problem]) if problem.fixable and not split else None
                if edits:
                    fix = ctx.fix(problem.applicability, problem.change, *edits)
                entry = _entry_at(ctx, site, problem)
                node = problem.node if entry is None else entry.holder
                diagnostic = ctx.diagnostic(
                    self, node, problem.message, fix, site.record.scope.qualname
                )
                if entry is None:
                    yield diagnostic  # a tool or a beta inside a parameter: its own place
                else:
                    readings.append(Reading(site, entry, diagnostic))
        # One finding per value: a constant (or a spread dict's entry) several calls send is
        # reported once, where it is written, each call a related place.
        yield from one_per_value(ctx, self, readings, None)[0]


def _sites(ctx: FileContext) -> Iterable[tuple[CallSite, bool]]:
    """Yield each Claude call the file makes, and for one whose model is not one value, each
    site a value set of its model splits it into (`self.model = model or MODEL`): a model the
    call may send, flagged as such."""
    split: dict[int, list[CallSite]] = {}
    for site in ctx.all_sites:
        if site.via is None and site.branch_of is not None:
            split.setdefault(id(site.branch_of), []).append(site)
    for site in ctx.sites:
        yield site, False
        entry = model_entry(ctx, site)
        if entry is not None and not entry.value.known:
            for one in split.get(id(site), ()):
                yield one, True


def _entry_at(ctx: FileContext, site: CallSite, problem: Problem) -> Entry | None:
    """Return the value a problem is about: the call's parameter written where it is reported,
    or for a `thinking` dict kept in a constant (`thinking=THINKING`), the constant's `"type"`
    entry, which every call sending it shares."""
    entry = next((e for e in site.params.items.values() if e.holder is problem.node), None)
    if entry is None or problem.kind != "thinking":
        return entry
    config = ctx.resolver.values.nested(entry, site.record.scope)
    kind = config.get("type") if config is not None else None
    if kind is None or kind.container is None or _inside(ctx, kind.holder, site.node):
        return entry
    return replace(kind, key=entry.key, through=None)


def _inside(ctx: FileContext, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    start, end = ctx.span(node)
    outer_start, outer_end = ctx.span(outer)
    return outer_start <= start and end <= outer_end
