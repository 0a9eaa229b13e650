"""Test helpers: run the CLI in-process or as a real subprocess, build file trees."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from click.testing import CliRunner, Result

from claude_migrate.cli import main

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "fixtures"
SRC = REPO / "src"


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Create `files` (relative path -> text or bytes) under `root`; return `root`."""
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
    return root


def snapshot(root: Path) -> dict[str, bytes]:
    """Return every file under `root` (relative POSIX path -> bytes)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


class Cli:
    """Runs `claude-migrate` in-process with click's runner, in a chosen folder."""

    def __init__(self, cwd: Path) -> None:
        self.cwd = cwd

    def __call__(self, *args: str, input: str | None = None) -> Result:
        runner = CliRunner()
        old = os.getcwd()
        os.chdir(self.cwd)
        try:
            return runner.invoke(main, list(args), input=input, catch_exceptions=False)
        finally:
            os.chdir(old)

    def json(self, *args: str) -> dict:
        result = self(*args, "--format", "json")
        assert result.exit_code in (0, 1), result.output
        return json.loads(result.stdout)


def run_tree_tests(root: Path) -> subprocess.CompletedProcess[str]:
    """Run a checked tree's own tests with pytest, as its project would (no xdist, no cache,
    no pytest or Anthropic settings of this run's environment)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "ANTHROPIC_"))}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def run_subprocess(
    *args: str, cwd: Path, input: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m claude_migrate` as a real process, importing this checkout's code."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "claude_migrate", *args],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        text=True,
        timeout=120,
    )


EXPECT = re.compile(r"#\s*expect:\s*([A-Z0-9, ]+)")


def marked_lines(path: Path) -> set[tuple[int, str]]:
    """Return the (line, code) findings a file marks with `# expect: CODE[, CODE]` comments."""
    found = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = EXPECT.search(line)
        if match:
            found.update(
                (number, code) for code in re.split(r"[,\s]+", match.group(1).strip()) if code
            )
    return found


def marked_tree(
    root: Path, suffixes: tuple[str, ...] = (".py", ".txt")
) -> set[tuple[str, int, str]]:
    """Return the (relative path, line, code) findings marked in every file under `root`."""
    return {
        (path.relative_to(root).as_posix(), line, code)
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix in suffixes
        for line, code in marked_lines(path)
    }
