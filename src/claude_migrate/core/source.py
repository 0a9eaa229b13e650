"""A file's text as the engine sees it: read safely, decoded faithfully, encoded back byte for byte.

The engine and the fixer work on `str` offsets. Decoding never translates newlines, so a CRLF
or mixed-ending file keeps every line ending; the BOM and the declared encoding are kept for
writing the file back. A file whose encoding does not give back its own bytes when the decoded
text is encoded again (cp932 and big5 map several byte sequences to one character; utf-7 and the
iso2022 family keep a shift state) is marked `lossy`, and the fixer never writes it.

Only regular files are read: a FIFO or a device named `*.py` would block a read forever (or
never end), so `read_regular` opens without blocking and refuses anything else.
"""

from __future__ import annotations

import bisect
import codecs
import io
import os
import re
import stat
import tokenize
from dataclasses import dataclass, field

BOM = codecs.BOM_UTF8
_LINE_END = re.compile(r"\r\n?|\n")
# Encoders that keep a state (shift sequences, a BOM written once): the bytes of an unchanged
# stretch can depend on the text before it, so an edit could change bytes it does not touch.
STATEFUL_ENCODINGS = frozenset(
    {"utf-7", "hz", "utf-16", "utf-32"}
)  # and every iso2022 codec, matched by prefix in `_stateful`


def _stateful(encoding: str) -> bool:
    name = codecs.lookup(encoding).name
    return name in STATEFUL_ENCODINGS or name.startswith("iso2022")


_PHYSICAL_LINE = re.compile(rb"[^\r\n]*(?:\r\n?|\n)?")


def python_encoding(data: bytes) -> str:
    """Return the encoding Python decodes `data` with: a BOM, else a PEP 263 cookie, else UTF-8.

    `tokenize.detect_encoding` splits lines at `\n` only; CPython's own tokenizer (the one that
    compiles and imports the file) first turns `\r\n` and a lone `\r` into `\n`, so a cookie
    after a `\r` is on line 3 for Python and on line 2 for `tokenize`. The lines are handed
    over split the way CPython splits them. Raises SyntaxError where Python does.
    """
    lines = iter(_PHYSICAL_LINE.findall(data, 0, _two_lines_end(data)))
    encoding, _ = tokenize.detect_encoding(lambda: next(lines, b""))
    return encoding


def refused_cookie(text: str) -> DecodeError | None:
    """Return why Python refuses the coding cookie of `text` saved as UTF-8, or None.

    An editor's buffer has no bytes yet; the cookie on its first two lines still decides
    whether Python can read the file (`# coding: klingon` is a SyntaxError).
    """
    head = text[: text.find("\n", text.find("\n") + 1) + 1 or len(text)]
    if "coding" not in head:
        return None
    try:
        python_encoding(head.encode("utf-8", "surrogatepass"))
    except SyntaxError as exc:
        return DecodeError(str(exc), getattr(exc, "lineno", None) or 1)
    return None


def _two_lines_end(data: bytes) -> int:
    """Return where line 2 ends, a line ending at `\r\n`, `\r` or `\n` as CPython ends it."""
    end = 0
    for _ in range(2):
        match = _LINE_END_BYTES.search(data, end)
        if match is None:
            return len(data)
        end = match.end()
    return end


_LINE_END_BYTES = re.compile(rb"\r\n?|\n")


class NotRegularFile(OSError):
    """The path is a FIFO, a device, a socket or a folder: reading it could block or never end."""


