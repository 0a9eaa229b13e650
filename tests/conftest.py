"""Pytest fixtures shared by the test modules (helpers live in helpers.py)."""

from __future__ import annotations

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
