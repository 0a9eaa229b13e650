"""What one module says that other modules can use: its facts, read with CPython's `ast`.

A summary is plain data (lists, dicts, strings, numbers), so it pickles to workers, is stored as
JSON and is cheap to hash: imports (made absolute), module-level assignments, functions and
methods with their parameters, local assignments, returns and calls, and classes with their
`self.<attr>` assignments. Expressions are kept as small tuples (`expr`), never evaluated here:
`project/phase.py` decides what they mean across modules. CPython's parser is about 10x faster
than LibCST (1.0 s against 10.5 s on the anthropic SDK's 567 files that name Claude), and the
project phase runs before any file is parsed with LibCST.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from claude_migrate.core.arithmetic import fold
from claude_migrate.core.templates import percent_pieces

# Expressions, as JSON-able lists:
#   ["lit", value]                 a literal (number, string, bool, None, list/tuple of literals)
#   ["name", id]
#   ["attr", expr, attr]
#   ["call", callee, [args], {kw: expr}, star_args, star_kwargs, line, column]
#   ["or", [exprs]]                `a or b or c`
#   ["if", body, orelse]           `a if test else b`
#   ["dict", {key: expr}, opaque, [name]]  a dict literal with string keys, and the names
#                                  spread into it (`{**kwargs}`, `d.update(kwargs)`); a local's
#                                  may end with the keys it is given only under control flow
#                                  (`if x: d["temperature"] = t`): `[.., [name], [key]]`; a
#                                  literal's entries a later spread of unseen keys may replace
#                                  end it, each with those spreads: `[.., [key], {key: [expr,
#                                  [expr]]}]`
#   ["sub", expr, key]             `x["key"]`, a subscript by a string literal (key None: by
#                                  any other expression; `x[name]`: `[.., None, ["name", id]]`)
#   ["join", [expr]]               an f-string: its parts
#   ["join", [expr, expr], "+"]    `a + b` (a string only when both are strings)
#   ["enter", expr]                what `with expr as name` binds (`__enter__`'s value)
#   ["tuple", [expr]]              what `return a, b` gives (a function's returns only)
#   ["part", expr, index]          what `a, b = expr` gives `a` (0) or `b` (1)
#   ["?"]                          anything else
Expr = list[Any]
UNKNOWN_EXPR: Expr = ["?"]
MAX_EXPR_DEPTH = 24


_LITERAL_TYPES = (str, int, float, bool, type(None))


def _literal(node: ast.expr) -> tuple[bool, Any]:
    if type(node) is ast.Constant:
        value = node.value
        return (True, value) if isinstance(value, _LITERAL_TYPES) else (False, None)
    if type(node) is ast.UnaryOp:
        operand = node.operand
        negative = type(node.op) is ast.USub
        if (
            (negative or type(node.op) is ast.UAdd)
            and type(operand) is ast.Constant
            and isinstance(operand.value, (int, float))
            and not isinstance(operand.value, bool)
        ):
            return True, -operand.value if negative else operand.value
        return False, None
    if type(node) is ast.List or type(node) is ast.Tuple:
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
    # Dispatched on the exact node type, the most frequent first: summaries describe every
    # call, assignment and return of the modules they read. The rarer kinds are one lookup.
    if type(node) is ast.Name:
        return ["name", node.id]
    if type(node) is ast.Attribute:
        return ["attr", expr(node.value, depth + 1), node.attr]
    if type(node) is ast.Call:
        return _call(node, depth)
    if type(node) in _LITERAL_NODES:
        ok, value = _literal(node)
        return ["lit", value] if ok else UNKNOWN_EXPR
    described = _DESCRIBED.get(type(node))
    return UNKNOWN_EXPR if described is None else described(node, depth)


def _await(node: ast.Await, depth: int) -> Expr:
    return expr(node.value, depth + 1)


def _either(node: ast.BoolOp, depth: int) -> Expr:
    """`a or b`: either value (an `and` is not described)."""
    if type(node.op) is not ast.Or:
        return UNKNOWN_EXPR
    return ["or", [expr(v, depth + 1) for v in node.values]]


def _chosen(node: ast.IfExp, depth: int) -> Expr:
    return ["if", expr(node.body, depth + 1), expr(node.orelse, depth + 1)]


def _subscript(node: ast.Subscript, depth: int) -> Expr:
    key = node.slice
    if type(key) is ast.Constant and isinstance(key.value, str):
        return ["sub", expr(node.value, depth + 1), key.value]
    if type(key) is ast.Slice:
        return UNKNOWN_EXPR
    if type(key) is ast.Name:
        # `PRESETS[ACTIVE]`: the key's name, which a literal bound to it may settle.
        return ["sub", expr(node.value, depth + 1), None, ["name", key.id]]
    return ["sub", expr(node.value, depth + 1), None]


def _formatted(node: ast.JoinedStr, depth: int) -> Expr:
    """An f-string: its literal parts and the expressions it formats (a conversion or a
    format spec makes it unknown)."""
    parts: list[Expr] = []
    for value in node.values:
        if type(value) is ast.Constant:
            parts.append(["lit", value.value])
        elif (
            type(value) is ast.FormattedValue
            and value.conversion == -1
            and value.format_spec is None
        ):
            parts.append(expr(value.value, depth + 1))
        else:
            return UNKNOWN_EXPR
    return ["join", parts]


def _binary(node: ast.BinOp, depth: int) -> Expr:
    """Arithmetic on number literals, or `a + b` (a string only when both are strings)."""
    number = _arithmetic(node, depth)
    if number is not None:
        return ["lit", number]
    if type(node.op) is ast.Add:
        return ["join", [expr(node.left, depth + 1), expr(node.right, depth + 1)], "+"]
    if type(node.op) is ast.Mod and type(node.left) is ast.Constant:
        return _percent(node, depth)
    return UNKNOWN_EXPR


def _percent(node: ast.BinOp, depth: int) -> Expr:
    """`"claude-%s" % name`, `"claude-%s-%s" % (a, b)`: a string built from parts when the
    template's only fields are `%s` (`core.templates`), one for each value."""
    template = node.left.value if type(node.left) is ast.Constant else None
    pieces = percent_pieces(template) if isinstance(template, str) else None
    values = node.right.elts if type(node.right) is ast.Tuple else [node.right]
    if pieces is None or any(type(value) is ast.Starred for value in values):
        return UNKNOWN_EXPR
    if sum(isinstance(piece, int) for piece in pieces) != len(values):
        return UNKNOWN_EXPR
    return [
        "join",
        [["lit", p] if isinstance(p, str) else expr(values[p], depth + 1) for p in pieces],
    ]


