"""An all-repos autofixer: one claude-migrate policy over every repository of an organisation.

    python -m claude_migrate.all_repos -C all-repos.json --policy api-2026-10-21 --results out/

all-repos (https://github.com/asottile/all-repos) clones the repositories and owns how a change
is pushed (a pull request, a merge, nothing); this module is the fixer it runs. For each
repository it clones the all-repos copy into a temporary folder, makes the branch
`all-repos_autofix_<branch>`, runs `claude-migrate fix --report` with the campaign's policy
layered under the repository's own (`--base-config`; `--override` uses the campaign's policy
alone, as `--config`), and when files changed, commits them with a message that lists what was
fixed per rule and what is left for a person and why, then hands the branch to all-repos' push
(whose pull request takes its title and body from that commit). It takes all-repos' own fixer
options: `--dry-run` (commit, never push), `--interactive`, `--jobs`, `--limit`, `--repos`,
`--author`.

With `--results DIR`, each repository's `fix --report` is kept as `DIR/<repository>.json`, with a
`repository` object (name, web address, branch, status), and the campaign report
(`claude-migrate report`) is written as `DIR/campaign.md` and `DIR/campaign.html`.

The fixer runs claude-migrate in an isolated child process (`python -I`) of the interpreter
that runs it, so the repositories' code is never imported, here or in the child: the clone is
the child's working folder, and neither it nor PYTHONPATH, PYTHONSTARTUP or the user's site
folder is on the child's import path.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from claude_migrate.core.escapes import markdown_text

COMMIT_TITLE = "Migrate Claude API calls with claude-migrate"
DEFAULT_BRANCH = "claude-migrate"
_SHOWN_LEFT = 20


def _import_all_repos() -> Any:
    try:
        from all_repos import autofix_lib  # type: ignore[import-untyped]
    except ImportError:
        raise SystemExit(
            "claude-migrate's all-repos fixer needs all-repos, installed next to claude-migrate: "
            f"{sys.executable} -m pip install 'all-repos>=1.25'"
        ) from None
    return autofix_lib


def web_url(remote: str) -> str | None:
    """Return the web address of a git remote on a forge (https or scp-style ssh), else None."""
    remote = remote.strip()
    scp = re.match(r"^(?:ssh://)?git@([^:/]+)[:/](.+?)(?:\.git)?/?$", remote)
    if scp:
        return f"https://{scp.group(1)}/{scp.group(2)}"
    http = re.match(r"^https?://(?:[^@/]+@)?([^/]+)/(.+?)(?:\.git)?/?$", remote)
    if http:
        return f"https://{http.group(1)}/{http.group(2)}"
    return None


def _safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "repository"


def commit_message(report: dict[str, Any], title: str = COMMIT_TITLE) -> str:
    """Return the commit message (and so the pull request's title and body) for one repository."""
    fixed: Counter[tuple[str, str]] = Counter()
    files = 0
    for changed in report.get("changed", []):
        files += 1
        for applied in changed.get("fixes", []):
            fixed[(applied.get("code", ""), applied.get("rule", ""))] += 1
    total = sum(fixed.values())
    lines = [title, ""]
    findings = f"{total} finding{'s' if total != 1 else ''}"
    lines.append(f"Fixed {findings} in {files} file{'s' if files != 1 else ''}:")
    for (code, rule), count in sorted(fixed.items()):
        lines.append(f"- {markdown_text(str(code))} {markdown_text(str(rule))}: {count}")
    left = report.get("left", [])
    errors = report.get("errors", [])
    if left or errors:
        lines += ["", f"Left for a person ({len(left) + len(errors)}):"]
        # The message is the pull request's body, rendered as Markdown: names and messages
        # from the repository are escaped (no raw HTML, no link a file name could plant).
        md = markdown_text
        for error in errors[:_SHOWN_LEFT]:
            where = f"{error.get('path')}:{error.get('line') or 1}"
            lines.append(
                f"- {md(where)} {md(str(error.get('code')))}: {md(str(error.get('message')))}"
            )
        for finding in left[: max(0, _SHOWN_LEFT - len(errors))]:
            why = f" ({md(str(finding['why']))})" if finding.get("why") else ""
            where = f"{finding.get('path')}:{finding.get('line')}"
            lines.append(
                f"- {md(where)} {md(str(finding.get('code')))} "
                f"{md(str(finding.get('rule')))}: {md(str(finding.get('message')))}{why}"
            )
        hidden = len(left) + len(errors) - _SHOWN_LEFT
        if hidden > 0:
            lines.append(f"- ... and {hidden} more (see the campaign report)")
    else:
        lines += ["", "Nothing is left for a person."]
    lines += ["", "Made by claude-migrate's all-repos fixer (python -m claude_migrate.all_repos)."]
    return "\n".join(lines) + "\n"


def run_fix(
    policy: str | None, override: bool, unsafe: bool, report_path: Path
) -> subprocess.CompletedProcess[str]:
    """Run `claude-migrate fix` over the current folder with the campaign's policy."""
    from claude_migrate.isolation import isolated_command

    # Isolated (`-I`): the repository is the working folder, and its modules must not shadow
    # the standard library's in the child, nor PYTHONPATH, PYTHONSTARTUP or a user site apply.
    command = isolated_command("claude_migrate", ["fix", "--quiet", "--no-cache"])
    command += ["--report", str(report_path)]
    if policy is not None:
        command += ["--config" if override else "--base-config", policy]
    if unsafe:
        command.append("--unsafe-fixes")
    command.append(".")
    shown = ["python", "-I", "-m", "claude_migrate", *command[4:]]
    print("$ " + " ".join(shown), flush=True)
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _write_result(results: Path | None, name: str, payload: dict[str, Any]) -> None:
    if results is None:
        return
    results.mkdir(parents=True, exist_ok=True)
    target = results / f"{_safe_name(name)}.json"
    temporary = target.with_name(f".{target.name}.tmp{os.getpid()}")
    temporary.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, target)


