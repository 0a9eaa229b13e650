"""The pre-commit hooks, run by a real `pre-commit` against this checkout.

`pre-commit try-repo` builds the hook's environment from this checkout (a virtualenv with the
package installed from the registry's dependencies), once per checkout revision: the whole
story is told with two runs that share one PRE_COMMIT_HOME (shared with the other hook tests).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import REPO, write_tree

from claude_migrate.discovery.collect import kind_of

HOOKS = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))

VIOLATION = """\
import anthropic

client = anthropic.Anthropic()


def answer(question):
    return client.messages.stream(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature=0.9,
        messages=[{"role": "user", "content": question}],
    )
"""


def _hook(hook_id: str) -> dict:
    (hook,) = [h for h in HOOKS if h["id"] == hook_id]
    return hook


@pytest.mark.parametrize(
    "hook_id", ["claude-migrate", "claude-migrate-fix", "claude-migrate-check-fix"]
)
def test_hooks_are_python_serial_and_honour_policy_excludes(hook_id: str) -> None:
    hook = _hook(hook_id)
    assert hook["language"] == "python"
    assert hook["require_serial"] is True
    assert "--force-exclude" in hook["entry"].split()


def test_fix_hook_fails_when_it_changed_a_file() -> None:
    assert _hook("claude-migrate-fix")["entry"].split()[:2] == ["claude-migrate", "fix"]
    assert "--exit-non-zero-on-fix" in _hook("claude-migrate-fix")["entry"].split()


def test_fix_hook_leaves_the_findings_to_the_check_hook() -> None:
    assert "--fix-only" in _hook("claude-migrate-fix")["entry"].split()


def test_one_hook_checks_and_fixes() -> None:
    entry = _hook("claude-migrate-check-fix")["entry"].split()
    assert entry[:3] == ["claude-migrate", "check", "--fix"]
    assert "--exit-non-zero-on-fix" in entry


@pytest.mark.parametrize(
    "path",
    [
        "app/chat.py",
        "stubs/client.pyi",
        "gui/chat.pyw",
        "setup.py",
        "requirements.txt",
        "requirements-dev.txt",
        "dev-requirements.txt",
        "requirements/base.txt",
        "services/api/requirements/prod.txt",
        "requirements.in",
        "deps/dev.in",
        "constraints.txt",
        "constraints-ci.txt",
        "pyproject.toml",
        "services/api/pyproject.toml",
        "setup.cfg",
        "Pipfile",
        "Pipfile.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
        "config/settings.yaml",
        "router.yml",
        "models.json",
        "app.toml",
        "mypyproject.toml",
        ".env",
        "deploy/.env.example",
        "tox.ini",
        "service.cfg",
    ],
)
def test_hook_files_pattern_covers_python_dependency_and_config_files(path: str) -> None:
    # pre-commit matches `files` and `exclude` with re.search against the repository-relative
    # path; the hook takes what the tool reads.
    assert kind_of(Path(path)) is not None
    for hook in HOOKS:
        assert re.search(hook["files"], path), (hook["id"], path)
        assert not re.search(hook["exclude"], path), (hook["id"], path)


@pytest.mark.parametrize(
    "path",
    [
        "README.md",
        "app/chat.py.orig",
        "notes.txt",
        "web/package-lock.json",
        "pnpm-lock.yaml",
        "claude-migrate.toml",
        "envfile",
    ],
)
def test_hook_files_pattern_leaves_other_files_out(path: str) -> None:
    assert kind_of(Path(path)) is None
    for hook in HOOKS:
        assert not re.search(hook["files"], path) or re.search(hook["exclude"], path), (
            hook["id"],
            path,
        )


@pytest.mark.xfail(
    strict=True,
    reason="the hooks' `files` pattern names suffixes only: a script with no suffix that runs "
    "Python by its shebang is checked by a walk but never passed to a hook; admitting names "
    "with no suffix would pass every Makefile, and naming only files the tool cannot read "
    "exits 2",
)
def test_a_script_that_runs_python_by_its_shebang_reaches_the_hooks(tmp_path: Path) -> None:
    script = tmp_path / "bin" / "deploy"
    write_tree(tmp_path, {"bin/deploy": "#!/usr/bin/env python3\nimport anthropic\n"})
    assert kind_of(script) == "python"
    for hook in HOOKS:
        assert re.search(hook["files"], "bin/deploy"), hook["id"]


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _try_repo(repo: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def _status(output: str, name: str) -> str:
    match = re.search(rf"^{re.escape(name)}\.+(Passed|Failed|Skipped)", output, re.M)
    assert match, output
    return match.group(1)


def test_real_pre_commit_fails_on_a_violation_fixes_it_and_then_passes(
    tmp_path: Path, pre_commit_home: dict[str, str]
) -> None:
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.name", "Test")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "commit.gpgsign", "false")
    write_tree(
        repo,
        {
            "claude-migrate.toml": 'exclude = ["legacy/**"]\n',
            "app/chat.py": VIOLATION,
            "requirements.txt": "anthropic==0.28.0\nrequests>=2\n",
            "legacy/old.py": VIOLATION,  # excluded by the policy, though pre-commit names it
            "README.md": "not Python\n",
        },
    )
    _git(repo, "add", "-A")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "PRE_COMMIT", "VIRTUAL_ENV"))
    }
    env.update(pre_commit_home)

    first = _try_repo(repo, env)
    output = first.stdout + first.stderr
    assert first.returncode == 1, output
    assert _status(output, "claude-migrate (check)") == "Failed"
    assert "app/chat.py:10:9: CM101 [*] temperature 0.9 is above the policy maximum 0.2" in output
    assert "requirements.txt:1:1: CM201 [*] anthropic ==0.28.0 admits versions below" in output
    assert "legacy/old.py" not in output
    assert output.count("app/chat.py:10:9: CM101") == 1, "the findings are printed once"
    assert "1 × CM101 (temperature)" in output, "the fixing hook says what it fixed"
    # try-repo runs the hooks in the order of their ids: the one that checks and fixes fixes.
    assert _status(output, "claude-migrate (check and fix)") == "Failed", output
    assert "files were modified by this hook" in output
    fixed = (repo / "app/chat.py").read_text(encoding="utf-8")
    assert fixed == VIOLATION.replace("temperature=0.9", "temperature=0.0")
    assert (repo / "requirements.txt").read_text() == "anthropic==0.33.0\nrequests>=2\n"
    assert (repo / "legacy/old.py").read_text(encoding="utf-8") == VIOLATION

    _git(repo, "add", "-A")  # the user re-stages the fixed file
    second = _try_repo(repo, env)
    output = second.stdout + second.stderr
    assert second.returncode == 0, output
    assert _status(output, "claude-migrate (check)") == "Passed"
    assert _status(output, "claude-migrate (fix)") == "Passed"
    assert _status(output, "claude-migrate (check and fix)") == "Passed"


def _one_hook(tmp_path: Path, env: dict[str, str], hook_id: str) -> tuple[Path, str]:
    """Run one hook with try-repo on a repository whose file has a fix and a finding left."""
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q")
    left = VIOLATION.replace('"claude-sonnet-4-6"', '"claude-2.1"')
    write_tree(repo, {"app/chat.py": left})
    _git(repo, "add", "-A")
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GIT_", "PRE_COMMIT", "VIRTUAL_ENV"))
    }
    completed = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), hook_id, "--color", "never"],
        cwd=repo, env={**clean, **env}, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    output = completed.stdout + completed.stderr
    assert completed.returncode == 1, output
    assert "temperature=0.0" in (repo / "app/chat.py").read_text(encoding="utf-8")
    assert "1 × CM101 (temperature)" in output
    return repo, output


def test_real_pre_commit_single_hook_fixes_and_reports_what_is_left(
    tmp_path: Path, pre_commit_home: dict[str, str]
) -> None:
    _, output = _one_hook(tmp_path, pre_commit_home, "claude-migrate-check-fix")
    assert _status(output, "claude-migrate (check and fix)") == "Failed"
    assert output.count("app/chat.py:8:9: CM302") == 1, output


def test_real_pre_commit_fix_hook_leaves_the_findings_to_the_check_hook(
    tmp_path: Path, pre_commit_home: dict[str, str]
) -> None:
    _, output = _one_hook(tmp_path, pre_commit_home, "claude-migrate-fix")
    assert _status(output, "claude-migrate (fix)") == "Failed"
    assert "CM302" not in output, output
    assert "1 finding left, not reported (--fix-only)" in output