def _dict(node: ast.Dict, depth: int) -> Expr:
    """A dict literal: its string-keyed entries, whether any other key makes it opaque, and
    the names spread into it (`{**kwargs}`).

    An entry a later `**spread` may replace is not one: `{"temperature": t, **extra}` sends
    what `extra` holds when it has the key, so only a spread of a dict literal whose keys are
    all seen keeps the entries before it that it lacks."""
    entries: dict[str, Expr] = {}
    opaque = False
    spreads: list[str] = []
    # An entry a later spread of unseen keys may replace: [its value, those spreads].
    shadowed: dict[str, list[Any]] = {}
    for name, value in zip(node.keys, node.values, strict=False):
        if type(name) is ast.Constant and isinstance(name.value, str):
            entries[name.value] = expr(value, depth + 1)
            shadowed.pop(name.value, None)
            continue
        opaque = True
        if name is not None:
            continue
        inner = (
            _dict(value, depth + 1) if type(value) is ast.Dict and depth < MAX_EXPR_DEPTH else None
        )
        if inner is None or inner[2]:
            spread = UNKNOWN_EXPR if inner is not None else expr(value, depth + 1)
            _shadow(entries, shadowed, spread)
        else:
            entries.update(inner[1])
            for key in inner[1]:
                shadowed.pop(key, None)
        if type(value) is ast.Name:
            spreads.append(value.id)
    if shadowed:
        return ["dict", entries, opaque, spreads, [], shadowed]
    return ["dict", entries, opaque, spreads]


def _shadow(entries: dict[str, Expr], shadowed: dict[str, list[Any]], spread: Expr) -> None:
    """Move the entries a `**spread` of unseen keys follows out of `entries`, each kept with
    the spreads after it (the phase reads one per caller: `{"temperature": t, **self.extra}`
    sends `t` for a caller whose `extra` lacks the key)."""
    for key, value in entries.items():
        shadowed[key] = [value, []]
    entries.clear()
    for held in shadowed.values():
        held[1].append(spread)


_DESCRIBED: dict[type[ast.expr], Callable[[Any, int], Expr]] = {
    ast.Await: _await,
    ast.BoolOp: _either,
    ast.IfExp: _chosen,
    ast.Subscript: _subscript,
    ast.JoinedStr: _formatted,
    ast.BinOp: _binary,
    ast.Dict: _dict,
}


_LITERAL_NODES = frozenset({ast.Constant, ast.UnaryOp, ast.List, ast.Tuple})
_OPERATOR_SYMBOLS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.LShift: "<<",
}


def _arithmetic(node: ast.BinOp, depth: int) -> int | float | None:
    """Return arithmetic on number literals (`8 * 1024`) as Python computes it, else None."""
    symbol = _OPERATOR_SYMBOLS.get(type(node.op))
    if symbol is None or depth > MAX_EXPR_DEPTH:
        return None
    sides = []
    for side in (node.left, node.right):
        if type(side) is ast.BinOp:
            value = _arithmetic(side, depth + 1)
            if value is None:
                return None
        else:
            ok, value = _literal(side) if type(side) in _LITERAL_NODES else (False, None)
            if not ok:
                return None
        sides.append(value)
    return fold(symbol, sides[0], sides[1])


def _call(node: ast.Call, depth: int) -> Expr:
    args = []
    star_args = False
    for arg in node.args:
        if type(arg) is ast.Starred:
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


# The longest string annotation read (`"Anthropic"`, `"Optional[anthropic.Anthropic]"`).
MAX_ANNOTATION_TEXT = 200
# Keys a function may name as set in one name's items (`keyed`): past it, one unnamed key.
MAX_KEYED = 16
# The most names an unpacked tuple is read for (`a, b = make()`, `return a, b`).
MAX_TUPLE = 8


def annotation(node: ast.expr, depth: int = 0) -> Expr:
    """Return the type an annotation names, as an expression: itself, or the one type an
    optional names (`Optional[X]`, `Union[X, None]`, `X | None`), or what a string annotation
    names (`"X"`, PEP 563/484 forward references), read the same way."""
    if depth > MAX_EXPR_DEPTH:
        return UNKNOWN_EXPR
    if type(node) is ast.Constant and isinstance(node.value, str):
        text = node.value.strip()
        if len(text) > MAX_ANNOTATION_TEXT:
            return UNKNOWN_EXPR
        try:
            parsed = ast.parse(text, mode="eval").body
        except (SyntaxError, ValueError):
            return UNKNOWN_EXPR
        return annotation(parsed, depth + 1)
    if type(node) is ast.BinOp and type(node.op) is ast.BitOr:
        others = [side for side in (node.left, node.right) if not _is_none(side)]
        return annotation(others[0], depth + 1) if len(others) == 1 else UNKNOWN_EXPR
    if type(node) is ast.Subscript:
        name = _last_name(node.value)
        if name == "Optional":
            return annotation(node.slice, depth + 1)
        if name == "Union":
            items = node.slice.elts if type(node.slice) is ast.Tuple else [node.slice]
            others = [item for item in items if not _is_none(item)]
            return annotation(others[0], depth + 1) if len(others) == 1 else UNKNOWN_EXPR
    return expr(node)


def _is_none(node: ast.expr) -> bool:
    return type(node) is ast.Constant and node.value is None


