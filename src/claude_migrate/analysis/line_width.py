"""The line width the project's code formatter keeps (what an inserted argument must respect).

Read as the formatters read it, from the file's folder up to its project's root (the nearest
folder holding a project file, `analysis.doubles.project_root`): the first `ruff.toml` or
`.ruff.toml` (`line-length`), or `pyproject.toml` with a `[tool.ruff]` table
(`line-length`), gives Ruff's width (https://docs.astral.sh/ruff/settings/#line-length,
https://docs.astral.sh/ruff/configuration/#config-file-discovery); without one, the project's
`pyproject.toml` `[tool.black]` `line-length`
(https://black.readthedocs.io/en/stable/usage_and_configuration/the_basics.html#line-length).
Both formatters default to 88, and so does a project configuring neither.

Read-only, bounded, and never an error: a file that is not valid TOML, or a width that is not
an integer between 1 and 320 (Ruff's own bounds), is as if absent.
"""

from __future__ import annotations

import os
import sys
import time

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from claude_migrate.core.source import read_regular

DEFAULT_WIDTH = 88
# The largest configuration file read (a formatter's settings are small).
MAX_CONFIG_BYTES = 1024 * 1024
# Ruff refuses a line-length outside 1..320.
MAX_WIDTH = 320


def line_width(path: str) -> int:
    """Return the width the formatter of the project holding `path` keeps lines within."""
    from claude_migrate.analysis.doubles import STATE_SECONDS, project_root

    folder = os.path.dirname(os.path.abspath(path))
    root = project_root(path)
    now = time.monotonic()
    known = _known.get((folder, root))
    if known is not None and now - known[0] < STATE_SECONDS:
        return known[1]
    if len(_known) > 4096:
        _known.clear()
    width = _width(folder, root)
    _known[(folder, root)] = (now, width)
    return width


# What each folder's width was found to be, and when: read again after `STATE_SECONDS` (a
# language server lives through edits of the project's configuration).
_known: dict[tuple[str, str], tuple[float, int]] = {}


def _width(folder: str, root: str) -> int:
    black: int | None = None
    current = folder
    while True:
        for name in ("ruff.toml", ".ruff.toml"):
            table = _toml(os.path.join(current, name))
            if table is not None:
                return _valid(table.get("line-length")) or DEFAULT_WIDTH
        pyproject = _toml(os.path.join(current, "pyproject.toml"))
        tool = pyproject.get("tool") if pyproject is not None else None
        if isinstance(tool, dict):
            ruff = tool.get("ruff")
            if isinstance(ruff, dict):
                return _valid(ruff.get("line-length")) or DEFAULT_WIDTH
            if black is None and isinstance(tool.get("black"), dict):
                black = _valid(tool["black"].get("line-length")) or DEFAULT_WIDTH
        parent = os.path.dirname(current)
        if current == root or parent == current or not current.startswith(root):
            break
        current = parent
    return black or DEFAULT_WIDTH


def _toml(path: str) -> dict[str, object] | None:
    """Return a TOML file's table, None when it is missing, too large or not valid TOML."""
    try:
        data = read_regular(path, limit=MAX_CONFIG_BYTES)
        return tomllib.loads(bytes(data).decode("utf-8"))
    # ValueError: UnicodeDecodeError, TOMLDecodeError, and a number Python does not read.
    except (OSError, ValueError, RecursionError):
        return None


def _valid(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_WIDTH:
        return value
    return None
