"""pip requirement files: `requirements*.txt`, `requirements/*.txt`, `*.in`, `constraints*.txt`.

Read the way pip reads them: lines ending in `\\` continue on the next, `#` after whitespace
starts a comment, a line starting with `-` is an option (`-r`, `-c`, `-e`, `--index-url`, ...)
and is left alone, and per-requirement options (`--hash=...`) follow the requirement on its
line. Paths and URLs are not requirements of a named package and are skipped.
"""

from __future__ import annotations

import re

from packaging.requirements import InvalidRequirement

from claude_migrate.manifests.requirement import PEP440, Pin, Problem, parse_pep508

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\n|\r|$)")
_COMMENT = re.compile(r"(^|\s+)#.*$")
_PATH_OR_URL = re.compile(r"^(?:[./~\\]|[A-Za-z]:[\\/]|\w[\w+.-]*://)|\.(?:whl|zip|tar\.gz|tgz)$")


def _logical_lines(text: str) -> list[tuple[str, list[int]]]:
    """Return each logical line (continuations joined) with the text offset of every character."""
    lines: list[tuple[str, list[int]]] = []
    chars: list[str] = []
    offsets: list[int] = []
    for match in _LINE.finditer(text):
        raw = match.group()
        if not raw:
            break
        body = raw.rstrip("\r\n")
        start = match.start()
        if body.endswith("\\") and not _COMMENT.search(body):
            chars.append(body[:-1])
            offsets.extend(range(start, start + len(body) - 1))
            continue
        chars.append(body)
        offsets.extend(range(start, start + len(body)))
        lines.append(("".join(chars), offsets))
        chars, offsets = [], []
    if chars:
        lines.append(("".join(chars), offsets))
    return lines


def _requirement_part(line: str) -> str:
    """Return the text before the first per-requirement option (` --hash=...`), as pip splits it."""
    for match in re.finditer(r"\S+", line):
        if match.start() > 0 and match.group().startswith("-"):
            return line[: match.start()].rstrip()
    return line.rstrip()


def read(text: str) -> tuple[list[Pin], list[Problem]]:
    """Return the named requirements of a pip requirements file, and its unreadable lines."""
    pins: list[Pin] = []
    problems: list[Problem] = []
    for line, offsets in _logical_lines(text):
        stripped = _COMMENT.sub("", line)
        content = stripped.lstrip()
        if not content.strip() or content.startswith("-"):
            continue
        lead = len(stripped) - len(content)
        requirement = _requirement_part(content)
        if _PATH_OR_URL.search(requirement) or "${" in requirement:
            continue
        start = offsets[lead]
        try:
            parsed = parse_pep508(requirement)
        except InvalidRequirement as exc:
            problems.append(
                Problem(start, f"invalid requirement {requirement!r}: {str(exc).splitlines()[0]}")
            )
            continue
        spec_start: int | None = None
        if parsed.spec_start is not None and parsed.spec:
            first = lead + parsed.spec_start
            last = first + len(parsed.spec) - 1
            if offsets[last] - offsets[first] == last - first:  # not broken by a continuation
                spec_start = offsets[first]
        pins.append(
            Pin(
                name=parsed.requirement.name,
                start=start,
                end=offsets[lead + len(requirement) - 1] + 1,
                spec=parsed.spec,
                syntax=PEP440,
                spec_start=spec_start,
                where="requirements",
            )
        )
    return pins, problems
