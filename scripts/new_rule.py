"""Scaffold a new rule, or regenerate the README's rule table from the rule pages.

    python scripts/new_rule.py CM109 thinking-budget "a thinking budget above the policy maximum"
    python scripts/new_rule.py --readme

A rule is one module in `src/claude_migrate/checks/`, its page `rules/<CODE>.md` and a fixture
folder `fixtures/<name>/` with `# expect:` markers; nothing else lists it (the registry scans
the package). The scaffold writes those three places, never over an existing file, and says what
to fill in. `--readme` rewrites the rule table in README.md from the pages
(`claude-migrate rules --format markdown`), so the table is generated, never pasted.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MODULE = '''"""{code} {name}: {summary}.

Finds: what the rule reports, and on which calls. Writes instead: what its fix writes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from claude_migrate.checks.base import Check

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.diagnostics import Diagnostic


class {cls}(Check["FileContext"]):
    code = "{code}"
    name = "{name}"
    summary = "{summary}"

    def check(self, ctx: FileContext) -> Iterator[Diagnostic]:
        # Visit ctx's call sites and yield a Diagnostic (with its Fix) for each violation.
        yield from ()
'''

PAGE = """# {code} {name}

- **Finds**: {summary}
- **Default policy**: on
- **Fix**: none

## What it does
What the rule reports, on which calls, and what it never reports.

## Why is this bad?
What goes wrong at run time, with the public source that says so (a URL).

## Example
```python
```

## Fixed example
```python
```

## Fix safety
What the fix changes and why that keeps behaviour, or why there is no fix.

## Options
None.
"""

FIXTURE = '''"""{code} {name}: the shapes it reports and those it leaves alone."""
import anthropic

client = anthropic.Anthropic()
# A call the rule reports carries `# expect: {code}` on the line where the finding starts.
'''


def scaffold(root: Path, code: str, name: str, summary: str) -> list[Path]:
    """Write the rule's module, page and fixture under `root`; return what was written."""
    if not re.fullmatch(r"CM\d{3}", code):
        raise SystemExit(f"new_rule: the code must be CM and three digits, got {code!r}")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", name):
        raise SystemExit(f"new_rule: the name must be kebab-case (`max-tokens`), got {name!r}")
    snake = name.replace("-", "_")
    cls = "".join(part.title() for part in name.split("-")) + "Check"
    values = {"code": code, "name": name, "summary": summary, "cls": cls}
    files = {
        root / "src" / "claude_migrate" / "checks" / f"{snake}.py": MODULE.format(**values),
        root / "rules" / f"{code}.md": PAGE.format(**values),
        root / "fixtures" / name / "basic.py": FIXTURE.format(**values),
        root / "fixtures" / name / "basic.fixed.py": FIXTURE.format(**values),
    }
    existing = [str(path) for path in files if path.exists()]
    if existing:
        raise SystemExit("new_rule: would overwrite " + ", ".join(existing) + "; nothing written")
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)


def sync_readme(readme: Path, table: str) -> bool:
    """Replace the rule table in `readme` by `table`; return whether the file changed."""
    text = readme.read_text(encoding="utf-8")
    header = table.split("\n", 1)[0] + "\n"
    start = text.find(header)
    if start == -1:
        raise SystemExit(f"new_rule: {readme} has no rule table starting {header.strip()!r}")
    end = text.index("\n\n", start) + 1
    updated = text[:start] + table + text[end:]
    if updated != text:
        readme.write_text(updated, encoding="utf-8")
    return updated != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("code", nargs="?", help="the rule's code, e.g. CM109")
    parser.add_argument("name", nargs="?", help="the rule's kebab-case name")
    parser.add_argument("summary", nargs="?", help="what it finds, in a few words")
    parser.add_argument("--readme", action="store_true", help="regenerate README's rule table")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project's top folder")
    args = parser.parse_args(argv)
    if args.readme:
        from claude_migrate.policy.catalogue import markdown_table

        changed = sync_readme(args.root / "README.md", markdown_table())
        print("README.md: rule table " + ("updated" if changed else "already current"))
        return 0
    if not (args.code and args.name and args.summary):
        parser.error("give CODE NAME SUMMARY, or --readme")
    for path in scaffold(args.root, args.code, args.name, args.summary):
        print(f"wrote {path}")
    print("Next: fill in the module's check(), the page's sections and the fixture's cases;")
    print("then `python scripts/new_rule.py --readme` and `pytest tests/test_fixtures.py`.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