def _last_name(node: ast.expr) -> str | None:
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return node.attr
    return None


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
        "annotation": annotation(arg.annotation) if arg.annotation is not None else None,
    }


# Statements under which an assignment may not run on every path through the function.
_CONTROL_FLOW = frozenset(
    {ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.With, ast.AsyncWith, ast.Match}
)
# Nodes that hold no call, assignment or return.
_LEAVES = frozenset(
    {
        ast.Name, ast.Constant, ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal,
        ast.Import, ast.ImportFrom,
    }
)  # fmt: skip
# What a function body's walk does not enter: leaves, and nested scopes (their own facts).
_SKIPPED = _LEAVES | {ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef}
# What a function body's walk never queues: nested functions and lambdas are queued, and read
# as their own facts (`_read_function_body`).
_NOT_WALKED = (_LEAVES - {ast.Import, ast.ImportFrom}) | {ast.ClassDef}
# Fields that never hold a node with a call inside (names, operators, expression contexts).
_NOT_NODES = frozenset(
    {
        "ctx", "op", "ops", "id", "attr", "arg", "asname", "name", "names", "module", "level",
        "conversion", "is_async", "kind", "simple", "type_comment", "tag", "kwd_attrs",
    }
)  # fmt: skip
_CHILD_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}


def _child_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    """Return the fields of a node type that may hold nodes, in the grammar's order."""
    found = _CHILD_FIELDS.get(kind)
    if found is None:
        found = tuple(name for name in kind._fields if name not in _NOT_NODES)
        _CHILD_FIELDS[kind] = found
    return found


def _calls_in(node: ast.AST) -> list[ast.Call]:
    """Return the calls a node holds, nested scopes included, in `ast.walk`'s order.

    Breadth-first, as `ast.walk` gives them (summaries keep that order), without its
    generators and without queueing leaves.
    """
    found: list[ast.Call] = []
    queue = [node]
    for current in queue:  # the queue grows while it is read: breadth-first
        if type(current) is ast.Call:
            found.append(current)
        for name in _child_fields(type(current)):
            value = getattr(current, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST) and type(item) not in _LEAVES:
                        queue.append(item)
            elif isinstance(value, ast.AST) and type(value) not in _LEAVES:
                queue.append(value)
    return found


def _read_function_body(
    body: list[ast.stmt],
    facts: dict[str, Any],
    self_name: str | None,
    attributes: dict[str, list[Any]] | None,
    qualname: str,
    functions: dict[str, Any],
) -> None:
    """Collect one function body's assignments, returns and calls (not nested defs' ones)."""
    _BodyReader(facts, self_name, attributes, qualname, functions).read(body)


