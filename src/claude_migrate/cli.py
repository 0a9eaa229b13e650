"""The `claude-migrate` command line: click commands only, the work is in `api`."""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from claude_migrate import __version__, api
from claude_migrate.checks import KNOWN_CODES
from claude_migrate.core.diagnostics import SEVERITIES, FileResult
from claude_migrate.core.errors import ConfigError
from claude_migrate.core.job import Job
from claude_migrate.engine.progress import file_sizes, progress_bar
from claude_migrate.engine.progress import wanted as progress_wanted
from claude_migrate.policy.config import PolicyLoader, preset_names
from claude_migrate.report import FORMATS
from claude_migrate.report.text import shown


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


def _globs(value: str | None) -> tuple[str, ...] | None:
    """Return the comma-separated globs of `--exclude` / `--extend-exclude` (None: not given)."""
    if value is None:
        return None
    return tuple(g.strip() for g in value.split(",") if g.strip())


Command = TypeVar("Command", bound=Callable[..., Any])


# The result cache's options, the same on every command that runs the checks.
_CACHE_DIR = click.option(
    "--cache-dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="CLAUDE_MIGRATE_CACHE_DIR",
    show_envvar=True,
    help="Where results are cached (default: $XDG_CACHE_HOME/claude-migrate, else "
    "~/.cache/claude-migrate).",
)
_NO_CACHE = click.option(
    "--no-cache", is_flag=True, help="Neither read nor write the result cache."
)


