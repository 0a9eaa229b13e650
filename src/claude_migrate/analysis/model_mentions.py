"""Where a Python module writes a Claude model id as data: its string literals, docstrings aside.

A model id is often nowhere near the call that uses it: a settings module, a pricing table
keyed by model, a list of choices offered to users, a test that asserts on the model. Every
string literal of the module whose whole value a catalogue recognises (`policy.model_ids`) is a
mention; a string that is an expression statement on its own (a docstring, or a string used as
a comment) is documentation, not data. f-strings and implicitly concatenated strings are never
a mention: no one literal holds the id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
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
    # The values of the elements of the list, tuple, set or `Literal[...]` it is an element of, its
    # own included, with their counts; or of the literals registered through the same class
    # (`register(ClaudeMessages("..."))`); None: neither. A list of models (choices, a routing
    # list, names kept as deprecated, a plugin's register) whose entries would collapse into
    # one is no longer the same list. Shared by the group's mentions (built once per group).
    group: Counter[str] | None = field(default=None, compare=False, hash=False)
    # A response body's model (a dict display that also holds `stop_reason`, `stop_sequence`
    # or `usage`, or `"type": "message"`; any id in a body a test double gives back): what the
    # API answered, recorded or mocked, not what a request asks for.
    answered: bool = False
    # The same id as one a test double of the module gives back (`answered`): a test compares
    # the two (`fetchall.return_value = [(2, "claude-2")]`, then `assert rows == [{"model":
    # "claude-2"}]`), and the double's keeps its id.
    paired: bool = False
    # What a test expects (under an `assert` statement, or an argument of a test double's
    # expectation, `create.assert_called_with(model="...")`, or of a unittest assertion,
    # `self.assertEqual(..., "...")`): it is compared with what the code sends or gives back.
    expected: bool = False
    # An argument of a double's expectation of a Text Completions call
    # (`client.completions.create.assert_called_with(model="...")`): the call it describes keeps
    # its model until CM301 moves it to the Messages API, wherever that call is written.
    legacy_expected: bool = False
    # The key of a table of facts about the model (`{"claude-3-opus-20240229": 4096}`, a dict of
    # prices, a set of features, a flag) or the id of a pair that states one (`("claude-2.1",
    # 200_000)` in a list of context sizes by prefix): the figures are the old model's.
    facts: bool = False
    # The table a subscript looks it up in (`MODELS["claude-2.1"]`, the table's source text),
    # "" when it is no subscript's index; `key` is set too when the subscript is written
    # (`MODELS["claude-2"] = MODELS["claude-2.1"]`: an alias added to a table).
    indexes: str = ""
    # The model of a Text Completions request written as a dict display (`{"model": ...,
    # "prompt": ..., "max_tokens_to_sample": ...}`, no `messages`): the endpoint never served a
    # Messages-era model, so the replacement there makes a request the API refuses.
    legacy_body: bool = False
    # A cell of a test's table of cases (`pytest.mark.parametrize` rows of two or more values:
    # an input beside the result the test expects of the project's code for it): renamed, the
    # row asks the code about another model and expects another answer, which the code gives
    # only if it (or its data) moves the same way.
    case: bool = False


# Keys only a Messages API response carries (https://docs.anthropic.com/en/api/messages,
# "Response"): a dict display holding one with "model" is an answer, not a request.
RESPONSE_KEYS = frozenset({"stop_reason", "stop_sequence", "usage"})
# The `type` of a response body: a Messages answer, or a Text Completions one
# (https://docs.anthropic.com/en/api/complete, "Response").
RESPONSE_TYPES = frozenset({"message", "completion"})
# The request parameters only a Text Completions request has beside its model
# (https://docs.anthropic.com/en/api/complete): `prompt` and `max_tokens_to_sample`.
TEXT_COMPLETIONS_KEYS = frozenset({"prompt", "max_tokens_to_sample"})


def _string_value(node: cst.BaseExpression | None) -> str | None:
    if not isinstance(node, cst.SimpleString) or "b" in node.prefix.lower():
        return None
    try:
        value: Any = node.evaluated_value
    except Exception:  # an escape LibCST cannot evaluate
        return None
    return value if isinstance(value, str) else None


def _reads_a_response_model(node: cst.BaseExpression) -> bool:
    """Return whether `node` reads the model of a value named as a response
    (`response["model"]`, `resp.model`, `response_dict["model"]`)."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        if not isinstance(index, cst.Index) or _string_value(index.value) != "model":
            return False
        base = node.value
    elif isinstance(node, cst.Attribute) and node.attr.value == "model":
        base = node.value
    else:
        return False
    while isinstance(base, cst.Attribute):
        base = base.attr
    return isinstance(base, cst.Name) and "resp" in base.value.lower()


