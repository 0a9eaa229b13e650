"""Walk a LibCST tree for a read-only visitor, without LibCST's cost of rebuilding every node.

`node.visit(visitor)` runs the same machinery as a transformer: every node's
`_visit_and_replace_children` builds a new copy of the node from its visited children, and a
read-only `CSTVisitor` throws the copies away. Measured on the Claude-dense corpus, that visit
costs as much as the parse itself. `walk` calls the same `visit_<Node>` / `leave_<Node>`
methods, in the same order, reading the children straight from the node's fields.

The order of a node's children is LibCST's own: the field names in the order its
`_visit_and_replace_children` visits them, read once per node class from that method's
constants. The walk's node order was checked equal to `node.visit`'s on the standard library and
on the anthropic SDK (tests/test_prefilter.py keeps checking it on the fixtures).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import sys
import typing
from typing import TYPE_CHECKING, Any

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")

_ORDER: dict[type, tuple[str, ...]] = {}
# `visit_Call_func`-style hooks run around one attribute of a node: `walk` does not call them.
_ATTRIBUTE_HOOK = re.compile(r"^(visit|leave)_[A-Z][A-Za-z]*_[a-z_]+$")


def child_fields(cls: type) -> tuple[str, ...]:
    """Return the fields of a node class that hold children, in the order LibCST visits them."""
    order = _ORDER.get(cls)
    if order is None:
        names = {f.name for f in dataclasses.fields(cls)}
        found: list[str] = []
        for const in cls._visit_and_replace_children.__code__.co_consts:  # type: ignore[attr-defined]
            if isinstance(const, str) and const in names and const not in found:
                found.append(const)
        order = _ORDER[cls] = tuple(found)
    return order


def _own_names(visitor: object) -> set[str]:
    """Return the attribute names the visitor defines itself (not LibCST's no-op defaults)."""
    names = set(getattr(visitor, "__dict__", {}))
    for klass in type(visitor).__mro__:
        if klass.__module__.startswith("libcst."):
            break
        names.update(klass.__dict__)
    return names


def supports(visitor: object) -> bool:
    """Return whether `walk` calls every hook this visitor defines."""
    own = _own_names(visitor)
    if any(_ATTRIBUTE_HOOK.match(name) for name in own):
        return False
    # Per-node hooks and on_visit/on_leave together: only LibCST's own visit runs both.
    generic = "on_visit" in own or "on_leave" in own
    return not (generic and any(n.startswith(("visit_", "leave_")) for n in own))


def _hook(visitor: Any, name: str) -> Any:
    """Return the visitor's own hook `name`, or None where only LibCST's no-op default exists."""
    if name in getattr(visitor, "__dict__", {}):
        return getattr(visitor, name)
    for klass in type(visitor).__mro__:
        if klass.__module__.startswith("libcst."):
            return None  # CSTVisitor's typed no-op for every node: skip the call
        if name in klass.__dict__:
            return getattr(visitor, name)
    return getattr(visitor, name, None)


def walk(node: cst.CSTNode, visitor: Any) -> None:
    """Call `visitor.visit_<Node>(node)` (False skips its children), then `leave_<Node>(node)`.

    A visitor may instead define `on_visit(node)` (False skips the children) and
    `on_leave(node)`, called for every node (every node but tokens and whitespace, when it sets
    `reads_tokens = False`). It needs no LibCST base class: a module whose
    visitor is a plain class can be imported without importing LibCST.
    """
    if not supports(visitor):
        node.visit(visitor)
        return
    own = _own_names(visitor)
    if "on_visit" in own or "on_leave" in own:
        enter = getattr(visitor, "on_visit", lambda node: True)
        leave = getattr(visitor, "on_leave", lambda node: None)
        if getattr(visitor, "reads_tokens", True) is False:
            _walk_nodes(node, enter, leave, _skipped(set()))
        else:
            _walk_all(node, enter, leave)
        return
    hooks: dict[type, tuple[Any, Any, tuple[str, ...]]] = {}
    _walk(node, visitor, hooks, _skipped(own))


# Whether a type is a LibCST node, by type: `isinstance(x, cst.CSTNode)` goes through ABCMeta's
# `__instancecheck__`, which the profile of the Claude-dense corpus put at a tenth of the walk.
_IS_NODE: dict[type, bool] = {}


def _is_node(kind: type) -> bool:
    known = _IS_NODE.get(kind)
    if known is None:
        known = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return known


def _walk_all(node: cst.CSTNode, enter: Any, leave: Any) -> None:
    if enter(node) is not False:
        for name in _ORDER.get(type(node)) or child_fields(type(node)):
            value = getattr(node, name)
            kind = type(value)
            if _IS_NODE.get(kind) or _is_node(kind):
                _walk_all(value, enter, leave)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    if _IS_NODE.get(type(item)) or _is_node(type(item)):
                        _walk_all(item, enter, leave)
    leave(node)


def _walk_nodes(node: cst.CSTNode, enter: Any, leave: Any, skipped: frozenset[type]) -> None:
    """`_walk_all` for a visitor that says (`reads_tokens = False`) it reads no token or
    whitespace node: those subtrees are left out."""
    if enter(node) is not False:
        for name in _fields_read(type(node), skipped):
            value = getattr(node, name)
            kind = type(value)
            if kind in skipped:
                continue
            if _IS_NODE.get(kind) or _is_node(kind):
                _walk_nodes(value, enter, leave, skipped)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    kind = type(item)
                    if kind not in skipped and (_IS_NODE.get(kind) or _is_node(kind)):
                        _walk_nodes(item, enter, leave, skipped)
    leave(node)


def _walk(
    node: cst.CSTNode,
    visitor: Any,
    hooks: dict[type, tuple[Any, Any, tuple[str, ...]]],
    skipped: frozenset[type] = frozenset(),
) -> None:
    cls = type(node)
    known = hooks.get(cls)
    if known is None:
        name = cls.__name__
        known = hooks[cls] = (
            _hook(visitor, "visit_" + name),
            _hook(visitor, "leave_" + name),
            _fields_read(cls, skipped),
        )
    enter, leave, fields = known
    if enter is None or enter(node) is not False:
        for name in fields:
            value = getattr(node, name)
            kind = type(value)
            if kind in skipped:
                continue
            if _IS_NODE.get(kind) or _is_node(kind):
                _walk(value, visitor, hooks, skipped)
            elif isinstance(value, (list, tuple)):
                for item in value:
                    kind = type(item)
                    if kind not in skipped and (_IS_NODE.get(kind) or _is_node(kind)):
                        _walk(item, visitor, hooks, skipped)
    if leave is not None:
        leave(node)


# Tokens and whitespace: nearly two nodes in three of a module, and no visitor of this package
# reads most of them. A subtree whose root is one of these holds only the whitespace nodes of
# `_WHITESPACE` (an operator's or a bracket's whitespace may hold a comment, in parentheses), so
# the walk leaves it out when the visitor has no hook for its root nor for any of those: the
# same hooks run, in the same order. tests/test_walk.py checks the table against LibCST's nodes.
_LEAVES = ("SimpleWhitespace", "Newline", "Comment")  # no child nodes at all
_WHITESPACE = (*_LEAVES, "ParenthesizedWhitespace", "TrailingWhitespace", "EmptyLine")
_TOKEN_BASES = (
    "BaseBinaryOp", "BaseBooleanOp", "BaseCompOp", "BaseUnaryOp", "BaseAugOp",
    "BaseParenthesizableWhitespace",
)  # fmt: skip
_TOKENS = (
    *_WHITESPACE, "Comma", "Dot", "Colon", "AssignEqual", "Semicolon", "ImportStar",
    "LeftParen", "RightParen", "LeftSquareBracket", "RightSquareBracket", "LeftCurlyBrace",
    "RightCurlyBrace",
)  # fmt: skip
_SKIPPED: dict[frozenset[str], frozenset[type]] = {}


@functools.cache
def token_types() -> dict[type, bool]:
    """Return the token and whitespace node classes, each with whether it has no child node."""
    found = {getattr(cst, name): name in _LEAVES for name in _TOKENS}
    for name in _TOKEN_BASES:
        base = getattr(cst, name)
        found.setdefault(base, False)
        for sub in _subclasses(base):
            if sub.__module__.startswith("libcst."):
                found.setdefault(sub, False)  # LibCST's own operators: whitespace inside
    return found


def _skipped(own: set[str]) -> frozenset[type]:
    """Return the node classes whose subtrees a visitor with these attributes never sees."""
    hooked = frozenset(
        name.split("_", 1)[1] for name in own if name.startswith(("visit_", "leave_"))
    )
    skipped = _SKIPPED.get(hooked)
    if skipped is None:
        whitespace_read = not hooked.isdisjoint(_WHITESPACE)
        skipped = _SKIPPED[hooked] = frozenset(
            kind
            for kind, leaf in token_types().items()
            if kind.__name__ not in hooked and (leaf or not whitespace_read)
        )
    return skipped


_FIELDS_READ: dict[tuple[type, frozenset[type]], tuple[str, ...]] = {}


def _fields_read(cls: type, skipped: frozenset[type]) -> tuple[str, ...]:
    """Return the child fields of `cls` the walk reads when it leaves out `skipped`.

    A field whose declared type admits nothing but left-out nodes (`whitespace_after_func`,
    `lpar`, `comma`) is not even read, when every whitespace node is left out: the fields
    then never hold a node a hook could see, whatever LibCST put in them.
    """
    found = _FIELDS_READ.get((cls, skipped))
    if found is None:
        fields = child_fields(cls)
        if not skipped.issuperset(getattr(cst, name) for name in _WHITESPACE):
            found = fields
        else:
            declared = {f.name: f.type for f in dataclasses.fields(cls)}
            found = tuple(f for f in fields if not _only(declared.get(f), skipped))
        _FIELDS_READ[cls, skipped] = found
    return found


def _only(declared: object, skipped: frozenset[type]) -> bool:
    """Return whether a declared field type admits only `skipped` nodes, or no node at all."""
    if isinstance(declared, type):
        if not issubclass(declared, cst.CSTNode):
            return True  # str, MaybeSentinel, None
        return declared in skipped and all(sub in skipped for sub in _subclasses(declared))
    origin = typing.get_origin(declared)
    if origin is typing.Literal:
        return True
    if origin is None:
        return False  # a forward reference, a string: it may be anything
    return all(_only(arg, skipped) for arg in typing.get_args(declared))


@functools.cache
def _subclasses(cls: type) -> list[type]:
    """Return the subclasses of `cls` their modules define (LibCST's slots decorator makes a
    new class of each node and leaves the first one behind, never instantiated)."""
    found: list[type] = []
    pending = [cls]
    while pending:
        subs: list[type] = pending.pop().__subclasses__()
        for sub in subs:
            module = sys.modules.get(sub.__module__)
            if getattr(module, sub.__qualname__, None) is sub:
                found.append(sub)
            pending.append(sub)
    return found
