"""What is done with a LangChain chat model away from its constructor: the tool choice
`.bind_tools()` gives it, and reads of its `.profile`.

`llm = ChatAnthropic(model=...)` then `llm.bind_tools(tools, tool_choice="any")`: the request
the model sends carries the `tool_choice` the binding sets, which the constructor's own keywords
do not show. LangChain turns `"any"`, a tool's name, `True` and the dict forms into a forced
tool choice (langchain-anthropic `ChatAnthropic.bind_tools`, langchain-aws `ChatBedrock.bind_tools`
and `ChatBedrockConverse.bind_tools`, whose Converse form is `{"tool": {"name": ...}}` or
`{"any": {}}`); `"auto"` and `"none"` force nothing.

Only bindings of the object the call builds in the same function are read: the call chained
(`ChatX(...).bind_tools(...)`), a local name assigned once (`llm = ChatX(...)`), or an attribute
of `self` assigned once in its class (`self.llm = ChatX(...)`). A `tool_choice` that is not a
literal is not read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
else:
    cst = lazy_import("libcst")

BIND = "bind_tools"
PROFILE = "profile"
# String tool choices that force nothing; any other string names a tool (or is OpenAI's
# "required"), which forces one.
FREE = ("auto", "none")
# Dict forms that force a tool: the Messages API's {"type": "any" | "tool"}, OpenAI's
# {"type": "function", ...} (ChatLiteLLM), and Converse's {"any": {}} / {"tool": {...}}.
FORCING_TYPES = ("any", "tool", "function")
MAX_NODES = 20_000  # a function or class larger than this is not searched


@dataclass(frozen=True)
class Binding:
    """A `.bind_tools()` call whose `tool_choice` forces a tool."""

    call: cst.Call
    value: cst.BaseExpression  # the tool_choice argument's value
    text: str  # the value as written


def forced_bindings(ctx: FileContext, site: CallSite) -> list[Binding]:
    """Return the `.bind_tools()` calls on the object `site` builds that force a tool."""
    found = []
    for use in _uses(ctx, site.node, BIND):
        call = ctx.nodes.parent(use)
        if not isinstance(call, cst.Call) or call.func is not use:
            continue
        value = _tool_choice(call)
        if value is not None and _forces(value):
            found.append(Binding(call, value, ctx.code(value)))
    return found


def profile_read(ctx: FileContext, site: CallSite) -> int:
    """Return the line where the object `site` builds has its `.profile` read, or 0.

    A LangChain chat model's `profile` (langchain-core `BaseChatModel.profile`) comes from its
    integration's table of model profiles, keyed by model id (langchain-aws
    `langchain_aws/data/_profiles.py`, langchain-anthropic `data/_profiles.py`): for a model the
    table has no entry for it is empty, so moving the call to another model changes what is read
    there, or makes it fail.
    """
    # Reads up to the name's next assignment count: keeping a model is never wrong.
    uses = _uses(ctx, site.node, PROFILE, until_rebound=True)
    return ctx.range(uses[0]).start.line if uses else 0


def profile_reason(ctx: FileContext, site: CallSite, target: str) -> str:
    """Return why a LangChain chat model whose `.profile` is read keeps its model ("" if it
    is not read, or the call is no LangChain one)."""
    from claude_migrate.targets.langchain import LANGCHAIN

    line = profile_read(ctx, site) if site.family == LANGCHAIN else 0
    if not line:
        return ""
    return (
        f"its profile is read on line {line}, which LangChain looks up by model id in the "
        f"integration's table of model profiles: without an entry for {target!r} it is empty; "
        "check the table, then move the model by hand"
    )


def _uses(
    ctx: FileContext, built: cst.Call, attribute: str, *, until_rebound: bool = False
) -> list[cst.Attribute]:
    """Return the `.attribute` reads of the object the call `built` makes, in its scope: none
    when the name it is assigned to is assigned again there, or, `until_rebound`, the reads
    written after this assignment and before the next."""
    parent = ctx.nodes.parent(built)
    if isinstance(parent, cst.Attribute) and parent.value is built:
        return [parent] if parent.attr.value == attribute else []
    target: cst.BaseExpression | None = None
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        target = parent.targets[0].target
    elif isinstance(parent, cst.AnnAssign):
        target = parent.target
    if isinstance(target, cst.Name):
        name = target.value
        owner = _owner(ctx, parent)
        if not isinstance(owner, cst.FunctionDef | cst.Module):
            return []  # a class attribute
        return _reads(owner, attribute, lambda node: _is_name(node, name), target, until_rebound)
    if (
        isinstance(target, cst.Attribute)
        and isinstance(target.value, cst.Name)
        and target.value.value == "self"
    ):
        field = target.attr.value
        method = _owner(ctx, parent)
        owner = _owner(ctx, method) if isinstance(method, cst.FunctionDef) else None
        if not isinstance(owner, cst.ClassDef):
            return []
        return _reads(owner, attribute, lambda node: _is_self(node, field), target, until_rebound)
    return []


def _owner(ctx: FileContext, node: cst.CSTNode | None) -> cst.CSTNode | None:
    """Return the innermost function, class or module around `node` (None for a lambda)."""
    while node is not None:
        node = ctx.nodes.parent(node)
        if isinstance(node, cst.FunctionDef | cst.ClassDef | cst.Module):
            return node
        if isinstance(node, cst.Lambda):
            return None
    return None


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _is_self(node: cst.BaseExpression, attribute: str) -> bool:
    return (
        isinstance(node, cst.Attribute)
        and isinstance(node.value, cst.Name)
        and node.value.value == "self"
        and node.attr.value == attribute
    )


def _reads(
    owner: cst.CSTNode,
    attribute: str,
    matches: Callable[[cst.BaseExpression], bool],
    assigned_at: cst.BaseExpression,
    until_rebound: bool,
) -> list[cst.Attribute]:
    """Return the `.attribute` reads under `owner` of the expression `matches` accepts. When
    that expression is assigned more than once there (another object may be read): none, or,
    `until_rebound`, those written between its assignment at `assigned_at` and the next one."""
    reads: list[cst.Attribute] = []
    between: list[cst.Attribute] = []
    assigned = 0
    state = "before"  # then "after" the assignment at `assigned_at`, then "rebound"
    for node in _walk(owner):
        if isinstance(node, cst.AssignTarget | cst.AnnAssign | cst.AugAssign) and matches(
            node.target
        ):
            assigned += 1 if isinstance(node, cst.AssignTarget | cst.AnnAssign) else 2
            if node.target is assigned_at:
                state = "after"
            elif state == "after":
                state = "rebound"
        elif (
            isinstance(node, cst.Attribute) and node.attr.value == attribute and matches(node.value)
        ):
            reads.append(node)
            if state == "after":
                between.append(node)
    if assigned == 1:
        return reads
    return between if until_rebound else []


def _walk(owner: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Yield the nodes under `owner`, not entering nested functions of a function or module
    (their names are their own); a class's methods are entered (`self.x` is shared)."""
    stack = list(reversed(owner.children))
    seen = 0
    while stack and seen < MAX_NODES:
        node = stack.pop()
        seen += 1
        yield node
        nested = isinstance(node, cst.FunctionDef | cst.Lambda | cst.ClassDef)
        if nested and not isinstance(owner, cst.ClassDef):
            continue
        stack.extend(reversed(node.children))


def _tool_choice(call: cst.Call) -> cst.BaseExpression | None:
    """Return the `tool_choice` keyword's value (keyword-only in every `bind_tools`)."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "tool_choice":
            return arg.value
    return None


def _string(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString | cst.ConcatenatedString):
        try:
            value = node.evaluated_value
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    return None


def _forces(value: cst.BaseExpression) -> bool:
    text = _string(value)
    if text is not None:
        return text not in FREE
    if isinstance(value, cst.Name):
        return value.value == "True"
    if not isinstance(value, cst.Dict):
        return False
    for element in value.elements:
        if not isinstance(element, cst.DictElement):
            return False  # a `**spread` may set anything
        key = _string(element.key)
        if key == "type":
            return _string(element.value) in FORCING_TYPES
        if key in FORCING_TYPES and len(value.elements) == 1:
            return True  # Converse's {"any": {}} / {"tool": {"name": ...}}
    return False
