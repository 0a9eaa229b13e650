"""Severities: each finding is an error, a warning or info; `--fail-on` decides the exit code.

A model retiring within `warn-days` is a warning (a date alone must not turn a build red), a
retired one is an error, and the policy's `[severity]` table overrides any rule's severity.
Every output format shows the severity.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from helpers import Cli, write_tree

# As of 2026-12-01, claude-opus-4-5-20251101 retires on 2027-01-22 (52 days later) and
# claude-2.1 retired on 2025-07-21.
SOURCE = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    "def soon():\n"
    "    return client.messages.create(model='claude-opus-4-5-20251101', max_tokens=10,\n"
    "                                  messages=[], stream=True)\n"
    "def gone():\n"
    "    return client.messages.create(model='claude-2.1', max_tokens=10, messages=[],\n"
    "                                  stream=True)\n"
)
POLICY = "[retired-models]\nas-of = 2026-12-01\n"


def _tree(cli: Cli, policy: str = POLICY, source: str = SOURCE) -> None:
    write_tree(cli.cwd, {"claude-migrate.toml": policy, "app.py": source})


def _by_line(data: dict) -> dict[int, str]:
    return {d["line"]: d["severity"] for d in data["diagnostics"]}


def test_upcoming_retirement_is_a_warning_and_a_retired_model_an_error(cli: Cli) -> None:
    _tree(cli)
    data = cli.json("check")
    assert _by_line(data) == {4: "warning", 7: "error"}


def test_warnings_alone_do_not_fail_the_run(cli: Cli) -> None:
    _tree(cli, source=SOURCE.split("def gone")[0])
    result = cli("check")
    assert result.exit_code == 0, result.output
    assert "app.py:4:35: CM302 warning: model 'claude-opus-4-5-20251101' retires" in result.stdout
    assert "Found 1 finding: 1 warning" in result.stdout
    assert "below `--fail-on error` do not fail the run" in result.stdout


@pytest.mark.parametrize(
    ("fail_on", "policy_level", "code"),
    [
        ("error", None, 0),
        ("warning", None, 1),
        ("info", None, 1),
        ("warning", "info", 0),
        ("info", "info", 1),
        ("error", "error", 1),
    ],
)
def test_fail_on_decides_the_exit_code(
    cli: Cli, fail_on: str, policy_level: str | None, code: int
) -> None:
    policy = POLICY + (f'[severity]\nCM302 = "{policy_level}"\n' if policy_level else "")
    _tree(cli, policy=policy, source=SOURCE.split("def gone")[0])
    result = cli("check", "--fail-on", fail_on)
    assert result.exit_code == code, result.output
    assert cli("check", "--fail-on", fail_on, "--exit-zero").exit_code == 0


def test_policy_severity_overrides_the_rule_for_every_finding_of_it(cli: Cli) -> None:
    _tree(cli, policy=POLICY + '[severity]\nCM302 = "warning"\n')
    data = cli.json("check")
    assert _by_line(data) == {4: "warning", 7: "warning"}
    assert cli("check").exit_code == 0


def test_a_more_specific_selector_wins_and_overrides_apply_per_path(cli: Cli) -> None:
    policy = (
        POLICY
        + '[severity]\nCM3 = "info"\nCM302 = "warning"\n'
        + '[[overrides]]\npaths = ["batch/**"]\nseverity = { CM302 = "error" }\n'
    )
    write_tree(cli.cwd, {"claude-migrate.toml": policy, "app.py": SOURCE, "batch/job.py": SOURCE})
    data = cli.json("check")
    found = {(d["path"], d["line"]): d["severity"] for d in data["diagnostics"]}
    assert found == {
        ("app.py", 4): "warning",
        ("app.py", 7): "warning",
        ("batch/job.py", 4): "error",
        ("batch/job.py", 7): "error",
    }


def test_every_format_shows_the_severity(cli: Cli) -> None:
    _tree(cli)
    github = cli("check", "--format", "github").stdout.splitlines()
    assert [line.split(" ", 1)[0] for line in github] == ["::warning", "::error"]

    sarif = json.loads(cli("check", "--format", "sarif").stdout)
    levels = [
        (r["locations"][0]["physicalLocation"]["region"]["startLine"], r["level"])
        for r in sarif["runs"][0]["results"]
    ]
    assert sorted(levels) == [(4, "warning"), (7, "error")]

    junit = ET.fromstring(cli("check", "--format", "junit").stdout)
    case = junit.find(".//testcase[@name='app.py']")
    assert case is not None
    failures = case.findall("failure")
    assert [f.get("type") for f in failures] == ["CM302"]
    assert "claude-2.1" in (failures[0].get("message") or "")
    out = case.find("system-out")
    assert out is not None and "CM302 warning: model 'claude-opus-4-5-20251101'" in (out.text or "")
    # Under --fail-on warning the warning is a failure too.
    junit = ET.fromstring(cli("check", "--format", "junit", "--fail-on", "warning").stdout)
    assert len(junit.findall(".//failure")) == 2


def test_info_is_a_github_notice_and_a_sarif_note(cli: Cli) -> None:
    _tree(cli, policy=POLICY + '[severity]\nCM302 = "info"\n')
    github = cli("check", "--format", "github").stdout
    assert github.startswith("::notice ") and "::error" not in github
    sarif = json.loads(cli("check", "--format", "sarif").stdout)
    assert {r["level"] for r in sarif["runs"][0]["results"]} == {"note"}


def test_sarif_rules_carry_their_default_level(cli: Cli) -> None:
    _tree(cli)
    sarif = json.loads(cli("check", "--format", "sarif").stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert {r["defaultConfiguration"]["level"] for r in rules} == {"error"}


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('[severity]\nCM302 = "warn"\n', "did you mean `warning`?"),
        ('[severity]\nCM999 = "warning"\n', "unknown rule code or prefix 'CM999'"),
        ('[severity]\nCM001 = "warning"\n', "always an error"),
        ('severity = "warning"\n', "expected a table"),
    ],
)
def test_bad_severity_tables_are_policy_errors_with_their_line(
    cli: Cli, table: str, expected: str
) -> None:
    _tree(cli, policy=table)
    result = cli("check")
    assert result.exit_code == 2
    assert expected in result.stderr
    assert "claude-migrate.toml:1" in result.stderr or "claude-migrate.toml:2" in result.stderr


def test_cached_results_keep_their_severity(cli: Cli) -> None:
    _tree(cli)
    first = cli.json("check")
    second = cli.json("check")
    assert _by_line(first) == _by_line(second) == {4: "warning", 7: "error"}
    # A new severity table is a new policy: the cache does not serve the old severities.
    _tree(cli, policy=POLICY + '[severity]\nCM302 = "info"\n')
    assert set(_by_line(cli.json("check")).values()) == {"info"}


def test_the_language_server_shows_warnings_as_warnings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pygls")
    from lsprotocol import types
    from test_server import Editor, _drive

    (tmp_path / "claude-migrate.toml").write_text(POLICY)

    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        published = await editor.wait_for("app.py", 1)
        levels = {d.range.start.line + 1: d.severity for d in published.diagnostics}
        assert levels == {
            4: types.DiagnosticSeverity.Warning,
            7: types.DiagnosticSeverity.Error,
        }

    _drive(tmp_path, scenario)
