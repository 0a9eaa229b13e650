"""Where every node of a module starts and ends, as offsets into its text, in one cheap pass.

LibCST's `PositionProvider` generates the module's code once and records a `CodeRange` for every
node; measured on the generated corpus, that costs more than twice the parse, and the checks ask
for it in every file with a finding. `node_spans` runs the same code generation with the same
rules (a node's *syntactic* range where its code generation says so, borrowed from a child where
it names one, else everything it generated) but keeps two integers per node: the running length
of the generated text. Because LibCST reproduces its input byte for byte, those are offsets into
the source text, and `SourceText.position` turns one into a line and column when a diagnostic
needs it. tests/test_positions.py checks the result equal to `PositionProvider`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")

Spans = dict[Any, tuple[int, int]]


class _Syntactic:
    """`with state.record_syntactic_position(node, ...)`, without a generator per node."""

    __slots__ = ("spans", "state", "node", "start_node", "end_node", "start")

    def __init__(self, state: Any, node: Any, start_node: Any, end_node: Any) -> None:
        self.state = state
        self.node = node
        self.start_node = start_node
        self.end_node = end_node
        self.start = 0

    def __enter__(self) -> None:
        self.start = self.state.offset

    def __exit__(self, *exc: object) -> None:
        spans = self.state.spans
        start = spans[self.start_node][0] if self.start_node is not None else self.start
        end = spans[self.end_node][1] if self.end_node is not None else self.state.offset
        spans[self.node] = (start, end)


def _state_class() -> type:
    from libcst._nodes.internal import CodegenState  # the hooks PositionProvider overrides

    class OffsetState(CodegenState):
        def __init__(self, module: cst.Module) -> None:
            super().__init__(
                default_indent=module.default_indent, default_newline=module.default_newline
            )
            self.offset = 0
            self.popped = False
            self.spans: Spans = {}
            self._starts: list[int] = []

        def add_indent_tokens(self) -> None:
            self.tokens.extend(self.indent_tokens)
            for token in self.indent_tokens:
                self.offset += len(token)

        def add_token(self, value: str) -> None:
            self.tokens.append(value)
            self.offset += len(value)

        def pop_trailing_newline(self) -> None:
            if self.tokens:
                self.offset -= len(self.tokens.pop())
                self.popped = True

        def before_codegen(self, node: cst.CSTNode) -> None:
            self._starts.append(self.offset)

        def after_codegen(self, node: cst.CSTNode) -> None:
            # A syntactic range, recorded inside, wins over the whole of what the node generated.
            self.spans.setdefault(node, (self._starts.pop(), self.offset))

        # LibCST only uses it in `with`: any context manager does, not only a generator's.
        def record_syntactic_position(  # type: ignore[override]
            self,
            node: cst.CSTNode,
            *,
            start_node: cst.CSTNode | None = None,
            end_node: cst.CSTNode | None = None,
        ) -> _Syntactic:
            return _Syntactic(self, node, start_node, end_node)

    return OffsetState


_STATE: type | None = None


def node_spans(module: cst.Module, text: str) -> Spans | None:
    """Return (start, end) offsets into `text` of every node, as PositionProvider has them.

    None when LibCST's code for the module is not `text` (LibCST normalises a few rare inputs,
    such as line ends made of a lone CR): offsets into other text would be wrong, and the
    caller asks PositionProvider instead.
    """
    global _STATE
    if _STATE is None:
        _STATE = _state_class()
    state = _STATE(module)
    module._codegen(state)
    if state.offset != len(text) or "".join(state.tokens) != text:
        return None
    spans: Spans = state.spans
    if state.popped:
        # The file has no final newline: LibCST generated one and took it back, after the last
        # line's nodes had counted it. PositionProvider puts their ends on the line after the
        # last, which is the end of the text.
        end = state.offset
        spans = {node: (min(a, end), min(b, end)) for node, (a, b) in spans.items()}
    return spans


def expression_spans(module: cst.Module, node: cst.CSTNode, text: str) -> tuple[Spans | None, int]:
    """Return the offsets of every node of a part of a statement written on one line.

    Inside a statement, only a new line is followed by indentation the node does not hold
    itself (the block's, `state.indent_tokens`): the code of such a part generated alone is,
    when it holds no line end, the text it was parsed from. When it occurs exactly once in
    `text`, that is where it is (as in `statement_spans`). No offsets otherwise.
    """
    if isinstance(node, (cst.Module, cst.BaseStatement, cst.BaseSmallStatement)):
        return None, 0
    global _STATE
    if _STATE is None:
        _STATE = _state_class()
    state = _STATE(module)
    try:
        node._codegen(state)
    except SyntaxError:  # LibCST's CSTCodegenError: a part its parent completes (a `=`)
        return None, 0
    code = "".join(state.tokens)
    if "\n" in code or "\r" in code:
        return None, len(code)
    return _placed(state.spans, code, text), len(code)


def _placed(spans: Spans, code: str, text: str) -> Spans | None:
    """Return `spans` (offsets into `code`) as offsets into `text`, if `code` occurs there once."""
    start = text.find(code)
    if start < 0 or text.find(code, start + 1) >= 0:
        return None
    return {node: (a + start, b + start) for node, (a, b) in spans.items()}


def statement_spans(
    module: cst.Module, statement: cst.CSTNode, indents: list[str], text: str
) -> tuple[Spans | None, int]:
    """Return the offsets of every node of one statement, and how much code that generated.

    `statement` is an element of the module's body or of an indented block, `indents` the
    indentation of the blocks around it (outermost first): its code generation is then, token
    for token, the text it was parsed from. When that code occurs exactly once in `text`, that
    occurrence is the statement (LibCST reproduces its input), and every offset inside it is
    the whole module's (`node_spans`) moved by where it starts. No offsets when the code occurs
    anywhere else too, or nowhere (the text LibCST does not reproduce).
    """
    global _STATE
    if _STATE is None:
        _STATE = _state_class()
    state = _STATE(module)
    state.indent_tokens = list(indents)
    statement._codegen(state)
    code = "".join(state.tokens)
    return _placed(state.spans, code, text), len(code)
