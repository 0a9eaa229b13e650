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
        # Lines end at "\r\n", "\r" or "\n", as CPython's tokenizer ends them and as the
        # findings count them (`newline=""` splits there without translating).
        tokens = list(tokenize.generate_tokens(io.StringIO(text, newline="").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    return [
        Comment(token.start[0], token.start[1], token.string)
        for token in tokens
        if token.type == tokenize.COMMENT and (lines is None or token.start[0] in lines)
    ]


# In a line-based file a comment is a `#` at the line's start or after white space (pip's rule,
# https://pip.pypa.io/en/stable/reference/requirements-file-format/#comments; python-dotenv's
# for a value), outside a quoted string (a requirement's marker, a quoted .env value): the
# quoted spans are matched first and skipped.
_HASH_COMMENT = re.compile(r"\"[^\"]*\"?|'[^']*'?|(?:^|(?<=\s))#.*")
# TOML (https://toml.io/en/v1.0.0#string): what opens a comment or a string, and for each
# string delimiter the rest of the string, its closing delimiter included (with the one or two
# quotes a multi-line string may end with). A string left open runs to its line's end, or a
# multi-line one to the text's end: the document is invalid then.
_TOML_OPENER = re.compile(r"#|\"\"\"|'''|\"|'")
_TOML_REST = {
    '"""': re.compile(r'(?:\\.|[^\\"]|"(?!""))*(?:"{3,5}|\\?\Z)', re.S),
    "'''": re.compile(r"(?:[^']|'(?!''))*(?:'{3,5}|\Z)"),
    '"': re.compile(r'(?:\\.|[^\\"\r\n])*"?'),
    "'": re.compile(r"[^'\r\n]*'?"),
}
_LINE_END = re.compile(r"[^\r\n]*")


def toml_comments(source: SourceText, lines: Collection[int] | None = None) -> list[Comment]:
    """Return the comments of a TOML document: a `#` outside its strings, to the line's end.

    A `#` inside a string is text (https://toml.io/en/v1.0.0#comment): `note = "# noqa"` on
    the line of a model id silences nothing. One pass over the text.
    """
    text = source.text
    found: list[Comment] = []
    at = 0
    while (opener := _TOML_OPENER.search(text, at)) is not None:
        delimiter = opener.group()
        if delimiter == "#":
            rest = _LINE_END.match(text, opener.start())
            assert rest is not None
            line, column = source.position(opener.start())
            if lines is None or line in lines:
                found.append(Comment(line, column, rest.group()))
        else:
            rest = _TOML_REST[delimiter].match(text, opener.end())
            assert rest is not None
        at = max(rest.end(), opener.end())
    return found


def hash_comments(source: SourceText, lines: Collection[int] | None = None) -> list[Comment]:
    """Return the `#` comments of a line-based file (requirements, setup.cfg, .env)."""
    numbers = sorted(lines) if lines is not None else range(1, len(source.line_starts) + 1)
    found = []
    for number in numbers:
        for match in _HASH_COMMENT.finditer(source.line_text(number)):
            if match.group().startswith("#"):
                found.append(Comment(number, match.start(), match.group()))
                break
    return found
