"""CM104's rewrite: exact text, the file's own layout, and real SDK types (mypy)."""

from __future__ import annotations

import importlib.util
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest
from anthropic.resources.beta.messages import AsyncMessages as AsyncBetaMessages
from anthropic.resources.beta.messages import Messages as BetaMessages
from anthropic.resources.messages import AsyncMessages, Messages
from helpers import FIXTURES, Cli, write_tree

from claude_migrate.api import collect_jobs, execute
from claude_migrate.checks.streaming import CREATE_ONLY
from claude_migrate.core.job import Options
from claude_migrate.policy.config import PolicyLoader

STREAMING = FIXTURES / "streaming"


def fix(tmp_path: Path, source: bytes, select: str = "CM104") -> bytes:
    path = tmp_path / "case.py"
    path.write_bytes(source)
    jobs = collect_jobs([path], PolicyLoader(), [select])
    execute(jobs, Options(fix=True, unsafe=True), workers=1)
    return path.read_bytes()


def test_fix_keeps_crlf_line_endings(tmp_path: Path) -> None:
    source = (
        b"import anthropic\r\n"
        b"client = anthropic.Anthropic()\r\n"
        b"def f():\r\n"
        b"    x = client.messages.create(\r\n"
        b"        model='m', max_tokens=1, messages=[],\r\n"
        b"    )\r\n"
        b"    return x\r\n"
    )
    assert fix(tmp_path, source) == (
        b"import anthropic\r\n"
        b"client = anthropic.Anthropic()\r\n"
        b"def f():\r\n"
        b"    with client.messages.stream(\r\n"
        b"        model='m', max_tokens=1, messages=[],\r\n"
        b"    ) as stream:\r\n"
        b"        x = stream.get_final_message()\r\n"
        b"    return x\r\n"
    )


def test_fix_keeps_tab_indentation(tmp_path: Path) -> None:
    source = (
        b"import anthropic\n"
        b"client = anthropic.Anthropic()\n"
        b"def f():\n"
        b"\tif True:\n"
        b"\t\treturn client.messages.create(model='m', max_tokens=1, messages=[])\n"
    )
    assert fix(tmp_path, source) == (
        b"import anthropic\n"
        b"client = anthropic.Anthropic()\n"
        b"def f():\n"
        b"\tif True:\n"
        b"\t\twith client.messages.stream(model='m', max_tokens=1, messages=[]) as stream:\n"
        b"\t\t\treturn stream.get_final_message()\n"
    )


def test_fix_at_module_level_without_final_newline(tmp_path: Path) -> None:
    source = (
        b"import anthropic\n"
        b"client = anthropic.Anthropic()\n"
        b"reply = client.messages.create(model='m', max_tokens=1, messages=[])"
    )
    assert fix(tmp_path, source) == (
        b"import anthropic\n"
        b"client = anthropic.Anthropic()\n"
        b"with client.messages.stream(model='m', max_tokens=1, messages=[]) as stream:\n"
        b"    reply = stream.get_final_message()"
    )


def test_module_level_name_avoids_every_name_of_the_module(tmp_path: Path) -> None:
    source = (
        b"import anthropic\n"
        b"client = anthropic.Anthropic()\n"
        b"reply = client.messages.create(model='m', max_tokens=1, messages=[])\n"
        b"def later():\n"
        b"    return stream\n"
    )
    assert b"as stream_1:\n    reply = stream_1.get_final_message()\n" in fix(tmp_path, source)


def test_await_outside_async_def_is_not_rewritten(tmp_path: Path) -> None:
    # Top-level await (a notebook cell) cannot take `async with` in a plain module.
    source = (
        b"import anthropic\n"
        b"client = anthropic.AsyncAnthropic()\n"
        b"reply = await client.messages.create(model='m', max_tokens=1, messages=[])\n"
    )
    path = tmp_path / "case.py"
    path.write_bytes(source)
    run = execute(collect_jobs([path], PolicyLoader(), ["CM104"]), Options(), workers=1)
    assert [(d.code, d.fix) for d in run.diagnostics] == [("CM104", None)]


