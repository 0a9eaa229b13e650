"""CM104 streaming: a Claude call that does not stream.

Finds: the SDK's `messages.create` / `beta.messages.create` without `stream=True` (or with
`stream=False`), Bedrock `invoke_model` and `converse` (their streaming
twins are `invoke_model_with_response_stream` and `converse_stream`), LiteLLM without
`stream=True`, raw HTTP bodies without `"stream": true`, and LangChain's `ChatAnthropic` /
`ChatBedrock` without `streaming=True`. Where the flag may come from `**kwargs` we cannot see,
nothing is reported. `ChatBedrockConverse` has no streaming switch (its `invoke` always calls
`converse`; streaming is the caller's `.stream()`), so it is not reported.

Writes instead (unsafe), only where the result keeps its type and the code around it behaves
the same: the statement `x = client.messages.create(...)` (or `x: T = ...`, `return ...`, and
the `await` form in an `async def`) becomes

    with client.messages.stream(...) as stream:
        x = stream.get_final_message()

(`async with` / `await stream.get_final_message()`), which returns the same `Message` (a chain
read from the result, `create(...).content[0].text`, is read from it in the body); and a
LangChain constructor gets `streaming=True`, which leaves `invoke`'s result unchanged. Any other
shape has no fix, and the message names the streaming API to use.
A legacy Text Completions call (`completions.create`, `POST /v1/complete`, a Bedrock body with
"prompt") is CM301's: its API is gone, so asking it to stream would contradict that finding.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import append_element, apply_edits, remove_elements
from claude_migrate.analysis.streams import call_streams
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, Fix
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import LANGCHAIN, SDK, STREAM

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.doubles import Double
    from claude_migrate.analysis.scope import Scope
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Keyword arguments `messages.create` takes that `messages.stream` does not (checked against the
# installed SDK by tests/test_streaming_sdk.py). `stream` itself is dropped when it is False.
CREATE_ONLY = frozenset({"stream", "stream_options"})
CONTEXT_NAME = "stream"
_TRAILING = re.compile(r"[ \t]*(#[^\r\n]*)?")


class StreamingCheck(Check["FileContext"]):
    code = "CM104"
    name = "streaming"
    summary = "a Claude call that does not stream"
    fix_applicability = Applicability.UNSAFE
    options = {
        "require": Option("bool", True, "report Claude calls that do not stream"),
    }

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        return bool(table.get("require", True))

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        reported: set[int] = set()
        doubles: list[Double] | None = None  # the project's test doubles, looked up once
        for site in ctx.sites:
            if site.legacy and site.target.key != "langchain:legacy":
                continue  # CM301 reports the whole call: its API is gone, streaming or not
            streams = call_streams(site)
            if streams is None and id(site.node) not in reported:
                found = _unstreamed_wrapper(ctx, site)
                if found is not None:
                    reported.add(id(site.node))
                    yield found_in_wrapper(self, ctx, site, *found)
                continue
            if streams is not False or id(site.node) in reported:
                continue
            # One finding per call, however many values reach it (a loop over models).
            reported.add(id(site.node))
            fix: Fix | None = None
            text = message(site)
            if site.family == SDK and not site.target.legacy and site.target.streaming_api:
                fix = stream_rewrite(ctx, site) if ".with_" not in site.target.key else None
                if fix is None and ".with_" not in site.target.key:
                    reason = _shape_refusal(ctx, site)
                    text = f"{text}; no fix: {reason}" if reason else text
                if fix is not None and doubles is None:
                    doubles = _doubles(ctx)
                refusal = _doubles_refusal(site, doubles) if fix is not None and doubles else ""
                if refusal:
                    fix, text = None, f"{text}; {refusal}"
            elif site.family == LANGCHAIN:
                fix = streaming_flag(ctx, site)
                refusal = _mocked_refusal(ctx, site) if fix is not None else ""
                if refusal:
                    fix, text = None, f"{text}; {refusal}"
            yield ctx.diagnostic(
                self,
                site.node,
                text,
                fix,
                context=site.record.scope.qualname,
                fingerprint_of=identity(ctx, site),
            )


def _unstreamed_wrapper(
    ctx: FileContext, site: CallSite
) -> tuple[str, list[tuple[str, int]]] | None:
    """Return the wrapper a Claude call passes its `**kwargs` from, and the project's calls of
    it, when none of them passes `stream` (the project phase saw every one).

    Only `create(..., **kwargs)` with `kwargs` the function's own `**` parameter, read nowhere
    else in it (not changed, not read for a key), and no `stream` written at the call.
    """
    project = ctx.project
    call = site.node
    if project is None or not isinstance(call, cst.Call) or site.param(STREAM) is not None:
        return None
    function = site.record.scope.function()
    definition = function.node
    if not isinstance(definition, cst.FunctionDef):
        return None
    spread = [arg for arg in call.args if arg.star]
    if len(spread) != 1 or spread[0].star != "**" or not isinstance(spread[0].value, cst.Name):
        return None
    name = spread[0].value.value
    facts = project.function(project.module, function.qualname) or {}
    star = definition.params.star_kwarg
    varkw = isinstance(star, cst.Param) and star.name.value == name
    if not varkw and name not in facts.get("spread", ()):
        return None
    # A plain parameter the caller gives a dict for (`send(request)`): the function may set
    # keys other than `stream` in it (`request["messages"] = turns`).
    params = (
        *definition.params.posonly_params,
        *definition.params.params,
        *definition.params.kwonly_params,
        star,
    )
    param = next(
        (p.name for p in params if isinstance(p, cst.Param) and p.name.value == name), None
    )
    if param is None:
        return None
    start, end = ctx.span(definition)
    for node in ctx.nodes.names_spelled(name):
        inside = start <= ctx.span(node)[0] < end
        if (
            inside
            and node is not param
            and node is not spread[0].value
            and (varkw or not _sets_other_key(ctx, node))
        ):
            return None  # read or changed elsewhere in the function: it may set `stream`
    callers = facts.get("unstreamed_by")
    if not callers:
        return None
    return function.qualname, [(str(path), int(line)) for path, line in callers]


def _sets_other_key(ctx: FileContext, node: cst.Name) -> bool:
    """Return whether a name is read only to set an item other than `stream` in it
    (`request["messages"] = turns`)."""
    subscript = ctx.nodes.parent(node)
    if not isinstance(subscript, cst.Subscript) or subscript.value is not node:
        return False
    target = ctx.nodes.parent(subscript)
    if not isinstance(target, cst.AssignTarget) or target.target is not subscript:
        return False
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return False
    key = subscript.slice[0].slice.value
    return isinstance(key, cst.SimpleString) and key.evaluated_value not in ("stream", b"stream")


def found_in_wrapper(
    check: StreamingCheck,
    ctx: FileContext,
    site: CallSite,
    wrapper: str,
    callers: list[tuple[str, int]],
) -> Diagnostic:
    """Return the finding at a wrapper's Claude call that no call of the wrapper streams.

    Reported once, at the call that makes the request, where streaming is switched on; not at
    each caller. No fix: what `**kwargs` holds (a `stream_options`) is not seen.
    """
    count = "its one call" if len(callers) == 1 else f"all {len(callers)} of its calls"
    verb = "leaves" if len(callers) == 1 else "leave"
    text = (
        f"{site.target.description} does not stream: {wrapper}() passes on what its callers "
        f"give, and {count} in the project {verb} stream out; use "
        f"{site.target.streaming_api or 'stream=True'}"
    )
    related = tuple(
        (path, line, f"{wrapper}() is called here without stream") for path, line in callers
    )
    return ctx.diagnostic(
        check,
        site.node,
        text,
        None,
        context=site.record.scope.qualname,
        fingerprint_of=identity(ctx, site),
        related=related,
    )


def _doubles(ctx: FileContext) -> list[Double]:
    """Return the project's test doubles of `messages.create` that may stand in for this file."""
    from claude_migrate.analysis.doubles import doubles_for

    return doubles_for(ctx.file_path, "messages")


