"""What a request carries that the model it names refuses, by the model facts (rules/models.toml).

`problems(ctx, site, facts, label)` reads one Claude call against one family's facts: sampling
parameters (one-of or none), the `thinking` type, a prefilled last assistant turn, `max_tokens`
above the limit, dropped tool versions and beta headers; each problem carries the edits that
repair it, or none when no mechanical repair exists. CM108 reports the problems of the model a
call names; CM302 and CM301 run it against a replacement's facts so a model change carries the
parameter changes the new model needs (or is refused).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import remove_elements, remove_line, string_literal
from claude_migrate.analysis.rejections import rejection
from claude_migrate.analysis.values import Entry
from claude_migrate.core.diagnostics import Applicability, Edit
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import BEDROCK, LITELLM, MAX_TOKENS, MODEL, TEMPERATURE

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.policy.model_facts import Facts

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
        # A wrapper's call names its model only by keyword or by the wrapper's own parameter.
        return entry
    # LiteLLM takes the model as its first positional argument too.
    call = site.node
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        first = call.args[0]
        value = ctx.resolver.values.value(first.value, site.record.scope)
        return Entry(MODEL, first, first.value, value, call)
    return None


TOP_P_NAMES = ("top_p", "topP")
TOP_K_NAMES = ("top_k", "topK")
BETA_HEADER = "anthropic-beta"


@dataclass
class Problem:
    """One thing a request carries that a model refuses, and the edits that repair it."""

    kind: str  # "sampling", "thinking", "prefill", "max-tokens", "tool", "beta", "tool-choice"
    node: cst.CSTNode  # where the finding is reported
    message: str  # what is wrong, ending with the source
    change: str = ""  # what the fix does, for fix descriptions and CM302's report
    edits: list[Edit] = field(default_factory=list)
    applicability: Applicability = Applicability.UNSAFE
    # Removals grouped later by container, so two removals in one call make one edit.
    removals: list[tuple[cst.CSTNode, cst.CSTNode]] = field(default_factory=list)

    @property
    def fixable(self) -> bool:
        return bool(self.edits or self.removals)


def sampling_names(site: CallSite) -> dict[str, tuple[str, ...]]:
    return {
        "temperature": site.target.names(TEMPERATURE),
        "top_p": TOP_P_NAMES,
        "top_k": TOP_K_NAMES,
    }


def _without(ctx: FileContext, entry: Entry, message: str, change: str) -> Problem:
    """Return a sampling problem whose fix removes the entry (an argument, a dict entry, or
    the `params["x"] = ...` statement that sets it)."""
    from claude_migrate.analysis.value_edits import shared_dict

    problem = Problem("sampling", entry.holder, message, change)
    if entry.container is not None:
        # A dict of options another vendor's call also spreads (`**SAMPLING`): removing the
        # entry for Claude would change that call's request too.
        shared = shared_dict(ctx, entry)
        if shared is not None:
            problem.message += f" (no automatic fix: {shared})"
            return problem
        problem.removals.append((entry.container, entry.holder))
    else:
        edit = remove_line(ctx, entry.holder)
        if edit is not None:
            problem.edits.append(edit)
    return problem


def _cite(facts: Facts, fact: str) -> str:
    source = facts.source(fact)
    return f" ({source})" if source else ""


def _sampling(
    ctx: FileContext,
    site: CallSite,
    facts: Facts,
    label: str,
    prefer: str,
    yielding: bool,
    unseen: bool = False,
) -> Iterable[Problem]:
    if facts.sampling is None or facts.sampling == "any":
        return
    present: dict[str, Entry] = {}
    hidden: list[str] = []  # may be sent from where the analysis cannot read
    # Keys the request holds with a value the analysis cannot read (`{"temperature": t,
    # **extra}`: a later spread may replace the value, not take the key away).
    held = [c for c, names in sampling_names(site).items() if site.params.unknown_keys & set(names)]
    for canonical, names in sampling_names(site).items():
        entry = site.params.get(*names)
        if entry is None:
            if site.params.may_have(*names):
                hidden.append(canonical)
            continue
        if yielding and rejection(ctx, site, canonical) is not None:
            continue  # CM107 reports (and removes) it
        present[canonical] = entry
    cite = _cite(facts, "sampling")
    if facts.sampling == "none":
        for entry in present.values():
            yield _without(
                ctx,
                entry,
                f"{label} takes no sampling parameters: {entry.key} answers 400{cite}",
                f"remove {entry.key}",
            )
        if unseen and hidden:
            # A model moving here from one that took them: the request may carry them from a
            # dict built where the analysis cannot read, and no fix can vouch it does not.
            yield Problem(
                "sampling",
                site.node,
                f"{label} takes no sampling parameters, and the call's request may carry "
                f"{' or '.join(hidden)} from a value this analysis cannot read (a dict built "
                f"elsewhere, options passed through){cite}: check the request, then move it by "
                "hand",
            )
        return
    pair = ("temperature", "top_p")
    sends = [p for p in pair if p in present or p in held]
    caller = _paired_caller(ctx, site) if unseen and not sends else None
    if caller is not None:
        # A model moving here: a call of the project hands the function's `**kwargs` both.
        wrapper, path, line = caller
        yield Problem(
            "sampling",
            site.node,
            f"{label} takes temperature or top_p, not both, and {wrapper}() passes on what its "
            f"callers give: its call at {path}:{line} gives both{cite}; keep one there, then "
            "move this call by hand",
        )
        return
    if unseen and sends and any(p in hidden and p != sends[0] for p in pair):
        # A model moving here: the request sends one of the pair and may carry the other from
        # a value the analysis cannot read (options passed through, `{**base, **extra}`), which
        # the pair together answers 400 to.
        sent = sends[0]
        other = next(p for p in pair if p in hidden and p != sent)
        yield Problem(
            "sampling",
            site.node,
            f"{label} takes temperature or top_p, not both, and the call sends {sent} with a "
            f"request that may carry {other} from a value this analysis cannot read (options "
            f"passed through){cite}: check the request, then move it by hand",
        )
        return
    if "temperature" in present and "top_p" in present:
        dropped = "top_p" if prefer == "temperature" else "temperature"
        kept = "temperature" if dropped == "top_p" else "top_p"
        entry = present[dropped]
        yield _without(
            ctx,
            entry,
            f"{label} takes temperature or top_p, not both: the request answers 400{cite}; "
            f"keep {kept}",
            f"remove {entry.key} (keep {kept})",
        )


def _paired_caller(ctx: FileContext, site: CallSite) -> tuple[str, str, int] | None:
    """Return the function a Claude call passes its `**kwargs` from, with the first of the
    project's calls of it that gives both temperature and top_p (the project phase's
    `paired_by`), when the call's temperature is one it passes on; else None."""
    project = ctx.project
    function = site.record.scope.function()
    if project is None or site.via is not None:
        return None
    facts = project.function(project.module, function.qualname) or {}
    paired = facts.get("paired_by")
    line = ctx.range(site.node).start.line
    reaches = [place for places in facts.get("forwards", {}).values() for place in places]
    if not paired or not any(r[0] == TEMPERATURE and r[3] == line for r in reaches):
        return None
    path, at = paired[0]
    return function.qualname, str(path), int(at)


