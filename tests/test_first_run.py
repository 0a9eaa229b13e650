"""What a newcomer runs first: the README's commands, CI's script, the command line's help."""

from __future__ import annotations

import re
from pathlib import Path

from helpers import Cli

ROOT = Path(__file__).resolve().parent.parent


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Try it", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", section, re.S)


def test_readme_try_it_commands_use_a_virtual_environment_and_python3() -> None:
    install, tests = _readme_commands()[:2]
    for command in (install, tests):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install ")
        assert "python -m pip" not in command and not command.startswith("pip ")
    assert install.endswith(".venv/bin/claude-migrate check examples/support-desk")
    assert tests.endswith(".venv/bin/python -m pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [
        line for line in script.splitlines() if line.strip() and not line.startswith("#")
    ]
    tests = _readme_commands()[1]
    assert commands[-1] == tests
    assert "set -euo pipefail" in commands
    # Nothing may swallow pytest's exit status or its closing line.
    assert "|" not in tests and "|| true" not in script