def describe_mode(mode: int) -> str:
    """Return what kind of file a `st_mode` names, in words ("a FIFO", "a character device")."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a folder"
    return "not a regular file"


class FileBytes(bytes):
    """A file's bytes as read, with the size and modification time it had when read.

    The fixer compares them with the file just before replacing it, so an edit saved in between
    is never overwritten.
    """

    size: int
    mtime_ns: int

    @classmethod
    def of(cls, data: bytes, info: os.stat_result) -> FileBytes:
        read = cls(data)
        read.size = info.st_size
        read.mtime_ns = info.st_mtime_ns
        return read


class FileTooLarge(OSError):
    """The file is larger than the reader takes (`read_regular`'s `limit`)."""


def read_regular(path: str | os.PathLike[str], limit: int | None = None) -> FileBytes:
    """Return the bytes of the regular file at `path`; raise NotRegularFile for anything else.

    The open never blocks (`O_NONBLOCK`: a FIFO opens at once instead of waiting for a writer),
    and what was opened is checked with `fstat`, so a file swapped for a FIFO or a link to
    `/dev/zero` after it was found is refused, not read forever. With a `limit`, a file larger
    than that many bytes (or growing past it while read) raises FileTooLarge, never read whole.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(0, f"not a regular file ({describe_mode(info.st_mode)})")
        too_large = FileTooLarge(0, f"larger than {limit} bytes")
        if limit is not None and info.st_size > limit:
            raise too_large
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, max(info.st_size + 1, 65536))
            if not chunk:
                break
            total += len(chunk)
            if limit is not None and total > limit:
                raise too_large
            chunks.append(chunk)
    finally:
        os.close(fd)
    return FileBytes.of(b"".join(chunks), info)


class DecodeError(Exception):
    """The bytes cannot be decoded; carries a 1-based line where known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass
class SourceText:
    """Decoded source plus what is needed to write it back unchanged."""

    text: str
    encoding: str = "utf-8"
    bom: bool = False
    # Why encoding `text` again would not give back the bytes it was decoded from; None if it does.
    lossy: str | None = None
    _line_starts: list[int] | None = field(default=None, repr=False)

    @classmethod
    def from_bytes(cls, data: bytes, is_python: bool = True) -> SourceText:
        """Decode `data`, honouring a BOM and (for Python files) a PEP 263 coding cookie."""
        bom = data.startswith(BOM)
        encoding = "utf-8"
        if is_python:
            try:
                encoding = python_encoding(data)
            except SyntaxError as exc:
                raise DecodeError(str(exc), getattr(exc, "lineno", None)) from None
            if encoding == "utf-8-sig":
                encoding = "utf-8"
        body = data[len(BOM) :] if bom else data
        try:
            text = body.decode(encoding)
        except UnicodeDecodeError as exc:
            line = body[: exc.start].count(b"\n") + 1
            raise DecodeError(f"cannot decode as {encoding}: {exc.reason}", line) from None
        except LookupError:
            raise DecodeError(f"unknown encoding {encoding!r}", 1) from None
        lossy = _round_trip_problem(text, body, encoding)
        return cls(text=text, encoding=encoding, bom=bom, lossy=lossy)

    def to_bytes(self, text: str | None = None) -> bytes:
        """Encode `text` (default: the original) exactly as the file was encoded."""
        body = (self.text if text is None else text).encode(self.encoding)
        return BOM + body if self.bom else body

    # Positions -----------------------------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            # A line ends at "\r\n", "\r" or "\n", as Python's tokenizer and LibCST end it.
            starts = [0]
            starts.extend(end.end() for end in _LINE_END.finditer(self.text))
            self._line_starts = starts
        return self._line_starts

    def offset(self, line: int, column: int) -> int:
        """Return the offset of a 1-based line and 0-based column."""
        starts = self.line_starts
        if line - 1 >= len(starts):
            return len(self.text)
        return starts[line - 1] + column

    def position(self, offset: int) -> tuple[int, int]:
        """Return the 1-based line and 0-based column of an offset."""
        starts = self.line_starts
        index = bisect.bisect_right(starts, offset) - 1
        return index + 1, offset - starts[index]

    def line_text(self, line: int) -> str:
        """Return the 1-based line's text without its line ending."""
        starts = self.line_starts
        if line - 1 >= len(starts):
            return ""
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def newline_at(self, offset: int) -> str:
        """Return the line ending used by the line containing `offset` (or the file's first)."""
        line, _ = self.position(offset)
        for candidate in (line, 1):
            raw = self.text[self.line_starts[candidate - 1] :]
            end = len(self.line_text(candidate))
            ending = raw[end : end + 2]
            if ending.startswith("\r\n"):
                return "\r\n"
            if ending.startswith("\n"):
                return "\n"
            if ending.startswith("\r"):
                return "\r"
        return "\n"


def _round_trip_problem(text: str, body: bytes, encoding: str) -> str | None:
    """Return why `text` encoded as `encoding` would not be `body` again, or None.

    UTF-8 always gives back what it strictly decoded, so the common case costs nothing.
    """
    if encoding == "utf-8":
        return None
    if _stateful(encoding):
        return (
            f"{encoding} keeps a shift state, so a fix could change bytes outside the edited code"
        )
    try:
        again = text.encode(encoding)
    except UnicodeEncodeError:
        again = b""
    if again == body:
        return None
    differ = (i for i, (a, b) in enumerate(zip(again, body, strict=False)) if a != b)
    index = next(differ, min(len(again), len(body)))
    line = body[:index].count(b"\n") + 1
    return f"{encoding} does not give back the file's own bytes (line {line} would change)"


# Reading as Python reads ----------------------------------------------------------------------
# The text tests before any parse (the prefilter, the project phase's scan, the triage) look for
# names in bytes. A file can hide a name from a byte search and still be the same program to
# Python: a coding cookie that is not UTF-8 (UTF-7 spells `a` as `+AGE-`), or an identifier
# written in a compatibility form (`ａnthropic`, fullwidth: Python normalises identifiers with
# NFKC, https://docs.python.org/3/reference/lexical_analysis.html#identifiers).
def _declared_encoding(data: bytes) -> str | None:
    """Return the encoding a BOM or a PEP 263 cookie gives `data` when it is not UTF-8."""
    if data.startswith(BOM):
        return None
    if b"coding" not in data[: _two_lines_end(data)]:
        return None
    try:
        encoding = python_encoding(data)
    except SyntaxError:
        return None
    return None if codecs.lookup(encoding).name in ("utf-8", "ascii") else encoding


def python_text(data: bytes) -> str | None:
    """Return a Python file's text as Python decodes it (BOM, cookie), or None if it cannot."""
    try:
        return SourceText.from_bytes(data, is_python=True).text
    except DecodeError:
        return None


def leading_bytes(data: bytes) -> bytes:
    """Return a Python file's bytes as UTF-8 text as Python decodes them, its BOM dropped.

    The file's own bytes when they are UTF-8 (the cost of one look at its first lines); the
    text its PEP 263 cookie gives, in UTF-8, otherwise ("" when it cannot be decoded). A test
    of the raw bytes would read a `# -*- coding: utf-7 -*-` file's comments where Python reads
    a string, and the other way round.
    """
    if _declared_encoding(data) is None:
        return data[len(BOM) :] if data.startswith(BOM) else data
    text = python_text(data)
    return b"" if text is None else text.encode("utf-8", "surrogatepass")


def as_python_reads(data: bytes) -> bytes:
    """Return the bytes a byte search over a Python file should read: what Python reads.

    The file's own bytes when they are UTF-8 (or ASCII) and every identifier is in its NFKC
    form, which is nearly every file and costs one scan; otherwise the text as its cookie
    decodes it, in UTF-8, followed by its NFKC form, so that a search finds a name however the
    file spells it (and still finds what the original spelling holds).
    """
    encoding = _declared_encoding(data)
    if encoding is None and data.isascii():
        return data
    if encoding is not None:
        text = python_text(data)
        if text is None:
            return data
    else:
        text = data.decode("utf-8", "surrogateescape")
    normal = nfkc(text)
    view = text if encoding is not None else None
    if normal != text:
        view = (text if view is None else view) + "\n" + normal
    return data if view is None else view.encode("utf-8", "surrogateescape")


def nfkc(text: str) -> str:
    """Return `text` in Unicode normalisation form NFKC (the same object when it already is)."""
    import unicodedata

    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return text
    return unicodedata.normalize("NFKC", text)


# A word character outside ASCII: the only kind an identifier NFKC can change may hold.
_NON_ASCII_WORD = re.compile(r"[^\W\x00-\x7f]")


def python_identifiers(text: str) -> str:
    """Return `text` with every identifier in the NFKC form Python reads it as.

    Strings and comments are left as written (Python does not normalise them). The same object
    when nothing changes; `text` itself when the tokenizer cannot read it (the parse then words
    the error).
    """
    if text.isascii() or nfkc(text) is text or not _NON_ASCII_WORD.search(text):
        # A NAME token is a run of word characters (`tokenize.Name`): with no word character
        # outside ASCII, every identifier is ASCII already (`…` or `™` in a docstring are not
        # word characters, and strings and comments are left as written anyway).
        return text
    import unicodedata

    # Lines end at "\r\n", "\r" or "\n", as CPython's tokenizer ends them.
    lines = io.StringIO(text, newline="").readlines()
    edits: list[tuple[int, int, int, str]] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text, newline="").readline):
            if token.type == tokenize.NAME and not token.string.isascii():
                normal = unicodedata.normalize("NFKC", token.string)
                if normal != token.string:
                    (row, col), (_, end) = token.start, token.end
                    edits.append((row, col, end, normal))
    except (tokenize.TokenError, SyntaxError):
        return text
    for row, col, end, normal in reversed(edits):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + normal + line[end:]
    return "".join(lines) if edits else text


def as_notebook_reads(data: bytes) -> bytes:
    """Return the bytes a byte search over a notebook should read: its strings as JSON reads them.

    A JSON escape (`\\u0061nthropic`, `\\/`) spells a name no byte search finds; such a
    notebook's bytes are followed by every string it holds, decoded, and their NFKC forms (cells
    are Python). A notebook without those escapes, or that is no JSON, is read as it is.
    """
    if b"\\u" not in data and b"\\/" not in data:
        return _with_nfkc(data)
    import json

    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return data
    strings: list[str] = []
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            strings.append(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    text = "\n".join(strings)
    normal = nfkc(text)
    view = text if normal is text else text + "\n" + normal
    return data + b"\n" + view.encode("utf-8", "surrogatepass")


def _with_nfkc(data: bytes) -> bytes:
    if data.isascii():
        return data
    text = data.decode("utf-8", "surrogateescape")
    normal = nfkc(text)
    return data if normal is text else data + b"\n" + normal.encode("utf-8", "surrogateescape")
