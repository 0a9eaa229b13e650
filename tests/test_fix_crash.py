"""A worker process that dies on one file costs that file only: it is reported, the rest fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fixbulk import CRASH_SITE, fixed_module, module, run_cli
from helpers import write_tree

from claude_migrate.engine.runner import PARALLEL_MIN_FILES

# LibCST's native parser overflows its stack on 20,000 chained `not`s: a real segfault (LibCST
# 1.x), in a fraction of a second. CPython answers the same text with a MemoryError, not a
# SyntaxError, so nothing but the parse can report it. Deep files are parsed in a worker even on
# a one-process run. (A 5,000-deep parenthesised expression is CPython's "too many nested
# parentheses", reported in its words before LibCST sees it: tests/hostile/test_bounds.py.)
SEGFAULTS_LIBCST = "x = " + "not " * 20000 + "a\n"


def _crash_tree(tmp_path: Path, extra: str = "# CRASH-THIS-WORKER\n") -> tuple[dict[str, str], str]:
    files = {f"pkg/mod_{n:02}.py": module(2) for n in range(PARALLEL_MIN_FILES + 8)}
    crashing = "pkg/mod_07.py"
    files[crashing] = module(2, extra=extra)
    write_tree(tmp_path, files)
    return files, crashing


@pytest.mark.parametrize("jobs", ["2", "1"])
def test_worker_crash_reports_that_file_and_fixes_the_others(tmp_path: Path, jobs: str) -> None:
    files, crashing = _crash_tree(tmp_path, extra=SEGFAULTS_LIBCST)
    args = ["fix", "--jobs", jobs, "--report", "report.json", "pkg"]
    completed = run_cli(*args, cwd=tmp_path)

    assert completed.returncode == 1, completed.stderr
    message = "worker process crashed on this file: Fatal Python error: Segmentation fault"
    assert f"{crashing}: CM001 {message}" in completed.stdout
    assert (tmp_path / crashing).read_text() == files[crashing]
    for name in files:
        if name != crashing:
            assert (tmp_path / name).read_text() == fixed_module(2), name
    report = json.loads((tmp_path / "report.json").read_text())
    assert [(e["path"], e["code"], e["line"]) for e in report["errors"]] == [
        (crashing, "CM001", None)
    ]
    assert report["errors"][0]["message"].startswith(message)
    assert len(report["changed"]) == len(files) - 1


def test_crash_in_the_only_process_leaves_every_file_original_or_fixed(tmp_path: Path) -> None:
    files, _ = _crash_tree(tmp_path)
    completed = run_cli("fix", "--jobs", "1", "pkg", cwd=tmp_path, extra_paths=(CRASH_SITE,))
    assert completed.returncode == 3  # the process died; nothing could report it
    states = [(tmp_path / name).read_text() for name in files]
    assert all(
        text in (files[name], fixed_module(2)) for name, text in zip(files, states, strict=True)
    )
    assert fixed_module(2) in states  # files before the crash were fixed
