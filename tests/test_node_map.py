"""The shared node map (`FileContext.nodes`) agrees with LibCST's own traversal on every fixture.

Parents, the names of each function and the variable names of each body are what CM106 follows
a digest with, what CM301 follows a legacy call's result with and what CM104 picks a fresh name
with; each is compared here with a direct walk written the plain way, on every fixture and on
the example service (goldens aside).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import libcst as cst
import pytest
from helpers import FIXTURES, REPO

from claude_migrate.analysis.node_map import NodeMap

# Goldens (`*.fixed.py`) are left out: the same shapes as their originals, at twice the cost.
SOURCES = sorted(
    p
    for p in [*FIXTURES.rglob("*.py"), *(REPO / "examples").rglob("*.py")]
    if not p.name.endswith(".fixed.py")
)
BODIES = (cst.Module, cst.FunctionDef, cst.ClassDef)


class _Reference(cst.CSTVisitor):
    """Parents and bodies as LibCST's own `visit` sees them."""

    def __init__(self) -> None:
        self.pairs: list[tuple[cst.CSTNode, cst.CSTNode]] = []  # (child, parent)
        self.bodies: list[cst.CSTNode] = []
        self.names: list[tuple[cst.Name, cst.CSTNode]] = []  # with the innermost function
        self._path: list[cst.CSTNode] = []
        self._owners: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._path:
            self.pairs.append((node, self._path[-1]))
        self._path.append(node)
        if isinstance(node, (cst.Module, cst.FunctionDef)):
            self._owners.append(node)
        if isinstance(node, BODIES):
            self.bodies.append(node)
        if isinstance(node, cst.Name):
            self.names.append((node, self._owners[-1]))
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._path.pop()
        if isinstance(original_node, (cst.Module, cst.FunctionDef)):
            self._owners.pop()


def _variables_under(body: cst.CSTNode) -> set[str]:
    """Return the names under `body`, attribute names and call keywords aside (a plain walk)."""
    found: set[str] = set()

    class Collect(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

        def visit_Arg(self, node: cst.Arg) -> bool:
            node.value.visit(self)
            return False

    body.visit(Collect())
    return found


def _uses(module: cst.Module) -> Counter[str]:
    targets: set[int] = set()
    names: list[cst.Name] = []

    class Collect(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            targets.add(id(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            targets.add(id(node.target))

        def visit_Name(self, node: cst.Name) -> None:
            names.append(node)

    module.visit(Collect())
    return Counter(n.value for n in names if id(n) not in targets)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(REPO)))
def test_node_map_agrees_with_a_plain_walk(path: Path) -> None:
    try:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
    except cst.ParserSyntaxError:
        pytest.skip("a fixture of unparseable code")
    nodes = NodeMap(module)
    reference = _Reference()
    module.visit(reference)

    assert nodes.parent(module) is None
    for child, parent in reference.pairs:
        assert nodes.parent(child) is parent

    by_owner: dict[tuple[int, str], list[cst.Name]] = {}
    for name, owner in reference.names:
        by_owner.setdefault((id(owner), name.value), []).append(name)
    for (owner_id, spelling), expected in by_owner.items():
        owner = next(b for b in reference.bodies if id(b) == owner_id)
        assert nodes.names_in(owner, spelling) == expected

    for body in reference.bodies:
        assert nodes.variable_names(body) == _variables_under(body)
    assert nodes.name_uses() == _uses(module)


def test_a_class_body_has_variables_but_owns_no_names() -> None:
    module = cst.parse_module(
        "class Client:\n    cache = {}\n    def get(self, key):\n        return self.cache[key]\n"
    )
    nodes = NodeMap(module)
    klass = module.body[0]
    assert isinstance(klass, cst.ClassDef)
    method = klass.body.body[1]
    assert isinstance(method, cst.FunctionDef)
    assert nodes.variable_names(klass) == {"Client", "cache", "get", "self", "key"}
    assert nodes.variable_names(method) == {"get", "self", "key"}  # `.cache` is an attribute
    assert nodes.names_in(klass, "cache") == []  # a class is not a function
    assert [n.value for n in nodes.names_in(module, "cache")] == ["cache"]
    assert [n.value for n in nodes.names_in(method, "cache")] == ["cache"]  # self.cache's attr
    with pytest.raises(ValueError, match="not a module, function or class"):
        nodes.variable_names(method.params)
