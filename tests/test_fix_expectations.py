"""What a test expects of a call moves with what the code sends
(fixtures/retired-models/double_expectations.py holds the cases within one module)."""

from __future__ import annotations

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


def test_an_expectation_of_a_text_completions_call_keeps_its_id_wherever_the_call_is(
    cli: Cli,
) -> None:
    # The call, in another module, keeps its model until CM301 moves it: so does the test.
    write_tree(
        cli.cwd,
        {"claude-migrate.toml": POLICY, "app.py": APP, "tests/test_app.py": TEST},
    )
    result = cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "a test expects a Text Completions call with it" in result.output
    assert (cli.cwd / "app.py").read_text() == APP
    assert (cli.cwd / "tests/test_app.py").read_text() == TEST


def test_an_expectation_of_an_openai_compatible_chat_call_is_renamed(cli: Cli) -> None:
    # `chat.completions.create` is not Text Completions: its model is renamed as any other.
    test = TEST.replace("completions.create", "chat.completions.create")
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "tests/test_chat.py": test})
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert '"claude-sonnet-4-6"' in (cli.cwd / "tests/test_chat.py").read_text()
