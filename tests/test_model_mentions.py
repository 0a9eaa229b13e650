"""Model ids kept as data, through the command line, on a service tree (fixtures/model-mentions).

The tree holds each place a model id lives in real services (YAML settings, a LiteLLM router
config, `.env.example`, a JSON table, a TOML and an `.ini` file, a pricing dict, a UI choice
list, a test that names the model) and the traps (an active model, other vendors' ids, an id in
a docstring and in Markdown, a YAML alias, quoted scalars, CRLF files).
"""

from __future__ import annotations

import configparser
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import FIXTURES, REPO, Cli, snapshot

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

TREE = FIXTURES / "model-mentions"
CRLF_FILES = ("config/settings.yaml", ".env.example")

# (path, line, old, new): every retired id, once, at its place; "call" for the one a Claude call
# is proven to read (an error, reported where the call names it and fixed at the constant).
FOUND = [
    (".env.example", 3, "claude-3-5-sonnet-latest", "claude-sonnet-4-6"),
    (
        "config/litellm_router.yaml",
        4,
        "bedrock/anthropic.claude-instant-v1",
        "bedrock/anthropic.claude-haiku-4-5-20251001-v1:0",
    ),
    (
        "config/litellm_router.yaml",
        8,
        "bedrock/us.anthropic.claude-3-5-sonnet-20241022-v2:0",
        "bedrock/us.anthropic.claude-sonnet-4-6",
    ),
    (
        "config/models.json",
        2,
        "anthropic.claude-3-sonnet-20240229-v1:0",
        "anthropic.claude-sonnet-4-6",
    ),
    ("config/models.json", 3, "claude-3-5-haiku-latest", "claude-haiku-4-5"),
    ("config/service.toml", 3, "claude-2.1", "claude-sonnet-4-6"),
    ("config/settings.yaml", 4, "claude-3-opus-20240229", "claude-opus-4-6"),
    ("config/settings.yaml", 5, "claude-3-haiku-20240307", "claude-haiku-4-5-20251001"),
    ("service/pricing.py", 7, "claude-3-opus-20240229", "claude-opus-4-6"),
    ("service/ui.py", 4, "claude-3-haiku-20240307", "claude-haiku-4-5-20251001"),
    ("setup.ini", 3, "claude-3-7-sonnet-20250219", "claude-sonnet-4-6"),
    ("tests/test_service.py", 5, "claude-3-5-haiku-20241022", "claude-haiku-4-5-20251001"),
    ("tests/test_service.py", 9, "claude-3-opus-20240229", "claude-opus-4-6"),
    ("tests/test_service.py", 13, "claude-3-haiku-20240307", "claude-haiku-4-5-20251001"),
]
# Facts about the old model, reported with no fix: a price keyed by its id, and the test that
# checks that price (renamed, both would state the old model's price for the replacement).
FACTS = {("service/pricing.py", 7), ("tests/test_service.py", 9)}
CALL = ("service/app.py", 11)  # `model=DEFAULT_MODEL`; the fix writes at line 5
CALL_FIX = ("service/app.py", 5, "claude-3-5-haiku-20241022", "claude-haiku-4-5-20251001")


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "service-tree"
    shutil.copytree(TREE, tree)
    for name in CRLF_FILES:
        path = tree / name
        path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    return tree


def _expected_after_fix(before: dict[str, bytes]) -> dict[str, bytes]:
    after = dict(before)
    for path, line, old, new in [*FOUND, CALL_FIX]:
        if (path, line) in FACTS:
            continue
        lines = after[path].split(b"\n")
        assert old.encode() in lines[line - 1], (path, line)
        lines[line - 1] = lines[line - 1].replace(old.encode(), new.encode(), 1)
        after[path] = b"\n".join(lines)
    return after


def _tree_tests(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
        cwd=tree,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _configs_read(tree: Path) -> None:
    for path in tree.rglob("*.yaml"):
        yaml.safe_load(path.read_text(encoding="utf-8"))
    for path in tree.rglob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))
    for path in tree.rglob("*.toml"):
        tomllib.loads(path.read_text(encoding="utf-8"))
    configparser.RawConfigParser().read_string((tree / "setup.ini").read_text(encoding="utf-8"))


