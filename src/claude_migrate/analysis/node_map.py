"""Where every node of a parsed file sits: its parent, its function, and the names under it.

One walk of the module, on first use, shared by every rule through `FileContext.nodes`: the
parent of any node (LibCST nodes do not know theirs), the `Name` nodes of each function (or of
the module) by spelling, and the names read in any function, class or module body. Rules that
follow a value up the tree (a digest into the cache key it builds, a legacy call's result into
the attributes read from it) or need a name no code uses (a fix's new variable) read it here
instead of walking the tree again.
"""

from __future__ import annotations

import bisect
from collections import Counter
from typing import TYPE_CHECKING

from claude_migrate.analysis.walk import child_fields
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST


class NodeMap:
    """The parents, owners and names of one module's nodes, from one walk."""

    def __init__(self, module: cst.Module) -> None:
        self._parent: dict[int, cst.CSTNode] = {}
        # `Name` nodes by (the innermost function or module around them, spelling).
        self._owned: dict[tuple[int, str], list[cst.Name]] = {}
        # Every `Name` in walk order, with its position in that order (for subtree queries).
        self._names: list[cst.Name] = []
        self._name_order: list[int] = []
        # Walk-order range [first, past-last) of each module, function and class.
        self._extent: dict[int, tuple[int, int]] = {}
        self._variables: dict[int, frozenset[str]] = {}
        self._uses: Counter[str] | None = None
        self._build(module)

    def _build(self, module: cst.Module) -> None:
        parent_of = self._parent
        owned = self._owned
        names = self._names
        name_order = self._name_order
        extent = self._extent
        base = cst.CSTNode
        name_type = cst.Name
        owner_types = (cst.Module, cst.FunctionDef)
        body_types = (cst.Module, cst.FunctionDef, cst.ClassDef)
        counter = 0

        # Recursion, not LibCST's `visit`: `visit` rebuilds every node it passes (see walk.py).
        def visit(node: cst.CSTNode, owner: cst.CSTNode | None) -> None:
            nonlocal counter
            first = counter
            counter += 1
            if type(node) is name_type:
                if owner is not None:
                    owned.setdefault((id(owner), node.value), []).append(node)
                names.append(node)
                name_order.append(first)
            elif isinstance(node, owner_types):
                owner = node
            for field in child_fields(type(node)):
                value = getattr(node, field)
                if isinstance(value, base):
                    parent_of[id(value)] = node
                    visit(value, owner)
                elif isinstance(value, (list, tuple)):
                    for item in value:
                        if isinstance(item, base):
                            parent_of[id(item)] = node
                            visit(item, owner)
            if isinstance(node, body_types):
                extent[id(node)] = (first, counter)

        visit(module, None)

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """Return the node that holds `node` (None for the module, or a node not in it)."""
        return self._parent.get(id(node))

    def names_in(self, owner: cst.CSTNode, name: str) -> list[cst.Name]:
        """Return the `Name` nodes spelled `name` whose innermost function is `owner`.

        `owner` is a function definition or the module; a class body's names belong to the
        function or module around the class.
        """
        return self._owned.get((id(owner), name), [])

    def names_spelled(self, name: str) -> list[cst.Name]:
        """Return every `Name` node spelled `name` in the module, in source order."""
        return [node for node in self._names if node.value == name]

    def variable_names(self, body: cst.CSTNode) -> frozenset[str]:
        """Return every variable name used or bound anywhere under a module, function or class.

        Keyword names of calls and attribute names (`x` in `f(x=1)` and `a.x`) are not variables
        and are left out; nested functions and classes are included.
        """
        found = self._variables.get(id(body))
        if found is None:
            span = self._extent.get(id(body))
            if span is None:
                raise ValueError("not a module, function or class of this module")
            low = bisect.bisect_left(self._name_order, span[0])
            high = bisect.bisect_left(self._name_order, span[1])
            found = frozenset(
                name.value for name in self._names[low:high] if not self._is_label(name)
            )
            self._variables[id(body)] = found
        return found

    def _is_label(self, name: cst.Name) -> bool:
        parent = self._parent.get(id(name))
        if isinstance(parent, cst.Attribute):
            return parent.attr is name
        return isinstance(parent, cst.Arg) and parent.keyword is name

    def name_uses(self) -> Counter[str]:
        """Return how often each name is read or mentioned in the module, assignment targets aside.

        Anything that is not the plain target of an assignment counts as a use: a read, an
        attribute or keyword of the same spelling, a `global` statement.
        """
        if self._uses is None:
            self._uses = Counter(name.value for name in self._names if not self._is_assigned(name))
        return self._uses

    def _is_assigned(self, name: cst.Name) -> bool:
        parent = self._parent.get(id(name))
        if isinstance(parent, cst.AssignTarget):
            return parent.target is name
        return isinstance(parent, cst.AnnAssign) and parent.target is name
