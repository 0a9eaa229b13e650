"""Run work in isolated worker processes; a worker that dies costs only the item it was working on.

Workers are fresh interpreters started as `python -I` (isolated mode): neither the working
folder nor a script's folder is on their import path, the user's site folder is not read, and
no `PYTHON*` variable applies. The code they run comes from the Python installation and from the
folder this package was imported from, never from the tree being checked: a checked repository
holding an `enum.py`, a `signal.py` or a `multiprocessing/` package cannot run code in them.

Each worker gets a chunk of items over a socket and sends one result back per item, as soon as it
has it, so the parent always knows which item a worker is on and since when. When a worker dies
(a segfault in a native parser, `os._exit`, the OOM killer) or spends longer than the time limit
on one item (then it is killed), that item is reported as a `Crash` with what the worker's fault
handler wrote (the fatal error and the innermost frame), its exit status or the limit it
exceeded; the rest of its chunk goes back in the queue, and a new worker takes its place.

Workers ignore Ctrl-C (the parent decides what it stops), stop on their own after the item in
hand when the parent goes away, and when the parent stops early (Ctrl-C, an error) they are sent
SIGTERM, which kills them at once except inside a file write, where it waits for the rename.
"""

from __future__ import annotations

import contextlib
import faulthandler
import gc
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from claude_migrate.core.job import NO_LIMITS, Limits

if TYPE_CHECKING:
    # The process machinery is imported where a worker starts or serves (`_Worker`, `serve`):
    # a run over a few files in-process, such as a pre-commit hook's, never needs it.
    from multiprocessing.connection import Connection

Item = TypeVar("Item")
Result = TypeVar("Result")

# How long to wait for a worker to finish the item in hand when the run ends normally.
STOP_GRACE_SECONDS = 30.0
# How long a worker told to stop early (SIGTERM) may take to finish a write in progress.
TERM_GRACE_SECONDS = 5.0

# What a worker's death was caused by, as far as the parent can tell.
CRASHED = "crashed"
TIMED_OUT = "timed-out"


@dataclass(frozen=True)
class Crash:
    """A worker process died, or was killed for exceeding the time limit, on an item."""

    detail: str
    cause: str = CRASHED


@contextlib.contextmanager
def held_signals(*signals: signal.Signals) -> Iterator[None]:
    """Hold `signals` in this thread (delivered when the block ends) where the platform can."""
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is None:  # pragma: no cover - not POSIX
        yield
        return
    previous = mask(signal.SIG_BLOCK, set(signals))
    try:
        yield
    finally:
        mask(signal.SIG_SETMASK, previous)


class WorkerStartError(RuntimeError):
    """A worker process exited before it was ready to work (a broken installation)."""


# Set in a worker: the memory limit its items run under, so errors can name it.
MEMORY_LIMIT: int | None = None

_READY = "ready"


def _package_home() -> str:
    """Return the folder this package was imported from (its parent, on a worker's path)."""
    return str(Path(__file__).resolve().parents[2])


def worker_command(conn_fd: int, crash_fd: int, memory: int | None) -> list[str]:
    """Return the command line that starts one isolated worker."""
    home = _package_home()
    boot = (
        "import signal, sys\n"
        "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})\n"
        # Appended, never first: the standard library and site-packages come before it.
        f"sys.path.append({home!r}) if {home!r} not in sys.path else None\n"
        "from claude_migrate.engine.pool import serve\n"
        f"serve({conn_fd}, {crash_fd}, {memory!r})\n"
    )
    return [sys.executable, "-I", "-c", boot]


def _worker_environment() -> dict[str, str]:
    # `-I` already ignores them; dropping them keeps a worker's own children clean too.
    return {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def _limit_memory(extra: int | None) -> None:
    """Cap this process's address space at its current size plus `extra` bytes."""
    global MEMORY_LIMIT
    if extra is None:
        return
    try:
        import resource

        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[0])
        current = pages * os.sysconf("SC_PAGE_SIZE")
        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        wanted = current + extra
        if hard != resource.RLIM_INFINITY:
            wanted = min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_AS, (wanted, hard))
    except (ImportError, OSError, ValueError):  # pragma: no cover - not Linux
        return
    MEMORY_LIMIT = extra


