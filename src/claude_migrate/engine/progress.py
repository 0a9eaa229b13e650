"""A progress bar on stderr while a run works through its files, when stderr is a terminal.

It shows files done out of the total, the fixes applied so far and the time remaining. The bar
and its estimate advance by bytes, not files: a tree's few large modules that call Claude cost
far more than its many small ones that do not, and counting files made the estimate run out
long before the work did. It is
silent when stderr is not a terminal (CI logs, pipes) and under `--quiet`, and it never writes
to stdout, so a run's output is the same with or without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TextIO

from claude_migrate.core.diagnostics import FileResult

OnResult = Callable[[FileResult], None]


def wanted(stream: TextIO, quiet: bool) -> bool:
    """Return whether a progress bar belongs on `stream`: a terminal, and not `--quiet`."""
    if quiet:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


# What a file costs beyond its bytes (a stat, an open, a hash): an empty file is not free.
PER_FILE = 256


class Work:
    """The run's work in bytes: each file's size plus `PER_FILE`, and how much is done."""

    def __init__(self, sizes: Mapping[str, int]) -> None:
        self.weights = {path: size + PER_FILE for path, size in sizes.items()}
        self.total = sum(self.weights.values())
        self.done = 0
        self.files = 0
        self.fixes = 0

    def advance(self, result: FileResult) -> int:
        """Count one file's result as done; return the work it stood for."""
        weight = self.weights.get(result.path, PER_FILE)
        self.done += weight
        self.files += 1
        self.fixes += len(result.fixed)
        return weight

    @property
    def fraction(self) -> float:
        return self.done / self.total if self.total else 1.0


@contextmanager
def progress_bar(
    sizes: Mapping[str, int], *, fixing: bool, enabled: bool, stream: TextIO | None = None
) -> Iterator[OnResult | None]:
    """Yield the callback to call with each file's result, or None when there is no bar.

    `sizes` maps each file's reported path to its size in bytes: the bar's unit of work.
    """
    total = len(sizes)
    if not enabled or total == 0:
        yield None
        return
    # rich costs ~50 ms to import: only a run that shows the bar pays it.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(file=stream or sys.stderr, force_terminal=True)
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[files]}/" + str(total)),
        TextColumn("files"),
    ]
    if fixing:
        columns.append(TextColumn("[green]{task.fields[fixes]} fixes"))
    columns += [TextColumn("ETA"), TimeRemainingColumn()]
    columns.insert(2, TextColumn("{task.percentage:>3.0f}%"))
    bar = Progress(*columns, console=console, transient=True)
    work = Work(sizes)
    task = bar.add_task("fixing" if fixing else "checking", total=work.total, fixes=0, files=0)

    def advance(result: FileResult) -> None:
        done = work.advance(result)
        bar.update(task, advance=done, fixes=work.fixes, files=work.files)

    with bar:
        yield advance


def file_sizes(jobs: Iterable[tuple[str, str]]) -> dict[str, int]:
    """Return each (reported path, real path)'s size in bytes (0 when it cannot be read)."""
    sizes = {}
    for display, path in jobs:
        try:
            sizes[display] = os.stat(path).st_size
        except OSError:
            sizes[display] = 0
    return sizes
