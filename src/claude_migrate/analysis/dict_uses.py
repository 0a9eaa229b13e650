"""What a function does with a dict it builds in steps and returns: which keys' values it may
change in place, or that the dict may reach code we cannot follow.

`req = {"model": M, "messages": []}; req["messages"].append(m); return req`: the append changes
the value of `messages`, never which keys the dict has nor the value of another key. Every use
of the name is looked at; one we cannot bound (the dict passed to a call, stored, aliased, used
in a nested function, read by a computed key) gives None.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Methods `Values._edited` applies to the dict itself (an unknown change there makes it opaque).
_APPLIED = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})
# Methods that give a key's value, which the code may then change in place.
_KEYED_READS = frozenset({"get", "setdefault", "pop"})
# Methods that neither change the dict nor hand out its values.
_HARMLESS = frozenset({"keys", "__contains__"})
# The most nodes of one function looked at: beyond it, the uses are not bounded.
MAX_NODES = 20_000


def dict_uses(function: cst.CSTNode, name: str) -> set[str] | None:
    """Return the keys whose values the function may change through `name` (`name["messages"]
    .append(m)`, `name.setdefault("metadata", {})["user"] = u`); None when the dict may reach
    code that could change any key, or the function is too large to read."""
    touched: set[str] = set()
    # (node, (its parent, grandparent, great-grandparent), whether inside a nested scope)
    stack: list[tuple[cst.CSTNode, tuple[cst.CSTNode | None, ...], bool]] = [
        (child, (function, None, None), False) for child in function.children
    ]
    seen = 0
    while stack:
        node, parents, nested = stack.pop()
        seen += 1
        if seen > MAX_NODES:
            return None
        if (
            isinstance(node, cst.Name)
            and node.value == name
            and not _not_a_use(node, parents[0])
            and (nested or not _bounded_use(node, parents, touched))
        ):
            return None
        inner = nested or isinstance(node, (cst.FunctionDef, cst.Lambda, cst.ClassDef))
        stack.extend((child, (node, parents[0], parents[1]), inner) for child in node.children)
    return touched


def _not_a_use(node: cst.Name, parent: cst.CSTNode | None) -> bool:
    """Return whether the name is an attribute's or a keyword's name, not the variable."""
    if isinstance(parent, cst.Attribute):
        return parent.attr is node
    if isinstance(parent, cst.Arg):
        return parent.keyword is node
    return False


def _bounded_use(
    node: cst.Name, parents: tuple[cst.CSTNode | None, ...], touched: set[str]
) -> bool:
    """Return whether one use of the dict's name is one whose effect is known, noting in
    `touched` the key whose value it may change."""
    parent, grand, great = parents
    if isinstance(parent, (cst.AssignTarget, cst.Return, cst.ComparisonTarget)):
        return True  # its one binding, the `return`, a `key in name` test
    if isinstance(parent, cst.Subscript) and parent.value is node:
        key = _literal_key(parent)
        if key is None:
            # `name[k] = v` by a computed key: `_edited` makes the dict opaque; a read is not
            # bounded (its value may be changed in place).
            return isinstance(grand, cst.AssignTarget) and grand.target is parent
        if not (isinstance(grand, cst.AssignTarget) and grand.target is parent):
            touched.add(key)  # read, and perhaps changed in place: its value is not the literal
        return True
    if isinstance(parent, cst.Attribute) and parent.value is node:
        method = parent.attr.value
        if not (isinstance(grand, cst.Call) and grand.func is parent):
            return False
        if method in _HARMLESS:
            return True
        if method in _KEYED_READS and not isinstance(great, cst.Expr):
            key = _first_literal(grand)
            if key is None:
                return False
            touched.add(key)  # the value it gives may be changed in place
        return method in _APPLIED or method in _KEYED_READS
    return False


def _literal_key(subscript: cst.Subscript) -> str | None:
    if len(subscript.slice) != 1 or not isinstance(subscript.slice[0].slice, cst.Index):
        return None
    value = subscript.slice[0].slice.value
    if isinstance(value, cst.SimpleString) and value.prefix.lower() in ("", "u"):
        evaluated = value.evaluated_value
        return evaluated if isinstance(evaluated, str) else None
    return None


def _first_literal(call: cst.Call) -> str | None:
    if not call.args or call.args[0].keyword is not None or call.args[0].star:
        return None
    value = call.args[0].value
    if isinstance(value, cst.SimpleString) and value.prefix.lower() in ("", "u"):
        evaluated = value.evaluated_value
        return evaluated if isinstance(evaluated, str) else None
    return None