class _BodyReader:
    """One function body's walk: in source order (depth first, each node before what it holds),
    each assignment marked with whether it sits under control flow.

    A loop over an explicit stack with one table lookup per node: summaries read every function
    of the modules they cover, and `ast.NodeVisitor`'s dispatch per node cost more than the
    parse. A handler takes a node and its depth under control flow and returns the depth its
    children are read at, or -1 when they are not read here (a nested scope: its own facts).
    """

    def __init__(
        self,
        facts: dict[str, Any],
        self_name: str | None,
        attributes: dict[str, list[Any]] | None,
        qualname: str,
        functions: dict[str, Any],
    ) -> None:
        self.facts = facts
        # The `elif`s of an `if` chain read as one guard (`_guard`): not guards of their own.
        self.chained: set[int] = set()
        self.local_names: dict[str, list[Any]] = facts["locals"]
        self.stores: dict[str, dict[str, list[Expr]]] = facts["stores"]
        self.changed: list[str] = facts["changed"]
        self.self_name = self_name
        self.attributes = attributes
        self.qualname = qualname
        self.functions = functions
        self.handlers: dict[type[ast.AST], Callable[[Any, int], int]] = {
            ast.Call: self._call,
            ast.Assign: self._assign,
            ast.AnnAssign: self._annotated,
            ast.AugAssign: self._augmented,
            ast.Return: self._return,
            ast.FunctionDef: self._nested_function,
            ast.AsyncFunctionDef: self._nested_function,
            ast.Lambda: self._lambda,
            ast.Import: self._import,
            ast.ImportFrom: self._import,
            ast.Delete: self._delete,
            ast.NamedExpr: self._named,
            ast.With: self._with,
            ast.AsyncWith: self._with,
            ast.If: self._if,
        }

    def read(self, body: list[ast.stmt]) -> None:
        handlers = self.handlers
        stack: list[tuple[ast.AST, int]] = [(statement, 0) for statement in reversed(body)]
        pop, push = stack.pop, stack.append
        while stack:
            node, depth = pop()
            kind = type(node)
            handler = handlers.get(kind)
            if handler is not None:
                depth = handler(node, depth)
                if depth < 0:
                    continue
            elif kind in _SKIPPED:
                continue
            elif kind in _CONTROL_FLOW:
                depth += 1
            for name in reversed(_child_fields(kind)):
                value = getattr(node, name, None)
                if type(value) is list:
                    for item in reversed(value):
                        if isinstance(item, ast.AST) and type(item) not in _NOT_WALKED:
                            push((item, depth))
                elif isinstance(value, ast.AST) and type(value) not in _NOT_WALKED:
                    push((value, depth))

    def _call(self, node: ast.Call, depth: int) -> int:
        self.facts["calls"].append(expr(node))
        for keyword in node.keywords:
            if keyword.arg == "messages" and _ends_with_assistant(keyword.value):
                # A request ending in a prefilled assistant turn: some models answer 400.
                self.facts.setdefault("prefills", []).append(node.lineno)
        func = node.func
        if type(func) is ast.Attribute and type(func.value) is ast.Name:
            self._dict_change(node, func.value.id, func.attr, depth > 0)
        return depth

    def _assign(self, node: ast.Assign, depth: int) -> int:
        for target in node.targets:
            self.bind(target, node.value, depth > 0)
        return depth

    def _annotated(self, node: ast.AnnAssign, depth: int) -> int:
        if node.value is not None:
            self.bind(node.target, node.value, depth > 0)
        return depth

    def _augmented(self, node: ast.AugAssign, depth: int) -> int:
        self.bind(node.target, None, depth > 0)
        return depth

    def _return(self, node: ast.Return, depth: int) -> int:
        if node.value is not None:
            self.facts["returns"].append(_returned(node.value))
        return depth

    def _nested_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, depth: int) -> int:
        """A nested function: its own facts, names it does not bind read from this one."""
        inner = f"{self.qualname}.{node.name}"
        self.functions[inner] = _function(node, None, None, inner, self.functions, self.qualname)
        self.local_names.setdefault(node.name, []).append([["def", inner], depth > 0])
        return -1

    def _lambda(self, node: ast.Lambda, depth: int) -> int:
        self.facts["calls"].extend(_lambda_calls(node))
        return -1

    def _import(self, node: ast.Import | ast.ImportFrom, depth: int) -> int:
        """An import inside a function binds a local name (resolved by `project.py`)."""
        for name, imported in _local_imports(node):
            self.local_names.setdefault(name, []).append([imported, depth > 0])
        return -1

    def _delete(self, node: ast.Delete, depth: int) -> int:
        for target in node.targets:
            if type(target) is ast.Subscript and type(target.value) is ast.Name:
                name = target.value.id
                self._changes(name, target.slice)
                key = target.slice
                text = key.value if type(key) is ast.Constant else None
                _del_item(
                    self.local_names, name, text if isinstance(text, str) else None, depth > 0
                )
        return depth

    def _named(self, node: ast.NamedExpr, depth: int) -> int:
        self.local_names.setdefault(node.target.id, []).append([expr(node.value), True])
        return depth

    def _with(self, node: ast.With | ast.AsyncWith, depth: int) -> int:
        for item in node.items:
            bound = item.optional_vars
            if type(bound) is ast.Name:
                # `with Anthropic() as client`: what `__enter__` gives (`["enter", expr]`).
                entered = ["enter", expr(item.context_expr)]
                self.local_names.setdefault(bound.id, []).append([entered, depth > 0])
            elif bound is not None:
                self.bind(bound, None, depth > 0)
        return depth + 1

    def _if(self, node: ast.If, depth: int) -> int:
        if id(node) not in self.chained:
            self.chained.update(_guard(self.facts, node))
        return depth + 1

    def _changes(self, name: str, key: ast.expr | None) -> None:
        """Note that the function sets, changes or deletes `name[key]`."""
        if name not in self.changed:
            self.changed.append(name)
        _keyed(self.facts, name, key)

    def bind(
        self, target: ast.expr, value: ast.expr | None, nested: bool, given: Expr | None = None
    ) -> None:
        """Record what an assignment gives its target (`given`: already described)."""
        described = given or (expr(value) if value is not None else UNKNOWN_EXPR)
        if type(target) is ast.Name:
            self.local_names.setdefault(target.id, []).append([described, nested])
        elif type(target) is ast.Attribute and type(target.value) is ast.Name:
            self._bind_attribute(target.value.id, target.attr, described)
        elif type(target) is ast.Tuple or type(target) is ast.List:
            parts = _unpacked(target, value) if given is None else None
            for index, element in enumerate(target.elts):
                self.bind(element, None, nested, parts[index] if parts else None)
        elif type(target) is ast.Subscript and type(target.value) is ast.Name:
            self._changes(target.value.id, target.slice)
            key = target.slice
            text = key.value if type(key) is ast.Constant else None
            key_name = text if isinstance(text, str) else None
            _set_item(self.local_names, target.value.id, key_name, described, nested)

    def _bind_attribute(self, owner: str, attr: str, described: Expr) -> None:
        if owner == self.self_name and self.attributes is not None:
            self.attributes.setdefault(attr, []).append([described, self.qualname])
        else:
            # `_local.client = client`: what an attribute holder (a thread-local) is given.
            held = self.stores.setdefault(owner, {})
            held.setdefault(attr, []).append(described)

    def _dict_change(self, call: ast.Call, name: str, method: str, nested: bool) -> None:
        """`d.update(k=v)`, `d.update({...})`, `d.setdefault("k", v)` on a local dict."""
        local_names = self.local_names
        popped = _popped_key(call)
        if popped is not None:
            # `kwargs.pop("max_tokens", 4096)`: that key alone leaves the dict, read as it goes.
            if name not in self.changed:
                self.changed.append(name)
            self.facts.setdefault("popped", {}).setdefault(name, []).append(popped)
        elif method in DICT_CHANGES:
            self._changes(name, call.args[0] if method == "setdefault" and call.args else None)
        if method == "setdefault" and call.args:
            key = call.args[0]
            value = expr(call.args[1]) if len(call.args) > 1 else ["lit", None]
            text = key.value if type(key) is ast.Constant else None
            key_name = text if isinstance(text, str) else None
            _set_item(local_names, name, key_name, value, True, nested, overwrites=False)
        elif method == "update":
            for keyword in call.keywords:
                _set_item(local_names, name, keyword.arg, expr(keyword.value), nested)
            for arg in call.args:
                _update_from(local_names, name, expr(arg), nested)
        elif method in ("pop", "clear", "popitem"):
            _set_item(local_names, name, None, UNKNOWN_EXPR, True)


def _ends_with_assistant(messages: ast.expr) -> bool:
    """Return whether a list literal of turns ends with a dict literal whose role is the string
    "assistant" (a prefill)."""
    if type(messages) is not ast.List or not messages.elts:
        return False
    last = messages.elts[-1]
    if type(last) is not ast.Dict:
        return False
    for key, value in zip(last.keys, last.values, strict=False):
        if type(key) is ast.Constant and key.value == "role":
            return type(value) is ast.Constant and value.value == "assistant"
    return False


