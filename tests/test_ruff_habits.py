"""The flags people bring from ruff: `check --fix`, `--statistics`, `--extend-select`,
`--exclude` / `--extend-exclude`, `--add-noqa`, `--show-fixes` and `--fix-only`."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from helpers import Cli, snapshot, write_tree

HEAD = "import anthropic\nc = anthropic.Anthropic()\nm = []\n"
CALL = 'c.messages.create(model="claude-sonnet-4-6", max_tokens=9, temperature={}, messages=m)\n'
HOT = CALL.format("0.9")
COOL = CALL.format("0.0")
SELECT = 'select = ["CM101", "CM302"]\n'
RETIRED = 'c.messages.create(model="claude-2.1", max_tokens=512, messages=[])\n'


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            "app/chat.py": HEAD + HOT + HOT,
            "app/old.py": HEAD + RETIRED,
            "vendor/lib.py": HEAD + HOT,
            "claude-migrate.toml": 'select = ["CM101", "CM302"]\nexclude = ["vendor/"]\n',
        },
    )


def test_check_fix_is_fix(tree: Path, cli: Cli) -> None:
    result = cli("check", "--fix", "app")
    assert "Fixed 2," in result.stdout, result.output
    assert (tree / "app/chat.py").read_text() == HEAD + COOL + COOL
    assert result.exit_code == 1  # the retired model is left: as `fix`, what remains fails


def test_check_fix_diff_writes_nothing(tree: Path, cli: Cli) -> None:
    before = snapshot(tree)
    result = cli("check", "--fix", "--diff", "app")
    assert "+" + COOL.strip() in result.stdout
    assert snapshot(tree) == before


def test_check_diff_without_fix_is_a_usage_error(tree: Path, cli: Cli) -> None:
    result = cli("check", "--diff", "app")
    assert result.exit_code == 2
    assert "--diff goes with --fix" in result.output


def test_statistics_counts_per_rule_instead_of_findings(tree: Path, cli: Cli) -> None:
    result = cli("check", "--statistics", "app")
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["2", "CM101", "[*]", "temperature"]
    assert lines[1].split()[:2] == ["1", "CM302"]
    assert not any("chat.py" in line for line in lines), "the findings are not listed"
    assert result.exit_code == 1


def test_statistics_as_json(tree: Path, cli: Cli) -> None:
    result = cli("check", "--statistics", "--format", "json", "app")
    rows = json.loads(result.stdout)
    assert rows[0] == {"code": "CM101", "name": "temperature", "count": 2, "fixable": 2}
    assert [r["code"] for r in rows] == ["CM101", "CM302"]


def test_statistics_refuses_sarif(tree: Path, cli: Cli) -> None:
    assert cli("check", "--statistics", "--format", "sarif", "app").exit_code == 2


def test_extend_select_adds_to_the_policy_selection(tmp_path: Path, cli: Cli) -> None:
    write_tree(
        tmp_path,
        {"a.py": HEAD + HOT + RETIRED, "claude-migrate.toml": 'select = ["CM302"]\n'},
    )
    only = {d["code"] for d in cli.json("check")["diagnostics"]}
    assert only == {"CM302"}
    both = {d["code"] for d in cli.json("check", "--extend-select", "CM101")["diagnostics"]}
    assert both == {"CM101", "CM302"}


def test_extend_select_rejects_an_unknown_code(tree: Path, cli: Cli) -> None:
    result = cli("check", "--extend-select", "XY9")
    assert result.exit_code == 2
    assert "unknown rule code" in result.output


def test_extend_exclude_adds_to_the_policy_exclude(tree: Path, cli: Cli) -> None:
    paths = {d["path"] for d in cli.json("check", "--extend-exclude", "app/old.py")["diagnostics"]}
    assert paths == {"app/chat.py"}, "vendor/ stays excluded by the policy"


def test_exclude_replaces_the_policy_exclude(tree: Path, cli: Cli) -> None:
    paths = {d["path"] for d in cli.json("check", "--exclude", "app/")["diagnostics"]}
    assert paths == {"vendor/lib.py"}


def test_exclude_names_a_malformed_glob(tree: Path, cli: Cli) -> None:
    result = cli("check", "--exclude", "a/**b[")
    assert result.exit_code == 2
    assert "--exclude" in result.output
    assert "Traceback" not in result.output


def test_show_fixes_lists_fixes_per_file_and_rule(tree: Path, cli: Cli) -> None:
    result = cli("fix", "--show-fixes", "app")
    assert "Fixed 2 findings:\n- app/chat.py:\n    2 × CM101 (temperature)\n" in result.stdout


def test_show_fixes_with_diff_says_what_it_would_fix(tree: Path, cli: Cli) -> None:
    result = cli("fix", "--diff", "--show-fixes", "app")
    assert "Would fix 2 findings:" in result.stderr
    assert (tree / "app/chat.py").read_text() == HEAD + HOT + HOT


def test_fix_only_fixes_and_does_not_report_what_is_left(tree: Path, cli: Cli) -> None:
    result = cli("fix", "--fix-only", "app")
    assert result.exit_code == 0, result.output
    assert "CM302" not in result.stdout
    assert "Fixed 2; 1 finding left, not reported (--fix-only)." in result.stdout
    changed = cli("fix", "--fix-only", "--exit-non-zero-on-fix", "vendor/lib.py")
    assert changed.exit_code == 1


# --add-noqa --------------------------------------------------------------------------------


def test_add_noqa_suppresses_every_finding_and_is_idempotent(tree: Path, cli: Cli) -> None:
    result = cli("check", "--add-noqa", "app")
    assert result.exit_code == 0, result.output
    assert "Added 3 noqa directives in 2 files." in result.stdout
    chat = (tree / "app/chat.py").read_text()
    assert chat == HEAD + (HOT.rstrip("\n") + "  # noqa: CM101\n") * 2
    assert cli("check", "app").exit_code == 0
    before = snapshot(tree)
    again = cli("check", "--add-noqa", "app")
    assert "Added 0 noqa directives in 0 files." in again.stdout
    assert snapshot(tree) == before


def test_add_noqa_joins_an_existing_noqa_and_keeps_other_comments(tmp_path: Path, cli: Cli) -> None:
    source = (
        HEAD
        + 'c.messages.create(model="claude-2.1", temperature=0.9, max_tokens=5, messages=[])'
        + "  # noqa: E501\n"
        + HOT.rstrip("\n")
        + "  # type: ignore\n"
    )
    write_tree(tmp_path, {"a.py": source, "claude-migrate.toml": SELECT})
    cli("check", "--add-noqa", ".")
    lines = (tmp_path / "a.py").read_text().splitlines()
    assert lines[3].endswith("# noqa: E501, CM101, CM302")
    assert lines[4].endswith("# type: ignore  # noqa: CM101")
    assert cli("check", ".").exit_code == 0


def test_add_noqa_never_writes_inside_a_string(tmp_path: Path, cli: Cli) -> None:
    source = (
        HEAD
        + 'c.messages.create(model="claude-2.1", max_tokens=5, system="""a\n'
        + 'b""", messages=[])\n'
    )
    write_tree(tmp_path, {"a.py": source})
    result = cli("check", "--add-noqa", ".")
    assert (tmp_path / "a.py").read_text() == source
    assert "a.py:4: the line ends inside a string or continues" in result.stderr
    assert "1 finding not suppressed" in result.stdout


