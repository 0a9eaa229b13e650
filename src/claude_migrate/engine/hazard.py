"""Tell, from a file's bytes and before any parse, whether parsing it may run away.

LibCST's native parser and its Python-side tree conversion recurse once per level of nesting,
and a long chain of operators (`a + a + ... + a`, `not not ... x`, `a if b else a if b else ...`)
is one level per term. Measured with LibCST 1.x on CPython 3.11: 1,000 terms parse in 0.2 s,
4,000 in 5 s, 6,000 in 26 s, 7,000 crash the process with a segfault; a 5,000-deep parenthesised
expression crashes it too. Worker processes have a time and memory limit and survive a crash;
the main process has neither, so a file that looks deep or huge is parsed in a worker even on a
run that otherwise stays in one process (`--jobs 1`, pre-commit's few files).

The measure is one regular-expression pass: string literals and comments are skipped, brackets
give the nesting depth, and operators and operator keywords are counted per logical line (a
bracketed group or a backslash continuation does not end it). It over-counts rather than
under-counts: a false alarm costs a worker start, a miss could cost the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Above any of these, a file is parsed in a worker process.
MAX_IN_PROCESS_BYTES = 512 * 1024
MAX_IN_PROCESS_DEPTH = 64
MAX_IN_PROCESS_LINE_TOKENS = 2000

_TOKENS = re.compile(
    rb"""
      (?P<skip>
          [rRbBuUfF]{0,2}
          (?: \"\"\" (?: [^"\\] | \\. | "(?!"") )* \"\"\"
            | ''' (?: [^'\\] | \\. | '(?!'') )* '''
            | " (?: [^"\\\n] | \\. )* "
            | ' (?: [^'\\\n] | \\. )* '
          )
        | \#[^\n]*
      )
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    | (?P<newline>(?<!\\)\n)
    | (?P<op>[-+*/%@&|^~<>=.,:;]|\b(?:if|else|not|and|or|lambda|await|in|is|for)\b)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True)
class Shape:
    """What decides how hard a file is to parse: size, bracket depth, longest logical line."""

    size: int
    depth: int
    line_tokens: int


def measure(data: bytes) -> Shape:
    """Return the file's size, deepest bracket nesting and most operators on one logical line."""
    depth = deepest = tokens = most = 0
    for match in _TOKENS.finditer(data):
        kind = match.lastgroup
        if kind == "op":
            tokens += 1
        elif kind == "open":
            depth += 1
            tokens += 1
            deepest = max(deepest, depth)
        elif kind == "close":
            depth = max(depth - 1, 0)
        elif kind == "newline" and depth == 0:
            most = max(most, tokens)
            tokens = 0
    return Shape(len(data), deepest, max(most, tokens))


def needs_isolation(data: bytes) -> bool:
    """Return whether the file should be parsed in a worker process rather than in this one."""
    if len(data) > MAX_IN_PROCESS_BYTES:
        return True
    shape = measure(data)
    return shape.depth > MAX_IN_PROCESS_DEPTH or shape.line_tokens > MAX_IN_PROCESS_LINE_TOKENS
