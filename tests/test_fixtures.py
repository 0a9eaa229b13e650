"""Every fixture under fixtures/<rule-name>/ is a test case.

`<case>.py` marks each expected finding with `# expect: CODE` on the line where it starts;
`<case>.fixed.py` is the golden output of `fix --unsafe-fixes` for that rule alone (no golden
means the rule must change nothing). Every fixed output must parse, and a second `fix` must
change nothing. A `<case>.toml` next to a case is the policy it runs under.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import libcst as cst
import pytest
from helpers import FIXTURES, marked_lines

from claude_migrate.api import collect_jobs, execute
from claude_migrate.checks import CHECKS_BY_NAME
from claude_migrate.core.job import Options
from claude_migrate.policy.config import PolicyLoader

# Folders whose cases run with every rule on (fixtures/demo is a tree: tests/test_app_tree.py).
ALL_RULES = {"precision"}


def cases() -> list[Path]:
    found = []
    for folder in sorted(p for p in FIXTURES.iterdir() if p.is_dir()):
        if folder.name not in CHECKS_BY_NAME and folder.name not in ALL_RULES:
            continue
        for case in sorted(folder.glob("*.py")):
            if not case.name.endswith(".fixed.py"):
                found.append(case)
    return found


def expected(case: Path) -> set[tuple[int, str]]:
    return marked_lines(case)


def _run(path: Path, case: Path, fix: bool):
    rule = case.parent.name
    select = None if rule in ALL_RULES else [CHECKS_BY_NAME[rule].code]
    config = case.with_suffix(".toml")
    loader = PolicyLoader(config if config.is_file() else None)
    jobs = collect_jobs([path], loader, select)
    return execute(jobs, Options(fix=fix, unsafe=True), workers=1)


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_reports_exactly_the_marked_lines(case: Path) -> None:
    run = _run(case, case, fix=False)
    assert not run.errors, run.errors
    found = {(d.line, d.code) for d in run.diagnostics}
    assert found == expected(case)


@pytest.mark.parametrize("case", cases(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_fixture_fix_matches_golden_parses_and_settles(case: Path, tmp_path: Path) -> None:
    work = tmp_path / case.name
    shutil.copyfile(case, work)
    golden = case.with_name(case.stem + ".fixed.py")
    _run(work, case, fix=True)
    fixed = work.read_bytes()
    if golden.is_file():
        assert fixed.decode() == golden.read_text(encoding="utf-8")
    else:
        assert fixed == case.read_bytes(), "a case without a golden must not change"
    cst.parse_module(fixed)
    _run(work, case, fix=True)
    assert work.read_bytes() == fixed, "a second fix changed the file"


def test_every_all_rules_folder_exists_and_holds_cases() -> None:
    for name in ALL_RULES:
        folder = FIXTURES / name
        assert folder.is_dir(), f"ALL_RULES names {folder}, which does not exist"
        assert any(case.parent == folder for case in cases()), f"{folder} holds no case"
