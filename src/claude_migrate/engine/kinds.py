"""What the engine asks of a kind of file other than Python, and what it lends one.

A kind (dependency files, notebooks) gives its analysis and validity test; the engine reads,
selects the checks, runs the fix loop and writes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from claude_migrate.checks.base import Check
    from claude_migrate.core.diagnostics import Diagnostic, FileError
    from claude_migrate.core.job import Job
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.core.source import SourceText


class FileKind(Protocol):
    """A kind of file other than Python, as the engine processes it (dependency files).

    The engine reads and decodes the file, selects the checks, runs the fix loop and writes;
    the kind gives its analysis (context, checks, the suppression stage) and the test a fixed
    text must pass before it is kept.
    """

    name: str

    def analyse(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]]
    ) -> tuple[list[Diagnostic], list[FileError]]: ...

    def validator(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]], errors: list[FileError]
    ) -> Callable[[str], bool]: ...


class PythonPath(Protocol):
    """The Python file path's stages a kind that embeds Python code (notebook cells) reuses.

    The engine hands its own to such a kind, which therefore imports nothing from the engine.
    """

    def checks(self, settings: FileSettings, kind: str) -> Sequence[Check[Any]]:
        """Return the enabled checks for a file of `kind` under `settings`."""
        ...

    def parse(self, text: str) -> Any:
        """Return the LibCST tree of `text`; raises when LibCST cannot parse it."""
        ...

    def syntax_error(self, exc: Exception, text: str) -> FileError:
        """Return the CM001 entry for text that did not parse (path left empty)."""
        ...
