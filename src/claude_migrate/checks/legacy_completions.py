"""CM301 legacy-completions: the Text Completions API, gone from today's SDK and API.

What changed upstream: the `\\n\\nHuman: ... \\n\\nAssistant:` Text Completions API
(`client.completions.create`, `POST /v1/complete`, the `HUMAN_PROMPT` / `AI_PROMPT` constants,
`max_tokens_to_sample`) and the pre-0.3 SDK (`anthropic.Client(key).completion(...)`) were
replaced by the Messages API; current SDKs have none of them (anthropic 2.x exports neither
`completions` nor `HUMAN_PROMPT`).
Finds: every SDK `completions.create`, every raw HTTP POST to `/v1/complete`, every Bedrock
`invoke_model` body in the legacy `"prompt"` format, every pre-0.3 `Client.completion*` call,
`max_tokens_to_sample` on a Messages call, `HUMAN_PROMPT` / `AI_PROMPT` imported from (or read
on) `anthropic`, and LangChain's legacy classes (`langchain.chat_models.ChatAnthropic`,
`langchain.llms.Anthropic`, `langchain_community`'s `ChatAnthropic` and `Anthropic`), which call
`completions.create` (langchain_community/llms/anthropic.py): reported with the move to
`langchain_anthropic.ChatAnthropic`, no fix.
Writes instead (unsafe: the request and the response change shape), for the common shape only:
    r = c.completions.create(model=M, max_tokens_to_sample=N,
                             prompt=f"{HUMAN_PROMPT} {q}{AI_PROMPT}", ...)
    r.completion
becomes
    r = c.messages.create(model=M, max_tokens=N,
                          messages=[{"role": "user", "content": q}], ...)
    r.content[0].text
when every use of `r` in the function is a read of `.completion` (or `.id` / `.model`).
`max_tokens_to_sample` on a Messages call becomes `max_tokens`; a `HUMAN_PROMPT` / `AI_PROMPT`
import nothing uses any more is removed. Everything else is reported with guidance, no fix.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import remove_elements, remove_line, string_literal
from claude_migrate.analysis.retirements import compose, retired_target
from claude_migrate.analysis.scope import Scope
from claude_migrate.analysis.walk import walk
from claude_migrate.checks.base import Check, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import BEDROCK

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

LEGACY_CONSTANTS = ("anthropic.HUMAN_PROMPT", "anthropic.AI_PROMPT")
HUMAN, AI = LEGACY_CONSTANTS
# Methods of the pre-0.3 SDK's `anthropic.Client`.
PRE_03_METHODS = ("completion", "completion_stream", "acompletion", "acompletion_stream")
PRE_03_TARGETS = ("sdk:completion", "sdk:completion_stream")
MESSAGES_TARGETS = (
    "sdk:messages.create",
    "sdk:messages.stream",
    "sdk:beta.messages.create",
    "sdk:beta.messages.stream",
    "http:messages",
)
# Attributes a Message has with the meaning a Completion's had.
SAME_ON_BOTH = ("completion", "id", "model")
MESSAGES_API = (
    'client.messages.create(model=..., max_tokens=..., messages=[{"role": "user", '
    '"content": ...}]) and read .content[0].text'
)


LANGCHAIN_MESSAGES = "langchain_anthropic.ChatAnthropic"
LANGCHAIN_BEDROCK_MESSAGES = "langchain_aws.ChatBedrock"


def _langchain_message(site: CallSite) -> str:
    """Return what to say of a legacy LangChain class's call, and what replaces it."""
    if site.target.key == "langchain:Bedrock":
        # langchain_community/llms/bedrock.py sends Claude a Text Completions body and refuses
        # Claude 3 models; langchain-aws's ChatBedrock sends the Messages format.
        return (
            f"{_class_name(site)} is LangChain's legacy Bedrock LLM on the Text Completions "
            'format (a body with "prompt", which current models do not serve); move to '
            f"{LANGCHAIN_BEDROCK_MESSAGES} (package langchain-aws), which takes `max_tokens` "
            "in model_kwargs and a current model"
        )
    return (
        f"{_class_name(site)} is LangChain's legacy class on the Text Completions "
        "API (completions.create, which current SDKs lack and whose endpoint does "
        f"not serve current models); move to {LANGCHAIN_MESSAGES} (package "
        "langchain-anthropic), which takes `max_tokens` and a current model"
    )


