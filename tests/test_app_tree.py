"""The demo application tree (fixtures/demo): every proven site reported, nothing else, all fixed.

The tree mixes the SDK (sync and async), Bedrock, LangChain, LiteLLM and raw HTTP with OpenAI
code beside them, and a policy file with an override. Expected findings are the `# expect:`
markers in its files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import libcst as cst
from helpers import FIXTURES, Cli, marked_tree, snapshot

DEMO = FIXTURES / "demo"


def test_demo_tree_reports_exactly_the_marked_sites(tmp_path: Path) -> None:
    tree = tmp_path / "demo"
    shutil.copytree(DEMO, tree)
    data = Cli(tree).json("check")
    assert data["errors"] == []
    found = {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}
    assert found == marked_tree(tree)


# What no fix can reach: calls whose streaming API has another result type (Bedrock, LiteLLM,
# raw HTTP) and the cache layer's key, whose function shows no Claude call and so no stream flag.
LEFT_WITHOUT_A_FIX = sorted(
    [
        ("app/cache.py", "CM106"),
        # A Bedrock id: Amazon Bedrock sets its own retirement dates (platform-dates "warn").
        ("app/services/agents.py", "CM302"),
        ("app/services/bedrock_summarizer.py", "CM104"),
        ("app/services/bedrock_summarizer.py", "CM104"),
        ("app/services/http_client.py", "CM104"),
        ("app/services/http_client.py", "CM104"),
        ("app/services/legacy_client.py", "CM104"),
        ("app/services/legacy_client.py", "CM104"),
        ("app/services/router.py", "CM104"),
    ]
)


def test_demo_tree_fixes_all_it_can_and_settles(tmp_path: Path) -> None:
    tree = tmp_path / "demo"
    shutil.copytree(DEMO, tree)
    cli = Cli(tree)
    result = cli("fix", "--unsafe-fixes")
    assert result.exit_code == 1, result.output  # the findings without a fix remain
    for path in tree.rglob("*.py"):
        cst.parse_module(path.read_bytes())
    after = snapshot(tree)
    left = cli.json("check")["diagnostics"]
    assert sorted((d["path"], d["code"]) for d in left) == LEFT_WITHOUT_A_FIX
    assert all(d["fix"] is None for d in left)
    assert cli("fix", "--unsafe-fixes").exit_code == 1
    assert snapshot(tree) == after
    # Safe fixes alone leave exactly the findings whose fixes are unsafe or missing.
    fresh = tmp_path / "fresh"
    shutil.copytree(DEMO, fresh)
    left = Cli(fresh).json("fix")["diagnostics"]
    assert {d["code"] for d in left} == {"CM103", "CM104", "CM106", "CM302"}
    assert all(d["fix"] is None or d["fix"]["applicability"] == "unsafe" for d in left)