# What a test double is told to give back (`mock.json.return_value = {...}`, `Mock(side_effect=
# [...])`, `patch(..., return_value={...})`): a body it answers with, not a request.
DOUBLE_ANSWERS = frozenset({"return_value", "side_effect"})


def _nested_strings(node: cst.CSTNode) -> list[int]:
    """Return the ids of every string literal under `node`."""
    found: list[int] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.SimpleString):
            found.append(id(current))
        else:
            stack.extend(current.children)
    return found


def _case_cells(call: cst.Call) -> list[int]:
    """Return the ids of the strings in the rows of a `pytest.mark.parametrize(names, rows)`
    call whose rows hold two or more values (tuples, lists or `pytest.param(...)`), none for
    any other call or for a table of single values (a list of models to run on)."""
    func = call.func
    if not isinstance(func, cst.Attribute) or func.attr.value != "parametrize":
        return []
    rows = next((arg.value for arg in call.args if _keyword(arg) == "argvalues"), None)
    positional = [arg.value for arg in call.args if arg.keyword is None and not arg.star]
    if rows is None and len(positional) >= 2:
        rows = positional[1]
    if not isinstance(rows, (cst.List, cst.Tuple)):
        return []
    found: list[int] = []
    for element in rows.elements:
        row = element.value
        if isinstance(row, cst.Call):  # `pytest.param(input, expected, id=...)`
            cells = [arg.value for arg in row.args if arg.keyword is None and not arg.star]
        elif isinstance(row, (cst.List, cst.Tuple)):
            cells = [cell.value for cell in row.elements]
        else:
            continue
        if len(cells) >= 2:
            for cell in cells:
                found.extend(_nested_strings(cell))
    return found


def _keyword(arg: cst.Arg) -> str:
    return arg.keyword.value if arg.keyword is not None else ""


# Words of a name that says what the models it lists can or cannot do (`text_only_models`,
# `VISION_MODELS`, `models_without_tools`, `SUPPORTS_THINKING`): each entry states a fact about
# its own model, and the replacement's may differ (Claude 3.5 Haiku reads text only, Claude
# Haiku 4.5 reads images: https://platform.claude.com/docs/en/about-claude/models/overview).
CAPABILITY_WORDS = frozenset(
    {
        "only", "no", "without", "support", "supports", "supported", "unsupported", "capable",
        "can", "cannot", "vision", "image", "images", "multimodal", "pdf", "thinking",
        "reasoning", "tool", "tools", "cache", "caching", "computer", "effort", "prefill",
    }
)  # fmt: skip


def _names_a_capability(target: cst.BaseExpression) -> bool:
    """Return whether an assignment's target is named for what its models can or cannot do."""
    if isinstance(target, cst.Attribute):
        target = target.attr
    if not isinstance(target, cst.Name):
        return False
    words = set(target.value.lower().split("_"))
    return bool(words & CAPABILITY_WORDS) and bool(words & {"model", "models"})


def _collected(value: cst.BaseExpression) -> list[int]:
    """Return the ids of the string elements of a list, tuple or set display (or one given to
    `set(...)` / `frozenset(...)`)."""
    if isinstance(value, cst.Call) and len(value.args) == 1:
        func = value.func
        if isinstance(func, cst.Name) and func.value in ("set", "frozenset", "tuple", "list"):
            value = value.args[0].value
    if not isinstance(value, (cst.List, cst.Tuple, cst.Set)):
        return []
    return [id(e.value) for e in value.elements if isinstance(e.value, cst.SimpleString)]


