"""A progress bar on stderr while a run works through its files, when stderr is a terminal.

It shows files done out of the total, the fixes applied so far and the time remaining. It is
silent when stderr is not a terminal (CI logs, pipes) and under `--quiet`, and it never writes
to stdout, so a run's output is the same with or without it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
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


@contextmanager
def progress_bar(
    total: int, *, fixing: bool, enabled: bool, stream: TextIO | None = None
) -> Iterator[OnResult | None]:
    """Yield the callback to call with each file's result, or None when there is no bar."""
    if not enabled or total == 0:
        yield None
        return
    # rich costs ~50 ms to import: only a run that shows the bar pays it.
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(file=stream or sys.stderr, force_terminal=True)
    columns = [
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("files"),
    ]
    if fixing:
        columns.append(TextColumn("[green]{task.fields[fixes]} fixes"))
    columns += [TextColumn("ETA"), TimeRemainingColumn()]
    bar = Progress(*columns, console=console, transient=True)
    task = bar.add_task("fixing" if fixing else "checking", total=total, fixes=0)
    fixes = 0

    def advance(result: FileResult) -> None:
        nonlocal fixes
        fixes += len(result.fixed)
        bar.update(task, advance=1, fixes=fixes)

    with bar:
        yield advance
