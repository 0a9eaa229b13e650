"""SIGKILL during a bulk `fix` leaves every file exactly as it was or exactly as fixed.

A tree of 500 modules with six findings each is fixed by `claude-migrate fix` run as a real
process, which is killed with SIGKILL once a given share of the files has changed: sometimes the
whole process group at once (main process, fork server and workers, as an OOM killer or a CI
timeout does), sometimes the main process alone (its workers must then stop on their own).
After each kill every file is byte-identical to its original or to its fixed form, parses, and
no temporary file is left that discovery would pick up; after the last kill a second run
finishes the job.
"""

from __future__ import annotations

import ast
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from fixbulk import command, env, fixed_module, module

from claude_migrate.discovery.collect import discover

FILES = 500
CALLS = 3  # per file: each call has a CM101 and a CM102 finding
DEADLINE_SECONDS = 240  # a bound so a broken run cannot hang the suite; not a timing assertion

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _forms(n: int) -> tuple[bytes, bytes]:
    """Return the original and fixed bytes of file n (some CRLF, some latin-1 with a cookie)."""
    extra = ""
    encoding = "utf-8"
    if n % 7 == 0:
        extra = "# -*- coding: latin-1 -*-\n# caf\u00e9\n"
        encoding = "latin-1"
    original, fixed = module(CALLS, extra), fixed_module(CALLS, extra)
    if extra:
        original, fixed = extra + original, extra + fixed
    if n % 3 == 0:
        original, fixed = original.replace("\n", "\r\n"), fixed.replace("\n", "\r\n")
    return original.encode(encoding), fixed.encode(encoding)


FORMS = {f"pkg{n % 20:02}/mod_{n:03}.py": _forms(n) for n in range(FILES)}


def _write(root: Path) -> None:
    for name, (original, _) in FORMS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(original)


def _changed(root: Path) -> int:
    return sum((root / name).read_bytes() != original for name, (original, _) in FORMS.items())


def _group_alive(pgid: int) -> bool:
    """Return whether any non-zombie process is left in the process group."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            return True
    return False


def _wait_until(condition, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.02)


def _assert_each_file_original_or_fixed(root: Path) -> tuple[int, int]:
    counts = [0, 0]
    for name, (original, fixed) in FORMS.items():
        data = (root / name).read_bytes()
        assert data in (original, fixed), f"{name} is neither original nor fixed"
        counts[data == fixed] += 1
        ast.parse(data)
    leftovers = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()} - set(
        FORMS
    )
    for name in leftovers:
        assert name.endswith(".cm-tmp") and not name.endswith(".py"), name
    found = {c.path.relative_to(root).as_posix() for c in discover([root], lambda p: False)}
    assert found == set(FORMS)
    return counts[0], counts[1]


@pytest.mark.parametrize(
    ("share", "whole_group"),
    [(0.0, True), (0.3, False), (0.6, True)],
    ids=["first-file-group", "30%-main-only", "60%-group"],
)
def test_sigkill_leaves_every_file_original_or_fixed(
    tmp_path: Path, share: float, whole_group: bool
) -> None:
    _write(tmp_path)
    target = max(1, int(FILES * share))
    process = subprocess.Popen(
        command("fix", "--jobs", "2", "--quiet", "."),
        cwd=tmp_path,
        env=env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        _wait_until(
            lambda: process.poll() is not None or _changed(tmp_path) >= target,
            f"{target} files to change",
        )
        if process.poll() is not None:
            pytest.fail(f"the run ended (exit {process.returncode}) before {target} files changed")
        if whole_group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        assert process.wait() == -signal.SIGKILL
        # With the main process gone, the fork server and workers must stop by themselves.
        _wait_until(lambda: not _group_alive(process.pid), "the workers to exit")
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    untouched, fixed = _assert_each_file_original_or_fixed(tmp_path)
    assert fixed >= target
    assert untouched > 0, "the kill came after the last file"
    if share < 0.5:
        return
    resumed = subprocess.run(
        command("fix", "--quiet", "."), cwd=tmp_path, env=env(), capture_output=True, timeout=300
    )
    assert resumed.returncode == 0, resumed.stderr
    for name, (_, fixed_bytes) in FORMS.items():
        assert (tmp_path / name).read_bytes() == fixed_bytes, name
