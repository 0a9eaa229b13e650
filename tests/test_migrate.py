"""`claude-migrate migrate --to MODEL` (rule CM304 migrate-model).

The fixture project (fixtures/migrate-project) calls Claude on the SDK, Bedrock (InvokeModel and
Converse), Vertex, LangChain, LiteLLM and raw HTTP, with sampling parameters, thinking budgets,
prefill, forced tool choice, old tool versions and betas. Each migration is checked from the
outside: every request the migrated files build is read back with CPython's `ast` (no code of
claude-migrate's analysis) and checked against the target's facts (rules/models.toml); what did
not move must be on the checklist; a second run changes nothing.
"""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, Cli, snapshot, write_tree

from claude_migrate.checks.migrate_model import generation, tier
from claude_migrate.policy import deprecations, model_facts

PROJECT = FIXTURES / "migrate-project"
KNOWN = deprecations.load(None)
FACTS = model_facts.load()
EXPR = "<expression>"


@dataclass
class Request:
    path: str
    lines: range
    model: str  # the catalogue id the request names
    body: dict[str, Any]


def _value(node: ast.AST, names: dict[str, ast.AST]) -> Any:
    """Return a literal's value (nested dicts and lists too); EXPR for anything else."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {
            _value(k, names): _value(v, names)
            for k, v in zip(node.keys, node.values, strict=True)
            if k is not None
        }
    if isinstance(node, ast.List):
        return [_value(e, names) for e in node.elts]
    if isinstance(node, ast.Name) and node.id in names:
        return _value(names[node.id], names)
    dumps = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    if dumps and node.func.attr == "dumps" and node.args:  # type: ignore[attr-defined]
        return _value(node.args[0], names)  # type: ignore[attr-defined]
    return EXPR


def _model_id(text: str) -> str | None:
    spelling = KNOWN.lookup(text)
    return spelling.model.id if spelling is not None else None


def _request(call: ast.Call, names: dict[str, ast.AST]) -> dict[str, Any] | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    given = {k.arg: _value(k.value, names) for k in call.keywords if k.arg}
    if name in ("create", "completion", "ChatAnthropic"):
        return given if "model" in given else None
    if name == "invoke_model":
        body = dict(given.get("body") or {})
        return {**body, "model": given.get("modelId")}
    if name == "converse":
        config = given.get("inferenceConfig") or {}
        renamed = {"maxTokens": "max_tokens", "topP": "top_p", "temperature": "temperature"}
        return {"model": given.get("modelId"), **{renamed[k]: v for k, v in config.items()}}
    if name == "post":
        body = given.get("json")
        return body if isinstance(body, dict) else None
    return None


def requests_in(root: Path) -> list[Request]:
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names: dict[str, ast.AST] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    names[target.id] = node.value
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            body = _request(node, names)
            if body is None or not isinstance(body.get("model"), str):
                continue
            model = _model_id(body["model"])
            assert model is not None, body["model"]
            lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
            found.append(Request(path.relative_to(root).as_posix(), lines, model, body))
    return found


def refusals(body: dict[str, Any], facts: model_facts.Facts) -> list[str]:
    """Return what in a request the model with `facts` refuses (empty: it accepts it)."""
    found = []
    sampling = [p for p in ("temperature", "top_p", "top_k") if p in body]
    if facts.sampling == "none" and sampling:
        found.append(f"sampling {sampling}")
    if facts.sampling == "one-of" and {"temperature", "top_p"} <= set(sampling):
        found.append("temperature and top_p")
    thinking = body.get("thinking")
    kind = thinking.get("type") if isinstance(thinking, dict) else None
    if thinking is not None and facts.thinking is not None and kind not in facts.thinking:
        found.append(f"thinking {thinking}")
    messages = body.get("messages")
    last = messages[-1] if isinstance(messages, list) and messages else None
    if facts.prefill is False and isinstance(last, dict) and last.get("role") == "assistant":
        found.append("prefill")
    choice = body.get("tool_choice")
    forced = isinstance(choice, dict) and choice.get("type") in ("any", "tool")
    if facts.forced_tool_choice is False and forced:
        found.append(f"tool_choice {choice}")
    limit = body.get("max_tokens")
    if facts.max_tokens is not None and isinstance(limit, int) and limit > facts.max_tokens:
        found.append(f"max_tokens {limit}")
    for tool in body.get("tools") or []:
        if isinstance(tool, dict) and tool.get("type") in facts.dropped_tools:
            found.append(f"tool {tool['type']}")
    for beta in body.get("betas") or []:
        if beta in facts.dropped_betas:
            found.append(f"beta {beta}")
    return found


def _moves(model: str, target: str) -> bool:
    """Whether the migration is meant to move a call on `model` (same tier, not newer)."""
    return tier(model) == tier(target) and generation(model) <= generation(target)


def _migrate(root: Path, target: str, *args: str) -> tuple[int, str]:
    checklist = root.parent / f"{root.name}-checklist.md"
    paths = [] if any(a.endswith(".py") for a in args) else ["app"]
    result = Cli(root)("migrate", "--to", target, "--checklist", str(checklist), *args, *paths)
    return result.exit_code, checklist.read_text(encoding="utf-8")


def _checklisted(checklist: str) -> set[tuple[str, int]]:
    return {(m[1], int(m[2])) for m in re.finditer(r"`([^`:]+):(\d+)`", checklist)}


TARGETS = ["claude-sonnet-5-5", "claude-opus-5-5", "claude-opus-4-7", "claude-haiku-5-5"]


@pytest.mark.parametrize("target", TARGETS)
def test_every_migrated_request_is_one_the_target_accepts(tmp_path: Path, target: str) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    before = requests_in(root)
    status, checklist = _migrate(root, target, "--unsafe-fixes")
    after = requests_in(root)
    facts = FACTS.for_model(target)
    assert facts is not None
    assert len(after) == len(before)
    moved = [r for r in after if r.model == target]
    assert len(moved) >= 4, [r.body for r in after]
    for request in moved:
        assert refusals(request.body, facts) == [], (request.path, request.lines, request.body)
    # Every call of the target's tier that did not move is on the checklist, with its line.
    listed = _checklisted(checklist)
    left = [r for r in after if r.model != target and _moves(r.model, target)]
    for request in left:
        assert any(path == request.path and line in request.lines for path, line in listed), (
            request.path,
            request.lines,
            checklist,
        )
    assert len(listed) == len(left)
    assert status == (1 if left else 0)
    # Calls of other tiers, and newer ones, keep their model.
    for old, new in zip(before, after, strict=True):
        if not _moves(old.model, target):
            assert new.model == old.model
    # A second run changes nothing.
    state = snapshot(root)
    _migrate(root, target, "--unsafe-fixes")
    assert snapshot(root) == state


def test_each_platform_keeps_its_spelling(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    _migrate(root, "claude-sonnet-5-5", "--unsafe-fixes")
    text = {p.name: p.read_text(encoding="utf-8") for p in (root / "app").glob("*.py")}
    assert 'modelId="us.anthropic.claude-sonnet-5-5"' in text["bedrock_calls.py"]
    assert 'model="bedrock/anthropic.claude-sonnet-5-5"' in text["frameworks.py"]
    assert 'ChatAnthropic(model="claude-sonnet-5-5", max_tokens=2048)' in text["frameworks.py"]
    assert 'model="claude-sonnet-5-5",' in text["vertex_calls.py"]
    assert 'thinking={"type": "adaptive"}' in text["sdk_calls.py"]
    assert "max_tokens=128000" in text["sdk_calls.py"]
    # Another tier is left alone.
    assert 'model="claude-opus-4-8"' in text["sdk_calls.py"]


def test_without_unsafe_fixes_a_forced_tool_choice_is_left_for_the_checklist(
    tmp_path: Path,
) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    status, checklist = _migrate(root, "claude-sonnet-5-5")
    assert status == 1
    source = (root / "app" / "sdk_calls.py").read_text(encoding="utf-8")
    assert 'tool_choice={"type": "tool", "name": "record"}' in source
    assert 'model="claude-sonnet-4-20250514"' in source
    items = [line for line in checklist.splitlines() if line.startswith("- [ ]")]
    forced = [i for i in items if "tool_choice" in i]
    assert len(forced) == 1 and "`app/sdk_calls.py:" in forced[0]
    assert "--unsafe-fixes" in forced[0]
    prefill = [i for i in items if "prefilled assistant turn" in i]
    assert len(prefill) == 1 and "https://platform.claude.com/docs/" in prefill[0]


def test_a_platform_id_no_source_gives_is_refused_with_the_reason(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    _status, checklist = _migrate(root, "claude-opus-5-5")
    assert "no Amazon Bedrock id of claude-opus-5-5 is known" in checklist
    assert 'modelId="anthropic.claude-opus-4-1-20250805-v1:0"' in (
        root / "app" / "bedrock_calls.py"
    ).read_text(encoding="utf-8")


def test_from_limits_the_migration_to_the_models_it_names(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    _migrate(root, "claude-sonnet-5-5", "--from", "claude-sonnet-4-5", "--unsafe-fixes")
    moved = [r for r in requests_in(root) if r.model == "claude-sonnet-5-5"]
    # claude-sonnet-4-5 in the SDK call, and its Bedrock spelling.
    assert sorted(r.path for r in moved) == ["app/bedrock_calls.py", "app/sdk_calls.py"]


def test_diff_writes_nothing_and_shows_the_changes(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    state = snapshot(root)
    result = Cli(root)("migrate", "--to", "claude-haiku-5-5", "--diff", "app")
    assert snapshot(root) == state
    assert '+        model="claude-haiku-5-5",' in result.output


def test_a_report_lists_what_changed(tmp_path: Path) -> None:
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    report = tmp_path / "report.json"
    Cli(root)("migrate", "--to", "claude-haiku-5-5", "--report", str(report), "app")
    data = json.loads(report.read_text(encoding="utf-8"))
    assert "CM304" in json.dumps(data)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--to", "claude-sonet-5-5"], "--to 'claude-sonet-5-5' is not a model of the catalogue"),
        (["--to", "claude-3-opus-20240229"], "retires on 2026-01-05"),
        (["--to", "claude-opus-5-5", "--from", "gpt-4o"], "--from 'gpt-4o'"),
    ],
)
def test_a_bad_target_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    write_tree(tmp_path, {"app.py": "x = 1\n"})
    result = Cli(tmp_path)("migrate", *args, "app.py")
    assert result.exit_code == 2
    assert message in result.output


def test_the_policy_can_ask_for_the_migration_in_every_fix_run(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": '[migrate-model]\nto = "claude-haiku-5-5"\n',
            "app.py": "import anthropic\nclient = anthropic.Anthropic()\n"
            "client.messages.create(model='claude-haiku-4-5', max_tokens=64, temperature=0.5,"
            " messages=[])\n",
        },
    )
    result = Cli(tmp_path)("fix", "--select", "CM304", "app.py")
    assert result.exit_code == 0, result.output
    assert (
        (tmp_path / "app.py")
        .read_text(encoding="utf-8")
        .endswith("client.messages.create(model='claude-haiku-5-5', max_tokens=64, messages=[])\n")
    )


def test_the_migrated_sdk_calls_type_check_against_the_installed_sdk(
    tmp_path: Path, sdk_mypy_cache: Path
) -> None:
    pytest.importorskip("mypy")
    root = tmp_path / "project"
    shutil.copytree(PROJECT, root)
    # Every tier moved: the sampling parameters anthropic 1.0.0 dropped go with the move.
    for target in ("claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5"):
        _migrate(root, target, "--unsafe-fixes")
    # The same global options as the other SDK type-checks, so the shared cache is reused.
    flags = ["--check-untyped-defs", "--ignore-missing-imports", "--no-error-summary"]
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            *flags,
            "--cache-dir",
            str(sdk_mypy_cache),
            "app/sdk_calls.py",
            "app/vertex_calls.py",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=600,
        cwd=root,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert errors == [], result.stdout


@pytest.mark.parametrize("model", ["claude-sonnet-5-5", "claude-opus-5-5", "claude-fable-5-1"])
def test_cm108_reports_a_forcing_tool_choice_where_the_model_refuses_it(
    tmp_path: Path, model: str
) -> None:
    source = (
        "import anthropic\nclient = anthropic.Anthropic()\n"
        f"client.messages.create(model={model!r}, max_tokens=64, messages=[],"
        " tool_choice={'type': 'tool', 'name': 'f'})\n"
        f"client.messages.create(model={model!r}, max_tokens=64, messages=[],"
        " tool_choice={'type': 'auto'})\n"
        "client.messages.create(model='claude-sonnet-4-6', max_tokens=64, messages=[],"
        " tool_choice={'type': 'any'})\n"
    )
    write_tree(tmp_path, {"app.py": source})
    cli = Cli(tmp_path)
    found = cli.json("check", "--select", "CM108", "app.py")["diagnostics"]
    assert [(d["line"], d["code"]) for d in found] == [(3, "CM108")]
    assert "forced" in found[0]["message"] and "https://platform.claude.com/" in found[0]["message"]
    cli("fix", "--select", "CM108", "--unsafe-fixes", "app.py")
    lines = (tmp_path / "app.py").read_text(encoding="utf-8").splitlines()
    assert lines[2].endswith('tool_choice={"type": "auto"})')
    assert lines[4].endswith("tool_choice={'type': 'any'})")


def test_a_target_without_request_facts_moves_with_a_warning(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app.py": "import anthropic\nclient = anthropic.Anthropic()\n"
            "client.messages.create(model='claude-mythos-5', max_tokens=64, messages=[])\n"
        },
    )
    result = Cli(tmp_path)("migrate", "--to", "claude-mythos-5-2", "app.py")
    assert result.exit_code == 0, result.output
    assert "states no request facts for claude-mythos-5-2" in result.output
    assert "model='claude-mythos-5-2'" in (tmp_path / "app.py").read_text(encoding="utf-8")


def test_a_notebook_cell_is_migrated_in_place(tmp_path: Path) -> None:
    cell = (
        "import anthropic\nclient = anthropic.Anthropic()\n"
        "client.messages.create(model='claude-3-haiku-20240307', max_tokens=64,"
        " temperature=0.3, messages=[])\n"
    )
    notebook = {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": cell.splitlines(keepends=True),
            }
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    write_tree(tmp_path, {"a.ipynb": json.dumps(notebook, indent=1)})
    result = Cli(tmp_path)("migrate", "--to", "claude-haiku-5-5", "a.ipynb")
    assert result.exit_code == 0, result.output
    fixed = json.loads((tmp_path / "a.ipynb").read_text(encoding="utf-8"))
    source = "".join(fixed["cells"][0]["source"])
    assert "model='claude-haiku-5-5'" in source and "temperature" not in source


def test_a_constant_shared_with_a_forcing_call_moves_only_as_an_unsafe_fix(tmp_path: Path) -> None:
    source = (
        "import anthropic\nclient = anthropic.Anthropic()\nMODEL = 'claude-sonnet-4-6'\n"
        "client.messages.create(model=MODEL, max_tokens=64, messages=[])\n"
        "client.messages.create(model=MODEL, max_tokens=64, messages=[],"
        " tool_choice={'type': 'any'})\n"
    )
    write_tree(tmp_path, {"app.py": source})
    status, checklist = _migrate(tmp_path, "claude-sonnet-5-5", "app.py")
    assert status == 1
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == source
    assert "--unsafe-fixes" in checklist
    _migrate(tmp_path, "claude-sonnet-5-5", "app.py", "--unsafe-fixes")
    fixed = (tmp_path / "app.py").read_text(encoding="utf-8")
    assert "MODEL = 'claude-sonnet-5-5'" in fixed and '{"type": "auto"}' in fixed


RAW_HTTP_WITH_AN_ENVIRONMENT_DEFAULT = """\
import os

