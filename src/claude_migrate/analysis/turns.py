"""What the last turn of a request's `messages` may be, following the list through its function.

A request is prefilled when its last message is an assistant turn, and code often adds that turn
after building the list: `messages.append({"role": "assistant", "content": "<category>"})`,
sometimes under an `if`. Reading only the literal the call's `messages=` names misses it. Here
the list is followed, in the function that makes the call, from its one assignment to the call:
`append`, `extend`, `insert` and `+=` (with list literals) change what the last turn may be; one
under an `if`, a loop or a `try` that does not also hold the call may or may not run, so the turn
before it stays possible; anything else done with the list (passed to a function, `pop`) makes
the last turn unknown. The answer is every turn the last one may be, so a rule can say "may end
in an assistant turn" only when one of them is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.scope import Scope

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Statements whose body may run or not (or many times) relative to the code around them.
_MAYBE = ("If", "Else", "For", "While", "Try", "TryStar", "ExceptHandler", "Finally", "Match")
# Methods of a list that leave its last element as it was.
_READS = frozenset({"copy", "count", "index", "__len__", "__iter__"})
# Functions that read a list handed to them and never change it.
_PURE_BUILTINS = frozenset({"len", "list", "tuple", "print", "str", "repr", "enumerate"})


@dataclass(frozen=True)
class Turn:
    """One turn the request's last message may be."""

    role: str | None  # None: not known
    content: cst.BaseExpression | None  # the turn's `content`, when written out
    node: cst.CSTNode | None  # where the turn is written (the dict, or the statement adding it)


UNKNOWN = Turn(None, None, None)


def last_turns(ctx: FileContext, site: CallSite) -> list[Turn] | None:
    """Return every turn the request's last message may be (None: no `messages` written out)."""
    entry = site.params.get("messages")
    if entry is None:
        return None
    node: Any = entry.value_node
    scope = site.record.scope
    if isinstance(node, cst.List):
        return [_last_of(ctx, node, scope)]
    if not isinstance(node, cst.Name):
        return None
    return _follow(ctx, site, node.value, scope)


def _follow(ctx: FileContext, site: CallSite, name: str, scope: Scope) -> list[Turn] | None:
    nodes = ctx.nodes
    owner = _owner(ctx, site.node)
    call_start = ctx.span(site.node)[0]
    uses = sorted(
        (n for n in nodes.names_in(owner, name) if ctx.span(n)[0] < call_start),
        key=lambda n: ctx.span(n)[0],
    )
    assigned = [n for n in uses if _assignment(ctx, n)[0]]
    if len(assigned) > 1:
        return None  # several lists: which one reaches the call is not followed here
    turns: list[Turn]
    if assigned:
        start = assigned[0]
        if _compound_between(ctx, start, site.node, owner):
            return None  # assigned under a condition: another value may reach the call
        value = _assignment(ctx, start)[1]
        turns = _turns_of_list(ctx, value, scope) if isinstance(value, cst.List) else [UNKNOWN]
        uses = [n for n in uses if ctx.span(n)[0] > ctx.span(start)[0]]
    else:
        binding = ctx.resolver.values.single_binding(name, scope)
        if binding is None or not isinstance(binding.value, cst.List):
            return None
        turns = _turns_of_list(ctx, binding.value, binding.scope)
    for use in uses:
        added = _mutation(ctx, use, scope)
        if added is None:
            continue  # a read that leaves the list as it was
        maybe = _compound_between(ctx, use, site.node, owner)
        turns = _merge(turns, added) if maybe else added
    return turns


def _turns_of_list(ctx: FileContext, node: cst.List, scope: Scope) -> list[Turn]:
    if not node.elements:
        return []  # empty: the turns added later decide
    return [_last_of(ctx, node, scope)]


def _last_of(ctx: FileContext, node: cst.List, scope: Scope) -> Turn:
    if not node.elements:
        return UNKNOWN
    last = node.elements[-1]
    if not isinstance(last, cst.Element):
        return UNKNOWN  # `*rest`: its last element is not written here
    return _turn(ctx, last.value, scope)


def _turn(ctx: FileContext, node: cst.BaseExpression, scope: Scope) -> Turn:
    values = ctx.resolver.values
    if isinstance(node, cst.Name):
        binding = values.single_binding(node.value, scope)
        if binding is None or binding.value is None:
            return UNKNOWN
        node, scope = binding.value, binding.scope
    if not isinstance(node, (cst.Dict, cst.Call)):
        return UNKNOWN
    entries = values.entries_of_dict(node, scope)
    if entries is None:
        return UNKNOWN
    role = entries.get("role")
    content = entries.get("content")
    known = role is not None and role.value.known and isinstance(role.value.value, str)
    return Turn(
        role.value.value if known and role is not None else None,
        content.value_node if content is not None else None,
        node,
    )


