"""Rule tables are read by name in two places only: a rule gets its own, the facts the rest.

Shared modules that several rules call (`retirements`, `model_requests`, ...) read what the
policy says through `ctx.facts`, so no rule can depend on another rule's table unseen.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers import SRC, write_tree

from claude_migrate.checks import ALL_CHECKS
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.policy.facts import facts_for

PACKAGE = SRC / "claude_migrate"
# engine/runner.py hands each rule its own table; facts.py builds the project's facts from
# the others; context.py's `table` is the accessor itself.
READERS = {"runner.py", "facts.py", "context.py"}


RULE_TABLES = {check.name for check in ALL_CHECKS}


def _names_a_rule_table(call: ast.Call) -> bool:
    """Return whether a `.table(...)` call may read a rule's table (project tables aside)."""
    name = call.args[0] if call.args else None
    return not (isinstance(name, ast.Constant) and name.value not in RULE_TABLES)


def test_only_the_engine_and_the_facts_read_rule_tables_by_name() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "table"
                and path.name not in READERS
                and _names_a_rule_table(node)
            ):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []


def test_the_retirement_policy_and_the_sampling_preference_are_facts(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "a.py": "",
            "claude-migrate.toml": (
                '[retired-models]\nwarn-days = 30\nplatform-dates = "ignore"\n'
                'replace = { "claude-3-opus-20240229" = "claude-opus-4-1-20250805" }\n'
                '[model-params]\nprefer = "top_p"\n'
            ),
        },
    )
    path = tmp_path / "a.py"
    facts = facts_for(PolicyLoader(cwd=tmp_path).for_path(path).settings_for(path))
    assert facts.retirement_warn_days == 30
    assert facts.platform_dates == "ignore"
    assert dict(facts.model_replacements) == {"claude-3-opus-20240229": "claude-opus-4-1-20250805"}
    assert facts.sampling_preference == "top_p"