def _ask(use_color: bool) -> bool:
    while True:
        try:
            answer = input("***Commit these fixes [y,n,q]? ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            raise SystemExit("Goodbye!") from None
        if answer in ("y", "yes"):
            return True
        if answer in ("n", "no"):
            return False
        if answer in ("q", "quit"):
            raise SystemExit("Goodbye!")
        print("y: commit and push this repository; n: skip it; q: stop the campaign")


def fix_repository(
    repo: str,
    *,
    config: Any,
    settings: Any,
    author: str | None,
    branch: str,
    title: str,
    policy: str | None,
    override: bool,
    unsafe: bool,
    results: Path | None,
    output_dir: str,
    run: dict[str, Any] | None = None,
) -> None:
    """Fix one all-repos repository: clone, fix, commit, push (all-repos' `_fix_inner` steps).

    `run` describes the campaign (when it started, its policy, how it pushes) for the report.
    """
    autofix_lib = _import_all_repos()
    from all_repos import git

    name = os.path.relpath(os.path.abspath(repo), output_dir)
    if name.startswith(".."):
        name = os.path.basename(os.path.abspath(repo))
    info: dict[str, Any] = {"name": name, "branch": None}
    try:
        info["url"] = web_url(git.remote(repo))
    except (OSError, subprocess.CalledProcessError):
        info["url"] = None
    with contextlib.ExitStack() as stack:
        temporary = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="claude-migrate-")))
        report_path = temporary / "report.json"
        payload: dict[str, Any] = {"repository": info, "campaign": run or {}}
        with autofix_lib.repo_context(repo, use_color=settings.color):
            branch_name = f"all-repos_autofix_{branch}"
            autofix_lib.run("git", "checkout", "--quiet", "origin/HEAD", "-b", branch_name)
            done = run_fix(policy, override, unsafe, report_path)
            if done.returncode not in (0, 1) or not report_path.exists():
                detail = (done.stderr or done.stdout).strip().splitlines()
                info["status"] = "failed"
                info["error"] = detail[-1] if detail else f"fix exited {done.returncode}"
                print(done.stderr, file=sys.stderr)
                _write_result(results, name, payload)
                return
            report = json.loads(report_path.read_text(encoding="utf-8"))
            payload = {**report, "repository": info, "campaign": run or {}}
            changed = autofix_lib.run(
                "git", "diff", "origin/HEAD", "--quiet", "--exit-code", check=False
            ).returncode
            if not changed:
                info["status"] = "clean" if not report.get("left") else "needs a person"
                _write_result(results, name, payload)
                return
            if settings.interactive and not _ask(settings.color):
                info["status"] = "skipped"
                payload["dry_run"] = True
                _write_result(results, name, payload)
                return
            message = commit_message(report, title)
            command: list[str] = ["git", "commit", "--quiet", "-a", "-m", message]
            if author:
                command += ["--author", author]
            autofix_lib.run(*command)
            info["branch"] = branch_name
            if settings.dry_run:
                payload["dry_run"] = True
                info["status"] = "committed, not pushed (--dry-run)"
            else:
                config.push(config.push_settings, branch_name)
                info["status"] = "pushed"
            _write_result(results, name, payload)
        if "status" not in info:  # all-repos' repo_context caught an error and printed it
            info["status"] = "failed"
            info["error"] = (
                "the repository could not be cloned, fixed or pushed (see the log above)"
            )
            _write_result(results, name, payload)


