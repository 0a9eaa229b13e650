"""A notebook file read as JSON, with where each cell's `source` lies in the file's text.

Reading: `json.loads` decides whether the file is JSON at all (its error gives the line for
CM001); a small scanner then walks the same text to record the character span of every cell's
`source` value (and of each line when `source` is a list), taking the last of duplicate keys as
`json.loads` does. Writing: `with_sources` splices new `source` values into the original text at
those spans, so every other character (outputs, execution counts, metadata, ids, key order,
indentation, line endings, the final newline) stays as it was. A rewritten list keeps the
original's layout (the whitespace around and between its lines) and reuses the original JSON
text of every line whose value did not change. `with_sources` re-reads its own output and
refuses it unless it is the original notebook with exactly those sources replaced.
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from json import decoder
from typing import Any

from claude_migrate.core.errors import number_too_long
from claude_migrate.core.source import DecodeError, SourceText

SUPPORTED_MAJOR = 4
# The JSON decoder's own string scanner (C-accelerated), as `json.loads` reads strings; typeshed
# does not declare it, hence the typed alias.
_scanstring: Callable[[str, int], tuple[str, int]] = decoder.scanstring  # type: ignore[attr-defined]
_WS = re.compile(r"[ \t\n\r]*")
_STRUCTURE = re.compile(r'["{}\[\]]')
_SCALAR_END = re.compile(r"[^,\]\}\s]*")
# A \uXXXX escape of a character outside ASCII: the writer escaped non-ASCII text.
_ESCAPED_NON_ASCII = re.compile(
    r"\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})"
)


class NotebookError(Exception):
    """The file is not a notebook this tool can read; carries a 1-based line where known."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        cell: int | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.cell = cell


@dataclass(frozen=True)
class Cell:
    """One cell: its 1-based number among all cells, type, source and where it is written."""

    number: int
    cell_type: str
    source: str  # the lines joined, as Jupyter runs it
    is_list: bool  # `source` is written as a list of lines (else as one string)
    span: tuple[int, int]  # the `source` value's characters in the notebook text
    line_spans: tuple[tuple[int, int], ...]  # each list element's characters (list form)


@dataclass
class Notebook:
    """A parsed notebook and the text it was read from."""

    text: str
    data: dict[str, Any]
    cells: list[Cell]
    source: SourceText  # encoding and BOM, to write the text back

    @property
    def language(self) -> str | None:
        """Return the kernel's language from the metadata (kernelspec, then language_info)."""
        metadata = self.data.get("metadata")
        if not isinstance(metadata, dict):
            return None
        for key, field in (("kernelspec", "language"), ("language_info", "name")):
            table = metadata.get(key)
            if isinstance(table, dict) and isinstance(table.get(field), str):
                return str(table[field])
        return None


# Kernel names Jupyter resolves to a Python kernel: ipykernel's own (`python3`, `python2`,
# https://github.com/ipython/ipykernel/blob/main/ipykernel/kernelspec.py) and nb_conda_kernels'
# Python environments (`conda-root-py`, `conda-env-<name>-py`).
_PYTHON_KERNEL = re.compile(r"(?i)(?:i?python\d*(?:\.\d+)*|conda-(?:root|env-.+)-py)")
_PYTHON_LANGUAGES = ("python", "python3", "ipython")
PYTHON_NAMES = frozenset({"python", "python2", "python3", "ipython", "ipython2", "ipython3"})
# Kernels whose language is a superset of Python's syntax: every Python cell is one of theirs, so
# their Python cells are checked (a cell in their own syntax does not parse and is left out, as
# any cell that does not compile). Coconut: http://coconut-lang.org ("a strict superset of
# Python 3"); its kernel declares `codemirror_mode` python as well.
PYTHON_SUPERSETS = frozenset({"coconut"})


