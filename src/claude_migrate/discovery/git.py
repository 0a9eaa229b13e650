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


# What git may run on its own while it reads a work tree, each set off for the tool's calls:
# the file system monitor (`core.fsmonitor`, a command git starts to list changed files) and
# hooks (`post-index-change` runs when a command writes the index it refreshed; with optional
# locks off it writes none). https://git-scm.com/docs/git-config#Documentation/git-config.txt-corefsmonitor
# https://git-scm.com/docs/githooks#_post_index_change https://git-scm.com/docs/git#Documentation/git.txt---no-optional-locks
_QUIET_GIT = ("--no-optional-locks", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null")
# The keys of a filter driver that name a program (https://git-scm.com/docs/gitattributes#_filter):
# git runs the clean filter of a file whose stat data no longer matches the index to compare it.
_FILTER_PROGRAMS = ("clean", "smudge", "process")
# Where a setting comes from (`git config --show-scope`) that the user or the job wrote; the
# others (`local`, `worktree`, and files they include) come with the repository's folder.
_TRUSTED_SCOPES = frozenset({"system", "global", "command"})
_CONFIG_TIMEOUT = 60.0


def git_command(root: Path, *arguments: str) -> list[str]:
    """Return the command running git with `arguments` at the top of work tree `root`."""
    return ["git", *_QUIET_GIT, "-C", str(root), *arguments]


def _tree_filter_drivers(root: Path) -> set[str]:
    """Return the filter drivers the repository's own configuration defines a program for.

    A `.git/config` is not the user's when the work tree came as an archive or from someone
    else's disk, and its `filter.<driver>.clean` runs with the tree's `.gitattributes` naming
    the driver. Drivers of the user's own configuration (Git LFS's) are kept.
    """
    import subprocess

    try:
        completed = subprocess.run(
            git_command(root, "config", "--list", "--show-scope", "--name-only", "-z"),
            capture_output=True,
            check=False,
            timeout=_CONFIG_TIMEOUT,
        )
    except (OSError, subprocess.SubprocessError):
        return set()
    fields = completed.stdout.split(b"\0")
    drivers: set[str] = set()
    for scope, name in zip(fields[::2], fields[1::2], strict=False):
        key = os.fsdecode(name)
        section, _, rest = key.partition(".")
        driver, _, program = rest.rpartition(".")
        trusted = os.fsdecode(scope) in _TRUSTED_SCOPES
        if section == "filter" and driver and program in _FILTER_PROGRAMS and not trusted:
            drivers.add(driver)
    return drivers


def _without_tree_programs(root: Path) -> dict[str, str]:
    """Return the environment for a git command that leaves the tree's filter programs unrun.

    Each driver's programs are set empty as the job's own settings (`GIT_CONFIG_COUNT`, which
    take any driver name), which git reads as no filter; `required` is set off so git does not
    stop on a file no filter read. https://git-scm.com/docs/git-config#ENVIRONMENT
    """
    env = dict(os.environ)
    try:
        count = int(env.get("GIT_CONFIG_COUNT", "0"))
    except ValueError:
        count = 0
    for driver in sorted(_tree_filter_drivers(root)):
        for program, value in (*((p, "") for p in _FILTER_PROGRAMS), ("required", "false")):
            env[f"GIT_CONFIG_KEY_{count}"] = f"filter.{driver}.{program}"
            env[f"GIT_CONFIG_VALUE_{count}"] = value
            count += 1
    env["GIT_CONFIG_COUNT"] = str(count)
    return env


# git matches the tree's own ignore files against every untracked file: a hostile pattern
# (`*a*a*a*a*a*b` beside a long name) keeps it busy for minutes, so it is given this long.
STATUS_TIMEOUT = 60.0


def _status(root: Path) -> set[str]:
    """Return the real paths of the files with uncommitted changes in one work tree."""
    import subprocess  # git runs only when a fix needs to know what is uncommitted

    try:
        completed = subprocess.run(
            git_command(
                root, "status", "--porcelain=v1", "-z",
                "--untracked-files=all", "--no-renames", "--ignore-submodules=all",
            ),
            capture_output=True,
            check=False,
            timeout=STATUS_TIMEOUT,
            env=_without_tree_programs(root),
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
    the tree must read it too. Where git cannot list them (not installed, a repository another
    user owns), the index file is read instead (`git_index`). Empty when neither can tell.
    """
    listed = _listed_by_git(root)
    if listed is None:
        from claude_migrate.discovery.git_index import tracked_in_index

        listed = tracked_in_index(root)
    return listed if listed is not None else frozenset()


def _listed_by_git(root: Path) -> frozenset[str] | None:
    """Return what `git ls-files` lists in work tree `root`, or None when git cannot tell."""
    import subprocess  # git runs only when an ignore file would leave a file out

    try:
        completed = subprocess.run(
            git_command(root, "ls-files", "-z", "--cached"),
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode != 0:
        return None
    return frozenset(os.fsdecode(entry) for entry in completed.stdout.split(b"\0") if entry)


def is_tracked(path: Path) -> bool:
    """Return whether git tracks the file at `path` (its real path) in the work tree holding it.

    git runs at the top of that work tree (found by its `.git`), never in a folder below it: a
    tree may commit a bare repository's files in a folder (`HEAD`, `config`, `objects/`), and git
    started there would read that `config`. Where git cannot tell, the index file is read; False
    when neither can.
    """
    import subprocess

    real = Path(os.path.realpath(path))
    root = work_tree_root(real.parent)
    if root is None:
        return False
    try:
        relative = real.relative_to(os.path.realpath(root)).as_posix()
    except ValueError:
        return False
    try:
        completed = subprocess.run(
            git_command(root, "ls-files", "-z", "--cached", "--", relative),
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        completed = None
    if completed is not None and completed.returncode == 0:
        return bool(completed.stdout.strip(b"\0"))
    from claude_migrate.discovery.git_index import tracked_in_index

    return relative in (tracked_in_index(root) or frozenset())
