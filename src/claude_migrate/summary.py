"""What one module says that other modules can use: its facts, read with CPython's `ast`.

A summary is plain data (lists, dicts, strings, numbers), so it pickles to workers, is stored as
JSON and is cheap to hash: imports (made absolute), module-level assignments, functions and
methods with their parameters, local assignments, returns and calls, and classes with their
`self.<attr>` assignments. Expressions are kept as small tuples (`expr`), never evaluated here:
`project.py` decides what they mean across modules. CPython's parser is ~10x faster than LibCST
(DESIGN.md), and the project phase runs before any file is parsed with LibCST.
"""

from __future__ import annotations

import ast
import warnings
from typing import Any

# Expressions, as JSON-able lists:
#   ["lit", value]                 a literal (number, string, bool, None, list/tuple of literals)
#   ["name", id]
#   ["attr", expr, attr]
#   ["call", callee, [args], {kw: expr}, star_args, star_kwargs, line, column]
#   ["or", [exprs]]                `a or b or c`
#   ["if", body, orelse]           `a if test else b`
#   ["dict", {key: expr}, opaque]  a dict literal with string keys
#   ["sub", expr, key]             `x["key"]`, a subscript by a string literal
#   ["?"]                          anything else
Expr = list[Any]
UNKNOWN_EXPR: Expr = ["?"]
MAX_EXPR_DEPTH = 24


def _literal(node: ast.expr) -> tuple[bool, Any]:
    if isinstance(node, ast.Constant) and isinstance(
        node.value, (str, int, float, bool, type(None))
    ):
        return True, node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, (ast.USub, ast.UAdd))
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, (int, float))
        and not isinstance(node.operand.value, bool)
    ):
        value = node.operand.value
        return True, -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, (ast.List, ast.Tuple)):
        items = []
        for element in node.elts:
            ok, value = _literal(element)
            if not ok:
                return False, None
            items.append(value)
        return True, items
    return False, None


def expr(node: ast.expr | None, depth: int = 0) -> Expr:
    """Return the small description of an expression that summaries keep."""
    if node is None or depth > MAX_EXPR_DEPTH:
        return UNKNOWN_EXPR
    ok, value = _literal(node)
    if ok:
        return ["lit", value]
    if isinstance(node, ast.Name):
        return ["name", node.id]
    if isinstance(node, ast.Attribute):
        return ["attr", expr(node.value, depth + 1), node.attr]
    if isinstance(node, ast.Await):
        return expr(node.value, depth + 1)
    if isinstance(node, ast.Call):
        args = []
        star_args = False
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                star_args = True
                break
            args.append(expr(arg, depth + 1))
        kwargs: dict[str, Expr] = {}
        star_kwargs: list[Expr] = []
        for keyword in node.keywords:
            if keyword.arg is None:
                star_kwargs.append(expr(keyword.value, depth + 1))
            else:
                kwargs[keyword.arg] = expr(keyword.value, depth + 1)
        return [
            "call", expr(node.func, depth + 1), args, kwargs, star_args, star_kwargs,
            node.lineno, node.col_offset + 1,
        ]  # fmt: skip
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return ["or", [expr(v, depth + 1) for v in node.values]]
    if isinstance(node, ast.IfExp):
        return ["if", expr(node.body, depth + 1), expr(node.orelse, depth + 1)]
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and isinstance(node.slice.value, str)
    ):
        return ["sub", expr(node.value, depth + 1), node.slice.value]
    if isinstance(node, ast.Dict):
        entries: dict[str, Expr] = {}
        opaque = False
        for key, value in zip(node.keys, node.values, strict=False):
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                entries[key.value] = expr(value, depth + 1)
            else:
                opaque = True
        return ["dict", entries, opaque]
    return UNKNOWN_EXPR


def _absolute(module: str, is_package: bool, level: int, name: str | None) -> str:
    """Return the absolute module a (maybe relative) `from` import names."""
    if level == 0:
        return name or ""
    parts = module.split(".") if module else []
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    if name:
        parts.append(name)
    return ".".join(parts)


def _params(args: ast.arguments) -> list[dict[str, Any]]:
    """Return a function's parameters in order: name, kind, default, annotation."""
    found: list[dict[str, Any]] = []
    positional = [*args.posonlyargs, *args.args]
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
    defaults.extend(args.defaults)
    for arg, default in zip(positional, defaults, strict=False):
        found.append(_param(arg, "positional", default))
    if args.vararg is not None:
        found.append(_param(args.vararg, "varargs", None))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=False):
        found.append(_param(arg, "keyword", default))
    if args.kwarg is not None:
        found.append(_param(args.kwarg, "varkw", None))
    return found


def _param(arg: ast.arg, kind: str, default: ast.expr | None) -> dict[str, Any]:
    return {
        "name": arg.arg,
        "kind": kind,
        "default": expr(default) if default is not None else None,
        "default_at": [default.lineno, default.col_offset + 1] if default is not None else None,
        "annotation": expr(arg.annotation) if arg.annotation is not None else None,
    }


