"""Run work in worker processes; a worker that dies costs only the item it was working on.

Each worker gets a chunk of items over a pipe and sends one result back per item, as soon as it
has it, so the parent always knows which item a worker was on: when a worker dies (a segfault in
a native parser, `os._exit`, the OOM killer), that item is reported as a `Crash` with what the
worker's fault handler wrote (the fatal error and the innermost frame) or its exit status, the
rest of its chunk goes back in the queue, and a new worker takes its place.

Workers start from a fork server (or are spawned where there is none), never by forking the
parent: the parent runs a progress-bar thread, and forking a threaded process can deadlock.
Workers ignore Ctrl-C and stop on their own after the item in hand when the parent goes away,
whether it returned, was interrupted or was killed.
"""

from __future__ import annotations

import contextlib
import faulthandler
import multiprocessing
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

# How long to wait for a worker to finish the item in hand when the run stops early.
STOP_GRACE_SECONDS = 30.0


@dataclass(frozen=True)
class Crash:
    """A worker process died while working on an item."""

    detail: str


def context() -> BaseContext:
    """Return the multiprocessing context workers start from (never a plain fork)."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # Workers fork from a server that has already imported the engine and LibCST.
        ctx.set_forkserver_preload(["claude_migrate.engine", "libcst"])
        return ctx
    return multiprocessing.get_context("spawn")


def _serve(
    func: Callable[[Any], Any], conn: Connection, crash_pipe: Connection, setup: Callable[[], None]
) -> None:
    """Worker main loop: run `func` over each chunk received, one reply per item."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    faulthandler.enable(file=crash_pipe.fileno(), all_threads=False)
    setup()
    parent = multiprocessing.parent_process()
    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            for index, item in chunk:
                if parent is not None and not parent.is_alive():
                    return  # a killed parent: start nothing new
                conn.send((index, func(item)))
    except (EOFError, BrokenPipeError, ConnectionResetError):
        return  # the parent went away


class _Worker(Generic[Item]):
    def __init__(
        self, ctx: BaseContext, func: Callable[[Item], Any], setup: Callable[[], None]
    ) -> None:
        self.conn, child_conn = ctx.Pipe()
        self.crash_reader, crash_writer = ctx.Pipe(duplex=False)
        self.process = ctx.Process(  # type: ignore[attr-defined]
            target=_serve, args=(func, child_conn, crash_writer, setup), daemon=True
        )
        self.process.start()
        # Only the child may hold its ends, so its death shows here as end-of-file.
        child_conn.close()
        crash_writer.close()
        self.outstanding: deque[tuple[int, Item]] = deque()

    def give(self, chunk: list[tuple[int, Item]]) -> None:
        self.outstanding.extend(chunk)
        self.conn.send(chunk)

    def death_detail(self) -> str:
        """Return what the dead worker's fault handler wrote, or how it exited."""
        self.process.join(STOP_GRACE_SECONDS)
        written = b""
        with contextlib.suppress(OSError):
            while self.crash_reader.poll(0):
                piece = os.read(self.crash_reader.fileno(), 65536)
                if not piece:
                    break
                written += piece
        fatal = _fatal_summary(written.decode("utf-8", "replace"))
        if fatal:
            return fatal
        code = self.process.exitcode
        if code is not None and code < 0:
            with contextlib.suppress(ValueError):
                return f"killed by {signal.Signals(-code).name}"
        return f"exited with code {code}"

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.conn.send(None)
        self.close()

    def close(self) -> None:
        self.conn.close()
        self.crash_reader.close()


def _fatal_summary(text: str) -> str:
    """Return the fatal error line and the innermost frame of a fault handler dump."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    fatal = next((line for line in lines if line.startswith("Fatal Python error")), "")
    if not fatal:
        return ""
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
) -> Iterator[tuple[int, Result | Crash]]:
    """Yield `(index, func(item))` for every item, in completion order.

    `func` and `setup` (run once in each worker) must be importable module-level functions.
    An item whose worker died yields `(index, Crash)`; every other item is still processed.
    """
    queue: deque[list[tuple[int, Item]]] = deque(
        list(items[start : start + chunk_size]) for start in range(0, len(items), chunk_size)
    )
    if not queue:
        return
    ctx = context()
    busy: dict[Connection, _Worker[Item]] = {}

    def start_with(chunk: list[tuple[int, Item]]) -> None:
        worker: _Worker[Item] = _Worker(ctx, func, setup)
        worker.give(chunk)
        busy[worker.conn] = worker

    try:
        for _ in range(min(workers, len(queue))):
            start_with(queue.popleft())
        while busy:
            for conn in wait(list(busy)):
                worker = busy[conn]  # type: ignore[index]
                try:
                    index, result = worker.conn.recv()
                except (EOFError, OSError):
                    del busy[worker.conn]
                    detail = worker.death_detail()
                    worker.close()
                    if worker.outstanding:
                        index, _ = worker.outstanding.popleft()
                        rest = list(worker.outstanding)
                        if rest:
                            queue.appendleft(rest)
                        yield index, Crash(detail)
                    if queue:
                        start_with(queue.popleft())
                    continue
                done, _ = worker.outstanding.popleft()
                assert done == index, (done, index)
                yield index, result
                if not worker.outstanding:
                    if queue:
                        worker.give(queue.popleft())
                    else:
                        del busy[worker.conn]
                        worker.stop()
                        worker.process.join(STOP_GRACE_SECONDS)
    finally:
        # Stopped early (Ctrl-C, an error, the caller gave up): each worker finishes the item
        # in hand, sees its pipe closed and exits; none is killed in the middle of a write.
        for worker in busy.values():
            worker.close()
        for worker in busy.values():
            worker.process.join(STOP_GRACE_SECONDS)
            if worker.process.is_alive():
                worker.process.kill()


def recursion_headroom() -> None:
    """Worker setup: LibCST's visitors recurse deeply on deeply nested code."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