@pytest.mark.parametrize(
    "resource",
    [Messages, AsyncMessages, BetaMessages, AsyncBetaMessages],
    ids=lambda c: f"{c.__module__.split('.')[2]}.{c.__name__}",
)
def test_installed_sdk_stream_takes_every_create_argument_but_stream(resource: type) -> None:
    create = set(inspect.signature(resource.create).parameters)
    stream = set(inspect.signature(resource.stream).parameters)
    assert create - stream <= CREATE_ONLY
    assert "stream" not in stream


# A rewrite that kept `stream=False` or forgot the `await` must fail, or mypy proves nothing.
WRONG_REWRITES = """\
from anthropic import Anthropic, AsyncAnthropic
from anthropic.types import Message

client = Anthropic()
aclient = AsyncAnthropic()


def kept_the_stream_flag() -> Message:
    with client.messages.stream(model="m", max_tokens=1, messages=[], stream=False) as s:  # wrong
        return s.get_final_message()


async def forgot_to_await() -> Message:
    async with aclient.messages.stream(model="m", max_tokens=1, messages=[]) as stream:
        return stream.get_final_message()  # wrong
"""


def test_rewrites_type_check_against_the_installed_sdk(
    tmp_path: Path, sdk_mypy_cache: Path
) -> None:
    """Originals and goldens of the SDK rewrite pass mypy; deliberately wrong rewrites fail."""
    pytest.importorskip("mypy")
    wrong = tmp_path / "wrong_rewrites.py"
    wrong.write_text(WRONG_REWRITES, encoding="utf-8")
    cases = ["sdk_rewrites", "async_rewrites"]
    files = [STREAMING / f"{c}{s}.py" for c in cases for s in ("", ".fixed")]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--check-untyped-defs",
            "--ignore-missing-imports",
            "--no-error-summary",
            "--cache-dir",
            str(sdk_mypy_cache),
            *map(str, files),
            str(wrong),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        # Outside the project: its pyproject.toml configures mypy --strict for the package.
        cwd=tmp_path,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    wrong_lines = {
        number
        for number, line in enumerate(WRONG_REWRITES.splitlines(), 1)
        if line.endswith("# wrong")
    }
    located = {
        (Path(m.group(1)).name, int(m.group(2)))
        for m in (re.match(r"(.+?):(\d+): error:", e) for e in errors)
        if m
    }
    assert located == {("wrong_rewrites.py", n) for n in wrong_lines}, result.stdout


def test_a_langchain_class_read_as_another_is_named_as_written(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app.py": (
                "from langchain_aws import BedrockChat, ChatAnthropicBedrock\n"
                "from langchain_anthropic import ChatAnthropic\n"
                "a = ChatAnthropicBedrock(model='anthropic.claude-sonnet-4-6', max_tokens=9)\n"
                "b = BedrockChat(model_id='anthropic.claude-sonnet-4-6')\n"
                "c = ChatAnthropic(model='claude-sonnet-4-6')\n"
            ),
        },
    )
    report = Cli(tmp_path).json("check", "--select", "CM104", "app.py")
    messages = {d["line"]: d["message"] for d in report["diagnostics"]}
    assert messages == {
        3: "ChatAnthropicBedrock does not stream; use ChatAnthropicBedrock(..., streaming=True)",
        4: "BedrockChat does not stream; use BedrockChat(..., streaming=True)",
        5: "ChatAnthropic does not stream; use ChatAnthropic(..., streaming=True)",
    }


LONG_CONSTRUCTOR = (
    b"from langchain_anthropic import ChatAnthropic\n\n"
    b'llm = ChatAnthropic(model="claude-sonnet-4-6", temperature=0.0, max_tokens=1024)  # main\n'
)


