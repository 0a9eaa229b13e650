"""Which files have uncommitted changes in a git work tree, so `fix` can warn or refuse.

"Uncommitted" here means changes a migration diff would mix with: the work-tree copy differs
from the index (unstaged edits, a deletion, a merge conflict), or the file is untracked. A file
whose changes are all staged is not counted: `fix` writes to the work tree only, so its edits
stay a separate `git diff` on top of the staged `git diff --cached`. That is exactly the state
of every file the pre-commit fix hook is given (pre-commit stashes unstaged edits before running
hooks), so the hook is never warned or blocked, while a bulk run over a tree with work in
progress is.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path


class GitError(Exception):
    """git could not tell the state of a work tree."""


@dataclass
class WorkTreeState:
    """The files with uncommitted changes under the work trees of some paths."""

    dirty: set[str] = field(default_factory=set)  # real paths
    problems: list[str] = field(default_factory=list)

    def is_dirty(self, path: str | Path) -> bool:
        return os.path.realpath(path) in self.dirty


def work_tree_root(folder: Path, cache: dict[Path, Path | None] | None = None) -> Path | None:
    """Return the top of the git work tree holding `folder`, or None outside one."""
    cache = {} if cache is None else cache
    seen: list[Path] = []
    current = folder
    root: Path | None = None
    while True:
        if current in cache:
            root = cache[current]
            break
        seen.append(current)
        if (current / ".git").exists():  # a folder, or a file in linked work trees/submodules
            root = current
            break
        if current.parent == current:
            break
        current = current.parent
    for folder_seen in seen:
        cache[folder_seen] = root
    return root


# git matches the tree's own ignore files against every untracked file: a hostile pattern
# (`*a*a*a*a*a*b` beside a long name) keeps it busy for minutes, so it is given this long.
STATUS_TIMEOUT = 60.0


def _status(root: Path) -> set[str]:
    """Return the real paths of the files with uncommitted changes in one work tree."""
    import subprocess  # git runs only when a fix needs to know what is uncommitted

    try:
        completed = subprocess.run(
            [
                "git", "-C", str(root), "status", "--porcelain=v1", "-z",
                "--untracked-files=all", "--no-renames", "--ignore-submodules=all",
            ],
            capture_output=True,
            check=False,
            timeout=STATUS_TIMEOUT,
        )  # fmt: skip
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror or exc}") from None
    except subprocess.TimeoutExpired:
        raise GitError(f"git status did not answer within {STATUS_TIMEOUT:g} seconds") from None
    if completed.returncode != 0:
        message = completed.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(message[-1] if message else f"git status exited {completed.returncode}")
    dirty: set[str] = set()
    real_root = os.path.realpath(root)
    for entry in completed.stdout.split(b"\0"):
        if len(entry) < 4:
            continue
        index, worktree = chr(entry[0]), chr(entry[1])
        relative = os.fsdecode(entry[3:])
        untracked = index == "?" and worktree == "?"
        conflicted = "U" in (index, worktree) or (index == worktree and index in "AD")
        if untracked or conflicted or worktree != " ":
            dirty.add(os.path.join(real_root, relative))
    return dirty


def scan(paths: Iterable[str | Path]) -> WorkTreeState:
    """Return which of the work trees holding `paths` have files with uncommitted changes."""
    cache: dict[Path, Path | None] = {}
    roots: set[Path] = set()
    for path in paths:
        root = work_tree_root(Path(os.path.abspath(path)).parent, cache)
        if root is not None:
            roots.add(root)
    state = WorkTreeState()
    for root in sorted(roots):
        try:
            state.dirty |= _status(root)
        except GitError as exc:
            state.problems.append(f"{root}: {exc}")
    return state


def tracked_files(root: Path) -> frozenset[str]:
    """Return the paths (relative to `root`, forward slashes) git tracks in a work tree.

    An ignore file applies only to untracked files: git still tracks, diffs and ships a file
    a `.gitignore` names once it was added (https://git-scm.com/docs/gitignore), so a check of
    the tree must read it too. Empty when git cannot tell (not installed, not a repository).
    """
    import subprocess  # git runs only when an ignore file would leave a file out

    try:
        completed = subprocess.run(
            ["git", "-c", "core.fsmonitor=false", "-C", str(root), "ls-files", "-z", "--cached"],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    if completed.returncode != 0:
        return frozenset()
    return frozenset(os.fsdecode(entry) for entry in completed.stdout.split(b"\0") if entry)


def is_tracked(path: Path) -> bool:
    """Return whether git tracks the file at `path` (its real path) in the work tree holding it.

    git runs at the top of that work tree (found by its `.git`), never in a folder below it: a
    tree may commit a bare repository's files in a folder (`HEAD`, `config`, `objects/`), and git
    started there would read that `config`. False when git cannot tell.
    """
    import subprocess

    real = Path(os.path.realpath(path))
    root = work_tree_root(real.parent)
    if root is None:
        return False
    try:
        completed = subprocess.run(
            [
                "git", "-c", "core.fsmonitor=false", "-C", str(root), "ls-files", "-z",
                "--cached", "--", str(real.relative_to(os.path.realpath(root))),
            ],
            capture_output=True,
            check=False,
            timeout=60,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError, ValueError):
        return False
    return completed.returncode == 0 and bool(completed.stdout.strip(b"\0"))
