"""A codebase moved to API version 2026-10-21 with the preset, end to end.

fixtures/migration/before/ holds legacy Text Completions, retired API and Bedrock model ids,
`count_tokens`, sampling parameters on the SDK, raw HTTP and Bedrock, an old `anthropic-version`
header and an old SDK pin, under `extend = "api-2026-10-21"`;
every site is marked `# expect: CODE`. fixtures/migration/after/ is the golden tree after
`fix --unsafe-fixes`. Retirements are judged on the policy's fixed `as-of`, never on today.
"""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import libcst as cst
from helpers import FIXTURES, Cli, marked_tree, run_subprocess, snapshot

BEFORE = FIXTURES / "migration" / "before"
AFTER = FIXTURES / "migration" / "after"
# What no rewrite can do: the streaming completion (and so its HUMAN_PROMPT import), the old
# token counter, and the warning for a model that still works until tomorrow.
LEFT = {
    ("app/legacy.py", 2, "CM301"),
    ("app/legacy.py", 17, "CM301"),
    # The model of a legacy call moves only with CM301's rewrite, which a streaming call lacks.
    ("app/legacy.py", 18, "CM302"),
    ("app/chat.py", 23, "CM303"),
    ("app/chat.py", 28, "CM302"),
}


def test_every_deprecated_site_is_reported(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(BEFORE, tree)
    data = Cli(tree).json("check")
    assert data["errors"] == []
    assert {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]} == marked_tree(tree)


def test_fix_rewrites_what_it_can_the_result_parses_and_a_second_fix_changes_nothing(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    shutil.copytree(BEFORE, tree)
    result = run_subprocess("fix", "--unsafe-fixes", "--format", "json", cwd=tree)
    assert result.returncode == 1, result.stderr  # the unfixable sites remain
    left = json.loads(result.stdout)["diagnostics"]
    assert {(d["path"], d["line"], d["code"]) for d in left} == LEFT
    assert all(d["fix"] is None for d in left)
    after = snapshot(tree)
    assert after == snapshot(AFTER)
    for name, data in after.items():
        if name.endswith(".py"):
            ast.parse(data)
            cst.parse_module(data)
    again = run_subprocess("fix", "--unsafe-fixes", cwd=tree)
    assert again.returncode == 1
    assert snapshot(tree) == after


def test_safe_fixes_alone_raise_the_api_version_but_not_a_pin_the_code_depends_on(
    tmp_path: Path,
) -> None:
    """The tree still calls completions.create, HUMAN_PROMPT and count_tokens, all gone from
    anthropic 2.0.0: raising the pin there is no safe fix, and the finding says why."""
    tree = tmp_path / "tree"
    shutil.copytree(BEFORE, tree)
    before = snapshot(tree)
    cli = Cli(tree)
    cli("fix")
    after = snapshot(tree)
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"app/http_client.py"}
    [pin] = [
        d for d in cli.json("check", "--select", "CM201")["diagnostics"] if d["code"] == "CM201"
    ]
    assert pin["fix"]["applicability"] == "unsafe"
    assert "completions (removed in 1.0.0) is used at app/legacy.py:8" in pin["message"]
    assert b'"anthropic-version": "2026-10-21"' in after["app/http_client.py"]
