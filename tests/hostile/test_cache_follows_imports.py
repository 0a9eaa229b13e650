"""A file's cached result is keyed on what it read from other modules, and on nothing else.

Each test is a real git repository in a tmp folder, checked twice with the result cache on (a
warm run answers every unchanged file from the cache), then changed the way a commit changes
it: a constant edited in the module a call reads it from, an unrelated module edited, the
module renamed or deleted. What is parsed again on the next run is exactly the files whose
inputs changed; the rest come from the cache. A constant read by calls in other modules is
reported once, in its own module (the calls are its related places), so that module is checked
too.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate import api

SETTINGS = "TEMPERATURE = 0.9\nMAX_TOKENS = 512\n"

SERVICE = """import anthropic

from app.settings import TEMPERATURE

client = anthropic.Anthropic()


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature=TEMPERATURE,
        messages=[{"role": "user", "content": question}],
    )
"""

# Reads the same constant through a relative import, under another name.
REPORTS = """import anthropic

from .settings import TEMPERATURE as WARMTH

client = anthropic.Anthropic()


def summarise(text):
    return client.messages.create(
        model="claude-sonnet-4-6", max_tokens=512, temperature=WARMTH,
        messages=[{"role": "user", "content": text}],
    )
"""

# A Claude file that reads nothing from the settings.
OTHER = """import anthropic

client = anthropic.Anthropic()
reply = client.messages.create(
    model="claude-sonnet-4-6", max_tokens=512, temperature=0.9, messages=[]
)
"""


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=root, check=True, capture_output=True,
    )  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    files = {
        "pyproject.toml": "[project]\nname = 'app'\n",
        "app/__init__.py": "",
        "app/settings.py": SETTINGS,
        "app/service.py": SERVICE,
        "app/reports.py": REPORTS,
        "app/other.py": OTHER,
        "app/plain.py": "X = 1\n",
    }
    write_tree(root, files)
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "start")
    monkeypatch.chdir(root)
    return root


def _check(cache: Path, *paths: str) -> dict[str, tuple[bool, int]]:
    """Run `check --select CM101` with the cache; return, per file parsed or answered from the
    cache, whether it was parsed and how many findings it has."""
    request = api.Request(
        paths=tuple(Path(p) for p in paths or (".",)), cache_dir=cache, jobs=1,
        select=("CM101",), output_format="json",
    )  # fmt: skip
    outcome = api.check(request)
    assert outcome.exit_status in (0, 1), outcome.messages
    return {
        r.path: (r.parsed, len(r.diagnostics))
        for r in outcome.run.results
        if r.parsed or r.from_cache
    }


def _parsed(found: dict[str, tuple[bool, int]]) -> set[str]:
    return {path for path, (parsed, _) in found.items() if parsed}


def _warm(cache: Path, *paths: str) -> dict[str, tuple[bool, int]]:
    cold = _check(cache, *paths)
    warm = _check(cache, *paths)
    assert _parsed(warm) == set(), "a second run with nothing changed parses nothing"
    assert {p: n for p, (_, n) in warm.items()} == {p: n for p, (_, n) in cold.items()}
    return warm


def _commit(root: Path, message: str) -> None:
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", message)


def test_editing_a_constant_rechecks_exactly_the_files_that_read_it(
    repo: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    warm = _warm(cache)
    assert warm["app/settings.py"][1] == 1  # the constant, read by both calls
    (repo / "app/settings.py").write_text(SETTINGS.replace("0.9", "0.1"))
    _commit(repo, "cooler")
    after = _check(cache)
    assert _parsed(after) == {"app/settings.py", "app/service.py", "app/reports.py"}
    assert {after[p] for p in _parsed(after)} == {(True, 0)}
    assert after["app/other.py"] == (False, 1)


def test_editing_an_unrelated_module_rechecks_nothing(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(cache)
    (repo / "app/plain.py").write_text("X = 2\n")
    (repo / "app/new.py").write_text("Y = 3\n")
    _commit(repo, "unrelated")
    assert _parsed(_check(cache)) == set()


def test_a_comment_in_a_module_a_file_reads_rechecks_nothing(repo: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    _warm(cache)
    (repo / "app/settings.py").write_text("# tuned for support replies\n" + SETTINGS)
    _commit(repo, "a comment")
    # The module itself changed; what the files reading it were told did not.
    assert _parsed(_check(cache)) == {"app/settings.py"}


def test_a_constant_nobody_reads_added_to_an_imported_module_rechecks_nothing(
    repo: Path, tmp_path: Path
) -> None:
    """A file is told the constants of a module it imports names from only where it spells
    them: one it never names is not part of what it reads."""
    cache = tmp_path / "cache"
    _warm(cache)
    (repo / "app/settings.py").write_text(SETTINGS + "RETRIES = 3\n")
    _commit(repo, "a constant nobody reads")
    # The module itself changed; its importers, which never name the constant, did not.
    assert _parsed(_check(cache)) == {"app/settings.py"}


@pytest.mark.parametrize("change", ["rename", "delete"])
def test_renaming_or_deleting_the_module_rechecks_the_files_that_read_it(
    repo: Path, tmp_path: Path, change: str
) -> None:
    cache = tmp_path / "cache"
    _warm(cache)
    if change == "rename":
        _git(repo, "mv", "app/settings.py", "app/config.py")
    else:
        _git(repo, "rm", "-q", "app/settings.py")
    _commit(repo, change)
    after = _check(cache)
    assert _parsed(after) == {"app/service.py", "app/reports.py"}
    assert after["app/service.py"] == after["app/reports.py"] == (True, 0)  # nothing to read
    assert sum(n for _, n in after.values()) == 1  # app/other.py's own
    # And back: the module returns, the finding with it.
    _git(repo, "revert", "--no-edit", "HEAD")
    again = _check(cache)
    assert again["app/settings.py"][1] == 1


def test_a_constant_re_exported_through_another_module_is_followed(
    repo: Path, tmp_path: Path
) -> None:
    (repo / "app/defaults.py").write_text("TEMPERATURE = 0.9\n")
    (repo / "app/settings.py").write_text("from app.defaults import TEMPERATURE\nMAX_TOKENS = 1\n")
    _commit(repo, "defaults")
    cache = tmp_path / "cache"
    warm = _warm(cache)
    assert warm["app/service.py"][1] == 1
    (repo / "app/defaults.py").write_text("TEMPERATURE = 0.1\n")
    _commit(repo, "cooler default")
    after = _check(cache)
    assert _parsed(after) == {"app/service.py", "app/reports.py"}
    assert after["app/service.py"] == (True, 0)


def test_a_pre_commit_run_on_the_reader_alone_follows_the_edited_module(
    repo: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    assert _warm(cache, "app/service.py")["app/service.py"] == (False, 1)
    (repo / "app/settings.py").write_text(SETTINGS.replace("0.9", "0.1"))
    assert _check(cache, "app/service.py") == {"app/service.py": (True, 0)}
    (repo / "app/plain.py").write_text("X = 2\n")
    assert _check(cache, "app/service.py") == {"app/service.py": (False, 0)}
    os.remove(repo / "app/settings.py")
    assert _check(cache, "app/service.py") == {"app/service.py": (True, 0)}


# What a file reads through a wrapper or a base class of another module: a change there that
# can alter its findings re-checks it; a constant added beside them does not.

WRAPPER = """import anthropic

