"""`check --add-noqa`: a `# noqa: CODE` comment on the line of each finding, as ruff adds them.

A directive silences a finding on the line where the finding starts (`suppress.py`), so that is
where the comment goes: at the end of the physical line, after any comment already there, or
into a `# noqa: ...` already there (its codes are kept, the new ones added in order). Python
allows a comment only where no string is open and no backslash continues the line, so a line
that ends inside a string (a triple-quoted one, an f-string's replacement field) or with a
backslash gets no comment: it is named, and its finding stays. Python files only: a notebook's
cells and the dependency files are left as they are. Running it again adds nothing, since the
findings it suppressed are no longer reported.

The text is edited as the file's own encoding decodes it (PEP 263, a BOM kept) with its own line
endings, checked to parse as it did, and written atomically.
"""

from __future__ import annotations

import ast
import io
import os
import re
import tokenize
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from claude_migrate.core.atomic import write_atomic
from claude_migrate.core.diagnostics import Diagnostic
from claude_migrate.core.source import python_encoding

_NOQA_CODES = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.I)
_STRING_TOKENS = {tokenize.STRING}
for _name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END", "TSTRING_START", "TSTRING_END"):
    if hasattr(tokenize, _name):  # Python 3.12+ splits f-strings (3.14: t-strings) into tokens
        _STRING_TOKENS.add(getattr(tokenize, _name))
_OPENERS = {"FSTRING_START", "TSTRING_START"}
_CLOSERS = {"FSTRING_END", "TSTRING_END"}


@dataclass
class FileNoqa:
    """What `--add-noqa` did to one file."""

    path: str
    added: int = 0
    unplaced: list[tuple[int, str]] = field(default_factory=list)  # (line, why)


@dataclass(frozen=True)
class _Lines:
    """Per line of a file: its comment's start column, and whether a comment may end it."""

    comments: dict[int, int]
    closed: frozenset[int]  # lines a comment cannot end: a string open, a backslash


def _scan(text: str) -> _Lines:
    """Return where comments stand and which lines cannot take one; raises tokenize errors."""
    comments: dict[int, int] = {}
    closed: set[int] = set()
    depth = 0  # f-strings open (3.12+ tokens): their lines are inside a string
    opened_at: list[int] = []
    # newline="": lines end where Python's own do (LF, CRLF, CR), and keep their endings.
    for token in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
        name = tokenize.tok_name[token.type]
        if token.type == tokenize.COMMENT and depth == 0:
            comments[token.start[0]] = token.start[1]
        elif name in _OPENERS:
            depth += 1
            opened_at.append(token.start[0])
        elif name in _CLOSERS:
            depth -= 1
            start = opened_at.pop()
            closed.update(range(start, token.end[0]))
        elif token.type in _STRING_TOKENS and token.end[0] > token.start[0]:
            closed.update(range(token.start[0], token.end[0]))
    for number, line in enumerate(physical_lines(text), start=1):
        if _split_ending(line)[0].endswith("\\") and number not in comments:
            closed.add(number)
    return _Lines(comments, frozenset(closed))


def _with_codes(line: str, comment_at: int | None, codes: list[str]) -> str:
    """Return `line` (no line ending) with `codes` suppressed by a noqa comment at its end."""
    codes = sorted(codes)
    if comment_at is not None:
        comment = line[comment_at:]
        match = _NOQA_CODES.search(comment)
        if match is not None:
            have = re.findall(r"[A-Z]+[0-9]+", match.group("codes").upper())
            merged = have + [c for c in codes if c not in have]
            start, end = comment_at + match.start(), comment_at + match.end()
            return line[:start] + "# noqa: " + ", ".join(merged) + line[end:]
    return line.rstrip() + "  # noqa: " + ", ".join(codes)


def physical_lines(text: str) -> list[str]:
    """Return the lines as Python counts them (LF, CRLF or CR ends one), endings kept.

    Not `str.splitlines`, which also splits at form feeds and other separators Python reads as
    part of a line.
    """
    return _LINE.findall(text)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _split_ending(line: str) -> tuple[str, str]:
    for ending in ("\r\n", "\n", "\r"):
        if line.endswith(ending):
            return line[: -len(ending)], ending
    return line, ""


def add_to_file(path: Path, display: str, findings: Iterable[Diagnostic]) -> FileNoqa:
    """Add noqa comments for `findings` (all in the Python file `path`); write if any was added."""
    done = FileNoqa(display)
    by_line: dict[int, list[str]] = defaultdict(list)
    for d in findings:
        if d.code not in by_line[d.line]:
            by_line[d.line].append(d.code)
    data = path.read_bytes()
    encoding = python_encoding(data)
    text = data.decode(encoding)
    try:
        lines_info = _scan(text)
        ast.parse(text)
    except (SyntaxError, tokenize.TokenError, ValueError):
        done.unplaced.extend((n, "the file does not parse") for n in sorted(by_line))
        return done
    lines = physical_lines(text)
    for number in sorted(by_line):
        if not 1 <= number <= len(lines):
            done.unplaced.append((number, "no such line"))
            continue
        if number in lines_info.closed:
            done.unplaced.append((number, "the line ends inside a string or continues"))
            continue
        body, ending = _split_ending(lines[number - 1])
        lines[number - 1] = _with_codes(body, lines_info.comments.get(number), by_line[number])
        lines[number - 1] += ending
        done.added += len(by_line[number])
    if not done.added:
        return done
    new = "".join(lines)
    try:
        ast.parse(new)
    except SyntaxError:  # never write a file that no longer parses
        done.unplaced = [(n, "the comment would break the file") for n in sorted(by_line)]
        done.added = 0
        return done
    write_atomic(Path(os.path.realpath(path)), new.encode(encoding))
    return done
