"""Writing the files a user names for output: reports (`--output`, `--report`) and baselines.

A regular file (or a new one) is replaced atomically, through a symbolic link to its target so
the link stays a link. Anything else the user names, a device (`/dev/null`, `/dev/stdout`) or a
FIFO another process reads, is written into as it is: replacing it by a renamed regular file
would destroy it (as root, `/dev/null` itself).
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from claude_migrate.core.atomic import write_atomic

# Names that stand for a process's own streams or devices, whatever they resolve to.
_SPECIAL_ROOTS = ("/dev/", "/proc/")


def write_output(path: Path, data: bytes) -> None:
    """Write `data` to the file the user named; raises `OSError` saying what went wrong."""
    real = os.path.realpath(path)
    try:
        mode: int | None = os.stat(real).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(path))
    special = str(path).startswith(_SPECIAL_ROOTS) or real.startswith(_SPECIAL_ROOTS)
    if special or (mode is not None and not stat.S_ISREG(mode)):
        _write_in_place(path, data, mode)
        return
    target = Path(real)
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, data)


def _write_in_place(path: Path, data: bytes, mode: int | None) -> None:
    # Non-blocking open: a FIFO nobody reads fails at once (ENXIO) instead of hanging the run.
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0)
    if mode is not None and stat.S_ISREG(mode):
        flags |= os.O_TRUNC
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "a FIFO that no process is reading", str(path)) from None
        raise
    try:
        os.set_blocking(fd, True)  # a slow reader is still a reader
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