def _ruff_format_check(folder: Path) -> subprocess.CompletedProcess[str]:
    if importlib.util.find_spec("ruff") is None:
        pytest.skip("ruff is not installed (the lint extra): its formatter is the check here")
    return subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--check", "--no-cache", "."],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize(
    ("config", "name", "width"),
    [
        ("[tool.ruff]\nline-length = 88\n", "pyproject.toml", 88),
        ("[tool.black]\nline-length = 79\n", "pyproject.toml", 79),
        ("line-length = 80\n", "ruff.toml", 80),
        ("[project]\nname = 'app'\n", "pyproject.toml", 88),
    ],
)
def test_streaming_flag_keeps_the_line_within_the_projects_formatter_width(
    tmp_path: Path, config: str, name: str, width: int
) -> None:
    """A constructor that no longer fits on its line with `streaming=True` is written one
    argument per line with a trailing comma, as Ruff's and Black's formatters write it, within
    the width the project's formatter is configured with (88 by default)."""
    (tmp_path / name).write_text(config)
    fixed = fix(tmp_path, LONG_CONSTRUCTOR)
    assert fixed.decode().splitlines()[2:] == [
        "llm = ChatAnthropic(",
        '    model="claude-sonnet-4-6",',
        "    temperature=0.0,",
        "    max_tokens=1024,",
        "    streaming=True,",
        ")  # main",
    ]
    assert all(len(line) <= width for line in fixed.decode().splitlines())
    done = _ruff_format_check(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_streaming_flag_stays_inline_where_the_projects_width_allows_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 120\n")
    fixed = fix(tmp_path, LONG_CONSTRUCTOR)
    assert fixed.decode().splitlines()[2] == (
        'llm = ChatAnthropic(model="claude-sonnet-4-6", temperature=0.0, max_tokens=1024, '
        "streaming=True)  # main"
    )
    assert _ruff_format_check(tmp_path).returncode == 0


def test_streaming_flag_inside_another_call_stays_inline(tmp_path: Path) -> None:
    """A constructor inside another call's brackets: a formatter splits the outer call first,
    so the argument joins inline and the layout is left to the formatter."""
    (tmp_path / "pyproject.toml").write_text("[tool.ruff]\nline-length = 88\n")
    source = (
        b"from langchain_anthropic import ChatAnthropic\n\n"
        b'chain = make(ChatAnthropic(model="claude-sonnet-4-6", temperature=0.0, '
        b"max_tokens=1024))\n"
    )
    fixed = fix(tmp_path, source)
    assert b"max_tokens=1024, streaming=True))" in fixed


def test_an_sdk_call_left_unfixed_says_why_its_statement_has_no_rewrite(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app.py": (
                "import asyncio\n"
                "from anthropic import Anthropic, AsyncAnthropic\n"
                "client, aclient = Anthropic(), AsyncAnthropic()\n"
                "R = dict(model='claude-haiku-4-5', max_tokens=8, messages=[])\n"
                "async def timed():\n"
                "    return await asyncio.wait_for(aclient.messages.create(**R), timeout=9)\n"
                "def summed(p):\n"
                "    return len(p) + client.messages.create(**R).usage.output_tokens\n"
                "def shown():\n"
                "    print(client.messages.create(**R).content)\n"
                "def read():\n"
                "    return client.messages.create(**R).usage.output_tokens\n"
            ),
        },
    )
    report = Cli(tmp_path).json("check", "--select", "CM104", "app.py")
    reasons = {
        d["line"]: d["message"].partition("; no fix: ")[2] or d["fix"]["applicability"]
        for d in report["diagnostics"]
    }
    assert reasons == {
        6: "the coroutine is not awaited where it is made (it is handed on to asyncio.wait_for,"
        " gather or a task, or read before it is awaited), and a stream is opened by its"
        " `async with`",
        8: "the call is inside a larger expression (not the statement's value, nor the head of a"
        " chain read from its result); make the request in its own statement first",
        10: "the call's statement is not an assignment or return standing on its own line",
        12: "unsafe",
    }
