"""Pytest fixtures shared by the test modules (helpers live in helpers.py)."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)


@pytest.fixture(autouse=True)
def _cache_outside_the_tree(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The CLI caches results at the project root by default; a test's tree must hold only what
    # the test put there (and one test's entries must not answer for another's).
    monkeypatch.setenv("CLAUDE_MIGRATE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def sdk_mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One mypy cache for the tests that type-check code against the installed SDK.

    Analysing the `anthropic` package is nearly all of a cold mypy run and is the same for every
    such test, so they share this cache, one at a time (under `pytest -n`, across workers: the
    first fills it, the next reuses it). mypy reuses a cache only under the same global options,
    so the tests pass the same flags and put anything file-specific in inline `# mypy:` comments.
    """
    root = _run_folder(tmp_path_factory)
    cache = root / "mypy-sdk"
    cache.mkdir(exist_ok=True)
    with open(root / "mypy-sdk.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield cache


@pytest.fixture
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Where pre-commit and virtualenv keep what they build, shared by this run's tests.

    Building the hook's environment from this checkout is most of a `pre-commit try-repo` run;
    tests that run the real hooks share it (pre-commit locks its own store). It lives in this
    run's temporary folder: CI runs as root on a fresh machine, and nothing may depend on what an
    earlier run left in the home folder.
    """
    root = _run_folder(tmp_path_factory)
    return {
        "PRE_COMMIT_HOME": str(root / "pre-commit-home"),
        "VIRTUALENV_OVERRIDE_APP_DATA": str(root / "virtualenv-app-data"),
    }


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return this run's temporary folder, the same for every xdist worker."""
    root = tmp_path_factory.getbasetemp()
    return root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root
