"""Where a test states again the value of a parameter a fix would change in the call it makes.

A unit test often passes a parameter to the call it makes and states the same value in what it
expects: `assert payload["temperature"] == 0.7`, an expected request body
`{"max_tokens": 4096, ...}` compared with what its mocked client received, or
`create.assert_called_with(max_tokens=4096)`. A fix that sets the call's value alone leaves the
test comparing the new value with the old one, and it fails; the fix is withheld there, naming
the line, so both are changed together.

Only test files count (`doubles.is_test_file`), and only the function the call is in (and, for
a helper of the file, the functions calling it): a number (or a list of stop sequences,
`{"stop_sequences": ["END"]}` in an expected request or span) equal to the call's value stated
under the parameter's name (a dict entry keyed by it, a
keyword argument of an assertion call, or a comparison with a subscript or attribute of that name).
A call made in any other module is read against the test files that import it or name it in a
patch target (`doubles.importing_tests`), each whole, parsed once per version of the file.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
else:
    cst = lazy_import("libcst")

# The names a request may give a parameter (the Messages API, Bedrock's Converse, OpenAI-style
# routers), so an expected body in another spelling is found too.
SPELLINGS = {
    "max_tokens": ("max_tokens", "maxTokens", "max_tokens_to_sample", "max_completion_tokens"),
    "temperature": ("temperature",),
    "stop_sequences": ("stop_sequences", "stopSequences", "stop"),
}
MAX_NODES = 20_000  # a test function larger than this is not searched
MAX_MODULE_NODES = 400_000  # a test module larger than this is searched this far


def restated(ctx: FileContext, site: CallSite, entry: Entry, parameter: str) -> int:
    """Return the line where the test function making `site` states `entry`'s value again
    under the parameter's name, or 0 when it does not (or the file is no test file)."""
    from claude_migrate.analysis.doubles import is_test_file, project_root

    value = _comparable(entry.value.value)
    if value is None:
        return 0
    path = os.path.abspath(ctx.file_path)
    relative = os.path.relpath(path, project_root(path)).replace(os.sep, "/")
    scope = site.record.scope
    if not is_test_file(relative) or not isinstance(
        scope.node, cst.FunctionDef
    ):  # a module-level call has no test around it to compare
        return 0
    names = set(SPELLINGS.get(parameter, (parameter,))) | {entry.key}
    own = {id(entry.holder), id(entry.value.node)}
    finder = _Finder(names, value, own)
    scope.node.visit(finder)
    if not finder.found:
        # A helper of the test file building what the tests use (`def build_provider(): return
        # Provider(temperature=0.5)`): the tests calling it state the value it passes too.
        for caller in _callers(ctx.module, scope.node.name.value):
            caller.visit(finder)
            if finder.found:
                break
    if not finder.found:
        return 0
    return ctx.range(finder.found).start.line


def restated_by_tests(ctx: FileContext, entry: Entry, parameter: str) -> str:
    """Return where a test of the module making a call states the call's value again under the
    parameter's name (`create.assert_called_once_with(temperature=0.7)` in a test that imports
    the module, "tests/test_app.py:12"), or "" when none does (or the module is a test file,
    whose own tests `restated` reads)."""
    from claude_migrate.analysis.doubles import file_stamp, importing_tests, project_root

    value = _comparable(entry.value.value)
    if value is None:
        return ""
    path = os.path.abspath(ctx.file_path)
    names = frozenset(SPELLINGS.get(parameter, (parameter,))) | {entry.key}
    root = project_root(path)
    for test in importing_tests(path):
        line = _stated_in(test, file_stamp(test), names, value)
        if line:
            relative = os.path.relpath(test, root).replace(os.sep, "/")
            return f"{relative}:{line}"
    return ""