def _mocked_refusal(ctx: FileContext, site: CallSite) -> str:
    """Return why `streaming=True` is not set where the test configures a mock of the client
    method the model calls without it ("" if it does not)."""
    from claude_migrate.analysis.expectations import UNSTREAMED, unstreamed_double

    line, method = unstreamed_double(ctx, site)
    if not line:
        return ""
    return (
        f"no fix: the test configures a mock of the client's {method} (line {line}), which "
        f"the model no longer calls with streaming=True (it calls {UNSTREAMED[method]}): "
        "change the test with it"
    )


def _doubles_refusal(site: CallSite, found: list[Double]) -> str:
    """Return why the rewrite is refused because the project's tests stand in for the call."""
    from claude_migrate.analysis.doubles import describe

    call = "beta.messages.create" if site.target.key.startswith("sdk:beta.") else "messages.create"
    return describe(found, call)


def identity(ctx: FileContext, site: CallSite) -> str:
    """Return what makes a call a CM104 finding: what it calls and its stream flag, if written.

    The other arguments are left out, so fixing another finding on the same call (its
    temperature, its model) leaves this one's baseline entry matching.
    """
    call = site.node
    target = ctx.code(call.func) if isinstance(call, cst.Call) else ctx.code(call)
    entry = site.param(STREAM)
    return target + ("|" + ctx.code(entry.holder) if entry is not None else "")


