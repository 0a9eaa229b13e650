"""The result cache under project-wide resolution: views go stale when the modules they read do.

A file's cached result depends on what other modules told it. These runs are what a pre-commit
hook does (only the staged file given, a warm cache), while the modules it imports change on
disk: created after the cache was warmed, or edited without being given.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import Cli, write_tree

WRAPPER = """import anthropic

client = anthropic.Anthropic()


def ask(prompt, temperature=0.0):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature=temperature,
        messages=[{"role": "user", "content": prompt}],
    )
"""

CALLER = """from app.helpers import ask


def answer(question):
    return ask(question, temperature=0.9)
"""


def _tree(root: Path, files: dict[str, str]) -> Cli:
    write_tree(root, {"pyproject.toml": "[project]\nname='app'\n", "app/__init__.py": "", **files})
    return Cli(root)


def _found(cli: Cli, cache: Path, *paths: str) -> set[tuple[str, int, str]]:
    result = cli(
        "check", "--cache-dir", str(cache), "--format", "json", "--select", "CM101", *paths
    )
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    assert not data["errors"], data["errors"]
    return {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}


def test_a_module_created_after_the_cache_was_warmed_is_resolved_through(tmp_path: Path) -> None:
    cli = _tree(tmp_path / "repo", {"app/service.py": CALLER})
    cache = tmp_path / "cache"
    assert _found(cli, cache, "app/service.py") == set()
    assert _found(cli, cache, "app/service.py") == set()  # warm: the views come from the cache
    # The imported module appears; the checked file's bytes are those the cache saw.
    (tmp_path / "repo/app/helpers.py").write_text(WRAPPER)
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}


def test_a_run_on_one_file_follows_edits_of_a_module_it_was_not_given(tmp_path: Path) -> None:
    cli = _tree(tmp_path / "repo", {"app/helpers.py": WRAPPER, "app/service.py": CALLER})
    cache = tmp_path / "cache"
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}  # warm
    # The wrapper, not given to the run, stops passing its temperature on.
    helpers = tmp_path / "repo/app/helpers.py"
    helpers.write_text(WRAPPER.replace("        temperature=temperature,\n", ""))
    assert _found(cli, cache, "app/service.py") == set()
    helpers.write_text(WRAPPER)
    # Only the file given is reported, though the wrapper's own default is above the maximum
    # and relied on by nobody here.
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}


def test_a_module_created_in_a_new_folder_after_the_cache_was_warmed_is_resolved_through(
    tmp_path: Path,
) -> None:
    # The folders the import names did not exist: the views record the first missing folder
    # on the way, and creating the module creates it.
    caller = CALLER.replace("app.helpers", "app.llm.wrappers.helpers")
    cli = _tree(tmp_path / "repo", {"app/service.py": caller})
    cache = tmp_path / "cache"
    assert _found(cli, cache, "app/service.py") == set()
    assert _found(cli, cache, "app/service.py") == set()
    for folder in ("app/llm", "app/llm/wrappers"):
        (tmp_path / "repo" / folder).mkdir()
        (tmp_path / "repo" / folder / "__init__.py").write_text("")
    (tmp_path / "repo/app/llm/wrappers/helpers.py").write_text(WRAPPER)
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}


def test_a_package_created_after_the_cache_was_warmed_is_resolved_through(tmp_path: Path) -> None:
    # `app/helpers/` exists already (a folder without `__init__.py`): its `__init__.py` appears.
    cli = _tree(tmp_path / "repo", {"app/service.py": CALLER, "app/helpers/notes.txt": ""})
    cache = tmp_path / "cache"
    assert _found(cli, cache, "app/service.py") == set()
    assert _found(cli, cache, "app/service.py") == set()
    (tmp_path / "repo/app/helpers/__init__.py").write_text(WRAPPER)
    assert _found(cli, cache, "app/service.py") == {("app/service.py", 5, "CM101")}


def test_any_exists_lists_each_folder_once_and_counts_dangling_links(tmp_path: Path) -> None:
    from claude_migrate.project.phase import _any_exists

    (tmp_path / "pkg").mkdir()
    (tmp_path / "file.py").write_text("")
    missing = [str(tmp_path / "pkg/a.py"), str(tmp_path / "nope/b.py"), str(tmp_path / "c")]
    assert not _any_exists(missing)
    assert not _any_exists([str(tmp_path / "file.py/under")])  # a file is no folder
    assert _any_exists([*missing, str(tmp_path / "file.py")])
    (tmp_path / "pkg/link.py").symlink_to(tmp_path / "nowhere.py")
    assert _any_exists([str(tmp_path / "pkg/link.py")])
