"""Errors every layer may raise about its input, kept apart so that raising one imports nothing.

The policy loader and the deprecation catalogue both report a bad file as a `ConfigError`
(exit 2, naming the file, line and key); the catalogue is read by rules, which the policy loader
validates against, so the error lives below both.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import Any


class ConfigError(Exception):
    """A policy problem, reported with file, line, key and what was expected; exits 2.

    One error may carry others found in the same pass (`problems`, sorted by file and line), so
    a policy with several mistakes is reported whole and fixed in one edit.
    """

    def __init__(self, path: str, key: str | None, message: str, line: int | None = None):
        self.path = path
        self.key = key
        self.line = line
        self.detail = message
        self.problems: list[ConfigError] = [self]
        where = path + (f":{line}" if line else "")
        text = f"{where}: " + (f"`{key}`: " if key else "") + message
        super().__init__(text)

    @classmethod
    def combine(cls, problems: Sequence[ConfigError]) -> ConfigError:
        """Return one error that reports every one of `problems`, in file and line order."""
        flat = [p for problem in problems for p in problem.problems]
        ordered = sorted(flat, key=lambda p: (p.path, p.line or 0))
        if len(ordered) == 1:
            return ordered[0]
        first = ordered[0]
        combined = cls(first.path, first.key, first.detail, first.line)
        combined.problems = ordered
        combined.args = (
            f"{len(ordered)} problems in the policy:\n"
            + "\n".join(f"  {problem.args[0]}" for problem in ordered),
        )
        return combined


def number_too_long(text: str) -> tuple[str, int | None]:
    """Return the words and line of the ValueError `json` or `tomllib` raised reading `text`.

    Python converts no decimal integer longer than `sys.get_int_max_str_digits()` digits (4300
    by default: past it the conversion takes quadratic time,
    https://docs.python.org/3/library/stdtypes.html#int-max-str-digits), and both readers let
    that ValueError through instead of their own decode error. The line is the first such run
    of digits (TOML's `_` separators allowed).
    """
    limit = getattr(sys, "get_int_max_str_digits", lambda: 4300)() or 4300
    found = re.search(r"\d(?:_?\d){" + str(limit) + ",}", text)
    line = text.count("\n", 0, found.start()) + 1 if found else None
    return f"a number of more than {limit} digits, which Python does not read", line


def parse_toml(text: str, display: str) -> dict[str, Any]:
    """Return the TOML document in `text`; a syntax error is a ConfigError with its line."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"line (\d+)", str(exc))
        raise ConfigError(
            display,
            None,
            f"invalid TOML: {getattr(exc, 'msg', exc)}",
            int(match.group(1)) if match else None,
        ) from None
    except ValueError:
        words, line = number_too_long(text)
        raise ConfigError(display, None, f"invalid TOML: {words}", line) from None