def _thinking(
    ctx: FileContext, site: CallSite, facts: Facts, label: str, unseen: bool = False
) -> Iterable[Problem]:
    from claude_migrate.analysis.thinking import extra_body_thinking, thinking

    if facts.thinking is None:
        return
    entry = site.params.get("thinking") or extra_body_thinking(ctx, site)
    cite = _cite(facts, "thinking")
    if entry is None:
        may_think = site.via is None and thinking(ctx, site).budget_unknown
        if unseen and "enabled" not in facts.thinking and may_think:
            # A model moving here: the request may turn thinking on with a budget, from a
            # value the analysis cannot read (`extra_body` built in branches), which it refuses.
            yield Problem(
                "thinking",
                site.node,
                f"{label} refuses a thinking budget, and the call's request may carry one from "
                f"a value this analysis cannot read{cite}: check the request, then move it by "
                "hand",
            )
        return
    if not facts.thinking:
        yield Problem("thinking", entry.holder, f"{label} takes no thinking parameter{cite}")
        return
    config = ctx.resolver.values.nested(entry, site.record.scope)
    kind = config.get("type") if config is not None else None
    if kind is None or not kind.value.known or not isinstance(kind.value.value, str):
        return
    value = kind.value.value
    if value in facts.thinking:
        return
    accepted = ", ".join(repr(t) for t in facts.thinking)
    message = f"{label} refuses thinking type {value!r} (it takes {accepted}){cite}"
    if value != "enabled" or "adaptive" not in facts.thinking:
        yield Problem("thinking", entry.holder, message)
        return
    budget = config.get("budget_tokens") if config is not None else None
    edits: list[Edit] = []
    in_place = (
        isinstance(entry.value_node, cst.Dict)
        and kind.container is entry.value_node
        and _within(ctx, entry.value_node, site.node)
    )
    if in_place and kind.value.node is not None:
        edits.append(ctx.replace(kind.value.node, string_literal(kind.value.node, "adaptive")))
        if budget is not None:
            if budget.container is not entry.value_node:
                edits = []
            else:
                removal = remove_elements(ctx, budget.container, [budget.holder])
                edits = [*edits, removal] if removal is not None else []
    budget_text = ""
    if budget is not None and budget.value.known:
        budget_text = f" of {budget.value.value}"
    yield Problem(
        "thinking",
        entry.holder,
        message + '; use {"type": "adaptive"}: the model decides how much to think, and the '
        f"budget_tokens{budget_text} no longer caps it (steer it with output_config.effort)",
        'thinking={"type": "adaptive"} (budget_tokens dropped)',
        edits,
    )


