"""Shared helpers of the bulk-fix tests: generated trees of Claude calls, subprocess runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers import SRC

TESTS = Path(__file__).resolve().parent
CRASH_SITE = TESTS / "crash_site"

HEADER = "import anthropic\n\nclient = anthropic.Anthropic()\n"
CALL = (
    "\n\ndef ask_{n}(prompt):\n"
    "    return client.messages.create(\n"
    '        model="claude-sonnet-4-6",\n'
    "        temperature=0.9,\n"
    "        max_tokens=4096,\n"
    '        messages=[{{"role": "user", "content": prompt}}],\n'
    "        stream=True,\n"
    "    )\n"
)
FIXED_CALL = CALL.replace("temperature=0.9", "temperature=0.0").replace(
    "max_tokens=4096", "max_tokens=1024"
)


def module(calls: int, extra: str = "") -> str:
    """Return a module with `calls` Claude calls, each with a CM101 and a CM102 finding."""
    return HEADER + extra + "".join(CALL.format(n=n) for n in range(calls))


def fixed_module(calls: int, extra: str = "") -> str:
    return HEADER + extra + "".join(FIXED_CALL.format(n=n) for n in range(calls))


def env(*extra_paths: Path) -> dict[str, str]:
    """Return the environment of a `claude-migrate` subprocess importing this checkout."""
    variables = dict(os.environ)
    paths = [str(p) for p in extra_paths] + [str(SRC)]
    if variables.get("PYTHONPATH"):
        paths.append(variables["PYTHONPATH"])
    variables["PYTHONPATH"] = os.pathsep.join(paths)
    return variables


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "claude_migrate", *args]


def run_cli(
    *args: str, cwd: Path, extra_paths: tuple[Path, ...] = ()
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(*args), cwd=cwd, env=env(*extra_paths), capture_output=True, text=True, timeout=300
    )
