"""A file's text as the engine sees it: decoded faithfully, and encoded back byte for byte.

The engine and the fixer work on `str` offsets. Decoding never translates newlines, so a CRLF
or mixed-ending file keeps every line ending; the BOM and the declared encoding are kept for
writing the file back.
"""

from __future__ import annotations

import bisect
import codecs
import io
import tokenize
from dataclasses import dataclass, field

BOM = codecs.BOM_UTF8


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
    _line_starts: list[int] | None = field(default=None, repr=False)

    @classmethod
    def from_bytes(cls, data: bytes, is_python: bool = True) -> SourceText:
        """Decode `data`, honouring a BOM and (for Python files) a PEP 263 coding cookie."""
        bom = data.startswith(BOM)
        encoding = "utf-8"
        if is_python:
            try:
                encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
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
        return cls(text=text, encoding=encoding, bom=bom)

    def to_bytes(self, text: str | None = None) -> bytes:
        """Encode `text` (default: the original) exactly as the file was encoded."""
        body = (self.text if text is None else text).encode(self.encoding)
        return BOM + body if self.bom else body

    # Positions -----------------------------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            text = self.text
            i = 0
            n = len(text)
            while i < n:
                c = text[i]
                if c == "\n":
                    starts.append(i + 1)
                elif c == "\r":
                    if i + 1 < n and text[i + 1] == "\n":
                        i += 1
                    starts.append(i + 1)
                i += 1
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
