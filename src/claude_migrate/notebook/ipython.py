"""IPython syntax in a code cell, masked so that the Python parser never misreads it.

What IPython accepts and Python does not, at the start of a logical line (never inside a string
or brackets, which a small scanner tracks): line magics (`%pip install x`, `% pip ...`), shell
escapes (`!ls`), help (`?obj`, `obj?`, `obj??`), assignments from either (`files = !ls`,
`t = %timeit -o f()`), and automagic (`pip install x`: a magic's name without `%`, on a line
that is not Python). A masked line keeps its indentation and becomes `0#` plus a marker, so the
block it sits in still parses, and line numbers and every other line's columns stay as they were;
a line a magic continues onto with a trailing backslash becomes a comment too. The original
lines are kept to be put back when the cell is written.

Autocall escapes (`/f a b`, `,f a b`, `;f a b`) are calls: such a line is read as the call
IPython runs (`f(a, b)`, `f("a", "b")`, `f("a b")`), followed by a comment holding the marker,
so a Claude call written that way is still seen. It is put back only while that call is
unchanged (a fix to it has no IPython spelling). One continued by a backslash is left as it is:
Python reads it as the syntax error it is to Python, rather than the tool hiding its call.

Cell magics (`%%name` on the cell's first line): a few run their body as Python (`%%time`,
`%%timeit`, `%%capture`, `%%prun`, `%%debug`, `%%python`, `%%script python3`, ...): the magic
line is masked and the body checked. Every other one (`%%bash`, `%%writefile`, `%%html`,
`%%sql`, ...) makes the cell something other than Python, and the cell is skipped.

Before any of that, IPython cleans a cell up (`IPython/core/inputtransformer2.py`,
`TransformerManager.cleanup_transforms`, IPython 7 and later): when the first non-blank line is
indented, that indentation is taken off every line that starts with it; when the first line
starts with a `>>> ` prompt, or the second with `>>> `/`... `, that prompt is taken off every
line; likewise `In [1]: ` and `   ...: `. `strip_prompts` does the same and keeps what it took
off each line, to give columns and fixed lines their prefix back.

IPython's own rules: https://ipython.readthedocs.io/en/stable/interactive/magics.html and
https://ipython.readthedocs.io/en/stable/interactive/reference.html#automagic
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field

# Cell magics whose body IPython runs as Python code in the kernel.
PYTHON_CELL_MAGICS = frozenset(
    {"time", "timeit", "capture", "prun", "debug", "python", "python3", "memit", "mprun"}
)
# Line magics people call without `%` (automagic); masked only on a line that is not Python.
AUTOMAGICS = frozenset(
    {
        "pip", "conda", "mamba", "cd", "ls", "pwd", "env", "load_ext", "reload_ext",
        "unload_ext", "matplotlib", "run", "time", "timeit", "who", "whos", "reset", "store",
        "alias", "autoreload", "autoawait", "config", "history", "load", "pylab", "precision",
        "pdb", "xmode", "bookmark", "dhist", "pinfo", "pinfo2", "psearch", "rehashx", "sx",
        "system", "colors", "logstart", "logstop", "save", "sc",
    }
)  # fmt: skip

_ASSIGN_FROM = re.compile(
    r"[ \t]*[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=[ \t]*[!%]"
)
_FIRST_WORD = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]+(\S)")
_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


@dataclass
class MaskedCell:
    """A cell's text with IPython syntax masked, and what each masked line held."""

    text: str
    masked: list[tuple[int, str]] = field(default_factory=list)  # (0-based line, original)
    skip_reason: str | None = None  # set when the whole cell is not Python


@dataclass
class _Scanner:
    """Where a line leaves Python's tokenizer: inside a string, brackets or a continuation."""

    quote: str | None = None  # the open string's delimiter (', ", ''' or \"\"\")
    depth: int = 0
    continued: bool = False

    @property
    def at_statement_start(self) -> bool:
        return self.quote is None and self.depth == 0 and not self.continued

    def scan(self, line: str) -> str:
        """Consume one physical line; return its last code character outside strings, comments."""
        last = ""
        body = line.rstrip("\r\n")
        self.continued = False
        i = 0
        n = len(body)
        while i < n:
            char = body[i]
            if self.quote is not None:
                if char == "\\":
                    i += 2
                    continue
                if body.startswith(self.quote, i):
                    i += len(self.quote)
                    self.quote = None
                    last = char
                    continue
                i += 1
                continue
            if char == "#":
                break
            if char in "'\"":
                triple = body[i : i + 3]
                self.quote = triple if triple in ("'''", '"""') else char
                i += len(self.quote)
                continue
            if char in "([{":
                self.depth += 1
            elif char in ")]}":
                self.depth = max(0, self.depth - 1)
            elif char == "\\" and i == n - 1:
                self.continued = True
                break
            if not char.isspace():
                last = char
            i += 1
        if self.quote is not None and len(self.quote) == 1:
            # A one-quote string ends at the line's end unless a backslash continues it.
            if body.endswith("\\"):
                self.continued = False
            else:
                self.quote = None
        return last