def message(site: CallSite) -> str:
    """Return what is wrong with a non-streaming call and what to use instead."""
    entry = site.param(STREAM)
    flag = f" ({entry.key} is False)" if entry is not None else ""
    description, api = _as_written(site)
    return f"{description} does not stream{flag}; use {api}"


def _as_written(site: CallSite) -> tuple[str, str]:
    """Return the target's description and streaming spelling, named as the call names it.

    A LangChain class read as another (`ChatAnthropicBedrock` and `ChatAnthropicMantle` as
    `ChatAnthropic`, `BedrockChat` as `ChatBedrock`) is named by the class the code constructs.
    """
    from claude_migrate.targets.langchain import LANGCHAIN_CLASSES

    description, api = site.target.description, site.target.streaming_api
    func = site.node.func if isinstance(site.node, cst.Call) else None
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if (
        site.family == LANGCHAIN
        and isinstance(name, str)
        and name != description
        and LANGCHAIN_CLASSES.get(name) == site.target.key
        and api.startswith(description + "(")
    ):
        return name, name + api[len(description) :]
    return description, api


# LangChain ------------------------------------------------------------------------------------


def streaming_flag(ctx: FileContext, site: CallSite) -> Fix | None:
    """Return the fix that sets `streaming=True` on a LangChain constructor call."""
    call = site.node
    entry = site.param(STREAM)
    edit: Edit | None
    if entry is not None:
        if entry.container is not call or not isinstance(entry.holder, cst.Arg):
            return None  # set in a dict or a constant shared with other code
        edit = ctx.replace(entry.holder.value, "True")
    else:
        if any(arg.star for arg in call.args):
            return None
        edit = append_element(ctx, call, "streaming=True")
        if edit is None:
            return None
    return ctx.fix(Applicability.UNSAFE, "set streaming=True", edit)


# The SDK rewrite ------------------------------------------------------------------------------


def stream_rewrite(ctx: FileContext, site: CallSite) -> Fix | None:
    """Return the `with ....stream(...) as stream:` rewrite of a statement, when it is exact."""
    statement = site.record.statement
    small = _single_statement(statement)
    if small is None:
        return None
    value = small.value
    if value is None:
        return None
    call = site.node
    if not _evaluated_first(ctx, call, value):
        return None  # the call is part of a larger expression
    awaited = isinstance(ctx.nodes.parent(call), cst.Await)
    scope = site.record.scope
    if scope.kind not in ("function", "module"):
        return None
    client_is_async = site.client.rsplit(".", 1)[-1].startswith("Async")
    if awaited != client_is_async:
        return None  # an un-awaited coroutine, or something that is not the SDK's
    if awaited and not _in_async_function(scope):
        return None
    call_text = _stream_call_text(ctx, site)
    if call_text is None:
        return None
    name = fresh_name(ctx, scope)
    text = ctx.source.text
    start, end = ctx.span(small)
    trailing = _TRAILING.match(text, end)
    assert trailing is not None
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    indent = text[line_start:start]
    if indent.strip():
        return None
    call_start, call_end = ctx.span(call)
    inner = text[start:call_start] + f"{name}.get_final_message()" + text[call_end:end]
    newline = ctx.source.newline_at(start)
    call_text = _closing_at(call_text, indent)
    header = f"{'async with' if awaited else 'with'} {call_text} as {name}:"
    comment = trailing.group(0)
    body = indent + _block_unit(ctx, statement) + inner
    if re.match(r"[ \t]*#\s*type:", comment):
        # A type comment types the assignment; on a `with` line it would type `stream`.
        replacement = header + newline + body + comment
    else:
        replacement = header + comment + newline + body
    edit = Edit(start, trailing.end(), replacement)
    method = (
        "beta.messages.stream" if site.target.key.startswith("sdk:beta.") else "messages.stream"
    )
    return ctx.fix(
        Applicability.UNSAFE,
        f"use {'async with' if awaited else 'with'} {method}(...) as {name} and "
        f"{'await ' if awaited else ''}{name}.get_final_message()",
        edit,
    )


