"""Writing text that may hold bytes of file names that are not UTF-8.

Python carries such a byte as a lone surrogate (U+DC80..U+DCFF, PEP 383): `os.scandir` and
`os.fsdecode` give names like `'caf\\udce9.py'`. Plain text can write the byte back; formats that
must be valid Unicode (JSON, XML) cannot hold it, and get an escape instead.
"""

from __future__ import annotations

import re

# A lone surrogate: how Python (os.fsdecode, os.scandir) carries a byte of a file name that is
# not UTF-8 (U+DC80..U+DCFF), or anything else no encoder can write.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def escape_undecodable(text: str) -> str:
    """Return `text` with each byte that did not decode written as `\\xNN` (valid Unicode).

    For the formats that must be valid UTF-8 (JSON, SARIF, JUnit XML, GitHub annotations): a
    file named `b'caf\\xe9.py'` on a UTF-8 system is reported as `caf\\xe9.py`, the spelling
    Python's `backslashreplace` error handler uses, instead of a lone surrogate.
    """
    return _SURROGATE.sub(_escaped, text) if _SURROGATE.search(text) else text


# Only bytes 0x80-0xff are ever escaped: ASCII always decodes.
_ESCAPE = re.compile(r"\\x([89a-f][0-9a-f])")


def unescape_undecodable(text: str) -> str:
    """Return the file name `escape_undecodable` wrote, with its `\\xNN` bytes back."""
    return _ESCAPE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), text)


# Markdown ---------------------------------------------------------------------------------------
# Text from a checked tree (a file name, a finding's message quoting a string) is placed inside a
# line (a table cell, after a list marker), never at its start, so the characters that give it a
# meaning there are escaped (https://spec.commonmark.org/0.31.2/#backslash-escapes): brackets (no
# link, `[x](javascript:...)`, no image), backticks (no code span to break out of), emphasis and
# strikethrough marks, table pipes, and HTML's own `<` and `&` (a `\<` opens no tag, a `\&` starts
# no entity), so no tag is ever raw and the file reads as the text it shows, with no entities.
# `>` means something only at a line's start, where this text never goes.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_\[\]|~<&])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def markdown_text(text: str) -> str:
    """Return `text` as Markdown that renders exactly it, on one line (a cell, a list item)."""
    text = _CONTROL.sub(" ", text)
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", text)


_URL_SAFE = re.compile(r"^https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'*+,;=%]*$")


def markdown_url(url: str) -> str | None:
    """Return an http(s) address safe as a Markdown link target, or None for any other.

    Parentheses, spaces, quotes and angle brackets are percent-encoded (they would end the
    target or open markup); any other scheme (`javascript:`, `data:`) gives None.
    """
    from urllib.parse import quote

    if not url.lower().startswith(("https://", "http://")):
        return None
    quoted = quote(url, safe="-._~:/?#[]@!$&*+,;=%")
    return quoted if _URL_SAFE.match(quoted) else None
