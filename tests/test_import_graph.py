"""The package has no import cycles, counting imports inside functions and type-only imports,
and each stage imports only the stages below it.

The graph is built from the source with `ast`: every `import` and `from ... import`, at module
level, inside a function, or under `if TYPE_CHECKING:` (never executed, but a type named there
ties the two modules together as surely). Importing `a.b.c` also imports the packages `a.b` and
`a` (unless the importer is inside them already). An executed cycle fails the test unless every
edge that closes it is in `LAZY`, an explicit list of imports kept inside functions for start-up
speed, each with its reason; a package that loads its own submodules on demand (the report
formats) needs no entry.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from helpers import SRC

PACKAGE = "claude_migrate"
ROOT = SRC / PACKAGE

# (importer, imported): imports placed inside a function so that a run loads only what it uses.
LAZY: dict[tuple[str, str], str] = {}


def allowed_lazy(module: str, target: str, lazy: bool) -> bool:
    """Whether an import may close a cycle: listed in LAZY, or a package loading its own
    submodule inside a function (a registry that imports only the member a run uses)."""
    own_member = target.startswith(module + ".") and MODULES[module].name == "__init__.py"
    return (module, target) in LAZY or (lazy and own_member)


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


def _imports(
    node: ast.AST, in_function: bool = False, type_only: bool = False
) -> Iterator[tuple[ast.stmt, bool, bool]]:
    """Yield every import statement under `node`, whether it is in a function, and whether it
    is only for type checkers (under `if TYPE_CHECKING:`)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child):
            for body, only in ((child.body, True), (child.orelse, type_only)):
                for other in body:
                    module = ast.Module(body=[other], type_ignores=[])
                    yield from _imports(module, in_function, only)
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function, type_only
        nested = in_function or isinstance(
            child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
        )
        yield from _imports(child, nested, type_only)


def _owner(name: str) -> str | None:
    """Return the module of the package a dotted name lives in (a module or a package)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def edges_of(module: str, type_only: bool = False) -> dict[str, bool]:
    """Return the modules `module` imports, each with whether every such import is lazy.

    With `type_only`, imports for type checkers count too (as module-level imports).
    """
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: dict[str, bool] = {}
    for statement, lazy, for_types in _imports(ast.parse(path.read_text(encoding="utf-8"))):
        if for_types and not type_only:
            continue
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


def graph(type_only: bool = False) -> dict[str, dict[str, bool]]:
    return {module: edges_of(module, type_only) for module in MODULES}


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


def _kept(type_only: bool) -> dict[str, set[str]]:
    return {
        module: {t for t, lazy in targets.items() if not allowed_lazy(module, t, lazy)}
        for module, targets in graph(type_only).items()
    }


def _described(kept: dict[str, set[str]], component: list[str]) -> str:
    inside = [
        f"{module} -> {target}"
        for module in component
        for target in sorted(kept[module])
        if target in component
    ]
    return "cycle: " + "; ".join(inside)


def test_the_package_has_no_import_cycle_but_the_documented_lazy_imports() -> None:
    kept = _kept(type_only=False)
    assert [_described(kept, component) for component in cycles(kept)] == []


def test_no_cycle_at_all_counting_type_only_imports() -> None:
    kept = _kept(type_only=True)
    assert [_described(kept, component) for component in cycles(kept)] == []


def test_type_only_imports_are_seen() -> None:
    # The job names the project's view for its type only: no executed import, one type-only.
    assert f"{PACKAGE}.core.project_view" not in graph()[f"{PACKAGE}.core.job"]
    assert f"{PACKAGE}.core.project_view" in graph(type_only=True)[f"{PACKAGE}.core.job"]


# Each stage imports only the stages below it. A package here never imports (at run time or
# for types) the packages listed for it; "front" is the command line, the API, the language
# server, campaigns and the model inventory.
FRONT = ("api", "cli", "lsp", "all_repos", "inventory", "__main__")
NEVER: dict[str, tuple[str, ...]] = {
    "core": ("analysis", "checks", "discovery", "engine", "manifests", "notebook", "report",
             "policy", "project", "targets", *FRONT),
    # The target registry is data every stage reads: it reads nothing of ours but `core`.
    "targets": ("analysis", "checks", "configs", "discovery", "engine", "manifests", "notebook",
                "policy", "project", "report", *FRONT),
    "policy": ("analysis", "discovery", "engine", "notebook", "report", *FRONT),
    "discovery": ("analysis", "checks", "engine", "project", "report", *FRONT),
    # The ast project phase and the LibCST analysis share only what lies below both.
    "project": ("analysis", "checks", "engine", "policy", "report", *FRONT),
    "analysis": ("engine", "discovery", "project", "report", *FRONT),
    "checks": ("engine", "discovery", "report", *FRONT),
    "engine": ("report", *FRONT),
    "report": FRONT,
}  # fmt: skip
# Plain types still defined above some of their users, named for types only.
TYPE_ONLY_EXCEPTIONS = {
    (f"{PACKAGE}.core.filekind", f"{PACKAGE}.policy.facts"): "ProjectFacts",
    (f"{PACKAGE}.core.filekind", f"{PACKAGE}.policy"): "ProjectFacts' package",
}
# Loading the policy is the engine's and the front ends' job: the analysis reads facts only.
POLICY_LOADING = ("policy.config", "policy.starter", "policy.view")


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_each_stage_imports_only_the_stages_below_it() -> None:
    full = graph(type_only=True)
    executed = graph()
    problems = []
    for module, targets in full.items():
        forbidden = NEVER.get(_stage(module), ())
        for target in targets:
            if _stage(target) not in forbidden:
                continue
            if (module, target) in TYPE_ONLY_EXCEPTIONS and target not in executed[module]:
                continue
            problems.append(f"{module} -> {target}")
    assert problems == []


def test_the_target_registry_imports_nothing_of_ours_but_core() -> None:
    full = graph(type_only=True)
    problems = [
        f"{module} -> {target}"
        for module, targets in full.items()
        if _stage(module) == "targets"
        for target in targets
        if _stage(target) not in ("core", "targets")
    ]
    assert problems == []
    assert f"{PACKAGE}.targets.registry" in full[f"{PACKAGE}.analysis.calls"]


def test_the_analysis_and_the_checks_never_load_the_policy() -> None:
    full = graph(type_only=True)
    loading = {f"{PACKAGE}.{name}" for name in POLICY_LOADING}
    problems = [
        f"{module} -> {target}"
        for module, targets in full.items()
        if _stage(module) in ("analysis", "checks", "project")
        for target in targets
        if target in loading
    ]
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
