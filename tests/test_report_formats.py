"""The output formats CI systems and people read: text, concise, json, github, sarif, junit."""

from __future__ import annotations

import json
import os
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from helpers import SRC, Cli, write_tree
from junitparser import JUnitXml

from claude_migrate.policy.catalogue import all_rules

SCHEMA = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"

CHAT = """\
import anthropic

client = anthropic.Anthropic()


class Chat:
    def reply(self, question):
        return client.messages.stream(
            model="claude-sonnet-4-6",
            max_tokens=4096,
            temperature=0.7,
            messages=[{"role": "user", "content": question}],
        )
"""
CLEAN = "import anthropic\n\nclient = anthropic.Anthropic()\n"
BROKEN = "import anthropic\n\ndef broken(:\n    pass\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {"app/chat.py": CHAT, "app/clean.py": CLEAN, "app/broken.py": BROKEN},
    )


def test_text_when_piped_is_one_plain_line_per_finding_and_a_summary(cli: Cli, tree: Path) -> None:
    result = cli("check", "app")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("app/broken.py:")
    assert ": CM001 invalid syntax" in lines[0]
    assert (
        lines[1] == "app/chat.py:10:13: CM102 [*] max_tokens 4096 is above the policy maximum 1024"
    )
    assert (
        lines[2] == "app/chat.py:11:13: CM101 [*] temperature 0.7 is above the policy maximum 0.2"
    )
    assert lines[3].startswith("Found 2 findings")
    assert "\x1b[" not in result.stdout


def test_concise_is_one_line_per_finding(cli: Cli, tree: Path) -> None:
    result = cli("check", "app/chat.py", "--format", "concise", "--quiet")
    assert result.stdout.splitlines() == [
        "app/chat.py:10:13: CM102 [*] max_tokens 4096 is above the policy maximum 1024",
        "app/chat.py:11:13: CM101 [*] temperature 0.7 is above the policy maximum 0.2",
    ]


def test_text_on_a_terminal_groups_by_file_with_source_and_caret(tree: Path) -> None:
    """Run the real command under a pseudo-terminal, as a person at a terminal sees it."""
    pty = pytest.importorskip("pty")
    env = dict(os.environ, PYTHONPATH=str(SRC), COLUMNS="120", TERM="xterm")
    env.pop("NO_COLOR", None)
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command
        os.chdir(tree)
        os.execve(sys.executable, [sys.executable, "-m", "claude_migrate", "check", "app"], env)
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 1
    raw = b"".join(chunks).decode()
    assert "\x1b[" in raw, "a terminal gets colour"
    screen = re.sub(r"\x1b\[[0-9;]*m", "", raw).replace("\r\n", "\n").splitlines()
    assert screen[0] == "app/broken.py"
    chat = screen.index("app/chat.py")
    finding = screen[chat + 1]
    assert finding.split() == ["10:13", "CM102", "[*]", "max_tokens", "4096", "is", "above",
                               "the", "policy", "maximum", "1024"]  # fmt: skip
    source, caret = screen[chat + 2], screen[chat + 3]
    assert source.endswith("|             max_tokens=4096,")
    # The caret starts under the `m` of `max_tokens`.
    assert caret.index("^") == source.index("max_tokens")
    assert caret.rstrip().endswith("^")


def test_rich_caret_counts_wide_characters_and_tabs(tmp_path: Path) -> None:
    from claude_migrate.core.diagnostics import Diagnostic, FileResult
    from claude_migrate.report import Run
    from claude_migrate.report.text import render

    line = "\tx = '日本'; client.messages.create(temperature=0.9)"
    column = line.index("temperature") + 1
    (tmp_path / "w.py").write_text(line + "\n", encoding="utf-8")
    d = Diagnostic(
        "w.py", 1, column, 1, column + len("temperature=0.9"), "CM101", "temperature", "m"
    )
    run = Run(results=[FileResult("w.py", [d])], show_source=True, cwd=tmp_path)
    lines = render(run).splitlines()
    source, caret = lines[2], lines[3]
    gutter = source.index("|") + 2
    # Tabs expand to 8 columns and each CJK character takes two cells.
    shown = source[gutter:]
    assert shown.startswith(" " * 8 + "x = ")
    cells_before = 8 + len("x = '") + 4 + len("'; client.messages.create(")
    assert caret[gutter:].index("^") == cells_before
    assert caret.count("^") == len("temperature=0.9")


def test_json_output_keeps_the_design_contract(cli: Cli, tree: Path) -> None:
    data = cli.json("check", "app")
    assert set(data) == {"version", "tool", "diagnostics", "errors", "summary"}
    assert data["summary"] == {
        "files": 3, "diagnostics": 2, "fixable": 2, "errors": 1,
        # Added to version 1: the findings per severity, beside `errors` (unreadable files).
        "severities": {"error": 2, "warning": 0, "info": 0},
    }  # fmt: skip
    first = data["diagnostics"][0]
    assert set(first) == {
        "path", "line", "column", "end_line", "end_column", "code", "rule", "message", "fix",
        "severity",  # added to version 1: a key more, none changed
    }  # fmt: skip
    assert data["errors"][0]["path"] == "app/broken.py"


WORKFLOW_COMMAND = re.compile(r"^::(?P<level>error|warning|notice) (?P<props>[^:]*)::(?P<msg>.*)$")


def _unescape(value: str) -> str:
    for code, char in (("%3A", ":"), ("%2C", ","), ("%0A", "\n"), ("%0D", "\r"), ("%25", "%")):
        value = value.replace(code, char)
    return value


