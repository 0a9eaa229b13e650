"""The `claude-migrate` command line: click commands only, the work is in `api`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__, api
from .checks import KNOWN_CODES
from .config import ConfigError, PolicyLoader
from .engine import Job, Options
from .git import WorkTreeState
from .git import scan as git_scan
from .progress import progress_bar
from .progress import wanted as progress_wanted
from .report import FORMATS, Run
from .report.fixes import render_report as fixes_report
from .report.fixes import render_table as fixes_table
from .report.fixes import uncommitted_note
from .report.text import summary


def _codes(value: str | None, option: str) -> list[str] | None:
    if value is None:
        return None
    codes = [c.strip().upper() for c in value.split(",") if c.strip()]
    for code in codes:
        if not any(known.startswith(code) for known in KNOWN_CODES):
            raise click.BadParameter(
                f"unknown rule code or prefix {code!r} (known: {', '.join(sorted(KNOWN_CODES))})",
                param_hint=option,
            )
    return codes


def _common(func):  # type: ignore[no-untyped-def]
    options = [
        click.argument(
            "paths", nargs=-1, type=click.Path(exists=True, path_type=Path)
        ),
        click.option(
            "--format", "output_format", type=click.Choice(sorted(FORMATS)), default="text",
            show_default=True, help="Output format.",
        ),
        click.option("--select", help="Comma-separated codes or prefixes to enable (replaces the policy's)."),
        click.option("--ignore", help="Comma-separated codes or prefixes to disable (added to the policy's)."),
        click.option(
            "--config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Use this policy file for every file instead of the nearest one.",
        ),
        click.option("--exit-zero", is_flag=True, help="Exit 0 even when something is reported."),
        click.option(
            "--jobs", "-j", type=click.IntRange(min=1), default=None,
            help="Worker processes (default: the CPU count).",
        ),
        click.option(
            "--force-exclude", is_flag=True,
            help="Apply the policy's `exclude` to files named on the command line too.",
        ),
        click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="claude-migrate")
def main() -> None:
    """Find and fix Claude API call patterns your team's policy rules out."""


def _run(
    paths: tuple[Path, ...],
    output_format: str,
    select: str | None,
    ignore: str | None,
    config: Path | None,
    exit_zero: bool,
    jobs: int | None,
    force_exclude: bool,
    quiet: bool,
    options: Options,
    diff: bool = False,
    report: Path | None = None,
    require_clean: bool = False,
) -> None:
    chosen = _codes(select, "--select")
    dropped = _codes(ignore, "--ignore") or []
    try:
        loader = PolicyLoader(config)
        work = api.collect_jobs(list(paths) or [Path(".")], loader, chosen, dropped, force_exclude)
    except ConfigError as exc:
        click.echo(f"claude-migrate: error: {exc}", err=True)
        sys.exit(2)
    uncommitted = _uncommitted_guard(work, options, jobs, require_clean) if options.fix else None
    with progress_bar(
        len(work), fixing=options.fix, enabled=options.fix and progress_wanted(sys.stderr, quiet)
    ) as on_result:
        run = api.execute(work, options, jobs, on_result)
    mixed = _mixed_with_work(run, work, uncommitted)
    if report is not None:
        _write_report(report, fixes_report(run, dry_run=diff, uncommitted=mixed))
    if diff:
        changed = 0
        for result in run.results:
            text = api.unified_diff(result)
            if text:
                changed += 1
                click.echo(text, nl=False)
        if not quiet:
            click.echo(
                f"{changed} file{'s' if changed != 1 else ''} would be changed.", err=True
            )
        sys.exit(0 if exit_zero or not changed else 1)
    output = FORMATS[output_format](run)
    click.echo(output, nl=False)
    note = uncommitted_note(mixed, dry_run=False)
    if output_format == "text" and not quiet:
        if options.fix:
            click.echo(fixes_table(run, dry_run=False), nl=False)
        click.echo(summary(run))
        if note:
            click.echo(note)
    elif note:
        click.echo(note, err=True)
    sys.exit(0 if exit_zero or not run.reported else 1)


def _uncommitted_guard(
    work: list[Job], options: Options, jobs: int | None, require_clean: bool
) -> WorkTreeState | None:
    """Find the files with uncommitted changes before `fix` writes; refuse under --require-clean."""
    if not options.write:
        return None
    state = git_scan(job.path for job in work)
    if require_clean:
        if state.problems:
            click.echo(
                "claude-migrate: error: --require-clean cannot tell whether files have "
                "uncommitted changes: " + "; ".join(state.problems),
                err=True,
            )
            sys.exit(2)
        blocked = api.dirty_files_to_rewrite(work, options, state, jobs)
        if blocked:
            click.echo(
                f"claude-migrate: error: --require-clean: fix would rewrite {len(blocked)} "
                f"file{'s' if len(blocked) != 1 else ''} with uncommitted changes (commit or "
                "stash them first); nothing was written:\n  " + "\n  ".join(blocked),
                err=True,
            )
            sys.exit(2)
    return state


def _mixed_with_work(run: Run, work: list[Job], state: WorkTreeState | None) -> list[str]:
    """Return the rewritten files that already had uncommitted changes before the run."""
    if state is None or not state.dirty:
        return []
    paths = {job.display: job.path for job in work}
    written = (r.path for r in run.results if r.written and r.path in paths)
    return sorted(path for path in written if state.is_dirty(paths[path]))


def _write_report(path: Path, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        message = f"claude-migrate: error: cannot write the report {path}: {exc.strerror}"
        click.echo(message, err=True)
        sys.exit(2)


@main.command()
@_common
def check(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """Report policy violations in PATHS (default: the current folder)."""
    _run(**kwargs, options=Options())


@main.command()
@_common
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the fixes and write nothing.")
@click.option(
    "--report", type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write a JSON report of every changed file and every finding left (with why) to FILE.",
)
@click.option(
    "--require-clean", is_flag=True,
    help="Refuse to run if it would rewrite a file with uncommitted (unstaged or untracked) "
    "changes in a git work tree.",
)
def fix(  # type: ignore[no-untyped-def]
    unsafe_fixes: bool, diff: bool, report: Path | None, require_clean: bool, **kwargs
) -> None:
    """Apply fixes in PATHS; exit 1 if anything remains reported.

    A progress bar shows on stderr when it is a terminal (not under --quiet).
    """
    options = Options(fix=True, unsafe=unsafe_fixes, write=not diff, keep_text=diff)
    _run(**kwargs, options=options, diff=diff, report=report, require_clean=require_clean)


if __name__ == "__main__":  # pragma: no cover
    main()