def kernel_name(notebook: Notebook) -> str | None:
    """Return the name of the kernel Jupyter starts for the notebook (`kernelspec.name`)."""
    metadata = notebook.data.get("metadata")
    spec = metadata.get("kernelspec") if isinstance(metadata, dict) else None
    name = spec.get("name") if isinstance(spec, dict) else None
    return name if isinstance(name, str) else None


def _python_kernel(notebook: Notebook) -> bool:
    """Return whether the kernel Jupyter starts for the notebook is a Python kernel."""
    name = kernel_name(notebook)
    return name is not None and _PYTHON_KERNEL.fullmatch(name.strip()) is not None


def _codemirror_is_python(metadata: dict[str, Any]) -> bool:
    """Return whether the kernel tells editors to highlight its cells as Python."""
    info = metadata.get("language_info")
    mode = info.get("codemirror_mode") if isinstance(info, dict) else None
    name = mode.get("name") if isinstance(mode, dict) else mode
    return isinstance(name, str) and name.strip().lower() in PYTHON_NAMES


def python_superset(notebook: Notebook) -> str | None:
    """Return the kernel's language when it is Python by superset or by `codemirror_mode`.

    For such a notebook a cell that is not Python is the kernel's own syntax, not a mistake.
    """
    language = notebook.language
    if language is None or language.strip().lower() in PYTHON_NAMES or _python_kernel(notebook):
        return None
    metadata = notebook.data.get("metadata")
    if language.strip().lower() in PYTHON_SUPERSETS:
        return language
    if isinstance(metadata, dict) and _codemirror_is_python(metadata):
        return language
    return None


def not_python(notebook: Notebook) -> str | None:
    """Return why a notebook's kernel is not Python, or None when it is (or does not say).

    Jupyter starts the kernel `kernelspec.name` names; its `language` fields only describe it.
    A notebook whose kernel name is a Python kernel's runs as Python whatever they say. A
    kernel whose language is a known superset of Python, or that asks editors for Python's
    `codemirror_mode`, has its cells written as Python: checked too.
    """
    if _python_kernel(notebook):
        return None
    language = notebook.language
    if language is None or language.strip().lower() in _PYTHON_LANGUAGES:
        return None
    if python_superset(notebook) is not None:
        return None
    return f"its kernel's language is {language!r}, not Python"


def language_disagrees(notebook: Notebook) -> str | None:
    """Return what a notebook's metadata says against the Python kernel it starts, or None."""
    language = notebook.language
    if language is None or language.strip().lower() in _PYTHON_LANGUAGES:
        return None
    if not _python_kernel(notebook):
        return None
    return (
        f"checked as Python: its kernel {kernel_name(notebook)!r} is Python's, though its"
        f" language says {language!r}"
    )


def load(data: bytes | str) -> Notebook:
    """Return the notebook in `data`; raise NotebookError naming what is wrong and where."""
    if isinstance(data, str):
        source = SourceText(data)
    else:
        try:
            source = SourceText.from_bytes(data, is_python=False)
        except DecodeError as exc:
            raise NotebookError(f"notebook is not UTF-8: {exc}", exc.line) from None
    text = source.text
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotebookError(f"invalid notebook JSON: {exc.msg}", exc.lineno, exc.colno) from None
    except RecursionError:
        raise NotebookError("invalid notebook JSON: nested too deeply") from None
    except ValueError:
        words, line = number_too_long(text)
        raise NotebookError(f"invalid notebook JSON: {words}", line) from None
    if not isinstance(parsed, dict):
        raise NotebookError("not a notebook: the JSON is not an object", 1)
    major = parsed.get("nbformat")
    if major != SUPPORTED_MAJOR:
        raise NotebookError(
            f"unsupported notebook format: nbformat {major!r} (version {SUPPORTED_MAJOR} is read)",
            1,
        )
    cells_value = parsed.get("cells")
    if not isinstance(cells_value, list):
        raise NotebookError("not a notebook: `cells` is missing or not a list", 1)
    spans = _locate(text)
    if len(spans) != len(cells_value):
        raise NotebookError("cannot locate the cells in the notebook text", 1)  # pragma: no cover
    cells = []
    lines = _Lines(text)
    for index, (value, located) in enumerate(zip(cells_value, spans, strict=True)):
        number = index + 1
        at = lines.line(located.start)
        if not isinstance(value, dict) or not isinstance(value.get("cell_type"), str):
            raise NotebookError(
                f"cell {number}: expected an object with a `cell_type`", at, cell=number
            )
        raw = value.get("source")
        if isinstance(raw, str):
            joined, is_list = raw, False
        elif isinstance(raw, list) and all(isinstance(line, str) for line in raw):
            joined, is_list = "".join(raw), True
        else:
            raise NotebookError(
                f"cell {number}: `source` must be a string or a list of strings", at, cell=number
            )
        if located.source is None:  # pragma: no cover - json.loads found it, so does the scanner
            raise NotebookError(f"cell {number}: cannot locate `source`", at, cell=number)
        cells.append(
            Cell(number, value["cell_type"], joined, is_list, located.source, located.lines)
        )
    return Notebook(text=text, data=parsed, cells=cells, source=source)


