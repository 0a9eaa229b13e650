"""What the commands do, without click: find files, give each its policy, run, report.

`cli.py` parses options and prints; everything it needs is here so tests and other tools can
call it directly.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from .config import PolicyLoader
from .diagnostics import FileResult
from .discovery import discover
from .engine import Job, Options, run
from .git import WorkTreeState
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
) -> Run:
    results = run(jobs, options, workers, on_result)
    return Run(results=results, fixing=options.fix, unsafe=options.unsafe)


def dirty_files_to_rewrite(
    jobs: Sequence[Job], options: Options, state: WorkTreeState, workers: int | None = None
) -> list[str]:
    """Return the files with uncommitted changes that `fix` would rewrite (writing nothing).

    Only the dirty files are fixed in memory, so `--require-clean` costs little on a clean tree.
    """
    dirty = [job for job in jobs if state.is_dirty(job.path)]
    if not dirty:
        return []
    dry = replace(options, write=False, keep_text=False)
    return sorted(r.path for r in run(dirty, dry, workers) if r.fixed)


def unified_diff(result: FileResult) -> str:
    """Return the unified diff between a result's original and fixed text.

    Lines split only where Python splits them (\\n, \\r\\n, \\r), each keeping its own ending,
    and a last line without one gets git's "No newline at end of file" marker.
    """
    if result.original_text is None or result.fixed_text is None:
        return ""
    out = []
    for line in difflib.unified_diff(
        _lines(result.original_text),
        _lines(result.fixed_text),
        fromfile=f"a/{result.path}",
        tofile=f"b/{result.path}",
    ):
        if line.endswith(("\n", "\r")):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _lines(text: str) -> list[str]:
    return _LINE.findall(text)
