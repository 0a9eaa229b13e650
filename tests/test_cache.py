"""The result cache answers exactly what a cold run answers, and never parses on a warm run."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from helpers import FIXTURES, SRC, Cli, snapshot, write_tree

from claude_migrate.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    FileResult,
    Fix,
)
from claude_migrate.engine import cache as cache_module
from claude_migrate.engine import runner as engine
from claude_migrate.engine.cache import (
    ResultCache,
    build_id,
    result_from_json,
    result_to_json,
)

BROKEN = "import anthropic\nclient = anthropic.Anthropic()\ndef f(:\n    temperature=1\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """Every fixture, a broken file and a plain one, in a tree of their own: for the tests that
    prove a cached run answers exactly as an uncached one, whatever the shape."""
    root = tmp_path / "tree"
    shutil.copytree(FIXTURES, root, ignore=shutil.ignore_patterns("*.fixed.py"))
    write_tree(root, {"extra/broken.py": BROKEN, "extra/plain.py": "x = 1\n"})
    return root


# Fixtures of every kind of file and result (findings with safe and unsafe fixes, notebooks,
# requirements, a project whose findings read other modules, recordings), for the tests of how
# entries are kept, refused and rewritten: what they prove does not grow with the fixtures.
SOME_FIXTURES = (
    "demo",
    "notebooks",
    "streaming",
    "sdk-pins",
    "cache-key",
    "project-inheritance",
    "project-recordings",
)


@pytest.fixture
def small_tree(tmp_path: Path) -> Path:
    """`SOME_FIXTURES`, a broken file and a plain one, in a tree of their own."""
    root = tmp_path / "tree"
    for name in SOME_FIXTURES:
        shutil.copytree(FIXTURES / name, root / name, ignore=shutil.ignore_patterns("*.fixed.py"))
    write_tree(root, {"extra/broken.py": BROKEN, "extra/plain.py": "x = 1\n"})
    return root


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count LibCST parses in this process (runs below use --jobs 1)."""
    seen: list[str] = []
    original = engine._parse

    def counting(text: str):  # type: ignore[no-untyped-def]
        seen.append(text)
        return original(text)

    monkeypatch.setattr(engine, "_parse", counting)
    return seen


def _json(cli: Cli, *args: str) -> tuple[int, str]:
    result = cli(*args, "--format", "json", "--jobs", "1")
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, result.stdout


def test_warm_run_prints_exactly_the_cold_json_and_parses_nothing(
    tree: Path, tmp_path: Path, parses: list[str]
) -> None:
    cli = Cli(tree)
    folder = str(tmp_path / "cache")
    uncached = _json(cli, "check", "--no-cache")
    parses.clear()
    cold = _json(cli, "check", "--cache-dir", folder)
    assert parses, "the cold run parses the Claude files"
    parses.clear()
    warm = _json(cli, "check", "--cache-dir", folder)
    assert parses == []
    assert warm == cold == uncached
    data = json.loads(warm[1])
    assert data["diagnostics"] and data["errors"], "the tree exercises findings and CM001"


def test_warm_results_say_they_came_from_the_cache(small_tree: Path, tmp_path: Path) -> None:
    from claude_migrate.api import collect_jobs, execute
    from claude_migrate.core.job import Options
    from claude_migrate.policy.config import PolicyLoader

    jobs = collect_jobs([small_tree], PolicyLoader(cwd=small_tree))
    cache = ResultCache(tmp_path / "cache")
    cold = execute(jobs, Options(), workers=1, cache=cache)
    warm = execute(jobs, Options(), workers=1, cache=ResultCache(tmp_path / "cache"))
    parsed = {r.path for r in cold.results if r.parsed}
    assert parsed and {r.path for r in warm.results if r.from_cache} >= parsed
    assert not any(r.parsed for r in warm.results)
    assert [(r.path, r.diagnostics, r.errors) for r in warm.results] == [
        (r.path, r.diagnostics, r.errors) for r in cold.results
    ]


