"""Dump the project phase's views of a tree as JSON, to compare two versions of the phase.

    PYTHONHASHSEED=0 PYTHONPATH=OLD/src python bench/views.py TREE old.json
    PYTHONHASHSEED=0 PYTHONPATH=NEW/src python bench/views.py TREE new.json
    cmp old.json new.json

Every `.py` file under TREE is given to the phase, as a run over TREE gives them; each file's
view (its module, the modules' derived facts in their order, the digest the result cache keys
on, whether the project makes it relevant) is written in the order the phase built it, so a
difference in any byte of a view, or in the order of its facts, shows.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from claude_migrate.core.source import read_regular
from claude_migrate.project import phase


def views(tree: Path) -> dict[str, object]:
    paths = sorted(
        str(path)
        for path in tree.rglob("*.py")
        if not any(part.startswith(".") for part in path.relative_to(tree).parts)
    )
    files = [(Path(path), read_regular(path)) for path in paths]
    project = phase.build(files, phase.cwd())
    found: dict[str, object] = {}
    for path in paths:
        view = project.view(path)
        found[path] = (
            None if view is None else [view.module, view.modules, view.digest, view.relevant]
        )
    return found


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        raise SystemExit("set PYTHONHASHSEED=0: the phase's sets are iterated in hash order")
    tree = Path(sys.argv[1]).resolve()
    os.chdir(tree.parent)
    Path(sys.argv[2]).write_text(json.dumps(views(tree), default=str), encoding="utf-8")
