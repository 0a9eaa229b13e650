"""Character offsets of byte offsets in UTF-8 text, for parsers that count bytes (tree-sitter).

Decoding the bytes before each offset is quadratic: a 1 MB lock file with a few thousand
non-ASCII characters and tens of thousands of values took minutes. One pass records where each
non-ASCII character ends; an offset is then a binary search.
"""

from __future__ import annotations

import bisect
import re

_NON_ASCII = re.compile(r"[^\x00-\x7f]")


class CharOffsets:
    """Map byte offsets of `text`'s UTF-8 encoding to offsets in `text` (at character bounds)."""

    def __init__(self, text: str) -> None:
        self._ends: list[int] = []  # byte offset just after each non-ASCII character
        self._extra: list[int] = []  # bytes beyond one per character, up to and with it
        extra = 0
        for match in _NON_ASCII.finditer(text):
            extra += len(match.group().encode("utf-8", "surrogatepass")) - 1
            self._ends.append(match.end() + extra)
            self._extra.append(extra)

    def __call__(self, byte: int) -> int:
        """Return the character offset of `byte`, which must start a character (or end the text)."""
        passed = bisect.bisect_right(self._ends, byte)
        return byte - self._extra[passed - 1] if passed else byte
