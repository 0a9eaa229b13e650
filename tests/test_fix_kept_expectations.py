"""CM302 moves an id in a test file only with the expectations that check it.

`Settings(model="claude-opus-4-20250514")` then `assert settings.model ==
"claude-opus-4-20250514"`: when the expectation keeps its id (a configuration text of the file
holds it too, which no fix rewrites), renaming the argument alone makes the test compare the
replacement with the old id, and it fails. The argument keeps its id too, naming the line of the
expectation.

`assert Settings().model == "claude-3-5-haiku-20241022"`, where the default is written in the
project's settings module and another test hands `Settings()` to a Claude call: the call's
finding in the test has no fix because the id is written in the other module, where its data
finding moves it. That is no reason for the expectation to keep the old id: it moves with the
default, and the tree's tests still pass.

Not yet: a default a prompt of the same function states (`input("Model (Enter for
claude-x): ") or "claude-x"`) is renamed while the prompt keeps offering the old id.
"""

from __future__ import annotations

import pytest
from helpers import Cli, run_tree_tests, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
SETTINGS = (
    "import tomllib\n"
    "from dataclasses import dataclass\n\n\n"
    "@dataclass\n"
    "class Settings:\n"
    "    model: str\n"
    '    provider: str = "anthropic"\n\n\n'
    "def load(text):\n"
    '    return Settings(**tomllib.loads(text)["llm"])\n'
)
PAIRED = (
    "from app.settings import Settings, load\n\n\n"
    "def test_custom_model():\n"
    '    settings = Settings(model="claude-opus-4-20250514", provider="openrouter")\n'
    '    assert settings.model == "claude-opus-4-20250514"\n\n\n'
    "def test_loaded_model():\n"
    "    settings = load('[llm]\\nmodel = \"claude-opus-4-20250514\"\\n')\n"
    '    assert settings.model == "claude-opus-4-20250514"\n'
)


def test_an_id_an_expectation_of_the_file_keeps_keeps_its_model(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "conftest.py": "",
            "app/__init__.py": "",
            "app/settings.py": SETTINGS,
            "tests/test_settings.py": PAIRED,
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [(d["line"], d["fix"]) for d in found] == [(5, None), (6, None), (11, None)]
    assert "a test of this file expects it (line 6)" in found[0]["message"]
    assert run_tree_tests(cli.cwd).returncode == 0
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_settings.py").read_text() == PAIRED
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr


DEFAULTED = (
    "from dataclasses import dataclass\n\n\n"
    "@dataclass\n"
    "class Settings:\n"
    '    model: str = "claude-3-5-haiku-20241022"\n'
    "    max_tokens: int = 512\n"
)
WRITER = (
    "import anthropic\n\n\n"
    "class Writer:\n"
    "    def __init__(self, model):\n"
    "        self.model = model\n\n"
    "    def write(self, prompt):\n"
    "        client = anthropic.Anthropic()\n"
    "        reply = client.messages.create(\n"
    "            model=self.model,\n"
    "            max_tokens=512,\n"
    '            messages=[{"role": "user", "content": prompt}],\n'
    "        )\n"
    "        return reply.content[0].text\n\n"
    "    @classmethod\n"
    "    def from_settings(cls, settings):\n"
    "        return cls(model=settings.model)\n"
)
DEFAULT_TEST = (
    "from app.settings import Settings\n"
    "from app.writer import Writer\n\n\n"
    "def test_writer_from_settings():\n"
    "    assert Writer.from_settings(Settings()).model\n\n\n"
    "def test_default_model():\n"
    '    assert Settings().model == "claude-3-5-haiku-20241022"\n'
)


def test_an_expected_default_moves_with_the_module_that_writes_it(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "conftest.py": "",
            "app/__init__.py": "",
            "app/settings.py": DEFAULTED,
            "app/writer.py": WRITER,
            "tests/test_settings.py": DEFAULT_TEST,
        },
    )
    assert run_tree_tests(cli.cwd).returncode == 0
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert "claude-3-5-haiku-20241022" not in (cli.cwd / "app/settings.py").read_text()
    assert "claude-3-5-haiku-20241022" not in (cli.cwd / "tests/test_settings.py").read_text()
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr


STATED = (
    "def choose():\n"
    '    answer = input("Model (Enter for claude-3-5-sonnet-20240620): ").strip()\n'
    '    return answer or "claude-3-5-sonnet-20240620"\n'
)


@pytest.mark.xfail(
    strict=True,
    reason="a default the same function states in a prompt text is renamed alone: the prompt "
    "still offers the old id while Enter gives the replacement",
)
def test_a_default_a_prompt_states_moves_with_the_prompt(cli: Cli) -> None:
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "wizard.py": STATED})
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    text = (cli.cwd / "wizard.py").read_text()
    assert text == STATED or "claude-3-5-sonnet-20240620" not in text
