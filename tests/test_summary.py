"""Module summaries: what they record of a function body and of module-level code, in what order.

Summaries are hashed and cached as JSON, so their content and its order are part of the
contract: a change of order is a cache miss for every user and can change which assignment the
project phase reads first. The reading below is checked against the straightforward one
(`ast.NodeVisitor` over a function body, `ast.walk` over module-level code) on the project's own
source and fixtures.
"""

from __future__ import annotations

import ast
import json
from typing import Any

import pytest
from helpers import FIXTURES, SRC

from claude_migrate.project.summary import (
    MAX_EXPR_DEPTH,
    UNKNOWN_EXPR,
    _returned,
    _unpacked,
    expr,
    summarise,
)


def _summary(text: str, module: str = "app", is_package: bool = False) -> dict[str, Any]:
    found = summarise(text, module, is_package)
    assert found is not None
    return found


def _expr(source: str) -> list[Any]:
    node = ast.parse(source, mode="eval").body
    return expr(node)


def _call_names(calls: list[list[Any]]) -> list[str]:
    return [call[1][1] if call[1][0] == "name" else call[1][2] for call in calls]


def test_function_calls_are_recorded_in_source_order_each_before_its_arguments() -> None:
    facts = _summary("def f():\n    a(b(c()), d())\n    e()\n")["functions"]["f"]
    assert _call_names(facts["calls"]) == ["a", "b", "c", "d", "e"]


def test_assignments_under_control_flow_are_marked_nested() -> None:
    source = (
        "def f(items):\n"
        "    plain = 1\n"
        "    if items:\n"
        "        branch = 2\n"
        "    for item in items:\n"
        "        looped = 3\n"
        "    try:\n"
        "        tried = 4\n"
        "    except ValueError:\n"
        "        handled = 5\n"
        "    with open(items) as handle:\n"
        "        within = 6\n"
        "    match items:\n"
        "        case []:\n"
        "            matched = 7\n"
        "    while items:\n"
        "        items = None\n"
        "    return plain\n"
    )
    local_names = _summary(source)["functions"]["f"]["locals"]
    assert local_names["plain"] == [[["lit", 1], False]]
    for name in ("branch", "looped", "tried", "handled", "within", "matched", "items"):
        assert all(nested for _, nested in local_names[name]), name


def test_walrus_targets_are_always_nested_locals() -> None:
    facts = _summary("def f(xs):\n    return [y for x in xs if (y := g(x))]\n")["functions"]["f"]
    assert facts["locals"]["y"] == [
        [["call", ["name", "g"], [["name", "x"]], {}, False, [], 2, 36], True]
    ]


def test_nested_functions_and_classes_keep_their_calls_a_lambda_gives_them_to_its_function() -> (
    None
):
    source = (
        "def outer():\n"
        "    @decorate()\n"
        "    def inner(x=default()):\n"
        "        hidden()\n"
        "    callback = lambda: also_hidden()\n"
        "    class Local:\n"
        "        attr = in_class()\n"
        "    seen()\n"
    )
    functions = _summary(source)["functions"]
    # A lambda's body runs in the enclosing function's names: its calls are that function's.
    assert _call_names(functions["outer"]["calls"]) == ["also_hidden", "seen"]
    assert functions["outer"]["locals"]["callback"] == [[UNKNOWN_EXPR, False]]
    # A nested function has facts of its own, and reads the rest from the enclosing one.
    assert _call_names(functions["outer.inner"]["calls"]) == ["hidden"]
    assert functions["outer.inner"]["parent"] == "outer"
    assert functions["outer"]["locals"]["inner"] == [[["def", "outer.inner"], False]]


def test_a_lambdas_own_parameters_are_unknown_in_its_calls() -> None:
    source = "def outer(client):\n    keep = filter(lambda x: count(x, client), items)\n"
    calls = _summary(source)["functions"]["outer"]["calls"]
    counted = [c for c in calls if c[1] == ["name", "count"]]
    assert counted[0][2] == [UNKNOWN_EXPR, ["name", "client"]]


