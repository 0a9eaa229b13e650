"""The README's rule table is generated from the rules' pages, and the two never disagree."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import REPO

from claude_migrate.policy.catalogue import MARKDOWN_COLUMNS, RuleInfo, all_rules, markdown_table

HEADER = "| " + " | ".join(MARKDOWN_COLUMNS) + " |\n"


def _readme_table() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    start = readme.index(HEADER)
    return readme[start : readme.index("\n\n", start) + 1]


def test_the_readme_rule_table_is_the_one_the_pages_generate() -> None:
    assert _readme_table() == markdown_table(), (
        "README.md's rule table differs from the rule pages: run "
        "`python scripts/new_rule.py --readme` to regenerate it"
    )


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_every_page_states_its_row_itself(rule: RuleInfo) -> None:
    page = rule.page() or ""
    lead = page.split("\n## ", 1)[0]
    for label in ("Finds", "Default policy", "Fix"):
        assert f"\n- **{label}**: " in lead, f"rules/{rule.code}.md has no `- **{label}**:` line"


def test_a_rows_wrapped_lines_are_joined_and_a_page_without_them_uses_the_registry(
    tmp_path: Path,
) -> None:
    page = tmp_path / "CM950.md"
    page.write_text(
        "# CM950 wrapped\n\n- **Finds**: a call\n  spread over\n  three lines\n"
        "- **Default policy**: max 1\n- **Fix**: none\n\n## What it does\n",
        encoding="utf-8",
    )
    wrapped = RuleInfo("CM950", "wrapped", "the summary", "safe", page_at=page)
    assert wrapped.overview() == {
        "finds": "a call spread over three lines",
        "default policy": "max 1",
        "fix": "none",
    }
    bare = tmp_path / "CM951.md"
    bare.write_text("# CM951 bare\n\n## What it does\nSomething.\n", encoding="utf-8")
    assert RuleInfo("CM951", "bare", "the summary", "unsafe", page_at=bare).overview() == {
        "finds": "the summary",
        "default policy": "on",
        "fix": "unsafe",
    }


def test_a_pipe_in_a_cell_does_not_split_the_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = tmp_path / "CM952.md"
    page.write_text(
        "# CM952 piped\n\n- **Finds**: `a | b`\n- **Default policy**: on\n- **Fix**: none\n",
        encoding="utf-8",
    )
    rule = RuleInfo("CM952", "piped", "s", "none", page_at=page)
    monkeypatch.setattr("claude_migrate.policy.catalogue.all_rules", lambda: [rule])
    assert markdown_table().splitlines()[-1] == "| CM952 | piped | `a \\| b` | on | none |"
