"""What the commands do, without click: find files, give each its policy, run, report.

`check(request)` and `fix(request)` take a frozen `Request` and return an `Outcome`: the results,
the diff, the baseline state, the rendered report with its summary, and the exit status.
`cli.py` maps flags to the request and prints the outcome; tests and other tools call these
directly.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate.core.atomic import remove_stale_temps
from claude_migrate.core.compiled import CODE as COMPILED_CODE
from claude_migrate.core.compiled import COMPILED_KIND
from claude_migrate.core.diagnostics import Diagnostic, FileError, FileResult, Severity
from claude_migrate.core.errors import ConfigError
from claude_migrate.core.job import MIB as MIB  # the command line's memory limit is in MiB
from claude_migrate.core.job import Job, Limits, Options
from claude_migrate.core.output_file import write_output
from claude_migrate.core.paths import (
    display_path as display_path,  # the command line shows paths the same way
)
from claude_migrate.core.source import DecodeError, SourceText
from claude_migrate.core.suppress import skips_file
from claude_migrate.discovery.collect import (
    EXCLUDED,
    NOT_A_KIND,
    PYTHON_SUFFIXES,
    DiscoveryError,
    Notices,
    discover,
    kind_of,
)
from claude_migrate.discovery.git import WorkTreeState
from claude_migrate.discovery.git import scan as git_scan
from claude_migrate.engine.cache import ResultCache, default_dir
from claude_migrate.engine.pool import WorkerStartError
from claude_migrate.engine.runner import run
from claude_migrate.notebook import NOTEBOOK_KIND, is_notebook_path
from claude_migrate.policy.config import CommandLine, Policy, PolicyLoader
from claude_migrate.report import FORMATS, Run, Trusted
from claude_migrate.report import (
    encode_report as encode_report,  # the command line writes reports too
)
from claude_migrate.report.text import summary

if TYPE_CHECKING:
    from claude_migrate.discovery.shard import Shard  # loaded when `--shard` is given
    from claude_migrate.engine.noqa import FileNoqa  # loaded by `--add-noqa`


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
    # What the walk met and left alone (FIFOs, links out of the roots), and stale temporary files.
    notices: Notices = field(default_factory=Notices)
    # With `compiled`: the compiled modules found (extension modules, bytecode, archives), as
    # jobs of their kind; the engine never reads them (`checks.compiled_module.results`).
    compiled: list[Job] = field(default_factory=list)


def collect(
    paths: Sequence[Path],
    loader: PolicyLoader,
    select: Sequence[str] | None = None,
    extend_ignore: Sequence[str] = (),
    force_exclude: bool = False,
    shard: Shard | None = None,
    compiled: bool = False,
) -> Collected:
    """Return one job per file to check, each with its policy, and the named paths skipped.

    With `compiled` (a trusted gate), the compiled modules Python may import from the tree go
    to `Collected.compiled`.

    With `shard`, only that shard's share of the files (see `shard.py`). The policy and the
    reported path are those of the path found; the file read and written is its real path (a
    symlink's target). What the walk skipped goes to `Collected.notices`; a named file that
    cannot be checked raises DiscoveryError.
    """
    cwd = Path(os.getcwd()).resolve()
    jobs = []
    skipped: list[Skipped] = []

    # The policy each path was asked for while walking: the job reuses it (one lookup a file).
    policies: dict[Path, Policy] = {}

    def is_excluded(path: Path) -> bool:
        policy = policies[path] = loader.for_path(path)
        return policy.is_excluded(path)

    # A broken policy is reported even when the paths hold no file to check.
    for path in paths:
        loader.for_path(path)

    def on_skip(path: Path, why: str) -> None:
        uncheckable = why == NOT_A_KIND
        skipped.append(Skipped(display_path(path, cwd), why, uncheckable))

    notices = Notices()
    for candidate in discover(
        list(paths), is_excluded, force_exclude=force_exclude, on_skip=on_skip, notices=notices,
        compiled=compiled,
    ):  # fmt: skip
        if candidate.explicit and candidate.kind == NOTEBOOK_KIND:
            why = _notebook_not_python(candidate.path)
            if why is not None:
                skipped.append(Skipped(display_path(candidate.path, cwd), why, True))
                continue
        policy = policies.pop(candidate.path, None) or loader.for_path(candidate.path)
        jobs.append(
            Job(
                path=str(candidate.real or candidate.path),
                display=display_path(candidate.path, cwd),
                kind=candidate.kind,
                settings=policy.settings_for(candidate.path, select, extend_ignore),
            )
        )
    if shard is not None:
        from claude_migrate.discovery.shard import file_weight
        from claude_migrate.discovery.shard import select as select_shard

        jobs = select_shard(
            jobs, shard, key=lambda job: job.display, weight=lambda job: file_weight(job.path)
        )
    modules = [job for job in jobs if job.kind == COMPILED_KIND]
    if modules:
        jobs = [job for job in jobs if job.kind != COMPILED_KIND]
    return Collected(jobs, skipped, notices, modules)


def _notebook_not_python(path: Path) -> str | None:
    """Return why a named notebook is not checked (its kernel is not Python), else None.

    A notebook that cannot be read or parsed is checked: its CM001 says what is wrong.
    """
    from claude_migrate.notebook.document import NotebookError, load, not_python

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
    run: Run, path: Path, prune: bool = False, show: bool = False, root: Path | None = None
) -> tuple[Run, int]:
    """Return the run without the findings `path` records, and how many stale entries were pruned.

    With `prune`, stale entries are removed from the file (atomically) instead of reported.
    Raises `baseline.BaselineError` for a missing or malformed file.
    """
    from claude_migrate.engine import baseline

    accepted = baseline.Baseline.load(path, root)
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
        trusted=run.trusted,
        suppressed=run.suppressed,
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
        from claude_migrate.notebook.diff import cell_diff

        return cell_diff(result.path, result.original_text, result.fixed_text)
    import difflib

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
    fixing: bool = False,
    list_suppressed: bool = False,
) -> StdinInput:
    """Return the job that checks `data` under the policy, paths and kind of `filename`.

    Without a filename the input is Python checked under the working directory's policy. When
    `fixing`, input whose encoding does not give back its own bytes is not fixed (CM001): it
    is printed back unchanged.
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
    skipped = kind == "python" and skips_file(data) and not list_suppressed
    if (force_exclude and policy.is_excluded(path)) or skipped:
        return StdinInput(display, data, source, None)
    if fixing and source.lossy is not None:
        result = FileResult(path=display)
        result.errors.append(FileError(display, f"not fixed: {source.lossy}"))
        return StdinInput(display, data, source, None, result)
    settings = policy.settings_for(path, select, extend_ignore)
    if list_suppressed:
        settings = replace(settings, list_suppressed=True)
    job = Job(path=str(path), display=display, kind=kind, settings=settings, text=source.text)
    return StdinInput(display, data, source, job)


def _decode(data: bytes, is_python: bool) -> SourceText | None:
    try:
        return SourceText.from_bytes(data, is_python=is_python)
    except DecodeError:
        return None


# Requests and outcomes: `check` and `fix` as functions ---------------------------------------
#
# The command line maps its flags to a frozen `Request` and prints the `Outcome`; tests and
# other tools call `check(request)` / `fix(request)` the same way. Everything a run decides is
# here: standard input, the policy, the files, the uncommitted-changes guard, the cache, the
# diff, the baseline (apply, prune, record), the fix report, the rendered report and its
# summary, and the exit status. Nothing here prints.

# The per-file limits a run has unless it asks otherwise (shown by the command line's help).
DEFAULT_LIMITS = Limits()

# `progress(jobs)` gives a context whose value is called with each file's result (or None).
Progress = Callable[[Sequence[Job]], AbstractContextManager[Callable[[FileResult], None] | None]]


@dataclass(frozen=True)
class Request:
    """What to run: paths, selection, policy, input, output, and the options of `check`/`fix`."""

    paths: tuple[Path, ...] = ()
    select: tuple[str, ...] | None = None  # codes or prefixes; None: the policy's
    ignore: tuple[str, ...] = ()
    config: Path | None = None  # one policy for every file
    # A trusted gate (`check --trusted-config`): this policy alone, from outside the checked
    # tree; the tree's policy files, baselines and caches are never read, and every finding a
    # comment in a checked file silences is listed.
    trusted_config: Path | None = None
    base_config: str | None = None  # a preset or file layered under every policy found
    force_exclude: bool = False
    stdin: bytes | None = None  # standard input's bytes: check them instead of `paths`
    stdin_filename: str | None = None  # the file standard input is checked as
    jobs: int | None = None
    cache_dir: Path | None = None
    no_cache: bool = False
    shard: Shard | None = None
    output_format: str = "text"
    output: Path | None = None  # write the report here instead of returning it for printing
    quiet: bool = False
    verbose: bool = False
    exit_zero: bool = False
    fail_on: str = "error"  # the lowest severity that fails the run (exit 1)
    strict_paths: bool = False
    terminal: bool = False  # the report is read on a terminal: show source lines
    color: bool = False
    # check
    baseline: Path | None = None
    # The folder the baseline's paths are relative to (default: the baseline file's folder;
    # in a trusted gate, the checked repository's root).
    baseline_root: Path | None = None
    write_baseline: Path | None = None
    prune_baseline: bool = False
    show_baselined: bool = False
    # fix
    unsafe: bool = False
    diff: bool = False
    exit_non_zero_on_fix: bool = False
    report_file: Path | None = None
    require_clean: bool = False
    force_write: bool = False  # rewrite read-only files too
    # Per file, in worker processes: seconds and MiB (None or 0: no limit).
    file_timeout: float | None = DEFAULT_LIMITS.seconds
    file_memory: int | None = (DEFAULT_LIMITS.memory or 0) // MIB
    # ruff's habits: selection and exclusion on top of the policy, and what the report shows.
    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None  # globs in place of each policy's `exclude`
    extend_exclude: tuple[str, ...] = ()
    statistics: bool = False  # counts per rule instead of the findings
    show_fixes: bool = False  # list the fixes applied, per file and rule
    fix_only: bool = False  # fix, and neither report nor fail for what is left

    @property
    def command_line(self) -> CommandLine | None:
        """Return what the command line adds to every policy, or None when it adds nothing."""
        if not self.extend_select and self.exclude is None and not self.extend_exclude:
            return None
        return CommandLine(self.extend_select, self.exclude, self.extend_exclude, Path.cwd())

    @property
    def limits(self) -> Limits:
        """Return the per-file limits the request asks for."""
        return Limits(self.file_timeout or None, (self.file_memory or 0) * MIB or None)


@dataclass
class Outcome:
    """What a run gives back, in the order it is shown."""

    run: Run
    exit_status: int
    # Lines for standard error, shown before the report (warnings, notes, what was recorded).
    messages: list[str] = field(default_factory=list)
    # `fix -`: the fixed source (or the input unchanged), for standard output before the report.
    fixed_source: bytes | None = None
    diff: str = ""  # `fix --diff`: the unified diff of every change
    report: str = ""  # the rendered report and summary ("" when written to `output`)
    report_to_stderr: bool = False  # standard output carries the fixed source
    # Why the run exits 2 though it ran (a named path that cannot be checked), shown last.
    error: str | None = None
    recorded: int | None = None  # `--write-baseline`: how many findings were recorded
    pruned: int = 0  # `--prune-baseline`: how many stale entries were removed


class RequestError(Exception):
    """The run cannot go on (a policy, baseline or output problem): exit 2 with this message.

    `messages` are the lines the run had for standard error before it stopped.
    """

    def __init__(self, message: str, messages: list[str] | None = None) -> None:
        super().__init__(message)
        self.messages = list(messages or [])


@contextlib.contextmanager
def _no_progress(jobs: Sequence[Job]) -> Iterator[None]:
    yield None


def check(request: Request, progress: Progress = _no_progress) -> Outcome:
    """Report policy violations: the `check` command without its command line.

    With `unsafe`, `[*]` and the summary count unsafe fixes as fixable too (ruff's
    `check --unsafe-fixes`); nothing is written.
    """
    return _execute(request, Options(limits=request.limits, unsafe=request.unsafe), progress)


def fix(request: Request, progress: Progress = _no_progress) -> Outcome:
    """Apply fixes (or, with `diff`, compute them): the `fix` command without its command line."""
    options = Options(
        fix=True,
        unsafe=request.unsafe,
        write=not request.diff,
        keep_text=request.diff,
        limits=request.limits,
        force_write=request.force_write,
    )
    return _execute(request, options, progress)


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


@dataclass
class _Work:
    """What a run was asked to check: the jobs, what was skipped, and the piped input if any."""

    jobs: list[Job]
    skipped: list[Skipped] = field(default_factory=list)
    notices: Notices = field(default_factory=Notices)
    stdin: StdinInput | None = None
    compiled: list[Job] = field(default_factory=list)  # a trusted gate's compiled modules


Stop = Callable[[str], RequestError]


def _execute(request: Request, options: Options, progress: Progress) -> Outcome:
    """Run one `check` or `fix` request, step by step, and return what to show."""
    messages: list[str] = []

    def stop(message: str) -> RequestError:
        return RequestError(message, messages)

    if request.stdin is not None:
        options = replace(options, write=False, keep_text=True)
    loaded = sys.modules.get("claude_migrate.analysis.doubles")
    if loaded is not None:
        loaded.forget()  # a run before this one in the process may have written test files
    trusted = _trusted_setup(request, stop)
    _output_guard(request, stop)
    work = _collect_work(request, options, stop)
    messages.extend(_skip_warnings(work.skipped, request))
    messages.extend(_notices(work.notices, options))
    messages.extend(_policy_warnings(work.jobs))
    uncommitted = None
    if options.fix and work.stdin is None:
        uncommitted = _uncommitted_guard(work.jobs, options, request, stop)
    run = _run_work(request, options, progress, work, messages, stop, trusted)
    path_status = _path_status(request, work.skipped, work.jobs, check=not options.fix)
    mixed = _mixed_with_work(run, work.jobs, uncommitted)
    if request.report_file is not None:
        _write_fix_report(request, request.report_file, run, mixed, stop)
    if request.diff:
        return _diff_outcome(run, request, messages, path_status)
    if request.write_baseline is not None:
        return _record_baseline(request.write_baseline, run, messages, stop)
    run, pruned = _apply_named_baseline(request, run, messages, stop)
    run.fail_on = Severity(request.fail_on)
    outcome = Outcome(run, 0, messages, pruned=pruned, error=path_status)
    _attach_stdin(outcome, run, work.stdin, options)
    report = _render_report(request, run, options, mixed, messages)
    if request.output is not None:
        _write_report(request.output, report, stop)
    else:
        outcome.report = report
    outcome.exit_status = _exit_status(request, run, path_status)
    return outcome


def _collect_work(request: Request, options: Options, stop: Stop) -> _Work:
    """Return the jobs of the run: the piped input, or the files under the given paths."""
    select = list(request.select) if request.select is not None else None
    ignore = list(request.ignore)
    listing = request.trusted_config is not None
    # Compiled modules are looked for in a trusted gate, and where the command line names
    # their rule by its full code (to record a baseline of the ones a repository keeps).
    compiled = listing or COMPILED_CODE in (*(request.select or ()), *request.extend_select)
    try:
        loader = PolicyLoader(
            request.trusted_config or request.config,
            base=request.base_config,
            command_line=request.command_line,
            roots=list(request.paths) or [Path(".")],
        )
        if request.stdin is not None:
            stdin = read_stdin(
                request.stdin, request.stdin_filename, loader, select, ignore,
                request.force_exclude, fixing=options.fix, list_suppressed=listing,
            )  # fmt: skip
            return _Work([stdin.job] if stdin.job is not None else [], stdin=stdin)
        targets = list(request.paths) or [Path(".")]
        collected = collect(
            targets, loader, select, ignore, request.force_exclude, shard=request.shard,
            compiled=compiled,
        )  # fmt: skip
    except (ConfigError, DiscoveryError) as exc:
        raise stop(str(exc)) from None
    jobs = collected.jobs
    if listing:
        jobs = [replace(job, settings=replace(job.settings, list_suppressed=True)) for job in jobs]
    return _Work(jobs, collected.skipped, collected.notices, compiled=collected.compiled)


def _checked_trees(request: Request) -> list[Path]:
    """Return the folders a run's paths lie in: each named folder (or a file's folder) and the
    git work tree holding it."""
    from claude_migrate.discovery.git import work_tree_root

    trees: list[Path] = []
    for path in list(request.paths) or [Path(".")]:
        if path == Path("-"):
            path = Path(request.stdin_filename or ".").parent
        folder = Path(os.path.realpath(path))
        if not folder.is_dir():
            folder = folder.parent
        trees.append(folder)
        root = work_tree_root(folder)
        if root is not None:
            trees.append(Path(os.path.realpath(root)))
    return trees


def _inside(path: Path, trees: Sequence[Path]) -> bool:
    real = Path(os.path.realpath(path))
    return any(real == tree or tree in real.parents for tree in trees)


def _baseline_root(request: Request) -> Path | None:
    """Return the folder the baseline's paths are relative to, None for the file's own.

    A trusted gate reads a copy of the repository's baseline from outside the checkout: by
    default its paths are read from the root of the checked repository (else the working
    folder), where the repository keeps its baseline.
    """
    if request.baseline_root is not None or request.trusted_config is None:
        return request.baseline_root
    from claude_migrate.discovery.git import work_tree_root

    first = (list(request.paths) or [Path(".")])[0]
    folder = Path(os.path.realpath(first))
    if not folder.is_dir():
        folder = folder.parent
    return work_tree_root(folder) or Path.cwd()


def _output_guard(request: Request, stop: Stop) -> None:
    """Refuse an output file named inside the checked tree that a symlink there leads out of.

    The checked tree may come from a stranger: a committed `claude-migrate.sarif ->
    ~/.bashrc` (or a folder link on the way) would have the report written outside the paths
    given. A path outside the tree (`/dev/stdout`, `$RUNNER_TEMP/report.sarif`) is the user's.
    """
    named = [
        ("--output", request.output),
        ("--report", request.report_file),
        ("--write-baseline", request.write_baseline),
        ("--prune-baseline", request.baseline if request.prune_baseline else None),
    ]
    if not any(path is not None for _, path in named):
        return
    trees = _checked_trees(request)
    lexical = [Path(os.path.abspath(path)) for path in list(request.paths) or [Path(".")]]
    for flag, path in named:
        if path is None:
            continue
        given = Path(os.path.abspath(path))
        within = any(given == tree or tree in given.parents for tree in lexical + trees)
        if within and not _inside(given, trees):
            raise stop(
                f"{flag} {path}: a symbolic link inside the tree being checked leads out of it"
                f" (to {os.path.realpath(given)}); name a file outside the tree, or remove the"
                " link"
            )


def _trusted_setup(request: Request, stop: Stop) -> Trusted | None:
    """Return a trusted gate's setup; refuse a policy or baseline the checked tree holds."""
    if request.trusted_config is None:
        return None
    trees = _checked_trees(request)
    named = [("--trusted-config", request.trusted_config), ("--baseline", request.baseline)]
    for flag, path in named:
        if path is not None and _inside(path, trees):
            raise stop(
                f"{flag} {path}: the file is inside the tree being checked, which a pull "
                "request can change; name a copy from outside it (for a baseline, the base "
                "branch's: `git show origin/main:FILE > $RUNNER_TEMP/FILE`)"
            )
    cache = None
    if not request.no_cache:
        folder = request.cache_dir or default_dir()
        if folder is not None and not _inside(folder, trees):
            cache = str(folder)
    baseline = str(request.baseline) if request.baseline is not None else None
    return Trusted(str(request.trusted_config), baseline, cache)


def _skip_warnings(skipped: list[Skipped], request: Request) -> list[str]:
    """Return a warning for each path that was not checked and should be said."""
    lines = []
    for entry in skipped:
        if entry.reason == EXCLUDED:
            continue  # asked for: pre-commit names every staged file, the policy leaves some out
        if entry.uncheckable or not request.quiet:
            warning = f"{entry.display}: not checked: {entry.reason}"
            lines.append(f"claude-migrate: warning: {warning}")
    return lines


def _run_work(
    request: Request,
    options: Options,
    progress: Progress,
    work: _Work,
    messages: list[str],
    stop: Stop,
    trusted: Trusted | None = None,
) -> Run:
    """Run the jobs (through the cache unless it is off) and return the run."""
    cache = None
    folder = request.cache_dir or default_dir()
    if (
        trusted is not None
        and trusted.cache is None
        and folder is not None
        and not request.no_cache
    ):
        messages.append(
            f"claude-migrate: note: the cache folder {folder} is inside the checked tree: "
            "a trusted gate does not use it"
        )
        folder = None
    if not request.no_cache and folder is not None:
        cache = ResultCache(folder)
        if cache.problem is not None:
            messages.append(f"claude-migrate: warning: {cache.problem}")
            if trusted is not None:
                trusted = replace(trusted, cache=None)
    try:
        with progress(work.jobs) as on_result:
            run = execute(work.jobs, options, request.jobs, on_result, cache=cache)
    except WorkerStartError as exc:
        where = f"{sys.executable}'s environment"
        raise stop(f"{exc} (is claude-migrate installed in {where}?)") from None
    if work.stdin is not None and work.stdin.result is not None:
        run = Run(results=[work.stdin.result], fixing=options.fix, unsafe=options.unsafe)
    if work.compiled:
        from claude_migrate.checks.compiled_module import results as compiled_results

        found = compiled_results(work.compiled)
        run = Run(results=run.results + found, fixing=options.fix, unsafe=options.unsafe)
    run.skipped = [(s.display, s.reason) for s in work.skipped if s.reason != EXCLUDED]
    run.trusted = trusted
    messages.extend(
        f"claude-migrate: warning: {result.path}: {result.note}"
        for result in run.results
        if result.note is not None
    )
    if request.verbose:
        for result in run.results:
            if result.skipped is not None:
                note = f"{result.path}: not checked: {result.skipped}"
                messages.append(f"claude-migrate: note: {note}")
    return run


def _write_fix_report(request: Request, path: Path, run: Run, mixed: list[str], stop: Stop) -> None:
    """Write the `fix --report` JSON for the migration PR."""
    from claude_migrate.report.fixes import render_report as fixes_report

    text = fixes_report(run, dry_run=request.diff, uncommitted=mixed)
    try:
        write_output(path, encode_report(text))
    except OSError as exc:
        raise stop(f"cannot write the report {path}: {exc.strerror}") from None


def _record_baseline(path: Path, run: Run, messages: list[str], stop: Stop) -> Outcome:
    """Record the run's findings as a baseline and return the outcome that says so."""
    from claude_migrate.engine import baseline  # read and written only when a baseline is named

    try:
        recorded = baseline.record(run.results, path, run.cwd)
        recorded.save()
    except baseline.BaselineError as exc:
        raise stop(str(exc)) from None
    messages.append(f"claude-migrate: recorded {_plural(recorded.total, 'finding')} in {path}")
    return Outcome(run, 0, messages, recorded=recorded.total)


def _apply_named_baseline(
    request: Request, run: Run, messages: list[str], stop: Stop
) -> tuple[Run, int]:
    """Return the run less the findings the baseline accepts, and how many entries were pruned."""
    if request.baseline is None:
        return run, 0
    from claude_migrate.engine import baseline

    try:
        run, pruned = apply_baseline(
            run, request.baseline, request.prune_baseline, request.show_baselined,
            _baseline_root(request),
        )  # fmt: skip
    except baseline.BaselineError as exc:
        raise stop(str(exc)) from None
    if pruned and not request.quiet:
        entries = f"{pruned} stale entr{'ies' if pruned != 1 else 'y'}"
        messages.append(f"claude-migrate: pruned {entries} from {request.baseline}")
    return run, pruned


def _attach_stdin(outcome: Outcome, run: Run, stdin: StdinInput | None, options: Options) -> None:
    """Give a piped run its fixed source (standard output) and its source for the report."""
    if stdin is None:
        return
    # Fixed source goes to standard output; the report then goes to standard error.
    outcome.report_to_stderr = options.fix
    piped = run.results[0] if run.results else None
    if options.fix:
        outcome.fixed_source = stdin.output_bytes(piped)
    if stdin.source is not None:
        fixed = piped.fixed_text if piped is not None else None
        run.sources[stdin.display] = fixed or stdin.source.text


def _render_report(
    request: Request, run: Run, options: Options, mixed: list[str], messages: list[str]
) -> str:
    """Return the report in the requested format, with the fix table and summary for people."""
    if request.output is None and request.output_format == "text" and request.terminal:
        run.show_source = True
        run.color = request.color
    report = _render_body(run, request, options)
    note = ""
    if mixed:  # fixed files that had uncommitted work: only `fix` gets here with any
        from claude_migrate.report.fixes import uncommitted_note

        note = uncommitted_note(mixed, dry_run=False)
    if request.output_format in ("text", "concise") and not request.quiet:
        report += _closing(run, request, options)
        if note:
            report += note + "\n"
    elif note:
        messages.append(note)
    return report


def _render_body(run: Run, request: Request, options: Options) -> str:
    """Return the report's body: the findings, or their statistics, or (fix-only) nothing."""
    text_like = request.output_format in ("text", "concise")
    body = ""
    if request.show_fixes and text_like and options.fix:
        from claude_migrate.report.fixes import render_shown_fixes

        body += render_shown_fixes(run, dry_run=False)
    if request.fix_only and text_like:
        return body
    if request.statistics:
        from claude_migrate.report import statistics

        return body + (statistics.render_text(run) if text_like else statistics.render_json(run))
    return body + FORMATS[request.output_format](run)


def _closing(run: Run, request: Request, options: Options) -> str:
    """Return what follows a text report: the per-rule table of a fix, and the summary line."""
    if request.fix_only:
        left = _plural(len(run.diagnostics) + len(run.errors), "finding")
        return f"Fixed {run.fixed}; {left} left, not reported (--fix-only).\n"
    text = ""
    if options.fix and not request.statistics:
        from claude_migrate.report.fixes import render_table as fixes_table

        text += fixes_table(run, dry_run=False, color=run.color, terminal=request.terminal)
    return text + summary(run) + "\n"


def _write_report(path: Path, report: str, stop: Stop) -> None:
    """Write the report to the file `--output` names."""
    try:
        # Bytes, not text: a file name that is not UTF-8 is written as its own bytes.
        write_output(path, encode_report(report))
    except OSError as exc:
        raise stop(f"{path}: cannot write the report: {exc.strerror or exc}") from None


def _exit_status(request: Request, run: Run, path_status: str | None) -> int:
    """Return the exit status: 2 for a path that could not be checked, else 1 if the run fails."""
    if path_status is not None:
        return 2
    failed = (run.failed and not request.fix_only) or (
        request.exit_non_zero_on_fix and run.fixed > 0
    )
    return 0 if request.exit_zero or not failed else 1


@dataclass
class NoqaOutcome:
    """What `check --add-noqa` did: per file, the comments added and the lines left alone."""

    files: list[FileNoqa]
    messages: list[str]
    not_python: int = 0  # findings in notebooks and dependency files: no comment added
    file_errors: int = 0  # files that could not be checked (CM001): nothing to suppress

    @property
    def added(self) -> int:
        return sum(f.added for f in self.files)

    @property
    def left(self) -> list[str]:
        """Return one `path:line: why` per finding's line that got no comment."""
        return [f"{f.path}:{line}: {why}" for f in self.files for line, why in f.unplaced]

    def summary(self) -> str:
        changed = sum(1 for f in self.files if f.added)
        text = f"Added {_plural(self.added, 'noqa directive')} in {_plural(changed, 'file')}"
        others = len(self.left) + self.not_python + self.file_errors
        if others:
            text += f"; {_plural(others, 'finding')} not suppressed"
        return text + "."


def add_noqa(request: Request) -> NoqaOutcome:
    """Check, then add a `# noqa: CODE` comment on the line of every finding reported."""
    from claude_migrate.engine.noqa import add_to_file

    outcome = check(replace(request, output=None, output_format="concise", quiet=True))
    run = outcome.run
    by_file: dict[str, list[Diagnostic]] = {}
    not_python = 0
    for d in run.diagnostics:
        if d.cell is not None or Path(d.path).suffix not in PYTHON_SUFFIXES:
            not_python += 1
            continue
        by_file.setdefault(d.path, []).append(d)
    files = []
    for display, findings in sorted(by_file.items()):
        try:
            files.append(add_to_file(run.cwd / display, display, findings))
        except (OSError, UnicodeDecodeError, SyntaxError) as exc:
            raise RequestError(f"{display}: cannot add noqa comments: {exc}") from None
    result = NoqaOutcome(files, outcome.messages, not_python, len(run.errors))
    result.messages.extend(f"claude-migrate: not suppressed: {line}" for line in result.left)
    return result


def write_text(path: Path, text: str) -> None:
    """Write a rendered report to `path` (file names byte for byte); raise OSError."""
    write_output(path, encode_report(text))


def _policy_warnings(work: list[Job]) -> list[str]:
    """Return warnings for policy values that are valid but not what they mean to be (an SDK
    minimum that was never published), once per policy."""
    from claude_migrate.policy import releases
    from claude_migrate.policy.facts import facts_for

    policies = {
        job.settings
        for job in work
        if job.settings.enabled("CM201")
        and (job.kind == "manifest" or os.path.basename(job.path) == "setup.py")
    }
    return releases.policy_warnings(facts_for(s).sdk_minimums for s in policies)


def _notices(notices: Notices, options: Options) -> list[str]:
    """Return warnings for what the walk skipped; `fix` removes the temporary files killed runs
    left (and says so)."""
    cwd = Path.cwd()
    lines = []
    for path, why in notices.skipped:
        lines.append(f"claude-migrate: warning: {display_path(path, cwd)}: skipped: {why}")
    for path in notices.overruled:
        lines.append(
            f"claude-migrate: warning: {display_path(path, cwd)}: checked though an ignore file"
            " names it: git tracks it, and ignore files apply only to untracked files"
        )
    for path in notices.unskipped:
        lines.append(
            f"claude-migrate: warning: {display_path(path, cwd)}: checked though its folder's"
            " name or a marker file (CACHEDIR.TAG, pyvenv.cfg, conda-meta) says it is a cache or"
            " an environment: git tracks it"
        )
    if options.fix and options.write:
        for path in remove_stale_temps(notices.stale_temps):
            shown = display_path(path, cwd)
            lines.append(f"claude-migrate: removed {shown}, left by an interrupted fix")
    return lines


def _diff_outcome(
    run: Run, request: Request, messages: list[str], path_status: str | None
) -> Outcome:
    texts = [text for text in (unified_diff(result) for result in run.results) if text]
    if request.show_fixes:
        from claude_migrate.report.fixes import render_shown_fixes

        shown = render_shown_fixes(run, dry_run=True)
        messages.extend(shown.splitlines())
    if not request.quiet:
        messages.append(f"{_plural(len(texts), 'file')} would be changed.")
    outcome = Outcome(run, 0, messages, diff="".join(texts), error=path_status)
    if path_status is not None:
        outcome.exit_status = 2
    else:
        outcome.exit_status = 0 if request.exit_zero or not texts else 1
    return outcome


def _uncommitted_guard(
    work: list[Job], options: Options, request: Request, stop: Stop
) -> WorkTreeState | None:
    """Find the files with uncommitted changes before `fix` writes; refuse under require_clean."""
    if not options.write:
        return None
    state = git_scan(job.path for job in work)
    if request.require_clean:
        if state.problems:
            raise stop(
                "--require-clean cannot tell whether files have uncommitted changes: "
                + "; ".join(state.problems)
            )
        blocked = dirty_files_to_rewrite(work, options, state, request.jobs)
        if blocked:
            raise stop(
                f"--require-clean: fix would rewrite {_plural(len(blocked), 'file')} with "
                "uncommitted changes (commit or stash them first); nothing was written:\n  "
                + "\n  ".join(blocked)
            )
    return state


def _mixed_with_work(run: Run, work: list[Job], state: WorkTreeState | None) -> list[str]:
    """Return the rewritten files that already had uncommitted changes before the run."""
    if state is None or not state.dirty:
        return []
    paths = {job.display: job.path for job in work}
    written = (r.path for r in run.results if r.written and r.path in paths)
    return sorted(path for path in written if state.is_dirty(paths[path]))


def _path_status(
    request: Request, skipped: list[Skipped], work: list[Job], check: bool
) -> str | None:
    """Return why the run must exit 2 for the paths it was given, or None.

    With `strict_paths`, any named path the tool cannot check; in `check`, also when every
    named path was such a path (nothing was checked, and a gate must not pass on that).
    """
    uncheckable = [s for s in skipped if s.uncheckable]
    if not uncheckable:
        return None
    if request.strict_paths:
        count = _plural(len(uncheckable), "named path")
        return f"{count} cannot be checked (--strict-paths)"
    named = [p for p in request.paths if p != Path("-")]
    if check and not work and len(uncheckable) == len(named):
        return "none of the named paths can be checked"
    return None
