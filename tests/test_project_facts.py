"""Project facts: built once per policy, read by rules instead of each other's tables, keyed once.

The result cache keys every file on the project's facts whatever rules are selected, so a rule
that reads a fact cannot forget to declare it. The regression below is CM303 with a team
catalogue: it reads the catalogue through the facts, and an edited catalogue must reach a
warm run even when CM303 is the only rule selected.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from helpers import SRC, run_subprocess, write_tree

from claude_migrate.policy.config import PolicyLoader
from claude_migrate.policy.facts import ProjectFacts, facts_for

CHECKS = SRC / "claude_migrate" / "checks"
APP = "import anthropic\nclient = anthropic.Anthropic()\nclient.tokenize('hello')\n"
TEAM_REMOVAL = (
    "[[sdk-removals]]\n"
    'name = "tokenize"\n'
    'kind = "client-method"\n'
    'removed-in = "0.50.0"\n'
    'replacement = "client.messages.count_tokens(model=..., messages=...)"\n'
    'rule = "CM303"\n'
)


def test_an_edited_team_catalogue_reaches_a_warm_run_of_cm303_alone(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": (
                'select = ["CM303"]\n[retired-models]\ncatalogue = "team.toml"\n'
            ),
            "team.toml": "schema = 1\n",
            "app.py": APP,
        },
    )
    cold = run_subprocess("check", "--format", "json", cwd=tmp_path)
    assert cold.returncode == 0, cold.stderr
    assert json.loads(cold.stdout)["diagnostics"] == []

    (tmp_path / "team.toml").write_text("schema = 1\n" + TEAM_REMOVAL, encoding="utf-8")
    warm = run_subprocess("check", "--format", "json", cwd=tmp_path)
    found = json.loads(warm.stdout)["diagnostics"]
    assert [(d["code"], d["line"]) for d in found] == [("CM303", 3)], warm.stderr
    uncached = run_subprocess("check", "--no-cache", "--format", "json", cwd=tmp_path)
    assert json.loads(uncached.stdout)["diagnostics"] == found


def test_facts_are_built_once_per_policy_from_the_declared_defaults(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "", "b.py": ""})
    policy = PolicyLoader(cwd=tmp_path).for_path(tmp_path / "a.py")
    first = facts_for(policy.settings_for(tmp_path / "a.py"))
    assert facts_for(policy.settings_for(tmp_path / "b.py")) is first
    assert isinstance(first, ProjectFacts)
    assert first.api_version == "2023-06-01"  # CM105's declared default, written nowhere else
    assert str(first.sdk_floor("anthropic")) == "0.33.0"
    assert first.team_catalogue is None and first.streaming_required


def test_the_facts_key_does_not_depend_on_the_rule_selection(tmp_path: Path) -> None:
    from claude_migrate.engine.cache import external_state

    write_tree(
        tmp_path, {"a.py": "", "claude-migrate.toml": "[retired-models]\nas-of = 2026-01-01\n"}
    )
    path = tmp_path / "a.py"
    policy = PolicyLoader(cwd=tmp_path).for_path(path)
    keys = {
        external_state(policy.settings_for(path, select), "python", str(path))
        for select in (["CM101"], ["CM303"], ["CM302"], None)
    }
    assert len(keys) == 1
    assert "as-of=2026-01-01" in keys.pop()


def _rule_modules() -> list[Path]:
    return [p for p in sorted(CHECKS.glob("*.py")) if p.name not in {"__init__.py", "base.py"}]


SHARED_BASES = {"base", "ceiling"}  # the rule contract and CM101/CM102's shared shape


@pytest.mark.parametrize("module", _rule_modules(), ids=lambda p: p.stem)
def test_a_rule_imports_no_other_rule_and_not_the_writer(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .other import x
                assert node.module.split(".")[0] in SHARED_BASES, f"imports rule {node.module}"
            if node.level == 2:
                assert node.module != "fixer", "a rule never imports the writer"
                assert not (node.module or "").startswith("checks"), node.module


@pytest.mark.parametrize("module", _rule_modules(), ids=lambda p: p.stem)
def test_a_rule_reads_no_policy_table_but_its_own(module: Path) -> None:
    """Other rules' tables are read through the facts (`ctx.facts`), never by name."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "table"
        ):
            raise AssertionError(f"{module.name}:{node.lineno} reads a policy table by name")
