"""What the commands do, without click: find files, give each its policy, run, report.

`cli.py` parses options and prints; everything it needs is here so tests and other tools can
call it directly.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

from .cache import ResultCache
from .config import PolicyLoader
from .diagnostics import FileResult
from .discovery import discover
from .engine import Job, Options, run
from .report import Run


def display_path(path: Path, cwd: Path) -> str:
    """Return `path` relative to `cwd` with forward slashes (absolute when outside it)."""
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def collect_jobs(
    paths: Sequence[Path],
    loader: PolicyLoader,
    select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] = (),
    force_exclude: bool = False,
) -> list[Job]:
    """Return one job per file to check, each with the policy in effect for it."""
    cwd = Path(os.getcwd()).resolve()
    jobs = []

    def is_excluded(path: Path) -> bool:
        return loader.for_path(path).is_excluded(path)

    for candidate in discover(list(paths), is_excluded, force_exclude=force_exclude):
        policy = loader.for_path(candidate.path)
        jobs.append(
            Job(
                path=str(candidate.path),
                display=display_path(candidate.path, cwd),
                kind=candidate.kind,
                settings=policy.settings_for(candidate.path, select, extend_ignore),
            )
        )
    return jobs


def execute(
    jobs: Sequence[Job],
    options: Options,
    workers: int | None = None,
    on_result: Callable[[FileResult], None] | None = None,
    cache: ResultCache | None = None,
) -> Run:
    results = run(jobs, options, workers, on_result, cache=cache)
    return Run(results=results, fixing=options.fix, unsafe=options.unsafe)


def unified_diff(result: FileResult) -> str:
    """Return the unified diff between a result's original and fixed text."""
    if result.original_text is None or result.fixed_text is None:
        return ""
    return "".join(
        difflib.unified_diff(
            result.original_text.splitlines(keepends=True),
            result.fixed_text.splitlines(keepends=True),
            fromfile=f"a/{result.path}",
            tofile=f"b/{result.path}",
        )
    )
