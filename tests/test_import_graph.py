"""The package has no import cycles, counting imports inside functions.

The graph is built from the source with `ast`: every `import` and `from ... import`, at module
level or inside a function, except those under `if TYPE_CHECKING:` (never executed). Importing
`a.b.c` also imports the packages `a.b` and `a` (unless the importer is inside them already).
A cycle fails the test unless every edge that closes it is in `LAZY`, an explicit list of
imports kept inside functions for start-up speed, each with its reason.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from helpers import SRC

PACKAGE = "claude_migrate"
ROOT = SRC / PACKAGE

# (importer, imported): imports placed inside a function so that a run loads only what it uses.
LAZY: dict[tuple[str, str], str] = {
    (f"{PACKAGE}.report", f"{PACKAGE}.report.text"): "a run loads only the formatter it prints",
    (f"{PACKAGE}.report", f"{PACKAGE}.report.json"): "a run loads only the formatter it prints",
    (f"{PACKAGE}.report", f"{PACKAGE}.report.github"): "a run loads only the formatter it prints",
    (f"{PACKAGE}.report", f"{PACKAGE}.report.sarif"): "a run loads only the formatter it prints",
    (f"{PACKAGE}.report", f"{PACKAGE}.report.junit"): "a run loads only the formatter it prints",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(node: ast.AST, in_function: bool = False) -> Iterator[tuple[ast.stmt, bool]]:
    """Yield every executed import statement under `node`, and whether it is in a function."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for other in child.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]), in_function)
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function
        nested = in_function or isinstance(
            child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        )
        yield from _imports(child, nested)


def _owner(name: str) -> str | None:
    """Return the module of the package a dotted name lives in (a module or a package)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def edges_of(module: str) -> dict[str, bool]:
    """Return the modules `module` imports, each with whether every such import is lazy."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, bool] = {}
    for statement, lazy in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(statement, ast.Import):
            names = [alias.name for alias in statement.names]
        else:
            if statement.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (statement.level - 1)]
                base = ".".join(parts + ([statement.module] if statement.module else []))
            else:
                base = statement.module or ""
            names = [base, *(f"{base}.{alias.name}" for alias in statement.names)]
        for name in names:
            if not name.startswith(PACKAGE):
                continue
            target = _owner(name)
            if target is None or target == module:
                continue
            targets = [target]
            parent = target.rpartition(".")[0]
            while parent and parent != PACKAGE:
                if not (module == parent or module.startswith(parent + ".")):
                    targets.append(parent)
                parent = parent.rpartition(".")[0]
            for each in targets:
                found[each] = found.get(each, True) and lazy
    return found


def graph() -> dict[str, dict[str, bool]]:
    return {module: edges_of(module) for module in MODULES}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Return the strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(edges[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_package_has_no_import_cycle_but_the_documented_lazy_imports() -> None:
    full = graph()
    kept = {
        module: {target for target in targets if (module, target) not in LAZY}
        for module, targets in full.items()
    }
    problems = []
    for component in cycles(kept):
        inside = [
            f"{module} -> {target}"
            for module in component
            for target in sorted(kept[module])
            if target in component
        ]
        problems.append("cycle: " + "; ".join(inside))
    assert problems == []


def test_every_allowed_import_exists_and_is_really_lazy() -> None:
    full = graph()
    for (module, target), reason in LAZY.items():
        assert reason
        assert target in full[module], f"{module} no longer imports {target}: drop it from LAZY"
        assert full[module][target], f"{module} imports {target} at module level: it is not lazy"


def test_the_graph_sees_imports_inside_functions() -> None:
    # The engine reaches the dependency-file kind only when it meets one: a function-level import.
    engine = graph()[f"{PACKAGE}.engine.runner"]
    assert engine[f"{PACKAGE}.manifests.processor"] is True
    assert f"{PACKAGE}.manifests" in engine


def test_a_cycle_is_found_where_there_is_one() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
