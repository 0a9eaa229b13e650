"""The `claude-migrate` command line: click commands only, the work is in `api`."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import NoReturn

import click

from . import __version__, api, baseline, catalogue, policy_view, starter
from .cache import CACHE_DIR_NAME, ResultCache, default_dir
from .checks import KNOWN_CODES
from .config import ConfigError, PolicyLoader, preset_names
from .diagnostics import SEVERITIES, Severity
from .discovery import EXCLUDED
from .engine import Job, Options
from .fixer import write_atomic
from .git import WorkTreeState
from .git import scan as git_scan
from .progress import progress_bar
from .progress import wanted as progress_wanted
from .report import FORMATS, Run
from .report.fixes import render_report as fixes_report
from .report.fixes import render_table as fixes_table
from .report.fixes import uncommitted_note
from .report.text import summary
from .shard import ShardError
from .shard import parse as parse_shard


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
            "paths", nargs=-1, type=click.Path(exists=True, allow_dash=True, path_type=Path)
        ),
        click.option(
            "--format", "output_format", type=click.Choice(sorted(FORMATS)), default="text",
            show_default=True, help="Output format.",
        ),
        click.option(
            "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
            help="Write the report to this file instead of standard output.",
        ),
        click.option(
            "--select", help="Comma-separated codes or prefixes to enable (replaces the policy's)."
        ),
        click.option(
            "--ignore", help="Comma-separated codes or prefixes to disable (added to the policy's)."
        ),
        click.option(
            "--config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
            help="Use this policy file for every file instead of the nearest one.",
        ),
        click.option("--exit-zero", is_flag=True, help="Exit 0 even when something is reported."),
        click.option(
            "--fail-on", type=click.Choice(SEVERITIES), default="error", show_default=True,
            help="Exit 1 for findings of this severity or worse (error > warning > info); "
            "file errors and stale baseline entries always fail.",
        ),
        click.option(
            "--jobs", "-j", type=click.IntRange(min=1), default=None,
            help="Worker processes (default: the CPU count).",
        ),
        click.option(
            "--force-exclude", is_flag=True,
            help="Apply the policy's `exclude` to files named on the command line too.",
        ),
        click.option(
            "--stdin-filename",
            help="Read the source from standard input (PATH `-`) and check it as this file.",
        ),
        click.option("--quiet", "-q", is_flag=True, help="Print findings only, no summary."),
        click.option(
            "--cache-dir", type=click.Path(file_okay=False, path_type=Path),
            envvar="CLAUDE_MIGRATE_CACHE_DIR", show_envvar=True,
            help=f"Where results are cached (default: {CACHE_DIR_NAME}/ at the git root).",
        ),
        click.option("--no-cache", is_flag=True, help="Neither read nor write the result cache."),
        click.option(
            "--strict-paths", is_flag=True,
            help="Exit 2 when a path named on the command line cannot be checked (an unknown "
            "kind of file, a notebook in another language).",
        ),
        click.option(
            "--verbose", "-v", is_flag=True,
            help="Also note on standard error the files found but not checked, and why.",
        ),
        click.option(
            "--base-config", metavar="PRESET|FILE",
            help="Layer this policy (a preset or a TOML file) under every policy found, in place "
            "of the built-in default: a campaign's policy that each repository's own file refines.",
        ),
        click.option(
            "--shard", metavar="K/N",
            help="Check only shard K of N: a stable, size-balanced share of the files, for a CI "
            "matrix (join the shards' JSON or SARIF with `claude-migrate report --merge`).",
        ),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
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
    options: Options,
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
    strict_paths: bool = False,
    verbose: bool = False,
    base_config: str | None = None,
    shard: str | None = None,
) -> None:
    chosen = _codes(select, "--select")
    try:
        chosen_shard = parse_shard(shard) if shard is not None else None
    except ShardError as exc:
        raise click.BadParameter(str(exc), param_hint="--shard") from None
    if base_config is not None and config is not None:
        raise click.UsageError("use either --config (one policy for every file) or --base-config")
    dropped = _codes(ignore, "--ignore") or []
    use_stdin = paths == (Path("-"),) or (not paths and stdin_filename is not None)
    if Path("-") in paths and not use_stdin:
        raise click.UsageError("`-` (standard input) cannot be mixed with other paths")
    if (prune_baseline or show_baselined) and baseline_file is None:
        raise click.UsageError("--prune-baseline and --show-baselined need --baseline FILE")
    if write_baseline is not None and baseline_file is not None:
        raise click.UsageError("use either --baseline or --write-baseline, not both")
    stdin: api.StdinInput | None = None
    skipped: list[api.Skipped] = []
    if use_stdin:
        options = Options(fix=options.fix, unsafe=options.unsafe, write=False, keep_text=True)
    try:
        loader = PolicyLoader(config, base=base_config)
        if use_stdin:
            data = sys.stdin.buffer.read()
            stdin = api.read_stdin(data, stdin_filename, loader, chosen, dropped, force_exclude)
            work = [stdin.job] if stdin.job is not None else []
        else:
            targets = list(paths) or [Path(".")]
            collected = api.collect(
                targets, loader, chosen, dropped, force_exclude, shard=chosen_shard
            )
            work, skipped = collected.jobs, collected.skipped
    except ConfigError as exc:
        _fail(str(exc))
    _warn_skipped(skipped, quiet)
    uncommitted = None
    if options.fix and stdin is None:
        uncommitted = _uncommitted_guard(work, options, jobs, require_clean)
    cache = None if no_cache else ResultCache(cache_dir or default_dir(Path.cwd()))
    show_progress = options.fix and stdin is None and progress_wanted(sys.stderr, quiet)
    with progress_bar(len(work), fixing=options.fix, enabled=show_progress) as on_result:
        run = api.execute(work, options, jobs, on_result, cache=cache)
    if stdin is not None and stdin.result is not None:
        run = Run(results=[stdin.result], fixing=options.fix, unsafe=options.unsafe)
    run.skipped = [(s.display, s.reason) for s in skipped if s.reason != EXCLUDED]
    if verbose:
        for result in run.results:
            if result.skipped is not None:
                note = f"{result.path}: not checked: {result.skipped}"
                click.echo(f"claude-migrate: note: {note}", err=True)
    path_status = _path_status(paths, skipped, work, strict_paths, check=not options.fix)
    mixed = _mixed_with_work(run, work, uncommitted)
    if report_file is not None:
        _write_report(report_file, fixes_report(run, dry_run=diff, uncommitted=mixed))
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
        if path_status is not None:
            _fail(path_status)
        sys.exit(0 if exit_zero or not changed else 1)
    if write_baseline is not None:
        try:
            recorded = baseline.record(run.results, write_baseline, run.cwd)
        except baseline.BaselineError as exc:
            _fail(str(exc))
        recorded.save()
        click.echo(
            f"claude-migrate: recorded {recorded.total} finding{'s' if recorded.total != 1 else ''}"
            f" in {write_baseline}",
            err=True,
        )
        sys.exit(0)
    if baseline_file is not None:
        run = _with_baseline(run, baseline_file, prune_baseline, show_baselined, quiet)
    run.fail_on = Severity(fail_on)
    # Fixed source goes to standard output; the report then goes to standard error.
    report_to_stderr = stdin is not None and options.fix
    if stdin is not None:
        piped = run.results[0] if run.results else None
        if options.fix:
            sys.stdout.flush()
            sys.stdout.buffer.write(stdin.output_bytes(piped))
            sys.stdout.buffer.flush()
        if stdin.source is not None:
            fixed = piped.fixed_text if piped is not None else None
            run.sources[stdin.display] = fixed or stdin.source.text
    stream = sys.stderr if report_to_stderr else sys.stdout
    if output is None and output_format == "text" and stream.isatty():
        run.show_source = True
        run.color = not os.environ.get("NO_COLOR")
    report = FORMATS[output_format](run)
    note = uncommitted_note(mixed, dry_run=False)
    if output_format in ("text", "concise") and not quiet:
        if options.fix:
            report += fixes_table(run, dry_run=False, color=run.color)
        report += summary(run) + "\n"
        if note:
            report += note + "\n"
    elif note:
        click.echo(note, err=True)
    if output is not None:
        try:
            output.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(output, report.encode("utf-8"))
        except OSError as exc:
            _fail(f"{output}: cannot write the report: {exc.strerror or exc}")
    else:
        click.echo(report, nl=False, err=report_to_stderr)
    if path_status is not None:
        _fail(path_status)
    failed = run.failed or (exit_non_zero_on_fix and run.fixed > 0)
    sys.exit(0 if exit_zero or not failed else 1)


def _warn_skipped(skipped: list[api.Skipped], quiet: bool) -> None:
    """Name on standard error every named path that gives nothing to check, and why."""
    for entry in skipped:
        if entry.reason == EXCLUDED:
            continue  # asked for: pre-commit names every staged file, the policy leaves some out
        if entry.uncheckable or not quiet:
            warning = f"{entry.display}: not checked: {entry.reason}"
            click.echo(f"claude-migrate: warning: {warning}", err=True)


def _path_status(
    paths: tuple[Path, ...],
    skipped: list[api.Skipped],
    work: list[Job],
    strict: bool,
    check: bool,
) -> str | None:
    """Return why the run must exit 2 for the paths it was given, or None.

    With --strict-paths, any named path the tool cannot check; in `check`, also when every
    named path was such a path (nothing was checked, and a gate must not pass on that).
    """
    uncheckable = [s for s in skipped if s.uncheckable]
    if not uncheckable:
        return None
    if strict:
        count = len(uncheckable)
        return f"{count} named path{'s' if count != 1 else ''} cannot be checked (--strict-paths)"
    named = [p for p in paths if p != Path("-")]
    if check and not work and len(uncheckable) == len(named):
        return "none of the named paths can be checked"
    return None


def _with_baseline(run: Run, path: Path, prune: bool, show: bool, quiet: bool) -> Run:
    try:
        run, pruned = api.apply_baseline(run, path, prune, show)
    except baseline.BaselineError as exc:
        _fail(str(exc))
    if pruned and not quiet:
        entries = f"{pruned} stale entr{'ies' if pruned != 1 else 'y'}"
        click.echo(f"claude-migrate: pruned {entries} from {path}", err=True)
    return run


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
        write_atomic(path, text.encode("utf-8"))
    except OSError as exc:
        message = f"claude-migrate: error: cannot write the report {path}: {exc.strerror}"
        click.echo(message, err=True)
        sys.exit(2)


@main.command()
@_common
@click.option(
    "--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Report only findings not recorded in this baseline file.",
)
@click.option(
    "--write-baseline", type=click.Path(dir_okay=False, path_type=Path),
    help="Record today's findings in this file (entries of files not checked are kept) and exit 0.",
)
@click.option(
    "--prune-baseline", is_flag=True, help="Rewrite --baseline without its stale entries."
)
@click.option(
    "--show-baselined", is_flag=True,
    help="SARIF: also list baselined findings, with baselineState `unchanged`.",
)
def check(**kwargs) -> None:  # type: ignore[no-untyped-def]
    """Report policy violations in PATHS (default: the current folder; `-`: standard input).

    Each finding is printed with its rule code; `[*]` marks one that `claude-migrate fix`
    fixes. Exit 1 when a finding at or above --fail-on (default: error) is reported.
    """
    _run(**kwargs, options=Options())


@main.command()
@_common
@click.option("--unsafe-fixes", is_flag=True, help="Also apply fixes marked unsafe.")
@click.option("--diff", is_flag=True, help="Print a unified diff of the fixes and write nothing.")
@click.option(
    "--exit-non-zero-on-fix", is_flag=True,
    help="Exit 1 when a fix was applied, even if nothing remains reported.",
)
@click.option(
    "--report", "report_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Write a JSON report of every changed file and every finding left (with why) to FILE.",
)
@click.option(
    "--require-clean", is_flag=True,
    help="Refuse to run if it would rewrite a file with uncommitted (unstaged or untracked) "
    "changes in a git work tree.",
)
def fix(unsafe_fixes: bool, diff: bool, **kwargs) -> None:  # type: ignore[no-untyped-def]
    """Apply safe fixes in PATHS (unsafe ones too with --unsafe-fixes); exit 1 if any remain.

    With `-` (and --stdin-filename), prints the fixed source to standard output. On a terminal,
    a progress bar shows on stderr (not under --quiet).
    """
    options = Options(fix=True, unsafe=unsafe_fixes, write=not diff, keep_text=diff)
    _run(**kwargs, options=options, diff=diff)


# The catalogue ------------------------------------------------------------------------------


def _terminal() -> bool:
    return sys.stdout.isatty()


@main.command("rules")
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Use this policy file instead of the nearest one.",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def rules_command(path: Path | None, config: Path | None, output_format: str) -> None:
    """List every rule: code, name, fix, and whether the policy for PATH turns it on."""
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
        click.echo(catalogue.format_call_sites(settings.table("call-sites").get("sites", ())), nl=False)


@main.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print a rule's page: what it finds, why, examples, fix safety and its policy options."""
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
    "directory", required=False, default=".",
    type=click.Path(file_okay=False, path_type=Path),
)
@click.option(
    "--preset", type=click.Choice(preset_names()), default="default", show_default=True,
    help="The preset the policy extends.",
)
@click.option(
    "--standalone", is_flag=True,
    help="Write claude-migrate.toml even when a pyproject.toml is there.",
)
def init(directory: Path, preset: str, standalone: bool) -> None:
    """Write a commented starter policy into DIRECTORY (made if missing); never overwrites one."""
    try:
        written = starter.init(directory, preset, standalone)
    except (starter.StarterError, ConfigError) as exc:
        _fail(str(exc))
    what = "appended a [tool.claude-migrate] section to" if written.appended else "wrote"
    click.echo(f"claude-migrate: {what} {starter.display(written.path)} (preset {preset})")