def _update_from(
    local_names: dict[str, list[Any]], name: str, described: Expr, nested: bool
) -> None:
    """`name.update(arg)`: a dict literal's entries go in; anything else makes it opaque."""
    if described[0] != "dict":
        _set_item(local_names, name, None, UNKNOWN_EXPR, nested)
        if described[0] == "name":
            _spread(local_names, name, described[1])
        return
    for key, value in described[1].items():
        _set_item(local_names, name, key, value, nested)
    if described[2]:
        _set_item(local_names, name, None, UNKNOWN_EXPR, nested)


# The dict methods that change its items.
DICT_CHANGES = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})


def _set_item(
    local_names: dict[str, list[Any]],
    name: str,
    key: str | None,
    value: Expr,
    nested: bool,
    added: bool | None = None,
    overwrites: bool = True,
) -> None:
    """Put `name[key] = value` into the dict literal a local holds, when it holds one.

    The local must be bound once, to a dict literal: the entry is added, or, when the key is
    there already, becomes either value (`["if", old, new]`) under control flow and the new one
    otherwise. An unknown key (`key` None) makes the dict opaque and, unless the change keeps
    the keys already there (`overwrites` False: `setdefault`), the values known. A local bound
    to anything else is left as it is: what it holds is not a dict we read.
    """
    made = _bound_dict(local_names, name)
    if made is None:
        return
    if key is None:
        made[2] = True
        if overwrites:
            # `d[key] = v` or `d.update(other)`: any key may be the one set, a key written
            # before too; it stays in the dict, with a value not known.
            for known in made[1]:
                made[1][known] = UNKNOWN_EXPR
    elif key in made[1] and nested:
        made[1][key] = ["if", made[1][key], value]
    else:
        if (nested if added is None else added) and key not in made[1]:
            # Given on one path only: on the others the key is not in the dict (`added`: a
            # new key is put in on that path only; `setdefault` puts one in on every path).
            _maybe_absent(made, key)
        made[1][key] = value


def _unpacked(target: ast.Tuple | ast.List, value: ast.expr | None) -> list[Expr] | None:
    """Return what each name of an unpacking assignment is given (`a, b = x, y`: `x` and
    `y`; `a, b = make()`: `["part", make(), 0]` and `["part", make(), 1]`); None when a
    starred name or the sizes make the positions unknown."""
    if value is None or any(type(e) is ast.Starred for e in target.elts):
        return None
    if type(value) is ast.Tuple or type(value) is ast.List:
        if len(value.elts) != len(target.elts) or any(type(e) is ast.Starred for e in value.elts):
            return None
        return [expr(e) for e in value.elts]
    if type(value) is not ast.Call or len(target.elts) > MAX_TUPLE:
        return None
    made = expr(value)
    return [["part", made, index] for index in range(len(target.elts))]


def _returned(value: ast.expr) -> Expr:
    """Return what a `return` gives: a tuple of expressions (`return a, b`) as
    `["tuple", [exprs]]` (what `x, y = f()` unpacks), anything else as its expression."""
    if (
        type(value) is ast.Tuple
        and 1 < len(value.elts) <= MAX_TUPLE
        and not any(type(e) is ast.Starred for e in value.elts)
        and not _literal(value)[0]
    ):
        return ["tuple", [expr(e) for e in value.elts]]
    return expr(value)


def _guard(facts: dict[str, Any], node: ast.If) -> list[int]:
    """Note `if not name: name = value` (or `if name is None:`, no `else`): the name keeps what
    it held unless that was empty, when it becomes `value` (`guarded`, as `name or value` reads;
    a name guarded twice is not read). Return the ids of the chain's `elif`s.

    A chain of them (`if provider and not name: name = A` / `elif not name: name = B`) is one
    guard when every test but the last is a conjunction holding the empty test, the last is
    that test alone and there is no `else`: a name that is not empty keeps its value, and an
    empty one takes one of the values (`["if", A, B]`).
    """
    links: list[ast.If] = [node]
    while len(links[-1].orelse) == 1 and type(links[-1].orelse[0]) is ast.If:
        links.append(links[-1].orelse[0])
    tested = _empty_tested(links[-1].test)
    if tested is None or links[-1].orelse:
        return []
    values: list[Expr] = []
    for link in links:
        if link is not links[-1] and not _holds_empty_test(link.test, tested):
            return []
        assigned = _assigned(link.body, tested)
        if assigned is None:
            return []
        values.append(expr(assigned))
    chosen = values[-1]
    for value in reversed(values[:-1]):
        chosen = ["if", value, chosen]
    guarded = facts.setdefault("guarded", {})
    guarded[tested] = None if tested in guarded else chosen
    return [id(link) for link in links[1:]]


def _empty_tested(test: ast.expr) -> str | None:
    """Return the name `not name` or `name is None` tests."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not and type(test.operand) is ast.Name:
        return test.operand.id
    if (
        type(test) is ast.Compare
        and type(test.left) is ast.Name
        and len(test.ops) == 1
        and type(test.ops[0]) is ast.Is
        and type(test.comparators[0]) is ast.Constant
        and test.comparators[0].value is None
    ):
        return test.left.id
    return None


def _holds_empty_test(test: ast.expr, name: str) -> bool:
    """Return whether a test is `... and not name and ...` (or `name is None`)."""
    return (
        type(test) is ast.BoolOp
        and type(test.op) is ast.And
        and any(_empty_tested(value) == name for value in test.values)
    )


def _assigned(body: list[ast.stmt], name: str) -> ast.expr | None:
    """Return the value a block's one statement, `name = value`, assigns."""
    if len(body) != 1:
        return None
    statement = body[0]
    if type(statement) is not ast.Assign or len(statement.targets) != 1:
        return None
    target = statement.targets[0]
    return statement.value if type(target) is ast.Name and target.id == name else None