@cache
def _parsed_test(path: str, stamp: str) -> cst.Module | None:
    """Return a test file's LibCST tree, read as Python reads it (None: unreadable, too large
    or not Python); once per version of the file."""
    from claude_migrate.analysis.doubles import _source

    text = _source(Path(path))
    if text is None:
        return None
    try:
        return cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError, MemoryError, ValueError):
        return None


@cache
def _stated_in(path: str, stamp: str, names: frozenset[str], value: Literal) -> int:
    """Return the first line of a test file stating `value` under one of `names` (0: none)."""
    module = _parsed_test(path, stamp)
    if module is None:
        return 0
    finder = _Finder(set(names), value, set())
    wrapper = cst.MetadataWrapper(module, unsafe_skip_copy=True)
    positions = wrapper.resolve(cst.metadata.PositionProvider)
    wrapper.module.visit(finder)
    if finder.found is None:
        return 0
    position = positions.get(finder.found)
    return position.start.line if position is not None else 0


def _callers(module: cst.Module, name: str) -> list[cst.FunctionDef]:
    """Return the functions of the module (methods too) that call `name` (`name(...)`, or
    `self.name(...)` / `cls.name(...)`), other than `name` itself."""
    found: list[cst.FunctionDef] = []

    class Callers(cst.CSTVisitor):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[cst.FunctionDef] = []

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            self.stack.append(node)
            return True

        def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
            self.stack.pop()

        def visit_Call(self, node: cst.Call) -> bool:
            func = node.func
            called = (
                func.value
                if isinstance(func, cst.Name)
                else func.attr.value
                if isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value in ("self", "cls")
                else ""
            )
            if called == name and self.stack:
                outer = self.stack[0]
                if outer.name.value != name and all(outer is not f for f in found):
                    found.append(outer)
            return True

    module.visit(Callers())
    return found


Literal = float | int | str | tuple[object, ...]