@main.command("show-policy")
@click.argument("path", type=click.Path(path_type=Path))
@click.option(
    "--config", type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Use this policy file instead of the nearest one.",
)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text")
def show_policy(path: Path, config: Path | None, output_format: str) -> None:
    """Print the merged policy in effect for PATH and where each value comes from.

    PATH need not exist yet: the policy depends on where a file is, not on what it holds.
    """
    try:
        loader = PolicyLoader(config)
        display = api.display_path(path.resolve(), Path.cwd().resolve())
        view = policy_view.view(path, loader, display)
    except ConfigError as exc:
        _fail(str(exc))
    render = policy_view.render_json if output_format == "json" else policy_view.render_text
    click.echo(render(view), nl=False)


@main.command("report")
@click.argument(
    "results", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path)
)
@click.option(
    "--merge", is_flag=True,
    help="Join the JSON or SARIF outputs of `--shard K/N` runs into the unsharded result.",
)
@click.option(
    "--markdown", "markdown_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Write the campaign report as Markdown to this file (default: standard output).",
)
@click.option(
    "--html", "html_file", type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the campaign report as one self-contained HTML page.",
)
@click.option(
    "--output", "-o", type=click.Path(dir_okay=False, path_type=Path),
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
    from .report import campaign
    from .report import merge as merging

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

    Needs the `lsp` extra: pip install 'claude-migrate[lsp]'.
    """
    try:
        from .server import serve
    except ImportError as exc:
        _fail(
            f"the language server needs pygls ({exc.name or exc}): "
            "pip install 'claude-migrate[lsp]'"
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