def test_check_reports_every_retired_id_once_at_its_place(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    data = Cli(tree).json("check")
    assert data["errors"] == []
    found = sorted((d["path"], d["line"], d["severity"]) for d in data["diagnostics"])
    expected = sorted([(p, line, "warning") for p, line, _, _ in FOUND] + [(*CALL, "error")])
    assert found == expected
    for d in data["diagnostics"]:
        data_mention = (d["path"], d["line"]) != CALL
        assert ("found as data" in d["message"]) == data_mention, d
        assert d["code"] == "CM302"
        if (d["path"], d["line"]) in FACTS:
            assert d["fix"] is None and "facts about it" in d["message"], d
        else:
            assert d["fix"]["applicability"] == "unsafe"


def test_severity_table_makes_data_mentions_errors(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    policy = tree / "claude-migrate.toml"
    policy.write_text(policy.read_text() + '\n[severity]\nCM302 = "error"\n')
    data = Cli(tree).json("check")
    assert {d["severity"] for d in data["diagnostics"]} == {"error"}


def test_fix_without_unsafe_fixes_changes_nothing(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    before = snapshot(tree)
    Cli(tree)("fix", "--no-cache")
    assert snapshot(tree) == before


def test_unsafe_fix_edits_only_the_ids_and_the_tree_still_reads_and_passes(
    tmp_path: Path,
) -> None:
    tree = _copy(tmp_path)
    assert _tree_tests(tree).returncode == 0
    before = snapshot(tree)
    result = Cli(tree)("fix", "--unsafe-fixes", "--no-cache")
    assert result.exit_code == 0, result.output
    after = snapshot(tree)
    assert after == _expected_after_fix(before)
    for name in CRLF_FILES:  # line endings kept, every one of them
        assert after[name].count(b"\r\n") == after[name].count(b"\n")
    _configs_read(tree)
    tests = _tree_tests(tree)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    again = Cli(tree)("fix", "--unsafe-fixes", "--no-cache")
    assert again.exit_code == 0
    assert snapshot(tree) == after


def test_models_lists_every_id_with_its_place_use_and_status(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    result = Cli(tree)("models", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["version"] == 1 and data["as_of"] == "2026-12-01"
    models = {m["model"]: m for m in data["models"]}
    opus = models["claude-3-opus-20240229"]
    assert opus["status"] == "retired" and opus["retires"] == "2026-01-05"
    assert opus["replacement"] == "claude-opus-4-6"
    assert opus["platforms"]["api"] == {"retires": "2026-01-05", "status": "retired"}
    assert sorted((p["path"], p["line"]) for p in opus["places"]) == [
        ("config/settings.yaml", 4),
        ("service/pricing.py", 7),
        ("tests/test_service.py", 9),
    ]
    assert opus["count"] == 3
    haiku = models["claude-3-5-haiku-20241022"]
    uses = sorted((p["path"], p["line"], p["use"]) for p in haiku["places"])
    assert uses == [
        ("config/models.json", 3, "data"),
        ("service/app.py", 5, "call"),
        ("tests/test_service.py", 5, "data"),
    ]
    active = models["claude-sonnet-4-6"]
    assert active["status"] == "active" and active["replacement"] is None
    assert all(p["replacement"] is None for p in active["places"])
    texts = {p["text"] for m in data["models"] for p in m["places"]}
    assert not any(t.startswith(("gpt", "mistral", "text-embedding", "openai")) for t in texts)
    assert data["summary"]["mentions"] == sum(m["count"] for m in data["models"])


def test_models_markdown_is_a_checklist_of_the_places_to_move(tmp_path: Path) -> None:
    tree = _copy(tmp_path)
    result = Cli(tree)("models", "--format", "markdown")
    assert result.exit_code == 0
    assert "| `claude-3-opus-20240229` | retired | 2026-01-05 |" in result.stdout
    assert "- [ ] `config/settings.yaml:4:10` (data): `claude-3-opus-20240229`" in result.stdout


def test_models_on_the_shipped_example_prints_the_inventory() -> None:
    example = REPO / "examples" / "support-desk"
    result = Cli(example)("models")
    assert result.exit_code == 0, result.output
    assert "claude-2.1: retired 2025-07-21 -> claude-sonnet-4-6, 1 mention" in result.stdout
    assert "support_desk/triage.py:28:15  call  claude-2.1 -> claude-sonnet-4-6" in result.stdout


@pytest.mark.parametrize("flag", ["--format=json", "--format=text"])
def test_models_on_a_missing_policy_key_exits_2(tmp_path: Path, flag: str) -> None:
    (tmp_path / "claude-migrate.toml").write_text("[retired-models]\nwarn-days = -1\n")
    (tmp_path / "a.yaml").write_text("model: claude-2.1\n")
    result = Cli(tmp_path)("models", flag)
    assert result.exit_code == 2
    assert "warn-days" in result.output