# What IPython's cleanup takes off a line's start: indentation, a Python prompt (`>>>` or
# `...`, then a space or the line's end; `...` only after a first `>>>`), an IPython prompt
# (`In [12]: `, optionally after a vi mode's `[nav] `/`[ins] `, or three or more dots and `:`).
_INDENT = re.compile(r"[ \t]+")
_CLASSIC_ANY = re.compile(r"(?:>>>|\.\.\.)(?: |$)")
_CLASSIC_FIRST = re.compile(r">>>(?: |$)")
_LINE_BREAK = re.compile(r"(\r\n|\r|\n)")
_IPYTHON = re.compile(r"(?:(?:\[nav\]|\[ins\])? )?In \[\d+\]: |\s*\.{3,}: ?")


@dataclass
class StrippedCell:
    """A cell's text as IPython runs it, and the prefix taken off each of its lines."""

    text: str
    # Per line as Python counts them (ended by "\r\n", "\r" or "\n"); empty when nothing was
    # taken off; None when IPython took a prefix off after a break Python does not end a line at
    # (a form feed, U+2028): no column maps, and the cell is not rewritten.
    prefixes: tuple[str, ...] | None = ()


def strip_prompts(text: str) -> StrippedCell:
    """Return the cell as IPython's cleanup leaves it: leading indentation and prompts removed.

    The lines are IPython's (`str.splitlines`, so a form feed ends one too). Leading blank lines
    stay (Python ignores them), so line numbers do not move.
    """
    lines = text.splitlines(keepends=True)
    first = next((i for i, line in enumerate(lines) if line and not line.isspace()), None)
    if first is None:
        return StrippedCell(text)
    taken = [""] * len(lines)

    def take(pattern: re.Pattern[str]) -> None:
        for i in range(first, len(lines)):
            match = pattern.match(lines[i])
            if match is not None and match.end() > 0:
                taken[i] += lines[i][: match.end()]
                lines[i] = lines[i][match.end() :]

    indent = _INDENT.match(lines[first])
    if indent is not None:
        take(re.compile(re.escape(indent.group(0))))
    for initial, prompt in ((_CLASSIC_FIRST, _CLASSIC_ANY), (_IPYTHON, _IPYTHON)):
        second = lines[first + 1] if first + 1 < len(lines) else None
        if initial.match(lines[first]) or (second is not None and prompt.match(second)):
            take(prompt)
    if not any(taken):
        return StrippedCell(text)
    prefixes: list[str] = []
    starts_line = True
    for prefix, line in zip(taken, lines, strict=True):
        if starts_line:
            prefixes.append(prefix)
        elif prefix:
            return StrippedCell("".join(lines), None)
        starts_line = line.endswith(("\n", "\r"))
    # The piece after the last line break.
    prefixes += [""] * (len(_LINE_BREAK.findall(text)) + 1 - len(prefixes))
    stripped = "".join(lines)
    if put_prompts_back(stripped, tuple(prefixes)) != text:  # a "\r" met a "\n" once apart
        return StrippedCell(stripped, None)
    return StrippedCell(stripped, tuple(prefixes))


def put_prompts_back(text: str, prefixes: tuple[str, ...] | None) -> str | None:
    """Return a cleaned cell's text with each line's prefix put back.

    None when the text no longer has the same number of lines (a fix added or removed one), or
    the prefixes are not known by line.
    """
    if prefixes is None:
        return None
    if not prefixes:
        return text
    pieces = _LINE_BREAK.split(text)  # line, break, line, ..., line
    lines, breaks = pieces[::2], [*pieces[1::2], ""]
    if len(lines) != len(prefixes):
        return None
    return "".join(p + line + end for p, line, end in zip(prefixes, lines, breaks, strict=True))