# Extended thinking's own limits, on every model that takes it: `budget_tokens` of at least
# 1024, `max_tokens` above it, and no temperature but 1; a request breaking one answers 400.
EXTENDED_THINKING = "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"
# The least `budget_tokens` manual thinking takes (the same page; anthropic 2.15.0,
# `types/thinking_config_param.py`: "a `budget_tokens` of at least 1,024").
MIN_BUDGET = 1024


def _thinking_limits(
    ctx: FileContext, site: CallSite, facts: Facts, label: str
) -> Iterable[Problem]:
    """Yield what a request with `thinking={"type": "enabled", ...}` breaks of extended
    thinking's limits, on a model that takes that type (no fix: which value to change is the
    author's choice)."""
    from claude_migrate.analysis.thinking import extra_body_thinking

    if not facts.thinking or "enabled" not in facts.thinking:
        return
    entry = site.params.get("thinking") or extra_body_thinking(ctx, site)
    config = ctx.resolver.values.nested(entry, site.record.scope) if entry is not None else None
    kind = config.get("type") if config is not None else None
    if config is None or kind is None or not kind.value.known or kind.value.value != "enabled":
        return
    budget = config.get("budget_tokens")
    spent = budget.value.value if budget is not None and budget.value.known else None
    if budget is not None and _count(spent) and spent < MIN_BUDGET:
        yield Problem(
            "thinking",
            budget.holder,
            f"{label} answers 400 to a thinking budget_tokens of {spent}: the least is "
            f"{MIN_BUDGET} ({EXTENDED_THINKING}); raise it",
        )
    limit = site.param(MAX_TOKENS)
    if budget is not None and limit is not None and budget.value.known and limit.value.known:
        spent, most = budget.value.value, limit.value.value
        if _count(spent) and _count(most) and most <= spent:
            yield Problem(
                "thinking",
                limit.holder,
                f"{label} answers 400 to {limit.key}={most} with a thinking budget_tokens of "
                f"{spent}: max_tokens must be above the budget ({EXTENDED_THINKING}); raise "
                f"{limit.key} or lower the budget",
            )
    temperature = site.param(TEMPERATURE)
    if temperature is not None and temperature.value.known:
        value = temperature.value.value
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value != 1:
            yield Problem(
                "thinking",
                temperature.holder,
                f"{label} answers 400 to {temperature.key}={value} with extended thinking on: "
                f"thinking takes no temperature but 1 ({EXTENDED_THINKING}); remove "
                f"{temperature.key}, or turn thinking off",
            )