def serve(conn_fd: int, crash_fd: int, memory: int | None) -> None:
    """Worker main loop: run `func` over each chunk received, one reply per item."""
    from multiprocessing.connection import Connection

    conn = Connection(conn_fd)
    faulthandler.enable(file=crash_fd, all_threads=False)
    parent = os.getppid()
    try:
        func, setup = conn.recv()
        setup()
        # What start-up and `setup` loaded lives as long as the worker: no collection needs to
        # walk it again (https://docs.python.org/3/library/gc.html#gc.freeze).
        gc.freeze()
        _limit_memory(memory)
        conn.send(_READY)
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            for index, item in chunk:
                if os.getppid() != parent:
                    return  # the parent died: start nothing new
                conn.send((index, func(item)))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        return  # the parent went away


class _Worker(Generic[Item]):
    def __init__(
        self, func: Callable[[Item], Any], setup: Callable[[], None], limits: Limits
    ) -> None:
        import socket
        import subprocess
        from multiprocessing.connection import Connection

        ours, theirs = socket.socketpair()
        crash_read, crash_write = os.pipe()
        # Read only once the worker is dead: a worker that writes more than the pipe holds
        # (warnings on its standard error) loses the rest, and never waits on it.
        os.set_blocking(crash_write, False)
        try:
            # The child starts with Ctrl-C blocked (inherited across exec) until it ignores it.
            with held_signals(signal.SIGINT):
                self.process = subprocess.Popen(
                    worker_command(theirs.fileno(), crash_write, limits.memory),
                    pass_fds=(theirs.fileno(), crash_write),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    # What native code prints as it dies (the Rust runtime's "memory allocation
                    # of N bytes failed" and backtrace) joins the fault handler's report: the
                    # run says it in the file's CM001, never on its own standard error.
                    stderr=crash_write,
                    env=_worker_environment(),
                )
        finally:
            # Only the child may hold its ends, so its death shows here as end-of-file.
            theirs.close()
            os.close(crash_write)
        self.conn = Connection(ours.detach())
        self.crash_fd = crash_read
        with contextlib.suppress(OSError):  # a worker dead at once shows as end-of-file
            self.conn.send((func, setup))
        self.ready = False
        self.started = time.monotonic()  # when the item in hand (or the start-up) began
        self.outstanding: deque[tuple[int, Item]] = deque()

    def give(self, chunk: list[tuple[int, Item]]) -> None:
        self.outstanding.extend(chunk)
        self.started = time.monotonic()
        with contextlib.suppress(OSError):  # a dead worker shows as end-of-file next
            self.conn.send(chunk)

    def death_detail(self) -> str:
        """Return what the dead worker's fault handler wrote, or how it exited."""
        import subprocess

        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(STOP_GRACE_SECONDS)
        written = b""
        with contextlib.suppress(OSError):
            while len(written) < 1 << 20:
                piece = os.read(self.crash_fd, 65536)
                if not piece:
                    break
                written += piece
        fatal = _fatal_summary(written.decode("utf-8", "replace"))
        if fatal:
            return fatal
        code = self.process.returncode
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.close()

    def close(self) -> None:
        self.conn.close()
        with contextlib.suppress(OSError):
            os.close(self.crash_fd)


