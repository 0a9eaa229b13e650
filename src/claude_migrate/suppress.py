"""Suppression comments: `# noqa[: CODES]`, `# claude-migrate: ignore[CODES]`, `skip-file`."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

from .diagnostics import Diagnostic

SKIP_FILE = b"claude-migrate: skip-file"
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*claude-migrate:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)
_CODE = re.compile(r"[A-Z]+[0-9]+")
ALL = frozenset({"*"})


def skips_file(data: bytes) -> bool:
    """Return whether `# claude-migrate: skip-file` stands in the file's leading comments."""
    if SKIP_FILE not in data:
        return False
    for raw in data.splitlines():
        line = raw.strip()
        if not line:
            continue
        if not line.startswith(b"#"):
            return False
        if re.match(rb"#\s*claude-migrate:\s*skip-file\b", line):
            return True
    return False


def _codes(text: str | None) -> frozenset[str]:
    if not text:
        return ALL
    return frozenset(_CODE.findall(text.upper()))


def suppressions(text: str, lines: Iterable[int]) -> dict[int, frozenset[str]]:
    """Return, for the given 1-based lines, the codes their comments suppress ("*" for all)."""
    wanted = set(lines)
    found: dict[int, frozenset[str]] = {}
    if not wanted:
        return found
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return found
    for token in tokens:
        if token.type != tokenize.COMMENT or token.start[0] not in wanted:
            continue
        codes = comment_codes(token.string)
        if codes:
            found[token.start[0]] = found.get(token.start[0], frozenset()) | codes
    return found


def comment_codes(comment: str) -> frozenset[str]:
    """Return the codes a comment's `noqa` / `claude-migrate: ignore` silences ("*" for all)."""
    codes: frozenset[str] = frozenset()
    for pattern in (_NOQA, _IGNORE):
        match = pattern.search(comment)
        if match:
            codes = codes | _codes(match.group("codes"))
    return codes


def is_suppressed(diagnostic: Diagnostic, table: dict[int, frozenset[str]]) -> bool:
    codes = table.get(diagnostic.line)
    return bool(codes) and ("*" in codes or diagnostic.code in codes)  # type: ignore[operator]
