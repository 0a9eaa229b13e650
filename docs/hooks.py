"""MkDocs hook: the pages generated from the code and the rule pages, added at build time.

- `rules/CMxxx.md`: each rule's page from `rules/` (what `claude-migrate explain` prints), and
  `rules/index.md`, the rule table generated from those pages (`rules --format markdown`).
- `policy/options.md` and `policy/claude-migrate.schema.json`: from the rules' declared options.
- `changelog.md`: CHANGELOG.md.

Nothing here is written into docs/: the generated files exist only in the built site.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

from claude_migrate.policy import catalogue, reference

ROOT = Path(__file__).resolve().parent.parent


def _rule_index() -> str:
    table = catalogue.markdown_table()
    # Each code links to its page.
    table = re.sub(r"^\| (CM\d{3}) \|", r"| [\1](\1.md) |", table, flags=re.M)
    return (
        "# Rules\n\n"
        "Every rule, from its page: what it finds, its default policy and its fix. "
        "`claude-migrate rules` lists them with whether the policy in effect turns each on; "
        "`claude-migrate explain CODE` prints a page.\n\n" + table
    )


def _rule_page(rule: catalogue.RuleInfo) -> str:
    return rule.page() or f"# {rule.code} {rule.name}\n\n{rule.summary}\n"


def on_config(config: Any) -> Any:
    """Give the nav's Rules entry one page per rule, under the generated index."""
    pages: list[Any] = [{"All rules": "rules/index.md"}]
    pages += [{f"{r.code} {r.name}": f"rules/{r.code}.md"} for r in catalogue.all_rules()]
    for index, entry in enumerate(config["nav"]):
        if isinstance(entry, dict) and "Rules" in entry:
            config["nav"][index] = {"Rules": pages}
    return config


def on_files(files: Files, config: Any) -> Files:
    generated = {
        "rules/index.md": _rule_index(),
        "policy/options.md": reference.options_markdown(),
        "policy/claude-migrate.schema.json": reference.schema_text(),
        "changelog.md": (ROOT / "CHANGELOG.md").read_text(encoding="utf-8"),
    }
    for rule in catalogue.all_rules():
        generated[f"rules/{rule.code}.md"] = _rule_page(rule)
    for uri, content in generated.items():
        files.append(File.generated(config, uri, content=content))
    return files
