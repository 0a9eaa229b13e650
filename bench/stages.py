"""Where the time of a cold run goes, stage by stage, over the files the prefilter keeps.

    python bench/stages.py bench/.corpus/anthropic

One process, each stage timed over every kept file, LibCST's own way beside ours where we
replaced it (its visit for the module index, PositionProvider for positions). The numbers
explain the ratios bench/run.py prints; bench/README.md records them.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def main(root: Path) -> None:
    from claude_migrate.api import collect_jobs
    from claude_migrate.engine.runner import (
        PARSE,
        SKIP,
        checks_for,
        file_role,
        prefilter,
        run_checks,
    )
    from claude_migrate.policy.config import PolicyLoader

    started = time.perf_counter()
    jobs = collect_jobs([root], PolicyLoader(cwd=root))
    listed = time.perf_counter() - started
    started = time.perf_counter()
    verdicts = [
        (job, prefilter(Path(job.path).read_bytes(), job.settings, job.kind, job.path))
        for job in jobs
    ]
    filtered = time.perf_counter() - started
    kept = [job for job, verdict in verdicts if verdict == PARSE and job.kind == "python"]
    compiled_only = [job for job, verdict in verdicts if verdict not in (PARSE, SKIP)]
    texts = [Path(job.path).read_text(encoding="utf-8") for job in kept]

    started = time.perf_counter()
    import libcst as cst
    from libcst.metadata import MetadataWrapper, PositionProvider

    imported = time.perf_counter() - started

    def timed(label: str, work) -> object:  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        out = work()
        rows.append((label, time.perf_counter() - start))
        return out

    rows: list[tuple[str, float]] = [
        ("discover and assign policies", listed),
        (f"read and prefilter {len(jobs)} files", filtered),
        ("import libcst", imported),
    ]
    import ast

    timed(
        f"CPython compile of {len(compiled_only)} stage-two files",
        lambda: [ast.parse(Path(j.path).read_bytes()) for j in compiled_only],
    )
    lines = sum(t.count("\n") for t in texts)
    modules = timed(
        f"LibCST parse of {len(kept)} files ({lines:,} lines)",
        lambda: [cst.parse_module(t) for t in texts],
    )
    from claude_migrate.analysis.scope import ModuleIndex
    from claude_migrate.analysis.walk import walk

    class Visited(ModuleIndex, cst.CSTVisitor):
        pass

    timed("module index, LibCST visit (before)", lambda: [m.visit(Visited()) for m in modules])  # type: ignore[union-attr]
    timed("module index, walk (after)", lambda: [walk(m, ModuleIndex()) for m in modules])  # type: ignore[union-attr]
    timed(
        "positions, PositionProvider (before)",
        lambda: [
            MetadataWrapper(m, unsafe_skip_copy=True).resolve(PositionProvider) for m in modules
        ],  # type: ignore[union-attr]
    )
    from claude_migrate.analysis.positions import node_spans

    timed(
        "positions, node_spans (after)",
        lambda: [node_spans(m, t) for m, t in zip(modules, texts, strict=True)],
    )  # type: ignore[arg-type]
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.source import SourceText

    def checks() -> None:
        for job, module, text in zip(kept, modules, texts, strict=True):  # type: ignore[call-overload]
            ctx = FileContext(job.display, SourceText(text), module, job.settings)
            run_checks(ctx, checks_for(job.settings, job.kind, file_role(job.path)), job.display)

    timed("every enabled check (index, positions and rules)", checks)
    parse = next(seconds for label, seconds in rows if label.startswith("LibCST parse"))
    width = max(len(label) for label, _ in rows)
    for label, seconds in rows:
        print(f"{label:<{width}}  {seconds:7.3f} s  {seconds / parse:5.2f}x parse")


if __name__ == "__main__":
    main(Path(sys.argv[1]).resolve())
