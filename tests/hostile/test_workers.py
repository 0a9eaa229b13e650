"""Hostile trees against the processes: no code of the checked tree runs, no file ends the run.

Every test here starts real processes: the console script or `python -m claude_migrate` in a
folder holding modules that shadow the standard library, worker processes, a real SIGINT to a
real process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fixbulk import env, fixed_module, module
from helpers import write_tree
from operations import python_calls

from claude_migrate.core.job import Limits
from claude_migrate.core.settings import FileSettings
from claude_migrate.engine import hazard
from claude_migrate.engine import runner as engine
from claude_migrate.engine.pool import CRASHED, TIMED_OUT, Crash, run_in_workers
from claude_migrate.policy.config import PolicyLoader

# Modules a Python process (or its multiprocessing machinery) imports on its way to work.
SHADOWS = (
    "enum", "signal", "socket", "pickle", "re", "selectors", "struct", "tempfile", "threading",
    "sitecustomize", "usercustomize", "libcst", "faulthandler", "multiprocessing", "anthropic",
)  # fmt: skip


def _hostile(root: Path, markers: Path) -> None:
    """Put modules and packages named like the standard library's at `root`; each leaves a mark."""
    markers.mkdir(exist_ok=True)
    for name in SHADOWS:
        body = f"open({str(markers / name)!r}, 'w').close()\n"
        if name in ("multiprocessing", "libcst"):
            write_tree(root, {f"{name}/__init__.py": body, f"{name}/connection.py": body})
        else:
            write_tree(root, {f"{name}.py": body})


def _tree(root: Path, files: int, extra: dict[str, str] | None = None) -> dict[str, str]:
    written = {f"app/mod_{n:02}.py": module(2) for n in range(files)}
    written.update(extra or {})
    write_tree(root, written)
    return written


def _console_script() -> str:
    script = Path(sys.executable).with_name("claude-migrate")
    assert script.exists(), script
    return str(script)


def _run(
    *args: str, cwd: Path, via: str = "module", timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "claude_migrate"] if via == "module" else [_console_script()]
    return subprocess.run(
        [*command, *args], cwd=cwd, env=env(), capture_output=True, text=True, timeout=timeout
    )


@pytest.mark.parametrize(
    ("via", "files"),
    [("module", engine.PARALLEL_MIN_FILES + 2), ("console-script", 2)],
    ids=["python-m-pool", "console-script-one-process"],
)
def test_check_never_imports_a_module_of_the_checked_tree(
    tmp_path: Path, via: str, files: int
) -> None:
    tree = tmp_path / "tree"
    markers = tmp_path / "markers"
    # One deep file, so the one-process run starts a worker too.
    deep = "x = " + "(" * 100 + "1" + ")" * 100 + "\n"
    _tree(tree, files, {"app/deep.py": module(1, extra=deep)})
    _hostile(tree, markers)
    completed = _run("check", "-q", "--no-cache", ".", cwd=tree, via=via)
    assert completed.returncode == 1, completed.stderr
    assert "app/mod_00.py:" in completed.stdout
    assert "app/deep.py:" in completed.stdout
    assert sorted(p.name for p in markers.iterdir()) == []


_SPY = (
    "([getattr(m, '__file__', None) or '' for m in list(__import__('sys').modules.values())],"
    " list(__import__('sys').path))"
)


def test_workers_ignore_the_working_folder_and_python_variables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tree = tmp_path / "tree"
    markers = tmp_path / "markers"
    _hostile(tree, markers)
    monkeypatch.chdir(tree)
    monkeypatch.setenv("PYTHONPATH", str(tree))
    monkeypatch.setenv("PYTHONSTARTUP", str(tree / "enum.py"))
    monkeypatch.setenv("PYTHONUSERBASE", str(tree))
    outcomes = dict(run_in_workers(eval, [(0, _SPY), (1, _SPY)], 2, 1, setup=engine.worker_setup))
    assert set(outcomes) == {0, 1}
    for seen in outcomes.values():
        assert not isinstance(seen, Crash), seen
        files, path = seen
        assert "" not in path and str(tree) not in path, path
        assert [f for f in files if f.startswith(str(tree))] == []
        # The worker did import the real LibCST and this package, from their installed places.
        assert any(f.endswith(os.path.join("libcst", "__init__.py")) for f in files)
        assert any(f.endswith(os.path.join("claude_migrate", "engine", "runner.py")) for f in files)
    assert list(markers.iterdir()) == []


