"""Configuration files as a kind of file the engine processes: their context, analysis, validity.

The engine reads, decodes, selects the checks, fixes and writes every kind of file the same way;
this kind supplies a `ConfigContext` (the file's verbatim scalars, its comments) and the test a
fixed text must pass: it still reads in its format, with as many scalars as before. It imports
nothing from the engine's runner.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from claude_migrate.configs import format_of
from claude_migrate.configs.scalars import READS, Scalar, Unreadable, read
from claude_migrate.core.diagnostics import Diagnostic, FileError
from claude_migrate.core.filekind import Comment, hash_comments, toml_comments
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText
from claude_migrate.engine.checking import analyse

if TYPE_CHECKING:
    from claude_migrate.checks.base import Check
    from claude_migrate.core.job import Job
    from claude_migrate.policy.facts import ProjectFacts

# A comment starts at `#` (and in `.ini` files `;`) at a line's start or after white space.
_HASH = re.compile(r"(?:^|(?<=[ \t]))#.*")
_INI_COMMENT = re.compile(r"(?:^|(?<=[ \t]))[#;].*")
# The characters of a word that may spell a model id (`claude-...`, `anthropic.claude-...:0`).
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@/-")


def raw_words(text: str) -> Iterator[str]:
    """Yield each whole word (of `_WORD_CHARS`) of `text` that holds `claude`.

    From each `claude` outwards, each character read once: the pattern
    `[...]*claude[...]*` retried its leading run from every character of a long word without
    `claude`, quadratic on a long line.
    """
    end = 0
    while (at := text.find("claude", end)) != -1:
        start = at
        while start > end and text[start - 1] in _WORD_CHARS:
            start -= 1
        end = at + len("claude")
        while end < len(text) and text[end] in _WORD_CHARS:
            end += 1
        yield text[start:end]


class ConfigContext:
    """One configuration file: its text, format, scalars, and the policy in effect.

    Fulfils `filekind.CheckContext`, the contract it shares with Python files.
    """

    def __init__(
        self, display_path: str, file_path: str, source: SourceText, settings: FileSettings
    ) -> None:
        self.path = display_path
        self.file_path = file_path
        self.format = format_of(file_path) or ""
        self.source = source
        self.settings = settings
        self.errors: list[FileError] = []

    @cached_property
    def facts(self) -> ProjectFacts:
        from claude_migrate.policy.facts import facts_for

        return facts_for(self.settings)

    @cached_property
    def scalars(self) -> list[Scalar]:
        """Return the file's verbatim scalars; an unreadable file naming a model is a CM001."""
        if self._is_catalogue():
            return []
        try:
            return read(self.format, self.source)
        except Unreadable as exc:
            if self._names_a_model():
                self.errors.append(FileError(self.path, str(exc), exc.line))
            return []

    def _is_catalogue(self) -> bool:
        """Return whether this file is the policy's team catalogue (it lists retired ids)."""
        team = self.facts.team_catalogue
        return bool(team) and os.path.realpath(self.file_path) == os.path.realpath(str(team))

    def _names_a_model(self) -> bool:
        from claude_migrate.policy.model_ids import recognise

        catalogue = self.facts.catalogue
        return any(
            recognise(word.strip(".:"), catalogue) is not None
            for word in raw_words(self.source.text)
        )

    def comments(self, lines: Collection[int] | None = None) -> list[Comment]:
        """Return the file's comments (a JSON file has none)."""
        if self.format == "toml":
            return toml_comments(self.source, lines)
        if self.format == "env":
            return hash_comments(self.source, lines)
        if self.format == "yaml":
            return self._outside_scalars(_HASH, lines)
        if self.format == "ini":
            return self._outside_scalars(_INI_COMMENT, lines)
        return []

    def _outside_scalars(
        self, pattern: re.Pattern[str], lines: Collection[int] | None
    ) -> list[Comment]:
        source = self.source
        numbers = sorted(lines) if lines is not None else range(1, len(source.line_starts) + 1)
        spans = [(s.start, s.end) for s in self.scalars] if self.format == "yaml" else []
        found = []
        for number in numbers:
            text = source.line_text(number)
            base = source.line_starts[number - 1] if number <= len(source.line_starts) else 0
            for match in pattern.finditer(text):
                at = base + match.start()
                if not any(start <= at < end for start, end in spans):
                    found.append(Comment(number, match.start(), match.group()))
                    break
        return found


def _analyse(
    job: Job, source: SourceText, checks: Sequence[Check[Any]]
) -> tuple[list[Diagnostic], list[FileError]]:
    ctx = ConfigContext(job.display, job.path, source, job.settings)
    return analyse(ctx, checks, job.display)


class ConfigKind:
    """Configuration files as the engine processes them (`filekind.FileKind`)."""

    name = "config"

    def analyse(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]]
    ) -> tuple[list[Diagnostic], list[FileError]]:
        return _analyse(job, source, checks)

    def validator(
        self, job: Job, source: SourceText, checks: Sequence[Check[Any]], errors: list[FileError]
    ) -> Callable[[str], bool]:
        """Return the test a fixed text must pass: it reads as the original did, with as many
        scalars (an edit replaced a value, it neither split nor joined any)."""
        fmt = format_of(job.path) or ""
        reads = READS.get(fmt)
        before = reads(source.text) if reads is not None else True
        try:
            count = len(read(fmt, source))
        except Unreadable:
            count = -1

        def still_reads(text: str) -> bool:
            if reads is not None and reads(text) != before:
                return False
            try:
                return len(read(fmt, SourceText(text, source.encoding, source.bom))) == count
            except Unreadable:
                return count == -1

        return still_reads


KIND = ConfigKind()
