"""What a test expects of a call moves with what the code sends
(fixtures/retired-models/double_expectations.py holds the cases within one module)."""

from __future__ import annotations

import pytest
from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
APP = (
    "import anthropic\n\n\n"
    'def draft(text, model="claude-2.1"):\n'
    "    return anthropic.Anthropic().completions.create(\n"
    '        model=model, max_tokens_to_sample=300, prompt=f"\\n\\nHuman: {text}\\n\\nAssistant:"\n'
    "    )\n"
)
TEST = (
    "from unittest import mock\n\n"
    "from app import draft\n\n\n"
    '@mock.patch("anthropic.Anthropic")\n'
    "def test_draft(client):\n"
    '    draft("hi")\n'
    "    client.return_value.completions.create.assert_called_once_with(\n"
    '        model="claude-2.1", max_tokens_to_sample=300, prompt=mock.ANY\n'
    "    )\n"
)


@pytest.mark.xfail(
    strict=True,
    reason="an expectation in a test module is paired only with the literals of its own module: "
    "a default the code keeps in another module (a Text Completions call waiting for CM301) "
    "does not hold the test's expectation back",
)
def test_an_expectation_of_an_id_another_module_keeps_keeps_it(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"claude-migrate.toml": POLICY, "app.py": APP, "tests/test_app.py": TEST},
    )
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert (cli.cwd / "app.py").read_text() == APP
    assert (cli.cwd / "tests/test_app.py").read_text() == TEST
