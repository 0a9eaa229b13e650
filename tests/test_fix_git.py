"""Git awareness: `fix` says when it rewrote files with uncommitted work; --require-clean refuses.

"Uncommitted" means unstaged (work tree differs from the index) or untracked. Staged-only
changes do not count: the fix's edits stay a separate `git diff`, and that is the state of every
file the pre-commit fix hook gets, so the hook is never blocked (shown with a real pre-commit).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from fixbulk import env, run_cli
from helpers import SRC, write_tree

from claude_migrate.discovery import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

HEAD = "import anthropic\nclient = anthropic.Anthropic()\n"
CALL = (
    'client.messages.create(model="m", temperature=0.9, max_tokens=10, messages=[], stream=True)\n'
)
FIXED = CALL.replace("0.9", "0.0")
GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}  # fmt: skip


def _git(repo: Path, *args: str) -> str:
    completed = subprocess.run(
        ["git", *args],
        cwd=repo,
        env={**os.environ, **GIT_ENV},
        capture_output=True,
        text=True,
        check=True,
    )
    return completed.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """committed.py clean; unstaged.py edited; staged.py edited and staged; new.py untracked."""
    _git(tmp_path, "init", "-q")
    write_tree(
        tmp_path, {name: HEAD + CALL for name in ("committed.py", "unstaged.py", "staged.py")}
    )
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "base")
    write_tree(tmp_path, {
        "unstaged.py": HEAD + "# work in progress\n" + CALL,
        "staged.py": HEAD + "# staged work\n" + CALL,
        "new.py": HEAD + CALL,
    })  # fmt: skip
    _git(tmp_path, "add", "staged.py")
    return tmp_path


def test_scan_counts_unstaged_and_untracked_not_staged(repo: Path) -> None:
    state = git.scan([repo / "committed.py"])
    assert state.problems == []
    assert {Path(p).name for p in state.dirty} == {"unstaged.py", "new.py"}


def test_fix_summary_names_rewritten_files_with_uncommitted_changes(repo: Path) -> None:
    completed = run_cli("fix", "--report", "../report.json", ".", cwd=repo)
    assert completed.returncode == 0, completed.stderr
    for name in ("committed.py", "unstaged.py", "staged.py", "new.py"):
        assert (repo / name).read_text().endswith(FIXED), name
    assert (
        "Note: fix rewrote 2 files that already had uncommitted changes, so the migration diff "
        "mixes with other work: new.py, unstaged.py." in completed.stdout
    )
    report = json.loads((repo.parent / "report.json").read_text())
    assert report["uncommitted"] == ["new.py", "unstaged.py"]
    flags = {c["path"]: c["had_uncommitted_changes"] for c in report["changed"]}
    assert flags == {"committed.py": False, "new.py": True, "staged.py": False, "unstaged.py": True}


def test_require_clean_refuses_and_writes_nothing(repo: Path) -> None:
    before = {p.name: p.read_bytes() for p in repo.glob("*.py")}
    completed = run_cli("fix", "--require-clean", ".", cwd=repo)
    assert completed.returncode == 2
    assert "--require-clean: fix would rewrite 2 files with uncommitted changes" in completed.stderr
    assert "  new.py\n  unstaged.py" in completed.stderr
    assert {p.name: p.read_bytes() for p in repo.glob("*.py")} == before


def test_require_clean_runs_when_uncommitted_files_need_no_fix(repo: Path) -> None:
    (repo / "unstaged.py").write_text(HEAD + "# work in progress, nothing to fix\n")
    (repo / "new.py").unlink()
    completed = run_cli("fix", "--require-clean", ".", cwd=repo)
    assert completed.returncode == 0, completed.stderr
    assert (repo / "committed.py").read_text().endswith(FIXED)
    assert (repo / "staged.py").read_text().endswith(FIXED)  # staged work is not "uncommitted"
    assert "Note:" not in completed.stdout


def test_fix_outside_a_git_work_tree_has_no_note(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": HEAD + CALL})
    completed = run_cli("fix", "--require-clean", ".", cwd=tmp_path)
    assert completed.returncode == 0
    assert "Note:" not in completed.stdout


def test_pre_commit_fix_hook_with_require_clean_is_not_blocked(
    repo: Path, tmp_path_factory
) -> None:  # type: ignore[no-untyped-def]
    pre_commit = shutil.which("pre-commit", path=str(Path(sys.executable).parent))
    if pre_commit is None:
        pytest.skip("pre-commit is not installed")
    (repo / ".pre-commit-config.yaml").write_text(
        "repos:\n- repo: local\n  hooks:\n  - id: claude-migrate-fix\n"
        "    name: claude-migrate (fix)\n"
        f"    entry: {sys.executable} -m claude_migrate fix --force-exclude --require-clean\n"
        "    language: system\n    types_or: [python, pyi]\n"
    )
    (repo / "unstaged.py").write_text(HEAD + "# edited later, not staged\n" + CALL)
    _git(repo, "add", ".pre-commit-config.yaml", "new.py")
    variables = {**env(), **GIT_ENV, "PRE_COMMIT_HOME": str(tmp_path_factory.mktemp("pc"))}
    variables["PYTHONPATH"] = str(SRC)
    subprocess.run(
        [pre_commit, "install"], cwd=repo, env=variables, check=True, capture_output=True
    )
    commit = subprocess.run(
        ["git", "commit", "-m", "add new.py"],
        cwd=repo,
        env=variables,
        capture_output=True,
        text=True,
    )
    output = commit.stdout + commit.stderr
    assert commit.returncode == 1, output  # the hook fixed files: the user re-stages
    assert "files were modified by this hook" in output
    assert "require-clean" not in output
    assert (repo / "new.py").read_text() == HEAD + FIXED
    assert (repo / "staged.py").read_text() == HEAD + "# staged work\n" + FIXED
    # pre-commit set the unstaged edit aside while the hook ran, and put it back untouched.
    assert (repo / "unstaged.py").read_text() == HEAD + "# edited later, not staged\n" + CALL


def test_a_git_status_stalled_by_the_trees_own_ignore_file_is_a_problem_not_a_hang(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git matches the tree's `.gitignore` against each untracked file: `*a*a...*ab` beside a
    240-letter name keeps `git status` busy for minutes, so `fix` gives it a time limit and then
    cannot tell what is uncommitted (`--require-clean` then stops with that reason)."""
    write_tree(
        tmp_path, {".gitignore": "*a" * 120 + "b\n", "a" * 240 + ".py": HEAD}
    )  # fmt: skip
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    monkeypatch.setattr(git, "STATUS_TIMEOUT", 1.0)
    state = git.scan([tmp_path / ("a" * 240 + ".py")])
    assert state.problems == [f"{tmp_path}: git status did not answer within 1 seconds"]
