"""Every fixture golden (`<case>.fixed.py`) reproduced through the whole command line.

test_fixtures.py checks the goldens through the API; here a copy of each case goes through
`claude-migrate fix` as a user runs it (options parsed, policy found, files written), and a
second run must change nothing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import Cli
from test_fixtures import ALL_RULES, cases

from claude_migrate.checks import CHECKS_BY_NAME


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fix_through_the_cli_matches_the_golden_and_settles(case: Path, tmp_path: Path) -> None:
    work = tmp_path / case.name
    shutil.copyfile(case, work)
    args = ["fix", "--unsafe-fixes"]
    if case.parent.name not in ALL_RULES:
        args += ["--select", CHECKS_BY_NAME[case.parent.name].code]
    policy = case.with_suffix(".toml")
    if policy.is_file():
        args += ["--config", str(policy)]
    cli = Cli(tmp_path)
    result = cli(*args, case.name)
    assert result.exit_code in (0, 1), result.output
    golden = case.with_name(case.stem + ".fixed.py")
    expected = golden.read_bytes() if golden.is_file() else case.read_bytes()
    assert work.read_bytes() == expected
    again = cli(*args, case.name)
    assert "Fixed 0," in again.stdout
    assert work.read_bytes() == expected