def _popped_key(call: ast.Call) -> str | None:
    """Return the key `d.pop("key")` or `d.pop("key", default)` takes out of a dict."""
    func = call.func
    if type(func) is not ast.Attribute or func.attr != "pop" or call.keywords:
        return None
    if not 1 <= len(call.args) <= 2 or any(type(a) is ast.Starred for a in call.args):
        return None
    key = call.args[0]
    return key.value if type(key) is ast.Constant and isinstance(key.value, str) else None


def _keyed(facts: dict[str, Any], name: str, key: ast.expr | None) -> None:
    """Note a key a function sets, changes or deletes in a name's items (`params["k"] = v`),
    None for one it cannot name (`params[k] = v`, `params.update(...)`): `keyed` holds them per
    name, for a parameter the function spreads into a call (`create(**params)`)."""
    text = key.value if type(key) is ast.Constant and isinstance(key.value, str) else None
    keys: list[str | None] = facts.setdefault("keyed", {}).setdefault(name, [])
    if text not in keys and len(keys) < MAX_KEYED:
        keys.append(text)
    elif text not in keys:
        keys[-1] = None  # past the bound: a key not named


def _bound_dict(local_names: dict[str, list[Any]], name: str) -> list[Any] | None:
    """Return the dict literal a local holds when it is bound once, to one (else None)."""
    bound = local_names.get(name)
    if not bound or len(bound) != 1 or bound[0][0][0] != "dict":
        return None
    made: list[Any] = bound[0][0]
    return made


def _maybe_absent(made: list[Any], key: str) -> None:
    """Mark a key of a dict literal as one that may be absent (its fifth item lists them)."""
    if len(made) < 5:
        made.append([])
    made[4].append(key)


def _del_item(local_names: dict[str, list[Any]], name: str, key: str | None, nested: bool) -> None:
    """Take `del name[key]` out of the dict literal a local holds, when it holds one: on every
    path the entry goes; under control flow it may be absent; an unknown key makes it opaque."""
    made = _bound_dict(local_names, name)
    if made is None:
        return
    if key is None:
        made[2] = True
    elif nested:
        if key in made[1] and (len(made) < 5 or key not in made[4]):
            _maybe_absent(made, key)
    else:
        made[1].pop(key, None)
        if len(made) > 4 and key in made[4]:
            made[4].remove(key)


def _spread(local_names: dict[str, list[Any]], name: str, spread: str) -> None:
    """Note that `name.update(spread)` put what `spread` holds into the dict `name` holds."""
    bound = local_names.get(name)
    if bound and len(bound) == 1 and bound[0][0][0] == "dict":
        bound[0][0][3].append(spread)


def _local_imports(node: ast.Import | ast.ImportFrom) -> list[tuple[str, Expr]]:
    """Return the names an import binds, each with `["import", level, module, name]`.

    `import a.b` binds `a` (`[.., "a", None]`); `import a.b as c` binds `c` to `a.b`;
    `from .m import x` binds `x` (`[.., 1, "m", "x"]`). Made absolute where the module's
    name is known.
    """
    found: list[tuple[str, Expr]] = []
    if type(node) is ast.Import:
        for alias in node.names:
            if alias.asname:
                found.append((alias.asname, ["import", 0, alias.name, None]))
            else:
                top = alias.name.split(".")[0]
                found.append((top, ["import", 0, top, None]))
    elif type(node) is ast.ImportFrom:
        for alias in node.names:
            if alias.name != "*":
                entry: Expr = ["import", node.level, node.module or "", alias.name]
                found.append((alias.asname or alias.name, entry))
    return found


def _lambda_calls(node: ast.Lambda) -> list[Expr]:
    """Return the calls a lambda's body makes, its own parameters unknown in them.

    They run in the enclosing function's names (a lambda binds only its parameters), so they
    are read as that function's calls.
    """
    args = node.args
    own = {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}
    own.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return [_masked(expr(call), own) for call in _calls_in(node.body)]


def _masked(described: Any, names: set[str]) -> Any:
    """Return an expression with every read of `names` made unknown."""
    if not isinstance(described, list) or not described:
        return described
    if described[0] == "name" and described[1] in names:
        return UNKNOWN_EXPR
    if described[0] == "lit":
        return described
    return [
        {k: _masked(v, names) for k, v in part.items()}
        if isinstance(part, dict)
        else _masked(part, names)
        for part in described
    ]


def _function(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    self_name: str | None,
    attributes: dict[str, list[Any]] | None,
    qualname: str,
    functions: dict[str, Any],
    parent: str | None = None,
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
        # `name.attr = value` for a name other than `self`: {name: {attr: [value]}}.
        "stores": {},
        "returns": [],
        "calls": [],
        "returns_annotation": annotation(node.returns) if node.returns is not None else None,
        # Locals whose items the function sets or changes (`d["k"] = v`, `d.update(...)`).
        "changed": [],
    }
    if parent is not None:
        facts["parent"] = parent
    if is_method and any(_is_property(d) for d in node.decorator_list):
        facts["property"] = True  # `self.name` runs it: its value is what it returns
    if is_method and (
        any(_is_abstract(d) for d in node.decorator_list) or _raises_not_implemented(node.body)
    ):
        facts["abstract"] = True  # never runs itself: a subclass's override does
    _read_function_body(node.body, facts, self_name, attributes, qualname, functions)
    unbound = {p["name"] for p in params} - set(facts["locals"])
    if facts["returns"]:
        guards = _return_guards(node.body, unbound)
        if guards is not None and len(guards) == len(facts["returns"]):
            facts["return_guards"] = guards
    spans = _guarded_spans(node.body, unbound)
    if spans:
        facts["line_guards"] = spans
    return facts


# A test of a parameter against string literals: `kind == "claude"`, `"claude" == kind`,
# `kind in ("claude", "anthropic")` (`!=` and `not in` with the branches the other way).
_EQUAL_OPS = {ast.Eq: True, ast.NotEq: False, ast.In: True, ast.NotIn: False}


