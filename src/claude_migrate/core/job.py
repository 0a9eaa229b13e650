"""One file to process, what a run does besides reporting, and what one file may cost."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.settings import FileSettings

if TYPE_CHECKING:
    from claude_migrate.core.project_view import ProjectView

MIB = 1024 * 1024


@dataclass(frozen=True)
class Limits:
    """What one item may cost in a worker: wall-clock seconds and memory above the worker's start.

    None means no limit. The memory limit caps the worker's address space at what it uses after
    start-up plus `memory` bytes, so an item that needs more gets a MemoryError (or, inside
    native code, an abort); the time limit is enforced by the parent, which kills the worker.
    """

    seconds: float | None = 60.0
    memory: int | None = 2048 * MIB


NO_LIMITS = Limits(None, None)


@dataclass(frozen=True)
class Options:
    """What a run does besides reporting."""

    fix: bool = False
    unsafe: bool = False
    write: bool = True  # False for `fix --diff` and stdin: compute, never touch the file
    keep_text: bool = False  # keep original and fixed text in the result (diffs, stdin)
    limits: Limits = Limits()  # per file, in worker processes
    force_write: bool = False  # rewrite read-only files too


@dataclass(frozen=True)
class Job:
    """One file to process and the policy in effect for it."""

    path: str  # absolute, and real (no symlink in it): what is read and written
    display: str  # as reported: relative to the working directory, forward slashes
    kind: str
    settings: FileSettings
    text: str | None = None  # given instead of reading `path` (stdin)
    # What the project phase decided that this file may use (None: the file alone).
    project: ProjectView | None = None
    # The triage found a candidate site already (in the run's main process): not asked again.
    triaged: bool = False