def test_a_worker_that_segfaults_costs_only_its_item() -> None:
    segfault = "__import__('ctypes').string_at(0)"  # reads address 0: a real SIGSEGV
    items = [(0, "1 + 1"), (1, segfault), (2, "2 + 2")]
    outcomes = dict(run_in_workers(eval, items, 1, 3))
    assert outcomes[0] == 2 and outcomes[2] == 4
    crash = outcomes[1]
    assert isinstance(crash, Crash) and crash.cause == CRASHED
    assert "Segmentation fault" in crash.detail, crash.detail


def test_an_item_over_the_time_limit_is_stopped_and_the_rest_still_run() -> None:
    items = [(0, 0.0), (1, 30.0), (2, 0.0)]
    started = time.monotonic()
    outcomes = dict(run_in_workers(time.sleep, items, 1, 3, limits=Limits(seconds=1.0)))
    assert time.monotonic() - started < 20
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], Crash) and outcomes[1].cause == TIMED_OUT
    assert "per-file time limit of 1 s" in outcomes[1].detail


DEEP_PARENS = "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
LONG_SUM = "x = " + " + ".join(["a"] * 50_000) + "\n"


def test_deep_and_huge_files_are_measured_as_hazards_cheaply() -> None:
    assert hazard.needs_isolation(DEEP_PARENS.encode())
    assert hazard.needs_isolation(LONG_SUM.encode())
    assert hazard.needs_isolation(("y = (\n" + " +\n".join(["a"] * 5000) + ")\n").encode())
    ordinary = module(40).encode()
    assert not hazard.needs_isolation(ordinary)
    # Brackets and operators inside strings and comments do not count.
    quoted = b'x = "' + b"(" * 500 + b'"\n# ' + b"+" * 5000 + b'\ny = """' + b"[" * 500 + b'"""\n'
    assert hazard.measure(quoted).depth == 0
    assert not hazard.needs_isolation(quoted)


def test_deep_and_huge_expressions_are_a_cm001_never_a_crash_of_the_run(tmp_path: Path) -> None:
    # A one-process run (`--jobs 1`, as few files as a pre-commit hook gets): the two files
    # leave the main process; in a pool run they are in workers anyway (test_fix_crash.py).
    files = _tree(
        tmp_path,
        2,
        {"app/deep.py": module(1, extra=DEEP_PARENS), "app/long.py": module(1, extra=LONG_SUM)},
    )
    started = time.monotonic()
    completed = _run("fix", "--jobs", "1", "--file-timeout", "4", "--no-cache", "app", cwd=tmp_path)
    assert time.monotonic() - started < 90
    assert completed.returncode == 1, (completed.returncode, completed.stderr)
    errors = [line for line in completed.stdout.splitlines() if ": CM001 " in line]
    assert [line.split(":")[0] for line in errors] == ["app/deep.py", "app/long.py"], errors
    assert "worker process crashed" in errors[0] or "nest" in errors[0], errors[0]
    assert "per-file time limit of 4 s" in errors[1] or "crashed" in errors[1], errors[1]
    assert (tmp_path / "app/deep.py").read_text() == files["app/deep.py"]
    assert (tmp_path / "app/long.py").read_text() == files["app/long.py"]
    assert (tmp_path / "app/mod_00.py").read_text() == fixed_module(2)


def test_a_file_over_the_memory_limit_is_a_cm001_naming_the_limit(tmp_path: Path) -> None:
    # Each level of a conditional expression costs LibCST about half a megabyte.
    chain = "x = " + "a if b else " * 1200 + "c\n"
    _tree(tmp_path, 1, {"app/big.py": module(1, extra=chain)})
    completed = _run(
        "check", "--jobs", "1", "--file-memory", "64", "--no-cache", "app", cwd=tmp_path
    )
    assert completed.returncode == 1, completed.stderr
    errors = [line for line in completed.stdout.splitlines() if ": CM001 " in line]
    assert len(errors) == 1 and errors[0].startswith("app/big.py:"), completed.stdout
    assert "memory limit of 64 MiB" in errors[0], errors[0]


