"""`api.check(request)` / `api.fix(request)`: the commands without click, as data in and out."""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate import api

HOT = (
    "import anthropic\nclient = anthropic.Anthropic()\n"
    'client.messages.create(model="m", max_tokens=1, messages=[], temperature=0.9)\n'
)


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    write_tree(tmp_path, {"app.py": HOT, "claude-migrate.toml": 'select = ["CM101"]\n'})
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def test_a_request_is_frozen() -> None:
    request = api.Request(paths=(Path("."),))
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.quiet = True  # type: ignore[misc]


def test_check_returns_results_report_summary_and_exit_status(project: Path) -> None:
    outcome = api.check(api.Request(paths=(Path("app.py"),), no_cache=True))
    assert outcome.exit_status == 1
    assert [(d.line, d.code) for d in outcome.run.diagnostics] == [(3, "CM101")]
    assert "app.py:3:" in outcome.report and "Found 1 finding" in outcome.report
    assert outcome.messages == [] and outcome.error is None and outcome.diff == ""
    assert (project / "app.py").read_text() == HOT  # check writes nothing


def test_json_output_is_rendered_without_a_summary(project: Path) -> None:
    outcome = api.check(api.Request(paths=(Path("."),), output_format="json", no_cache=True))
    assert json.loads(outcome.report)["summary"]["diagnostics"] == 1


def test_fix_diff_writes_nothing_and_gives_the_diff(project: Path) -> None:
    outcome = api.fix(api.Request(paths=(Path("app.py"),), diff=True, no_cache=True))
    assert outcome.exit_status == 1
    assert "-client.messages.create" in outcome.diff and "temperature=0.0" in outcome.diff
    assert outcome.messages == ["1 file would be changed."]
    assert (project / "app.py").read_text() == HOT


def test_fix_writes_and_exits_0_when_nothing_remains(project: Path) -> None:
    outcome = api.fix(api.Request(paths=(Path("app.py"),), no_cache=True))
    assert outcome.exit_status == 0
    assert "temperature=0.0" in (project / "app.py").read_text()
    assert [r.fixed for r in outcome.run.results] == [["CM101"]]


def test_a_baseline_is_recorded_then_applied(project: Path) -> None:
    recorded = api.check(
        api.Request(paths=(Path("."),), write_baseline=Path("baseline.json"), no_cache=True)
    )
    assert (recorded.exit_status, recorded.recorded) == (0, 1)
    assert recorded.messages == ["claude-migrate: recorded 1 finding in baseline.json"]
    applied = api.check(api.Request(paths=(Path("."),), baseline=Path("baseline.json")))
    assert applied.exit_status == 0 and len(applied.run.baselined) == 1


def test_fixing_standard_input_gives_the_fixed_source_and_reports_on_stderr(project: Path) -> None:
    outcome = api.fix(api.Request(stdin=HOT.encode(), stdin_filename="app.py", no_cache=True))
    assert outcome.fixed_source is not None and b"temperature=0.0" in outcome.fixed_source
    assert outcome.report_to_stderr
    assert (project / "app.py").read_text() == HOT


def test_a_policy_error_is_a_request_error(project: Path) -> None:
    (project / "claude-migrate.toml").write_text("select = 3\n")
    with pytest.raises(api.RequestError, match="claude-migrate.toml"):
        api.check(api.Request(paths=(Path("app.py"),)))


def test_the_cli_module_holds_no_run_logic() -> None:
    """cli.py maps flags and prints: it imports no engine module besides the api."""
    import ast

    from helpers import SRC

    tree = ast.parse((SRC / "claude_migrate" / "cli.py").read_text(encoding="utf-8"))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    assert not imported & {"engine", "baseline", "git", "cache", "report.fixes", "report.text"}


def test_per_file_limits_default_to_the_pools_and_zero_means_no_limit() -> None:
    from claude_migrate.core.job import MIB, Limits

    assert api.Request().limits == Limits()
    assert api.Request(file_timeout=0, file_memory=0).limits == Limits(None, None)
    assert api.Request(file_timeout=5, file_memory=64).limits == Limits(5, 64 * MIB)


def test_fix_leaves_a_read_only_file_unless_force_write_is_asked(project: Path) -> None:
    target = project / "app.py"
    target.chmod(0o444)
    try:
        refused = api.fix(api.Request(paths=(Path("app.py"),), no_cache=True))
        assert target.read_text() == HOT
        assert refused.exit_status == 1
        forced = api.fix(api.Request(paths=(Path("app.py"),), no_cache=True, force_write=True))
        assert "temperature=0.0" in target.read_text()
        assert forced.exit_status == 0
    finally:
        target.chmod(0o644)


def test_the_walk_skipping_a_fifo_is_a_warning_in_the_outcome(project: Path) -> None:
    os.mkfifo(project / "pipe.py")
    outcome = api.check(api.Request(paths=(Path("."),), no_cache=True))
    assert any("pipe.py" in line and "skipped" in line for line in outcome.messages)
