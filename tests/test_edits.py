"""Removing arguments, dict entries and list items keeps everything else byte for byte."""

from __future__ import annotations

import ast

import libcst as cst
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claude_migrate.analysis.context import FileContext
from claude_migrate.analysis.edits import remove_elements
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText
from claude_migrate.engine.fixer import apply_edits


def remove(source: str, drop: list[int]) -> str:
    module = cst.parse_module(source)
    ctx = FileContext("x.py", SourceText(source), module, FileSettings(frozenset(), ()))
    container = module.body[0].body[0].value  # type: ignore[attr-defined]
    children = list(container.args if isinstance(container, cst.Call) else container.elements)
    edit = remove_elements(ctx, container, [children[i] for i in drop])
    assert edit is not None
    return apply_edits(source, [edit])


@pytest.mark.parametrize(
    ("source", "drop", "expected"),
    [
        ("f(a=1, b=2, c=3)\n", [1], "f(a=1, c=3)\n"),
        ("f(a=1, b=2, c=3)\n", [2], "f(a=1, b=2)\n"),
        ("f(a=1, b=2, c=3)\n", [0], "f(b=2, c=3)\n"),
        ("f(a=1)\n", [0], "f()\n"),
        ("f(a=1,)\n", [0], "f()\n"),
        ("f(a=1, b=2,)\n", [1], "f(a=1,)\n"),
        ("f(a=1, b=2, c=3)\n", [1, 2], "f(a=1)\n"),
        ("f(a=1, b=2, c=3)\n", [0, 2], "f(b=2)\n"),
        ("f(\n    a=1,\n    b=2,  # why\n    c=3,\n)\n", [1], "f(\n    a=1,\n    c=3,\n)\n"),
        ("f(\n    a=1,\n    b=2,  # why\n)\n", [1], "f(\n    a=1,\n)\n"),
        ("f(\n    a=1,\n    b=2\n)\n", [1], "f(\n    a=1,\n)\n"),
        ("f(\r\n    a=1,\r\n    b=2,\r\n)\r\n", [1], "f(\r\n    a=1,\r\n)\r\n"),
        ("{'a': 1, 'b': 2}\n", [0], "{'b': 2}\n"),
        ("{'a': 1, 'b': 2}\n", [1], "{'a': 1}\n"),
        ("['x', 'y', 'z']\n", [0, 2], "['y']\n"),
        ("('x', 'y')\n", [0], "('y',)\n"),
        ("('x', 'y')\n", [1], "('x',)\n"),
        ("('x', 'y',)\n", [1], "('x',)\n"),
        ("('x', 'y', 'z')\n", [1, 2], "('x',)\n"),
    ],
)
def test_removal_keeps_the_rest(source: str, drop: list[int], expected: str) -> None:
    assert remove(source, drop) == expected


def test_removing_every_element_of_a_set_is_refused() -> None:
    source = "{'x'}\n"
    module = cst.parse_module(source)
    ctx = FileContext("x.py", SourceText(source), module, FileSettings(frozenset(), ()))
    container = module.body[0].body[0].value  # type: ignore[attr-defined]
    assert remove_elements(ctx, container, list(container.elements)) is None


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(min_value=1, max_value=5),
    multiline=st.booleans(),
    trailing=st.booleans(),
    comments=st.booleans(),
    data=st.data(),
)
def test_any_removal_parses_and_keeps_the_other_arguments(
    n: int, multiline: bool, trailing: bool, comments: bool, data: st.DataObject
) -> None:
    names = [f"k{i}" for i in range(n)]
    if multiline:
        lines = [f"    {k}={i}," + ("  # note" if comments else "") for i, k in enumerate(names)]
        if not trailing:
            lines[-1] = lines[-1].replace(",", "", 1)
        source = "f(\n" + "\n".join(lines) + "\n)\n"
    else:
        source = (
            "f("
            + ", ".join(f"{k}={i}" for i, k in enumerate(names))
            + ("," if trailing else "")
            + ")\n"
        )
    drop = sorted(data.draw(st.sets(st.integers(min_value=0, max_value=n - 1), min_size=1)))
    result = remove(source, drop)
    tree = ast.parse(result)
    call = tree.body[0].value  # type: ignore[attr-defined]
    assert [k.arg for k in call.keywords] == [k for i, k in enumerate(names) if i not in drop]
    cst.parse_module(result)