import requests


def ask(prompt):
    response = requests.post(
        "https://api.anthropic.com/v1/messages",
        headers={"anthropic-version": "2023-06-01"},
        json={
            "model": os.getenv("CHAT_MODEL", "claude-3-haiku-20240307"),
            "max_tokens": 256,
            "messages": [{"role": "user", "content": prompt}],
        },
    )
    return response.json()
"""


def test_a_model_left_as_data_is_on_the_checklist_and_fails_the_run(tmp_path: Path) -> None:
    # The call's model is an environment variable read with a default: the migration does not
    # move it, so the checklist must not say that every call moved.
    write_tree(
        tmp_path,
        {
            "app.py": RAW_HTTP_WITH_AN_ENVIRONMENT_DEFAULT,
            "settings.yaml": "llm:\n  model: claude-3-haiku-20240307\n  judge: claude-opus-4-1\n",
        },
    )
    status, checklist = _migrate(tmp_path, "claude-haiku-4-5", "app.py", "settings.yaml")
    assert status == 1
    assert "every call" not in checklist
    assert _checklisted(checklist) == {("app.py", 11), ("settings.yaml", 2)}
    assert "an environment variable's default" in checklist
    assert "a configuration value" in checklist
    assert "write 'claude-haiku-4-5-20251001'" in checklist
    # Nothing was written: the checklist says what to change by hand.
    assert "claude-3-haiku-20240307" in (tmp_path / "app.py").read_text(encoding="utf-8")


def test_a_constant_the_diff_would_move_is_not_on_the_checklist(tmp_path: Path) -> None:
    source = (
        "import anthropic\nclient = anthropic.Anthropic()\nMODEL = 'claude-3-haiku-20240307'\n"
        "client.messages.create(model=MODEL, max_tokens=64, messages=[])\n"
    )
    write_tree(tmp_path, {"app.py": source})
    checklist = tmp_path.parent / "diff-checklist.md"
    result = Cli(tmp_path)(
        "migrate", "--to", "claude-haiku-4-5", "--diff", "--checklist", str(checklist), "app.py"
    )
    assert "+MODEL = 'claude-haiku-4-5-20251001'" in result.output
    assert "other mention" not in result.output
    assert "Nothing: every call whose model the migration moves was moved" in checklist.read_text(
        encoding="utf-8"
    )
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == source


def _code_cell(source: str) -> dict[str, Any]:
    return {
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": source.splitlines(keepends=True),
    }


def test_the_diff_of_a_notebook_lists_only_the_mentions_it_leaves(tmp_path: Path) -> None:
    # The constant one cell defines moves with the call of a later cell (after a markdown cell);
    # the same id in a dict no call reads stays, and is the one item.
    notebook = {
        "cells": [
            _code_cell(
                "import anthropic\nclient = anthropic.Anthropic()\n"
                "MODEL = 'claude-3-haiku-20240307'\n"
            ),
            {"cell_type": "markdown", "metadata": {}, "source": ["# Ask\n"]},
            _code_cell(
                "reply = client.messages.create(model=MODEL, max_tokens=64, messages=[])\n"
                "labels = {'judge': 'claude-3-haiku-20240307'}\n"
            ),
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    write_tree(tmp_path, {"a.ipynb": json.dumps(notebook, indent=1)})
    checklist = tmp_path.parent / "notebook-checklist.md"
    Cli(tmp_path)(
        "migrate", "--to", "claude-haiku-4-5", "--diff", "--checklist", str(checklist), "a.ipynb"
    )
    items = [i for i in checklist.read_text(encoding="utf-8").splitlines() if i.startswith("- [ ]")]
    assert len(items) == 1 and items[0].startswith("- [ ] `a.ipynb` cell 3, line 2:"), items


def test_a_mention_the_user_silenced_is_not_on_the_checklist(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "skipped.py": "# claude-migrate: skip-file\nMODEL = 'claude-3-haiku-20240307'\n",
            "kept.py": "DENY = ['claude-3-haiku-20240307']  # noqa: CM302\n"
            "LEGACY = 'claude-3-haiku-20240307'  # claude-migrate: ignore[CM304]\n"
            "OTHER = 'claude-3-haiku-20240307'  # noqa: CM101\n",
        },
    )
    status, checklist = _migrate(tmp_path, "claude-haiku-4-5", "skipped.py", "kept.py")
    assert _checklisted(checklist) == {("kept.py", 3)}
    assert status == 1


def test_a_silencing_comment_is_read_as_python_reads_the_file(tmp_path: Path) -> None:
    # A latin-1 cookie: byte 0x85 is U+2026 in cp1252 but U+0085 (a line break for
    # str.splitlines, not for Python) in latin-1; a form feed is no line break for Python either.
    # A noqa directive inside a string is no comment; UTF-7 spells "#" as "+ACM-".
    (tmp_path / "latin.py").write_bytes(
        b"# -*- coding: latin-1 -*-\n"
        b"NOTE = 'caf\xe9 \x85 \x0c'\n"
        b"DENY = ['claude-3-haiku-20240307']  # noqa: CM302\n"
        b"KEEP = 'claude-3-haiku-20240307'\n"
    )
    directive = b"# noqa: CM302"
    (tmp_path / "strings.py").write_bytes(b"KEEP = ['claude-3-haiku-20240307', '%s']\n" % directive)
    (tmp_path / "seven.py").write_bytes(
        b"# -*- coding: utf-7 -*-\nDENY = ['claude-3-haiku-20240307']  +ACM- noqa: CM302\n"
    )
    status, checklist = _migrate(tmp_path, "claude-haiku-4-5", "latin.py", "strings.py", "seven.py")
    assert _checklisted(checklist) == {("latin.py", 4), ("strings.py", 1)}, checklist
