"""setuptools' `setup.cfg`: `[options] install_requires` (and `setup_requires`, `tests_require`)
and every key of `[options.extras_require]`.

A value written over several lines holds one requirement a line; a value on one line is split on
`;`, as setuptools does. `configparser` decides whether the file is valid and what each value
is; a line scanner finds where each requirement stands, and the two must agree.
"""

from __future__ import annotations

import configparser
import re
from dataclasses import dataclass, field

from packaging.requirements import InvalidRequirement

from claude_migrate.manifests.requirement import PEP440, Pin, Problem, parse_pep508

OPTIONS_KEYS = ("install_requires", "setup_requires", "tests_require")
EXTRAS = "options.extras_require"

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\n|\r|$)")
_SECTION = re.compile(r"\[(?P<name>[^\]]+)\]")
_OPTION = re.compile(r"(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")


@dataclass
class _Value:
    section: str
    key: str
    indent: int
    items: list[tuple[int, str]] = field(default_factory=list)  # (offset, text) of each line
    first: tuple[int, str] | None = None


def _scan(text: str) -> list[_Value]:
    values: list[_Value] = []
    section = ""
    current: _Value | None = None
    for match in _LINE.finditer(text):
        raw = match.group()
        if not raw:
            break
        line = raw.rstrip("\r\n")
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if not stripped or stripped[0] in "#;":
            continue
        if current is not None and indent > current.indent:
            current.items.append((match.start() + indent, line[indent:].rstrip()))
            continue
        current = None
        header = _SECTION.match(stripped)
        if header and indent == 0:
            section = header.group("name").strip()
            continue
        option = _OPTION.match(line, indent)
        if option:
            current = _Value(section, option.group("key").strip().lower(), indent)
            value = option.group("value").rstrip()
            if value:
                current.first = (match.start() + option.start("value"), value)
            values.append(current)
    return values


def _split(value: _Value) -> list[tuple[int, str]]:
    """Return the requirement strings of one value with their offsets, as setuptools splits it."""
    if value.items:
        lines = ([value.first] if value.first else []) + value.items
        return [(o, t) for o, t in lines if t and not t.startswith("#")]
    if value.first is None:
        return []
    offset, text = value.first
    parts = []
    position = 0
    for piece in text.split(";"):
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            parts.append((offset + position + lead, piece.strip()))
        position += len(piece) + 1
    return parts


def _wanted(value: _Value) -> bool:
    return (value.section == "options" and value.key in OPTIONS_KEYS) or value.section == EXTRAS


def read(text: str) -> tuple[list[Pin], list[Problem]]:
    """Return every requirement setuptools reads from a setup.cfg, and its unreadable parts."""
    parser = configparser.RawConfigParser()
    try:
        parser.read_string(text)
    except configparser.Error as exc:
        line = getattr(exc, "lineno", None)
        if line is None and isinstance(exc, configparser.ParsingError) and exc.errors:
            line = exc.errors[0][0]
        return [], [Problem(None, f"invalid setup.cfg: {exc.message.splitlines()[0]}", line)]
    pins: list[Pin] = []
    problems: list[Problem] = []
    for value in _scan(text):
        if not _wanted(value):
            continue
        items = _split(value)
        expected = [t for _, t in _split_parsed(parser.get(value.section, value.key, fallback=""))]
        if [t for _, t in items] != expected:
            problems.append(
                Problem(None, f"cannot locate the requirements of [{value.section}] {value.key}")
            )
            continue
        for offset, requirement in items:
            try:
                parsed = parse_pep508(requirement)
            except InvalidRequirement as exc:
                message = str(exc).splitlines()[0]
                if not value.items and ";" in (value.first or ("", ""))[1]:
                    message += " (setuptools splits a one-line value at `;`: write one per line)"
                problems.append(Problem(offset, f"invalid requirement {requirement!r}: {message}"))
                continue
            spec_start = (
                offset + parsed.spec_start
                if parsed.spec_start is not None and parsed.spec
                else None
            )
            where = f"[{value.section}] {value.key}"
            pins.append(
                Pin(
                    parsed.requirement.name,
                    offset,
                    offset + len(requirement),
                    parsed.spec,
                    PEP440,
                    spec_start,
                    where,
                )
            )
    return pins, problems


def _split_parsed(value: str) -> list[tuple[int, str]]:
    if "\n" in value:
        lines = [line.strip() for line in value.splitlines()]
        return [(0, line) for line in lines if line and not line.startswith("#")]
    return [(0, piece.strip()) for piece in value.split(";") if piece.strip()]
