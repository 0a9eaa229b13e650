"""Jupyter notebooks (`.ipynb`) as a kind of file: their code cells checked as one module.

`document` reads the notebook JSON and knows where each cell's `source` lies in the file's text,
so a fix replaces only those characters; `ipython` masks IPython syntax (magics, shell escapes,
help) so the Python parser never misreads it; `module` joins the code cells, in order, into the
one module the checks read and maps positions back to (cell, line); `processor` is the engine's
entry point for the kind; `diff` renders `fix --diff` per cell.
"""

from __future__ import annotations

from pathlib import PurePath

NOTEBOOK_KIND = "notebook"
NOTEBOOK_SUFFIX = ".ipynb"
# Kinds of file whose code the checks of another kind read: a notebook's cells are Python.
CHECKED_AS = {NOTEBOOK_KIND: "python"}


def notebook_kind(path: PurePath) -> str | None:
    """Discovery's classifier: `"notebook"` for a `.ipynb` file, else None."""
    return NOTEBOOK_KIND if path.suffix == NOTEBOOK_SUFFIX else None


def is_notebook_path(path: str) -> bool:
    """Return whether a reported path names a notebook (reporters place findings by cell)."""
    return path.endswith(NOTEBOOK_SUFFIX)
