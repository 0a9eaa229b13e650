"""How a path is shown to people: relative to the working directory, with forward slashes.

One place for it, so reports, policy errors and catalogue errors name a file the same way.
"""

from __future__ import annotations

import os
from pathlib import Path


def display_path(path: Path, cwd: Path) -> str:
    """Return `path` relative to `cwd` with forward slashes (absolute when outside it).

    Lexical: neither path is resolved here, so a symbolic link is shown by the name it was
    reached through (callers pass both as discovery found them).
    """
    text, base = str(path), str(cwd)
    prefix = base if base.endswith(os.sep) else base + os.sep
    if text.startswith(prefix) and os.sep == "/":
        return text[len(prefix) :]  # the common case, without building another Path
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


def as_shown(path: Path) -> str:
    """Return a file named in a message relative to the working directory (resolved).

    Outside the working directory the path is shown as it was given. The folder is resolved,
    never the file's own name: a file that is a symbolic link is named as the link (which may
    dangle or loop).
    """
    try:
        folder = Path(os.path.realpath(os.path.dirname(os.path.abspath(path))))
        return (folder / path.name).relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


# The longest file name (one component) and path the system takes; Linux's limits by default.
NAME_MAX = 255
PATH_MAX = 4096


def path_problem(value: str) -> str | None:
    """Return what a path must be that `value` is not (no NUL byte, short enough), or None.

    Worded to follow "expected": "expected a path without NUL bytes".

    Asked of every path a policy or an option gives before the file system sees it: the system
    call would raise (ValueError for a NUL byte, OSError ENAMETOOLONG) where the user needs a
    message naming the value.
    """
    if "\0" in value:
        return "a path without NUL bytes"
    try:
        raw = os.fsencode(value)
    except UnicodeError:
        return "a path the file system can encode"
    if len(raw) > PATH_MAX:
        return f"a path of at most {PATH_MAX} bytes (this one has {len(raw)})"
    longest = max((len(part) for part in raw.split(b"/")), default=0)
    if longest > NAME_MAX:
        return f"file names of at most {NAME_MAX} bytes in the path (one has {longest})"
    return None
