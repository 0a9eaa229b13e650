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
    steps = tests.split(" && ")
    assert ".venv/bin/python -m pytest -n auto" in steps
    # The linters run after the tests, in the same environment, with pyproject.toml's settings.
    assert steps[steps.index(".venv/bin/python -m pytest -n auto") + 1 :] == [
        ".venv/bin/ruff check",
        ".venv/bin/ruff format --check",
        ".venv/bin/mypy",
    ]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    commands = [line for line in script.splitlines() if line.strip() and not line.startswith("#")]
    tests = _readme_commands()[1]
    assert commands[-1] == tests
    assert "set -euo pipefail" in commands
    # Nothing may swallow an exit status: each step runs only when the one before passed.
    assert "|" not in tests and "|| true" not in script


def test_short_version_flag_prints_the_version(cli: Cli) -> None:
    from claude_migrate import __version__

    result = cli("-V")
    assert result.exit_code == 0
    assert result.stdout.strip() == f"claude-migrate, version {__version__}"


def test_help_lists_every_command_in_full_and_explains_the_marker(cli: Cli) -> None:
    from claude_migrate.cli import main

    text = " ".join(cli("--help").stdout.split())
    assert "..." not in text.split("Commands:")[1]
    for command in main.commands.values():
        first = " ".join((command.help or "").split("\n\n")[0].split())
        assert first and first in text, command.name
    assert "`[*]` after a finding's code marks one that `claude-migrate fix` fixes" in text
    assert "[*]" in " ".join(cli("check", "--help").stdout.split())


def test_summary_explains_the_fix_marker(cli: Cli) -> None:
    (cli.cwd / "a.py").write_text(
        "import anthropic\nanthropic.Anthropic().messages.create(model='claude-sonnet-4-6', "
        "max_tokens=10, temperature=0.9, messages=[], stream=True)\n"
    )
    result = cli("check")
    assert "CM101 [*] temperature 0.9" in result.stdout
    assert "[*] marks what `claude-migrate fix` fixes." in result.stdout
    clean = cli("check", "--select", "CM104")
    assert "[*]" not in clean.stdout  # no marker shown, no explanation needed


def test_a_syntax_error_is_described_once(cli: Cli) -> None:
    (cli.cwd / "bad.py").write_text("import anthropic\ndef f(:\n")
    (cli.cwd / "open.py").write_text("import anthropic\nx = (1,\n")
    result = cli("check")
    assert "bad.py:2:7: CM001 invalid syntax\n" in result.stdout
    assert "open.py:2:5: CM001 invalid syntax: '(' was never closed" in result.stdout
    assert "invalid syntax: invalid syntax" not in result.stdout


BAD_POLICY = """\
extend = "default"
selct = ["CM"]

[max_tokens]
max = 10

[temperature]
maximum = 0.5
fix-to = "zero"

[[overrides]]
paths = ["x/**"]
temprature = { max = 1.0 }
"""


def test_every_policy_error_is_reported_at_once_by_line_with_suggestions(cli: Cli) -> None:
    (cli.cwd / "claude-migrate.toml").write_text(BAD_POLICY)
    (cli.cwd / "a.py").write_text("x = 1\n")
    result = cli("check")
    assert result.exit_code == 2
    lines = [line.strip() for line in result.stderr.splitlines()]
    assert lines[0] == "claude-migrate: error: 5 problems in the policy:"
    found = [line.split(": ", 2)[:2] for line in lines[1:]]
    assert found == [
        ["claude-migrate.toml:2", "`selct`"],
        ["claude-migrate.toml:4", "`max_tokens`"],
        ["claude-migrate.toml:8", "`temperature.maximum`"],
        ["claude-migrate.toml:9", "`temperature.fix-to`"],
        ["claude-migrate.toml:13", "`overrides[0].temprature`"],
    ]
    assert lines[1].endswith("did you mean `select`?")
    assert "unknown table" in lines[2] and lines[2].endswith("did you mean `max-tokens`?")
    assert lines[3].endswith("did you mean `max`?")
    assert lines[5].endswith("did you mean `temperature`?")


def test_a_broken_policy_is_reported_even_with_no_file_to_check(cli: Cli) -> None:
    (cli.cwd / "claude-migrate.toml").write_text("selct = []\n")
    result = cli("check")
    assert result.exit_code == 2
    assert "claude-migrate.toml:1: `selct`: unknown key" in result.stderr


def test_init_creates_the_folder_it_is_given(cli: Cli) -> None:
    result = cli("init", "new/service")
    assert result.exit_code == 0, result.output
    assert (cli.cwd / "new" / "service" / "claude-migrate.toml").is_file()
    (cli.cwd / "file").write_text("")
    refused = cli("init", "file")
    assert refused.exit_code == 2


def test_init_template_examples_are_current(cli: Cli) -> None:
    import datetime as dt

    cli("init")
    text = (cli.cwd / "claude-migrate.toml").read_text()
    # The date options' examples lie ahead (the api-version values are versions, not examples).
    dates = [dt.date.fromisoformat(d) for d in re.findall(r"as-of = (\d{4}-\d{2}-\d{2})", text)]
    assert dates and all(d > dt.date.today() for d in dates)
    assert '# [severity]\n# CM302 = "warning"' in text
    # The starter policy, uncommented, loads.
    uncommented = re.sub(r"^# (\[severity\]|CM302 = )", r"\1", text, flags=re.M)
    (cli.cwd / "claude-migrate.toml").write_text(uncommented)
    data = cli("show-policy", "a.py", "--format", "json")
    assert data.exit_code == 0, data.output


def test_show_policy_of_a_path_that_does_not_exist_yet(cli: Cli) -> None:
    (cli.cwd / "claude-migrate.toml").write_text(
        '[severity]\nCM104 = "info"\n'
        '[[overrides]]\npaths = ["new/**"]\ntemperature = { max = 0.7 }\n'
    )
    result = cli("show-policy", "new/module/planned.py", "--format", "json")
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.stdout)
    assert data["tables"]["temperature"]["max"]["value"] == 0.7
    assert data["severity"]["CM104"]["value"] == "info"
    assert data["severity"]["CM101"] == {"value": "error", "origin": "the rule's default"}
