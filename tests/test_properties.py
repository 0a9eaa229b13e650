"""Properties of `fix` over generated modules (hypothesis; hypothesmith for arbitrary Python).

For any module with a Claude call spliced in, the fixed file parses (and compiles whenever the
original did), a second run changes nothing, and no byte outside the fixed values changes,
whatever the encoding, BOM, line endings and formatting around the call.
"""

from __future__ import annotations

import ast
import codecs
import tempfile
import warnings
from pathlib import Path

import hypothesmith
import libcst as cst
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from claude_migrate.api import collect_jobs, execute
from claude_migrate.core.job import Options
from claude_migrate.policy.config import PolicyLoader

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SPLICE_HEAD = "import anthropic as _cm_anthropic\n_cm_client = _cm_anthropic.Anthropic()\n"
SPLICE_CALL = (
    '_cm_client.messages.create(model="cm-spliced", temperature=0.9, max_tokens=4096,'
    " messages=[], stream=True)\n"
)
SPLICE_FIXED = SPLICE_CALL.replace("0.9", "0.0").replace("4096", "1024")


def _fix(path: Path) -> None:
    jobs = collect_jobs([path], PolicyLoader(None))
    execute(jobs, Options(fix=True), workers=1)


def _fix_twice(data: bytes, name: str = "mod.py") -> tuple[bytes, bytes]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        _fix(path)
        first = path.read_bytes()
        _fix(path)
        return first, path.read_bytes()


def _compiles(data: bytes) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def _splice(source: str, where: int) -> str:
    """Insert the Claude call among the module's top-level statements (after __future__)."""
    module = cst.parse_module(source)
    body = list(module.body)
    first_allowed = 0
    for index, statement in enumerate(body):
        if "__future__" in module.code_for_node(statement):
            first_allowed = index + 1
    position = first_allowed + where % (len(body) - first_allowed + 1)
    spliced = cst.parse_module(SPLICE_HEAD + SPLICE_CALL).body
    body[position:position] = spliced
    return module.with_changes(body=body).code


@SETTINGS
@given(source=hypothesmith.from_node(), where=st.integers(min_value=0, max_value=1000))
def test_fix_of_arbitrary_python_parses_and_settles(source: str, where: int) -> None:
    text = _splice(source, where)
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:
        assume(False)  # lone surrogates cannot be a file's text
        return
    first, second = _fix_twice(data)
    cst.parse_module(first)
    if _compiles(data):
        assert _compiles(first)
    assert second == first, "a second fix changed the file"
    # The splice takes the module's own line ending, so the call is compared without it.
    call, fixed_call = SPLICE_CALL.rstrip("\n").encode(), SPLICE_FIXED.rstrip("\n").encode()
    assert first in (data, data.replace(call, fixed_call)), "bytes outside the fixed values changed"


# Formatting, encodings and line endings around a call -------------------------------------

_space = st.sampled_from(["", " ", "  ", "\t"])
_comment = st.sampled_from(["", "  # note", "  # caf\u00e9", "  # noqa: E501"])
_newline = st.sampled_from(["\n", "\r\n"])


@st.composite
def _module(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """Return (original bytes, expected fixed bytes) of a module with one Claude call."""
    newline = draw(_newline)
    temperature = draw(st.sampled_from(["0.9", "1", "0.25", "1.0", "5e-1", ".7"]))
    max_tokens = draw(st.sampled_from(["4096", "2048", "1_000_000", "0x1000"]))
    args = [
        ("model", '"claude-sonnet-4-6"', '"claude-sonnet-4-6"'),
        ("temperature", temperature, "0.0"),
        ("max_tokens", max_tokens, "1024"),
        ("messages", "[]", "[]"),
        ("stream", "True", "True"),
    ]
    args = draw(st.permutations(args))
    multiline = draw(st.booleans())
    original, fixed = ["client.messages.create("], ["client.messages.create("]
    for index, (key, value, new) in enumerate(args):
        before, after = draw(_space), draw(_space)
        lead = (newline + "    ") if multiline else (" " if index else "")
        comment = draw(_comment) if multiline else ""
        tail = "," + comment if multiline or index < len(args) - 1 else ""
        original.append(f"{lead}{key}{before}={after}{value}{tail}")
        fixed.append(f"{lead}{key}{before}={after}{new}{tail}")
    end = (newline if multiline else "") + ")"
    original.append(end)
    fixed.append(end)
    header_lines = ["import anthropic", "client = anthropic.Anthropic()"]
    encoding = draw(st.sampled_from(["utf-8", "utf-8-bom", "latin-1"]))
    if encoding == "latin-1":
        header_lines.insert(0, "# -*- coding: latin-1 -*-")
    header_lines.append(draw(st.sampled_from(["", "# caf\u00e9", 'S = "\u00e9t\u00e9"'])))
    final = draw(st.sampled_from(["", newline]))
    head = newline.join(header_lines) + newline
    texts = [head + "".join(parts) + final for parts in (original, fixed)]
    if encoding == "utf-8-bom":
        return tuple(codecs.BOM_UTF8 + t.encode("utf-8") for t in texts)  # type: ignore[return-value]
    return tuple(t.encode(encoding) for t in texts)  # type: ignore[return-value]


@SETTINGS
@given(case=_module())
def test_fix_changes_only_the_fixed_values_whatever_the_formatting(
    case: tuple[bytes, bytes],
) -> None:
    original, expected = case
    first, second = _fix_twice(original)
    assert first == expected
    assert second == first
