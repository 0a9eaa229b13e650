"""The example the README runs (examples/support-desk): reported, fixed on a copy, settled.

The example is what a newcomer reads first, so it holds no test markers, and nothing here ever
writes into it: every fix runs on a copy.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import libcst as cst
from helpers import Cli, snapshot

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "support-desk"

# What the README's walk-through says: 12 findings, two warnings (the override for batch work,
# and a Bedrock id whose platform date is unknown). The legacy call is CM301's, so CM104 is silent
# on it.
EXPECTED = sorted(
    [
        ("requirements.txt", "CM201", "error"),
        ("support_desk/replies.py", "CM101", "error"),
        ("support_desk/replies.py", "CM102", "error"),
        ("support_desk/replies.py", "CM103", "error"),
        ("support_desk/summaries.py", "CM101", "error"),
        ("support_desk/summaries.py", "CM104", "warning"),
        ("support_desk/summaries.py", "CM302", "warning"),
        ("support_desk/triage.py", "CM103", "error"),
        ("support_desk/triage.py", "CM104", "error"),
        ("support_desk/triage.py", "CM301", "error"),
        ("support_desk/triage.py", "CM302", "error"),
        ("support_desk/triage.py", "CM302", "error"),
    ]
)


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "support-desk"
    shutil.copytree(EXAMPLE, tree)
    return tree


def test_example_holds_no_test_markers() -> None:
    for path in EXAMPLE.rglob("*"):
        if path.is_file():
            assert not re.search(r"#\s*expect:", path.read_text(encoding="utf-8")), path


def test_example_reports_what_the_readme_says(tmp_path: Path) -> None:
    cli = Cli(_copy(tmp_path))
    data = cli.json("check")
    assert data["errors"] == []
    found = sorted((d["path"], d["code"], d["severity"]) for d in data["diagnostics"])
    assert found == EXPECTED
    result = cli("check")
    assert result.exit_code == 1
    assert "Found 12 findings: 10 errors, 2 warnings" in result.stdout
    assert "[*] marks what `claude-migrate fix` fixes" in result.stdout


def test_fixing_a_copy_leaves_what_the_readme_says_and_settles(tmp_path: Path) -> None:
    before = snapshot(EXAMPLE)
    tree = _copy(tmp_path)
    cli = Cli(tree)
    result = cli("fix")
    assert result.exit_code == 1, result.output
    assert "Fixed 4, 8 remaining" in result.stdout
    replies = (tree / "support_desk" / "replies.py").read_text(encoding="utf-8")
    # The constant the retry jitter also reads is left alone; the call gets the literal.
    assert "TEMPERATURE = 0.8" in replies and "temperature=0.0," in replies
    assert "MAX_REPLY_TOKENS = 2048" in replies
    # The unsafe fixes leave only the Bedrock call: warnings without a fix there.
    assert cli("fix", "--unsafe-fixes").exit_code == 0
    left = cli.json("check")["diagnostics"]
    assert [(d["path"], d["code"], d["severity"]) for d in left] == [
        ("support_desk/summaries.py", "CM104", "warning"),
        ("support_desk/summaries.py", "CM302", "warning"),
    ]
    for path in tree.rglob("*.py"):
        cst.parse_module(path.read_bytes())
    after = snapshot(tree)
    cli("fix", "--unsafe-fixes")
    assert snapshot(tree) == after
    assert snapshot(EXAMPLE) == before


def test_readme_runs_the_example_that_exists() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    named = set(re.findall(r"check (examples/[\w./-]+)", readme))
    assert named == {"examples/support-desk"}
    assert all((ROOT / path).is_dir() for path in named)
    assert "fixtures/demo" not in readme
