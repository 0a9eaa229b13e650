"""The engine's processor for dependency files: decode, read, check and fix, as for Python files.

Mirrors the Python path: a `ManifestContext` instead of a LibCST tree, the same check runner,
and the engine's own `fix_loop` (edits as text spans, the file re-read after each round, a fix
that would leave a requirement unreadable refused, atomic writes honouring `Options`). Never
raises: the engine turns anything unexpected into this file's CM001.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from ..checking import analyse
from ..config import FileSettings
from ..diagnostics import Diagnostic, FileError, FileResult
from ..filekind import Comment, hash_comments
from ..source import SourceText
from . import format_of, read_text
from .requirement import Pin, Problem

if TYPE_CHECKING:
    from ..checks.base import Check
    from ..engine import Job, Options
    from ..facts import ProjectFacts

# Formats whose comments start with `#` (JSON has none).
COMMENTED = frozenset({"requirements", "pyproject", "pipfile", "setup-cfg", "toml-lock"})


class ManifestContext:
    """One dependency file: its text, its format, what it says, and the policy in effect.

    Fulfils `filekind.CheckContext`, the contract it shares with Python files.
    """

    def __init__(
        self, display_path: str, file_path: str, source: SourceText, settings: FileSettings
    ) -> None:
        self.path = display_path
        self.name = os.path.basename(file_path)
        self.format = format_of(file_path) or ""
        self.source = source
        self.settings = settings
        self.errors: list[FileError] = []

    @cached_property
    def reading(self) -> tuple[list[Pin], list[Problem]]:
        return read_text(self.format, self.source.text, self.name)

    @cached_property
    def facts(self) -> ProjectFacts:
        from ..facts import facts_for

        return facts_for(self.settings)

    def comments(self, lines: Collection[int] | None = None) -> list[Comment]:
        """Return the file's `#` comments (none in a format without comments, such as JSON)."""
        if self.format not in COMMENTED:
            return []
        return hash_comments(self.source, lines)


def _analyse(
    job: Job, source: SourceText, checks: Sequence[Check[Any]]
) -> tuple[list[Diagnostic], list[FileError]]:
    ctx = ManifestContext(job.display, job.path, source, job.settings)
    return analyse(ctx, checks, job.display)


def process_manifest(job: Job, data: bytes | None, options: Options, result: FileResult) -> None:
    """Check (and when asked, fix) one dependency file, filling in `result`."""
    from ..engine import checks_for, file_role, fix_loop, read_source

    source = read_source(job, data, result, is_python=False)
    if source is None:
        return
    checks = checks_for(job.settings, job.kind, file_role(job.path))
    diagnostics, errors = _analyse(job, source, checks)
    result.parsed = True
    result.errors.extend(errors)
    if options.fix:
        baseline = {(e.line, e.message) for e in errors}

        def still_reads(text: str) -> bool:
            # A fix may not make any part of the file unreadable that was readable before.
            _, new_errors = _analyse(job, SourceText(text, source.encoding, source.bom), checks)
            return all((e.line, e.message) in baseline for e in new_errors)

        diagnostics = fix_loop(
            job,
            source,
            diagnostics,
            options,
            result,
            analyse=lambda fixed: _analyse(job, fixed, checks),
            parses=still_reads,
        )
    result.diagnostics = diagnostics