def _literal_test(test: ast.expr, params: set[str]) -> list[Any] | None:
    """Return [parameter, [values], equal] for an `if` that tests a parameter against string
    literals, else None."""
    if type(test) is not ast.Compare or len(test.ops) != 1:
        return None
    operator = type(test.ops[0])
    equal = _EQUAL_OPS.get(operator)
    left, right = test.left, test.comparators[0]
    if equal is None:
        return None
    if operator in (ast.Eq, ast.NotEq):
        if type(left) is not ast.Name:
            left, right = right, left  # `"claude" == kind`
        options = [right]
    elif type(right) in (ast.Tuple, ast.List, ast.Set):
        options = list(right.elts)  # type: ignore[attr-defined]
    else:
        return None
    if not isinstance(left, ast.Name) or left.id not in params:
        return None
    values = [o.value for o in options if isinstance(o, ast.Constant)]
    if len(values) != len(options) or not all(isinstance(v, str) for v in values):
        return None
    return [left.id, values, equal]


def _return_guards(body: list[ast.stmt], params: set[str]) -> list[list[Any]] | None:
    """Return, for each `return value` of a function in source order, the literal tests of
    its parameters it runs under (`if kind == "claude": return ClaudeChat()` then `return
    LocalChat()`: the first under kind == "claude", the second under kind != "claude"), and
    `[name, None, None]` for a return of a table's entry picked by a parameter (`return
    PROVIDERS[name]()`); None when no return is either. Only parameters the body never
    rebinds count."""
    found: list[list[Any]] = []

    def returns(statement: ast.stmt, guards: list[Any]) -> None:
        for returned in _value_returns(statement):
            keyed = _keyed_by(returned.value, params)
            found.append(guards if keyed is None else [*guards, [keyed, None, None]])

    if params:
        _under_literal_tests(body, params, returns)
    return found if any(found) else None


def _guarded_spans(body: list[ast.stmt], params: set[str]) -> list[list[Any]]:
    """Return [first line, last line, tests] for each statement of a function that runs only
    under literal tests of its parameters (`if provider == "openai": ... return` then the
    Claude call: the call's lines under provider != "openai"). A test the reading cannot see
    (a return inside a `try`, a test of anything else) is left out: it only ever keeps a
    statement reachable. Only parameters the body never rebinds count."""
    found: list[list[Any]] = []

    def span(statement: ast.stmt, guards: list[Any]) -> None:
        if guards:
            found.append([statement.lineno, statement.end_lineno or statement.lineno, guards])

    if params:
        _under_literal_tests(body, params, span)
    return found


def _under_literal_tests(
    body: list[ast.stmt], params: set[str], leaf: Callable[[ast.stmt, list[Any]], None]
) -> None:
    """Call `leaf(statement, tests)` for each statement of `body` that is not itself a literal
    test of a parameter, with the tests it runs under: the `if`s and `match`es on `params` it
    is inside, and the negation of each earlier `if` at its level whose body returns or raises
    (`if kind == "openai": return ...` puts what follows under kind != "openai"). In a `match`,
    each case runs under its own values and not under any earlier case's; `case _:` under none
    of them."""

    def visit(statements: list[ast.stmt], guards: list[Any]) -> None:
        negated: list[Any] = []
        for statement in statements:
            current = guards + negated
            if type(statement) is ast.Match and _matched_param(statement, params):
                name = statement.subject.id  # type: ignore[attr-defined]
                earlier: list[Any] = []
                for case in statement.cases:
                    values = _case_values(case)
                    tested = [*current, *earlier]
                    visit(case.body, tested if values is None else [*tested, [name, values, True]])
                    if values is not None:
                        earlier.append([name, values, False])
                continue
            test = _literal_test(statement.test, params) if type(statement) is ast.If else None
            if test is None:
                leaf(statement, current)
                continue
            assert isinstance(statement, ast.If)
            name, values, equal = test
            visit(statement.body, [*current, [name, values, equal]])
            visit(statement.orelse, [*current, [name, values, not equal]])
            if statement.body and type(statement.body[-1]) in (ast.Return, ast.Raise):
                negated.append([name, values, not equal])

    visit(body, [])


def _keyed_by(value: ast.expr | None, params: set[str]) -> str | None:
    """Return the parameter a returned table entry is picked by (`return PROVIDERS[name]()`,
    `return PROVIDERS[name]`), else None."""
    if isinstance(value, ast.Call):
        value = value.func
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and isinstance(value.slice, ast.Name)
        and value.slice.id in params
    ):
        return value.slice.id
    return None


def _matched_param(statement: ast.Match, params: set[str]) -> bool:
    """Return whether a `match` is on a parameter with string-literal cases (and `case _:`)."""
    subject = statement.subject
    return (
        isinstance(subject, ast.Name)
        and subject.id in params
        and all(case.guard is None for case in statement.cases)
        and all(
            _case_values(case) is not None or _is_wildcard(case.pattern) for case in statement.cases
        )
    )


def _case_values(case: ast.match_case) -> list[str] | None:
    """Return the strings a `case "a" | "b":` matches, else None."""
    pattern = case.pattern
    options = pattern.patterns if isinstance(pattern, ast.MatchOr) else [pattern]
    values = [
        option.value.value
        for option in options
        if isinstance(option, ast.MatchValue)
        and isinstance(option.value, ast.Constant)
        and isinstance(option.value.value, str)
    ]
    return values if len(values) == len(options) else None


def _is_wildcard(pattern: ast.pattern) -> bool:
    return isinstance(pattern, ast.MatchAs) and pattern.pattern is None and pattern.name is None


def _value_returns(node: ast.AST) -> Iterator[ast.Return]:
    """Yield the `return value` statements a statement holds, in source order, outside nested
    functions, lambdas and classes."""
    if type(node) is ast.Return:
        if node.value is not None:
            yield node
        return
    if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef):
        return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.stmt) or type(child) in (ast.ExceptHandler, ast.match_case):
            yield from _value_returns(child)


