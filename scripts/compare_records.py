"""Compare the project phase's per-call records with the LibCST call sites, tree by tree.

    python scripts/compare_records.py TREE [TREE ...] [--each] [--examples N] [--all]

Each TREE is one project (built alone, from inside it, as a run from its root builds it). Prints
the sites matched by position, those one side only finds, the parameters compared, how many
agree, and each kind of difference with its count and examples (`--all`: every difference).
`--each` prints each tree's summary too. See ARCHITECTURE.md, "The per-call records".
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from claude_migrate.engine.record_check import Comparison, compare


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="+", type=Path)
    parser.add_argument("--each", action="store_true", help="print each tree's summary")
    parser.add_argument("--examples", type=int, default=2, help="examples per kind")
    parser.add_argument("--all", action="store_true", help="list every difference")
    args = parser.parse_args(argv)
    total = Comparison()
    for tree in args.trees:
        if not tree.is_dir():
            print(f"{tree}: not a folder", file=sys.stderr)
            return 2
        here = os.getcwd()
        os.chdir(tree)  # display paths are relative to the tree, as in a run from its root
        try:
            found = compare([Path(".")], Path("."))
        finally:
            os.chdir(here)
        if args.each:
            print(f"== {tree}\n{found.summary(args.examples)}")
        total.sites += found.sites
        total.records_only += found.records_only
        total.libcst_only += found.libcst_only
        total.parameters += found.parameters
        total.agreeing += found.agreeing
        total.differences.extend(
            type(d)(d.kind, f"{tree.name}/{d.path}", d.line, d.column, d.parameter, d.detail)
            for d in found.differences
        )
    print(f"== {len(args.trees)} trees\n{total.summary(args.examples)}")
    if args.all:
        for difference in total.differences:
            print(difference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
