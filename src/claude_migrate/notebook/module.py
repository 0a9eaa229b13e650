"""The code cells of a notebook as one module, as the kernel runs them, and back.

The checks read one Python module: the masked text of every code cell, in order, each ending in
a newline and followed by a boundary comment line (`#<marker> cell N`), so a client made in
cell 2 is the client of the call in cell 7. Positions in that module map back to a cell and a
line within it; a fixed module splits back into cells at the boundary lines, and each cell's
IPython lines are put back. A fix that touches a boundary or a masked line makes the split fail,
and the fix is refused. A cell that does not compile on its own is left out (the kernel would
not run it either) and reported as that cell's CM001.
"""

from __future__ import annotations

import ast
import bisect
import re
import sys
import warnings
from dataclasses import dataclass, field
from functools import cached_property

from claude_migrate.core.source import SourceText
from claude_migrate.notebook.document import Notebook
from claude_migrate.notebook.ipython import mask_cell, put_prompts_back, strip_prompts, unmask

# Private-use characters: the first one the notebook's text does not hold marks boundaries,
# the next masked lines. Code never sees them, and they never reach the file.
_PRIVATE = (*range(0xE000, 0xF900), *range(0xF0000, 0xFFFFE))


def _compile_error(text: str) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError) as exc:
        return SyntaxError(str(exc))
    return None


def compiles(text: str) -> bool:
    return _compile_error(text) is None


def _readable(text: str) -> bool:
    """Return whether a cell is read: it compiles, or is a newer Python's f-string syntax."""
    error = _compile_error(text)
    return error is None or _newer_syntax(error, text)


def _newer_syntax(error: SyntaxError, text: str) -> bool:
    """Return whether a cell CPython refuses is a newer Python's f-string, which LibCST reads.

    Python 3.12 lets an f-string's fields reuse its quotes and span lines (PEP 701,
    https://peps.python.org/pep-0701/): `f"{row["name"]}"` is valid there and an "f-string:"
    syntax error before. The notebook's kernel may well be 3.12, so such a cell is read.
    """
    if sys.version_info >= (3, 12) or not (error.msg or "").startswith("f-string"):
        return False
    import libcst as cst

    try:
        cst.parse_module(text)
    except Exception:  # noqa: BLE001 - any failure: LibCST does not read it either
        return False
    return True


@dataclass
class Part:
    """One code cell inside the module."""

    cell: int  # the cell's number in the notebook
    masked: list[tuple[int, str]]  # the cell's masked lines (0-based line, original text)
    added_newline: bool  # the cell did not end in a newline; the module added one
    prefixes: tuple[str, ...] | None = ()  # what IPython's cleanup took off (`strip_prompts`)
    # For a cell whose prefixes are None: its text cleaned, and as written (never rewritten).
    unmapped: tuple[str, str] | None = None


@dataclass
class CellProblem:
    """A code cell left out of the module: it does not compile, or is not Python."""

    cell: int
    message: str
    line: int | None = None
    column: int | None = None
    is_error: bool = True  # False: skipped by design (a %%bash cell), not reported


@dataclass
class CellModule:
    """The module the checks read, and how to map it back to the notebook's cells."""

    text: str
    parts: list[Part]
    boundary: str
    mask: str
    problems: list[CellProblem] = field(default_factory=list)

    @classmethod
    def build(cls, notebook: Notebook) -> CellModule:
        boundary, mask = _markers(notebook.text)
        parts: list[Part] = []
        chunks: list[str] = []
        problems: list[CellProblem] = []
        for cell in notebook.cells:
            if cell.cell_type != "code" or not cell.source.strip():
                continue
            stripped = strip_prompts(cell.source)
            masked = mask_cell(stripped.text, mask)
            if masked.skip_reason is not None:
                problems.append(CellProblem(cell.number, masked.skip_reason, is_error=False))
                continue
            error = _compile_error(masked.text)
            if error is not None and not _newer_syntax(error, masked.text):
                column = error.offset
                prefixes = stripped.prefixes or ()
                if column is not None and error.lineno and error.lineno <= len(prefixes):
                    column += len(prefixes[error.lineno - 1])
                problems.append(
                    CellProblem(cell.number, f"invalid syntax: {error.msg}", error.lineno, column)
                )
                continue
            added = not masked.text.endswith("\n")
            chunks.append(
                masked.text + ("\n" if added else "") + _boundary_line(boundary, cell.number)
            )
            unmapped = None if stripped.prefixes is not None else (stripped.text, cell.source)
            parts.append(Part(cell.number, masked.masked, added, stripped.prefixes, unmapped))
        return cls("".join(chunks), parts, boundary, mask, problems)

    # Positions ---------------------------------------------------------------------------------
    def part_starts(self, text: str | None = None) -> list[int] | None:
        """Return the 1-based module line where each part starts, or None if a boundary broke."""
        source = SourceText(self.text if text is None else text)
        starts = [1]
        for match in self._boundaries.finditer(source.text):
            starts.append(source.position(match.start())[0] + 1)
        if len(starts) != len(self.parts) + 1:
            return None
        return starts[:-1]

    @cached_property
    def _boundaries(self) -> re.Pattern[str]:
        return re.compile(rf"(?m)^#{re.escape(self.boundary)} cell \d+\n")

    def locate(self, line: int, starts: list[int]) -> tuple[int, int]:
        """Return (cell number, line within the cell) of a 1-based module line."""
        index = max(bisect.bisect_right(starts, line) - 1, 0)
        return self.parts[index].cell, line - starts[index] + 1

    def shift(self, line: int, starts: list[int]) -> int:
        """Return how many characters IPython's cleanup took off the start of a module line."""
        index = max(bisect.bisect_right(starts, line) - 1, 0)
        prefixes = self.parts[index].prefixes or ()
        within = line - starts[index]
        return len(prefixes[within]) if 0 <= within < len(prefixes) else 0

    # Back to cells ------------------------------------------------------------------------------
    def split(self, text: str) -> dict[int, str] | None:
        """Return each cell's new source from a fixed module, or None when it cannot be split."""
        pieces = self._boundaries.split(text)
        if len(pieces) != len(self.parts) + 1 or pieces[-1] != "":
            return None
        sources: dict[int, str] = {}
        for part, piece in zip(self.parts, pieces, strict=False):
            if part.added_newline:
                if not piece.endswith("\n"):
                    return None
                piece = piece[:-1]
            restored = unmask(piece, part.masked, self.mask)
            if restored is not None and part.unmapped is not None:
                restored = part.unmapped[1] if restored == part.unmapped[0] else None
            elif restored is not None:
                restored = put_prompts_back(restored, part.prefixes)
            if restored is None:
                return None
            sources[part.cell] = restored
        return sources

    def parts_compile(self, text: str) -> bool:
        """Return whether every cell of a fixed module is still read on its own (`_readable`)."""
        pieces = self._boundaries.split(text)
        return len(pieces) == len(self.parts) + 1 and all(_readable(p) for p in pieces[:-1])


def _boundary_line(boundary: str, number: int) -> str:
    return f"#{boundary} cell {number}\n"


def _markers(text: str) -> tuple[str, str]:
    held = {char for char in text if "\ue000" <= char <= "\uf8ff" or char >= "\U000f0000"}
    free = (chr(code) for code in _PRIVATE if chr(code) not in held)
    return next(free), next(free)  # 71,000 candidates: a file cannot hold them all and be small