def test_github_output_is_one_parsable_workflow_command_per_finding(cli: Cli, tree: Path) -> None:
    result = cli("check", "app", "--format", "github")
    assert result.exit_code == 1
    commands = []
    for line in result.stdout.splitlines():
        match = WORKFLOW_COMMAND.match(line)
        assert match, line
        props = dict(item.split("=", 1) for item in match.group("props").split(","))
        commands.append(({k: _unescape(v) for k, v in props.items()}, _unescape(match["msg"])))
    assert len(commands) == 3
    error, max_tokens, temperature = commands
    assert error[0]["file"] == "app/broken.py" and error[0]["title"] == "claude-migrate (CM001)"
    assert temperature[0] == {
        "file": "app/chat.py",
        "line": "11",
        "col": "13",
        "endLine": "11",
        "endColumn": temperature[0]["endColumn"],
        "title": "claude-migrate (CM101)",
    }
    assert int(temperature[0]["endColumn"]) > 13
    assert temperature[1].startswith("CM101 temperature 0.7 is above the policy maximum 0.2")


def test_github_output_escapes_separators_in_paths_and_messages() -> None:
    from claude_migrate.report.github import command

    line = command("error", "50%\nnext", file="a,b:c.py", line=1)
    assert line == "::error file=a%2Cb%3Ac.py,line=1::50%25%0Anext"


def test_github_paths_are_relative_to_the_repository_root(cli: Cli, tree: Path) -> None:
    (tree / ".git").mkdir()
    inner = Cli(tree / "app")
    result = inner("check", "chat.py", "--format", "github")
    assert "file=app/chat.py," in result.stdout


def _sarif(cli: Cli, *args: str) -> dict:
    result = cli("check", *args, "--format", "sarif")
    assert result.exit_code in (0, 1), result.output
    document = json.loads(result.stdout)
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    return document


def test_sarif_validates_and_carries_what_code_scanning_needs(cli: Cli, tree: Path) -> None:
    (tree / ".git").mkdir()
    document = _sarif(Cli(tree / "app"), ".")
    assert document["version"] == "2.1.0"
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "claude-migrate"
    rules = {rule["id"]: rule for rule in driver["rules"]}
    assert set(rules) == {rule.code for rule in all_rules()}
    for rule in rules.values():
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
    assert "## Fix safety" in rules["CM101"]["help"]["markdown"]
    results = run["results"]
    assert [r["ruleId"] for r in results] == ["CM001", "CM102", "CM101"]
    temperature = results[2]
    assert temperature["level"] == "error"
    assert temperature["message"]["text"] == "temperature 0.7 is above the policy maximum 0.2"
    assert driver["rules"][temperature["ruleIndex"]]["id"] == "CM101"
    location = temperature["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "app/chat.py"  # repository-relative
    region = location["region"]
    assert (region["startLine"], region["startColumn"], region["endLine"]) == (11, 13, 11)
    assert region["endColumn"] > region["startColumn"]
    assert all(r["partialFingerprints"] for r in results)
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == tree.resolve().as_uri() + "/"
    assert "baselineState" not in temperature


def test_sarif_fingerprints_survive_unrelated_line_moves(cli: Cli, tree: Path) -> None:
    before = _sarif(cli, "app/chat.py")["runs"][0]["results"]
    (tree / "app/chat.py").write_text("\n\n# a new comment\n" + CHAT, encoding="utf-8")
    after = _sarif(cli, "app/chat.py")["runs"][0]["results"]
    assert [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in after] == [13, 14]
    assert [r["partialFingerprints"] for r in after] == [r["partialFingerprints"] for r in before]


def test_sarif_with_no_findings_is_still_valid(cli: Cli, tree: Path) -> None:
    document = _sarif(cli, "app/clean.py")
    assert document["runs"][0]["results"] == []


def test_junit_has_a_testcase_per_file_and_a_failure_per_finding(cli: Cli, tree: Path) -> None:
    result = cli("check", "app", "--format", "junit")
    assert result.exit_code == 1
    root = ET.fromstring(result.stdout.encode())
    cases = {case.get("name"): case for case in root.iter("testcase")}
    assert set(cases) == {"app/broken.py", "app/chat.py", "app/clean.py"}
    assert [f.get("type") for f in cases["app/chat.py"].findall("failure")] == ["CM102", "CM101"]
    assert cases["app/clean.py"].find("failure") is None
    assert cases["app/broken.py"].find("error").get("type") == "CM001"
    # What CI test reporters read (junitparser backs several of them).
    report = JUnitXml.fromstring(result.stdout)
    suite = next(iter(report))
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 1)
    outcomes = {case.name: [type(r).__name__ for r in case.result] for case in suite}
    assert outcomes == {
        "app/broken.py": ["Error"],
        "app/chat.py": ["Failure", "Failure"],
        "app/clean.py": [],
    }


def test_output_option_writes_the_report_to_a_file(cli: Cli, tree: Path) -> None:
    result = cli("check", "app/chat.py", "--format", "sarif", "--output", "reports/out.sarif")
    assert result.exit_code == 1
    assert result.stdout == ""
    document = json.loads((tree / "reports/out.sarif").read_text(encoding="utf-8"))
    assert len(document["runs"][0]["results"]) == 2


def test_text_report_written_to_a_file_is_plain(cli: Cli, tree: Path) -> None:
    cli("check", "app/chat.py", "-o", "out.txt")
    text = (tree / "out.txt").read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("app/chat.py:10:13: CM102")
    assert "\x1b[" not in text