def _module_constants(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """Return the module's names assigned exactly once at its top level, with their values."""
    values: dict[str, cst.BaseExpression] = {}
    seen: Counter[str] = Counter()
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            targets: list[cst.BaseExpression] = []
            value: cst.BaseExpression | None = None
            if isinstance(small, cst.Assign):
                targets, value = [t.target for t in small.targets], small.value
            elif isinstance(small, cst.AnnAssign | cst.AugAssign):
                targets, value = [small.target], small.value
            for target in targets:
                if isinstance(target, cst.Name):
                    seen[target.value] += 1
                    if value is not None:
                        values[target.value] = value
    return {name: value for name, value in values.items() if seen[name] == 1}


def states_facts(node: cst.BaseExpression) -> bool:
    """Return whether a value states facts about a model: a number or a flag, a set (of
    features), or a dict, list, tuple or call holding one (`{"context": 200_000}`, `(3.0,
    15.0)`, `Limits(output=4096)`). Strings alone (a route, a label) do not."""
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, (cst.Integer, cst.Float, cst.Imaginary, cst.Set)):
            return True
        if isinstance(current, cst.Name):
            if current.value in ("True", "False"):
                return True
            continue
        if isinstance(current, cst.Call):
            func = current.func
            if isinstance(func, cst.Name) and func.value in ("set", "frozenset"):
                return True
            stack.extend(arg.value for arg in current.args)
        elif isinstance(current, cst.Dict):
            stack.extend(e.value for e in current.elements if isinstance(e, cst.DictElement))
        elif isinstance(current, (cst.List, cst.Tuple)):
            stack.extend(e.value for e in current.elements if isinstance(e, cst.Element))
        elif isinstance(current, cst.UnaryOperation):
            stack.append(current.expression)
        elif isinstance(current, cst.BinaryOperation):
            stack.extend((current.left, current.right))
    return False


# Keywords a call sends as a request's settings (the Messages API's, its Bedrock and LiteLLM
# spellings, a client's), not facts about the model it names.
REQUEST_SETTINGS = frozenset(
    {
        "temperature", "max_tokens", "max_tokens_to_sample", "maxTokens", "max_completion_tokens",
        "top_p", "topP", "top_k", "topK", "timeout", "max_retries", "retries", "seed", "n",
        "stream", "streaming", "budget_tokens", "thinking", "stop", "stop_sequences",
        "frequency_penalty", "presence_penalty", "num_retries", "request_timeout",
    }
)  # fmt: skip