def _shape_refusal(ctx: FileContext, site: CallSite) -> str:
    """Return why the statement around an SDK call has no `with` rewrite ("" when the reason
    is elsewhere: the arguments, the client)."""
    call = site.node
    asynchronous = site.client.rsplit(".", 1)[-1].startswith("Async")
    if asynchronous and not isinstance(ctx.nodes.parent(call), cst.Await):
        return (
            "the coroutine is not awaited where it is made (it is handed on to "
            "asyncio.wait_for, gather or a task, or read before it is awaited), and a stream "
            "is opened by its `async with`"
        )
    small = _single_statement(site.record.statement)
    outside = site.record.scope.kind not in ("function", "module")
    if small is None or small.value is None or outside:
        return "the call's statement is not an assignment or return standing on its own line"
    if not _evaluated_first(ctx, call, small.value):
        return (
            "the call is inside a larger expression (not the statement's value, nor the head of "
            "a chain read from its result); make the request in its own statement first"
        )
    return ""


def _evaluated_first(ctx: FileContext, call: cst.CSTNode, value: cst.CSTNode) -> bool:
    """Return whether the call is the statement's value, or the head of a chain read from its
    result (`create(...).content[0].text`, `(await create(...)).usage`, `.model_dump()`).

    Nothing of the value is evaluated before the call's request, so making the request first,
    in a `with` line, and reading the chain from `get_final_message()` in its body keeps the
    order of everything the statement does; the Message it reads is the same.
    """
    node: cst.CSTNode = call
    while node is not value:
        parent = ctx.nodes.parent(node)
        if isinstance(parent, cst.Await):
            if parent.expression is not node or node is not call:
                return False
        elif isinstance(parent, (cst.Attribute, cst.Subscript)):
            if parent.value is not node:
                return False
        elif isinstance(parent, cst.Call):
            if parent.func is not node:
                return False
        else:
            return False
        node = parent
    return True


def _block_unit(ctx: FileContext, statement: cst.CSTNode | None) -> str:
    """Return the indentation one level of the statement's own block adds (the file's unit
    where the block says nothing), so the `with` body is indented as the code around it."""
    block = ctx.nodes.parent(statement) if statement is not None else None
    if isinstance(block, cst.IndentedBlock) and block.indent is not None:
        return block.indent
    return ctx.module.default_indent


def _closing_at(call_text: str, indent: str) -> str:
    """Return the call text with a closing parenthesis on a line of its own put at the
    statement's indentation: `) as stream:` must not line up with the body below it."""
    head, newline, last = call_text.rpartition("\n")
    if newline and last.strip() == ")" and last != indent + ")":
        return head + newline + indent + ")"
    return call_text


def _single_statement(
    statement: cst.CSTNode | None,
) -> cst.Assign | cst.AnnAssign | cst.Return | None:
    """Return the one plain assignment or return a statement line holds, if that is all it is."""
    if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
        return None
    small = statement.body[0]
    if not isinstance(small.semicolon, cst.MaybeSentinel):
        return None
    if isinstance(small, cst.Assign):
        if len(small.targets) != 1:
            return None
        if not isinstance(small.targets[0].target, (cst.Name, cst.Attribute, cst.Subscript)):
            return None
        return small
    if isinstance(small, cst.AnnAssign):
        return small if small.value is not None else None
    if isinstance(small, cst.Return):
        return small if small.value is not None else None
    return None


def _in_async_function(scope: Scope) -> bool:
    node = scope.function().node
    return isinstance(node, cst.FunctionDef) and node.asynchronous is not None


def _stream_call_text(ctx: FileContext, site: CallSite) -> str | None:
    """Return the call's text as a `....stream(...)` call: `create` renamed, `stream=False` gone."""
    call = site.node
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "create":
        return None
    if any(arg.keyword is None and not arg.star for arg in call.args):
        return None
    if site.may_have(STREAM):
        return None
    edits = [ctx.replace(func.attr, "stream")]
    for key in site.params.items:
        if key in CREATE_ONLY and key != STREAM:
            return None
    entry = site.param(STREAM)
    if entry is not None:
        if entry.container is not call or entry.value.value is not False:
            return None  # `stream=False` inside a `**params` dict another call may share
        removal = remove_elements(ctx, call, [entry.holder])
        if removal is None:
            return None
        edits.append(removal)
    start, end = ctx.span(call)
    shifted = [Edit(e.start - start, e.end - start, e.replacement) for e in edits]
    return apply_edits(ctx.source.text[start:end], shifted)


def fresh_name(ctx: FileContext, scope: Scope) -> str:
    """Return `stream`, `stream_1`, ...: the first name no code in the scope uses or sees."""
    # Collected once per file (`NodeMap`): a module with thousands of calls is walked once.
    taken = ctx.nodes.variable_names(scope.function().node)
    candidate = CONTEXT_NAME
    number = 0
    while candidate in taken or scope.lookup(candidate):
        number += 1
        candidate = f"{CONTEXT_NAME}_{number}"
    return candidate
