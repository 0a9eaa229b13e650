"""The formatter width a fix keeps lines within: read as Ruff and Black find it, never an error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claude_migrate.analysis import line_width as widths


@pytest.fixture(autouse=True)
def _fresh() -> None:
    widths._known.clear()


def _at(folder: Path) -> int:
    return widths.line_width(str(folder / "pkg" / "mod.py"))


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "proj"
    (root / "pkg").mkdir(parents=True)
    (root / ".git").mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    return root


def test_ruff_wins_over_black_and_a_nearer_ruff_toml_over_both(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {"pyproject.toml": "[tool.ruff]\nline-length = 100\n[tool.black]\nline-length = 79\n"},
    )
    assert _at(root) == 100
    (root / "pkg" / "ruff.toml").write_text("line-length = 72\n")
    widths._known.clear()
    assert _at(root) == 72


def test_black_alone_and_the_default(tmp_path: Path) -> None:
    assert (
        _at(_project(tmp_path / "a", {"pyproject.toml": "[tool.black]\nline-length = 79\n"})) == 79
    )
    assert _at(_project(tmp_path / "b", {"pyproject.toml": "[project]\nname = 'x'\n"})) == 88
    assert _at(_project(tmp_path / "c", {})) == 88


@pytest.mark.parametrize(
    "text",
    [
        "[tool.ruff\nline-length = 100\n",  # not TOML
        "[tool.ruff]\nline-length = '100'\n",
        "[tool.ruff]\nline-length = 0\n",
        "[tool.ruff]\nline-length = 100000\n",
        "[tool.ruff]\nline-length = true\n",
        "a = " + "[" * 5000 + "]" * 5000 + "\n",
    ],
)
def test_a_bad_configuration_is_the_default_never_an_error(tmp_path: Path, text: str) -> None:
    root = _project(tmp_path, {"ruff.toml": text})
    assert _at(root) == 88


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_in_place_of_the_configuration_is_not_waited_on(tmp_path: Path) -> None:
    root = _project(tmp_path, {})
    os.mkfifo(root / "ruff.toml")
    assert _at(root) == 88