client = anthropic.Anthropic()


def ask(prompt, temperature):
    return client.messages.create(
        model="claude-sonnet-4-6", max_tokens=512, temperature=temperature,
        messages=[{"role": "user", "content": prompt}],
    )
"""

CALLER = """from app.llm import ask

reply = ask("hello", 0.9)
"""

BASE = """import anthropic


class Assistant:
    def __init__(self):
        self.client = anthropic.Anthropic()
"""

SUBCLASS = """from app.base import Assistant


class Bot(Assistant):
    def reply(self, text):
        return self.client.messages.create(
            model="claude-sonnet-4-6", max_tokens=512, temperature=0.9,
            messages=[{"role": "user", "content": text}],
        )
"""

# Reads the constant through the module, where any name of it may be read.
THROUGH_MODULE = """import anthropic

from app import settings

client = anthropic.Anthropic()
reply = client.messages.create(
    model="claude-sonnet-4-6", max_tokens=512, temperature=settings.TEMPERATURE, messages=[]
)
"""


def test_a_wrapper_whose_parameter_no_longer_reaches_the_call_rechecks_its_caller(
    repo: Path, tmp_path: Path
) -> None:
    (repo / "app/llm.py").write_text(WRAPPER)
    (repo / "app/caller.py").write_text(CALLER)
    _commit(repo, "a wrapper")
    cache = tmp_path / "cache"
    assert _warm(cache)["app/caller.py"] == (False, 1)  # 0.9 passed on to `temperature`
    (repo / "app/llm.py").write_text(WRAPPER + "\nRETRIES = 3\n")
    _commit(repo, "a constant beside the wrapper")
    assert _parsed(_check(cache)) == {"app/llm.py"}
    (repo / "app/llm.py").write_text(WRAPPER.replace("temperature=temperature,", ""))
    _commit(repo, "the wrapper no longer passes temperature")
    after = _check(cache)
    # The caller now calls nothing the project knows: parsed again, or left to the triage,
    # which finds nothing in it; never answered from the cache with the finding it had.
    assert after.get("app/caller.py", (True, 0)) == (True, 0)
    assert _parsed(after) - {"app/caller.py"} == {"app/llm.py"}


def test_a_base_class_whose_client_changes_rechecks_its_subclass(
    repo: Path, tmp_path: Path
) -> None:
    (repo / "app/base.py").write_text(BASE)
    (repo / "app/bot.py").write_text(SUBCLASS)
    _commit(repo, "a base class")
    cache = tmp_path / "cache"
    assert _check(cache)["app/bot.py"] == (True, 1)  # a Claude client, set by the base class
    assert _parsed(_check(cache)) == set()
    (repo / "app/base.py").write_text(BASE + "\nRETRIES = 3\n")
    _commit(repo, "a constant beside the base class")
    unchanged = _check(cache)
    assert unchanged["app/bot.py"] == (False, 1)
    assert _parsed(unchanged) <= {"app/base.py"}
    (repo / "app/base.py").write_text(BASE.replace("anthropic.Anthropic()", "None"))
    _commit(repo, "the base class holds no client")
    after = _check(cache)
    assert after["app/bot.py"] == (True, 0)


def test_a_constant_read_through_its_module_is_followed(repo: Path, tmp_path: Path) -> None:
    (repo / "app/service.py").write_text(THROUGH_MODULE)
    _commit(repo, "read through the module")
    cache = tmp_path / "cache"
    _warm(cache)
    (repo / "app/settings.py").write_text(SETTINGS.replace("0.9", "0.1"))
    _commit(repo, "cooler")
    after = _check(cache)
    assert {"app/settings.py", "app/service.py"} <= _parsed(after)
    assert after["app/service.py"] == (True, 0)
