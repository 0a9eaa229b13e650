"""Where the shipped rule catalogue (`rules/`: presets and rule pages) lives."""

from __future__ import annotations

from functools import cache
from pathlib import Path


@cache
def rules_dir() -> Path:
    """Return the `rules/` folder: inside the wheel, or at the top of a source checkout."""
    packaged = Path(__file__).parent.parent / "rules"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[3] / "rules"
