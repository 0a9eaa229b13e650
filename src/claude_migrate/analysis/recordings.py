"""The recorded requests a test module replays, and whether one of them names a model id.

Tests that replay recorded HTTP exchanges instead of calling the API (vcrpy through
pytest-recording, whose default keeps a module's cassettes in `cassettes/<module>/` beside it:
https://github.com/kiwicom/pytest-recording#configuration) find the recording by the request
they send, often matched on its body (vcrpy's `match_on`, https://vcrpy.readthedocs.io/en/latest/
configuration.html#request-matching). A fix that renames the model such a test sends makes the
request match no recording: the test fails offline, or calls the API when recording is allowed.
The recording is what the API answered to the old model; only recording it again moves it.

The cassettes are read as text, never loaded; the reading is bounded (files, bytes) like the
search of the project's tests (`doubles`).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from functools import cache

from claude_migrate.analysis.sdk_uses import MAX_BYTES

CASSETTES = "cassettes"
MAX_FILES = 2000
MAX_TOTAL = 32 * MAX_BYTES
SUFFIXES = (".yaml", ".yml", ".json")


def folder_of(path: str) -> str:
    """Return the folder of the cassettes pytest-recording gives the test module at `path`."""
    folder, name = os.path.split(os.path.abspath(path))
    return os.path.join(folder, CASSETTES, name.removesuffix(".py"))


def _files(folder: str) -> list[str]:
    found: list[str] = []
    try:
        walker = os.walk(folder)
        for current, dirs, files in walker:
            dirs.sort()
            found.extend(
                os.path.join(current, name) for name in sorted(files) if name.endswith(SUFFIXES)
            )
            if len(found) >= MAX_FILES:
                return found[:MAX_FILES]
    except OSError:
        return found
    return found


def state(path: str) -> str:
    """Return a digest of the recordings' names, sizes and times (the result cache's key part);
    "" when the module has none."""
    folder = folder_of(path)
    if not os.path.isdir(folder):
        return ""
    digest = hashlib.sha256()
    for name in _files(folder):
        try:
            info = os.stat(name)
        except OSError:
            continue
        digest.update(f"{name}|{info.st_size}|{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


@cache
def _texts(folder: str, digest: str) -> tuple[tuple[str, str], ...]:
    """Return each recording's name and text (`digest` keys the cache on their state)."""
    texts: list[tuple[str, str]] = []
    total = 0
    for name in _files(folder):
        try:
            info = os.stat(name)
            size = info.st_size
            # Only regular files: a FIFO or a device named like a cassette would block or
            # never end.
            if not stat.S_ISREG(info.st_mode) or size > MAX_BYTES or total + size > MAX_TOTAL:
                continue
            with open(name, encoding="utf-8", errors="replace") as handle:
                texts.append((name, handle.read()))
            total += size
        except OSError:
            continue
    return tuple(texts)


def _forms(value: str) -> list[str]:
    """Return the spellings of a model id a recorded request body may hold: the id as written,
    and without a router's prefix (`anthropic/claude-...`, `anthropic:claude-...`), which the
    library strips before it sends the request."""
    forms = [value]
    for separator in ("/", ":"):
        tail = value.split(separator, 1)[-1]
        if tail != value and tail.startswith("claude"):
            forms.append(tail)
    return forms


def recorded(path: str, value: str) -> str:
    """Return the recording (relative to the test module's folder) that holds the model id
    `value` when the test module at `path` replays recordings; "" otherwise."""
    folder = folder_of(path)
    digest = state(path)
    if not digest:
        return ""
    patterns = [
        re.compile(rf"(?<![\w.:/-]){re.escape(form)}(?![\w.:/-])") for form in _forms(value)
    ]
    for name, text in _texts(folder, digest):
        if any(pattern.search(text) for pattern in patterns):
            base = os.path.dirname(os.path.dirname(folder))
            return os.path.relpath(name, base).replace(os.sep, "/")
    return ""


def replays_claude(path: str) -> str:
    """Return the folder of the recordings (relative to the test module's folder, forward
    slashes) when the test module at `path` replays recorded Claude exchanges; "" otherwise.

    A recording answers the request as it was sent: one made of a non-streaming call holds a
    JSON message, where `messages.stream()` reads server-sent events, and one made of
    `completions.create` answers `/v1/complete`, not `/v1/messages`. A rewrite of the call's
    shape leaves the test with no recording that answers it. A recording counts when its text
    names Anthropic's API or a Claude model (`api.anthropic.com`, `anthropic_version`, `claude`).
    """
    folder = folder_of(path)
    digest = state(path)
    if not digest:
        return ""
    for _, text in _texts(folder, digest):
        lowered = text.lower()
        if "anthropic" in lowered or "claude" in lowered:
            base = os.path.dirname(os.path.dirname(folder))
            return os.path.relpath(folder, base).replace(os.sep, "/") + "/"
    return ""