def _mutation(ctx: FileContext, use: cst.Name, scope: Scope) -> list[Turn] | None:
    """Return the turns the list may end with after this use (None: the use changes nothing)."""
    nodes = ctx.nodes
    parent = nodes.parent(use)
    if isinstance(parent, cst.Attribute) and parent.value is use:
        call = nodes.parent(parent)
        method = parent.attr.value
        if not (isinstance(call, cst.Call) and call.func is parent):
            return None  # `messages.count` read, not called
        if method in _READS:
            return None
        args = [a for a in call.args if a.keyword is None and not a.star]
        if method == "append" and len(args) == 1:
            return [_placed(_turn(ctx, args[0].value, scope), call)]
        if method == "extend" and len(args) == 1:
            return _extended(ctx, args[0].value, scope, call)
        if method == "insert" and len(args) == 2:
            return None  # inserting before an index leaves the last turn (the list not empty)
        return [UNKNOWN]
    if isinstance(parent, cst.AugAssign) and parent.target is use:
        if isinstance(parent.operator, cst.AddAssign):
            return _extended(ctx, parent.value, scope, parent)
        return [UNKNOWN]
    if isinstance(parent, (cst.Subscript, cst.Comparison, cst.If, cst.While)):
        return None  # read by index or tested
    if isinstance(parent, cst.Arg):
        call = nodes.parent(parent)
        if (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Name)
            and call.func.value in _PURE_BUILTINS
        ):
            return None
        return [UNKNOWN]  # handed to a function, which may add a turn
    return None


def _extended(
    ctx: FileContext, node: cst.BaseExpression, scope: Scope, where: cst.CSTNode
) -> list[Turn] | None:
    if isinstance(node, cst.List):
        if not node.elements:
            return None
        return [_placed(_last_of(ctx, node, scope), where)]
    return [UNKNOWN]


def _placed(turn: Turn, where: cst.CSTNode) -> Turn:
    """Return the turn with the node that adds it, when the turn was written elsewhere."""
    return Turn(turn.role, turn.content, turn.node if turn.node is not None else where)


def _merge(before: list[Turn], after: list[Turn]) -> list[Turn]:
    """Return the turns after a change that may or may not run: its own, or those before it."""
    merged = list(after)
    for turn in before:
        if turn not in merged:
            merged.append(turn)
    return merged


def _owner(ctx: FileContext, node: cst.CSTNode) -> cst.CSTNode:
    """Return the innermost function definition around a node, or the module."""
    current: cst.CSTNode | None = node
    while current is not None:
        parent = ctx.nodes.parent(current)
        if parent is None or isinstance(parent, cst.FunctionDef):
            return parent if parent is not None else current
        current = parent
    return node


def _compound_between(
    ctx: FileContext, node: cst.CSTNode, call: cst.CSTNode, owner: cst.CSTNode
) -> bool:
    """Return whether `node` sits in a conditional or repeated block that does not hold `call`."""
    call_start, call_end = ctx.span(call)
    current = ctx.nodes.parent(node)
    while current is not None and current is not owner:
        if type(current).__name__ in _MAYBE:
            start, end = ctx.span(current)
            if not (start <= call_start and call_end <= end):
                return True
        current = ctx.nodes.parent(current)
    return False


def _assignment(ctx: FileContext, name: cst.Name) -> tuple[bool, cst.BaseExpression | None]:
    """Return whether this use of a name is a plain assignment to it, and the value assigned."""
    target = ctx.nodes.parent(name)
    if not (isinstance(target, cst.AssignTarget) and target.target is name):
        return False, None
    statement = ctx.nodes.parent(target)
    if isinstance(statement, cst.Assign):
        return True, statement.value
    return True, None


def may_end_with(turns: list[Turn] | None, role: str) -> list[Turn]:
    """Return the turns of `turns` with that role (empty: the request cannot end with it)."""
    return [t for t in turns or () if t.role == role]


def prefilled_texts(ctx: FileContext, site: CallSite) -> list[str]:
    """Return the text of every assistant turn the request may end with, when written out."""
    texts: list[str] = []
    for turn in may_end_with(last_turns(ctx, site), "assistant"):
        if turn.content is None:
            continue
        value = ctx.resolver.values.value(turn.content, site.record.scope)
        if value.known and isinstance(value.value, str):
            texts.append(value.value)
    return texts
