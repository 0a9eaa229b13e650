"""A/B the command line called many times in one process (an editor's, a test suite's, a script
driving `claude_migrate.cli.main`): per-call CPU as the calls pile up.

    python bench/in_process.py OLD/src NEW/src TREE [--calls 200] [--reps 3] [--heap 0]

Each side runs in its own child process, `src` first on the path: the child calls
`check --no-cache --jobs 1 --format json TREE` in-process `--calls` times and prints the CPU
(user + system) of the first ten calls and of the last ten. Sides alternate, `--reps` rounds;
the medians are printed with the ratios new / old. A call that costs more as calls pile up shows
as a last-ten figure above the first-ten one. `--heap N` first allocates N small objects the
host keeps (a test suite's or an editor's own heap), for costs that grow with the host's heap.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import contextlib, io, json, resource, sys
from claude_migrate.cli import main

def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime

tree, calls, heap = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
host = [{"n": n} for n in range(heap)]
costs = []
for _ in range(calls):
    start = cpu()
    with contextlib.redirect_stdout(io.TextIOWrapper(io.BytesIO(), encoding="utf-8")):
        try:
            main(["check", "--no-cache", "--jobs", "1", "--format", "json", tree],
                 standalone_mode=False)
        except SystemExit:
            pass
    costs.append(cpu() - start)
print(json.dumps({"first": sum(costs[:10]), "last": sum(costs[-10:])}))
"""


def run(src: Path, tree: Path, calls: int, heap: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run(
        [sys.executable, "-P", "-c", CHILD, str(tree), str(calls), str(heap)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    result: dict[str, float] = json.loads(out.splitlines()[-1])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--heap", type=int, default=0)
    args = parser.parse_args()
    sides = {"old": args.old.resolve(), "new": args.new.resolve()}
    found: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for rep in range(args.reps):
        for side in ["old", "new"] if rep % 2 == 0 else ["new", "old"]:
            found[side].append(run(sides[side], args.tree.resolve(), args.calls, args.heap))
    medians = {
        side: {key: statistics.median(r[key] for r in rounds) for key in ("first", "last")}
        for side, rounds in found.items()
    }
    for side, m in medians.items():
        print(f"{side}: first ten calls {m['first']:.3f} s CPU, last ten {m['last']:.3f} s")
    old, new = medians["old"], medians["new"]
    print(
        f"new / old: first ten {new['first'] / old['first']:.2f}, "
        f"last ten {new['last'] / old['last']:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