def test_a_native_out_of_memory_is_a_cm001_never_a_backtrace_on_stderr(tmp_path: Path) -> None:
    # LibCST's native tokenizer asks for one block for a whole line's tokens; past the limit its
    # allocator aborts the worker, printing what the Rust runtime prints (and its backtrace where
    # the environment sets RUST_BACKTRACE, as CI images often do). That is the worker's own
    # business: the run says it once, in the file's CM001.
    one_line = "x = [" + "1," * 1_000_000 + "]\n"
    _tree(tmp_path, 1, {"app/big.py": module(1, extra=one_line)})
    completed = subprocess.run(
        [sys.executable, "-m", "claude_migrate", "check", "--jobs", "1", "--file-memory", "64",
         "--no-cache", "app"],
        cwd=tmp_path, env={**env(), "RUST_BACKTRACE": "1"}, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert completed.returncode == 1, completed.stderr
    errors = [line for line in completed.stdout.splitlines() if ": CM001 " in line]
    assert len(errors) == 1 and errors[0].startswith("app/big.py:"), completed.stdout
    assert "memory allocation of" in errors[0] and "memory limit of 64 MiB" in errors[0]
    assert completed.stderr == "", completed.stderr


def _temporary_files(root: Path) -> list[str]:
    return [p.name for p in root.rglob("*") if p.name.endswith(".cm-tmp")]


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_stops_the_workers_and_exits_130_leaving_files_original_or_fixed(
    tmp_path: Path,
) -> None:
    # Enough files that the run is still writing long after the third one, even on a machine
    # busy enough to hold this test process back for a while between the check and the signal.
    files = _tree(tmp_path, 120)
    process = subprocess.Popen(
        [sys.executable, "-m", "claude_migrate", "fix", "--jobs", "2", "--no-cache", "app"],
        cwd=tmp_path,
        env=env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        # As a terminal starts it: Ctrl-C handled and not blocked, whatever the test runner's
        # process (a pytest-xdist worker, a CI shell) did with SIGINT.
        preexec_fn=_default_sigint,
    )
    try:
        deadline = time.monotonic() + 120
        while process.poll() is None and time.monotonic() < deadline:
            changed = sum((tmp_path / name).read_text() != text for name, text in files.items())
            if changed >= 3:
                break
            time.sleep(0.01)
        assert process.poll() is None, "the run ended before it could be interrupted"
        os.killpg(process.pid, signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    states = [(tmp_path / name).read_text() for name in files]
    fixed = states.count(fixed_module(2))
    assert process.returncode == 130, (stderr, f"{fixed} of {len(files)} files fixed")
    assert "Traceback" not in stderr and "Aborted!" not in stderr
    pairs = zip(files, states, strict=True)
    assert all(text in (files[name], fixed_module(2)) for name, text in pairs)
    assert 3 <= states.count(fixed_module(2)) < len(files)
    assert _temporary_files(tmp_path) == []
    # No worker outlives the run.
    time.sleep(0.2)
    leftover = subprocess.run(
        ["pgrep", "-g", str(process.pid)], capture_output=True, text=True
    ).stdout.split()
    assert leftover == []


def _module_of_calls(calls: int) -> str:
    return "import anthropic\n\nclient = anthropic.Anthropic()\n" + "".join(
        f'r{n} = client.messages.create(model="claude-sonnet-4-6", max_tokens=100, messages=[])\n'
        for n in range(calls)
    )


def _cm104_calls(module_text: str, calls: int, settings: FileSettings) -> int:
    """Return how many Python function calls CM104 makes over a module (parse and shared indexes
    excluded)."""
    import libcst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.checks.streaming import StreamingCheck
    from claude_migrate.core.source import SourceText

    tree = libcst.parse_module(module_text)
    ctx = FileContext("m.py", SourceText(module_text), tree, settings)
    ctx.sites, ctx.span(tree)  # the shared indexes every check reads, built before counting
    check = StreamingCheck(settings.table(StreamingCheck.name))
    found, count = python_calls(lambda: list(check.check(ctx)))
    assert len(found) == calls and all(d.fix is not None for d in found)
    return count


def test_cm104_work_grows_linearly_with_the_calls_in_one_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every call's fix needs a fresh name (`stream`, `stream_1`, ...) from the names in its scope.

    Collecting them once per scope is linear: ten times the calls, ten times the work (measured
    as Python function calls: 59,641 for 100 calls, 586,400 for 1,000). Collecting them once per
    call, as CM104 once did, is quadratic: 198,881 and 14,585,388, seventy times. The bound
    tells the two apart; a count, unlike a time, is the same on a loaded machine.
    """
    monkeypatch.chdir(tmp_path)
    settings = PolicyLoader(None).for_path(tmp_path / "m.py").settings_for(tmp_path / "m.py")
    small = _cm104_calls(_module_of_calls(100), 100, settings)
    large = _cm104_calls(_module_of_calls(1000), 1000, settings)
    assert large < 20 * small, (small, large)


def test_a_file_only_libcst_rejects_names_the_construct_and_the_limit(tmp_path: Path) -> None:
    source = module(1, extra="(limit): int = 1\n")
    write_tree(tmp_path, {"app/annotated.py": source})
    completed = _run("check", "--no-cache", "app", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    [error] = [line for line in completed.stdout.splitlines() if ": CM001 " in line]
    assert error.startswith("app/annotated.py:4:1: CM001 Python accepts this file but LibCST")
    assert "LibCST limit" in error and "`(limit)` is in parentheses" in error
