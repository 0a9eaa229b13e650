"""Errors every layer may raise about its input, kept apart so that raising one imports nothing.

The policy loader and the deprecation catalogue both report a bad file as a `ConfigError`
(exit 2, naming the file, line and key); the catalogue is read by rules, which the policy loader
validates against, so the error lives below both.
"""

from __future__ import annotations


class ConfigError(Exception):
    """A policy problem, reported with file, line, key and what was expected; exits 2."""

    def __init__(self, path: str, key: str | None, message: str, line: int | None = None):
        self.path = path
        self.key = key
        self.line = line
        self.detail = message
        where = path + (f":{line}" if line else "")
        text = f"{where}: " + (f"`{key}`: " if key else "") + message
        super().__init__(text)
