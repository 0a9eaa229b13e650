"""The rule catalogue people read: every rule's facts and its page in `rules/<CODE>.md`.

Feeds `claude-migrate rules`, `claude-migrate explain`, the SARIF rule list and `init`. A rule's
facts come from the registry (`checks.ALL_CHECKS`, discovered, plus the pseudo-rule CM001),
its prose from its page, whose sections are fixed (`PAGE_SECTIONS`) so every page reads the same
way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_migrate.checks import ALL_CHECKS, ALWAYS_ON, PSEUDO_RULES, Option, page_path
from claude_migrate.core.resources import rules_dir
from claude_migrate.core.settings import FileSettings

# The headings of every page, as ruff's rule pages have them ("Why is this bad?" is stored
# without its question mark).
PAGE_SECTIONS = (
    "What it does",
    "Why is this bad",
    "Example",
    "Fixed example",
    "Fix safety",
    "Options",
)


@dataclass(frozen=True)
class RuleInfo:
    """What the catalogue says about one rule."""

    code: str
    name: str
    summary: str
    fix: str  # "safe", "unsafe", "display-only" or "none"
    opt_in: bool = False
    always_on: bool = False
    options: dict[str, Option] = field(default_factory=dict)
    severity: str = "error"  # what its findings are unless the policy's `[severity]` says otherwise
    # Where the page is when it is not `rules/<CODE>.md` (a rule from an extra package).
    page_at: Path | None = None

    @property
    def page_path(self) -> Path:
        return self.page_at or rules_dir() / f"{self.code}.md"

    def page(self) -> str | None:
        """Return the rule's page, or None when it has none."""
        try:
            return self.page_path.read_text(encoding="utf-8")
        except OSError:
            return None

    def section(self, title: str) -> str:
        """Return one section of the page (without its heading), or "" when absent."""
        text = self.page()
        return page_sections(text).get(title, "") if text else ""

    def description(self) -> str:
        """Return the first paragraph of "What it does", falling back to the summary."""
        body = self.section("What it does").strip()
        return body.split("\n\n")[0].replace("\n", " ") if body else self.summary

    def overview(self) -> dict[str, str]:
        """Return the page's at-a-glance lines (finds, default policy, fix): its README row.

        They are the list between the page's title and its first section, one item per label
        (`- **Finds**: ...`), wrapped lines indented. A page without them gets the registry's
        facts: the summary, the declared defaults, the fix's applicability.
        """
        found: dict[str, str] = {}
        text = self.page() or ""
        lead = text.split("\n## ", 1)[0] if text.startswith("# ") else ""
        label = None
        for line in lead.splitlines()[1:]:
            item = _OVERVIEW_ITEM.match(line)
            if item is not None:
                label = item.group("label")
                found[label] = item.group("text").strip()
            elif label is not None and line.startswith("  ") and line.strip():
                found[label] += " " + line.strip()
            else:
                label = None
        defaults = ", ".join(f"{key} {option.default!r}" for key, option in self.options.items())
        return {
            "finds": found.get("Finds", self.summary),
            "default policy": found.get("Default policy", defaults or "on"),
            "fix": found.get("Fix", self.fix),
        }


def all_rules() -> list[RuleInfo]:
    """Return every rule, CM001 included, by code."""
    rules = [
        RuleInfo(code, name, summary, "none", always_on=code in ALWAYS_ON)
        for code, (name, summary) in PSEUDO_RULES.items()
    ]
    for check in ALL_CHECKS:
        fix = check.fix_applicability.value if check.fix_applicability is not None else "none"
        rules.append(
            RuleInfo(
                check.code,
                check.name,
                check.summary,
                fix,
                opt_in=check.opt_in,
                options=dict(check.options),
                severity=check.severity.value,
                page_at=page_path(check),
            )
        )
    return sorted(rules, key=lambda rule: rule.code)


def find_rule(code_or_name: str) -> RuleInfo | None:
    """Return the rule with this code (any case) or name."""
    wanted = code_or_name.strip()
    for rule in all_rules():
        if rule.code == wanted.upper() or rule.name == wanted.lower():
            return rule
    return None


