"""`python -m claude_migrate`: the command line, with the working folder off the import path.

`python -m` puts the working folder first on `sys.path`, so a checked repository's `enum.py`
or `json/` would shadow the standard library as soon as anything imports it. Only modules the
interpreter loads at start-up (`os`, `sys`, ...) are imported before this runs; the working
folder is dropped before any other import, unless it is where this package itself lives.
"""

import os
import sys


def _without_working_folder(path: list[str]) -> list[str]:
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cwd = os.getcwd()
    kept = []
    for entry in path:
        folder = os.path.abspath(entry or cwd)
        if folder != cwd or folder == here:
            kept.append(entry)
    return kept


sys.path[:] = _without_working_folder(sys.path)

from claude_migrate.cli import main  # noqa: E402

if __name__ == "__main__":
    main()
