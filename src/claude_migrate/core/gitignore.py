"""Gitignore patterns with git's own semantics, for `.gitignore` files and policy globs.

pathspec does the structure of a pattern (anchoring, `**`, a trailing `/`, `!` negation,
escaped `#`, `!` and trailing spaces); bracket expressions are translated here, because git's
matcher (wildmatch.c, https://github.com/git/git/blob/master/wildmatch.c) reads them
differently from a regular expression: POSIX classes (`[[:alpha:]]`), backslash escapes inside
the brackets, a reversed range that matches only its first character, and never a `/`.

A line git can never match with (a `!` with nothing after it, a trailing unescaped backslash, a
`[` without its `]`, an unknown `[:class:]`) is *malformed*: git ignores such a line in a
`.gitignore` silently, and so do we; in a policy it is a mistake worth naming (`PatternError`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    # Loaded where a pattern is compiled: a run with no `.gitignore` on its way and no policy
    # globs (a pre-commit hook's list of files) never needs pathspec.
    import pathspec
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

# What git's wildmatch means by each class: C's ctype tests on one byte, in the C locale.
_CLASSES: dict[str, str] = {
    "alnum": "0-9A-Za-z",
    "alpha": "A-Za-z",
    "blank": " \\t",
    "cntrl": "\\x00-\\x1f\\x7f",
    "digit": "0-9",
    "graph": "!-~",
    "lower": "a-z",
    "print": " -~",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\t-\\r ",
    "upper": "A-Z",
    "xdigit": "0-9A-Fa-f",
}


# How pathspec's regexes say "this path, or anything below it" and "this folder, or anything
# below it" (pathspec.patterns.gitignore.spec).
_ANY_BELOW = "(?:(?P<ps_d>/)|$)"
_FOLDER_BELOW = "(?P<ps_d>/)"


class PatternError(ValueError):
    """A pattern git can never match with, and why."""

    def __init__(self, pattern: str, reason: str) -> None:
        super().__init__(f"{pattern!r} is not a pattern git can match: {reason}")
        self.pattern = pattern
        self.reason = reason


def _char(ch: str) -> str:
    """Return one character as it stands inside a regex character class."""
    return ch if ch.isalnum() else "\\" + ch if ch.isascii() else ch


_NO_CLOSE = "a `[` without its `]` (write `\\[` for a bracket)"


def _bracket(body: str, start: int, pattern: str) -> tuple[str, int]:
    """Return the regex for the bracket expression opening at `body[start]`, and its end.

    Follows wildmatch: `!` or `^` negates, a `]` first is literal, `\\` escapes, `a-z` is a
    range (only its start when reversed), `[:name:]` a class; the expression never matches `/`.
    """
    i = start + 1
    negated = i < len(body) and body[i] in "!^"
    if negated:
        i += 1
    items: list[str] = []
    previous: str | None = None
    first = True
    while True:
        if i >= len(body):
            raise PatternError(pattern, _NO_CLOSE)
        ch = body[i]
        if ch == "]" and not first:
            break
        first = False
        if ch == "-" and previous is not None and i + 1 < len(body) and body[i + 1] != "]":
            end, i = _literal(body, i + 1, pattern)
            # wildmatch has already matched the start on its own: a reversed range (`z-a`)
            # still matches its first character, and nothing else.
            if previous <= end:
                items.append(f"{_char(previous)}-{_char(end)}")
            previous = None
        elif ch == "[" and i + 1 < len(body) and body[i + 1] == ":":
            item, previous, i = _class_or_bracket(body, i, pattern)
            items.append(item)
        else:
            previous, i = _literal(body, i, pattern)
            items.append(_char(previous))
        i += 1
    chars = "".join(items)
    if negated:
        return f"[^/{chars}]", i + 1
    return (f"(?:(?!/)[{chars}])" if chars else "(?!)"), i + 1


def _literal(body: str, i: int, pattern: str) -> tuple[str, int]:
    """Return the character at `body[i]` (a `\\` escapes the next one) and where it stands."""
    if body[i] != "\\":
        return body[i], i
    if i + 1 >= len(body):
        raise PatternError(pattern, "it ends with an unescaped `\\`")
    return body[i + 1], i + 1


def _class_or_bracket(body: str, i: int, pattern: str) -> tuple[str, str | None, int]:
    """Return a `[:name:]` class at `body[i]` (or a plain `[`), what a range may start from,
    and the index of its last character."""
    close = body.find("]", i + 2)
    if close == -1:
        raise PatternError(pattern, _NO_CLOSE)
    if not (close - 1 > i + 1 and body[close - 1] == ":"):
        # No `:]` before the `]`: wildmatch reads the `[` as a plain character.
        return _char("["), "[", i
    name = body[i + 2 : close - 1]
    if name not in _CLASSES:
        known = ", ".join(f"[:{n}:]" for n in _CLASSES)
        raise PatternError(pattern, f"unknown class [:{name}:] (known: {known})")
    return _CLASSES[name], None, close


def compile_pattern(line: str) -> GitIgnoreSpecPattern:
    """Return one gitignore line as pathspec's pattern, with git's bracket semantics.

    Blank lines and comments give a pattern that matches nothing (include is None). Raises
    `PatternError` for a line git can never match with.
    """
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

    text = line if line.endswith("\\ ") else line.rstrip()
    if not text or text.startswith("#") or text == "/":
        return GitIgnoreSpecPattern(None)
    negated = text.startswith("!")
    body = text[1:] if negated else text
    if not body:
        raise PatternError(line, "a `!` with nothing to negate")
    if body.endswith("/**/"):
        # `abc/**/` is every folder inside abc, never abc itself; pathspec folds it into
        # `abc/`. The same folders, spelled so that it does not:
        body += "*/"
    # Each bracket expression becomes a character pathspec passes through as it is (one of
    # the private-use area, never in the line), replaced by its regex afterwards.
    spare = (chr(c) for c in range(0xE000, 0xF8FF) if chr(c) not in line)
    masked: list[str] = []
    brackets: dict[str, str] = {}
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body):
                raise PatternError(line, "it ends with an unescaped `\\` (write `\\\\`)")
            masked.append(body[i : i + 2])
            i += 2
        elif ch == "[":
            regex, i = _bracket(body, i, line)
            mark = next(spare)
            brackets[mark] = regex
            masked.append(mark)
        else:
            masked.append(ch)
            i += 1
    try:
        regex, include = GitIgnoreSpecPattern.pattern_to_regex(
            ("!" if negated else "") + "".join(masked)
        )
    except ValueError as exc:  # GitIgnorePatternError is one
        raise PatternError(line, str(exc)) from None
    if regex is None or include is None:
        return GitIgnoreSpecPattern(None)
    if body.endswith("/**") and regex.endswith("/"):
        # `abc/**` matches everything inside abc, not abc itself (pathspec's regex also takes
        # the folder `abc/`, which would hide a file a later `!abc/keep.py` re-includes).
        regex += "."
    # A pattern matches the path it names, not everything below it: git decides each folder
    # on the way down on its own (`matches`), and pathspec's "or anything below" would let
    # `!d/` re-include a folder inside d that another pattern excludes.
    regex = regex.replace(_ANY_BELOW, "/?$").replace(_FOLDER_BELOW, "/$")
    for mark, bracket in brackets.items():
        regex = regex.replace(re.escape(mark), bracket).replace(mark, bracket)
    regex = _committed_globstars(_committed_stars(regex))
    try:
        return GitIgnoreSpecPattern(re.compile(regex), include)
    except re.error as exc:
        raise PatternError(line, f"cannot be translated ({exc})") from None


# `*` in pathspec's regex, and what may stand between two of them for `_committed_stars`: an
# escaped character, a bracket expression (`_bracket`'s `(?:(?!/)[...])` or `[^/...]`), `?`
# (`[^/]`) or a plain character; never a `/`, `**` or any other group.
_STAR = "[^/]*"
_BRACKET = r"\(\?:\(\?!/\)\[(?:\\.|[^\]\\])+\]\)|\[\^/(?:\\.|[^\]\\])*\]"
_PLAIN_PIECE = re.compile(rf"(?:\\[^/]|{_BRACKET}|[^/\\\[\](){{}}.*+?|^$])*")
# What `_committed_stars` writes: a search within one name.
_COMMITTED_STAR = re.compile(
    rf"\(\?=\(\?P<cm_star\d+>\[\^/\]\*\?(?:{_PLAIN_PIECE.pattern})\)\)\(\?P=cm_star\d+\)"
)


def _committed_stars(regex: str) -> str:
    """Return `regex` with each `*` that another `*` of its segment follows matched without
    backtracking.

    `*a*a*a*a*b` as `[^/]*a[^/]*a...` makes a backtracking regex try every way to place each
    `a` in a long name: minutes for one 240-character file name. A `*` followed by a piece
    without `/` and then another `*` can take the first place that piece matches (a later
    place only leaves the next `*` less to match, and what it skips holds no `/`), so it is
    written as a lookahead that finds it lazily and a backreference that keeps it, the way
    CPython's `fnmatch.translate` writes its stars (https://github.com/python/cpython/issues/84660).
    """
    pieces = regex.split(_STAR)
    if len(pieces) < 3:
        return regex
    out = [pieces[0]]
    for index, piece in enumerate(pieces[1:], start=1):
        if index < len(pieces) - 1 and _PLAIN_PIECE.fullmatch(piece):
            out.append(f"(?=(?P<cm_star{index}>[^/]*?{piece}))(?P=cm_star{index})")
        else:
            out.append(_STAR + piece)
    return "".join(out)


# `**/` in pathspec's regex: at the start, and between two parts of a pattern.
_LEADING_GLOBSTAR = "^(?:.+/)?"
_GLOBSTAR = "(?:/.+)?/"


def _plain_folders(piece: str) -> bool:
    if re.fullmatch(piece, "") is not None:  # a folder with no name never stands in a path
        return False
    piece = re.sub(_BRACKET, "", _COMMITTED_STAR.sub("", piece)) if "(" in piece else piece
    return not any(mark in piece for mark in ("(", "|", ".+", ".*", "$"))


def _committed_globstars(regex: str) -> str:
    """Return `regex` with each `**/` that another `**/` follows matched without backtracking.

    `**/a/**/a/**/a/**/a/**/a/**/b` tries every way to place each `a` among the folders of a
    deep path (a minute for a path 100 folders deep). What stands between two `**/` spans whole
    folders and is followed by `/`, so the first folder where it fits will do: a later one only
    leaves the next `**/` fewer folders to skip. Written as for `_committed_stars`.
    """
    pieces = regex.split(_GLOBSTAR)
    if len(pieces) < 2:
        return regex
    out: list[str] = []
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        if index == 0:
            rest = piece.removeprefix(_LEADING_GLOBSTAR)
            if rest != piece and _plain_folders(rest):
                group = f"cm_deep{index}"
                out.append(f"^(?=(?P<{group}>(?:.+?/)??{rest}(?=/)))(?P={group})")
            else:
                out.append(piece)
        elif not last and _plain_folders(piece):
            group = f"cm_deep{index}"
            out.append(f"(?=(?P<{group}>(?:/.+?)??/{piece}(?=/)))(?P={group})")
        else:
            out.append(_GLOBSTAR + piece)
    return "".join(out)


def gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """Return the spec of a `.gitignore` file's lines; a malformed line is ignored, as git does."""
    import pathspec

    patterns = []
    for line in lines:
        try:
            patterns.append(compile_pattern(line))
        except PatternError:
            continue
    return pathspec.GitIgnoreSpec(patterns)


def policy_spec(patterns: Iterable[str]) -> pathspec.GitIgnoreSpec:
    """Return the spec of a policy's globs; raises `PatternError` naming a malformed one."""
    import pathspec

    return pathspec.GitIgnoreSpec([compile_pattern(p) for p in patterns])


def matches(spec: pathspec.GitIgnoreSpec, rel: str) -> bool:
    """Return whether git would ignore `rel` (a POSIX path) with these patterns.

    As git walks: a folder on the way that the patterns exclude excludes everything in it,
    whatever a later `!` says about a file inside; otherwise the file's own last match decides.
    """
    parts = rel.split("/")
    for end in range(1, len(parts)):
        if spec.check_file("/".join(parts[:end]) + "/").include:
            return True
    return bool(spec.check_file(rel).include)
