"""Where the function making a Claude call looks its model up in a table of the module.

`limit = MAX_TOKENS[model]` or `CONFIGS.get(model, {})` beside `messages.create(model=model,
...)`: the table is keyed by model id, and a fix that moves the call to another model must find
that model in it too, or the lookup misses (a `KeyError`, or a default the code did not mean for
it). The table's entry for the old model cannot be renamed either: its figures are the old
model's (`analysis.model_mentions`, `facts`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
else:
    cst = lazy_import("libcst")


def missed_lookup(ctx: FileContext, site: CallSite, entry: Entry, target: str) -> str:
    """Return why moving the call's model to `target` would miss a table the function making
    the call looks the model up in (a module dict keyed by model ids, holding the current id
    and not `target`); "" when there is none, or the function is not in this file."""
    current = entry.value.value
    if not isinstance(current, str):
        return ""
    for function, name in _model_names(ctx, site, entry):
        for table, line in _lookups(ctx, function, name):
            keys = _table_keys(ctx, table)
            if keys is not None and current in keys and target not in keys:
                return (
                    f"{function.name.value}() looks the model up in {table} (line {line}), "
                    f"which has an entry for {current!r} and none for {target!r}: the lookup "
                    "would miss; add the new model's own entry to the table first"
                )
    # A wrapper of another module: the project phase read its lookups.
    for param, table, table_keys in site.via.tables if site.via is not None else ():
        if param == entry.key and current in table_keys and target not in table_keys:
            where = site.via.where(param) if site.via is not None else None
            at = f" ({where[0]})" if where else ""
            return (
                f"{site.via.callee if site.via else ''}() looks the model up in {table}{at}, "
                f"which has an entry for {current!r} and none for {target!r}: the lookup "
                "would miss; add the new model's own entry to the table first"
            )
    return ""


def _model_names(
    ctx: FileContext, site: CallSite, entry: Entry
) -> list[tuple[cst.FunctionDef, str]]:
    """Return the functions of this file making the call, each with the name its model has
    there: the call's own function (`model=model`), or a wrapper's parameter it is passed to."""
    if site.via is None:
        scope = site.record.scope.function()
        node = entry.value_node
        if isinstance(scope.node, cst.FunctionDef) and isinstance(node, cst.Name):
            return [(scope.node, node.value)]
        return []
    own = Path(str(ctx.path))
    found = []
    for param, path, line in site.via.reaches:
        if param != entry.key or Path(path) != own:
            continue
        function = _function_at(ctx, line)
        if function is not None:
            found.append((function, param))
    return found


def _function_at(ctx: FileContext, line: int) -> cst.FunctionDef | None:
    """Return the innermost function definition of the module spanning `line`."""
    best: cst.FunctionDef | None = None
    stack: list[cst.CSTNode] = [ctx.module]
    while stack:
        node = stack.pop()
        if isinstance(node, cst.FunctionDef):
            start, end = ctx.span(node)
            first, last = ctx.source.position(start)[0], ctx.source.position(end)[0]
            if not first <= line <= last:
                continue
            best = node
        if isinstance(node, (cst.Module, cst.IndentedBlock, cst.BaseCompoundStatement)):
            stack.extend(node.children)  # statements only: a function is a statement
    return best


def _lookups(ctx: FileContext, function: cst.FunctionDef, name: str) -> list[tuple[str, int]]:
    """Return the tables `function` looks `name` up in (`TABLE[name]`, `TABLE.get(name)`), by
    the table's name, with the line of the lookup."""
    found: list[tuple[str, int]] = []
    stack: list[cst.CSTNode] = [function.body]
    while stack:
        node = stack.pop()
        table = None
        if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name):
            index = node.slice[0].slice if len(node.slice) == 1 else None
            if isinstance(index, cst.Index) and _is_name(index.value, name):
                table = node.value.value
        elif (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "get"
            and isinstance(node.func.value, cst.Name)
            and node.args
            and _is_name(node.args[0].value, name)
        ):
            table = node.func.value.value
        if table is not None:
            found.append((table, ctx.source.position(ctx.span(node)[0])[0]))
        if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
            stack.extend(node.children)
    return found


def _is_name(node: cst.BaseExpression, name: str) -> bool:
    return isinstance(node, cst.Name) and node.value == name


def _table_keys(ctx: FileContext, table: str) -> set[str] | None:
    """Return the keys of a module constant written once as a dict display of string keys and
    never changed by item; None for anything else (its keys are not known here)."""
    scope = ctx.index.module_scope
    if scope is None or table in scope.subscript_sets or table in scope.deep_sets:
        return None
    # `TABLE: dict[str, X] = {...}` binds the name twice: its annotation and its value.
    bindings = [b for b in scope.bindings.get(table, []) if b.kind != "annotation"]
    if len(bindings) != 1 or bindings[0].kind != "assign":
        return None
    value = bindings[0].value
    if not isinstance(value, cst.Dict):
        return None
    keys: set[str] = set()
    for element in value.elements:
        if not isinstance(element, cst.DictElement) or not isinstance(
            element.key, cst.SimpleString
        ):
            return None  # a spread, or a computed key: more keys than are written
        try:
            text: Any = element.key.evaluated_value
        except Exception:  # an escape LibCST cannot evaluate
            return None
        if not isinstance(text, str):
            return None
        keys.add(text)
    return keys


def table_without(ctx: FileContext, current: str, target: str) -> str:
    """Return why an id written as data keeps its value: a table of the module (a constant
    dict keyed by model ids) has an entry for `current` and none for `target`, so code that
    looks the renamed value up there would miss it (or take a fallback meant for other models);
    "" when no such table is in the module."""
    for name, keys, node in _module_tables(ctx):
        if current not in keys or target in keys:
            continue
        at = f" (line {ctx.range(node).start.line})" if node is not None else ""
        return (
            f"the module's table {name}{at} has an entry for {current!r} and none for "
            f"{target!r}: a lookup of the new value there would miss; add the new model's own "
            "entry to the table first"
        )
    return ""


def _module_tables(ctx: FileContext) -> list[tuple[str, set[str], cst.CSTNode | None]]:
    """Return the module's constant dicts keyed by strings, with their keys and where each is
    assigned; read once per file."""
    key = ("model_tables.tables",)
    found: list[tuple[str, set[str], cst.CSTNode | None]] | None = ctx.memo.get(key)
    if found is None:
        found = []
        scope = ctx.index.module_scope
        bindings = scope.bindings if scope is not None else {}
        for name in sorted(bindings):
            keys = _table_keys(ctx, name)
            if keys is not None:
                node = next((b.node for b in bindings[name] if b.kind == "assign"), None)
                found.append((name, keys, node))
        ctx.memo[key] = found
    return found


def lookup_unproven(ctx: FileContext, table: str, current: str, target: str) -> str:
    """Return why an id a subscript reads or writes (`MODELS["claude-2.1"]`) keeps its
    value: the table is not one of the module's constant dicts (its keys built elsewhere, from
    objects, in a loop), so nothing proves it has an entry for `target`: a renamed lookup may
    raise KeyError, a renamed key gives the new id what the old one held; "" when the table is
    such a dict (whose keys the same fix renames)."""
    if any(name == table for name, _keys, _node in _module_tables(ctx)):
        return ""
    return (
        f"it indexes {table}, whose keys this analysis cannot read: nothing proves an entry "
        f"for {target!r} (a renamed lookup could raise KeyError, a renamed key would give "
        "the new id what the old one holds)"
    )