class _FunctionReader(ast.NodeVisitor):
    """Collects one function body's assignments, returns and calls (not nested defs' ones)."""

    def __init__(
        self,
        facts: dict[str, Any],
        self_name: str | None,
        attributes: dict[str, list[Any]] | None,
        qualname: str,
    ) -> None:
        self.facts = facts
        self.qualname = qualname
        self.self_name = self_name
        self.attributes = attributes
        self.depth = 0  # control-flow nesting

    def _nested(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_If = visit_For = visit_AsyncFor = visit_While = visit_Try = visit_With = _nested
    visit_AsyncWith = visit_Match = _nested

    def visit_FunctionDef(self, node: ast.AST) -> None:
        return  # a nested function is its own scope

    visit_AsyncFunctionDef = visit_Lambda = visit_ClassDef = visit_FunctionDef

    def _assign(self, target: ast.expr, value: ast.expr | None) -> None:
        described = expr(value) if value is not None else UNKNOWN_EXPR
        if isinstance(target, ast.Name):
            self.facts["locals"].setdefault(target.id, []).append([described, self.depth > 0])
        elif (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == self.self_name
            and self.attributes is not None
        ):
            self.attributes.setdefault(target.attr, []).append([described, self.qualname])
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._assign(element, None)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._assign(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assign(node.target, node.value)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._assign(node.target, None)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.facts["locals"].setdefault(node.target.id, []).append([expr(node.value), True])
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.facts["returns"].append(expr(node.value))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.facts["calls"].append(expr(node))
        self.generic_visit(node)


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    self_name: str | None,
    attributes: dict[str, list[Any]] | None,
    qualname: str,
) -> dict[str, Any]:
    is_method = attributes is not None
    params = _params(node.args)
    decorators = [d.id for d in node.decorator_list if isinstance(d, ast.Name)]
    facts: dict[str, Any] = {
        "line": node.lineno,
        "params": params,
        "method": is_method and "staticmethod" not in decorators,
        "classmethod": "classmethod" in decorators,
        "locals": {},
        "returns": [],
        "calls": [],
        "returns_annotation": expr(node.returns) if node.returns is not None else None,
    }
    reader = _FunctionReader(facts, self_name, attributes, qualname)
    for statement in node.body:
        reader.visit(statement)
    return facts


def summarise(text: str, module: str, is_package: bool) -> dict[str, Any] | None:
    """Return the summary of a module's source, or None when CPython cannot parse it."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return summarise_tree(tree, module, is_package)


def summarise_tree(tree: ast.Module, module: str, is_package: bool) -> dict[str, Any] | None:
    """Return the summary of a parsed module, or None when it nests too deeply to read."""
    summary: dict[str, Any] = {
        "module": module,
        "package": is_package,
        "imports": {},  # local name -> absolute dotted name
        "star_imports": [],
        "all": None,
        "assigns": {},  # name -> [[expr, nested]]
        "functions": {},  # "f" or "Class.method" -> facts
        "classes": {},  # name -> {"attributes": {attr: [expr]}, "fields": {...}, "bases": [...]}
        "calls": [],  # module-level calls
    }
    try:
        _read_body(tree.body, summary, module, is_package, nested=False)
    except RecursionError:
        return None
    return summary


def _read_body(
    body: list[ast.stmt], summary: dict[str, Any], module: str, is_package: bool, nested: bool
) -> None:
    for node in body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    summary["imports"][alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    summary["imports"][top] = top
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, is_package, node.level, node.module)
            for alias in node.names:
                if alias.name == "*":
                    summary["star_imports"].append(base)
                    continue
                summary["imports"][alias.asname or alias.name] = (
                    f"{base}.{alias.name}" if base else alias.name
                )
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            for target in targets:
                if isinstance(target, ast.Name) and value is not None:
                    if target.id == "__all__":
                        ok, names = _literal(value)
                        if (
                            ok
                            and isinstance(names, list)
                            and all(isinstance(n, str) for n in names)
                        ):
                            summary["all"] = names
                        continue
                    summary["assigns"].setdefault(target.id, []).append([expr(value), nested])
                elif isinstance(target, ast.Name):
                    continue
                elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    # `clients[key] = make()`: the dict holds what the value is.
                    summary["assigns"].setdefault(target.value.id, []).append(
                        [["item", expr(value)] if value is not None else UNKNOWN_EXPR, True]
                    )
            if value is not None:
                for call in ast.walk(value):
                    if isinstance(call, ast.Call):
                        summary["calls"].append(expr(call))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            summary["functions"][node.name] = _function(node, None, None, node.name)
            summary["assigns"].setdefault(node.name, []).append([["def", node.name], nested])
        elif isinstance(node, ast.ClassDef):
            _read_class(node, summary)
            summary["assigns"].setdefault(node.name, []).append([["class", node.name], nested])
        elif isinstance(node, (ast.If, ast.Try)) or type(node).__name__ == "TryStar":
            for part in ("body", "orelse", "finalbody"):
                _read_body(getattr(node, part, []), summary, module, is_package, True)
            for handler in getattr(node, "handlers", []):
                _read_body(handler.body, summary, module, is_package, True)
        else:
            for call in ast.walk(node):
                if isinstance(call, ast.Call):
                    summary["calls"].append(expr(call))


def _read_class(node: ast.ClassDef, summary: dict[str, Any]) -> None:
    attributes: dict[str, list[Any]] = {}  # attr -> [[expr, method qualname or None]]
    fields: dict[str, Any] = {}
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            positional = [*statement.args.posonlyargs, *statement.args.args]
            self_name = positional[0].arg if positional else None
            is_static = any(
                isinstance(d, ast.Name) and d.id == "staticmethod" for d in statement.decorator_list
            )
            qualname = f"{node.name}.{statement.name}"
            facts = _function(statement, None if is_static else self_name, attributes, qualname)
            summary["functions"][qualname] = facts
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            fields[statement.target.id] = {
                "default": expr(statement.value) if statement.value is not None else None,
                "default_at": [statement.value.lineno, statement.value.col_offset + 1]
                if statement.value is not None
                else None,
            }
            if statement.value is not None:
                attributes.setdefault(statement.target.id, []).append([expr(statement.value), None])
        elif isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    attributes.setdefault(target.id, []).append([expr(statement.value), None])
    summary["classes"][node.name] = {
        "line": node.lineno,
        "attributes": attributes,
        "fields": fields,
        "bases": [expr(b) for b in node.bases],
        "decorators": [expr(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list],
    }
