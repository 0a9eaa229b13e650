"""Arithmetic on number literals, as Python evaluates it: `8 * 1024`, `0.5 + 0.4`, `1 << 13`.

A budget or a temperature written as arithmetic on literals (`max_tokens=8 * 1024`) is a
known number: Python computes it before the call. Only the operators below, on ints and floats
(never bools), and within bounds that keep the work and the result small (`10 ** 10 ** 10` and
`1 << 10 ** 9` stay unknown); a division by zero is unknown too.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable

Number = int | float

OPERATORS: dict[str, Callable[[Number, Number], Number]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
    "%": operator.mod,
    "**": operator.pow,
    "<<": operator.lshift,
}
# The largest magnitude an operand or a result may have: far above any budget or temperature.
LIMIT = 2**64


def fold(op: str, left: object, right: object) -> Number | None:
    """Return `left op right` as Python computes it, or None when it is not a small number."""
    function = OPERATORS.get(op)
    if function is None or not (_number(left) and _number(right)):
        return None
    assert isinstance(left, int | float) and isinstance(right, int | float)
    if op == "**" and (abs(right) > 64 or (right < 0 and left == 0)):
        return None
    if op == "<<" and (not isinstance(right, int) or not 0 <= right <= 64):
        return None
    try:
        result = function(left, right)
    except (ArithmeticError, ValueError, TypeError):
        return None
    if not isinstance(result, int | float) or isinstance(result, bool):
        return None
    if isinstance(result, float) and not math.isfinite(result):
        return None
    return result if abs(result) <= LIMIT else None


def _number(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return abs(value) <= LIMIT and (not isinstance(value, float) or math.isfinite(value))
