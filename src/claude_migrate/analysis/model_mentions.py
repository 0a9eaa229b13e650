"""Where a Python module writes a Claude model id as data: its string literals, docstrings aside.

A model id is often nowhere near the call that uses it: a settings module, a pricing table
keyed by model, a list of choices offered to users, a test that asserts on the model. Every
string literal of the module whose whole value a catalogue recognises (`policy.model_ids`) is a
mention; a string that is an expression statement on its own (a docstring, or a string used as
a comment) is documentation, not data. f-strings and implicitly concatenated strings are never
a mention: no one literal holds the id.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.walk import walk
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.policy.deprecations import Spelling
else:
    cst = lazy_import("libcst")


@dataclass(frozen=True)
class Mention:
    """One string literal that is a model id, and how the catalogue reads it."""

    node: cst.SimpleString
    value: str
    spelling: Spelling
    key: bool = False  # a dict display's key (a table keyed by model id)
    # An operand of a comparison that excludes it (`model != "claude-2.1"`, `"claude-2.1" not in
    # CHOICES`, `m not in ("claude-2.1", ...)`): the code checks the id is not used, and the
    # replacement there would check that the replacement is not used.
    excluded: bool = False
    # An operand of a comparison that matches it (`model == "claude-2.1"`, `model in
    # ("claude-2.1", ...)`, a `case "claude-2.1":` pattern): the code tests which model a value
    # holds, and sends nothing here; the replacement there would take the new model for the
    # retired one wherever the value comes from.
    compared: bool = False


class _Strings:
    """Collects the module's string literals, skipping strings that stand as statements."""

    def __init__(self) -> None:
        self.found: list[cst.SimpleString] = []
        self.keys: set[int] = set()
        self.excluded: set[int] = set()
        self.compared: set[int] = set()

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        left = node.left
        for target in node.comparisons:
            if isinstance(target.operator, (cst.NotEqual, cst.NotIn, cst.IsNot)):
                into = self.excluded
            elif isinstance(target.operator, (cst.Equal, cst.In, cst.Is)):
                into = self.compared
            else:
                left = target.comparator
                continue
            for operand in (left, target.comparator):
                into.add(id(operand))
                if isinstance(operand, (cst.List, cst.Tuple, cst.Set)):
                    into.update(id(element.value) for element in operand.elements)
            left = target.comparator
        return True

    def visit_MatchValue(self, node: cst.MatchValue) -> bool:
        self.compared.add(id(node.value))
        return True

    def visit_DictElement(self, node: cst.DictElement) -> bool:
        self.keys.add(id(node.key))
        return True

    def visit_Expr(self, node: cst.Expr) -> bool:
        return not isinstance(node.value, (cst.SimpleString, cst.ConcatenatedString))

    def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> bool:
        return False

    def visit_SimpleString(self, node: cst.SimpleString) -> bool:
        self.found.append(node)
        return False


def python_mentions(ctx: FileContext) -> tuple[list[Mention], set[str]]:
    """Return every literal of the module whose value is a Claude model id, in source order,
    and the values of all the module's string literals (a fix must not make a key twice)."""
    from claude_migrate.policy.model_ids import WORD, recognise

    if WORD not in ctx.source.text:
        return [], set()
    visitor = _Strings()
    walk(ctx.module, visitor)
    catalogue = ctx.facts.catalogue
    found = []
    values: set[str] = set()
    for node in visitor.found:
        if "b" in node.prefix.lower():
            continue
        try:
            value: Any = node.evaluated_value
        except Exception:  # an escape LibCST cannot evaluate: not a plain id anyway
            continue
        if not isinstance(value, str):
            continue
        values.add(value)
        spelling = recognise(value, catalogue) if WORD in value else None
        if spelling is not None:
            found.append(
                Mention(
                    node,
                    value,
                    spelling,
                    id(node) in visitor.keys,
                    id(node) in visitor.excluded,
                    id(node) in visitor.compared,
                )
            )
    return found, values


def call_model_nodes(ctx: FileContext) -> set[int]:
    """Return the ids of the nodes that are, proven, the model of a Claude call of the file."""
    from claude_migrate.analysis.model_requests import model_entry

    nodes: set[int] = set()
    for site in ctx.all_sites:
        entry = model_entry(ctx, site)
        if entry is None:
            continue
        nodes.add(id(entry.value_node))
        written = entry.value.node
        if written is not None:
            nodes.add(id(written))
        if isinstance(written, (cst.Name, cst.Attribute)):
            # A branch's assignment reading a constant or an attribute (`if not model: model =
            # self._default_model`): the literal it reads is the call's model too.
            through = ctx.resolver.values.value(written, site.record.scope)
            if through.known and through.node is not None:
                nodes.add(id(through.node))
    # Constants the project phase proved other modules' Claude calls read: a call's model too.
    from claude_migrate.analysis.constant_reads import constant_reads

    nodes.update(id(read.node) for read in constant_reads(ctx, "model"))
    return nodes