def test_warm_check_of_a_claude_file_never_imports_libcst(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": (FIXTURES / "temperature" / "sdk_shapes.py").read_text()})
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONPROFILEIMPORTTIME": "1"}
    command = [sys.executable, "-m", "claude_migrate", "check", "app.py"]
    cold = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    warm = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert cold.returncode == warm.returncode == 1
    assert warm.stdout == cold.stdout
    assert "libcst" in cold.stderr
    assert "libcst" not in warm.stderr


def test_a_changed_file_or_policy_is_checked_afresh(tmp_path: Path, parses: list[str]) -> None:
    source = "import anthropic\nc = anthropic.Anthropic()\nc.messages.create(temperature={t})\n"
    write_tree(tmp_path, {"a.py": source.format(t="0.5")})
    cli = Cli(tmp_path)

    def temperatures() -> list[str]:
        data = json.loads(_json(cli, "check", "--select", "CM101")[1])
        return [d["message"] for d in data["diagnostics"]]

    assert temperatures() == ["temperature 0.5 is above the policy maximum 0.2"]
    (tmp_path / "a.py").write_text(source.format(t="0.7"))
    assert temperatures() == ["temperature 0.7 is above the policy maximum 0.2"]
    (tmp_path / "claude-migrate.toml").write_text("[temperature]\nmax = 0.8\n")
    parses.clear()
    assert temperatures() == []
    assert len(parses) == 1


def test_same_bytes_under_another_name_or_path_report_their_own_path(tmp_path: Path) -> None:
    text = (FIXTURES / "max-tokens" / "budgets.py").read_text()
    write_tree(tmp_path, {"one/a.py": text, "two/b.py": text})
    data = json.loads(_json(Cli(tmp_path), "check")[1])
    paths = {d["path"] for d in data["diagnostics"]}
    assert paths == {"one/a.py", "two/b.py"}


def test_another_build_of_the_tool_does_not_read_these_entries(
    small_tree: Path, tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cli = Cli(small_tree)
    folder = str(tmp_path / "cache")
    _json(cli, "check", "--cache-dir", folder)
    monkeypatch.setattr(cache_module, "build_id", lambda: "9.9.9-other")
    parses.clear()
    _json(cli, "check", "--cache-dir", folder)
    assert parses


GARBAGE = [b"", b"{", b"not json at all", b"[]", b'{"format": 2}', b'{"format": 999, "result": {}}',
           b'{"format": 2, "result": {"diagnostics": [{"line": "x"}], "errors": []}}',
           b'\x00\xff\xfe']  # fmt: skip


@pytest.mark.parametrize("garbage", GARBAGE, ids=repr)
def test_broken_entries_are_misses_and_get_rewritten(
    small_tree: Path, tmp_path: Path, garbage: bytes
) -> None:
    cli = Cli(small_tree)
    folder = tmp_path / "cache"
    cold = _json(cli, "check", "--cache-dir", str(folder))
    entries = sorted(folder.rglob("*.json"))
    assert entries
    secret = cache_module.read_key(folder)
    assert secret is not None
    for entry in entries:
        # Sealed with the folder's own key: a miss by its shape, not by its signature.
        entry.write_bytes(cache_module.seal(secret, entry.stem, garbage))
    assert _json(cli, "check", "--cache-dir", str(folder)) == cold
    for entry in entries:
        payload = cache_module.unseal(secret, entry.stem, entry.read_bytes())
        assert payload is not None and json.loads(payload)["format"] == cache_module.FORMAT


def test_truncated_entries_are_misses(small_tree: Path, tmp_path: Path) -> None:
    cli = Cli(small_tree)
    folder = tmp_path / "cache"
    cold = _json(cli, "check", "--cache-dir", str(folder))
    for entry in folder.rglob("*.json"):
        data = entry.read_bytes()
        entry.write_bytes(data[: len(data) // 2])
    assert _json(cli, "check", "--cache-dir", str(folder)) == cold


def test_no_cache_reads_and_writes_nothing(
    small_tree: Path, tmp_path: Path, parses: list[str]
) -> None:
    cli = Cli(small_tree)
    folder = tmp_path / "cache"
    _json(cli, "check", "--cache-dir", str(folder))
    parses.clear()
    _json(cli, "check", "--cache-dir", str(folder), "--no-cache")
    assert parses
    empty = tmp_path / "unused"
    _json(cli, "check", "--cache-dir", str(empty), "--no-cache")
    assert not empty.exists()


# fix ------------------------------------------------------------------------------------------


def test_fix_after_a_cached_check_fixes_what_an_uncached_fix_fixes(
    tree: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other"
    shutil.copytree(tree, other)
    folder = str(tmp_path / "cache")
    _json(Cli(tree), "check", "--cache-dir", folder)
    cached_fix = _json(Cli(tree), "fix", "--unsafe-fixes", "--cache-dir", folder)
    plain_fix = _json(Cli(other), "fix", "--unsafe-fixes", "--no-cache")
    assert cached_fix == plain_fix
    assert snapshot(tree) == snapshot(other)
    # And again, now that the fixed files and the fix results are cached too.
    assert _json(Cli(tree), "fix", "--unsafe-fixes", "--cache-dir", folder) == _json(
        Cli(other), "fix", "--unsafe-fixes", "--no-cache"
    )
    assert snapshot(tree) == snapshot(other)


def test_fix_answers_untouched_files_from_the_cache(
    small_tree: Path, tmp_path: Path, parses: list[str]
) -> None:
    folder = str(tmp_path / "cache")
    cli = Cli(small_tree)
    first = _json(cli, "fix", "--cache-dir", folder)  # safe fixes only: unsafe ones remain
    second = _json(cli, "fix", "--cache-dir", folder)
    parses.clear()
    third = _json(cli, "fix", "--cache-dir", folder)
    assert parses == []
    assert third == second
    assert json.loads(third[1])["summary"]["fixed"] == 0
    assert json.loads(first[1])["summary"]["fixed"] > 0


def test_fix_diff_is_the_same_with_the_cache(tree: Path, tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    cli = Cli(tree)
    _json(cli, "check", "--cache-dir", folder)
    before = snapshot(tree)
    cached = cli("fix", "--diff", "--jobs", "1", "--cache-dir", folder)
    plain = cli("fix", "--diff", "--jobs", "1", "--no-cache")
    assert cached.exit_code == plain.exit_code == 1
    assert cached.stdout == plain.stdout and "+++ b/" in cached.stdout
    assert snapshot(tree) == before


# Where the cache lives ------------------------------------------------------------------------


def test_default_cache_sits_in_the_users_cache_folder_not_in_the_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_MIGRATE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    repo = tmp_path / "repo"
    write_tree(repo, {"svc/app/a.py": (FIXTURES / "max-tokens" / "budgets.py").read_text()})
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    _json(Cli(repo / "svc"), "check")
    assert (tmp_path / "xdg" / "claude-migrate" / build_id()).is_dir()
    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all", "--ignored"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert status.splitlines() == ["?? svc/app/a.py"]


def test_without_xdg_cache_home_the_cache_sits_in_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_MIGRATE_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    project = tmp_path / "project"
    write_tree(project, {"pyproject.toml": "[project]\nname='x'\n", "src/a.py": BROKEN})
    _json(Cli(project / "src"), "check")
    folder = tmp_path / "home" / ".cache" / "claude-migrate"
    assert (folder / build_id()).is_dir()
    assert sorted(p.name for p in project.rglob("*")) == ["a.py", "pyproject.toml", "src"]
    key = folder / cache_module.KEY_NAME
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


# Concurrency and pruning ----------------------------------------------------------------------


def _sample_result(n: int) -> FileResult:
    fix = Fix(Applicability.SAFE, "set temperature to 0.0", (Edit(10, 13, "0.0"),))
    return FileResult(
        path="x.py",
        diagnostics=[
            Diagnostic("x.py", n, 1, n, 9, "CM101", "temperature", "m" * n, fix, None, "fp", "ctx")
        ],
        errors=[FileError("x.py", "invalid syntax", 3, 4)],
    )


def _hammer(folder: str, worker: int) -> list[str]:
    """Store and load a few shared keys many times; return every mismatch seen."""
    cache = ResultCache(Path(folder))
    problems = []
    for round_ in range(150):
        for key_number in range(4):
            key = f"{key_number:02d}" + "0" * 38
            expected = result_to_json(_sample_result(key_number + 1))
            if (round_ + worker) % 2 == 0:
                cache.store(key, _sample_result(key_number + 1))
            loaded = cache.load(key, "x.py")
            if loaded is not None and result_to_json(loaded) != expected:
                problems.append(f"{key}: {result_to_json(loaded)}")
    return problems


def test_concurrent_writers_and_readers_never_see_a_torn_entry(tmp_path: Path) -> None:
    folder = str(tmp_path / "cache")
    with ProcessPoolExecutor(max_workers=4) as pool:
        outcomes = list(pool.map(_hammer, [folder] * 4, range(4)))
    assert outcomes == [[], [], [], []]
    cache = ResultCache(Path(folder))
    for key_number in range(4):
        loaded = cache.load(f"{key_number:02d}" + "0" * 38, "x.py")
        assert loaded is not None
        assert result_to_json(loaded) == result_to_json(_sample_result(key_number + 1))
    assert not list(Path(folder).rglob("*.tmp")), "no temporary file is left behind"


def test_concurrent_runs_of_the_cli_share_one_cache(
    small_tree: Path, tmp_path: Path, parses: list[str]
) -> None:
    folder = str(tmp_path / "cache")
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    command = [
        sys.executable,
        "-m",
        "claude_migrate",
        "check",
        "--format",
        "json",
        "--cache-dir",
        folder,
    ]
    runs = [
        subprocess.Popen(
            command, cwd=small_tree, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        for _ in range(3)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [1, 1, 1]
    assert len({out for out, _ in outputs}) == 1
    parses.clear()
    warm = _json(Cli(small_tree), "check", "--cache-dir", folder)
    assert parses == []
    assert warm[1] == outputs[0][0].decode()


def test_prune_drops_entries_and_builds_unused_for_too_long(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    cache = ResultCache(folder, max_age=100.0)
    cache.store("aa" + "1" * 38, _sample_result(1))
    cache.store("bb" + "2" * 38, _sample_result(2))
    stale = folder / build_id() / "bb" / ("bb" + "2" * 38 + ".json")
    old_build = folder / ("0.0.1-" + "0" * 20) / "cc"
    old_build.mkdir(parents=True)
    (old_build / ("cc" + "3" * 38 + ".json")).write_text("{}")
    now = stale.stat().st_mtime + 1000
    for path in (stale, old_build / ("cc" + "3" * 38 + ".json")):
        os.utime(path, (now - 500, now - 500))
    fresh = folder / build_id() / "aa" / ("aa" + "1" * 38 + ".json")
    os.utime(fresh, (now - 10, now - 10))
    assert cache.prune(now=now) == 2
    assert fresh.exists() and not stale.exists()
    assert not (folder / ("0.0.1-" + "0" * 20)).exists()
    assert cache.load("aa" + "1" * 38, "x.py") is not None


def test_a_run_prunes_at_most_once_per_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "cache"
    cache = ResultCache(folder)
    cache.store("aa" + "1" * 38, _sample_result(1))
    calls: list[None] = []
    monkeypatch.setattr(ResultCache, "prune", lambda self, now=None: calls.append(None) or 0)
    cache.maybe_prune()
    cache.maybe_prune()
    assert len(calls) == 1


def test_an_entry_round_trips_every_field(tmp_path: Path) -> None:
    original = _sample_result(3)
    again = result_from_json(json.loads(json.dumps(result_to_json(original))), "y.py")
    assert again.diagnostics == [
        d.__class__(**{**d.__dict__, "path": "y.py"}) for d in original.diagnostics
    ]
    assert again.errors == [FileError("y.py", "invalid syntax", 3, 4)]
    assert again.from_cache and not again.parsed


def test_a_file_changed_while_it_is_checked_is_cached_under_the_bytes_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parses: list[str]
) -> None:
    source = "import anthropic\nc = anthropic.Anthropic()\nc.messages.create(temperature={t})\n"
    path = write_tree(tmp_path, {"a.py": source.format(t="0.5")}) / "a.py"
    original = engine.process

    def edited_meanwhile(job, options, data=None):  # type: ignore[no-untyped-def]
        path.write_text(source.format(t="0.9"))  # after the prefilter read, before the parse
        return original(job, options, data)

    monkeypatch.setattr(engine, "process", edited_meanwhile)
    cli = Cli(tmp_path)
    data = json.loads(_json(cli, "check", "--select", "CM101")[1])
    # The file is read once: the result is that of the bytes keyed, whatever came after.
    assert [d["message"] for d in data["diagnostics"]] == [
        "temperature 0.5 is above the policy maximum 0.2"
    ]
    monkeypatch.setattr(engine, "process", original)
    parses.clear()
    data = json.loads(_json(cli, "check", "--select", "CM101")[1])
    assert [d["message"] for d in data["diagnostics"]] == [
        "temperature 0.9 is above the policy maximum 0.2"
    ]
    assert len(parses) == 1  # the new bytes miss the entry of the old ones


def test_cached_results_follow_what_the_rules_read_outside_the_file(tmp_path: Path) -> None:
    """Retirement dates, a team catalogue and the project's pins are part of the key."""
    import datetime as dt

    from claude_migrate.engine.cache import external_state
    from claude_migrate.policy.config import PolicyLoader

    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[retired-models]\ncatalogue = 'team.toml'\n",
            "team.toml": "",
            "requirements.txt": "anthropic==0.40.0\n",
            "app/a.py": "import anthropic\n",
        },
    )
    path = tmp_path / "app" / "a.py"
    settings = PolicyLoader(cwd=tmp_path).for_path(path).settings_for(path)
    before = external_state(settings, "python", str(path))
    assert dt.datetime.now(dt.timezone.utc).date().isoformat() in before
    (tmp_path / "team.toml").write_text("# a team entry would go here\n")
    after_catalogue = external_state(settings, "python", str(path))
    assert after_catalogue != before
    (tmp_path / "requirements.txt").write_text("anthropic>=2.0\n")
    from claude_migrate.policy.facts import forget_project_files

    forget_project_files()
    assert external_state(settings, "python", str(path)) != after_catalogue
