"""The engine's processor for dependency files: decode, read, check and fix, as for Python files.

Mirrors the Python path: a `ManifestContext` instead of a LibCST tree, the same check runner,
and the engine's own `fix_loop` (edits as text spans, the file re-read after each round, a fix
that would leave a requirement unreadable refused, atomic writes honouring `Options`). Never
raises: the engine turns anything unexpected into this file's CM001.
"""

from __future__ import annotations

import os
import re
from functools import cached_property

from ..config import FileSettings
from ..diagnostics import Diagnostic, FileError, FileResult
from ..source import SourceText
from ..suppress import comment_codes
from . import format_of, read_text
from .requirement import Pin, Problem

_COMMENT = re.compile(r"#.*")
# Formats whose comments start with `#` (JSON has none).
COMMENTED = frozenset({"requirements", "pyproject", "pipfile", "setup-cfg", "toml-lock"})


class ManifestContext:
    """One dependency file: its text, its format, what it says, and the policy in effect."""

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


def _suppressed(ctx: ManifestContext, diagnostic: Diagnostic) -> bool:
    if ctx.format not in COMMENTED:
        return False
    comment = _COMMENT.search(ctx.source.line_text(diagnostic.line))
    if comment is None:
        return False
    codes = comment_codes(comment.group())
    return "*" in codes or diagnostic.code in codes


def _analyse(job, source: SourceText, checks) -> tuple[list[Diagnostic], list[FileError]]:  # type: ignore[no-untyped-def]
    from ..engine import run_checks

    ctx = ManifestContext(job.display, job.path, source, job.settings)
    found, errors = run_checks(ctx, checks, job.display)
    found = sorted((d for d in found if not _suppressed(ctx, d)), key=Diagnostic.sort_key)
    return found, errors


def process_manifest(job, data: bytes | None, options, result: FileResult) -> None:  # type: ignore[no-untyped-def]
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


def skipped_file_errors(job, data: bytes) -> list[FileError]:  # type: ignore[no-untyped-def]
    """Return the CM001 of a dependency file the prefilter skips, when it still needs one.

    A `pyproject.toml` is also where a policy may live: one that does not parse cannot govern
    (the policy loader passes over it unless its text visibly sets this tool's table), so it is
    reported even when it names no package of the minimums, and the skip is never silent.
    """
    if os.path.basename(job.path) != "pyproject.toml":
        return []
    from .toml_spans import tomllib

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
    return []