class _Lines:
    """1-based line numbers of offsets in a text, the line starts found once (on first use)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._starts: list[int] | None = None

    def line(self, offset: int) -> int:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return bisect.bisect_right(self._starts, offset)


# Locating values in the text ------------------------------------------------------------------


@dataclass
class _Located:
    start: int
    source: tuple[int, int] | None = None
    lines: tuple[tuple[int, int], ...] = ()


def _ws(text: str, i: int) -> int:
    match = _WS.match(text, i)
    return match.end() if match else i


def _skip(text: str, i: int) -> int:
    """Return the end of the JSON value starting at `i` (the text is known to be valid JSON)."""
    first = text[i]
    if first == '"':
        return _scanstring(text, i + 1)[1]
    if first not in "{[":
        match = _SCALAR_END.match(text, i)
        return match.end() if match else i + 1
    depth = 0
    j = i
    while True:
        match = _STRUCTURE.search(text, j)
        if match is None:  # pragma: no cover - valid JSON closes every bracket
            return len(text)
        j = match.start()
        char = text[j]
        if char == '"':
            j = _scanstring(text, j + 1)[1]
            continue
        depth += 1 if char in "{[" else -1
        j += 1
        if depth == 0:
            return j


def _members(text: str, i: int) -> Iterator[tuple[str, int, int]]:
    """Yield (key, value start, value end) of the object starting at `i`."""
    i = _ws(text, i + 1)
    if text[i] == "}":
        return
    while True:
        key, i = _scanstring(text, i + 1)
        i = _ws(text, i)
        i = _ws(text, i + 1)  # past ':'
        end = _skip(text, i)
        yield key, i, end
        i = _ws(text, end)
        if text[i] != ",":
            return
        i = _ws(text, i + 1)


def _elements(text: str, i: int) -> Iterator[tuple[int, int]]:
    """Yield (start, end) of each element of the array starting at `i`."""
    i = _ws(text, i + 1)
    if text[i] == "]":
        return
    while True:
        end = _skip(text, i)
        yield i, end
        i = _ws(text, end)
        if text[i] != ",":
            return
        i = _ws(text, i + 1)


def _locate(text: str) -> list[_Located]:
    """Return, for every cell, where it starts and where its `source` value is written."""
    top = _ws(text, 0)
    cells_at: int | None = None
    for key, start, _end in _members(text, top):
        if key == "cells":
            cells_at = start  # the last duplicate wins, as in json.loads
    if cells_at is None or text[cells_at] != "[":
        return []
    located = []
    for start, _end in _elements(text, cells_at):
        cell = _Located(start)
        if text[start] == "{":
            for key, value_start, value_end in _members(text, start):
                if key == "source":
                    cell.source = (value_start, value_end)
                    cell.lines = (
                        tuple(_elements(text, value_start)) if text[value_start] == "[" else ()
                    )
        located.append(cell)
    return located


# Writing new sources ------------------------------------------------------------------------


def _source_lines(source: str) -> list[str]:
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", source)
    return lines


def _escapes_non_ascii(text: str) -> bool:
    return text.isascii() and _ESCAPED_NON_ASCII.search(text) is not None


def _encode_list(notebook: Notebook, cell: Cell, new: str, ascii_only: bool) -> str:
    text = notebook.text
    start, end = cell.span
    lines = _source_lines(new)
    originals: dict[str, str] = {}
    for a, b in cell.line_spans:
        raw = text[a:b]
        originals.setdefault(json.loads(raw), raw)
    parts = [originals.get(line) or json.dumps(line, ensure_ascii=ascii_only) for line in lines]
    spans = cell.line_spans
    if not spans:
        return "[" + ", ".join(parts) + "]"
    opening = text[start + 1 : spans[0][0]]
    closing = text[spans[-1][1] : end - 1]
    if len(spans) > 1:
        separator = text[spans[0][1] : spans[1][0]]
    else:
        separator = "," + (opening if opening.strip() == "" and opening else " ")
    if not parts:
        return "[]"
    return "[" + opening + separator.join(parts) + closing + "]"


def _encode(notebook: Notebook, cell: Cell, new: str) -> str:
    ascii_only = _escapes_non_ascii(notebook.text)
    if cell.is_list:
        return _encode_list(notebook, cell, new, ascii_only)
    return json.dumps(new, ensure_ascii=ascii_only)


def with_sources(notebook: Notebook, sources: Mapping[int, str]) -> str:
    """Return the notebook text with the `source` of the numbered cells replaced.

    Raises ValueError when the result would not be the same notebook with only those sources
    changed (it is never written then).
    """
    by_number = {cell.number: cell for cell in notebook.cells}
    out = notebook.text
    for number in sorted(sources, reverse=True):
        cell = by_number[number]
        if sources[number] == cell.source:
            continue
        start, end = cell.span
        out = out[:start] + _encode(notebook, cell, sources[number]) + out[end:]
    _verify(notebook, sources, out)
    return out


def _verify(notebook: Notebook, sources: Mapping[int, str], text: str) -> None:
    try:
        reread = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"the fixed notebook is not valid JSON: {exc}") from None
    expected = json.loads(notebook.text)
    unchanged = {cell.number for cell in notebook.cells if sources.get(cell.number) == cell.source}
    for number, new in sources.items():
        if number in unchanged:  # kept as written (Jupyter splits its list at a form feed too)
            continue
        cell = expected["cells"][number - 1]
        cell["source"] = _source_lines(new) if isinstance(cell["source"], list) else new
    if json.dumps(reread, sort_keys=True) != json.dumps(expected, sort_keys=True):
        raise ValueError("the fixed notebook would differ in more than the fixed cells' sources")


def cell_lines(notebook: Notebook) -> dict[int, list[tuple[str, int]]]:
    """Return, per cell number, each source line's text and the notebook-file line it is on.

    A list source has one file line per element (as Jupyter writes it); a one-string source is
    all on the line where the string starts.
    """
    text = notebook.text
    where = _Lines(text)
    lines: dict[int, list[tuple[str, int]]] = {}
    for cell in notebook.cells:
        at = where.line(cell.span[0])
        if not cell.is_list or not cell.line_spans:
            lines[cell.number] = [(line.rstrip("\r"), at) for line in cell.source.split("\n")]
            continue
        # Where each element starts in the joined source, and the file line it is written on.
        starts: list[int] = []
        places: list[int] = []
        offset = 0
        for a, b in cell.line_spans:
            starts.append(offset)
            places.append(where.line(a))
            offset += len(json.loads(text[a:b]))
        found: list[tuple[str, int]] = []
        offset = 0
        for line in cell.source.split("\n"):
            index = max(bisect.bisect_right(starts, offset) - 1, 0)
            found.append((line.rstrip("\r"), places[index]))
            offset += len(line) + 1
        lines[cell.number] = found
    return lines