def _fatal_summary(text: str) -> str:
    """Return the fatal error line and the innermost frame of a fault handler dump."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    fatal = next((line for line in lines if line.startswith("Fatal Python error")), "")
    if not fatal:
        return ""
    # What the Rust runtime's allocator prints before it aborts (LibCST's native parser).
    native = next(
        (
            line
            for line in lines
            if line.startswith("memory allocation of ") and line.endswith(" bytes failed")
        ),
        "",
    )
    if native:
        fatal = f"{fatal}: {native}"
    frame = next((line for line in lines if line.startswith("File ")), "")
    return f"{fatal} ({frame})" if frame else fatal


def _no_setup() -> None:
    return None


def run_in_workers(
    func: Callable[[Item], Result],
    items: Sequence[tuple[int, Item]],
    workers: int,
    chunk_size: int,
    setup: Callable[[], None] = _no_setup,
    limits: Limits = NO_LIMITS,
) -> Iterator[tuple[int, Result | Crash]]:
    """Yield `(index, func(item))` for every item, in completion order.

    `func` and `setup` (run once in each worker) must be picklable (module-level functions or
    partials of them). An item whose worker died or ran out of time yields `(index, Crash)`;
    every other item is still processed.
    """
    queue: deque[list[tuple[int, Item]]] = deque(
        list(items[start : start + chunk_size]) for start in range(0, len(items), chunk_size)
    )
    if not queue:
        return  # the usual case of an in-process run: nothing isolated, nothing to import
    from multiprocessing.connection import wait

    pool: _Pool[Item, Result] = _Pool(func, setup, limits, queue)
    finished = False
    try:
        for _ in range(min(workers, len(queue))):
            pool.start()
        while pool.live:
            for conn in wait(list(pool.live), _time_left(pool.live.values(), limits)):
                # `wait` is typed to return sockets and handles too; it returns what it is given.
                yield from pool.receive(pool.live[cast("Connection", conn)])
            yield from pool.expire()
        finished = True
    finally:
        if not finished:
            pool.terminate()


class _Pool(Generic[Item, Result]):
    """The live workers of one `run_in_workers` call and the chunks still to give them."""

    def __init__(
        self,
        func: Callable[[Item], Result],
        setup: Callable[[], None],
        limits: Limits,
        queue: deque[list[tuple[int, Item]]],
    ) -> None:
        self.func, self.setup, self.limits, self.queue = func, setup, limits, queue
        self.live: dict[Connection, _Worker[Item]] = {}

    def start(self) -> None:
        worker: _Worker[Item] = _Worker(self.func, self.setup, self.limits)
        self.live[worker.conn] = worker

    def lost(self, worker: _Worker[Item], detail: str, cause: str) -> Iterator[tuple[int, Crash]]:
        """Account for a dead worker: its item in hand is lost, the rest goes back in the queue."""
        del self.live[worker.conn]
        worker.close()
        if worker.outstanding:
            index, _ = worker.outstanding.popleft()
            rest = list(worker.outstanding)
            if rest:
                self.queue.appendleft(rest)
            yield index, Crash(detail, cause)
        if self.queue:
            self.start()

    def receive(self, worker: _Worker[Item]) -> Iterator[tuple[int, Result | Crash]]:
        """Take one message from `worker`: ready, a result, or its death."""
        import pickle

        try:
            message = worker.conn.recv()
        except (EOFError, OSError, pickle.UnpicklingError):
            if not worker.ready:
                code = worker.process.wait()
                raise WorkerStartError(
                    f"a worker process exited with code {code} before it was ready"
                ) from None
            yield from self.lost(worker, worker.death_detail(), CRASHED)
            return
        if message == _READY:
            worker.ready = True
        else:
            index, result = message
            done, _ = worker.outstanding.popleft()
            assert done == index, (done, index)
            worker.started = time.monotonic()
            yield index, result
        if not worker.outstanding:
            self.feed(worker)

    def feed(self, worker: _Worker[Item]) -> None:
        """Give an idle worker the next chunk, or stop it when there is none."""
        import subprocess

        if self.queue:
            worker.give(self.queue.popleft())
            return
        del self.live[worker.conn]
        worker.stop()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(STOP_GRACE_SECONDS)

    def expire(self) -> Iterator[tuple[int, Crash]]:
        """Kill every worker whose item has run past the time limit."""
        seconds = self.limits.seconds
        if seconds is None:
            return
        now = time.monotonic()
        for worker in list(self.live.values()):
            if worker.outstanding and now - worker.started > seconds:
                worker.kill()
                detail = f"took longer than the per-file time limit of {seconds:g} s"
                yield from self.lost(worker, detail, TIMED_OUT)

    def terminate(self) -> None:
        """Stopped early (Ctrl-C, an error, the caller gave up): SIGTERM ends each worker at
        once, except in the middle of a write, which it finishes first (see `engine`)."""
        import subprocess

        for worker in self.live.values():
            worker.close()
            with contextlib.suppress(OSError):
                worker.process.terminate()
        deadline = time.monotonic() + TERM_GRACE_SECONDS
        for worker in self.live.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                worker.process.wait(max(0.0, deadline - time.monotonic()))
            if worker.process.poll() is None:
                worker.kill()


def _time_left(workers: Iterable[_Worker[Any]], limits: Limits) -> float | None:
    """Return how long to wait for a message before some busy worker reaches the time limit."""
    if limits.seconds is None:
        return None
    starts = [w.started for w in workers if w.outstanding]
    if not starts:
        return None
    return max(0.0, min(starts) + limits.seconds - time.monotonic() + 0.01)


def recursion_headroom() -> None:
    """Worker setup: LibCST's visitors recurse deeply on deeply nested code."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
