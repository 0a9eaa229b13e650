"""`scripts/new_rule.py`: a new rule touches its own room, and the README table is generated."""

from __future__ import annotations

import ast
import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import pytest
from helpers import REPO

from claude_migrate.policy.catalogue import markdown_table


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("new_rule", REPO / "scripts" / "new_rule.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_scaffold_writes_module_page_and_fixture_and_nothing_else(tmp_path: Path) -> None:
    written = _script().scaffold(tmp_path, "CM199", "thinking-budget", "a budget above max")
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == [
        "fixtures/thinking-budget/basic.fixed.py",
        "fixtures/thinking-budget/basic.py",
        "rules/CM199.md",
        "src/claude_migrate/checks/thinking_budget.py",
    ]
    module = (tmp_path / "src/claude_migrate/checks/thinking_budget.py").read_text()
    tree = ast.parse(module)
    (cls,) = [node for node in tree.body if isinstance(node, ast.ClassDef)]
    assert cls.name == "ThinkingBudgetCheck"
    assert 'code = "CM199"' in module and 'name = "thinking-budget"' in module
    page = (tmp_path / "rules/CM199.md").read_text()
    for line in ("- **Finds**: a budget above max", "- **Default policy**:", "- **Fix**:"):
        assert line in page
    for section in ("What it does", "Why is this bad?", "Example", "Fixed example", "Fix safety"):
        assert f"\n## {section}\n" in page


def test_scaffold_never_overwrites(tmp_path: Path) -> None:
    script = _script()
    script.scaffold(tmp_path, "CM199", "thinking-budget", "x")
    page = tmp_path / "rules/CM199.md"
    page.write_text("mine")
    with pytest.raises(SystemExit, match="would overwrite"):
        script.scaffold(tmp_path, "CM199", "thinking-budget", "x")
    assert page.read_text() == "mine"


@pytest.mark.parametrize(("code", "name"), [("CM19", "a-b"), ("CM199", "Bad_Name")])
def test_scaffold_refuses_a_malformed_code_or_name(tmp_path: Path, code: str, name: str) -> None:
    with pytest.raises(SystemExit, match="must be"):
        _script().scaffold(tmp_path, code, name, "x")
    assert list(tmp_path.iterdir()) == []


def test_readme_table_is_regenerated_in_place(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    shutil.copy(REPO / "README.md", readme)
    table = markdown_table()
    stale = table.replace("| CM101 |", "| CM101 (old) |")
    readme.write_text(readme.read_text().replace(table, stale))
    assert _script().sync_readme(readme, table) is True
    assert readme.read_text() == (REPO / "README.md").read_text()
    assert _script().sync_readme(readme, table) is False