def _table_name(node: cst.BaseExpression) -> str:
    """Return a subscripted table's dotted name (`MODELS`, `self.models`), "" for any other
    expression (a call's result, a literal)."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _table_name(node.value)
        return f"{base}.{node.attr.value}" if base else ""
    return ""


def _double_answer(value: cst.BaseExpression) -> bool:
    """Return whether a value a test double is told to give back is a body (a dict, a list of
    them, an object built with them), not a bare value the code may send on."""
    return isinstance(value, (cst.Dict, cst.List, cst.Tuple, cst.Call))


# The calls that state what a test expects: a double's expectations (`unittest.mock`,
# https://docs.python.org/3/library/unittest.mock.html#unittest.mock.Mock.assert_called_with)
# and unittest's assertions; their arguments are compared with what the code did.
EXPECTATIONS = frozenset(
    {
        "assert_called_with", "assert_called_once_with", "assert_any_call", "assert_has_calls",
        "assert_awaited_with", "assert_awaited_once_with", "assert_any_await",
        "assert_has_awaits", "assertEqual", "assertEquals", "assertIn", "assertDictEqual",
        "assertDictContainsSubset", "assertListEqual", "assertTupleEqual", "assertSequenceEqual",
        "assertCountEqual", "assertSetEqual",
    }
)  # fmt: skip


def _expects_text_completions(double: cst.BaseExpression) -> bool:
    """Return whether a double's expectation is set on a Text Completions call
    (`client.completions.create`, not OpenAI's `client.chat.completions.create`)."""
    if not (isinstance(double, cst.Attribute) and double.attr.value == "create"):
        return False
    resource = double.value
    if not (isinstance(resource, cst.Attribute) and resource.attr.value == "completions"):
        return False
    owner = resource.value
    return not (isinstance(owner, cst.Attribute) and owner.attr.value == "chat")


def _strings_in(node: cst.BaseExpression) -> list[int]:
    """Return the ids of the string literal `node` is, or that a call wrapping it passes
    (`snapshot("...")`, `str("...")`)."""
    if isinstance(node, cst.SimpleString):
        return [id(node)]
    if isinstance(node, cst.Call):
        return [id(arg.value) for arg in node.args if isinstance(arg.value, cst.SimpleString)]
    return []


class _Strings:
    """Collects the module's string literals, skipping strings that stand as statements."""

    def __init__(self, module: cst.Module | None = None) -> None:
        # Module constants assigned once (`CLAUDE_4 = ModelConfig(max_output_tokens=...)`): a
        # table entry naming one states what its value states.
        self.constants = _module_constants(module) if module is not None else {}
        self.found: list[cst.SimpleString] = []
        self.keys: set[int] = set()
        self.excluded: set[int] = set()
        self.groups: dict[int, Counter[str]] = {}
        self.answered: set[int] = set()
        self.doubled: set[int] = set()  # the strings of the bodies test doubles give back
        self.expected: set[int] = set()  # the strings a test expects (`EXPECTATIONS`, `assert`)
        self.legacy_expected: set[int] = set()  # ... of a Text Completions call's double
        self.legacy_body: set[int] = set()  # the models of Text Completions request bodies
        self.cases: set[int] = set()  # the cells of `pytest.mark.parametrize` rows (`case`)
        self.facts: set[int] = set()  # keys of tables of model facts, ids of pairs stating one
        # Registers of model objects, by the class called: `register(ClaudeMessages("..."))`,
        # `[Model("..."), ...]`; each entry its first argument's literal.
        self.registers: dict[str, list[cst.SimpleString]] = {}
        # The subscripts' indexes, with the table each looks up (`_table_name`).
        self.indexed: dict[int, str] = {}

    def visit_Arg(self, node: cst.Arg) -> bool:
        if isinstance(node.value, cst.Call):
            self._register(node.value)
        keyword = node.keyword.value if node.keyword is not None else ""
        if keyword in DOUBLE_ANSWERS and _double_answer(node.value):
            self.doubled.update(_nested_strings(node.value))
        return True

    def visit_Assert(self, node: cst.Assert) -> bool:
        self.expected.update(_nested_strings(node.test))
        return True

    def visit_Call(self, node: cst.Call) -> bool:
        self._described(node)
        self.cases.update(_case_cells(node))
        # A response object built by keyword (`Completion(model="claude-2.1",
        # completion="...", type="completion")`, `Message(..., stop_reason="end_turn")`): the
        # answer a test double gives back, as a dict display of the same keys is.
        keywords = {arg.keyword.value: arg.value for arg in node.args if arg.keyword is not None}
        model = keywords.get("model")
        if model is not None and (
            RESPONSE_KEYS & keywords.keys() or _string_value(keywords.get("type")) in RESPONSE_TYPES
        ):
            self.answered.add(id(model))
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in EXPECTATIONS:
            # `self.assertEqual(limit("claude-2.1"), 4096)`: a figure of the model, as above.
            self._looked_up([arg.value for arg in node.args])
            legacy = _expects_text_completions(func.value)
            for arg in node.args:
                strings = _nested_strings(arg.value)
                self.expected.update(strings)
                if legacy:
                    self.legacy_expected.update(strings)
        return True

    def visit_Element(self, node: cst.Element) -> bool:
        if isinstance(node.value, cst.Call):
            self._register(node.value)
        return True

    def _described(self, node: cst.Call) -> None:
        """Mark the one model id an object is made with as facts when the object states
        figures beside it (`ModelInfo(model="...", max_output_tokens=64_000, pricing={...})`,
        a row of a catalogue of models): renamed, they would describe the replacement. A
        request's settings (`temperature=0.5`, `max_tokens=1024`) are what is sent, not facts."""
        strings = [arg for arg in node.args if isinstance(arg.value, cst.SimpleString)]
        if len(strings) != 1:
            return
        others = [
            arg
            for arg in node.args
            if arg is not strings[0]
            and arg.keyword is not None
            and arg.keyword.value not in REQUEST_SETTINGS
        ]
        if any(states_facts(arg.value) for arg in others):
            self.facts.add(id(strings[0].value))

    def _register(self, node: cst.Call) -> None:
        func = node.func
        name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
        if not node.args or not isinstance(name, str) or not name[:1].isupper():
            return  # a class: its objects are what is registered
        first = node.args[0]
        if first.keyword is None and isinstance(first.value, cst.SimpleString):
            self.registers.setdefault(name, []).append(first.value)

    def _group(self, strings: list[cst.SimpleString]) -> None:
        values = (_string_value(string) for string in strings)
        group = Counter(value for value in values if value is not None)
        for string in strings:
            self.groups.setdefault(id(string), group)

    def register_groups(self) -> None:
        """Group the literals registered through each class (two or more of them)."""
        for entries in self.registers.values():
            if len(entries) > 1:
                self._group(entries)

    def _elements(self, node: cst.List | cst.Tuple | cst.Set) -> bool:
        strings = [e.value for e in node.elements if isinstance(e.value, cst.SimpleString)]
        if len(strings) > 1:
            self._group(strings)
        elif len(strings) == 1 and not isinstance(node, cst.Set):
            # `("claude-2.1", 200_000)`: an id paired with its figures (a row of a table).
            others = [e.value for e in node.elements if e.value is not strings[0]]
            if any(states_facts(other) for other in others):
                self.facts.add(id(strings[0]))
        return True

    def visit_List(self, node: cst.List) -> bool:
        return self._elements(node)

    def visit_Tuple(self, node: cst.Tuple) -> bool:
        return self._elements(node)

    def visit_Set(self, node: cst.Set) -> bool:
        return self._elements(node)

    def visit_Subscript(self, node: cst.Subscript) -> bool:
        # `Literal["claude-...", "claude-..."]`: a type's set of names, a list all the same.
        strings = [
            element.slice.value
            for element in node.slice
            if isinstance(element.slice, cst.Index)
            and isinstance(element.slice.value, cst.SimpleString)
        ]
        if len(strings) > 1:
            self._group(strings)
        elif len(strings) == 1 and len(node.slice) == 1 and _table_name(node.value):
            self.indexed[id(strings[0])] = _table_name(node.value)
        return True

    def visit_Dict(self, node: cst.Dict) -> bool:
        items = {
            _string_value(element.key): element.value
            for element in node.elements
            if isinstance(element, cst.DictElement)
        }
        for element in node.elements:
            if not isinstance(element, cst.DictElement):
                continue
            value = element.value
            if isinstance(value, cst.Name):
                value = self.constants.get(value.value, value)
            if states_facts(value):
                self.facts.add(id(element.key))
        answer = bool(RESPONSE_KEYS & items.keys()) or (
            _string_value(items.get("type")) in RESPONSE_TYPES
        )
        model = items.get("model")
        if answer and model is not None:
            self.answered.add(id(model))
        elif (
            model is not None and items.keys() >= TEXT_COMPLETIONS_KEYS and "messages" not in items
        ):
            self.legacy_body.add(id(model))
        return True

    def _looked_up(self, operands: list[cst.BaseExpression]) -> None:
        """Mark the ids looked up to compare a figure (`price("claude-3-opus-20240229") ==
        15.0`, `LIMITS["claude-2.1"] >= 4096`): the figure is the old model's."""
        if not any(states_facts(operand) for operand in operands):
            return
        for operand in operands:
            if isinstance(operand, cst.Call):
                keys = [arg.value for arg in operand.args if arg.keyword is None and not arg.star]
            elif isinstance(operand, cst.Subscript):
                keys = [e.slice.value for e in operand.slice if isinstance(e.slice, cst.Index)]
            else:
                continue
            self.facts.update(id(key) for key in keys if isinstance(key, cst.SimpleString))

    def visit_Comparison(self, node: cst.Comparison) -> bool:
        self._looked_up([node.left, *(target.comparator for target in node.comparisons)])
        left = node.left
        for target in node.comparisons:
            if isinstance(target.operator, cst.Equal):
                # `response["model"] == "..."`, `response.model == snapshot("...")`: the
                # expected answer, compared with what the API answered.
                for read, other in ((left, target.comparator), (target.comparator, left)):
                    if _reads_a_response_model(read):
                        self.answered.update(_strings_in(other))
            if isinstance(target.operator, (cst.NotEqual, cst.NotIn, cst.IsNot)):
                for operand in (left, target.comparator):
                    self.excluded.add(id(operand))
                    if isinstance(operand, (cst.List, cst.Tuple, cst.Set)):
                        self.excluded.update(id(element.value) for element in operand.elements)
            left = target.comparator
        return True

    def visit_Assign(self, node: cst.Assign) -> bool:
        for target in node.targets:
            # `MODELS["claude-2"] = ...`: a key the table is given.
            if isinstance(target.target, cst.Subscript) and len(target.target.slice) == 1:
                index = target.target.slice[0].slice
                if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                    self.keys.add(id(index.value))
        if any(_names_a_capability(target.target) for target in node.targets):
            self.facts.update(_collected(node.value))
        # `response.model = "..."`: a test double's answer.
        if any(_reads_a_response_model(target.target) for target in node.targets):
            self.answered.update(_strings_in(node.value))
        # `mock_response.json.return_value = {"data": [{"id": "..."}]}`: the body it answers.
        if _double_answer(node.value) and any(
            isinstance(target.target, cst.Attribute) and target.target.attr.value in DOUBLE_ANSWERS
            for target in node.targets
        ):
            self.doubled.update(_nested_strings(node.value))
        return True

    def visit_AnnAssign(self, node: cst.AnnAssign) -> bool:
        if node.value is not None and _names_a_capability(node.target):
            self.facts.update(_collected(node.value))
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
    visitor = _Strings(ctx.module)
    walk(ctx.module, visitor)
    visitor.register_groups()
    catalogue = ctx.facts.catalogue
    found = []
    values: set[str] = set()
    doubled = {_string_value(node) for node in visitor.found if id(node) in visitor.doubled}
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
                    visitor.groups.get(id(node)),
                    id(node) in visitor.answered or id(node) in visitor.doubled,
                    id(node) not in visitor.doubled and value in doubled,
                    id(node) in visitor.expected,
                    id(node) in visitor.legacy_expected,
                    id(node) in visitor.facts,
                    visitor.indexed.get(id(node), ""),
                    id(node) in visitor.legacy_body,
                    id(node) in visitor.cases,
                )  # fmt: skip
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


def register_of(ctx: FileContext, call: cst.Call, node: cst.CSTNode | None) -> str | None:
    """Return the class whose register `call` adds to, when `node` (a call's model) is its first
    argument: a call of a class (`ChatModel("claude-...")`) passed to another call or listed,
    as `_Strings` groups data mentions. None otherwise."""
    func = call.func
    name = func.attr.value if isinstance(func, cst.Attribute) else getattr(func, "value", "")
    if not isinstance(name, str) or not name[:1].isupper() or not call.args:
        return None
    first = call.args[0]
    if first.keyword is not None or first.value is not node:
        return None
    if not isinstance(ctx.nodes.parent(call), (cst.Arg, cst.Element)):
        return None
    return name
