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
def _cache_outside_the_tree(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
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
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    cache = root / "mypy-sdk"
    cache.mkdir(exist_ok=True)
    with open(root / "mypy-sdk.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield cache
