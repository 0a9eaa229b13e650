"""The command line end to end: exit codes, output contracts, discovery, errors."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import Cli, run_subprocess, snapshot, write_tree

VIOLATION = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    "client.messages.create(model='m', max_tokens=4096, temperature=0.7, messages=[], "
    "stream=True)\n"
)
CLEAN = (
    "import anthropic\n"
    "anthropic.Anthropic().messages.create(model='m', max_tokens=10, messages=[], stream=True)\n"
)


def test_check_reports_and_exits_1(cli: Cli) -> None:
    write_tree(cli.cwd, {"app/a.py": VIOLATION})
    result = cli("check", "app")
    assert result.exit_code == 1
    assert (
        "app/a.py:3:35: CM102 [*] max_tokens 4096 is above the policy maximum 1024" in result.stdout
    )
    assert (
        "app/a.py:3:52: CM101 [*] temperature 0.7 is above the policy maximum 0.2" in result.stdout
    )


def test_check_clean_tree_exits_0(cli: Cli) -> None:
    write_tree(cli.cwd, {"app/a.py": CLEAN})
    result = cli("check")
    assert result.exit_code == 0, result.output
    assert "No findings" in result.stdout


def test_exit_zero_and_select(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": VIOLATION})
    assert cli("check", "--exit-zero").exit_code == 0
    data = cli.json("check", "--select", "CM101")
    assert [d["code"] for d in data["diagnostics"]] == ["CM101"]
    data = cli.json("check", "--ignore", "CM101")
    assert [d["code"] for d in data["diagnostics"]] == ["CM102"]


def test_unknown_select_code_is_a_usage_error(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": VIOLATION})
    result = cli("check", "--select", "XX1")
    assert result.exit_code == 2
    assert "unknown rule code" in result.output


def test_json_contract(cli: Cli) -> None:
    write_tree(cli.cwd, {"app/a.py": VIOLATION, "app/broken.py": "import anthropic\ndef f(:\n"})
    data = cli.json("check", "app")
    assert data["version"] == 1
    assert data["tool"]["name"] == "claude-migrate"
    first = data["diagnostics"][0]
    assert first == {
        "path": "app/a.py",
        "line": 3,
        "column": 35,
        "end_line": 3,
        "end_column": 50,
        "code": "CM102",
        "rule": "max-tokens",
        "message": "max_tokens 4096 is above the policy maximum 1024",
        "severity": "error",
        "fix": {"applicability": "safe", "description": "set max_tokens to 1024"},
    }
    assert data["errors"] == [
        {
            "path": "app/broken.py",
            "code": "CM001",
            "line": 2,
            "column": 7,
            "message": data["errors"][0]["message"],
        }
    ]
    assert data["errors"][0]["message"].startswith("invalid syntax")
    assert data["summary"] == {
        "files": 2,
        "diagnostics": 2,
        "fixable": 2,
        "errors": 1,  # the file that could not be parsed (CM001)
        "severities": {"error": 2, "warning": 0, "info": 0},  # the findings
    }


def test_unparseable_and_undecodable_files_are_reported_and_the_run_goes_on(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "a.py": VIOLATION,
            "b.py": b"import anthropic\nx = '\xff\xfe'\n",
            "c.py": "import anthropic\nclass (:\n",
        },
    )
    data = cli.json("check")
    assert {e["path"] for e in data["errors"]} == {"b.py", "c.py"}
    assert next(e for e in data["errors"] if e["path"] == "b.py")["line"] == 2
    assert len(data["diagnostics"]) == 2


def test_fix_rewrites_and_a_second_run_changes_nothing(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": VIOLATION})
    result = cli("fix")
    assert result.exit_code == 0, result.output
    fixed = (cli.cwd / "a.py").read_text()
    assert "max_tokens=1024, temperature=0.0" in fixed
    again = cli("fix")
    assert again.exit_code == 0
    assert (cli.cwd / "a.py").read_text() == fixed


def test_fix_diff_writes_nothing_and_exits_1(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": VIOLATION})
    before = snapshot(cli.cwd)
    result = cli("fix", "--diff")
    assert result.exit_code == 1
    assert "-client.messages.create(model='m', max_tokens=4096, temperature=0.7" in result.stdout
    assert "+client.messages.create(model='m', max_tokens=1024, temperature=0.0" in result.stdout
    assert snapshot(cli.cwd) == before


def test_fix_diff_on_clean_tree_exits_0(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": CLEAN})
    assert cli("fix", "--diff").exit_code == 0


def test_malformed_policy_exits_2_and_touches_nothing(cli: Cli) -> None:
    write_tree(cli.cwd, {"a.py": VIOLATION, "claude-migrate.toml": "[temperature]\nmax = 'warm'\n"})
    before = snapshot(cli.cwd)
    result = cli("fix")
    assert result.exit_code == 2
    assert (
        "claude-migrate.toml:2: `temperature.max`: expected a number between 0 and 1"
        in result.stderr
    )
    assert snapshot(cli.cwd) == before


def test_gitignored_and_excluded_files_are_skipped(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".gitignore": "generated/\n",
            "generated/a.py": VIOLATION,
            "legacy/old.py": VIOLATION,
            "app/a.py": VIOLATION,
            ".venv/lib/x.py": VIOLATION,
            "claude-migrate.toml": "exclude = ['legacy/**']\n",
        },
    )
    data = cli.json("check")
    assert {d["path"] for d in data["diagnostics"]} == {"app/a.py"}
    # A file named explicitly is checked unless --force-exclude.
    assert cli.json("check", "legacy/old.py")["summary"]["diagnostics"] == 2
    assert cli.json("check", "--force-exclude", "legacy/old.py")["summary"]["files"] == 0


def test_config_option_applies_one_policy_everywhere(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "a.py": VIOLATION,
            "claude-migrate.toml": "[temperature]\nmax = 0.1\n",
            "other.toml": "[temperature]\nmax = 0.9\n[max-tokens]\nmax = 8192\n",
        },
    )
    assert cli.json("check", "--config", "other.toml")["diagnostics"] == []


def test_real_subprocess_and_python_m(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app/a.py": VIOLATION})
    result = run_subprocess("check", "--format", "json", "app", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    data = json.loads(result.stdout)
    assert [d["code"] for d in data["diagnostics"]] == ["CM102", "CM101"]
    fixed = run_subprocess("fix", "app", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert run_subprocess("check", "app", cwd=tmp_path).returncode == 0


def test_a_folder_named_explicitly_is_walked_even_if_gitignored(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".gitignore": "vendor/\n*.gen.py\n",
            "vendor/lib/a.py": VIOLATION,
            "vendor/lib/b.gen.py": VIOLATION,
            "vendor/lib/.gitignore": "skip/\n",
            "vendor/lib/skip/c.py": VIOLATION,
        },
    )
    assert cli.json("check")["summary"]["files"] == 0
    data = cli.json("check", "vendor/lib")
    # Inside the named folder only its own .gitignore files apply.
    assert {d["path"] for d in data["diagnostics"]} == {"vendor/lib/a.py", "vendor/lib/b.gen.py"}
