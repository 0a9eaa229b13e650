"""Dependency files as a kind of file the engine processes: their context, analysis and validity.

The engine reads, decodes, selects the checks, fixes and writes every kind of file the same
way; this kind supplies what differs: a `ManifestContext` instead of a LibCST tree (analysed by
the shared check runner and suppression stage) and the test a fixed text must pass (no
requirement left unreadable that was readable). It imports nothing from the engine.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Collection, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from claude_migrate.core.diagnostics import Diagnostic, FileError
from claude_migrate.core.filekind import Comment, hash_comments, toml_comments
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText
from claude_migrate.engine.checking import analyse
from claude_migrate.manifests import format_of, read_text
from claude_migrate.manifests.requirement import Pin, Problem

if TYPE_CHECKING:
    from claude_migrate.checks.base import Check
    from claude_migrate.core.job import Job
    from claude_migrate.policy.facts import ProjectFacts

# Formats whose comments start with `#` (JSON has none).
COMMENTED = frozenset({"requirements", "pyproject", "pipfile", "setup-cfg", "toml-lock"})
# Formats that are TOML documents: a `#` inside a string is no comment there.
TOML_FORMATS = frozenset({"pyproject", "pipfile", "toml-lock"})


class ManifestContext:
    """One dependency file: its text, its format, what it says, and the policy in effect.

    Fulfils `filekind.CheckContext`, the contract it shares with Python files.
    """

    def __init__(
        self, display_path: str, file_path: str, source: SourceText, settings: FileSettings
    ) -> None:
        self.path = display_path
        self.file_path = file_path
        self.name = os.path.basename(file_path)
        self.folder = os.path.dirname(os.path.abspath(file_path))
        self.format = format_of(file_path) or ""
        self.source = source
        self.settings = settings
        self.errors: list[FileError] = []

    @cached_property
    def reading(self) -> tuple[list[Pin], list[Problem]]:
        return read_text(self.format, self.source.text, self.name)

    @cached_property
    def facts(self) -> ProjectFacts:
        from claude_migrate.policy.facts import facts_for

        return facts_for(self.settings)

    def comments(self, lines: Collection[int] | None = None) -> list[Comment]:
        """Return the file's `#` comments (none in a format without comments, such as JSON)."""
        if self.format not in COMMENTED:
            return []
        if self.format in TOML_FORMATS:
            return toml_comments(self.source, lines)
        return hash_comments(self.source, lines)


def _analyse(
    job: Job, source: SourceText, checks: Sequence[Check[Any]]
) -> tuple[list[Diagnostic], list[FileError]]:
    ctx = ManifestContext(job.display, job.path, source, job.settings)
    return analyse(ctx, checks, job.display)


class ManifestKind:
    """Dependency files as the engine processes them (`filekind.FileKind`)."""

    name = "manifest"

    def analyse(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]]
    ) -> tuple[list[Diagnostic], list[FileError]]:
        return _analyse(job, source, checks)

    def validator(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]], errors: list[FileError]
    ) -> Callable[[str], bool]:
        """Return the test a fixed text must pass: no part unreadable that was readable."""
        baseline = {(e.line, e.message) for e in errors}

        def still_reads(text: str) -> bool:
            _, new_errors = _analyse(job, SourceText(text, source.encoding, source.bom), checks)
            return all((e.line, e.message) in baseline for e in new_errors)

        return still_reads


KIND = ManifestKind()


def skipped_file_errors(job: Job, data: bytes) -> list[FileError]:
    """Return the CM001 of a dependency file the prefilter skips, when it still needs one.

    A `pyproject.toml` is also where a policy may live: one that does not parse cannot govern
    (the policy loader passes over it unless its text visibly sets this tool's table), so it is
    reported even when it names no package of the minimums, and the skip is never silent.
    """
    if os.path.basename(job.path) != "pyproject.toml":
        return []
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib

    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [FileError(job.display, f"cannot decode as UTF-8: {exc.reason}")]
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # The same words the dependency-file reader uses for a file it does read.
        message = getattr(exc, "msg", None) or str(exc).split(" (at ")[0]
        line = re.search(r"line (\d+)", str(exc))
        return [
            FileError(job.display, f"invalid TOML: {message}", int(line.group(1)) if line else None)
        ]
    except RecursionError:
        return [FileError(job.display, "invalid TOML: nested too deeply")]
    except ValueError:
        from claude_migrate.core.errors import number_too_long

        words, number_line = number_too_long(text)
        return [FileError(job.display, f"invalid TOML: {words}", number_line)]
    return []
