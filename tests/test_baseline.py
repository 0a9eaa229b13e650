"""A baseline lets a legacy tree adopt claude-migrate: only new findings fail the run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Cli, write_tree

CHAT = """\
import anthropic

client = anthropic.Anthropic()


def answer(question):
    return client.messages.stream(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature=0.7,
        messages=[{"role": "user", "content": question}],
    )


def summarise(text):
    return client.messages.stream(model="m", max_tokens=8000, messages=[])
"""
WORKER = """\
import anthropic

client = anthropic.Anthropic()


def run():
    client.messages.stream(model="m", max_tokens=10, temperature=0.9, messages=[])
"""
NEW_VIOLATION = """

def brainstorm(topic):
    return client.messages.stream(model="m", max_tokens=100, temperature=1.0, messages=[])
"""
NEW_LINE = len((CHAT + NEW_VIOLATION).splitlines())


@pytest.fixture
def tree(tmp_path: Path, cli: Cli) -> Path:
    write_tree(tmp_path, {"app/chat.py": CHAT, "app/worker.py": WORKER})
    result = cli("check", "app", "--write-baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    assert "recorded 3 findings" in result.stderr
    return tmp_path


def _codes(data: dict) -> list[tuple[str, int, str]]:
    return [(d["path"], d["line"], d["code"]) for d in data["diagnostics"]]


def test_a_tree_checked_against_its_own_baseline_passes(cli: Cli, tree: Path) -> None:
    assert cli("check", "app").exit_code == 1
    result = cli("check", "app", "--baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    assert "3 baselined findings hidden" in result.stdout


def test_baseline_file_records_scope_and_fingerprint_never_the_line(tree: Path) -> None:
    data = json.loads((tree / "baseline.json").read_text(encoding="utf-8"))
    entries = {(e["path"], e["code"], e["context"]): e for e in data["entries"]}
    assert set(entries) == {
        ("app/chat.py", "CM101", "answer"),
        ("app/chat.py", "CM102", "summarise"),
        ("app/worker.py", "CM101", "run"),
    }
    assert all(e["count"] == 1 and e["fingerprint"] for e in data["entries"])
    assert not any("line" in e for e in data["entries"])


def test_blank_lines_inserted_above_a_finding_keep_it_baselined(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    chat.write_text(chat.read_text().replace("def answer", "\n\n\n# moved\ndef answer"))
    result = cli("check", "app", "--baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    # Still found (on moved lines) and still matched: not merely nothing detected.
    data = cli.json("check", "app", "--baseline", "baseline.json")
    assert data["diagnostics"] == [] and data["baseline"]["stale"] == []
    assert data["baseline"]["baselined"] == 3
    moved = cli.json("check", "app")["diagnostics"]
    assert ("app/chat.py", 14, "CM101") in _codes({"diagnostics": moved})


def test_a_new_violation_fails_and_is_the_only_one_reported(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    chat.write_text(chat.read_text() + NEW_VIOLATION)
    result = cli("check", "app", "--baseline", "baseline.json", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert _codes(data) == [("app/chat.py", NEW_LINE, "CM101")]
    assert data["baseline"] == {"path": "baseline.json", "baselined": 3, "stale": []}


def test_editing_the_offending_code_resurfaces_the_finding(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    chat.write_text(chat.read_text().replace("temperature=0.7", "temperature=0.8"))
    data = cli.json("check", "app", "--baseline", "baseline.json")
    assert _codes(data) == [("app/chat.py", 10, "CM101")]
    # The old entry no longer matches anything: it is stale too.
    assert [(s["path"], s["code"]) for s in data["baseline"]["stale"]] == [("app/chat.py", "CM101")]


def test_raising_a_value_read_through_a_name_resurfaces_the_finding(
    cli: Cli, tmp_path: Path
) -> None:
    """The finding is at `temperature=t`; what makes it one is also `t = 0.5` above."""
    source = CHAT.replace("temperature=0.7", "temperature=t").replace(
        "def answer(question):\n", "def answer(question):\n    t = 0.5\n"
    )
    write_tree(tmp_path, {"app/chat.py": source})
    assert cli("check", "app", "--write-baseline", "baseline.json").exit_code == 0
    assert cli("check", "app", "--baseline", "baseline.json").exit_code == 0
    chat = tmp_path / "app/chat.py"
    chat.write_text(source.replace("t = 0.5", "t =  0.5  # same value"))
    assert cli("check", "app", "--baseline", "baseline.json").exit_code == 0
    chat.write_text(source.replace("t = 0.5", "t = 2.0"))
    data = cli.json("check", "app", "--baseline", "baseline.json")
    assert _codes(data) == [("app/chat.py", 11, "CM101")]
    assert "temperature 2.0 (from t)" in data["diagnostics"][0]["message"]


def test_a_second_identical_finding_in_the_same_scope_is_new(cli: Cli, tree: Path) -> None:
    worker = tree / "app/worker.py"
    line = '    client.messages.stream(model="m", max_tokens=10, temperature=0.9, messages=[])\n'
    worker.write_text(worker.read_text() + line)
    data = cli.json("check", "app", "--baseline", "baseline.json")
    assert _codes(data) == [("app/worker.py", 8, "CM101")]


def test_deleting_a_baselined_violation_fails_until_pruned(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    chat.write_text(chat.read_text().replace("temperature=0.7", "temperature=0.1"))
    result = cli("check", "app", "--baseline", "baseline.json")
    assert result.exit_code == 1
    assert "app/chat.py: baseline entry CM101 in answer no longer matches" in result.stdout
    assert "--prune-baseline" in result.stdout
    assert cli("check", "app", "--baseline", "baseline.json").exit_code == 1  # still failing
    pruned = cli("check", "app", "--baseline", "baseline.json", "--prune-baseline")
    assert pruned.exit_code == 0, pruned.output
    assert "pruned 1 stale entry" in pruned.stderr
    entries = json.loads((tree / "baseline.json").read_text())["entries"]
    assert [(e["path"], e["code"]) for e in entries] == [
        ("app/chat.py", "CM102"),
        ("app/worker.py", "CM101"),
    ]
    assert cli("check", "app", "--baseline", "baseline.json").exit_code == 0


def test_pruning_keeps_new_findings_failing_and_out_of_the_baseline(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    text = chat.read_text().replace("temperature=0.7", "temperature=0.1")
    chat.write_text(text + NEW_VIOLATION)
    result = cli("check", "app", "--baseline", "baseline.json", "--prune-baseline")
    assert result.exit_code == 1
    assert f"app/chat.py:{NEW_LINE}:" in result.stdout
    entries = json.loads((tree / "baseline.json").read_text())["entries"]
    assert len(entries) == 2


def test_deleting_a_file_makes_its_entries_stale(cli: Cli, tree: Path) -> None:
    (tree / "app/worker.py").unlink()
    data = cli.json("check", "app", "--baseline", "baseline.json")
    assert [(s["path"], s["code"]) for s in data["baseline"]["stale"]] == [
        ("app/worker.py", "CM101")
    ]


def test_checking_some_files_leaves_other_entries_alone(cli: Cli, tree: Path) -> None:
    # pre-commit passes only the staged files: the other files' entries are not stale.
    result = cli("check", "app/worker.py", "--baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    data = cli.json("check", "app/worker.py", "--baseline", "baseline.json")
    assert data["summary"]["files"] == 1
    assert data["baseline"]["baselined"] == 1  # the worker's finding, found and matched
    assert data["baseline"]["stale"] == []  # chat.py's entries were not judged


def test_writing_a_baseline_from_some_files_keeps_the_others_entries(cli: Cli, tree: Path) -> None:
    worker = tree / "app/worker.py"
    worker.write_text(worker.read_text().replace("temperature=0.9", "temperature=0.0"))
    assert cli("check", "app/worker.py", "--write-baseline", "baseline.json").exit_code == 0
    entries = json.loads((tree / "baseline.json").read_text())["entries"]
    assert sorted((e["path"], e["code"]) for e in entries) == [
        ("app/chat.py", "CM101"),
        ("app/chat.py", "CM102"),
    ]


def test_baseline_paths_are_relative_to_the_baseline_file(tree: Path) -> None:
    inner = Cli(tree / "app")
    result = inner("check", ".", "--baseline", "../baseline.json")
    assert result.exit_code == 0, result.output
    data = inner.json("check", ".", "--baseline", "../baseline.json")
    assert data["baseline"]["baselined"] == 3 and data["baseline"]["stale"] == []
    assert {d["path"] for d in inner.json("check", ".")["diagnostics"]} == {"chat.py", "worker.py"}


def test_show_baselined_lists_them_in_sarif_as_unchanged(cli: Cli, tree: Path) -> None:
    chat = tree / "app/chat.py"
    chat.write_text(chat.read_text() + NEW_VIOLATION)
    result = cli(
        "check", "app", "--baseline", "baseline.json", "--show-baselined", "--format", "sarif"
    )
    results = json.loads(result.stdout)["runs"][0]["results"]
    states = sorted((r["ruleId"], r["baselineState"]) for r in results)
    assert states == [("CM101", "new"), ("CM101", "unchanged"), ("CM101", "unchanged"),
                      ("CM102", "unchanged")]  # fmt: skip
    plain = cli("check", "app", "--baseline", "baseline.json", "--format", "sarif")
    assert [r["baselineState"] for r in json.loads(plain.stdout)["runs"][0]["results"]] == ["new"]


def test_stale_entries_are_reported_in_every_ci_format(cli: Cli, tree: Path) -> None:
    (tree / "app/worker.py").unlink()
    github = cli("check", "app", "--baseline", "baseline.json", "--format", "github")
    assert "::error file=baseline.json,title=claude-migrate (stale baseline)::" in github.stdout
    sarif = json.loads(
        cli("check", "app", "--baseline", "baseline.json", "--format", "sarif").stdout
    )
    (notification,) = sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert "app/worker.py: baseline entry CM101 in run" in notification["message"]["text"]
    junit = cli("check", "app", "--baseline", "baseline.json", "--format", "junit")
    assert 'type="stale-baseline"' in junit.stdout
    assert junit.exit_code == 1


def test_unparseable_files_can_be_baselined(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"old.py": "import anthropic\nprint 'python 2'\n"})
    assert cli("check", ".", "--write-baseline", "b.json").exit_code == 0
    (tmp_path / "old.py").write_text("import anthropic\n\n\nprint 'python 2'\n")
    assert cli("check", ".", "--baseline", "b.json").exit_code == 0


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "b.json:1: invalid JSON"),
        ('{"version": 7, "entries": []}', '"version": 1'),
        ('{"version": 1, "entries": [{"path": "a.py"}]}', "`entries[0]`.code: expected a string"),
        (
            '{"version": 1, "entries": [{"path": "a.py", "code": "CM101", "context": "",'
            ' "fingerprint": "x", "count": 0}]}',
            "`entries[0]`.count: expected a positive integer",
        ),
    ],
)
def test_a_malformed_baseline_is_a_clear_error(
    cli: Cli, tmp_path: Path, content: str, expected: str
) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n", "b.json": content})
    result = cli("check", ".", "--baseline", "b.json")
    assert result.exit_code == 2
    assert expected in result.stderr


def test_a_missing_baseline_says_how_to_create_one(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n"})
    result = cli("check", ".", "--baseline", "none.json")
    assert result.exit_code == 2
    assert "--write-baseline" in result.stderr


def test_baseline_options_need_each_other(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n"})
    assert cli("check", ".", "--prune-baseline").exit_code == 2
    assert cli("check", ".", "--baseline", "a", "--write-baseline", "b").exit_code == 2