def _comparable(value: object) -> Literal | None:
    """Return a call's value as the test's literals are read (a list as a tuple of its
    numbers and strings), or None for a value no literal is compared with (a flag, a dict)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, (list, tuple)) and all(
        isinstance(item, (int, float, str)) and not isinstance(item, bool) for item in value
    ):
        return tuple(value)
    return None


def _literal(node: cst.CSTNode) -> Literal | None:
    """Return what a number, a string, or a list or tuple of them written in the test says."""
    if isinstance(node, cst.Integer | cst.Float | cst.SimpleString):
        try:
            evaluated = node.evaluated_value
        except (ValueError, SyntaxError):
            return None
        return evaluated if isinstance(evaluated, (int, float, str)) else None
    if isinstance(node, cst.List | cst.Tuple):
        items = []
        for element in node.elements:
            item = _literal(element.value) if isinstance(element, cst.Element) else None
            if item is None or isinstance(item, tuple):
                return None
            items.append(item)
        return tuple(items)
    return None


def _key(node: cst.CSTNode) -> str | None:
    """Return the name a subscript, attribute or string literal states."""
    if isinstance(node, cst.SimpleString):
        try:
            evaluated = node.evaluated_value
        except (ValueError, SyntaxError):
            return None
        return evaluated if isinstance(evaluated, str) else None
    if isinstance(node, cst.Attribute):
        return node.attr.value
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        if isinstance(index, cst.Index):
            return _key(index.value)
    if isinstance(node, cst.Call):  # `payload.get("max_tokens")`
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value == "get" and node.args:
            return _key(node.args[0].value)
    return None


def _callee(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""


class _Finder(cst.CSTVisitor):
    def __init__(self, names: set[str], value: Literal, own: set[int]) -> None:
        super().__init__()
        self.names = names
        self.value = value
        self.own = own
        self.found: cst.CSTNode | None = None
        self.seen = 0

    def _same(self, node: cst.CSTNode) -> bool:
        return id(node) not in self.own and _literal(node) == self.value

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES or id(node) in self.own:
            return False
        if isinstance(node, cst.DictElement):
            if _key(node.key) in self.names and self._same(node.value):
                self.found = node
        elif isinstance(node, cst.Call) and _callee(node).startswith("assert"):
            # `create.assert_called_with(max_tokens=4096)`: what the mock was called with.
            for arg in node.args:
                keyword = arg.keyword
                if keyword is not None and keyword.value in self.names and self._same(arg.value):
                    self.found = arg
        elif isinstance(node, cst.Comparison):
            sides = [node.left, *(target.comparator for target in node.comparisons)]
            if any(_key(side) in self.names for side in sides) and any(
                self._same(side) for side in sides
            ):
                self.found = node
        return self.found is None


# The non-streaming client methods a LangChain model calls under `invoke` when `streaming` is
# off, and what it calls once `streaming=True`: a test double configured on the first is no
# longer called (`langchain_aws` ChatBedrock: `invoke_model` / `invoke_model_with_response_stream`,
# `converse` / `converse_stream`; `langchain_anthropic`: `messages.create` / `messages.stream`).
UNSTREAMED = {
    "invoke_model": "invoke_model_with_response_stream",
    "converse": "converse_stream",
    "create": "create with stream=True, which answers with events",
}
# What a test reads or sets on a configured mock (`unittest.mock`).
MOCK_ATTRIBUTES = frozenset(
    {"return_value", "side_effect", "call_args", "call_args_list", "call_count", "called"}
)


def unstreamed_double(ctx: FileContext, site: CallSite) -> tuple[int, str]:
    """Return the line and method of a mock the test function making `site` configures on a
    client's non-streaming method (`client.invoke_model.return_value = ...`,
    `client.converse.call_args`), or (0, "") when there is none or the file is no test file."""
    from claude_migrate.analysis.doubles import is_test_file, project_root

    path = os.path.abspath(ctx.file_path)
    relative = os.path.relpath(path, project_root(path)).replace(os.sep, "/")
    scope = site.record.scope
    if not is_test_file(relative) or not isinstance(scope.node, cst.FunctionDef):
        return 0, ""
    finder = _MockFinder()
    scope.node.visit(finder)
    if finder.found is None:
        return 0, ""
    node, method = finder.found
    return ctx.range(node).start.line, method


class _MockFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: tuple[cst.CSTNode, str] | None = None
        self.seen = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES:
            return False
        if isinstance(node, cst.Attribute) and (
            node.attr.value in MOCK_ATTRIBUTES or node.attr.value.startswith("assert_")
        ):
            inner = node.value
            if isinstance(inner, cst.Attribute) and inner.attr.value in UNSTREAMED:
                self.found = (node, inner.attr.value)
        return self.found is None


def expected_id(ctx: FileContext, site: CallSite, entry: Entry) -> int:
    """Return the line where the test function making `site` expects the model id the call
    sends (the same id, or one spelling of it inside the other: `anthropic.claude-x` for
    `us.anthropic.claude-x`), in an `assert`, a comparison or an assertion call's arguments;
    0 when it does not, or the file is no test file.

    `assert llm._get_base_model() == "anthropic.claude-3-sonnet-20240229-v1:0"` after
    `ChatBedrockConverse(model="anthropic.claude-3-sonnet-20240229-v1:0")`: the expectation is
    kept (it states what the code under test gives back), so moving the call alone fails it.
    """
    from claude_migrate.analysis.doubles import is_test_file, project_root

    current = entry.value.value
    if not isinstance(current, str) or "claude" not in current:
        return 0
    path = os.path.abspath(ctx.file_path)
    relative = os.path.relpath(path, project_root(path)).replace(os.sep, "/")
    scope = site.record.scope
    if not is_test_file(relative) or not isinstance(scope.node, cst.FunctionDef):
        return 0
    # The name the call reads the id through (`model=MODEL_NAME`): a test that asserts
    # `llm.model == MODEL_NAME` expects it too, and the constant stays when the call moves.
    argument = entry.holder.value if isinstance(entry.holder, cst.Arg) else None
    read = argument.value if isinstance(argument, cst.Name) else ""
    finder = _IdFinder(current, {id(entry.value.node), id(entry.holder)}, read)
    scope.node.visit(finder)
    return ctx.range(finder.found).start.line if finder.found is not None else 0


class _IdFinder(cst.CSTVisitor):
    def __init__(self, current: str, own: set[int], read: str = "") -> None:
        super().__init__()
        self.current = current
        self.own = own
        self.read = read
        self.found: cst.CSTNode | None = None
        self.seen = 0
        self.depth = 0  # inside an assert, a comparison or an assertion call

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES or id(node) in self.own:
            return False
        if isinstance(node, cst.Assert | cst.Comparison) or (
            isinstance(node, cst.Call) and _callee(node).startswith("assert")
        ):
            self.depth += 1
        elif self.depth and self.read and isinstance(node, cst.Name):
            if node.value == self.read:
                self.found = node
        elif self.depth and isinstance(node, cst.SimpleString):
            text = _key(node)
            if text and "claude" in text and (text in self.current or self.current in text):
                self.found = node
        return self.found is None

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if isinstance(original_node, cst.Assert | cst.Comparison) or (
            isinstance(original_node, cst.Call) and _callee(original_node).startswith("assert")
        ):
            self.depth -= 1


def asserted_parameter(ctx: FileContext, site: CallSite, name: str) -> int:
    """Return the line where the test function making `site` asserts on the parameter `name`
    of what the code builds (`assert params["inferenceConfig"]["temperature"] == 0`,
    `payload.get("temperature")` in a comparison), or 0: removing the parameter from the call
    would fail that test (a `KeyError`, or a value no longer there)."""
    from claude_migrate.analysis.doubles import is_test_file, project_root

    path = os.path.abspath(ctx.file_path)
    relative = os.path.relpath(path, project_root(path)).replace(os.sep, "/")
    scope = site.record.scope
    if not is_test_file(relative) or not isinstance(scope.node, cst.FunctionDef):
        return 0
    finder = _ParameterFinder(name)
    scope.node.visit(finder)
    return ctx.range(finder.found).start.line if finder.found is not None else 0


class _ParameterFinder(cst.CSTVisitor):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.name = name
        self.found: cst.CSTNode | None = None
        self.seen = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES:
            return False
        if isinstance(node, cst.Comparison):
            sides = [node.left, *(target.comparator for target in node.comparisons)]
            if any(_key(side) == self.name for side in sides):
                self.found = node
        return self.found is None


def test_names(
    ctx: FileContext, node: cst.CSTNode, wanted: frozenset[str]
) -> tuple[str, int] | None:
    """Return the first of `wanted` (a beta or tool version) a string literal of the test code
    around `node` names, with its line: the test function holding it, or the whole module for a
    node outside any function (a module constant its tests read); None when none does or the
    file is no test file."""
    from claude_migrate.analysis.doubles import is_test_file, project_root

    path = os.path.abspath(ctx.file_path)
    if not is_test_file(os.path.relpath(path, project_root(path)).replace(os.sep, "/")):
        return None
    scope: cst.CSTNode = _function_of(ctx, node) or ctx.module
    finder = _NameFinder(wanted)
    scope.visit(finder)
    if finder.found is None:
        return None
    text, at = finder.found
    return text, ctx.range(at).start.line


class _NameFinder(cst.CSTVisitor):
    """Find the first string literal naming one of `wanted`."""

    def __init__(self, wanted: frozenset[str]) -> None:
        super().__init__()
        self.wanted = sorted(wanted)
        self.found: tuple[str, cst.CSTNode] | None = None
        self.seen = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES:
            return False
        if isinstance(node, cst.SimpleString):
            named = [text for text in self.wanted if text in node.value]
            if named:
                self.found = (named[0], node)
        return self.found is None


def _function_of(ctx: FileContext, node: cst.CSTNode) -> cst.FunctionDef | None:
    """Return the innermost function around `node` (None: it is outside any function)."""
    current: cst.CSTNode | None = node
    for _ in range(MAX_NODES):  # bounded: no parent chain is longer than the tree is large
        current = ctx.nodes.parent(current) if current is not None else None
        if current is None or isinstance(current, cst.FunctionDef):
            return current
    return None


def embedded_id(ctx: FileContext, node: cst.CSTNode, value: str, spelled: frozenset[str]) -> int:
    """Return the line where the test function holding the id literal `node` expects the id
    again inside a longer text (`assert text.endswith(" [fallback to claude-x]")` beside
    `vision_model="anthropic:claude-x"`), in an `assert`, a comparison or an assertion call's
    arguments; 0 when it does not, or the file is no test file.

    The text is no model id (`spelled`: the ids of the file's literals, renamed with this one),
    so no fix rewrites it: renamed alone, the id changes what the code under test gives back
    while the test still expects the old one.
    """
    from claude_migrate.analysis.doubles import is_test_file, project_root

    start = value.find("claude")
    if start < 0:
        return 0
    path = os.path.abspath(ctx.file_path)
    if not is_test_file(os.path.relpath(path, project_root(path)).replace(os.sep, "/")):
        return 0
    function = _function_of(ctx, node)
    if function is None:
        return 0
    finder = _EmbeddedFinder(value[start:], spelled, id(node))
    function.visit(finder)
    return ctx.range(finder.found).start.line if finder.found is not None else 0


class _EmbeddedFinder(cst.CSTVisitor):
    def __init__(self, core: str, spelled: frozenset[str], own: int) -> None:
        super().__init__()
        self.core = core
        self.spelled = spelled
        self.own = own
        self.found: cst.CSTNode | None = None
        self.seen = 0
        self.depth = 0  # inside an assert, a comparison or an assertion call

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_NODES or id(node) == self.own:
            return False
        if _asserting(node):
            self.depth += 1
        elif self.depth and isinstance(node, cst.SimpleString | cst.FormattedStringText):
            text = _key(node) if isinstance(node, cst.SimpleString) else node.value
            if text and self.core in text and text not in self.spelled:
                self.found = node
        return self.found is None

    def on_leave(self, original_node: cst.CSTNode) -> None:
        if _asserting(original_node):
            self.depth -= 1


def _asserting(node: cst.CSTNode) -> bool:
    """Return whether `node` is an `assert`, a comparison or an assertion call."""
    return isinstance(node, cst.Assert | cst.Comparison) or (
        isinstance(node, cst.Call) and _callee(node).startswith("assert")
    )


def text_holding(ctx: FileContext, value: str, spelled: frozenset[str]) -> int:
    """Return the line of the first string literal of a test file that holds the id `value`
    inside a longer text (a TOML or YAML configuration a test writes, `name = "claude-x"`) and
    is no model id itself (`spelled`), so no fix rewrites it; 0 when none does, or the file is
    no test file."""
    from claude_migrate.analysis.doubles import is_test_file, project_root

    path = os.path.abspath(ctx.file_path)
    if not is_test_file(os.path.relpath(path, project_root(path)).replace(os.sep, "/")):
        return 0
    finder = _TextFinder(value, spelled)
    ctx.module.visit(finder)
    return ctx.range(finder.found).start.line if finder.found is not None else 0


class _TextFinder(cst.CSTVisitor):
    def __init__(self, value: str, spelled: frozenset[str]) -> None:
        super().__init__()
        self.value = value
        self.spelled = spelled
        self.found: cst.CSTNode | None = None
        self.seen = 0

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.seen += 1
        if self.found is not None or self.seen > MAX_MODULE_NODES:
            return False
        if isinstance(node, cst.SimpleString | cst.FormattedStringText):
            text = _key(node) if isinstance(node, cst.SimpleString) else node.value
            if text and self.value in text and text not in self.spelled:
                self.found = node
        return self.found is None
