"""`--shard K/N` and `report --merge`: shards split the files, their outputs join to one run's."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import REPO

from claude_migrate.cli import main
from claude_migrate.discovery import shard

FIXTURES = REPO / "fixtures"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("temperature", "streaming", "max-tokens", "sdk-pins", "retired-models"):
        shutil.copytree(FIXTURES / name, tmp_path / "tree" / name)
    (tmp_path / "tree" / "broken.py").write_text("def (:\n")  # a CM001 error in one shard
    (tmp_path / "tree" / ".git").mkdir()  # the repository root SARIF paths are relative to
    monkeypatch.chdir(tmp_path / "tree")
    return tmp_path / "tree"


def _check(*args: str) -> dict:
    result = CliRunner().invoke(main, ["check", "--no-cache", "--jobs", "1", *args, "."])
    assert result.exit_code in (0, 1), result.output + result.stderr
    return json.loads(result.stdout)


@pytest.mark.parametrize("output_format", ["json", "sarif"])
@pytest.mark.parametrize("count", [2, 3])
def test_merged_shards_equal_the_unsharded_run(tree: Path, output_format: str, count: int) -> None:
    whole = _check("--format", output_format)
    paths = []
    for index in range(1, count + 1):
        part = tree.parent / f"shard{index}.{output_format}"
        part.write_text(
            json.dumps(_check("--format", output_format, "--shard", f"{index}/{count}"))
        )
        paths.append(str(part))
    merged = CliRunner().invoke(main, ["report", "--merge", *paths])
    assert merged.exit_code == 0, merged.stderr
    assert json.loads(merged.stdout) == whole
    if output_format == "json":
        assert whole["errors"] and whole["diagnostics"]  # the comparison covers both lists


def test_shards_are_disjoint_cover_every_file_and_are_balanced(tree: Path) -> None:
    files = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file())
    sizes = {f: (tree / f).stat().st_size or 1 for f in files}
    parts = shard.partition(files, 4, key=str, weight=lambda f: sizes[f])
    assert sorted(f for part in parts for f in part) == files
    loads = [sum(sizes[f] for f in part) for part in parts]
    assert max(loads) - min(loads) <= max(sizes.values())
    # The same files in another order give the same shards.
    again = shard.partition(list(reversed(files)), 4, key=str, weight=lambda f: sizes[f])
    assert [sorted(p) for p in again] == [sorted(p) for p in parts]


def test_every_file_is_checked_by_exactly_one_shard(tree: Path) -> None:
    whole = _check("--format", "json")
    counted = sum(
        _check("--format", "json", "--shard", f"{k}/3")["summary"]["files"] for k in (1, 2, 3)
    )
    assert counted == whole["summary"]["files"]


@pytest.mark.parametrize("spec", ["0/3", "4/3", "1/0", "x", "1-3", ""])
def test_a_bad_shard_is_a_usage_error(tree: Path, spec: str) -> None:
    result = CliRunner().invoke(main, ["check", "--shard", spec, "."])
    assert result.exit_code == 2
    assert "--shard" in result.stderr and "K/N" in result.stderr


def test_merge_refuses_mixed_or_foreign_inputs(tree: Path) -> None:
    (tree.parent / "a.json").write_text(json.dumps(_check("--format", "json")))
    (tree.parent / "b.sarif").write_text(json.dumps(_check("--format", "sarif")))
    (tree.parent / "c.json").write_text('{"hello": 1}')
    mixed = CliRunner().invoke(main, ["report", "--merge", "../a.json", "../b.sarif"])
    assert mixed.exit_code == 2 and "cannot merge JSON and SARIF" in mixed.stderr
    foreign = CliRunner().invoke(main, ["report", "--merge", "../a.json", "../c.json"])
    assert foreign.exit_code == 2 and "c.json" in foreign.stderr
