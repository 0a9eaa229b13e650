"""`node_spans` gives every node the range LibCST's PositionProvider gives it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import anthropic
import libcst as cst
import pytest
from helpers import FIXTURES
from libcst.metadata import MetadataWrapper, PositionProvider

from claude_migrate.analysis.positions import node_spans
from claude_migrate.core.source import SourceText

ODD = {
    "crlf": (
        "import anthropic\r\nc = anthropic.Anthropic()\r\n"
        "c.messages.create(\r\n    temperature=0.9,  # hot\r\n)\r\n"
    ),
    "no trailing newline": "def f():\n    return g(1,\n        2)",
    "unicode": "s = 'héllo 😀'; t = f(s, key='ключ')\n",
    "tabs and continuation": "if x:\n\ty = [1,\n\t     2] \\\n\t    + z\n",
    "decorators and parens": "@a.b(c)\n@d\nclass K((B)):\n    def m(self, *, k=(1)): ...\n",
}
SAMPLES = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(FIXTURES.rglob("*.py"))]
SAMPLES += [(f"odd: {k}", v) for k, v in ODD.items()]
SAMPLES += [(p.name, p.read_text(encoding="utf-8")) for p in (
    Path(dataclasses.__file__), Path(anthropic.__file__).parent / "_client.py")]  # fmt: skip


@pytest.mark.parametrize(("name", "text"), SAMPLES, ids=[n for n, _ in SAMPLES])
def test_spans_match_position_provider(name: str, text: str) -> None:
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    spans = node_spans(module, text)
    assert spans is not None
    source = SourceText(text)
    assert spans.keys() == expected.keys()
    for node, code_range in expected.items():
        start, end = spans[node]
        # As offsets (what edits use), for every node...
        assert (start, end) == (
            source.offset(code_range.start.line, code_range.start.column),
            source.offset(code_range.end.line, code_range.end.column),
        )
        # ...and as lines and columns wherever PositionProvider stays inside the text.
        assert source.position(start) == (code_range.start.line, code_range.start.column)
        if code_range.end.line <= len(source.line_starts) and end < len(text):
            assert source.position(end) == (code_range.end.line, code_range.end.column)


def test_text_libcst_does_not_reproduce_gets_no_spans() -> None:
    text = "x = 1\ry = (\r  2)\r"  # lone CR line ends: LibCST's code differs
    module = cst.parse_module(text)
    assert module.code != text
    assert node_spans(module, text) is None


def test_a_file_with_lone_cr_line_ends_is_still_reported_and_fixed_in_place(tmp_path: Path) -> None:
    from claude_migrate.api import collect_jobs, execute
    from claude_migrate.core.job import Options
    from claude_migrate.policy.config import PolicyLoader

    path = tmp_path / "cr.py"
    path.write_bytes(
        b'import anthropic\rc = anthropic.Anthropic()\rc.messages.create(model="m",\r'
        b"    temperature=0.9, max_tokens=5000)\r"
    )
    jobs = collect_jobs([path], PolicyLoader(), ["CM101", "CM102"])
    run = execute(jobs, Options(fix=True), workers=1)
    assert [(d.line, d.column) for d in run.diagnostics] == []
    assert path.read_bytes() == (
        b'import anthropic\rc = anthropic.Anthropic()\rc.messages.create(model="m",\r'
        b"    temperature=0.0, max_tokens=1024)\r"
    )


@pytest.mark.parametrize(("name", "text"), SAMPLES, ids=[n for n, _ in SAMPLES])
def test_a_nodes_span_from_its_statement_is_the_whole_modules(name: str, text: str) -> None:
    """`FileContext.span` finds each node from its statement, as `node_spans` has it."""
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.walk import child_fields

    module = cst.parse_module(text)
    whole = node_spans(module, text)
    assert whole is not None
    asked: list[cst.CSTNode] = []
    stack: list[cst.CSTNode] = [module]
    while stack:  # every node the parent map knows, from two places, in a fresh context each
        node = stack.pop()
        asked.append(node)
        for field in child_fields(type(node)):
            value = getattr(node, field)
            items = value if isinstance(value, (list, tuple)) else [value]
            stack.extend(v for v in items if isinstance(v, cst.CSTNode))
    settings = None  # the spans read nothing of the policy
    for start in (0, len(asked) // 2):
        context = FileContext(name, SourceText(text), module, settings)  # type: ignore[arg-type]
        if start:
            assert context.nodes is not None  # the parent map built: statements are tried too
        for node in asked[start:] + asked[:start]:
            assert context.span(node) == whole[node]
