"""A work tree whose own git configuration names programs, and a tree git cannot read for us.

A `.git` folder is the user's only when the user made it: a tree unpacked from an archive or
copied from someone else's disk brings its `.git/config`, `.git/hooks` and the files they
include. Git runs programs those name while it reads a work tree (the file system monitor, a
filter driver's clean program, the `post-index-change` hook), so every git command the tool
starts must leave them unrun. Each test builds a real repository and runs the real command.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from fixbulk import command, env
from helpers import write_tree

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

APP = (
    "import anthropic\n\nclient = anthropic.Anthropic()\n"
    'client.messages.create(model="claude-sonnet-4-6", max_tokens=100, temperature=0.9,'
    " messages=[], stream=True)\n"
)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}  # fmt: skip


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", *args], cwd=repo, env={**os.environ, **GIT_ENV}, capture_output=True, check=True
    )


def _marker_program(marks: Path, name: str) -> str:
    """Return a shell command that leaves a mark named `name` and passes its input through."""
    script = marks.parent / "mark.sh"
    if not script.exists():
        script.write_text('#!/bin/sh\ntouch "$MARKS/$1"\ncat\n')
        script.chmod(0o755)
    return f"MARKS={marks} {script} {name}"


def _hostile_repository(tmp_path: Path) -> tuple[Path, Path]:
    """Return a committed repository whose `.git` names programs, and the folder of marks."""
    repo, marks = tmp_path / "repo", tmp_path / "marks"
    repo.mkdir()
    marks.mkdir()
    _git(repo, "init", "-q")
    write_tree(repo, {"app.py": APP, ".gitattributes": "*.py filter=a.b=c\n"})
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "base")
    git_dir = repo / ".git"
    # A driver name with dots and `=`, defined in a file the repository's config includes.
    (git_dir / "extra.cfg").write_text(
        '[filter "a.b=c"]\n'
        f"\tclean = {_marker_program(marks, 'clean')}\n"
        f"\tsmudge = {_marker_program(marks, 'smudge')}\n"
        "\trequired = true\n"
    )
    with (git_dir / "config").open("a") as config:
        config.write(
            "[include]\n\tpath = extra.cfg\n"
            f"[core]\n\tfsmonitor = {_marker_program(marks, 'fsmonitor')}\n"
        )
    hook = git_dir / "hooks" / "post-index-change"
    hook.parent.mkdir(exist_ok=True)
    hook.write_text(f"#!/bin/sh\ntouch {marks}/post-index-change\n")
    hook.chmod(0o755)
    # Stat data that no longer matches the index: git compares the content, through the filter.
    later = time.time() + 5
    os.utime(repo / "app.py", (later, later))
    return repo, marks


def test_fix_runs_no_program_the_repositorys_own_git_configuration_names(tmp_path: Path) -> None:
    repo, marks = _hostile_repository(tmp_path)
    (repo / "new.py").write_text(APP)  # untracked: fix still tells it apart
    result = subprocess.run(
        command("fix", "."), cwd=repo, env=env(), capture_output=True, text=True, timeout=120
    )
    assert sorted(p.name for p in marks.iterdir()) == []
    assert result.returncode == 0, result.stderr
    assert "temperature=0.0" in (repo / "app.py").read_text()
    said = result.stdout.split("uncommitted changes", 1)[1]
    assert "new.py" in said  # rewritten with uncommitted work: said so
    assert "app.py" not in said


def test_require_clean_still_reads_the_work_tree_with_the_programs_off(tmp_path: Path) -> None:
    repo, marks = _hostile_repository(tmp_path)
    (repo / "app.py").write_text(APP + "# work in progress\n")
    result = subprocess.run(
        command("fix", "--require-clean", "."),
        cwd=repo, env=env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert sorted(p.name for p in marks.iterdir()) == []
    assert result.returncode == 2
    assert "app.py" in result.stderr
    assert "work in progress" in (repo / "app.py").read_text()
