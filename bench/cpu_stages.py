"""Where a real run's CPU goes: `check` run in this process, each stage's CPU time summed.

    python bench/cpu_stages.py bench/.corpus/anthropic [check options...]

Runs `claude-migrate check --quiet --exit-zero --no-cache --jobs 1 CORPUS` (or the options
given) from the corpus's parent folder, with a timer (`time.process_time`) around the functions
of each stage, and prints each stage's CPU seconds and share of the run (imports excluded). A
stage nested in another is counted in both; a function re-entered counts once. Unlike cProfile,
which inflates code made of many small Python calls, the wrappers cost only at the stages'
entries, so the shares are those of a plain run. On a shared machine compare shares, not seconds.
"""

from __future__ import annotations

import collections
import functools
import os
import sys
import time
from pathlib import Path
from typing import Any

SPENT: collections.Counter[str] = collections.Counter()
CALLS: collections.Counter[str] = collections.Counter()
ORDER: list[str] = []


def timed(owner: Any, name: str, label: str) -> None:
    """Replace `owner.name` by a wrapper adding its CPU time to `label`."""
    real = getattr(owner, name)
    inside = [0]
    ORDER.append(label)

    @functools.wraps(real)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if inside[0]:
            return real(*args, **kwargs)
        inside[0] += 1
        started = time.process_time()
        try:
            return real(*args, **kwargs)
        finally:
            SPENT[label] += time.process_time() - started
            CALLS[label] += 1
            inside[0] -= 1

    setattr(owner, name, wrapper)


def main(corpus: Path, options: list[str]) -> None:
    from claude_migrate import api, cli
    from claude_migrate.engine import runner
    from claude_migrate.project import phase

    timed(api, "_collect_work", "discovery and policies")
    timed(runner, "attach_project", "project phase, views included")
    timed(phase, "build", "  build (summaries, fixed point, growth)")
    timed(phase, "_add_naming_files", "    summaries of the files naming Claude")
    timed(phase, "_parse_module", "      parse, summary and triage sites")
    timed(phase.ast, "parse", "        ast.parse (any caller: literal_eval too)")
    timed(phase, "summarise_tree", "        summarise_tree")
    timed(phase, "read_sites", "        read_sites")
    timed(phase.Project, "solve", "    fixed point (every solve)")
    timed(phase._Growth, "step", "    growth steps (their solves included)")
    timed(phase.Project, "_derive", "    derived facts (every derivation)")
    timed(runner, "_decide_in_main", "prefilter, decoding and triage")
    timed(runner, "_process_heavy", "files sent to LibCST")
    timed(runner, "_parse", "  LibCST parse (its import included)")
    timed(runner, "_run_checks", "  checks (index, positions, rules)")
    # With a cache (options without --no-cache): its keys, reads and writes.
    timed(phase, "_run_key", "the phase's cache key")
    timed(phase, "_store_views", "the phase's views stored")
    timed(runner, "lookup", "result cache keys and reads")
    timed(runner, "_store_fresh", "result cache writes")
    os.chdir(corpus.parent)
    args = options or ["--quiet", "--exit-zero", "--no-cache", "--jobs", "1"]
    started = time.process_time()
    try:
        cli.main(["check", *args, corpus.name], standalone_mode=False)
    finally:
        total = time.process_time() - started
        print(f"{corpus.name}: {total:.2f} s of CPU after imports", file=sys.stderr)
        for label in ORDER:
            seconds = SPENT[label]
            share = 100 * seconds / total if total else 0.0
            print(
                f"  {label:<44} {seconds:7.2f} s {share:5.1f}%  ({CALLS[label]} calls)",
                file=sys.stderr,
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve(), sys.argv[2:])
