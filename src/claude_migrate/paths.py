"""How a path is shown to people: relative to the working directory, with forward slashes.

One place for it, so reports, policy errors and catalogue errors name a file the same way.
"""

from __future__ import annotations

from pathlib import Path


def display_path(path: Path, cwd: Path) -> str:
    """Return `path` relative to `cwd` with forward slashes (absolute when outside it).

    Lexical: neither path is resolved here, so a symbolic link is shown by the name it was
    reached through (callers pass both as discovery found them).
    """
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def as_shown(path: Path) -> str:
    """Return a file named in a message relative to the working directory, both resolved first.

    Outside the working directory the path is shown as it was given.
    """
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return str(path)
