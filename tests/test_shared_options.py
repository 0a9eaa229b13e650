"""A dict of options spread into a Claude call and into another vendor's call: an edit for
Claude would change the other request too, so the finding says why it has no fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, Cli


@pytest.mark.parametrize(
    ("case", "code", "name", "line", "other"),
    [
        ("temperature/shared_options.py", "CM101", "opts", 11, 19),
        ("stop-sequences/shared_options.py", "CM103", "stops", 10, 18),
    ],
)
def test_a_dict_another_vendor_receives_is_reported_without_a_fix_saying_why(
    case: str, code: str, name: str, line: int, other: int, tmp_path: Path
) -> None:
    shutil.copy(FIXTURES / case, tmp_path / "app.py")
    data = Cli(tmp_path).json("check", "--no-cache", "--select", code, "app.py")
    shared = [d for d in data["diagnostics"] if d["line"] == line]
    assert len(shared) == 1, data["diagnostics"]
    assert shared[0]["fix"] is None
    said = f"{name} is also passed to gpt.chat.completions.create() on line {other}, which is not"
    assert said in shared[0]["message"]
