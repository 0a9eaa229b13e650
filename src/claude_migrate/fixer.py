"""Apply edits to a file's text, and write files atomically.

Edits are offsets into the decoded text, so nothing outside them changes: line endings, BOM,
encoding and every other byte are kept. Writes go to a temporary file in the same folder that is
fsynced and renamed over the original, so a killed process leaves either the old file or the new
one, never a mix.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from .diagnostics import Diagnostic, Edit


def select_fixes(
    diagnostics: Sequence[Diagnostic], unsafe: bool
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Return (applied, conflicting): the first fix wins, an overlapping later one waits.

    Identical edits (one constant fixed for several calls) are not a conflict.
    """
    taken: list[Edit] = []
    applied: list[Diagnostic] = []
    conflicting: list[Diagnostic] = []
    for diagnostic in diagnostics:
        fix = diagnostic.fix
        if fix is None or not fix.applies(unsafe) or not fix.edits:
            continue
        new = [e for e in fix.edits if e not in taken]
        if any(_overlaps(e, other) for e in new for other in taken) or _self_overlap(new):
            conflicting.append(diagnostic)
            continue
        taken.extend(new)
        applied.append(diagnostic)
    return applied, conflicting


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one point: order would be arbitrary
    return a.start < b.end and b.start < a.end


def _self_overlap(edits: Sequence[Edit]) -> bool:
    ordered = sorted(edits)
    return any(_overlaps(x, y) for x, y in zip(ordered, ordered[1:]))


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Return `text` with non-overlapping edits applied (duplicates applied once)."""
    unique = sorted(set(edits))
    out: list[str] = []
    position = 0
    for edit in unique:
        if edit.start < position:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out.append(text[position : edit.start])
        out.append(edit.replacement)
        position = edit.end
    out.append(text[position:])
    return "".join(out)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace `path` with `data` atomically, keeping its permission bits."""
    mode = stat.S_IMODE(os.stat(path).st_mode)
    folder = path.parent
    fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".cm-tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
