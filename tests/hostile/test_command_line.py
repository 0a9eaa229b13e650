"""File names that read as options: pre-commit appends the staged files' names to the hook's
command line as they are, after the hook's own options.

A pull request that adds `--config=lax.toml` (and `lax.toml`) would choose the policy its code is
checked against; one that adds `-osetup.py` would have the report written over `setup.py`. Such a
name is an error naming it (exit 2), never an option; `./NAME` or a name after `--` is a file.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, write_tree
from test_inputs import run_cm

VIOLATION = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    "client.messages.create(model='claude-sonnet-4-6', max_tokens=100, temperature=0.9,"
    " messages=[], stream=True)\n"
)
LAX = 'extend = "default"\nignore = ["CM"]\n'
SETUP = "from setuptools import setup\n\nsetup()\n"


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def _repository(root: Path, files: dict[str, str]) -> Path:
    repo = root / "project"
    repo.mkdir()
    _git(repo, "init", "-q")
    write_tree(repo, {"app.py": VIOLATION, "setup.py": SETUP, **files})
    _git(repo, "add", "-A")
    return repo


@pytest.mark.parametrize(
    "name", ["--config=lax.toml", "--baseline=lax.json", "-osetup.py", "--output=setup.py"]
)
def test_a_file_named_like_an_option_is_an_error_not_an_option(tmp_path: Path, name: str) -> None:
    repo = _repository(tmp_path, {name: "{}\n", "lax.toml": LAX, "lax.json": "{}\n"})
    listed = subprocess.run(
        ["git", "ls-files"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.split()
    proc = run_cm("check", "--force-exclude", *listed, cwd=repo)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert repr(name) in err and f"./{name}" in err
    assert (repo / "setup.py").read_text() == SETUP
    named = run_cm("check", "--force-exclude", "app.py", f"./{name}", cwd=repo)
    assert named.returncode == 1 and b"CM101" in named.stdout
    after = run_cm("check", "--force-exclude", "--", "app.py", name, cwd=repo)
    assert after.returncode == 1 and b"CM101" in after.stdout
    assert (repo / "setup.py").read_text() == SETUP


def test_the_pre_commit_hook_never_takes_a_staged_file_name_as_its_policy(
    tmp_path: Path, pre_commit_home: dict[str, str]
) -> None:
    repo = _repository(tmp_path, {"--config=lax.toml": LAX, "lax.toml": LAX})
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRE_COMMIT")}
    env.update(pre_commit_home)
    proc = subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "claude-migrate"]
        + ["--all-files", "--color", "never"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode == 1, output
    assert "claude-migrate (check)" in output and "Failed" in output
    assert "'--config=lax.toml' reads as an option but is the name of a file here" in output
