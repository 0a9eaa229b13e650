"""The `claude-migrate` command line: click commands only, the work is in `api`."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from . import __version__, api
from .cache import CACHE_DIR_NAME, ResultCache, default_dir
from .checks import KNOWN_CODES
from .config import ConfigError, PolicyLoader
from .engine import Options
from .report import FORMATS, Run
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
        click.option(
            "--cache-dir", type=click.Path(file_okay=False, path_type=Path),
            envvar="CLAUDE_MIGRATE_CACHE_DIR", show_envvar=True,
            help=f"Where results are cached (default: {CACHE_DIR_NAME}/ at the git root).",
        ),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache."),
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
    cache_dir: Path | None = None,
    no_cache: bool = False,
    diff: bool = False,
) -> None:
    chosen = _codes(select, "--select")
    dropped = _codes(ignore, "--ignore") or []
    try:
        loader = PolicyLoader(config)
        work = api.collect_jobs(list(paths) or [Path(".")], loader, chosen, dropped, force_exclude)
    except ConfigError as exc:
        click.echo(f"claude-migrate: error: {exc}", err=True)
        sys.exit(2)
    cache = None if no_cache else ResultCache(cache_dir or default_dir(Path.cwd()))
    run = api.execute(work, options, jobs, cache=cache)
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
    if output_format == "text" and not quiet:
        click.echo(summary(run))
    sys.exit(0 if exit_zero or not run.reported else 1)


@main.command()
@_common
def check(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """Report policy violations in PATHS (default: the current folder)."""
    _run(**kwargs, options=Options())


@main.command()
@_common
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the fixes and write nothing.")
def fix(unsafe_fixes: bool, diff: bool, **kwargs) -> None:  # type: ignore[no-untyped-def]
    """Apply fixes in PATHS; exit 1 if anything remains reported."""
    options = Options(fix=True, unsafe=unsafe_fixes, write=not diff, keep_text=diff)
    _run(**kwargs, options=options, diff=diff)


if __name__ == "__main__":  # pragma: no cover
    main()
