"""The demo application tree (fixtures/demo): every proven site reported, nothing else, all fixed.

The tree mixes the SDK (sync and async), Bedrock, LangChain, LiteLLM and raw HTTP with OpenAI
code beside them, and a policy file with an override. Expected findings are the `# expect:`
markers in its files.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import libcst as cst
from helpers import FIXTURES, Cli, snapshot

EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")
DEMO = FIXTURES / "demo"


def expected_findings(root: Path) -> set[tuple[str, int, str]]:
    found = set()
    files = [*root.rglob("*.py"), *root.rglob("requirements*.txt")]
    for path in sorted(files):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                for code in re.split(r"[,\s]+", match.group(1).strip()):
                    if code:
                        found.add((path.relative_to(root).as_posix(), number, code))
    return found


def test_demo_tree_reports_exactly_the_marked_sites(tmp_path: Path) -> None:
    tree = tmp_path / "demo"
    shutil.copytree(DEMO, tree)
    data = Cli(tree).json("check")
    assert data["errors"] == []
    found = {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}
    assert found == expected_findings(tree)


def test_demo_tree_fixes_completely_and_settles(tmp_path: Path) -> None:
    tree = tmp_path / "demo"
    shutil.copytree(DEMO, tree)
    cli = Cli(tree)
    result = cli("fix", "--unsafe-fixes")
    assert result.exit_code == 0, result.output
    for path in tree.rglob("*.py"):
        cst.parse_module(path.read_bytes())
    after = snapshot(tree)
    assert cli("check").exit_code == 0
    assert cli("fix", "--unsafe-fixes").exit_code == 0
    assert snapshot(tree) == after
    # Safe fixes alone leave exactly the unsafe ones reported.
    fresh = tmp_path / "fresh"
    shutil.copytree(DEMO, fresh)
    left = Cli(fresh).json("fix")
    assert {d["code"] for d in left["diagnostics"]} == {"CM103"}
