"""`walk` calls a read-only visitor's hooks on the same nodes, in the same order, as LibCST."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable
from pathlib import Path

import anthropic
import libcst as cst
import pytest
from helpers import FIXTURES

from claude_migrate.analysis.scope import ModuleIndex
from claude_migrate.analysis.walk import walk

SAMPLES = sorted(p for p in FIXTURES.rglob("*.py")) + [
    Path(dataclasses.__file__),
    Path(functools.__file__),
    Path(contextlib.__file__),
    Path(anthropic.__file__).parent / "_client.py",
]


def _hook(kind: str, node_type: str) -> Callable[[Recorder, cst.CSTNode], bool]:
    def record(self: Recorder, node: cst.CSTNode) -> bool:
        self.events.append((kind, id(node)))
        return kind == "leave" or node_type not in self.skip

    return record


class Recorder(cst.CSTVisitor):
    """Records every visit and leave; answers False for `skip`'s node types."""

    def __init__(self, skip: tuple[str, ...] = ()) -> None:
        self.events: list[tuple[str, int]] = []
        self.skip = skip


for _name in dir(cst):
    _node = getattr(cst, _name)
    if isinstance(_node, type) and issubclass(_node, cst.CSTNode):
        setattr(Recorder, f"visit_{_name}", _hook("visit", _name))
        setattr(Recorder, f"leave_{_name}", _hook("leave", _name))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("skip", [(), ("FunctionDef", "Call")], ids=["all", "skipping"])
def test_walk_visits_like_libcst(path: Path, skip: tuple[str, ...]) -> None:
    module = cst.parse_module(path.read_bytes())
    ours, theirs = Recorder(skip), Recorder(skip)
    walk(module, ours)
    module.visit(theirs)
    assert ours.events
    assert ours.events == theirs.events


class _VisitedIndex(ModuleIndex, cst.CSTVisitor):
    """The module index driven by LibCST's own visit, to compare with `walk`."""


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_module_index_is_the_same_either_way(path: Path) -> None:
    module = cst.parse_module(path.read_bytes())
    walked = ModuleIndex.build(module)
    visited = _VisitedIndex()
    module.visit(visited)

    def shape(index: ModuleIndex) -> object:
        return (
            [(id(c.node), c.order, id(c.scope.node), c.awaited) for c in index.calls],
            [(s.kind, s.qualname, sorted((k, [b.order for b in v]) for k, v in s.bindings.items()))
             for s in index.scopes],
        )  # fmt: skip

    assert shape(walked) == shape(visited)


def test_a_visitor_with_attribute_hooks_gets_libcst_s_own_visit() -> None:
    class Attribute(cst.CSTVisitor):
        def __init__(self) -> None:
            self.seen: list[str] = []

        def visit_Call_func(self, node: cst.Call) -> None:
            self.seen.append("func")

    visitor = Attribute()
    walk(cst.parse_module("f(x)\n"), visitor)
    assert visitor.seen == ["func"]


class _Generic:
    """A plain visitor with the generic hooks, the way cache_key's parent index is written."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int]] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.events.append(("visit", id(node)))
        return not isinstance(node, cst.Call)

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self.events.append(("leave", id(original_node)))


class _GenericVisitor(_Generic, cst.CSTVisitor):
    pass


@pytest.mark.parametrize("path", SAMPLES[-4:], ids=lambda p: p.name)
def test_generic_hooks_visit_like_libcst(path: Path) -> None:
    module = cst.parse_module(path.read_bytes())
    ours, theirs = _Generic(), _GenericVisitor()
    walk(module, ours)
    module.visit(theirs)
    assert ours.events and ours.events == theirs.events


def _recorder_of(types: tuple[str, ...]) -> type[cst.CSTVisitor]:
    """A visitor with hooks for `types` alone (LibCST's no-op defaults for every other)."""
    hooks = {f"{kind}_{name}": _hook(kind, name) for name in types for kind in ("visit", "leave")}
    return type("Some", (cst.CSTVisitor,), {"__init__": Recorder.__init__, **hooks})


# Comments in an operator's, a bracket's and a call's whitespace inside parentheses.
_COMMENTED = """\
x = (1 +  # after the operator
     2)  # after the line
f(a,  # after a comma
  b)
# a line of its own
y = [  # after a bracket
    3,
]
"""


@pytest.mark.parametrize(
    "types",
    [
        ("Call", "Name", "SimpleString"),
        ("Comment",),
        ("Call", "Comment", "EmptyLine"),
        ("Comma", "Name"),
        ("SimpleWhitespace", "Integer"),
    ],
    ids=lambda t: "+".join(t),
)
@pytest.mark.parametrize("path", [None, *SAMPLES[-4:]], ids=lambda p: p.name if p else "commented")
def test_a_visitor_of_a_few_node_types_sees_what_libcst_shows_it(
    types: tuple[str, ...], path: Path | None
) -> None:
    """The walk leaves out token and whitespace subtrees only where no hook could see them."""
    module = cst.parse_module(path.read_bytes() if path else _COMMENTED)
    ours, theirs = _recorder_of(types)(), _recorder_of(types)()
    walk(module, ours)
    module.visit(theirs)
    assert ours.events and ours.events == theirs.events


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_token_subtrees_hold_only_whitespace(path: Path) -> None:
    """The walk's table: a token's subtree holds whitespace nodes alone, a leaf's none."""
    from claude_migrate.analysis.walk import _WHITESPACE, token_types

    tokens = token_types()
    found: list[tuple[str, str]] = []

    class Below(cst.CSTVisitor):
        def __init__(self) -> None:
            self.stack: list[cst.CSTNode] = []

        def on_visit(self, node: cst.CSTNode) -> bool:
            for above in self.stack:
                if type(above) in tokens and (
                    tokens[type(above)] or type(node).__name__ not in _WHITESPACE
                ):
                    found.append((type(above).__name__, type(node).__name__))
            self.stack.append(node)
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            self.stack.pop()

    module = cst.parse_module(path.read_bytes() if path else _COMMENTED)
    module.visit(Below())
    assert not found


class _NoTokens(_Generic):
    """The generic hooks of a visitor that reads no token nor whitespace node."""

    reads_tokens = False


@pytest.mark.parametrize("path", [None, *SAMPLES[-4:]], ids=lambda p: p.name if p else "commented")
def test_generic_hooks_without_tokens_visit_the_other_nodes_like_libcst(path: Path | None) -> None:
    from claude_migrate.analysis.walk import token_types

    tokens = token_types()
    module = cst.parse_module(path.read_bytes() if path else _COMMENTED)
    ours, theirs = _NoTokens(), _GenericVisitor()
    walk(module, ours)
    module.visit(theirs)
    by_id = {id(node): node for node in _all_nodes(module)}
    expected = [(kind, i) for kind, i in theirs.events if type(by_id[i]) not in tokens]
    assert ours.events and ours.events == expected


def _all_nodes(module: cst.Module) -> list[cst.CSTNode]:
    found: list[cst.CSTNode] = []

    class Every(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            found.append(node)
            return True

    module.visit(Every())
    return found
