"""A/B two checkouts of claude-migrate on one corpus: the same command, alternated.

    python bench/ab.py OLD/src NEW/src CORPUS [--reps 3] [-- check args...]

Each round runs `python -P -m claude_migrate check --quiet --exit-zero --no-cache --jobs 1
NAME` once with OLD's `src` first on the path and once with NEW's, alternating which goes
first, from the corpus's parent folder (as `bench/run.py` runs it). Both trees are
byte-compiled first, so neither pays for compiling itself. Prints, per side, the median of the
child's CPU time (user + system, which a shared machine disturbs far less than wall time) and of
its wall time, and the ratios new / old.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def run(src: Path, corpus: Path, extra: list[str]) -> tuple[float, float]:
    """Run one check of `corpus` with `src` first on the path; return (CPU, wall) seconds."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, "-P", "-m", "claude_migrate", "check", *extra, corpus.name]
    start = time.perf_counter()
    process = subprocess.Popen(
        command, cwd=corpus.parent, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(command)} failed with {src} first on the path")
    return usage.ru_utime + usage.ru_stime, wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("extra", nargs="*", help="check's options (after --)")
    args = parser.parse_args()
    extra = args.extra or ["--quiet", "--exit-zero", "--no-cache", "--jobs", "1"]
    sides = {"old": args.old.resolve(), "new": args.new.resolve()}
    for src in sides.values():
        compileall.compile_dir(src, quiet=1)
    times: dict[str, list[tuple[float, float]]] = {"old": [], "new": []}
    corpus = args.corpus.resolve()
    for rep in range(args.reps):
        order = ["old", "new"] if rep % 2 == 0 else ["new", "old"]
        for side in order:
            times[side].append(run(sides[side], corpus, extra))
    medians = {
        side: (statistics.median(t[0] for t in found), statistics.median(t[1] for t in found))
        for side, found in times.items()
    }
    for side, (cpu, wall) in medians.items():
        rounds = ", ".join(f"{c:.2f}" for c, _ in times[side])
        print(f"{side}: CPU {cpu:.3f} s (rounds {rounds}), wall {wall:.3f} s")
    old, new = medians["old"], medians["new"]
    print(f"new / old: CPU {new[0] / old[0]:.2f}, wall {new[1] / old[1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
