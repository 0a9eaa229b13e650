"""What `fix` tells: the per-rule table, the --report JSON, and the progress bar on a terminal."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from pathlib import Path

import pytest
from fixbulk import command, env
from helpers import Cli, write_tree
from rich.cells import cell_len

from claude_migrate import api
from claude_migrate.core.diagnostics import FileResult
from claude_migrate.engine.progress import Work
from claude_migrate.report import Run
from claude_migrate.report.fixes import render_table

HEAD = "import anthropic\nclient = anthropic.Anthropic()\n"
CALL = (
    'client.messages.create(model="m", temperature=0.9, max_tokens=4096, messages=[], stream=True)'
    "\n"
)


def _tree(root: Path) -> None:
    write_tree(root, {
        "a.py": HEAD + CALL + CALL.replace("0.9", "0.1"),
        "b.py": HEAD + CALL.replace("4096", "10"),
        "c.py": "def broken(:\n    anthropic\n",
        "d.py": "import anthropic\n",
    })  # fmt: skip


def test_report_lists_changed_files_with_codes_and_every_finding_left(
    tmp_path: Path, cli: Cli
) -> None:
    _tree(tmp_path)
    result = cli("fix", "--report", "report.json", ".")
    assert result.exit_code == 1  # c.py cannot be parsed
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["dry_run"] is False
    assert report["summary"] == {
        "files": 4, "files_changed": 2, "fixed": 4, "left": 0, "errors": 1,
    }  # fmt: skip
    changed = {c["path"]: c["codes"] for c in report["changed"]}
    assert changed == {"a.py": ["CM101", "CM102"], "b.py": ["CM101"]}
    fixes = report["changed"][0]["fixes"]
    assert {f["description"] for f in fixes} == {"set temperature to 0.0", "set max_tokens to 1024"}
    assert report["errors"][0]["path"] == "c.py"
    rules = {r["code"]: (r["found"], r["fixed"], r["left"]) for r in report["rules"]}
    assert rules == {"CM001": (1, 0, 1), "CM101": (2, 2, 0), "CM102": (2, 2, 0)}


def test_table_and_report_in_diff_mode_say_would_fix(tmp_path: Path, cli: Cli) -> None:
    _tree(tmp_path)
    result = cli("fix", "--diff", "--report", "report.json", ".")
    assert result.exit_code == 1
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["dry_run"] is True
    assert [c["path"] for c in report["changed"]] == ["a.py", "b.py"]
    assert (tmp_path / "a.py").read_text() == HEAD + CALL + CALL.replace("0.9", "0.1")


def test_closing_summary_counts_found_fixed_left_per_rule_in_plain_lines(
    tmp_path: Path, cli: Cli
) -> None:
    _tree(tmp_path)
    result = cli("fix", ".")  # not a terminal: plain lines, no box drawing
    assert "│" not in result.stdout
    assert (
        "claude-migrate fix: fixed per rule:\n"
        "  CM001 parse-error: 1 found, 0 fixed, 1 left (1 no fix)\n"
        "  CM101 temperature: 2 found, 2 fixed, 0 left\n"
        "  CM102 max-tokens: 2 found, 2 fixed, 0 left\n"
    ) in result.stdout
    assert "per rule" not in cli("fix", "--quiet", ".").stdout


def _table_run(root: Path) -> Run:
    _tree(root)
    old = os.getcwd()
    os.chdir(root)
    try:
        return api.fix(api.Request(paths=(Path("."),), diff=True, no_cache=True)).run
    finally:
        os.chdir(old)


@pytest.mark.parametrize("width", [80, 100, 120, 160])
def test_terminal_table_fits_the_terminal(tmp_path: Path, width: int) -> None:
    run = _table_run(tmp_path)
    table = render_table(run, dry_run=True, terminal=True, width=width)
    lines = table.splitlines()
    assert max(cell_len(line) for line in lines) <= width, table
    rows = [[c.strip() for c in line.strip("│").split("│")] for line in lines if "│" in line]
    assert rows[1][0] == "CM101 temperature"
    header = lines[2]
    assert ("safe" in header) == (width >= 120), "applicability columns only when wide"


def test_terminal_table_at_80_columns_keeps_every_count(tmp_path: Path) -> None:
    run = _table_run(tmp_path)
    table = render_table(run, dry_run=True, terminal=True, width=80)
    rows = [[c.strip() for c in line.strip("│").split("│")] for line in table.splitlines()]
    counts = [row[1:4] for row in rows if row and row[0].startswith("CM1")]
    assert counts == [["2", "2", "0"], ["2", "2", "0"]]


def test_no_progress_bar_when_stderr_is_not_a_terminal(tmp_path: Path) -> None:
    _tree(tmp_path)
    completed = subprocess.run(
        command("fix", "."), cwd=tmp_path, env=env(), capture_output=True, text=True
    )
    assert completed.stderr == ""


def _run_on_terminal(cwd: Path, *args: str) -> tuple[int, str]:
    """Run the CLI with its stderr on a pseudo-terminal; return the exit code and what it showed."""
    main, secondary = pty.openpty()
    variables = {**env(), "TERM": "xterm-256color", "COLUMNS": "120"}
    process = subprocess.Popen(
        command(*args), cwd=cwd, env=variables, stdout=subprocess.DEVNULL, stderr=secondary
    )
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal closed: the process is gone
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return process.wait(), shown.decode("utf-8", "replace")


def test_progress_bar_on_a_terminal_shows_files_fixes_and_eta(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"m{n:02}.py": HEAD + CALL for n in range(30)})
    code, shown = _run_on_terminal(tmp_path, "fix", ".")
    assert code == 0
    assert "30/30" in shown
    assert "files" in shown and "fixes" in shown and "ETA" in shown
    assert "60 fixes" in shown


def test_progress_bar_silent_under_quiet(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"m{n:02}.py": HEAD + CALL for n in range(3)})
    code, shown = _run_on_terminal(tmp_path, "fix", "--quiet", ".")
    assert code == 0
    assert shown == ""


def test_progress_counts_work_in_bytes_not_files() -> None:
    work = Work({"big.py": 99_000, "a.py": 200, "b.py": 200})
    work.advance(FileResult(path="a.py"))
    work.advance(FileResult(path="b.py"))
    assert work.files == 2
    assert work.fraction < 0.02, "two small files of three are not two thirds of the work"
    work.advance(FileResult(path="big.py"))
    assert work.fraction == 1.0
