"""`claude-migrate report`: many `fix --report` files made into one Markdown and one HTML page.

A campaign runs `fix` in many repositories (see `claude_migrate.all_repos`); each run leaves the
JSON report `fix --report` writes, optionally with a `repository` object (`name`, `url`,
`branch`, `status`, `error`) that the campaign runner adds. This module reads those files,
checks their shape (a malformed file is an error naming it and the key, never a traceback), and
renders what a tech lead asks of a campaign: totals per rule (found, fixed, left and why left),
a bar chart per rule, a table per repository sorted by what is left, and every finding that
needs a person, linked to its file and line where the repository's web address is known.

The HTML page is self-contained: inline CSS and inline SVG drawn here, no script, no font and no
address it loads from (links to the repositories are plain anchors).
"""

from __future__ import annotations

import datetime as dt
import html
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from claude_migrate.core.escapes import markdown_text, markdown_url
from claude_migrate.core.source import FileTooLarge, read_regular

STATUSES = ("needs a person", "fixes waiting", "fixed", "clean", "failed")
MIB = 1024 * 1024
MAX_RESULTS_BYTES = 64 * MIB  # one repository's `fix --report` file


class CampaignInputError(ValueError):
    """A results file that is not a `fix --report` JSON document."""


@dataclass(frozen=True)
class LeftFinding:
    """A finding `fix` left, with where to look."""

    path: str
    line: int
    code: str
    rule: str
    message: str
    reason: str
    why: str


@dataclass
class RepoResult:
    """One repository's `fix` report, as the campaign report needs it."""

    name: str
    source: str  # the results file it came from
    url: str | None = None
    branch: str | None = None
    error: str | None = None
    dry_run: bool = False
    files: int = 0
    files_changed: int = 0
    fixed: Counter[str] = field(default_factory=Counter)  # by rule code
    left: list[LeftFinding] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    rule_names: dict[str, str] = field(default_factory=dict)
    tool_version: str | None = None  # the claude-migrate that wrote the report
    pushed: str | None = None  # what the campaign runner did with the branch (its `status`)
    run: dict[str, Any] = field(default_factory=dict)  # the campaign runner's `campaign` object

    @property
    def total_fixed(self) -> int:
        return sum(self.fixed.values())

    @property
    def total_left(self) -> int:
        return len(self.left) + len(self.errors)

    @property
    def status(self) -> str:
        if self.error is not None:
            return "failed"
        if self.total_left:
            return "needs a person"
        if self.total_fixed:
            return "fixes waiting" if self.dry_run else "fixed"
        return "clean"

    def link(self, path: str, line: int | None) -> str | None:
        """Return the web address of `path` at `line` in this repository, when it is known."""
        if not self.url or not self.url.startswith(("https://", "http://")):
            return None
        ref = quote(self.branch or "HEAD", safe="")
        anchor = f"#L{line}" if line else ""
        return f"{self.url.rstrip('/')}/blob/{ref}/{quote(path)}{anchor}"


def _expect(value: Any, kind: type | tuple[type, ...], source: str, key: str, what: str) -> Any:
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise CampaignInputError(f"{source}: `{key}`: expected {what}, got {type(value).__name__}")
    return value


def _text(item: dict[str, Any], key: str, source: str, where: str, default: str = "") -> str:
    value = item.get(key, default)
    return str(_expect(value, str, source, f"{where}.{key}", "a string"))


def _int(item: dict[str, Any], key: str, source: str, where: str, default: int = 0) -> int:
    value = item.get(key, default)
    if value is None:
        return default
    return int(_expect(value, int, source, f"{where}.{key}", "an integer"))


def _line(item: dict[str, Any], source: str, where: str) -> int:
    line = _int(item, "line", source, where)
    if line < 1:
        raise CampaignInputError(f"{source}: `{where}.line`: expected a line number of 1 or more")
    return line


