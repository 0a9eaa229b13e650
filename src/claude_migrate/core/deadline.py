"""A per-file time limit for work done in the main process (the project phase, the triage, a parse).

Worker processes are timed by the parent, which kills one that overruns. Work the run does in
its own process (the project phase's summaries, the triage, the few files a small run checks
without a pool) has nobody to kill it, so it is timed here: `deadline(seconds)` arms a real-time
timer whose signal raises `OverTime` in the code running when it fires. Only in the main thread
of a POSIX process (where signals are delivered); elsewhere (the language server's worker
thread, Windows) it does nothing, and the engine's size limits are what bound the work.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class OverTime(BaseException):
    """The work ran past its deadline. A BaseException, so `except Exception` never hides it."""


def _expire(signum: int, frame: FrameType | None) -> None:
    raise OverTime


@contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise OverTime in the block when it runs longer than `seconds` (None: no limit)."""
    if (
        seconds is None
        or seconds <= 0
        or not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