def _is_python(line: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(line.strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _is_magic_line(stripped: str) -> bool:
    return stripped.startswith(("%", "!", "?"))


def cell_magic(text: str) -> str | None:
    """Return the name of the cell magic on a cell's first (non-blank) line, if any."""
    for line in text.splitlines():
        if not line.strip():
            continue
        stripped = line.strip()
        if stripped.startswith("%%"):
            name = stripped[2:].split(None, 1)
            return name[0] if name else ""
        return None
    return None


# `%%script [options] COMMAND`: the options IPython's script magic takes a value after.
_SCRIPT_VALUE_OPTIONS = frozenset({"--out", "--err", "--proc"})
# Python 3 only: a `python2` body, as `%%python2`'s, need not parse as Python 3.
_PYTHON_COMMAND = re.compile(r"(?:.*/)?python(?:3(?:\.\d+)?)?(?:\.exe)?")


def _runs_python(text: str) -> bool:
    """Return whether the cell's first line is `%%script` running a Python interpreter.

    `%%script python3` runs its body as `%%python3` does (IPython defines `%%python` as
    `%%script python`): https://ipython.readthedocs.io/en/stable/interactive/magics.html#cellmagic-script
    """
    first = next((line for line in text.splitlines() if line.strip()), "")
    words = first.split()
    if not words or words[0] != "%%script":
        return False
    rest = iter(words[1:])
    for word in rest:
        if word in _SCRIPT_VALUE_OPTIONS:
            next(rest, None)
        elif not word.startswith("-"):
            return _PYTHON_COMMAND.fullmatch(word) is not None
    return False


def mask_cell(text: str, marker: str) -> MaskedCell:
    """Return `text` with its IPython lines replaced by `<indent>0#<marker><n>` comments.

    `marker` is a character the notebook's code never holds; `<n>` numbers the masked lines of
    this cell from 0, so they can be put back exactly.
    """
    magic = cell_magic(text)
    if magic is not None and magic not in PYTHON_CELL_MAGICS and not _runs_python(text):
        return MaskedCell(text, skip_reason=f"cell magic %%{magic}")
    lines = _LINE.findall(text)
    masked: list[tuple[int, str]] = []
    out: list[str] = []
    scanner = _Scanner()
    in_magic_continuation = False
    seen_code = False
    for number, line in enumerate(lines):
        body = line.rstrip("\r\n")
        ending = line[len(body) :]
        stripped = body.strip()
        if in_magic_continuation:
            masked.append((number, line))
            out.append(f"#{marker}{len(masked) - 1}" + ending)
            in_magic_continuation = body.endswith("\\")
            continue
        is_magic = False
        if scanner.at_statement_start and stripped[:1] in _AUTOCALLS and not body.endswith("\\"):
            # `/f a b`, `,f a b`, `;f a b`: IPython's call, written as the call it runs.
            indent = body[: len(body) - len(body.lstrip(" \t"))]
            masked.append((number, line))
            out.append(f"{indent}{_autocall(stripped)}  #{marker}{len(masked) - 1}" + ending)
            continue
        if scanner.at_statement_start and stripped:
            if (
                not seen_code
                and magic is not None
                and stripped.startswith("%%")
                or _is_magic_line(stripped)
                or _ASSIGN_FROM.match(body)
            ):
                is_magic = True
            else:
                before = _Scanner()
                last = before.scan(body)
                complete = before.at_statement_start
                if complete and last == "?" or complete and _automagic(body):
                    is_magic = True
        if stripped and not stripped.startswith("#"):
            seen_code = True
        if is_magic:
            indent = body[: len(body) - len(body.lstrip(" \t"))]
            masked.append((number, line))
            out.append(f"{indent}0#{marker}{len(masked) - 1}" + ending)
            in_magic_continuation = body.endswith("\\")
            continue
        scanner.scan(line)
        out.append(line)
    return MaskedCell("".join(out), masked)


# IPython's autocall escapes at the start of a line (`EscapedCommand` in
# `IPython/core/inputtransformer2.py`; https://ipython.readthedocs.io/en/stable/interactive/
# reference.html#automatic-parentheses-and-quotes): `/f a b` runs `f(a, b)`, `,f a b` runs
# `f("a", "b")`, `;f a b` runs `f("a b")`. No Python statement starts with one of them.
_AUTOCALLS = frozenset("/,;")


def _autocall(stripped: str) -> str:
    """Return the Python call IPython runs for an autocall line (stripped of its indentation
    and line ending), written exactly as IPython writes it."""
    escape, content = stripped[0], stripped.rstrip()[1:]
    name, _, args = content.partition(" ")
    if escape == "/":
        return f"{name}({', '.join(args.split())})"
    if escape == ",":
        return name + '("' + '", "'.join(args.split()) + '")'
    return f'{name}("{args}")'


def _autocall_line(line: str) -> str | None:
    """Return how `mask_cell` writes an autocall line (its indentation and call), else None."""
    body = line.rstrip("\r\n")
    stripped = body.strip()
    if stripped[:1] not in _AUTOCALLS:
        return None
    return body[: len(body) - len(body.lstrip(" \t"))] + _autocall(stripped)


def _automagic(body: str) -> bool:
    match = _FIRST_WORD.match(body)
    if match is None or match.group(1) not in AUTOMAGICS:
        return False
    return not _is_python(body)


def unmask(text: str, masked: list[tuple[int, str]], marker: str) -> str | None:
    """Return a masked cell's text with its original IPython lines put back.

    None when the masked lines are not all there, once each and in order (a fix touched one):
    the cell cannot be written back faithfully.
    """
    pattern = re.compile(rf"^[ \t]*0?#{re.escape(marker)}(\d+)[ \t]*$")
    called = re.compile(rf"^(.*)  #{re.escape(marker)}(\d+)$")
    out: list[str] = []
    expected = 0
    for line in _LINE.findall(text):
        body = line.rstrip("\r\n")
        match = pattern.match(body) or called.match(body)
        if match is None:
            if marker in body:
                return None
            out.append(line)
            continue
        index = int(match.group(match.lastindex or 1))
        if index != expected or index >= len(masked):
            return None
        if match.re is called and match.group(1) != _autocall_line(masked[index][1]):
            return None  # an autocall's call was changed: it has no IPython spelling here
        expected += 1
        original = masked[index][1]
        out.append(original.rstrip("\r\n") + line[len(body) :])
    if expected != len(masked):
        return None
    return "".join(out)