_HEADING = re.compile(r"^##\s+(?P<title>.+?)\s*$", re.M)
_OVERVIEW_ITEM = re.compile(r"^- \*\*(?P<label>Finds|Default policy|Fix)\*\*: (?P<text>.*)$")


def page_sections(text: str) -> dict[str, str]:
    """Return a page's `## ` sections by title, in order."""
    sections: dict[str, str] = {}
    matches = list(_HEADING.finditer(text))
    for index, match in enumerate(matches):
        end = matches[index + 1].start() if index + 1 < len(matches) else len(text)
        sections[match.group("title").rstrip("?")] = text[match.end() : end].strip("\n")
    return sections


def status(rule: RuleInfo, settings: FileSettings) -> str:
    """Return "on", "off" or "off (opt-in)" for a rule under a file's settings."""
    if rule.always_on or settings.enabled(rule.code):
        return "on"
    return "off (opt-in)" if rule.opt_in else "off"


def rule_rows(settings: FileSettings) -> list[dict[str, Any]]:
    """Return the `rules` table: code, name, fix, status and summary of every rule."""
    return [
        {
            "code": rule.code,
            "name": rule.name,
            "fix": rule.fix,
            "status": status(rule, settings),
            "summary": rule.summary,
        }
        for rule in all_rules()
    ]


MARKDOWN_COLUMNS = ("code", "name", "finds", "default policy", "fix")


def markdown_table() -> str:
    """Return the README's rule table: one row per rule, from its page's at-a-glance lines."""
    lines = [
        "| " + " | ".join(MARKDOWN_COLUMNS) + " |",
        "|" + "---|" * len(MARKDOWN_COLUMNS),
    ]
    for rule in all_rules():
        cells = {"code": rule.code, "name": rule.name, **rule.overview()}
        lines.append(
            "| " + " | ".join(cells[c].replace("|", "\\|") for c in MARKDOWN_COLUMNS) + " |"
        )
    return "\n".join(lines) + "\n"


def _rich_render(renderable: Any) -> str:
    import io
    import shutil

    from rich.console import Console

    buffer = io.StringIO()
    console = Console(
        file=buffer,
        force_terminal=True,
        width=min(shutil.get_terminal_size((100, 24)).columns, 120),
        highlight=False,
    )
    console.print(renderable)
    return buffer.getvalue()


def format_rules(rows: list[dict[str, Any]], rich: bool) -> str:
    """Return the `rules` table: aligned plain columns, or a rich table on a terminal."""
    headers = ("code", "name", "fix", "status", "summary")
    if rich:
        from rich.table import Table

        table = Table(*headers, title="claude-migrate rules")
        for row in rows:
            table.add_row(*(str(row[h]) for h in headers))
        return _rich_render(table)
    widths = [max(len(h), *(len(str(row[h])) for row in rows)) for h in headers[:-1]]
    lines = []
    for values in [headers, *[tuple(str(row[h]) for h in headers) for row in rows]]:
        cells = [v.ljust(w) for v, w in zip(values, widths, strict=False)] + [values[-1]]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines) + "\n"


def format_call_sites(sites: Any) -> str:
    """Return what `rules` says about the team-declared call sites (`[[call-sites]]`)."""
    entries = [dict(site) for site in sites]
    if not entries:
        return ""
    lines = ["", "Call sites declared by the policy ([[call-sites]]):"]
    for entry in entries:
        mapped = ", ".join(f"{k} = {v}" for k, v in sorted(entry.items()) if k != "function")
        lines.append(f"  {entry['function']}: {mapped}")
    return "\n".join(lines) + "\n"


def format_page(text: str, rich: bool) -> str:
    """Return a rule page: rendered markdown on a terminal, the markdown itself otherwise."""
    if rich:
        from rich.markdown import Markdown

        return _rich_render(Markdown(text))
    return text if text.endswith("\n") else text + "\n"
