"""What every kind of file gives its checks and the suppression stage: the `CheckContext` contract.

A Python file (`context.FileContext`, a LibCST tree and the analyses built on it) and a
dependency file (`manifests.processor.ManifestContext`, its requirements) differ in what they
hold, and share this: where the file is, its text, its policy, the project's facts, a list for
the parts a check could not read, and its comments. The suppression stage reads directives from
`comments` alone, so `# noqa` and CM002 work the same in every kind of file.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from claude_migrate.core.diagnostics import FileError
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.core.source import SourceText
    from claude_migrate.policy.facts import ProjectFacts


@dataclass(frozen=True)
class Comment:
    """One comment: its 1-based line, 0-based column, and its text from `#` to the line's end."""

    line: int
    column: int
    text: str


class CheckContext(Protocol):
    """What a check may read about any file, whatever its kind."""

    path: str  # as reported: relative to the working directory, forward slashes
    file_path: str  # where the file is
    source: SourceText
    settings: FileSettings
    errors: list[FileError]  # parts a check could not read: CM001 entries for this file

    @property
    def facts(self) -> ProjectFacts: ...

    def comments(self, lines: Collection[int] | None = None) -> list[Comment]:
        """Return the file's comments (only those on `lines`, when given)."""
        ...


def python_comments(text: str, lines: Collection[int] | None = None) -> list[Comment]:
    """Return the comments of Python source, as its tokenizer sees them (never inside strings)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    return [
        Comment(token.start[0], token.start[1], token.string)
        for token in tokens
        if token.type == tokenize.COMMENT and (lines is None or token.start[0] in lines)
    ]


_HASH_COMMENT = re.compile(r"#.*")


def hash_comments(source: SourceText, lines: Collection[int] | None = None) -> list[Comment]:
    """Return the `#` comments of a line-based file (requirements, TOML, setup.cfg)."""
    numbers = sorted(lines) if lines is not None else range(1, len(source.line_starts) + 1)
    found = []
    for number in numbers:
        match = _HASH_COMMENT.search(source.line_text(number))
        if match is not None:
            found.append(Comment(number, match.start(), match.group()))
    return found