def test_a_local_dicts_later_item_sets_and_updates_are_its_entries() -> None:
    source = (
        "def build(flag, extra):\n"
        "    kwargs = {'model': 'm'}\n"
        "    kwargs['max_tokens'] = 10\n"
        "    if flag:\n"
        "        kwargs['model'] = 'n'\n"
        "    kwargs.update(temperature=0.5)\n"
        "    kwargs.setdefault('top_k', 5)\n"
        "    return kwargs\n"
        "def opaque(extra):\n"
        "    kwargs = {'model': 'm'}\n"
        "    kwargs.update(extra)\n"
        "    return kwargs\n"
    )
    functions = _summary(source)["functions"]
    [[made, _]] = functions["build"]["locals"]["kwargs"]
    assert made == [
        "dict",
        {
            "model": ["if", ["lit", "m"], ["lit", "n"]],
            "max_tokens": ["lit", 10],
            "temperature": ["lit", 0.5],
            "top_k": ["lit", 5],
        },
        False,
        [],
    ]
    # A key put in under control flow only may be absent.
    [[maybe, _]] = _summary(
        "def build(flag):\n    kwargs = {}\n    if flag:\n        kwargs['top_p'] = 0.5\n"
        "        kwargs.setdefault('top_k', 5)\n    kwargs.setdefault('stop', None)\n"
        "    return kwargs\n"
    )["functions"]["build"]["locals"]["kwargs"]
    assert maybe[4] == ["top_p", "top_k"] and "stop" in maybe[1]
    # `kwargs.update(extra)`: the keys are unknown, and what `extra` holds joins the dict.
    assert functions["opaque"]["locals"]["kwargs"][0][0][2:] == [True, ["extra"]]


def test_self_attributes_and_unpacked_targets_are_recorded() -> None:
    source = (
        "class Service:\n"
        "    def __init__(self, client):\n"
        "        self.client = client\n"
        "        first, (second, third) = pair()\n"
        "        count += 1\n"
    )
    summary = _summary(source)
    facts = summary["functions"]["Service.__init__"]
    assert summary["classes"]["Service"]["attributes"]["client"] == [
        [["name", "client"], "Service.__init__"]
    ]
    # `first` is the first part of what `pair()` returns; a nested target's names are unknown.
    assert facts["locals"]["first"][0][0][::2] == ["part", 0]
    assert facts["locals"]["third"] == [[UNKNOWN_EXPR, False]]
    assert facts["locals"]["count"] == [[UNKNOWN_EXPR, False]]


def test_attributes_stored_on_other_names_are_recorded_per_function() -> None:
    source = (
        "import threading\n_local = threading.local()\n\n\n"
        "class Cache:\n"
        "    def put(self, client):\n"
        "        self.client = client\n"
        "        _local.client = client\n"
        "def get():\n"
        "    _local.client = make()\n"
        "    _local.client.timeout = 3\n"
    )
    summary = _summary(source)
    assert summary["functions"]["Cache.put"]["stores"] == {
        "_local": {"client": [["name", "client"]]}
    }
    assert summary["functions"]["get"]["stores"] == {
        "_local": {"client": [["call", ["name", "make"], [], {}, False, [], 10, 21]]}
    }
    assert "client" in summary["classes"]["Cache"]["attributes"]


def test_module_level_calls_are_recorded_breadth_first_nested_scopes_included() -> None:
    source = (
        "x = f(g(h()), k())\n"
        "for item in items():\n"
        "    def helper():\n"
        "        inside()\n"
        "    outside(item)\n"
    )
    calls = _summary(source)["calls"]
    assert _call_names(calls) == ["f", "g", "k", "h", "items", "outside", "inside"]


@pytest.mark.parametrize(
    ("source", "described"),
    [
        ("-1", ["lit", -1]),
        ("+2.5", ["lit", 2.5]),
        ("-True", UNKNOWN_EXPR),
        ("(1, 'a', None, [True])", ["lit", [1, "a", None, [True]]]),
        ("[1, x]", UNKNOWN_EXPR),
        ("b'raw'", UNKNOWN_EXPR),
        ("a and b", UNKNOWN_EXPR),
        ("a or 'fallback'", ["or", [["name", "a"], ["lit", "fallback"]]]),
        ("x if c else y", ["if", ["name", "x"], ["name", "y"]]),
        ("config['model']", ["sub", ["name", "config"], "model"]),
        ("config[0]", ["sub", ["name", "config"], None]),
        ("PROVIDERS[name]", ["sub", ["name", "PROVIDERS"], None, ["name", "name"]]),
        ("items[1:]", UNKNOWN_EXPR),
        # A later spread may replace `a`: not an entry, but one kept with the spreads after
        # it (read per caller). One written after it is an entry.
        (
            "{'a': 1, **rest}",
            ["dict", {}, True, ["rest"], [], {"a": [["lit", 1], [["name", "rest"]]]}],
        ),
        (
            "{'a': 1, **rest, 'b': 2, **more, 'a': 3}",
            [
                "dict",
                {"a": ["lit", 3]},
                True,
                ["rest", "more"],
                [],
                {"b": [["lit", 2], [["name", "more"]]]},
            ],
        ),
        ("{**rest, 'a': 1}", ["dict", {"a": ["lit", 1]}, True, ["rest"]]),
        ("{'a': 1, **{'b': 2}}", ["dict", {"a": ["lit", 1], "b": ["lit", 2]}, True, []]),
        ("{**make(), 'a': 1}", ["dict", {"a": ["lit", 1]}, True, []]),
        (
            "f(*args, key=1, **extra)",
            ["call", ["name", "f"], [], {"key": ["lit", 1]}, True, [["name", "extra"]], 1, 1],
        ),
    ],
)
def test_expressions_are_described_by_their_shape(source: str, described: list[Any]) -> None:
    assert _expr(source) == described


