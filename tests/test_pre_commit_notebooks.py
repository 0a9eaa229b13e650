"""Both pre-commit hooks take notebooks: a real `pre-commit` run on a repository holding them."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, write_tree
from test_pre_commit import HOOKS, _git, _status, _try_repo

NOTEBOOKS = FIXTURES / "notebooks"


@pytest.mark.parametrize("path", ["demo.ipynb", "notebooks/eval/run.ipynb"])
def test_hook_files_pattern_covers_notebooks(path: str) -> None:
    for hook in HOOKS:
        assert re.search(hook["files"], path), (hook["id"], path)


@pytest.mark.parametrize("path", ["demo.ipynb.orig", "notebooks/run.ipynb.bak"])
def test_hook_files_pattern_leaves_notebook_lookalikes_out(path: str) -> None:
    for hook in HOOKS:
        assert not re.search(hook["files"], path), (hook["id"], path)


def test_real_pre_commit_checks_and_fixes_a_staged_notebook(
    tmp_path: Path, pre_commit_home: dict[str, str]
) -> None:
    repo = tmp_path / "project"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.name", "Test")
    _git(repo, "config", "user.email", "test@example.com")
    _git(repo, "config", "commit.gpgsign", "false")
    write_tree(repo, {"README.md": "notes\n"})
    (repo / "nb").mkdir()
    shutil.copyfile(NOTEBOOKS / "crlf.ipynb", repo / "nb" / "classify.ipynb")
    shutil.copyfile(NOTEBOOKS / "one_string.ipynb", repo / "nb" / "screen.ipynb")
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
    assert "nb/classify.ipynb:cell 3:4:3: CM101 [*] temperature 0.8 is above" in output
    assert "nb/screen.ipynb:cell 3:3:32: CM102 [*] max_tokens 2048 is above" in output
    # try-repo runs the hooks in the order of their ids: the one that checks and fixes fixes.
    assert _status(output, "claude-migrate (check and fix)") == "Failed"
    assert "files were modified by this hook" in output
    for name, case in (("classify", "crlf"), ("screen", "one_string")):
        fixed = (repo / "nb" / f"{name}.ipynb").read_bytes()
        assert fixed == (NOTEBOOKS / f"{case}.fixed.ipynb").read_bytes(), name

    _git(repo, "add", "-A")
    second = _try_repo(repo, env)
    output = second.stdout + second.stderr
    assert second.returncode == 0, output
    assert _status(output, "claude-migrate (check)") == "Passed"
    assert _status(output, "claude-migrate (fix)") == "Passed"
    assert _status(output, "claude-migrate (check and fix)") == "Passed"