def _all_cloned(config: Any) -> Iterable[str]:
    return sorted(config.get_cloned_repos())


def _cloned_paths(config: Any) -> list[str]:
    return [os.path.join(config.output_dir, name) for name in _all_cloned(config)]


def main(argv: Sequence[str] | None = None) -> int:
    autofix_lib = _import_all_repos()
    parser = argparse.ArgumentParser(
        prog="python -m claude_migrate.all_repos",
        description="Apply a claude-migrate policy to every repository all-repos has cloned.",
    )
    autofix_lib.add_fixer_args(parser)
    parser.add_argument(
        "--policy",
        metavar="PRESET|FILE",
        help="The campaign's policy: a preset (default, strict, balanced, api-2026-10-21) or a "
        "TOML file, layered under each repository's own policy (default: each repository's own).",
    )
    parser.add_argument(
        "--override",
        action="store_true",
        help="Apply --policy alone, ignoring the repositories' own policy files.",
    )
    parser.add_argument("--unsafe-fixes", action="store_true", help="Also apply unsafe fixes.")
    parser.add_argument(
        "--branch",
        default=DEFAULT_BRANCH,
        help=f"Branch name suffix (all-repos_autofix_BRANCH; default {DEFAULT_BRANCH}).",
    )
    parser.add_argument(
        "--title", default=COMMIT_TITLE, help="The commit (and pull request) title."
    )
    parser.add_argument(
        "--results",
        type=Path,
        help="Keep each repository's report here and write campaign.md and campaign.html.",
    )
    args = parser.parse_args(argv)
    if args.override and not args.policy:
        parser.error("--override needs --policy")
    policy = args.policy
    if policy is not None and (os.sep in policy or policy.endswith(".toml")):
        if not os.path.isfile(policy):
            parser.error(f"--policy {policy!r}: no such file")
        policy = os.path.abspath(policy)
    if args.override and policy is not None and not policy.endswith(".toml"):
        # `--config` takes a file: a preset becomes a one-line policy that extends it.
        holder = Path(tempfile.mkdtemp(prefix="claude-migrate-policy-"))
        (holder / "claude-migrate.toml").write_text(f'extend = "{policy}"\n', encoding="utf-8")
        policy = str(holder / "claude-migrate.toml")
    results = args.results.resolve() if args.results is not None else None

    repos, config, commit, settings = autofix_lib.from_cli(
        args, find_repos=_cloned_paths, msg=args.title, branch_name=args.branch
    )
    if args.interactive and args.jobs != 1:
        parser.error("--interactive runs one repository at a time (no --jobs)")
    push = getattr(config.push, "__module__", None)
    run = {
        "date": dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat(),
        "policy": args.policy,  # as given: a preset's name or the file named
        "override": bool(args.override),
        "push": push if isinstance(push, str) else None,
        "dry_run": bool(settings.dry_run),
    }
    func = functools.partial(
        fix_repository,
        run=run,
        config=config,
        settings=settings,
        author=commit.author,
        branch=args.branch,
        title=args.title,
        policy=policy,
        override=args.override,
        unsafe=args.unsafe_fixes,
        results=results,
        output_dir=os.path.abspath(config.output_dir),
    )
    from all_repos import mapper

    chosen = tuple(repos)[: settings.limit]
    with mapper.process_mapper(settings.jobs) as do_map:
        mapper.exhaust(do_map(func, chosen))
    if results is not None and any(results.glob("*.json")):
        from claude_migrate.report import campaign

        loaded = campaign.load([results])
        (results / "campaign.md").write_text(campaign.render_markdown(loaded), encoding="utf-8")
        (results / "campaign.html").write_text(campaign.render_html(loaded), encoding="utf-8")
        print(f"claude-migrate: campaign report in {results / 'campaign.md'} and campaign.html")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
