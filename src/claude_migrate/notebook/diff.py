"""`fix --diff` for a notebook: one unified diff per changed cell, its header naming the cell.

A diff of the JSON would show escaped strings and list punctuation; the diff people review is
the code of each cell, with line numbers counted within the cell, as findings are reported.
"""

from __future__ import annotations

import difflib
import re

from claude_migrate.notebook.document import NotebookError, load

_LINE = re.compile(r"[^\n]*\n|[^\n]+\Z")


def cell_diff(path: str, original: str, fixed: str) -> str:
    """Return the unified diff of every cell whose source differs between two notebook texts."""
    try:
        before = {cell.number: cell.source for cell in load(original).cells}
        after = {cell.number: cell.source for cell in load(fixed).cells}
    except NotebookError:
        return ""
    out: list[str] = []
    for number in sorted(before):
        if after.get(number, before[number]) == before[number]:
            continue
        for line in difflib.unified_diff(
            _LINE.findall(before[number]),
            _LINE.findall(after[number]),
            fromfile=f"a/{path}:cell {number}",
            tofile=f"b/{path}:cell {number}",
        ):
            out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of cell\n")
    return "".join(out)