def _common(func: Command) -> Command:
    options = [
        click.argument(
            "paths", nargs=-1, type=click.Path(exists=True, allow_dash=True, path_type=Path)
        ),
        click.option(
            "--format",
            "output_format",
            type=click.Choice(sorted(FORMATS)),
            default="text",
            show_default=True,
            help="Output format.",
        ),
        click.option(
            "--output",
            "-o",
            type=click.Path(dir_okay=False, path_type=Path),
            help="Write the report to this file instead of standard output.",
        ),
        click.option(
            "--select", help="Comma-separated codes or prefixes to enable (replaces the policy's)."
        ),
        click.option(
            "--extend-select",
            help="Comma-separated codes or prefixes to enable on top of the policy's selection.",
        ),
        click.option(
            "--ignore", help="Comma-separated codes or prefixes to disable (added to the policy's)."
        ),
        click.option(
            "--exclude",
            metavar="GLOBS",
            help="Comma-separated globs (relative to the working folder) to leave out of the "
            "walk, in place of the policy's `exclude`.",
        ),
        click.option(
            "--extend-exclude",
            metavar="GLOBS",
            help="Comma-separated globs to leave out of the walk, on top of the policy's "
            "`exclude`.",
        ),
        click.option(
            "--statistics",
            is_flag=True,
            help="Print how many findings each rule has (text, or a JSON list with --format "
            "json) instead of the findings.",
        ),
        click.option(
            "--show-fixes",
            is_flag=True,
            help="List the fixes applied, per file and rule (with --diff: those it would make).",
        ),
        click.option(
            "--config",
            type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Use this policy file for every file instead of the nearest one.",
        ),
        click.option("--exit-zero", is_flag=True, help="Exit 0 even when something is reported."),
        click.option(
            "--fail-on",
            type=click.Choice(SEVERITIES),
            default="error",
            show_default=True,
            help="Exit 1 for findings of this severity or worse (error > warning > info); "
            "file errors and stale baseline entries always fail.",
        ),
        click.option(
            "--jobs",
            "-j",
            type=click.IntRange(min=1),
            default=None,
            help="Worker processes (default: the CPU count).",
        ),
        click.option(
            "--force-exclude",
            is_flag=True,
            help="Apply the policy's `exclude` to files named on the command line too.",
        ),
        click.option(
            "--stdin-filename",
            help="Read the source from standard input (PATH `-`) and check it as this file.",
        ),
        click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary."),
        _CACHE_DIR,
        _NO_CACHE,
        click.option(
            "--file-timeout",
            type=click.FloatRange(min=0),
            default=api.DEFAULT_LIMITS.seconds,
            show_default=True,
            envvar="CLAUDE_MIGRATE_FILE_TIMEOUT",
            show_envvar=True,
            help="Seconds one file may take in a worker before it is stopped and reported "
            "(CM001); 0: no limit.",
        ),
        click.option(
            "--file-memory",
            type=click.IntRange(min=0),
            default=(api.DEFAULT_LIMITS.memory or 0) // api.MIB,
            show_default=True,
            envvar="CLAUDE_MIGRATE_FILE_MEMORY",
            show_envvar=True,
            help="MiB of memory one file may use in a worker before it is reported (CM001); "
            "0: no limit.",
        ),
        click.option(
            "--strict-paths",
            is_flag=True,
            help="Exit 2 when a path named on the command line cannot be checked (an unknown "
            "kind of file, a notebook in another language).",
        ),
        click.option(
            "--verbose",
            "-v",
            is_flag=True,
            help="Also note on standard error the files found but not checked, and why.",
        ),
        click.option(
            "--base-config",
            metavar="PRESET|FILE",
            help="Layer this policy (a preset or a TOML file) under every policy found, in place "
            "of the built-in default: a campaign's policy that each repository's own file refines.",
        ),
        click.option(
            "--shard",
            metavar="K/N",
            help="Check only shard K of N: a stable, size-balanced share of the files, for a CI "
            "matrix (join the shards' JSON or SARIF with `claude-migrate report --merge`).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


_STARTED = False


def _freeze_start_up() -> None:
    """Put what start-up allocated (modules, classes, tables) out of the collector's reach.

    None of it is ever freed, yet each full collection of the run (LibCST's import alone
    triggers several) would walk all of it again: `gc.freeze` spares that walk
    (https://docs.python.org/3/library/gc.html#gc.freeze). Once per process, so a program
    that calls the command line several times pins only what existed at the first call. A
    flag says so, not `gc.get_freeze_count()`, which walks every frozen object: in a process
    that calls the command line many times, that walk cost more than a small run.
    """
    global _STARTED
    if not _STARTED:
        _STARTED = True
        if gc.get_freeze_count() == 0:
            gc.freeze()


def _file_named_like_an_option(args: Sequence[str]) -> str | None:
    """Return the first argument that reads as an option yet names a file in the working folder.

    pre-commit appends the staged files' names to the hook's command line as they are, so a
    file a pull request names `--config=lax.toml` (or `-osetup.py`) would be read as an option
    and choose the policy, the baseline or a file to overwrite. Such a name is refused: the
    person who means the file writes `./--config=lax.toml`. Arguments after `--` are names.
    """
    for arg in args:
        if arg == "--":
            return None
        if arg.startswith("-") and arg != "-" and os.path.lexists(arg):
            return arg
    return None


class _Commands(click.Group):
    """The command group; Ctrl-C exits 130 (the shell's code for SIGINT), not click's 1."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        clash = _file_named_like_an_option(args)
        if clash is not None:
            raise click.UsageError(
                f"{clash!r} reads as an option but is the name of a file here; to check the"
                f" file, name it ./{clash}; otherwise rename the file",
                ctx,
            )
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> object:
        _freeze_start_up()
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            # Workers are stopped and every write finished or undone by the time this runs.
            click.echo("claude-migrate: interrupted", err=True)
            sys.exit(130)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="claude-migrate")
def main() -> None:
    """Find and fix Claude API call patterns your team's policy rules out.

    Each finding is an error, a warning or info (its rule's severity, or the policy's
    `[severity]` table); `--fail-on` chooses which fail the run. `[*]` after a finding's code
    marks one that `claude-migrate fix` fixes (with `--unsafe-fixes` for unsafe fixes).

    Exit codes: 0 nothing fails the run, 1 something does, 2 usage, policy or internal error.
    """


def _fail(message: str) -> NoReturn:
    click.echo(f"claude-migrate: error: {message}", err=True)
    sys.exit(2)


def _run(
    paths: tuple[Path, ...],
    output_format: str,
    output: Path | None,
    select: str | None,
    ignore: str | None,
    config: Path | None,
    exit_zero: bool,
    fail_on: str,
    jobs: int | None,
    force_exclude: bool,
    stdin_filename: str | None,
    quiet: bool,
    fixing: bool,
    unsafe_fixes: bool = False,
    cache_dir: Path | None = None,
    no_cache: bool = False,
    diff: bool = False,
    exit_non_zero_on_fix: bool = False,
    baseline_file: Path | None = None,
    write_baseline: Path | None = None,
    prune_baseline: bool = False,
    show_baselined: bool = False,
    report_file: Path | None = None,
    require_clean: bool = False,
    force_write: bool = False,
    file_timeout: float | None = None,
    file_memory: int | None = None,
    strict_paths: bool = False,
    verbose: bool = False,
    base_config: str | None = None,
    shard: str | None = None,
    extend_select: str | None = None,
    exclude: str | None = None,
    extend_exclude: str | None = None,
    statistics: bool = False,
    show_fixes: bool = False,
    fix_only: bool = False,
    add_noqa: bool = False,
    trusted_config: Path | None = None,
    baseline_root: Path | None = None,
) -> NoReturn:
    """Map the flags to an `api.Request`, run it, print the `api.Outcome`, exit with its status."""
    chosen = _codes(select, "--select")
    extended = _codes(extend_select, "--extend-select") or []
    if statistics and output_format not in ("text", "concise", "json"):
        raise click.UsageError("--statistics prints text or JSON (--format text, concise or json)")
    chosen_shard = None
    if shard is not None:
        from claude_migrate.discovery.shard import ShardError
        from claude_migrate.discovery.shard import parse as parse_shard

        try:
            chosen_shard = parse_shard(shard)
        except ShardError as exc:
            raise click.BadParameter(str(exc), param_hint="--shard") from None
    if base_config is not None and config is not None:
        raise click.UsageError("use either --config (one policy for every file) or --base-config")
    if trusted_config is not None and (config or base_config or write_baseline or prune_baseline):
        raise click.UsageError(
            "--trusted-config is the whole policy and writes nothing: it cannot be combined "
            "with --config, --base-config, --write-baseline or --prune-baseline"
        )
    dropped = _codes(ignore, "--ignore") or []
    use_stdin = paths == (Path("-"),) or (not paths and stdin_filename is not None)
    if Path("-") in paths and not use_stdin:
        raise click.UsageError("`-` (standard input) cannot be mixed with other paths")
    if (prune_baseline or show_baselined or baseline_root) and baseline_file is None:
        raise click.UsageError(
            "--prune-baseline, --show-baselined and --baseline-root need --baseline FILE"
        )
    if write_baseline is not None and baseline_file is not None:
        raise click.UsageError("use either --baseline or --write-baseline, not both")
    # Fixing standard input prints the fixed source on standard output, the report on stderr.
    report_stream = sys.stderr if use_stdin and fixing else sys.stdout
    request = api.Request(
        paths=paths,
        select=tuple(chosen) if chosen is not None else None,
        ignore=tuple(dropped),
        config=config,
        trusted_config=trusted_config,
        base_config=base_config,
        force_exclude=force_exclude,
        stdin=sys.stdin.buffer.read() if use_stdin else None,
        stdin_filename=stdin_filename,
        jobs=jobs,
        cache_dir=cache_dir,
        no_cache=no_cache,
        shard=chosen_shard,
        output_format=output_format,
        output=output,
        quiet=quiet,
        verbose=verbose,
        exit_zero=exit_zero,
        fail_on=fail_on,
        strict_paths=strict_paths,
        terminal=report_stream.isatty(),
        color=not os.environ.get("NO_COLOR"),
        baseline=baseline_file,
        baseline_root=baseline_root,
        write_baseline=write_baseline,
        prune_baseline=prune_baseline,
        show_baselined=show_baselined,
        unsafe=unsafe_fixes,
        diff=diff,
        exit_non_zero_on_fix=exit_non_zero_on_fix,
        report_file=report_file,
        require_clean=require_clean,
        force_write=force_write,
        file_timeout=file_timeout,
        file_memory=file_memory,
        extend_select=tuple(extended),
        exclude=_globs(exclude),
        extend_exclude=_globs(extend_exclude) or (),
        statistics=statistics,
        show_fixes=show_fixes,
        fix_only=fix_only,
    )
    if add_noqa:
        _add_noqa(request, fixing)
    show_progress = fixing and not use_stdin and progress_wanted(sys.stderr, quiet)

    def progress(
        jobs: Sequence[Job],
    ) -> AbstractContextManager[Callable[[FileResult], None] | None]:
        sizes = file_sizes((job.display, job.path) for job in jobs) if show_progress else {}
        return progress_bar(sizes, fixing=fixing, enabled=show_progress)

    try:
        outcome = (api.fix if fixing else api.check)(request, progress)
    except api.RequestError as exc:
        for line in exc.messages:
            click.echo(line, err=True)
        _fail(str(exc))
    _print(outcome)


def _add_noqa(request: api.Request, fixing: bool) -> NoReturn:
    """Run `check --add-noqa`: suppress every finding where it stands, then exit."""
    if fixing or request.diff or request.stdin is not None:
        raise click.UsageError("--add-noqa rewrites files: not with --fix, --diff or `-`")
    try:
        added = api.add_noqa(request)
    except api.RequestError as exc:
        for line in exc.messages:
            click.echo(line, err=True)
        _fail(str(exc))
    for line in added.messages:
        click.echo(line, err=True)
    click.echo(added.summary())
    sys.exit(0)  # as ruff: the lines it could not suppress are named above


def _print(outcome: api.Outcome) -> NoReturn:
    """Print an outcome where it belongs and exit with its status."""
    if outcome.diff:
        click.echo(api.encode_report(outcome.diff), nl=False)
    for line in outcome.messages:
        # A warning may name a file of the tree: its terminal controls are written as `\xNN`.
        click.echo("\n".join(shown(part) for part in line.split("\n")), err=True)
    if outcome.fixed_source is not None:
        sys.stdout.flush()
        sys.stdout.buffer.write(outcome.fixed_source)
        sys.stdout.buffer.flush()
    if outcome.report:
        # Bytes, not text: a file name that is not UTF-8 is written as its own bytes in text
        # formats (and was escaped by the structured ones), whatever the locale's encoding.
        click.echo(api.encode_report(outcome.report), nl=False, err=outcome.report_to_stderr)
    if outcome.error is not None:
        _fail(outcome.error)
    sys.exit(outcome.exit_status)


def _write_report(path: Path, text: str) -> None:
    try:
        api.write_text(path, text)
    except OSError as exc:
        message = f"claude-migrate: error: cannot write the report {path}: {exc.strerror}"
        click.echo(message, err=True)
        sys.exit(2)


_FIX_ONLY_HELP = (
    "Apply the fixes and do not report what is left (nor fail for it): for a fix hook that "
    "runs before a `check` hook."
)


@main.command()
@_common
@click.option(
    "--baseline",
    "baseline_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file.",
)
@click.option(
    "--baseline-root",
    type=click.Path(file_okay=False, path_type=Path),
    help="The folder the baseline's paths are relative to (default: the baseline file's "
    "folder; with --trusted-config, the root of the git repository checked).",
)
@click.option(
    "--write-baseline",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Record today's findings in this file (entries of files not checked are kept) and exit 0.",
)
@click.option(
    "--prune-baseline", is_flag=True, help="Rewrite --baseline without its stale entries."
)
@click.option(
    "--show-baselined",
    is_flag=True,
    help="SARIF: also list baselined findings, with baselineState `unchanged`.",
)
@click.option(
    "--trusted-config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Gate untrusted changes (a pull request from a fork): use this policy file alone, "
    "from outside the checked tree, never the tree's policy files or a cache inside it; "
    "--baseline must lie outside it too; list every finding a comment in the files "
    "suppresses (`# noqa`, skip-file).",
)
@click.option("--fix", "fix_flag", is_flag=True, help="Apply safe fixes, as `claude-migrate fix`.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (or mark with [*]) unsafe fixes.")
@click.option("--fix-only", is_flag=True, help=_FIX_ONLY_HELP)
@click.option(
    "--diff", is_flag=True, help="With --fix: print a unified diff of the fixes and write nothing."
)
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="With --fix: exit 1 when a fix was applied, even if nothing remains reported.",
)
@click.option(
    "--add-noqa",
    is_flag=True,
    help="Add a `# noqa: CODE` comment on the line of each finding reported, so that the next "
    "run passes (Python files; a line that ends inside a string is left and named).",
)
def check(fix_flag: bool, **kwargs: Any) -> None:
    """Report policy violations in PATHS (default: the current folder; `-`: standard input).

    Each finding is printed with its rule code; `[*]` marks one that `claude-migrate fix`
    fixes. Exit 1 when a finding at or above --fail-on (default: error) is reported. With
    --fix (or --fix-only) it is `claude-migrate fix`.
    """
    fixing = fix_flag or kwargs["fix_only"]
    for flag in ("diff", "exit_non_zero_on_fix"):
        if kwargs[flag] and not fixing:
            raise click.UsageError(f"--{flag.replace('_', '-')} goes with --fix")
    if fixing and kwargs["baseline_file"] is not None:
        raise click.UsageError("--baseline is for reporting: not with --fix")
    reporting = ("write_baseline", "prune_baseline", "show_baselined", "trusted_config")
    if fixing and any(kwargs[flag] for flag in reporting):
        raise click.UsageError(
            "--write-baseline, --prune-baseline, --show-baselined and --trusted-config report: "
            "not with --fix"
        )
    _run(**kwargs, fixing=fixing)


@main.command()
@_common
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--fix-only", is_flag=True, help=_FIX_ONLY_HELP)
@click.option("--diff", is_flag=True, help="Print a unified diff of the fixes and write nothing.")
@click.option(
    "--exit-non-zero-on-fix",
    is_flag=True,
    help="Exit 1 when a fix was applied, even if nothing remains reported.",
)
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a JSON report of every changed file and every finding left (with why) to FILE.",
)
@click.option(
    "--require-clean",
    is_flag=True,
    help="Refuse to run if it would rewrite a file with uncommitted (unstaged or untracked) "
    "changes in a git work tree.",
)
@click.option(
    "--force-write",
    is_flag=True,
    help="Also rewrite read-only files (by default they are reported and left alone).",
)
def fix(**kwargs: Any) -> None:
    """Apply safe fixes in PATHS (unsafe ones too with --unsafe-fixes); exit 1 if any remain.

    With `-` (and --stdin-filename), prints the fixed source to standard output. On a terminal,
    a progress bar shows on stderr (not under --quiet).
    """
    _run(**kwargs, fixing=True)


@main.command("migrate")
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--to", "to", required=True, help="The model to move to (an API id).")
@click.option(
    "--from",
    "sources",
    multiple=True,
    help="Move only calls to this model (repeatable; default: the target's tier, not newer).",
)
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the changes and write nothing.")
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write a JSON report of every changed file and every finding left (with why) to FILE.",
)
@click.option(
    "--checklist",
    "checklist_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write what the migration could not do, as a Markdown checklist, to FILE.",
)
@click.option("-j", "--jobs", type=click.IntRange(min=1), help="Worker processes.")
@_CACHE_DIR
@_NO_CACHE
@click.option("-q", "--quiet", is_flag=True, help="Print only the summary line.")
def migrate_command(
    paths: tuple[Path, ...],
    to: str,
    sources: tuple[str, ...],
    unsafe_fixes: bool,
    diff: bool,
    report_file: Path | None,
    checklist_file: Path | None,
    jobs: int | None,
    cache_dir: Path | None,
    no_cache: bool,
    quiet: bool,
) -> None:
    """Move every Claude call in PATHS to the model --to names, rewriting each request to its
    contract (rule CM304); what cannot be moved is reported, and listed by --checklist with
    every other mention of a moving model left as written (an environment variable's default,
    a configuration value).

    Exit codes: 0 every call moved and no such mention is left, 1 something is left (see the
    checklist), 2 usage error.
    """
    from claude_migrate import migrate

    migration = migrate.Migration(
        to=to,
        sources=sources,
        paths=paths,
        unsafe=unsafe_fixes,
        diff=diff,
        report_file=report_file,
        checklist=checklist_file,
        jobs=jobs,
        cache_dir=cache_dir,
        no_cache=no_cache,
        quiet=quiet,
    )
    try:
        result = migrate.run(migration)
    except migrate.MigrationError as exc:
        _fail(str(exc))
    except api.RequestError as exc:
        for line in exc.messages:
            click.echo(line, err=True)
        _fail(str(exc))
    except OSError as exc:
        _fail(f"cannot write the checklist {checklist_file}: {exc.strerror}")
    _print(result.outcome)


# The catalogue ------------------------------------------------------------------------------


def _terminal() -> bool:
    return sys.stdout.isatty()


@main.command("rules")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Use this policy file instead of the nearest one.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    help="markdown: the README's rule table (what each rule finds, its default policy and fix).",
)
def rules_command(path: Path | None, config: Path | None, output_format: str) -> None:
    """List every rule: code, name, fix, and whether the policy for PATH turns it on."""
    from claude_migrate.policy import catalogue

    if output_format == "markdown":
        click.echo(catalogue.markdown_table(), nl=False)  # the defaults: no policy is read
        return
    target = path or Path(".")
    try:
        settings = PolicyLoader(config).for_path(target).settings_for(target.resolve())
    except ConfigError as exc:
        _fail(str(exc))
    rows = catalogue.rule_rows(settings)
    if output_format == "json":
        click.echo(json.dumps(rows, indent=2))
    else:
        click.echo(catalogue.format_rules(rows, rich=_terminal()), nl=False)
        click.echo(
            catalogue.format_call_sites(settings.table("call-sites").get("sites", ())), nl=False
        )


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print a rule's page: what it finds, why, examples, fix safety and its policy options."""
    from claude_migrate.policy import catalogue

    rule = catalogue.find_rule(code)
    if rule is None:
        known = ", ".join(r.code for r in catalogue.all_rules())
        _fail(f"unknown rule {code!r} (known: {known})")
    page = rule.page()
    if page is None:
        _fail(f"{rule.code} has no page ({rule.page_path} is missing)")
    click.echo(catalogue.format_page(page, rich=_terminal()), nl=False)


@main.command()
@click.argument(
    "directory",
    required=False,
    default=".",
    type=click.Path(file_okay=False, path_type=Path),
)
@click.option(
    "--preset",
    type=click.Choice(preset_names()),
    default="default",
    show_default=True,
    help="The preset the policy extends.",
)
@click.option(
    "--standalone",
    is_flag=True,
    help="Write claude-migrate.toml even when a pyproject.toml is there.",
)
def init(directory: Path, preset: str, standalone: bool) -> None:
    """Write a commented starter policy into DIRECTORY (made if missing); never overwrites one."""
    from claude_migrate.policy import starter

    try:
        written = starter.init(directory, preset, standalone)
    except (starter.StarterError, ConfigError) as exc:
        _fail(str(exc))
    what = "appended a [tool.claude-migrate] section to" if written.appended else "wrote"
    click.echo(f"claude-migrate: {what} {starter.display(written.path)} (preset {preset})")


@main.command("catalogue")
@click.option(
    "--check",
    "check_sdk",
    is_flag=True,
    help="Compare the catalogue with the installed anthropic package; exit 1 if it lacks "
    "something.",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def catalogue_command(check_sdk: bool, output_format: str) -> None:
    """Show the shipped model catalogue, or (--check) what it lacks against the installed SDK."""
    from claude_migrate.policy import deprecations, installed_sdk, model_facts

    try:
        known = deprecations.load(None)
        facts = model_facts.load()
    except ConfigError as exc:
        _fail(str(exc))
    if not check_sdk:
        rows = [
            {
                "id": m.id,
                "retires": m.retires.isoformat() if m.retires else None,
                "replacement": m.replacement,
                "family": fact.family if (fact := facts.for_model(m.id)) else None,
            }
            for m in known.models
        ]
        if output_format == "json":
            click.echo(json.dumps(rows, indent=2))
        else:
            for row in rows:
                retires = ""
                if row["retires"]:
                    retires = f"retires {row['retires']} -> {row['replacement']}"
                click.echo(f"{row['id']:<32} {row['family'] or '-':<40} {retires}".rstrip())
        return
    sdk = installed_sdk.installed()
    if sdk is None:
        _fail("catalogue --check needs the anthropic package installed next to claude-migrate")
    gaps = installed_sdk.compare(sdk)
    if output_format == "json":
        click.echo(json.dumps({"sdk": sdk.version, "gaps": [g.__dict__ for g in gaps]}, indent=2))
    else:
        for gap in gaps:
            click.echo(gap.line())
        state = f"{len(gaps)} gap{'s' if len(gaps) != 1 else ''}" if gaps else "no gaps"
        click.echo(
            f"catalogue vs {sdk.label}: {len(sdk.models)} models, "
            f"{len(sdk.deprecations)} deprecations; {state}"
        )
    if gaps:
        sys.exit(1)


@main.command("models")
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Use this policy file for every file instead of the nearest one.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "markdown"]),
    default="text",
    help="text, json (a documented contract) or markdown (for a migration ticket).",
)
@click.option(
    "--force-exclude", is_flag=True, help="Apply the policy's `exclude` to files named too."
)
def models_command(
    paths: tuple[Path, ...], config: Path | None, output_format: str, force_exclude: bool
) -> None:
    """List every Claude model id in PATHS (default: .): where, call or data, status, fix.

    Python string literals outside docstrings, notebook cells and configuration files
    (YAML, JSON, TOML, .env, .ini/.cfg) are read. Exits 0; 2 on a usage or policy error.
    """
    from claude_migrate import inventory
    from claude_migrate.discovery.collect import DiscoveryError
    from claude_migrate.report.models import RENDERERS

    try:
        found = inventory.build(
            list(paths) or [Path(".")], PolicyLoader(config), force_exclude=force_exclude
        )
    except (ConfigError, DiscoveryError) as exc:
        _fail(str(exc))
    click.echo(RENDERERS[output_format](found), nl=False)


