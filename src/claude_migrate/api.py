"""What the commands do, without click: find files, give each its policy, run, report.

`cli.py` parses options and prints; everything it needs is here so tests and other tools can
call it directly.
"""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from . import baseline
from .cache import ResultCache
from .config import PolicyLoader
from .diagnostics import FileError, FileResult
from .discovery import NOT_A_KIND, discover, kind_of
from .engine import Job, Options, run
from .git import WorkTreeState
from .notebook import NOTEBOOK_KIND, is_notebook_path
from .report import Run
from .shard import Shard, file_weight
from .shard import select as select_shard
from .source import DecodeError, SourceText
from .suppress import skips_file


def display_path(path: Path, cwd: Path) -> str:
    """Return `path` relative to `cwd` with forward slashes (absolute when outside it)."""
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


@dataclass(frozen=True)
class Skipped:
    """A path named on the command line that yields nothing to check, and why."""

    display: str
    reason: str
    # The tool cannot check it (a file of no kind it reads, a notebook in another language),
    # as opposed to a folder with nothing in it or a file the policy excludes on purpose.
    uncheckable: bool


@dataclass
class Collected:
    """The jobs of a run and the named paths that gave none."""

    jobs: list[Job]
    skipped: list[Skipped]


def collect(
    paths: Sequence[Path],
    loader: PolicyLoader,
    select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] = (),
    force_exclude: bool = False,
    shard: Shard | None = None,
) -> Collected:
    """Return one job per file to check, each with its policy, and the named paths skipped.

    With `shard`, only that shard's share of the files (see `shard.py`).
    """
    cwd = Path(os.getcwd()).resolve()
    jobs = []
    skipped: list[Skipped] = []

    def is_excluded(path: Path) -> bool:
        return loader.for_path(path).is_excluded(path)

    # A broken policy is reported even when the paths hold no file to check.
    for path in paths:
        loader.for_path(path)

    def on_skip(path: Path, why: str) -> None:
        uncheckable = why == NOT_A_KIND
        skipped.append(Skipped(display_path(path, cwd), why, uncheckable))

    for candidate in discover(
        list(paths), is_excluded, force_exclude=force_exclude, on_skip=on_skip
    ):
        if candidate.explicit and candidate.kind == NOTEBOOK_KIND:
            why = _notebook_not_python(candidate.path)
            if why is not None:
                skipped.append(Skipped(display_path(candidate.path, cwd), why, True))
                continue
        policy = loader.for_path(candidate.path)
        jobs.append(
            Job(
                path=str(candidate.path),
                display=display_path(candidate.path, cwd),
                kind=candidate.kind,
                settings=policy.settings_for(candidate.path, select, extend_ignore),
            )
        )
    if shard is not None:
        jobs = select_shard(
            jobs, shard, key=lambda job: job.display, weight=lambda job: file_weight(job.path)
        )
    return Collected(jobs, skipped)


def _notebook_not_python(path: Path) -> str | None:
    """Return why a named notebook is not checked (its kernel is not Python), else None.

    A notebook that cannot be read or parsed is checked: its CM001 says what is wrong.
    """
    from .notebook.document import NotebookError, load, not_python

    try:
        return not_python(load(path.read_bytes()))
    except (OSError, NotebookError):
        return None


def collect_jobs(
    paths: Sequence[Path],
    loader: PolicyLoader,
    select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] = (),
    force_exclude: bool = False,
    shard: Shard | None = None,
) -> list[Job]:
    """Return one job per file to check, each with the policy in effect for it."""
    return collect(paths, loader, select, extend_ignore, force_exclude, shard).jobs


def execute(
    jobs: Sequence[Job],
    options: Options,
    workers: int | None = None,
    on_result: Callable[[FileResult], None] | None = None,
    cache: ResultCache | None = None,
) -> Run:
    results = run(jobs, options, workers, on_result, cache=cache)
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


def apply_baseline(
    run: Run, path: Path, prune: bool = False, show: bool = False
) -> tuple[Run, int]:
    """Return the run without the findings `path` records, and how many stale entries were pruned.

    With `prune`, stale entries are removed from the file (atomically) instead of reported.
    Raises `baseline.BaselineError` for a missing or malformed file.
    """
    accepted = baseline.Baseline.load(path)
    outcome = baseline.apply(run.results, accepted, run.cwd)
    pruned = 0
    if prune and outcome.stale:
        pruned = len(outcome.stale)
        baseline.prune(accepted, outcome)
        accepted.save()
    filtered = Run(
        results=run.results,
        fixing=run.fixing,
        unsafe=run.unsafe,
        baselined=outcome.baselined,
        stale=outcome.stale,
        baseline=str(path),
        show_baselined=show,
        cwd=run.cwd,
    )
    return filtered, pruned


def unified_diff(result: FileResult) -> str:
    """Return the unified diff between a result's original and fixed text.

    Lines split only where Python splits them (\\n, \\r\\n, \\r), each keeping its own ending,
    and a last line without one gets git's "No newline at end of file" marker.
    """
    if result.original_text is None or result.fixed_text is None:
        return ""
    if is_notebook_path(result.path):
        from .notebook.diff import cell_diff

        return cell_diff(result.path, result.original_text, result.fixed_text)
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


@dataclass
class StdinInput:
    """Source read from standard input, checked as if it were the file `display`."""

    display: str
    data: bytes
    source: SourceText | None  # None when the bytes do not decode
    job: Job | None  # None when there is nothing to check (excluded, skip-file, not a kind we read)
    result: FileResult | None = None  # the result when no job runs (a decode error)

    def output_bytes(self, result: FileResult | None) -> bytes:
        """Return what `fix -` prints: the fixed source, or the input byte for byte."""
        if self.source is None or result is None or result.fixed_text is None:
            return self.data
        return self.source.to_bytes(result.fixed_text)


def read_stdin(
    data: bytes,
    filename: str | None,
    loader: PolicyLoader,
    select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] = (),
    force_exclude: bool = False,
) -> StdinInput:
    """Return the job that checks `data` under the policy, paths and kind of `filename`.

    Without a filename the input is Python checked under the working directory's policy.
    """
    cwd = Path(os.getcwd()).resolve()
    path = Path(os.path.abspath(filename)) if filename else cwd / "-"
    display = display_path(path, cwd) if filename else "-"
    kind = kind_of(path) if filename else "python"
    if kind is None:
        return StdinInput(display, data, _decode(data, False), None)
    policy = loader.for_path(path)
    try:
        source = SourceText.from_bytes(data, is_python=kind == "python")
    except DecodeError as exc:
        result = FileResult(path=display)
        result.errors.append(FileError(display, str(exc), exc.line))
        return StdinInput(display, data, None, None, result)
    if (force_exclude and policy.is_excluded(path)) or (kind == "python" and skips_file(data)):
        return StdinInput(display, data, source, None)
    settings = policy.settings_for(path, select, extend_ignore)
    job = Job(path=str(path), display=display, kind=kind, settings=settings, text=source.text)
    return StdinInput(display, data, source, job)


def _decode(data: bytes, is_python: bool) -> SourceText | None:
    try:
        return SourceText.from_bytes(data, is_python=is_python)
    except DecodeError:
        return None