def test_await_is_described_as_what_it_awaits() -> None:
    node = ast.parse("async def f():\n    return await client.create()\n")
    facts = _summary(ast.unparse(node))["functions"]["f"]
    assert facts["returns"][0][0] == "call"


def test_expressions_deeper_than_the_limit_are_unknown() -> None:
    chain = "x" + ".a" * (MAX_EXPR_DEPTH + 5)
    described = _expr(chain)
    depth = 0
    while described[0] == "attr":
        described = described[1]
        depth += 1
    assert described == UNKNOWN_EXPR
    assert depth == MAX_EXPR_DEPTH + 1


# The reading checked against: a visitor over a function body, `ast.walk` at module level.
class _Reference(ast.NodeVisitor):
    def __init__(self, qualname: str = "") -> None:
        self.qualname = qualname
        self.depth = 0
        self.calls: list[list[Any]] = []
        self.returns: list[list[Any]] = []
        self.locals: dict[str, list[list[Any]]] = {}

    def _nested(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_If = visit_For = visit_AsyncFor = visit_While = visit_Try = _nested
    visit_Match = _nested

    def visit_With(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            if isinstance(item.optional_vars, ast.Name):
                entered = ["enter", expr(item.context_expr)]
                self.locals.setdefault(item.optional_vars.id, []).append([entered, self.depth > 0])
            elif item.optional_vars is not None:
                self._assign(item.optional_vars, None)
        self._nested(node)

    visit_AsyncWith = visit_With

    def _scope(self, node: ast.AST) -> None:
        return

    visit_ClassDef = _scope

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        inner = ["def", f"{self.qualname}.{node.name}"]
        self.locals.setdefault(node.name, []).append([inner, self.depth > 0])

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        own = {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
        for call in ast.walk(node.body):
            if isinstance(call, ast.Call):
                self.calls.append(_without(expr(call), own))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            name = alias.asname or alias.name.split(".")[0]
            source = alias.name if alias.asname else name
            self.locals.setdefault(name, []).append([["import", 0, source, None], self.depth > 0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            made = ["import", node.level, node.module or "", alias.name]
            self.locals.setdefault(alias.asname or alias.name, []).append([made, self.depth > 0])

    def _item(
        self,
        name: str,
        key: str | None,
        value: list[Any],
        nested: bool,
        added: bool | None = None,
        overwrites: bool = True,
    ) -> None:
        """`name[key] = value` into the dict literal a local holds alone, as summaries read it:
        a key new to it, put in under control flow, is listed as maybe absent; one not known
        may be any key already there (but for `setdefault`), whose value is then unknown."""
        bound = self.locals.get(name)
        if not bound or len(bound) != 1 or bound[0][0][0] != "dict":
            return
        entries = bound[0][0][1]
        if key is None:
            bound[0][0][2] = True
            if overwrites:
                for known in entries:
                    entries[known] = UNKNOWN_EXPR
        elif key in entries and nested:
            entries[key] = ["if", entries[key], value]
        else:
            if key not in entries and (nested if added is None else added):
                if len(bound[0][0]) < 5:
                    bound[0][0].append([])
                bound[0][0][4].append(key)
            entries[key] = value

    def _assign(
        self, target: ast.expr, value: ast.expr | None, given: list[Any] | None = None
    ) -> None:
        described = given or (expr(value) if value is not None else UNKNOWN_EXPR)
        if isinstance(target, ast.Name):
            self.locals.setdefault(target.id, []).append([described, self.depth > 0])
        elif isinstance(target, (ast.Tuple, ast.List)):
            # `a, b = x, y` gives each its element, `a, b = make()` each its part.
            parts = _unpacked(target, value) if given is None else None
            for index, element in enumerate(target.elts):
                self._assign(element, None, parts[index] if parts else None)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            key = target.slice
            text = key.value if isinstance(key, ast.Constant) else None
            name = target.value.id
            self._item(name, text if isinstance(text, str) else None, described, self.depth > 0)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._assign(target, node.value)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self._assign(node.target, node.value)
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                bound = self.locals.get(target.value.id)
                if not bound or len(bound) != 1 or bound[0][0][0] != "dict":
                    continue
                made = bound[0][0]
                key = target.slice
                text = key.value if isinstance(key, ast.Constant) else None
                if not isinstance(text, str):
                    made[2] = True
                elif self.depth > 0:
                    if text in made[1] and (len(made) < 5 or text not in made[4]):
                        if len(made) < 5:
                            made.append([])
                        made[4].append(text)
                else:
                    made[1].pop(text, None)
                    if len(made) > 4 and text in made[4]:
                        made[4].remove(text)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self._assign(node.target, None)
        self.generic_visit(node)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.locals.setdefault(node.target.id, []).append([expr(node.value), True])
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.returns.append(_returned(node.value))
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.calls.append(expr(node))
        func = node.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name, nested = func.value.id, self.depth > 0
            if func.attr == "update":
                for keyword in node.keywords:
                    self._item(name, keyword.arg, expr(keyword.value), nested)
                for arg in node.args:
                    made = expr(arg)
                    if made[0] != "dict":
                        self._item(name, None, UNKNOWN_EXPR, nested)
                        bound = self.locals.get(name)
                        if (
                            made[0] == "name"
                            and bound
                            and len(bound) == 1
                            and bound[0][0][0] == "dict"
                        ):
                            bound[0][0][3].append(made[1])
                        continue
                    for key, value in made[1].items():
                        self._item(name, key, value, nested)
                    if made[2]:
                        self._item(name, None, UNKNOWN_EXPR, nested)
            elif func.attr == "setdefault" and node.args:
                key = node.args[0]
                value = expr(node.args[1]) if len(node.args) > 1 else ["lit", None]
                text = key.value if isinstance(key, ast.Constant) else None
                self._item(
                    name, text if isinstance(text, str) else None, value, True, nested, False
                )
            elif func.attr in ("pop", "clear", "popitem"):
                self._item(name, None, UNKNOWN_EXPR, True)
        self.generic_visit(node)


def _without(described: Any, names: set[str]) -> Any:
    """Return an expression with every read of `names` made unknown."""
    if not isinstance(described, list) or not described or described[0] == "lit":
        return described
    if described[0] == "name" and described[1] in names:
        return UNKNOWN_EXPR
    return [
        {k: _without(v, names) for k, v in part.items()}
        if isinstance(part, dict)
        else _without(part, names)
        for part in described
    ]


def _module_calls(body: list[ast.stmt]) -> list[list[Any]]:
    """Return the module-level calls a summary records, each statement read with `ast.walk`."""
    found: list[list[Any]] = []
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.AsyncFunctionDef):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            walked = [] if node.value is None else list(ast.walk(node.value))
        elif isinstance(node, (ast.If, ast.Try)):
            for part in ("body", "orelse", "finalbody"):
                found.extend(_module_calls(getattr(node, part, [])))
            for handler in getattr(node, "handlers", []):
                found.extend(_module_calls(handler.body))
            continue
        else:
            walked = list(ast.walk(node))
        found.extend(expr(call) for call in walked if isinstance(call, ast.Call))
    return found


def test_summaries_read_real_code_as_a_visitor_and_ast_walk_would() -> None:
    compared = 0
    for path in sorted([*SRC.rglob("*.py"), *FIXTURES.rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        summary = _summary(text)
        # JSON is what the cache keeps: the summary must come back from it unchanged.
        assert json.loads(json.dumps(summary)) == summary
        assert summary["calls"] == _module_calls(tree.body), path
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                reference = _Reference(node.name)
                for statement in node.body:
                    reference.visit(statement)
                facts = summary["functions"][node.name]
                assert facts["calls"] == reference.calls, (path, node.name)
                assert facts["returns"] == reference.returns, (path, node.name)
                assert facts["locals"] == reference.locals, (path, node.name)
                compared += 1
    assert compared > 100  # the project's own functions were read, not skipped


@pytest.mark.parametrize(
    ("written", "named"),
    [
        ("Anthropic", ["name", "Anthropic"]),
        ("Optional[anthropic.Anthropic]", ["attr", ["name", "anthropic"], "Anthropic"]),
        ("typing.Union[None, Anthropic]", ["name", "Anthropic"]),
        ("Anthropic | None", ["name", "Anthropic"]),
        ("None | Anthropic", ["name", "Anthropic"]),
        ("'Anthropic'", ["name", "Anthropic"]),
        ("'Optional[\"Anthropic\"]'", ["name", "Anthropic"]),
        ("Union[OpenAI, Anthropic]", ["?"]),
        ("OpenAI | Anthropic", ["?"]),
        ("'Anthropic['", ["?"]),
        ("'" + "A" * 300 + "'", ["?"]),
    ],
)
def test_an_annotation_names_the_one_type_an_optional_or_a_string_names(
    written: str, named: list[Any]
) -> None:
    [[param]] = [
        facts["params"] for facts in _summary(f"def f(x: {written}): pass\n")["functions"].values()
    ]
    assert param["annotation"] == named
