"""Editor and pipe use: `check -` and `fix -` with `--stdin-filename`, and fix exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import SRC, Cli, write_tree

SOURCE = (
    "import anthropic\r\n"
    "client = anthropic.Anthropic()\r\n"
    'client.messages.stream(model="m", max_tokens=10, temperature=0.9, messages=[])\r\n'
)
FIXED = SOURCE.replace("temperature=0.9", "temperature=0.0")


def test_check_reads_stdin_and_reports_under_the_given_name(cli: Cli, tmp_path: Path) -> None:
    result = cli("check", "--stdin-filename", "app/x.py", "-", "--format", "json", input=SOURCE)
    assert result.exit_code == 1
    (finding,) = json.loads(result.stdout)["diagnostics"]
    assert (finding["path"], finding["line"], finding["code"]) == ("app/x.py", 3, "CM101")
    assert not (tmp_path / "app").exists()


def test_stdin_filename_alone_reads_stdin(cli: Cli) -> None:
    result = cli("check", "--stdin-filename", "x.py", "--format", "concise", "-q", input=SOURCE)
    assert result.stdout.startswith("x.py:3:")


def test_stdin_gets_the_policy_of_its_filename(cli: Cli, tmp_path: Path) -> None:
    policy = '[[overrides]]\npaths = ["creative/**"]\ntemperature = { max = 1.0 }\n'
    write_tree(tmp_path, {"claude-migrate.toml": policy})
    assert cli("check", "--stdin-filename", "creative/x.py", "-", input=SOURCE).exit_code == 0
    assert cli("check", "--stdin-filename", "app/x.py", "-", input=SOURCE).exit_code == 1


def test_stdin_excluded_by_policy_is_not_checked_with_force_exclude(
    cli: Cli, tmp_path: Path
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": 'exclude = ["legacy/**"]\n'})
    args = ("check", "--stdin-filename", "legacy/x.py", "-")
    assert cli(*args, input=SOURCE).exit_code == 1
    assert cli(*args, "--force-exclude", input=SOURCE).exit_code == 0


def _run_bytes(tmp_path: Path, data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the real command with bytes in and out, as an editor integration does."""
    return subprocess.run(
        [sys.executable, "-m", "claude_migrate", *args],
        input=data,
        capture_output=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        timeout=120,
    )


def test_fix_prints_the_fixed_source_byte_for_byte(tmp_path: Path) -> None:
    result = _run_bytes(tmp_path, SOURCE.encode(), "fix", "--stdin-filename", "x.py", "-")
    assert result.returncode == 0, result.stderr
    assert result.stdout == FIXED.encode()
    assert b"Fixed 1, 0 remaining" in result.stderr
    assert not (tmp_path / "x.py").exists()


def test_fix_on_stdin_reports_what_remains_on_stderr(cli: Cli) -> None:
    source = SOURCE.replace("max_tokens=10", "max_tokens=9000")
    result = cli("fix", "--stdin-filename", "x.py", "-", "--select", "CM101", input=source)
    assert result.exit_code == 0
    result = cli("fix", "--stdin-filename", "x.py", "-", "--ignore", "CM102", input=source)
    assert result.stdout_bytes == source.replace("temperature=0.9", "temperature=0.0").encode()


def test_fix_on_stdin_with_nothing_to_fix_echoes_the_input(cli: Cli) -> None:
    result = cli("fix", "--stdin-filename", "notes.txt", "-", input="just text\n")
    assert result.exit_code == 0
    assert result.stdout == "just text\n"
    result = cli("fix", "-", input=FIXED)
    assert result.stdout_bytes == FIXED.encode()


def test_fix_on_stdin_keeps_a_bom_and_a_coding_cookie(tmp_path: Path) -> None:
    source = "# -*- coding: latin-1 -*-\n# caf\xe9\n" + SOURCE
    result = _run_bytes(tmp_path, b"\xef\xbb\xbf" + SOURCE.encode(), "fix", "-")
    assert result.stdout == b"\xef\xbb\xbf" + FIXED.encode()
    result = _run_bytes(tmp_path, source.encode("latin-1"), "fix", "-")
    assert result.stdout == source.replace("temperature=0.9", "temperature=0.0").encode("latin-1")


def test_undecodable_stdin_is_a_cm001_error(tmp_path: Path) -> None:
    data = b"# -*- coding: ascii -*-\nx = '\xff'\n"
    completed = _run_bytes(tmp_path, data, "check", "--stdin-filename", "x.py", "-")
    assert completed.returncode == 1
    assert b"x.py:2: CM001 cannot decode as ascii" in completed.stdout
    # `fix` must hand an editor its buffer back unchanged, never an empty one.
    fixed = _run_bytes(tmp_path, data, "fix", "--stdin-filename", "x.py", "-")
    assert fixed.stdout == data
    assert b"CM001" in fixed.stderr


def test_stdin_cannot_be_mixed_with_paths(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": ""})
    result = cli("check", "a.py", "-", input=SOURCE)
    assert result.exit_code == 2
    assert "cannot be mixed" in result.output


def test_exit_non_zero_on_fix_fails_when_a_file_changed(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    assert cli("fix", "a.py", "--exit-non-zero-on-fix").exit_code == 1
    assert (tmp_path / "a.py").read_bytes().decode() == FIXED
    # Nothing left to change: the same command now passes.
    assert cli("fix", "a.py", "--exit-non-zero-on-fix").exit_code == 0


def test_fix_without_the_flag_passes_when_everything_was_fixed(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    assert cli("fix", "a.py").exit_code == 0
