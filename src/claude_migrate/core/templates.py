"""Strings formatted from a literal template: `"claude-%s" % name`, `"claude-{}".format(name)`.

Only the plainest fields are read, the ones that format a string or a number as `str()` does:
`%s` for the `%` operator, `{}` or `{0}` for `str.format`
(https://docs.python.org/3/library/stdtypes.html#printf-style-string-formatting,
https://docs.python.org/3/library/string.html#format-string-syntax). A template holding any
other field, a flag, a width, a conversion, a name or an escape (`%%`, `{{`) is not read.
"""

from __future__ import annotations

import re

# A piece of a template: its literal text, or the index of the argument a field formats.
Piece = str | int

_FORMAT_FIELD = re.compile(r"\{(\d*)\}")


def percent_pieces(template: str) -> list[Piece] | None:
    """Return the text and fields of a `%` template whose only fields are `%s`, else None."""
    texts = template.split("%s")
    if any("%" in text for text in texts):
        return None
    pieces: list[Piece] = []
    for at, text in enumerate(texts):
        if at:
            pieces.append(at - 1)
        if text:
            pieces.append(text)
    return pieces


def format_pieces(template: str) -> list[Piece] | None:
    """Return the text and fields of a `str.format` template whose only fields are `{}` or
    only `{N}`, else None."""
    pieces: list[Piece] = []
    numbered: set[bool] = set()
    start = 0
    for match in _FORMAT_FIELD.finditer(template):
        text = template[start : match.start()]
        if "{" in text or "}" in text:
            return None
        if text:
            pieces.append(text)
        digits = match.group(1)
        numbered.add(bool(digits))
        pieces.append(int(digits) if digits else sum(isinstance(p, int) for p in pieces))
        start = match.end()
    rest = template[start:]
    if "{" in rest or "}" in rest or len(numbered) > 1:
        return None  # an escape, a named field, or `{}` and `{0}` mixed (Python refuses)
    if rest:
        pieces.append(rest)
    return pieces