def _class_name(site: CallSite) -> str:
    """Return the legacy LangChain class a call constructs, as the code names it."""
    func = site.node.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return "this class"


class NoRewrite(Exception):
    """The call is not the common shape; the message says why."""


def _is_load(name: cst.Name, parent: cst.CSTNode | None) -> bool:
    """Return whether a Name node reads a variable (not an attribute, keyword or definition)."""
    if isinstance(parent, cst.Attribute):
        return parent.value is name
    if isinstance(parent, cst.Arg):
        return parent.keyword is not name
    return not isinstance(
        parent,
        (cst.ImportAlias, cst.AsName, cst.FunctionDef, cst.ClassDef, cst.Param, cst.NameItem),
    )


class LegacyCompletionsCheck(Check["FileContext"]):
    code = "CM301"
    name = "legacy-completions"
    summary = "the legacy Text Completions API (completions.create, /v1/complete, HUMAN_PROMPT)"
    fix_applicability = Applicability.UNSAFE

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        # The sites, pre-0.3 `Client.completion*` calls, and the legacy prompt constants.
        return call_sites(callees=frozenset(PRE_03_METHODS), texts=("HUMAN_PROMPT", "AI_PROMPT"))

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        legacy_spans: list[tuple[int, int]] = []
        for site in ctx.sites:
            key = site.target.key
            if key == "sdk:completions.create":
                legacy_spans.append(ctx.span(site.node))
                yield self._sdk_completion(ctx, site)
            elif key in PRE_03_TARGETS:
                legacy_spans.append(ctx.span(site.node))
                yield self._pre_03_call(ctx, site)
            elif key == "http:complete":
                legacy_spans.append(ctx.span(site.node))
                yield ctx.diagnostic(
                    self,
                    site.node,
                    "POST /v1/complete is the legacy Text Completions endpoint; POST to "
                    '/v1/messages with "messages": [{"role": "user", "content": ...}] and '
                    '"max_tokens", and read content[0].text',
                    None,
                    site.record.scope.qualname,
                    fingerprint_of=callee(site),
                )
            elif key in ("langchain:legacy", "langchain:Bedrock"):
                legacy_spans.append(ctx.span(site.node))
                yield ctx.diagnostic(
                    self,
                    site.node,
                    _langchain_message(site),
                    None,
                    site.record.scope.qualname,
                    fingerprint_of=callee(site),
                )
            elif (
                site.family == BEDROCK
                and site.target.location == "json-body"
                and (site.params.get("prompt") is not None or "prompt" in site.params.replaceable)
            ):
                legacy_spans.append(ctx.span(site.node))
                yield ctx.diagnostic(
                    self,
                    site.node,
                    'a Bedrock body with "prompt" is the legacy Text Completions format; send '
                    'the Messages format: "anthropic_version": "bedrock-2023-05-31", '
                    '"messages": [{"role": "user", "content": ...}], "max_tokens"',
                    None,
                    site.record.scope.qualname,
                    fingerprint_of=callee(site),
                )
            elif key in MESSAGES_TARGETS or (
                site.family == BEDROCK and site.target.location == "json-body"
            ):
                found = self._max_tokens_to_sample(ctx, site)
                if found is not None:
                    yield found
        if "HUMAN_PROMPT" in ctx.source.text or "AI_PROMPT" in ctx.source.text:
            yield from self._constants(ctx, legacy_spans)

    # completions.create ---------------------------------------------------------------------
    def _sdk_completion(self, ctx: FileContext, site: CallSite) -> Diagnostic:
        message = "completions.create() is the legacy Text Completions API, gone from the SDK"
        try:
            edits = self._rewrite(ctx, site)
            _refuse_for_doubles(ctx)
        except NoRewrite as why:
            return ctx.diagnostic(
                self,
                site.node,
                f"{message}; use {MESSAGES_API} (no automatic rewrite: {why})",
                None,
                site.record.scope.qualname,
                fingerprint_of=callee(site),
            )
        description = "rewrite as messages.create(messages=[...]) and read .content[0].text"
        advice = f"{message}; use messages.create(messages=[...]) and read .content[0].text"
        moved = self._model_move(ctx, site)
        if isinstance(moved, str):
            advice += f"; {moved}"
        elif moved is not None:
            more, changes = moved
            edits.extend(more)
            description += "; " + "; ".join(changes)
            advice += "; " + "; ".join(changes)
        fix = ctx.fix(Applicability.UNSAFE, description, *edits)
        return ctx.diagnostic(
            self, site.node, advice, fix, site.record.scope.qualname, fingerprint_of=callee(site)
        )

    def _model_move(
        self, ctx: FileContext, site: CallSite
    ) -> tuple[list[Edit], list[str]] | str | None:
        """Return the edits moving a retired model to its replacement inside the rewrite (CM302
        never rewrites the model of a legacy call on its own), or why the model stays."""
        moved = retired_target(ctx, site)
        if moved is None:
            return None
        entry, target = moved
        composed = compose(ctx, site, entry, target, migrating=True)
        if isinstance(composed, str):
            return f"the retired model {entry.value.value!r} stays (CM302 reports it: {composed})"
        edits, changes, _where = composed
        return edits, [f"the retired model {entry.value.value!r} becomes {target!r}", *changes]

    def _rewrite(self, ctx: FileContext, site: CallSite) -> list[Edit]:
        call = site.node
        scope = site.record.scope
        func = call.func
        if not (
            isinstance(func, cst.Attribute)
            and isinstance(func.value, cst.Attribute)
            and func.value.attr.value == "completions"
        ):
            raise NoRewrite("the method is not reached as `<client>.completions.create`")
        arguments: dict[str, cst.Arg] = {}
        for arg in call.args:
            if arg.keyword is None:
                raise NoRewrite("it passes positional or ** arguments")
            arguments[arg.keyword.value] = arg
        stream = arguments.get("stream")
        if stream is not None and not (
            isinstance(stream.value, cst.Name) and stream.value.value == "False"
        ):
            raise NoRewrite("it streams; the Messages stream yields events: use messages.stream()")
        budget = arguments.get("max_tokens_to_sample")
        if budget is None:
            raise NoRewrite("it has no max_tokens_to_sample, and messages.create needs max_tokens")
        prompt = arguments.get("prompt")
        if prompt is None:
            raise NoRewrite("it has no prompt= argument")
        content = self._content(ctx, prompt.value, scope)
        assert budget.keyword is not None and prompt.keyword is not None  # read by keyword above
        edits = [
            ctx.replace(func.value.attr, "messages"),
            ctx.replace(budget.keyword, "max_tokens"),
            ctx.replace(prompt.keyword, "messages"),
            ctx.replace(prompt.value, f'[{{"role": "user", "content": {content}}}]'),
        ]
        dropped = []
        for name, arg in arguments.items():
            if name == "prompt" or not self._mentions_constants(ctx, arg.value, scope):
                continue
            if name == "stop_sequences" and self._only_human_prompt(ctx, arg.value, scope):
                dropped.append(arg)  # the Messages API ends turns by itself
                continue
            raise NoRewrite(f"its {name}= uses HUMAN_PROMPT/AI_PROMPT")
        if dropped:
            removal = remove_elements(ctx, call, dropped)
            if removal is None:
                raise NoRewrite("its stop_sequences cannot be removed")
            edits.append(removal)
        edits.extend(self._result_reads(ctx, site))
        return edits

    def _content(self, ctx: FileContext, prompt: cst.BaseExpression, scope: Scope) -> str:
        """Return the source of the user turn inside f"{HUMAN_PROMPT} ...{AI_PROMPT}"."""
        if not isinstance(prompt, cst.FormattedString):
            raise NoRewrite('the prompt is not an f-string f"{HUMAN_PROMPT} ...{AI_PROMPT}"')
        parts = list(prompt.parts)
        if len(parts) < 3 or not (
            self._is_constant(ctx, parts[0], scope, HUMAN)
            and self._is_constant(ctx, parts[-1], scope, AI)
        ):
            raise NoRewrite('the prompt is not f"{HUMAN_PROMPT} ...{AI_PROMPT}"')
        middle = parts[1:-1]
        texts = [ctx.code(part) for part in middle]
        # The space after HUMAN_PROMPT (and any before AI_PROMPT) only separated the turns.
        if isinstance(middle[0], cst.FormattedStringText):
            texts[0] = texts[0].lstrip(" ")
        if isinstance(middle[-1], cst.FormattedStringText):
            texts[-1] = texts[-1].rstrip(" ")
        kept = [(part, text) for part, text in zip(middle, texts, strict=True) if text]
        if not kept:
            raise NoRewrite("the prompt has no user turn")
        middle, texts = [part for part, _ in kept], [text for _, text in kept]
        for part in middle:
            if isinstance(part, cst.FormattedStringExpression) and self._mentions_constants(
                ctx, part.expression, scope
            ):
                raise NoRewrite("the prompt holds more than one turn")
        if any(
            isinstance(part, cst.FormattedStringText)
            and ("Human:" in part.value or "Assistant:" in part.value)
            for part in middle
        ):
            raise NoRewrite("the prompt holds more than one turn")
        if len(middle) == 1 and isinstance(middle[0], cst.FormattedStringExpression):
            only = middle[0]
            if only.conversion is None and only.format_spec is None and only.equal is None:
                return ctx.code(only.expression)
        start, end = prompt.start, prompt.end
        if not any(isinstance(part, cst.FormattedStringExpression) for part in middle):
            start = start.replace("f", "").replace("F", "")
        return start + "".join(texts) + end

    def _is_constant(
        self, ctx: FileContext, part: cst.BaseFormattedStringContent, scope: Scope, qualname: str
    ) -> bool:
        return (
            isinstance(part, cst.FormattedStringExpression)
            and part.conversion is None
            and part.format_spec is None
            and ctx.resolver.qualname(part.expression, scope) == qualname
        )

    def _constant_refs(
        self, ctx: FileContext, node: cst.CSTNode, scope: Scope
    ) -> Iterator[cst.BaseExpression]:
        found: list[cst.BaseExpression] = []

        class Visitor(cst.CSTVisitor):
            def visit_Name(self, name: cst.Name) -> None:
                if name.value.endswith("_PROMPT") and ctx.resolver.qualname(name, scope) in (
                    LEGACY_CONSTANTS
                ):
                    found.append(name)

            def visit_Attribute(self, attribute: cst.Attribute) -> bool:
                if (
                    attribute.attr.value.endswith("_PROMPT")
                    and ctx.resolver.qualname(attribute, scope) in LEGACY_CONSTANTS
                ):
                    found.append(attribute)
                    return False
                return True

        walk(node, Visitor())
        return iter(found)

    def _mentions_constants(self, ctx: FileContext, node: cst.CSTNode, scope: Scope) -> bool:
        return next(self._constant_refs(ctx, node, scope), None) is not None

    def _only_human_prompt(self, ctx: FileContext, node: cst.BaseExpression, scope: Scope) -> bool:
        return isinstance(node, (cst.List, cst.Tuple)) and all(
            isinstance(e, cst.Element) and ctx.resolver.qualname(e.value, scope) == HUMAN
            for e in node.elements
        )

    def _result_reads(self, ctx: FileContext, site: CallSite) -> list[Edit]:
        """Return the edits turning reads of `.completion` on the call's result into
        `.content[0].text`; raise NoRewrite if the result goes anywhere else."""
        statement = site.record.statement
        if statement is None:
            raise NoRewrite("the call is not inside a statement we can follow")
        node: cst.CSTNode = site.node
        parent = ctx.nodes.parent(node)
        if isinstance(parent, cst.Await):
            node, parent = parent, ctx.nodes.parent(parent)
        if isinstance(parent, cst.Attribute) and parent.value is node:
            return self._read(ctx, parent)
        if isinstance(parent, cst.Expr):
            return []  # the result is not used
        if (
            isinstance(parent, cst.Assign)
            and parent.value is node
            and len(parent.targets) == 1
            and isinstance(parent.targets[0].target, cst.Name)
        ):
            return self._reads_of(ctx, site, parent.targets[0].target)
        if isinstance(parent, cst.Return):
            raise NoRewrite("its result is returned, and callers may read .completion")
        raise NoRewrite("its result is used in a way the rewrite cannot follow")

    def _read(self, ctx: FileContext, attribute: cst.Attribute) -> list[Edit]:
        name = attribute.attr.value
        if name == "completion":
            return [ctx.replace(attribute.attr, "content[0].text")]
        if name in SAME_ON_BOTH:
            return []
        raise NoRewrite(f"its result's .{name} has no same-meaning Message attribute")

    def _reads_of(self, ctx: FileContext, site: CallSite, target: cst.Name) -> list[Edit]:
        function = site.record.scope.function()
        bindings = [b for b in function.bindings.get(target.value, []) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].node is not target:
            raise NoRewrite(f"{target.value} is assigned more than once")
        rebinding = {
            id(scope.node)
            for scope in ctx.index.scopes
            if scope is not function and target.value in scope.bindings
        }
        edits: list[Edit] = []
        uses: list[cst.Name] = []

        class Visitor(cst.CSTVisitor):
            reads_tokens = False  # names only: the walk leaves out whitespace and operators

            def on_visit(self, node: cst.CSTNode) -> bool:
                if id(node) in rebinding:
                    return False  # a nested scope with its own variable of that name
                if (
                    isinstance(node, cst.Name)
                    and node.value == target.value
                    and node is not target
                    and _is_load(node, ctx.nodes.parent(node))
                ):
                    uses.append(node)
                return True

        walk(function.node, Visitor())
        for use in uses:
            parent = ctx.nodes.parent(use)
            if isinstance(parent, cst.Attribute) and parent.value is use:
                edits.extend(self._read(ctx, parent))
            else:
                raise NoRewrite(f"its result {target.value} is passed on, not only read")
        return edits

    # max_tokens_to_sample on a Messages call --------------------------------------------------
    def _max_tokens_to_sample(self, ctx: FileContext, site: CallSite) -> Diagnostic | None:
        entry = site.params.get("max_tokens_to_sample")
        if entry is None:
            return None
        fix = None
        if site.params.get("max_tokens") is not None:
            if entry.container is not None:
                edit = remove_elements(ctx, entry.container, [entry.holder])
                if edit is not None:
                    fix = ctx.fix(Applicability.UNSAFE, "remove max_tokens_to_sample", edit)
        elif isinstance(entry.holder, cst.Arg) and entry.holder.keyword is not None:
            fix = ctx.fix(
                Applicability.UNSAFE,
                "rename max_tokens_to_sample to max_tokens",
                ctx.replace(entry.holder.keyword, "max_tokens"),
            )
        elif isinstance(entry.holder, cst.DictElement):
            fix = ctx.fix(
                Applicability.UNSAFE,
                "rename max_tokens_to_sample to max_tokens",
                ctx.replace(entry.holder.key, string_literal(entry.holder.key, "max_tokens")),
            )
        return ctx.diagnostic(
            self,
            entry.holder,
            "max_tokens_to_sample is the legacy Text Completions name; the Messages API "
            "takes max_tokens",
            fix,
            site.record.scope.qualname,
        )

    # anthropic.Client(key).completion(...) ----------------------------------------------------
    def _pre_03_call(self, ctx: FileContext, site: CallSite) -> Diagnostic:
        func = site.node.func
        method = func.attr.value if isinstance(func, cst.Attribute) else "completion"
        return ctx.diagnostic(
            self,
            site.node,
            f"Client.{method}() is the pre-0.3 SDK's Text Completions call; "
            f"create anthropic.Anthropic() and use {MESSAGES_API}",
            None,
            site.record.scope.qualname,
        )

    # HUMAN_PROMPT / AI_PROMPT -------------------------------------------------------------------
    def _constants(
        self, ctx: FileContext, legacy_spans: list[tuple[int, int]]
    ) -> Iterator[Diagnostic]:
        imports: list[tuple[cst.ImportFrom, list[cst.ImportAlias], Scope]] = []
        attributes: list[tuple[cst.Attribute, Scope]] = []
        loads: dict[str, list[cst.Name]] = {}
        scopes = {id(scope.node): scope for scope in ctx.index.scopes}
        stack: list[Scope] = []
        parent_stack: list[cst.CSTNode] = []
        resolver = ctx.resolver

        class Visitor(cst.CSTVisitor):
            reads_tokens = False  # imports, attributes and names only (their parents too)

            def on_visit(self, node: cst.CSTNode) -> bool:
                scope = scopes.get(id(node))
                if scope is not None:
                    stack.append(scope)
                parent = parent_stack[-1] if parent_stack else None
                parent_stack.append(node)
                current = stack[-1]
                if isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar):
                    module = node.module
                    if (
                        isinstance(module, cst.Name)
                        and module.value == "anthropic"
                        and not node.relative
                    ):
                        legacy = [
                            alias
                            for alias in node.names
                            if isinstance(alias.name, cst.Name)
                            and f"anthropic.{alias.name.value}" in LEGACY_CONSTANTS
                        ]
                        if legacy:
                            imports.append((node, legacy, current))
                    return False
                if isinstance(node, cst.Import):
                    return False
                if (
                    isinstance(node, cst.Attribute)
                    and node.attr.value.endswith("_PROMPT")
                    and resolver.qualname(node, current) in LEGACY_CONSTANTS
                ):
                    attributes.append((node, current))
                    return False
                if isinstance(node, cst.Name) and _is_load(node, parent):
                    loads.setdefault(node.value, []).append(node)
                return True

            def on_leave(self, original_node: cst.CSTNode) -> None:
                parent_stack.pop()
                if scopes.get(id(original_node)) is not None:
                    stack.pop()

        walk(ctx.module, Visitor())

        def inside_legacy_call(node: cst.CSTNode) -> bool:
            start, end = ctx.span(node)
            return any(lo <= start and end <= hi for lo, hi in legacy_spans)

        for attribute, scope in attributes:
            if inside_legacy_call(attribute):
                continue
            yield ctx.diagnostic(
                self,
                attribute,
                f"{ctx.code(attribute)} was removed from the SDK with the Text Completions API; "
                'build messages=[{"role": "user", "content": ...}] instead',
                None,
                scope.qualname,
            )
        for statement, legacy, scope in imports:
            yield self._import(ctx, statement, legacy, scope, loads)

    def _import(
        self,
        ctx: FileContext,
        statement: cst.ImportFrom,
        legacy: list[cst.ImportAlias],
        scope: Scope,
        loads: dict[str, list[cst.Name]],
    ) -> Diagnostic:
        names = " and ".join(_alias_name(a) for a in legacy)
        message = (
            f"{names} {'were' if len(legacy) > 1 else 'was'} removed from the anthropic SDK "
            "with the Text Completions API"
        )
        used = {_alias_name(alias): loads.get(_local_name(alias), []) for alias in legacy}
        lines = sorted({ctx.range(node).start.line for uses in used.values() for node in uses})
        if lines:
            where = ", ".join(ctx.line_label(line) for line in lines)
            message += (
                f"; still used on line{'s' if len(lines) > 1 else ''} {where}: build "
                'messages=[{"role": "user", "content": ...}] instead'
            )
            return ctx.diagnostic(self, legacy[0], message, None, scope.qualname)
        fix = None
        if not isinstance(statement.names, cst.ImportStar) and len(legacy) < len(statement.names):
            edit = remove_elements(ctx, statement, legacy)
            if edit is not None:
                fix = ctx.fix(Applicability.UNSAFE, f"remove the unused {names} import", edit)
        else:
            edit = remove_line(ctx, statement)
            if edit is not None:
                fix = ctx.fix(Applicability.UNSAFE, f"remove the unused {names} import", edit)
        return ctx.diagnostic(
            self, legacy[0], message + "; nothing uses it any more", fix, scope.qualname
        )


def _refuse_for_doubles(ctx: FileContext) -> None:
    """Raise NoRewrite when the project's tests stand in for `completions.create` here."""
    from claude_migrate.analysis.doubles import describe, doubles_for

    found = doubles_for(ctx.file_path, "completions")
    if found:
        raise NoRewrite(describe(found, "completions.create").removeprefix("no fix: "))


def _alias_name(alias: cst.ImportAlias) -> str:
    """Return the imported name of `from m import name` (dotted names never occur there)."""
    name = alias.name
    return name.value if isinstance(name, cst.Name) else cst.Module([]).code_for_node(name)


def _local_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return _alias_name(alias)


def callee(site: CallSite) -> cst.CSTNode:
    """Return what a call calls: a finding about the API it uses is about that, not its arguments.

    Fixing another finding on the same call (a model, a budget) then leaves this finding's
    baseline entry matching.
    """
    call = site.node
    return call.func if isinstance(call, cst.Call) else call