def _is_abstract(decorator: ast.expr) -> bool:
    """Return whether a decorator is `abc.abstractmethod`, by its name."""
    if isinstance(decorator, ast.Name):
        return decorator.id == "abstractmethod"
    return isinstance(decorator, ast.Attribute) and decorator.attr == "abstractmethod"


def _raises_not_implemented(body: list[ast.stmt]) -> bool:
    """Return whether a method's body only raises `NotImplementedError` (after a docstring):
    a call of it that returns ran a subclass's override
    (https://docs.python.org/3/library/exceptions.html#NotImplementedError)."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].cause is not None:
        return False
    raised = body[0].exc
    if isinstance(raised, ast.Call):
        raised = raised.func
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _is_property(decorator: ast.expr) -> bool:
    """Return whether a decorator makes a method a property (`property`, `cached_property`)."""
    if isinstance(decorator, ast.Name):
        return decorator.id in ("property", "cached_property")
    return isinstance(decorator, ast.Attribute) and decorator.attr == "cached_property"


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
        # local name -> every absolute name it is imported as, where branches import it
        # differently (`if ...: from .gpt import llm` / `else: from .claude import llm`)
        "import_choices": {},
        "star_imports": [],
        "all": None,
        "assigns": {},  # name -> [[expr, nested]]
        "functions": {},  # "f" or "Class.method" -> facts
        "classes": {},  # name -> {"attributes": {attr: [expr]}, "fields": {...}, "bases": [...]}
        "calls": [],  # module-level calls
        "submodules": [],  # `import a.b` binds `a`, and makes `a.b` readable through it
        "set_attrs": [],  # attributes set on a name at module level (`config.model = ...`)
    }
    try:
        _read_body(tree.body, summary, module, is_package, nested=False)
    except RecursionError:
        return None
    summary["import_choices"] = {
        name: choices
        for name, choices in summary["import_choices"].items()
        if len(choices) > 1 and name in summary["imports"]
    }
    return summary


def _imported(summary: dict[str, Any], name: str, qualname: str) -> None:
    """Record that a module-level import binds `name` to `qualname` (each distinct one kept)."""
    summary["imports"][name] = qualname
    choices = summary["import_choices"].setdefault(name, [])
    if qualname not in choices:
        choices.append(qualname)


def _read_body(
    body: list[ast.stmt], summary: dict[str, Any], module: str, is_package: bool, nested: bool
) -> None:
    """Read a module's statements (`nested`: under a module-level `if` or `try`)."""
    for node in body:
        if isinstance(node, ast.Import):
            _module_import(node, summary)
        elif isinstance(node, ast.ImportFrom):
            _module_import_from(
                node, summary, _absolute(module, is_package, node.level, node.module)
            )
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            _module_assign(node, summary, nested)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            summary["functions"][node.name] = _function(
                node, None, None, node.name, summary["functions"]
            )
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
            summary["calls"].extend(expr(call) for call in _calls_in(node))


def _module_import(node: ast.Import, summary: dict[str, Any]) -> None:
    for alias in node.names:
        if alias.asname:
            _imported(summary, alias.asname, alias.name)
        else:
            top = alias.name.split(".")[0]
            _imported(summary, top, top)
            if top != alias.name:
                summary["submodules"].append(alias.name)


def _module_import_from(node: ast.ImportFrom, summary: dict[str, Any], base: str) -> None:
    for alias in node.names:
        if alias.name == "*":
            summary["star_imports"].append(base)
            continue
        qualname = f"{base}.{alias.name}" if base else alias.name
        _imported(summary, alias.asname or alias.name, qualname)


def _module_assign(node: ast.Assign | ast.AnnAssign, summary: dict[str, Any], nested: bool) -> None:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    value = node.value
    assigns = summary["assigns"]
    for target in targets:
        if isinstance(target, ast.Name) and value is not None:
            if target.id == "__all__":
                _declared_all(value, summary)
            else:
                assigns.setdefault(target.id, []).append([expr(value), nested])
        elif isinstance(target, (ast.Tuple, ast.List)):
            # `control, runtime = make_clients()`: each name is its part of the value.
            for element, piece in zip(target.elts, _unpacked(target, value) or [], strict=False):
                if isinstance(element, ast.Name):
                    assigns.setdefault(element.id, []).append([piece, nested])
        elif isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
            if target.attr not in summary["set_attrs"]:
                summary["set_attrs"].append(target.attr)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `clients[key] = make()`: the dict holds what the value is.
            assigns.setdefault(target.value.id, []).append(
                [["item", expr(value)] if value is not None else UNKNOWN_EXPR, True]
            )
    if value is not None:
        summary["calls"].extend(expr(call) for call in _calls_in(value))


def _declared_all(value: ast.expr, summary: dict[str, Any]) -> None:
    """`__all__ = [...]`: the names a star import takes, when they are a literal list."""
    ok, names = _literal(value)
    if ok and isinstance(names, list) and all(isinstance(n, str) for n in names):
        summary["all"] = names


def _base(node: ast.expr, name: str, summary: dict[str, Any]) -> Expr:
    """Return a base of class `name`: a base spelled as the class's own name, imported above
    (`from anthropic import Anthropic` then `class Anthropic(Tagging, Anthropic)`), is the
    import, read before the class statement binds the name again."""
    if type(node) is ast.Name and node.id == name:
        qualname = summary["imports"].get(name)
        if qualname is not None and "." in qualname:
            source, _, imported = qualname.rpartition(".")
            return ["import", 0, source, imported]
    return expr(node)


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
            facts = _function(
                statement,
                None if is_static else self_name,
                attributes,
                qualname,
                summary["functions"],
            )
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
        "bases": [_base(b, node.name, summary) for b in node.bases],
        "decorators": [expr(d.func if isinstance(d, ast.Call) else d) for d in node.decorator_list],
    }
    properties = [
        statement.name
        for statement in node.body
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef))
        and any(_is_property(d) for d in statement.decorator_list)
    ]
    if properties:
        summary["classes"][node.name]["properties"] = properties
