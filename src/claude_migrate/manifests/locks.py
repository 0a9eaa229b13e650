"""Lock files: `poetry.lock`, `uv.lock`, `pdm.lock` (TOML) and `Pipfile.lock` (JSON).

A lock file records the version a resolver picked; editing it by hand would leave its hashes and
its resolution inconsistent, so a locked version below the minimum is reported without a fix and
the message says to raise the requirement and re-lock.
"""

from __future__ import annotations

import json
import os
import re

from claude_migrate.core.errors import number_too_long
from claude_migrate.manifests.pyproject import toml_problem
from claude_migrate.manifests.requirement import LOCKED, Pin, Problem
from claude_migrate.manifests.toml_spans import TomlDocument, TomlError

RELOCK = {
    "poetry.lock": "poetry lock",
    "uv.lock": "uv lock",
    "pdm.lock": "pdm lock",
    "Pipfile.lock": "pipenv lock",
}


# The lock files that record a hash of a dependency file's requirements: `poetry install`
# (Poetry 2), `uv sync --locked`, `pdm install` and `pipenv install --deploy` refuse to install
# from one whose file changed since it was written, until it is made again.
LOCKS_OF = {
    "pyproject.toml": ("poetry.lock", "uv.lock", "pdm.lock"),
    "Pipfile": ("Pipfile.lock",),
}


def locks_beside(path: str) -> tuple[str, ...]:
    """Return the lock files beside a dependency file that record its requirements."""
    folder, name = os.path.split(os.path.abspath(path))
    return tuple(
        lock for lock in LOCKS_OF.get(name, ()) if os.path.isfile(os.path.join(folder, lock))
    )


def read_toml_lock(text: str, name: str) -> tuple[list[Pin], list[Problem]]:
    """Return the locked version of every `[[package]]` of a TOML lock file."""
    try:
        doc = TomlDocument(text)
    except TomlError as exc:
        return [], [toml_problem(exc)]
    pins: list[Pin] = []
    packages = doc.data.get("package")
    if not isinstance(packages, list):
        return [], []
    for index, package in enumerate(packages):
        if not isinstance(package, dict):
            continue
        located = doc.values.get(("package", index, "version"))
        package_name = package.get("name")
        if (
            located is None
            or not isinstance(package_name, str)
            or not isinstance(located.value, str)
        ):
            continue
        pins.append(
            Pin(package_name, located.key_start, located.end, located.value, LOCKED, None, name)
        )
    return pins, []


_PIPFILE_ENTRY = re.compile(r'"(?P<name>(?:[^"\\]|\\.)*)"\s*:\s*\{(?P<body>[^{}]*)\}')
_VERSION = re.compile(r'"version"\s*:\s*"(?P<value>(?:[^"\\]|\\.)*)"')


def read_pipfile_lock(text: str) -> tuple[list[Pin], list[Problem]]:
    """Return the locked version of every package of every section of a Pipfile.lock."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return [], [Problem(None, f"invalid JSON: {exc.msg}", exc.lineno)]
    except ValueError:
        words, line = number_too_long(text)
        return [], [Problem(None, f"invalid JSON: {words}", line)]
    if not isinstance(data, dict):
        return [], [Problem(None, "expected a JSON object", 1)]
    # json keeps no positions: find each `"name": {... "version": "..." ...}` in the text and
    # pair it with the entry json read, in order, so the position is never a guess.
    found: list[tuple[str, str, int, int]] = []
    for match in _PIPFILE_ENTRY.finditer(text):
        version = _VERSION.search(match.group("body"))
        if version is not None:
            start = match.start("body") + version.start()
            found.append(
                (
                    json.loads(f'"{match.group("name")}"'),
                    json.loads(f'"{version.group("value")}"'),
                    start,
                    match.start("body") + version.end(),
                )
            )
    pins: list[Pin] = []
    for section, packages in data.items():
        if section == "_meta" or not isinstance(packages, dict):
            continue
        for name, entry in packages.items():
            if not isinstance(entry, dict) or not isinstance(entry.get("version"), str):
                continue
            value = entry["version"]
            for index, (found_name, found_value, start, end) in enumerate(found):
                if found_name == name and found_value == value:
                    del found[index]
                    locked = value[2:] if value.startswith("==") else value
                    pins.append(
                        Pin(name, start, end, locked, LOCKED, None, f"Pipfile.lock {section}")
                    )
                    break
            else:  # written in a shape we don't locate: report it at the top rather than not at all
                locked = value[2:] if value.startswith("==") else value
                pins.append(Pin(name, 0, 0, locked, LOCKED, None, f"Pipfile.lock {section}"))
    pins.sort(key=lambda p: p.start)
    return pins, []
