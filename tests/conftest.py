"""Pytest fixtures shared by the test modules (helpers live in helpers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path)
