"""`setup.py`: the requirement literals passed to `setup(...)`, read through LibCST.

Finds `install_requires`, `setup_requires`, `tests_require` (a list or tuple of strings) and
`extras_require` (a dict of such lists) on a call of `setup` or `<module>.setup`. A value may be
a name bound once at module level (`REQUIRES = [...]`), a concatenation (`BASE + ["x"]`) or a dict
entry's list; a string that is not a plain literal (an f-string, a computed value) is not read.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from packaging.requirements import InvalidRequirement

from claude_migrate.analysis.context import FileContext
from claude_migrate.analysis.walk import walk
from claude_migrate.core.lazy import lazy_import
from claude_migrate.manifests.requirement import PEP440, Pin, Problem, parse_pep508

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

LIST_KEYWORDS = frozenset({"install_requires", "setup_requires", "tests_require"})
DICT_KEYWORDS = frozenset({"extras_require"})


def _module_bindings(module: cst.Module) -> dict[str, cst.BaseExpression | None]:
    """Return module-level names bound by a plain assignment (None when bound more than once)."""
    bindings: dict[str, cst.BaseExpression | None] = {}
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            targets: list[cst.BaseAssignTargetExpression] = []
            value: cst.BaseExpression | None = None
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
                value = small.value
            elif isinstance(small, cst.AnnAssign) and small.value is not None:
                targets = [small.target]
                value = small.value
            for target in targets:
                if isinstance(target, cst.Name):
                    bindings[target.value] = None if target.value in bindings else value
    return bindings


def _is_setup(call: cst.Call) -> bool:
    func = call.func
    if isinstance(func, cst.Name):
        return func.value == "setup"
    return isinstance(func, cst.Attribute) and func.attr.value == "setup"


class _SetupCalls:
    def __init__(self) -> None:
        self.calls: list[cst.Call] = []

    def visit_Call(self, node: cst.Call) -> None:
        if _is_setup(node):
            self.calls.append(node)


class _Reader:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.bindings = _module_bindings(ctx.module)
        self.seen: set[int] = set()
        self.pins: list[Pin] = []
        self.problems: list[Problem] = []

    def strings(self, node: cst.BaseExpression, depth: int = 0) -> Iterator[cst.SimpleString]:
        """Yield the string literals of a requirement list expression."""
        if depth > 20:
            return
        if isinstance(node, cst.Name):
            bound = self.bindings.get(node.value)
            if bound is not None and id(bound) not in self.seen:
                self.seen.add(id(bound))
                yield from self.strings(bound, depth + 1)
        elif isinstance(node, (cst.List, cst.Tuple)):
            for element in node.elements:
                if isinstance(element, cst.Element) and isinstance(element.value, cst.SimpleString):
                    yield element.value
                elif isinstance(element, cst.StarredElement):
                    yield from self.strings(element.value, depth + 1)
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            yield from self.strings(node.left, depth + 1)
            yield from self.strings(node.right, depth + 1)

    def lists_of_dict(
        self, node: cst.BaseExpression, depth: int = 0
    ) -> Iterator[tuple[str, cst.BaseExpression]]:
        if isinstance(node, cst.Name) and depth < 20:
            bound = self.bindings.get(node.value)
            if bound is not None:
                yield from self.lists_of_dict(bound, depth + 1)
        elif isinstance(node, cst.Dict):
            for element in node.elements:
                if isinstance(element, cst.DictElement):
                    key = element.key
                    label = key.evaluated_value if isinstance(key, cst.SimpleString) else "?"
                    yield str(label), element.value

    def add(self, literal: cst.SimpleString, where: str) -> None:
        value = literal.evaluated_value
        if not isinstance(value, str):
            return
        start, end = self.ctx.span(literal)
        raw = self.ctx.source.text[start:end]
        prefix = len(literal.prefix)
        quote = len(literal.quote)
        inner = start + prefix + quote if raw[prefix + quote : len(raw) - quote] == value else None
        try:
            parsed = parse_pep508(value)
        except InvalidRequirement as exc:
            self.problems.append(
                Problem(
                    start, f"invalid requirement {value!r} in {where}: {str(exc).splitlines()[0]}"
                )
            )
            return
        spec_start = None
        if inner is not None and parsed.spec_start is not None and parsed.spec:
            spec_start = inner + parsed.spec_start
        self.pins.append(
            Pin(parsed.requirement.name, start, end, parsed.spec, PEP440, spec_start, where)
        )


def read(ctx: FileContext) -> tuple[list[Pin], list[Problem]]:
    """Return every requirement literal handed to `setup(...)` in a parsed setup.py."""
    finder = _SetupCalls()
    walk(ctx.module, finder)
    reader = _Reader(ctx)
    for call in finder.calls:
        for arg in call.args:
            if arg.keyword is None:
                continue
            keyword = arg.keyword.value
            if keyword in LIST_KEYWORDS:
                for literal in reader.strings(arg.value):
                    reader.add(literal, keyword)
            elif keyword in DICT_KEYWORDS:
                for extra, value in reader.lists_of_dict(arg.value):
                    for literal in reader.strings(value):
                        reader.add(literal, f"{keyword}[{extra!r}]")
    unique = {pin.start: pin for pin in reader.pins}
    return sorted(unique.values(), key=lambda p: p.start), reader.problems