def read_result(path: Path) -> RepoResult:
    """Return one repository's result from a `fix --report` file (campaign fields optional)."""
    source = str(path)
    try:
        # A regular file only (a FIFO would block the report forever), within the size cap.
        raw = read_regular(path, limit=MAX_RESULTS_BYTES)
    except FileTooLarge:
        raise CampaignInputError(
            f"{source}: larger than {MAX_RESULTS_BYTES // MIB} MiB; expected a `fix --report` file"
        ) from None
    except OSError as exc:
        raise CampaignInputError(f"{source}: cannot read: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise CampaignInputError(f"{source}: not a JSON document: {exc}") from None
    _expect(data, dict, source, "(top level)", "an object from `claude-migrate fix --report`")
    repo = data.get("repository") or {}
    _expect(repo, dict, source, "repository", "an object")
    name = repo.get("name") or path.stem
    result = RepoResult(
        name=str(_expect(name, str, source, "repository.name", "a string")),
        source=source,
        url=repo.get("url") if isinstance(repo.get("url"), str) else None,
        branch=repo.get("branch") if isinstance(repo.get("branch"), str) else None,
        error=repo.get("error") if isinstance(repo.get("error"), str) else None,
        pushed=repo.get("status") if isinstance(repo.get("status"), str) else None,
    )
    run = data.get("campaign")
    result.run = run if isinstance(run, dict) else {}
    tool = data.get("tool")
    if isinstance(tool, dict) and isinstance(tool.get("version"), str):
        result.tool_version = tool["version"]
    if result.error is not None and "changed" not in data:
        return result  # the campaign could not run `fix` here: nothing else to read
    for key in ("changed", "left", "errors", "summary"):
        if key not in data:
            raise CampaignInputError(
                f"{source}: missing `{key}`; "
                "expected a report written by `claude-migrate fix --report`"
            )
    result.dry_run = bool(data.get("dry_run", False))
    summary = _expect(data["summary"], dict, source, "summary", "an object")
    result.files = _int(summary, "files", source, "summary")
    for i, changed in enumerate(_expect(data["changed"], list, source, "changed", "a list")):
        where = f"changed[{i}]"
        _expect(changed, dict, source, where, "an object")
        result.files_changed += 1
        for j, applied in enumerate(
            _expect(changed.get("fixes", []), list, source, f"{where}.fixes", "a list")
        ):
            _expect(applied, dict, source, f"{where}.fixes[{j}]", "an object")
            code = _text(applied, "code", source, f"{where}.fixes[{j}]")
            result.fixed[code] += 1
            result.rule_names.setdefault(
                code, _text(applied, "rule", source, f"{where}.fixes[{j}]")
            )
    for i, left in enumerate(_expect(data["left"], list, source, "left", "a list")):
        where = f"left[{i}]"
        _expect(left, dict, source, where, "an object")
        finding = LeftFinding(
            path=_text(left, "path", source, where),
            line=_line(left, source, where),
            code=_text(left, "code", source, where),
            rule=_text(left, "rule", source, where),
            message=_text(left, "message", source, where),
            reason=_text(left, "reason", source, where),
            why=_text(left, "why", source, where),
        )
        result.left.append(finding)
        result.rule_names.setdefault(finding.code, finding.rule)
    for i, error in enumerate(_expect(data["errors"], list, source, "errors", "a list")):
        where = f"errors[{i}]"
        _expect(error, dict, source, where, "an object")
        result.errors.append(
            {
                "path": _text(error, "path", source, where),
                "line": _int(error, "line", source, where),
                "code": _text(error, "code", source, where, "CM001"),
                "message": _text(error, "message", source, where),
            }
        )
    return result


@dataclass
class RuleTotal:
    code: str
    rule: str
    fixed: int = 0
    left: int = 0
    why: Counter[str] = field(default_factory=Counter)
    repositories: set[str] = field(default_factory=set)

    @property
    def found(self) -> int:
        return self.fixed + self.left


@dataclass
class Campaign:
    """Every repository's result and the totals across them."""

    repos: list[RepoResult]

    def rules(self) -> list[RuleTotal]:
        totals: dict[str, RuleTotal] = {}

        def rule(code: str, name: str) -> RuleTotal:
            return totals.setdefault(code, RuleTotal(code, name))

        for repo in self.repos:
            for code, count in repo.fixed.items():
                entry = rule(code, repo.rule_names.get(code, ""))
                entry.fixed += count
                entry.repositories.add(repo.name)
            for finding in repo.left:
                entry = rule(finding.code, finding.rule)
                entry.left += 1
                entry.why[finding.reason or "no-fix-exists"] += 1
                entry.repositories.add(repo.name)
            for error in repo.errors:
                entry = rule(error["code"], "parse-error")
                entry.left += 1
                entry.why["file-error"] += 1
                entry.repositories.add(repo.name)
        return [totals[code] for code in sorted(totals)]

    def by_left(self) -> list[RepoResult]:
        """Repositories with the most left first (failed ones at the top), then by name."""
        return sorted(
            self.repos,
            key=lambda r: (r.status != "failed", -r.total_left, -r.total_fixed, r.name),
        )

    def statuses(self) -> Counter[str]:
        return Counter(repo.status for repo in self.repos)

    @property
    def fixed(self) -> int:
        return sum(r.total_fixed for r in self.repos)

    @property
    def left(self) -> int:
        return sum(r.total_left for r in self.repos)


def load(paths: Iterable[Path]) -> Campaign:
    """Return the campaign made of these results files (a folder stands for its *.json files)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.glob("*.json") if p.is_file()))
        else:
            files.append(path)
    if not files:
        raise CampaignInputError("no results files given (expected `fix --report` JSON files)")
    repos = [read_result(path) for path in files]
    seen: Counter[str] = Counter(repo.name for repo in repos)
    for repo in repos:
        if seen[repo.name] > 1:
            repo.name = f"{repo.name} ({repo.source})"
    return Campaign(repos)


# The header -----------------------------------------------------------------------------------

# How each status reads after a count: (one repository, several).
_STATUS_WORDS = {
    "needs a person": ("needs a person", "need a person"),
    "fixes waiting": ("has fixes waiting", "have fixes waiting"),
    "fixed": ("fixed", "fixed"),
    "clean": ("clean", "clean"),
    "failed": ("failed", "failed"),
}


def _plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def summary_line(campaign: Campaign) -> str:
    """Return "3 repositories: 1 needs a person, 2 fixed. 4 findings fixed, 1 left ..."."""
    statuses = campaign.statuses()
    parts = []
    for status in STATUSES:
        if statuses[status]:
            one, many = _STATUS_WORDS[status]
            parts.append(f"{statuses[status]} {one if statuses[status] == 1 else many}")
    left = campaign.left
    return (
        f"{_plural(len(campaign.repos), 'repository', 'repositories')}: {', '.join(parts)}. "
        f"{_plural(campaign.fixed, 'finding')} fixed, {left} left for a person."
    )


def _one_or_many(values: Iterable[str | None], unknown: str) -> str:
    known = sorted({v for v in values if v})
    return ", ".join(known) if known else unknown


def _when(campaign: Campaign, now: dt.datetime | None) -> str:
    dates = sorted(str(r.run["date"]) for r in campaign.repos if r.run.get("date"))
    if dates:
        return dates[0].replace("T", " ").replace("+00:00", " UTC") + " (the campaign's start)"
    moment = (now or dt.datetime.now(dt.timezone.utc)).strftime("%Y-%m-%d %H:%M UTC")
    return f"{moment} (this report; the results do not say when the campaign ran)"


def _policy(campaign: Campaign) -> str:
    runs = [r.run for r in campaign.repos if r.run]
    if not runs:
        return "not recorded in the results"
    policies = _one_or_many((str(r["policy"]) if r.get("policy") else None for r in runs), "")
    if not policies:
        return "each repository's own"
    if any(r.get("override") for r in runs):
        return f"{policies}, alone (--override)"
    return f"{policies}, under each repository's own policy"


def _dry_run(campaign: Campaign) -> str:
    dry = sum(1 for r in campaign.repos if r.dry_run or r.run.get("dry_run"))
    if dry == 0:
        return "no"
    if dry == len(campaign.repos):
        return "yes: nothing was pushed"
    return f"for {dry} of {_plural(len(campaign.repos), 'repository', 'repositories')}"


def _pull_requests(campaign: Campaign) -> str:
    pushes = _one_or_many((str(r.run.get("push") or "") for r in campaign.repos), "")
    # A repository the fix did not change has nothing to push, whatever else is left in it.
    nothing = {"clean": "nothing to push", "needs a person": "nothing to push"}
    states: Counter[str] = Counter(
        nothing.get(r.pushed, r.pushed) for r in campaign.repos if r.pushed
    )
    if not states:
        return "not recorded in the results"
    by_pull_request = "pull_request" in pushes
    parts = []
    for state, count in sorted(states.items(), key=lambda item: (-item[1], item[0])):
        if state == "pushed" and by_pull_request:
            parts.append(f"{_plural(count, 'pull request')} opened")
        else:
            parts.append(f"{count} {state}")
    return "; ".join(parts) + (f" (push: {pushes})" if pushes else "")


def header(campaign: Campaign, now: dt.datetime | None = None) -> list[tuple[str, str]]:
    """Return the report's header: date, policy, tool version, dry run and pull requests."""
    return [
        ("Date", _when(campaign, now)),
        ("Policy", _policy(campaign)),
        ("claude-migrate", _one_or_many((r.tool_version for r in campaign.repos), "unknown")),
        ("Dry run", _dry_run(campaign)),
        ("Pull requests", _pull_requests(campaign)),
    ]


# Markdown -------------------------------------------------------------------------------------


def _md(text: object) -> str:
    """Return `text` safe inside Markdown (a table cell or a list item): no markup, no HTML."""
    return markdown_text(str(text))


def _md_link(text: str, link: str | None, code: bool = True) -> str:
    """Return a Markdown link to an http(s) address, or the text alone (`code`: as code)."""
    target = markdown_url(link) if link else None
    if target:
        return f"[{_md(text)}]({target})"
    # A code span shows its text literally; one holding a backtick could end it early.
    plain = code and "`" not in text and text.isprintable()
    return f"`{text}`" if plain else _md(text)


def _why(counter: Counter[str]) -> str:
    from claude_migrate.report.fixes import SHORT_REASONS

    labels = {**SHORT_REASONS, "file-error": "file could not be checked"}
    return ", ".join(
        f"{count} {labels.get(reason, reason)}" for reason, count in sorted(counter.items())
    )


def render_markdown(campaign: Campaign, now: dt.datetime | None = None) -> str:
    """Return the campaign report as Markdown."""
    lines = [
        "# claude-migrate campaign report",
        "",
        *(f"- **{label}**: {_md(value)}" for label, value in header(campaign, now)),
        "",
        summary_line(campaign),
        "",
        "## Per rule",
        "",
        "| rule | found | fixed | left | why left | repositories |",
        "|---|---:|---:|---:|---|---:|",
    ]
    for total in campaign.rules():
        lines.append(
            f"| {_md(total.code)} {_md(total.rule)} | {total.found} | {total.fixed} | {total.left} "
            f"| {_md(_why(total.why))} | {len(total.repositories)} |"
        )
    lines += [
        "",
        "## Per repository (most left first)",
        "",
        "| repository | status | files | changed | fixed | left |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for repo in campaign.by_left():
        name = _md_link(repo.name, repo.url if repo.link("", None) else None, code=False)
        status = repo.status + (f": {_md(repo.error)}" if repo.error else "")
        lines.append(
            f"| {name} | {status} | {repo.files} | {repo.files_changed} "
            f"| {repo.total_fixed} | {repo.total_left} |"
        )
    people = [repo for repo in campaign.by_left() if repo.left or repo.errors]
    lines += ["", "## Needs a person", ""]
    if not people:
        lines.append("Nothing: every finding was fixed.")
    for repo in people:
        lines += [f"### {_md(repo.name)}", ""]
        for error in repo.errors:
            where = f"{error['path']}:{error['line']}" if error["line"] else error["path"]
            shown = _md_link(where, repo.link(error["path"], error["line"] or None))
            lines.append(f"- {shown} {_md(error['code'])}: {_md(error['message'])}")
        for finding in repo.left:
            where = f"{finding.path}:{finding.line}"
            shown = _md_link(where, repo.link(finding.path, finding.line))
            why = f" ({_md(finding.why)})" if finding.why else ""
            lines.append(
                f"- {shown} {_md(finding.code)} {_md(finding.rule)}: {_md(finding.message)}{why}"
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


# HTML -----------------------------------------------------------------------------------------

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2em auto;max-width:72em;
color:#1f2328;padding:0 1em}
h1{font-size:1.6em}h2{margin-top:2em;border-bottom:1px solid #d0d7de}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #d0d7de;padding:4px 8px}
th{background:#f6f8fa;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.s-needs{color:#9a3412;font-weight:600}.s-failed{color:#b91c1c;font-weight:700}
.s-fixed,.s-clean{color:#166534}.s-waiting{color:#1d4ed8}
code{background:#f6f8fa;padding:0 3px}
table.facts th{background:none;border:none;padding:2px 12px 2px 0}
table.facts td{border:none;padding:2px 0}table.facts{margin:0 0 1em}
.legend span{display:inline-block;width:10px;height:10px;margin:0 4px 0 12px}
"""

_FIXED_COLOUR = "#2da44e"
_LEFT_COLOUR = "#cf222e"


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _status_class(status: str) -> str:
    return {
        "needs a person": "s-needs",
        "failed": "s-failed",
        "fixed": "s-fixed",
        "clean": "s-clean",
        "fixes waiting": "s-waiting",
    }[status]


def render_chart(totals: Sequence[RuleTotal]) -> str:
    """Return an inline SVG bar chart: one bar per rule, fixed and left stacked."""
    bar_height, gap, label_width, bar_width = 18, 8, 190, 420
    top = 4
    height = top + len(totals) * (bar_height + gap) + 4
    largest = max((t.found for t in totals), default=0) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" width="{label_width + bar_width + 90}"'
        f' height="{height}" viewBox="0 0 {label_width + bar_width + 90} {height}"'
        ' aria-label="findings per rule: fixed and left">'
    ]
    for i, total in enumerate(totals):
        y = top + i * (bar_height + gap)
        fixed_w = round(bar_width * total.fixed / largest, 1)
        left_w = round(bar_width * total.left / largest, 1)
        label = f"{total.code} {total.rule}"
        parts.append(
            f'<text x="{label_width - 6}" y="{y + bar_height - 5}" text-anchor="end"'
            f' font-size="12" font-family="sans-serif">{_e(label)}</text>'
        )
        parts.append(
            f'<rect class="fixed" x="{label_width}" y="{y}" width="{fixed_w}" height="{bar_height}"'
            f' fill="{_FIXED_COLOUR}"><title>{total.fixed} fixed</title></rect>'
        )
        parts.append(
            f'<rect class="left" x="{label_width + fixed_w}" y="{y}" width="{left_w}"'
            f' height="{bar_height}" fill="{_LEFT_COLOUR}"><title>{total.left} left</title></rect>'
        )
        parts.append(
            f'<text x="{label_width + fixed_w + left_w + 6}" y="{y + bar_height - 5}"'
            f' font-size="12" font-family="sans-serif">'
            f"{total.fixed} fixed, {total.left} left</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _anchor(link: str | None, text: str) -> str:
    target = markdown_url(link) if link else None  # http(s) only, quoted
    if target is None:
        return f"<code>{_e(text)}</code>"
    return f'<a href="{_e(target)}">{_e(text)}</a>'


def render_html(campaign: Campaign, now: dt.datetime | None = None) -> str:
    """Return the campaign report as one self-contained HTML page."""
    statuses = campaign.statuses()
    totals = campaign.rules()
    facts = "".join(
        f"<tr><th scope=row>{_e(label)}</th><td>{_e(value)}</td></tr>"
        for label, value in header(campaign, now)
    )
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>claude-migrate campaign report</title>",
        f"<style>{_CSS}</style></head><body>",
        "<h1>claude-migrate campaign report</h1>",
        f'<table class="facts"><tbody>{facts}</tbody></table>',
        f"<p>{_plural(len(campaign.repos), 'repository', 'repositories')}: "
        + ", ".join(
            f'<span class="{_status_class(s)}">{statuses[s]} '
            f"{_e(_STATUS_WORDS[s][0 if statuses[s] == 1 else 1])}</span>"
            for s in STATUSES
            if statuses[s]
        )
        + f". <strong>{campaign.fixed}</strong> {'finding' if campaign.fixed == 1 else 'findings'}"
        f" fixed, <strong>{campaign.left}</strong> left for a person.</p>",
        "<h2>Per rule</h2>",
    ]
    if totals:
        out.append(
            '<p class="legend"><span style="background:' + _FIXED_COLOUR + '"></span>fixed'
            '<span style="background:' + _LEFT_COLOUR + '"></span>left</p>'
        )
        out.append(render_chart(totals))
    out.append(
        "<table><thead><tr><th>rule</th><th>found</th><th>fixed</th><th>left</th>"
        "<th>why left</th><th>repositories</th></tr></thead><tbody>"
    )
    for total in totals:
        out.append(
            f"<tr><td>{_e(total.code)} {_e(total.rule)}</td><td class=n>{total.found}</td>"
            f"<td class=n>{total.fixed}</td><td class=n>{total.left}</td>"
            f"<td>{_e(_why(total.why))}</td><td class=n>{len(total.repositories)}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append("<h2>Per repository, most left first</h2>")
    out.append(
        "<table><thead><tr><th>repository</th><th>status</th><th>files</th><th>changed</th>"
        "<th>fixed</th><th>left</th></tr></thead><tbody>"
    )
    for repo in campaign.by_left():
        name = _anchor(repo.url, repo.name) if repo.link("", None) else _e(repo.name)
        status = _e(repo.status) + (f": {_e(repo.error)}" if repo.error else "")
        out.append(
            f'<tr><td>{name}</td><td class="{_status_class(repo.status)}">{status}</td>'
            f"<td class=n>{repo.files}</td><td class=n>{repo.files_changed}</td>"
            f"<td class=n>{repo.total_fixed}</td><td class=n>{repo.total_left}</td></tr>"
        )
    out.append("</tbody></table>")
    out.append("<h2>Needs a person</h2>")
    people = [repo for repo in campaign.by_left() if repo.left or repo.errors]
    if not people:
        out.append("<p>Nothing: every finding was fixed.</p>")
    for repo in people:
        out.append(f"<h3>{_e(repo.name)}</h3><ul>")
        for error in repo.errors:
            where = f"{error['path']}:{error['line']}" if error["line"] else error["path"]
            link = repo.link(error["path"], error["line"] or None)
            out.append(
                f"<li>{_anchor(link, where)} {_e(error['code'])}: {_e(error['message'])}</li>"
            )
        for finding in repo.left:
            link = repo.link(finding.path, finding.line)
            why = f" <em>({_e(finding.why)})</em>" if finding.why else ""
            out.append(
                f"<li>{_anchor(link, f'{finding.path}:{finding.line}')} {_e(finding.code)} "
                f"{_e(finding.rule)}: {_e(finding.message)}{why}</li>"
            )
        out.append("</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"