@main.command("show-policy")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--config",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Use this policy file instead of the nearest one.",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def show_policy(path: Path, config: Path | None, output_format: str) -> None:
    """Print the merged policy in effect for PATH and where each value comes from.

    PATH need not exist yet: the policy depends on where a file is, not on what it holds.
    """
    from claude_migrate.policy import view as policy_view

    try:
        loader = PolicyLoader(config)
        display = api.display_path(path.resolve(), Path.cwd().resolve())
        view = policy_view.view(path, loader, display)
    except ConfigError as exc:
        _fail(str(exc))
    render = policy_view.render_json if output_format == "json" else policy_view.render_text
    click.echo(render(view), nl=False)


@main.command("report")
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--merge",
    is_flag=True,
    help="Join the JSON or SARIF outputs of `--shard K/N` runs into the unsharded result.",
)
@click.option(
    "--markdown",
    "markdown_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the campaign report as Markdown to this file (default: standard output).",
)
@click.option(
    "--html",
    "html_file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the campaign report as one self-contained HTML page.",
)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="With --merge: write the merged document here instead of standard output.",
)
def report_command(
    results: tuple[Path, ...],
    merge: bool,
    markdown_file: Path | None,
    html_file: Path | None,
    output: Path | None,
) -> None:
    """Summarise many `fix --report` files (a campaign), or --merge sharded outputs.

    RESULTS are `fix --report` JSON files (or folders of them), one per repository; the report
    gives totals per rule, a table per repository sorted by what is left, and every finding that
    needs a person.
    """
    from claude_migrate.report import campaign
    from claude_migrate.report import merge as merging

    if merge:
        if markdown_file is not None or html_file is not None:
            raise click.UsageError("--markdown and --html describe a campaign; not with --merge")
        try:
            _, text = merging.merge(list(results))
        except merging.MergeError as exc:
            _fail(str(exc))
        if output is None:
            click.echo(text, nl=False)
        else:
            _write_report(output, text)
        return
    if output is not None:
        raise click.UsageError("--output is for --merge; use --markdown / --html for a campaign")
    try:
        loaded = campaign.load(results)
    except campaign.CampaignInputError as exc:
        _fail(str(exc))
    markdown = campaign.render_markdown(loaded)
    if html_file is not None:
        _write_report(html_file, campaign.render_html(loaded))
    if markdown_file is not None:
        _write_report(markdown_file, markdown)
    else:
        click.echo(markdown, nl=False)


@main.command()
def server() -> None:
    """Run the language server (LSP over stdio) for editors: findings as you type, fixes.

    Needs pygls next to claude-migrate (the `lsp` extra: from a clone, `pip install '.[lsp]'`;
    with pipx, `pipx inject claude-migrate pygls`).
    """
    try:
        from claude_migrate.lsp.server import serve
    except ImportError as exc:
        _fail(
            f"the language server needs pygls ({exc.name or exc}), installed next to "
            f"claude-migrate: {sys.executable} -m pip install 'pygls>=2,<3' "
            "(installed with pipx: pipx inject claude-migrate 'pygls>=2,<3')"
        )
    serve()


def _full_summaries(group: click.Group) -> None:
    """Show each command's whole first sentence in `--help` (click cuts it at 45 characters)."""
    for command in group.commands.values():
        if command.help and not command.short_help:
            command.short_help = command.help.strip().split("\n\n")[0].replace("\n", " ")


_full_summaries(main)


if __name__ == "__main__":  # pragma: no cover
    main()