def _count(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _prefill(ctx: FileContext, site: CallSite, facts: Facts, label: str) -> Iterable[Problem]:
    from claude_migrate.analysis.turns import last_turns, may_end_with

    if facts.prefill is not False:
        return
    turns = last_turns(ctx, site)
    assistant = may_end_with(turns, "assistant")
    if not assistant:
        return
    entry = site.params.get("messages")
    assert entry is not None and turns is not None
    sure = len(turns) == len(assistant)
    added = [
        ctx.range(t.node).start.line
        for t in assistant
        if t.node is not None and not _within(ctx, t.node, entry.holder)
    ]
    where = ""
    if added:
        lines = ", ".join(ctx.line_label(line) for line in sorted(set(added)))
        where = f" (the assistant turn added on line{'s' if len(set(added)) > 1 else ''} {lines})"
    ending = "ending" if sure else "that may end"
    yield Problem(
        "prefill",
        entry.holder,
        f"{label} answers 400 to a request {ending} in a prefilled assistant turn{where}"
        f"{_cite(facts, 'prefill')}; ask for the format in the system prompt or use structured "
        "outputs (output_config.format)",
    )


def _within(ctx: FileContext, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    start, end = ctx.span(node)
    outer_start, outer_end = ctx.span(outer)
    return outer_start <= start and end <= outer_end


def _max_tokens(ctx: FileContext, site: CallSite, facts: Facts, label: str) -> Iterable[Problem]:
    if facts.max_tokens is None:
        return
    entry = site.param(MAX_TOKENS)
    if entry is None or not entry.value.known:
        return
    value = entry.value.value
    if isinstance(value, bool) or not isinstance(value, int) or value <= facts.max_tokens:
        return
    edits = []
    node = entry.value.node
    # A constant may feed other calls: only a value written in this call is rewritten.
    if node is not None and _within(ctx, node, site.node):
        edits = [ctx.replace(node, str(facts.max_tokens))]
    via = f" (from {entry.value.via})" if entry.value.via else ""
    yield Problem(
        "max-tokens",
        entry.holder,
        f"{entry.key}={value}{via} is above the limit of {label}, {facts.max_tokens}"
        f"{_cite(facts, 'max-tokens')}",
        f"{entry.key}={facts.max_tokens}",
        edits,
        Applicability.SAFE,
    )


def _tools(ctx: FileContext, site: CallSite, facts: Facts, label: str) -> Iterable[Problem]:
    from claude_migrate.policy import model_facts

    if not facts.dropped_tools:
        return
    entry = site.params.get("tools")
    if entry is None:
        return
    if not isinstance(entry.value_node, cst.List):
        yield from _named_tools(ctx, site, entry, facts, label)
        return
    known = model_facts.load()
    values = ctx.resolver.values
    for element in entry.value_node.elements:
        if not isinstance(element, cst.Element) or not isinstance(element.value, cst.Dict):
            continue
        tool = values.entries_of_dict(element.value, site.record.scope)
        kind = tool.get("type") if tool is not None else None
        if kind is None or not kind.value.known or kind.value.value not in facts.dropped_tools:
            continue
        version = known.tools[kind.value.value]
        edits: list[Edit] = []
        name = tool.get("name") if tool is not None else None
        if kind.value.node is not None and _within(ctx, kind.value.node, element):
            edits.append(
                ctx.replace(kind.value.node, string_literal(kind.value.node, version.replacement))
            )
            if version.replacement_name:
                if (
                    name is None
                    or name.value.node is None
                    or not _within(ctx, name.value.node, element)
                ):
                    edits = []
                elif name.value.value != version.replacement_name:
                    edits.append(
                        ctx.replace(
                            name.value.node,
                            string_literal(name.value.node, version.replacement_name),
                        )
                    )
        note = f"; {version.note}" if version.note else ""
        yield Problem(
            "tool",
            element,
            f"{label} no longer takes the {version.type} tool{_cite(facts, 'dropped-tools')}: "
            f"send {version.replacement}{note}",
            f"{version.type} -> {version.replacement}",
            edits,
        )


def _named_tools(
    ctx: FileContext, site: CallSite, entry: Entry, facts: Facts, label: str
) -> Iterable[Problem]:
    """Return a problem with no repair for `tools=TOOLS` where the module assigns `TOOLS` once,
    a list display, holding a tool version the model no longer takes: other calls may read the
    list too, so it is not edited for this one."""
    from claude_migrate.policy import model_facts

    node = entry.value_node
    module = ctx.index.module_scope
    if not isinstance(node, cst.Name) or module is None:
        return
    here = site.record.scope.function()
    if here is not module and node.value in here.bindings:
        return  # a local of the call's function
    bindings = [b for b in module.bindings.get(node.value, []) if b.kind != "annotation"]
    if len(bindings) != 1 or bindings[0].kind != "assign":
        return
    listed = bindings[0].value
    if not isinstance(listed, cst.List):
        return
    for element in listed.elements:
        if not isinstance(element, cst.Element) or not isinstance(element.value, cst.Dict):
            continue
        tool = ctx.resolver.values.entries_of_dict(element.value, module)
        kind = tool.get("type") if tool is not None else None
        if kind is None or not kind.value.known or kind.value.value not in facts.dropped_tools:
            continue
        version = model_facts.load().tools[kind.value.value]
        line = ctx.range(element).start.line
        note = f" ({version.note})" if version.note else ""
        yield Problem(
            "tool",
            entry.holder,
            f"{label} no longer takes the {version.type} tool{_cite(facts, 'dropped-tools')}, "
            f"which {node.value} (line {line}) sends: send {version.replacement} there{note}, "
            f"once every call reading {node.value} takes it",
        )
        return


def _betas(ctx: FileContext, site: CallSite, facts: Facts, label: str) -> Iterable[Problem]:
    if not facts.dropped_betas:
        return
    cite = _cite(facts, "dropped-betas")
    betas = site.params.get("betas")
    if betas is not None and isinstance(betas.value_node, cst.List):
        elements = list(betas.value_node.elements)
        for element in elements:
            value = ctx.resolver.values.value(element.value, site.record.scope)
            if value.known and value.value in facts.dropped_betas:
                removal = None
                if len(elements) > 1:
                    removal = remove_elements(ctx, betas.value_node, [element])
                elif betas.container is not None:
                    removal = remove_elements(ctx, betas.container, [betas.holder])
                yield Problem(
                    "beta",
                    element,
                    f"{label} no longer takes the {value.value} beta{cite}: remove it",
                    f"remove the {value.value} beta",
                    [removal] if removal is not None else [],
                    Applicability.SAFE,
                )
    headers = site.params.get("extra_headers", "headers")
    if headers is None:
        return
    table = ctx.resolver.values.nested(headers, site.record.scope)
    beta = table.get(BETA_HEADER) if table is not None else None
    if beta is None or not beta.value.known or not isinstance(beta.value.value, str):
        return
    listed = [b.strip() for b in beta.value.value.split(",")]
    dropped = [b for b in listed if b in facts.dropped_betas]
    if not dropped:
        return
    kept = [b for b in listed if b not in facts.dropped_betas]
    edits: list[Edit] = []
    if beta.value.node is not None and _within(ctx, beta.value.node, site.node):
        if kept:
            edits = [ctx.replace(beta.value.node, string_literal(beta.value.node, ",".join(kept)))]
        elif beta.container is not None:
            # The header was the dict's only entry: the whole argument goes.
            alone = (
                beta.container is headers.value_node
                and isinstance(beta.container, cst.Dict)
                and len(beta.container.elements) == 1
                and headers.container is site.node
            )
            if alone:
                removal = remove_elements(ctx, site.node, [headers.holder])
            else:
                removal = remove_elements(ctx, beta.container, [beta.holder])
            edits = [removal] if removal is not None else []
    yield Problem(
        "beta",
        beta.holder,
        f"{label} no longer takes the {', '.join(dropped)} beta{cite}: remove it",
        f"remove the {', '.join(dropped)} beta",
        edits,
        Applicability.SAFE,
    )


FORCING_TOOL_CHOICES = ("any", "tool")
BEDROCK_CHAT_MODELS = ("langchain:ChatBedrock", "langchain:ChatBedrockConverse")


def _tool_choice(ctx: FileContext, site: CallSite, facts: Facts, label: str) -> Iterable[Problem]:
    if facts.forced_tool_choice is not False:
        return
    entry = site.params.get("tool_choice")
    if entry is None:
        return
    config = ctx.resolver.values.nested(entry, site.record.scope)
    kind = config.get("type") if config is not None else None
    if kind is None or not kind.value.known or kind.value.value not in FORCING_TOOL_CHOICES:
        return
    # {"type": "auto"} keeps the request valid but lets the model answer without the tool:
    # behaviour changes, so the fix is unsafe.
    edits: list[Edit] = []
    forced = f"tool_choice={{'type': {kind.value.value!r}}}"
    whole = isinstance(entry.value_node, cst.Dict) and _within(ctx, entry.value_node, site.node)
    if whole:
        edits = [ctx.replace(entry.value_node, '{"type": "auto"}')]
    yield Problem(
        "tool-choice",
        entry.holder,
        f"{label} answers 400 to a forced {forced}{_cite(facts, 'forced-tool-choice')}; "
        'use {"type": "auto"} and ask for the tool in the prompt',
        'tool_choice={"type": "auto"} (the model may answer without the tool)',
        edits,
    )


def _bound_tool_choice(
    ctx: FileContext, site: CallSite, facts: Facts, label: str
) -> Iterable[Problem]:
    """A forcing `tool_choice` a LangChain chat model is given by `.bind_tools()`.

    langchain-anthropic's `bind_tools` drops a forced choice when the model is built with
    `thinking` (and warns): such a request is not read here. langchain-aws's `ChatBedrock` and
    `ChatBedrockConverse` keep it (`ChatBedrock` refuses the pair only for the models its
    `thinking_forced_tool_use_unsupported` lists, langchain_aws/utils.py 1.7).
    """
    from claude_migrate.analysis.bound_tools import forced_bindings
    from claude_migrate.analysis.expectations import asserted_parameter
    from claude_migrate.targets.langchain import LANGCHAIN

    if facts.forced_tool_choice is not False or site.family != LANGCHAIN:
        return
    thinks = site.params.get("thinking") is not None or site.params.may_have("thinking")
    if thinks and site.target.key not in BEDROCK_CHAT_MODELS:
        return
    for binding in forced_bindings(ctx, site):
        line = ctx.range(binding.call).start.line
        message = (
            f"{label} answers 400 to a forced tool_choice ({binding.text}, bound by "
            f".bind_tools() on line {line}){_cite(facts, 'forced-tool-choice')}; "
        )
        asserted = asserted_parameter(ctx, site, "tool_choice")
        if asserted:
            message += f"the test asserts on tool_choice (line {asserted}): change both by hand"
            yield Problem("tool-choice", binding.value, message)
            continue
        yield Problem(
            "tool-choice",
            binding.value,
            message + 'use tool_choice="auto" and ask for the tool in the prompt',
            'tool_choice="auto" in .bind_tools() (the model may answer without the tool)',
            [ctx.replace(binding.value, '"auto"')],
        )


def problems(
    ctx: FileContext,
    site: CallSite,
    facts: Facts,
    label: str,
    *,
    prefer: str = "temperature",
    yielding: bool = True,
    legacy: bool = False,
    unseen: bool = False,
) -> list[Problem]:
    """Return what this call carries that a model with `facts` refuses.

    `yielding` leaves sampling parameters CM107 already reports to CM107 (a CM302 fix that must
    stand on its own passes False). A legacy completions call is CM301's, unless `legacy` says
    it is being rewritten into a Messages call (CM301 asking about its own rewrite). `unseen`
    (a model moving to `facts`' model) also reports what the request may carry from a value the
    analysis cannot read, where the new model refuses it: no fix can vouch for that request.
    """
    if site.legacy and not legacy:
        return []  # CM301 migrates the whole call
    if not site.target.model_facts:
        return []  # a layer in between adapts the request to the model
    found: list[Problem] = []
    found.extend(_sampling(ctx, site, facts, label, prefer, yielding, unseen))
    found.extend(_thinking(ctx, site, facts, label, unseen))
    found.extend(_thinking_limits(ctx, site, facts, label))
    found.extend(_prefill(ctx, site, facts, label))
    found.extend(_max_tokens(ctx, site, facts, label))
    found.extend(_tools(ctx, site, facts, label))
    found.extend(_betas(ctx, site, facts, label))
    found.extend(_tool_choice(ctx, site, facts, label))
    found.extend(_bound_tool_choice(ctx, site, facts, label))
    return found


def edits_for(ctx: FileContext, found: Sequence[Problem]) -> list[Edit] | None:
    """Return the edits repairing every problem (removals merged per container), or None."""
    edits: list[Edit] = []
    by_container: dict[int, tuple[cst.CSTNode, list[cst.CSTNode]]] = {}
    for problem in found:
        if not problem.fixable:
            return None
        edits.extend(problem.edits)
        for container, holder in problem.removals:
            by_container.setdefault(id(container), (container, []))[1].append(holder)
    for container, holders in by_container.values():
        removal = remove_elements(ctx, container, holders)
        if removal is None:
            return None
        edits.append(removal)
    return edits


def facts_of(ctx: FileContext, site: CallSite) -> tuple[Facts, str, Entry] | None:
    """Return the facts of the model a call names, a label for messages, and the model entry."""
    from claude_migrate.policy import model_facts

    entry = model_entry(ctx, site)
    if entry is None or not entry.value.known or not isinstance(entry.value.value, str):
        return None
    spelling = ctx.facts.catalogue.lookup(entry.value.value)
    if spelling is None:
        return None
    facts = model_facts.load().for_model(spelling.model.id)
    if facts is None:
        return None
    return facts, repr(entry.value.value), entry
