"""CM105: the policy's version, and adding a header in the headers dict's own style."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest
from helpers import Cli, write_tree

from claude_migrate.analysis.context import FileContext
from claude_migrate.analysis.edits import append_element
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText
from claude_migrate.engine.fixer import apply_edits
from claude_migrate.policy.config import ConfigError, PolicyLoader

CALL = """\
import requests

HEADERS = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
requests.post("https://api.anthropic.com/v1/messages", headers=HEADERS, json={"stream": True})
"""


@pytest.mark.parametrize("version", ["2023-13-01", "June 2023", "2023-6-1", "20230601"])
def test_version_must_be_a_date(tmp_path: Path, version: str) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": f'[api-version]\nversion = "{version}"\n'})
    with pytest.raises(ConfigError) as error:
        PolicyLoader(cwd=tmp_path).for_path(tmp_path / "a.py")
    assert error.value.key == "api-version.version"
    assert "a date written YYYY-MM-DD" in str(error.value)
    assert "claude-migrate.toml:2" in str(error.value)


def test_a_newer_policy_version_reports_and_fixes_the_old_header(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"claude-migrate.toml": '[api-version]\nversion = "2024-10-22"\n', "app.py": CALL},
    )
    cli = Cli(tmp_path)
    [finding] = cli.json("check", "--select", "CM105")["diagnostics"]
    assert (finding["line"], finding["column"]) == (3, 30)
    assert (
        finding["message"] == "anthropic-version 2023-06-01 is older than the policy's 2024-10-22"
    )
    cli("fix", "--select", "CM105")
    assert '"anthropic-version": "2024-10-22"}' in (tmp_path / "app.py").read_text("utf-8")


def test_the_default_version_leaves_a_current_header_alone(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CALL})
    assert Cli(tmp_path).json("check", "--select", "CM105")["diagnostics"] == []


def test_added_header_keeps_crlf_and_layout(tmp_path: Path) -> None:
    source = (
        b"import requests\r\n"
        b"HEADERS = {\r\n"
        b"    'x-api-key': 'k',\r\n"
        b"}\r\n"
        b"requests.post('https://api.anthropic.com/v1/messages', headers=HEADERS, json={})\r\n"
    )
    (tmp_path / "app.py").write_bytes(source)
    Cli(tmp_path)("fix", "--select", "CM105")
    assert (tmp_path / "app.py").read_bytes() == source.replace(
        b"    'x-api-key': 'k',\r\n",
        b"    'x-api-key': 'k',\r\n    'anthropic-version': '2023-06-01',\r\n",
    )


def appended(source: str, element: str) -> str:
    module = cst.parse_module(source)
    ctx = FileContext("x.py", SourceText(source), module, FileSettings(frozenset(), ()))
    container = module.body[0].body[0].value  # type: ignore[attr-defined]
    edit = append_element(ctx, container, element)
    assert edit is not None
    fixed = apply_edits(source, [edit])
    cst.parse_module(fixed)
    return fixed


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("f()\n", "f(k=1)\n"),
        ("f(a=1)\n", "f(a=1, k=1)\n"),
        ("f(a=1,)\n", "f(a=1, k=1,)\n"),
        ("f(\n    a=1,\n    b=2,  # why\n)\n", "f(\n    a=1,\n    b=2,  # why\n    k=1,\n)\n"),
        ("f(\n    a=1,\n    b=2  # why\n)\n", "f(\n    a=1,\n    b=2,  # why\n    k=1\n)\n"),
        ("f(a=1,\n  b=2)\n", "f(a=1,\n  b=2, k=1)\n"),
        ("f(\n    a=1, b=2,\n)\n", "f(\n    a=1, b=2, k=1,\n)\n"),
        ("f(\n\ta=1,\n)\n", "f(\n\ta=1,\n\tk=1,\n)\n"),
    ],
)
def test_append_argument_in_the_call_style(source: str, expected: str) -> None:
    assert appended(source, "k=1") == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{}\n", "{'k': 1}\n"),
        ("{'a': 1}\n", "{'a': 1, 'k': 1}\n"),
        ("{\n    'a': 1,\n}\n", "{\n    'a': 1,\n    'k': 1,\n}\n"),
    ],
)
def test_append_entry_in_the_dict_style(source: str, expected: str) -> None:
    assert appended(source, "'k': 1") == expected
