"""A work tree whose own git configuration names programs, and a tree git cannot read for us.

A `.git` folder is the user's only when the user made it: a tree unpacked from an archive or
copied from someone else's disk brings its `.git/config`, `.git/hooks` and the files they
include. Git runs programs those name while it reads a work tree (the file system monitor, a
filter driver's clean program, the `post-index-change` hook), so every git command the tool
starts must leave them unrun. Each test builds a real repository and runs the real command.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import struct
import subprocess
import time
from pathlib import Path

import pytest
from fixbulk import command, env
from helpers import write_tree

from claude_migrate.discovery import git_index

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


def _no_git_environment(tmp_path: Path) -> dict[str, str]:
    """Return the command's environment with no `git` on PATH (a slim container image)."""
    bare = tmp_path / "bin-without-git"
    bare.mkdir(exist_ok=True)
    return {**env(), "PATH": str(bare)}


@pytest.mark.parametrize(
    "hidden",
    [
        {".gitignore": "hidden.py\n", "hidden.py": APP},
        {"pkg/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n", "pkg/app2.py": APP},
        {".gitignore": "vendor/\n", "vendor/client.py": APP},
    ],
    ids=["ignored-file", "committed-cache-marker", "ignored-folder"],
)
def test_a_tracked_file_is_not_hidden_where_git_cannot_list_what_it_tracks(
    tmp_path: Path, hidden: dict[str, str]
) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q")
    write_tree(repo, {"app.py": APP, **hidden})
    _git(repo, "add", "-f", ".")
    _git(repo, "commit", "-qm", "base")
    result = subprocess.run(
        command("check", "--format", "json", "."),
        cwd=repo, env=_no_git_environment(tmp_path), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    paths = {d["path"] for d in json.loads(result.stdout)["diagnostics"]}
    assert paths == {"app.py", next(name for name in hidden if name.endswith(".py"))}


def _ls_files(repo: Path) -> frozenset[str]:
    completed = subprocess.run(
        ["git", "ls-files", "-z", "--cached"], cwd=repo, capture_output=True, check=True,
        env={**os.environ, **GIT_ENV},
    )  # fmt: skip
    return frozenset(os.fsdecode(name) for name in completed.stdout.split(b"\0") if name)


def _varied_repository(repo: Path, *init: str) -> None:
    repo.mkdir()
    _git(repo, "init", "-q", *init)
    deep = "/".join(["d" * 200] * 3)
    write_tree(repo, {
        "a.py": "x\n", "pkg/b.py": "y\n", "pkg/bé ü.py": "z\n", f"{deep}/long.py": "w\n",
        "pkg/c.py": "v\n", "pkga.py": "u\n", "later.py": "t\n",
    })  # fmt: skip
    _git(repo, "add", "a.py", "pkg", "pkga.py", "d" * 200)
    _git(repo, "commit", "-qm", "base")
    _git(repo, "add", "-N", "later.py")  # intent to add: an extended entry (version 3)


@pytest.mark.parametrize("version", ["2", "3", "4"])
def test_the_index_file_lists_what_git_lists(tmp_path: Path, version: str) -> None:
    repo = tmp_path / "repo"
    _varied_repository(repo)
    _git(repo, "update-index", "--index-version", version)
    assert git_index.tracked_in_index(repo) == _ls_files(repo)
    assert "later.py" in _ls_files(repo)


def test_a_sha256_repositorys_index_lists_what_git_lists(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    try:
        _varied_repository(repo, "--object-format=sha256")
    except subprocess.CalledProcessError:
        pytest.skip("this git makes no SHA-256 repositories")
    assert git_index.tracked_in_index(repo) == _ls_files(repo)


def test_a_split_index_lists_only_part_and_is_not_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _varied_repository(repo)
    _git(repo, "update-index", "--split-index")
    assert git_index.tracked_in_index(repo) is None


def test_a_malformed_index_is_unknown_never_an_error_or_a_hang(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _varied_repository(repo)
    index = repo / ".git" / "index"
    data = index.read_bytes()
    for broken in (
        data[: len(data) // 2],
        data[:12],
        b"DIRC\0\0\0\2\xff\xff\xff\xff" + b"\0" * 64,
        b"DIRC\0\0\0\4\0\0\0\1" + b"\0" * 62 + b"\xff" * 40,
        b"not an index at all",
    ):
        index.write_bytes(broken)
        assert git_index.tracked_in_index(repo) is None
    index.unlink()
    os.mkfifo(index)
    assert git_index.tracked_in_index(repo) is None


def test_an_index_whose_names_outgrow_the_file_is_not_read(tmp_path: Path) -> None:
    # Version 4 names keep the one before and add a suffix: 100,000 entries of one more byte
    # each would spell five gigabytes of names from a file of a few megabytes.
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    stat = b"\0" * 24 + struct.pack(">I", 0o100644) + b"\0" * 32  # the mode, a null name
    body = b"".join(
        stat + struct.pack(">H", min(n, 0xFFF)) + b"\0x\0"  # strip nothing, add "x"
        for n in range(1, 100_001)
    )
    data = b"DIRC" + struct.pack(">II", 4, 100_000) + body
    (repo / ".git" / "index").write_bytes(data + hashlib.sha1(data).digest())
    assert git_index.tracked_in_index(repo) is None


@pytest.mark.xfail(
    strict=True,
    reason="outside a real checkout (an archive, a CI artifact) the tree brings its own `.git`: "
    "an empty one, or a repository that tracks nothing, makes its `.gitignore` apply, and "
    "neither git nor the index can say the file came with the change",
)
def test_a_tree_that_is_no_checkout_cannot_hide_a_file_behind_its_own_git_folder(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "unpacked"
    write_tree(tree, {"app.py": APP, "hidden.py": APP, ".gitignore": "hidden.py\n"})
    (tree / ".git").mkdir()
    result = subprocess.run(
        command("check", "--no-cache", "--format", "json", "."),
        cwd=tree, env=env(), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    paths = {d["path"] for d in json.loads(result.stdout)["diagnostics"]}
    assert paths == {"app.py", "hidden.py"}