def test_add_noqa_keeps_crlf_and_the_encoding(tmp_path: Path, cli: Cli) -> None:
    text = "# -*- coding: latin-1 -*-\n" + HEAD + "# café\n" + HOT
    data = text.replace("\n", "\r\n").encode("latin-1")
    (tmp_path / "a.py").write_bytes(data)
    (tmp_path / "claude-migrate.toml").write_text(SELECT)
    cli("check", "--add-noqa", ".")
    written = (tmp_path / "a.py").read_bytes()
    assert written == data.replace(b"=m)\r\n", b"=m)  # noqa: CM101\r\n")
    ast.parse(written)


def test_add_noqa_is_not_for_fixing(tree: Path, cli: Cli) -> None:
    assert cli("check", "--add-noqa", "--fix", "app").exit_code == 2


# The summary's wording ----------------------------------------------------------------------

STOP = 'c.messages.create(model="claude-sonnet-4-6", max_tokens=9, stop_sequences=["\\n"])\n'


def test_summary_counts_unsafe_fixes_as_more_fixable_findings(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": HEAD + HOT + STOP, "claude-migrate.toml": STOP_POLICY})
    text = cli("check", ".").stdout
    assert "(1 fixable with `claude-migrate fix`; 1 more fixable with `--unsafe-fixes`)" in text
    fixed = cli("fix", ".").stdout
    assert "(1 more fixable with `--unsafe-fixes`)" in fixed


def test_summary_without_safe_fixes_does_not_say_more(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": HEAD + STOP, "claude-migrate.toml": STOP_POLICY})
    text = cli("check", ".").stdout
    assert "(1 fixable with `--unsafe-fixes`)" in text
    assert "more" not in text


STOP_POLICY = 'select = ["CM101", "CM103"]\n'


def test_check_unsafe_fixes_marks_unsafe_fixes_and_writes_nothing(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": HEAD + STOP, "claude-migrate.toml": STOP_POLICY})
    before = snapshot(tmp_path)
    assert "CM103 [*]" not in cli("check", ".").stdout
    marked = cli("check", "--unsafe-fixes", ".").stdout
    assert "CM103 [*]" in marked
    assert "[*] marks what `claude-migrate fix --unsafe-fixes` fixes" in marked
    assert snapshot(tmp_path) == before
