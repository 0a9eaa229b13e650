"""CM302 and CM304 keep the model of a call its test expects again in what the code gives back.

`ChatBedrockConverse(model="anthropic.claude-3-sonnet-20240229-v1:0")` followed by
`assert llm._get_base_model() == "anthropic.claude-3-sonnet-20240229-v1:0"`: the expectation
is kept (it states what the code under test returns), so moving the call alone fails the test.
"""

from __future__ import annotations

from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
TEST = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def test_base_model():\n"
    "    llm = ChatAnthropic(\n"
    '        model="claude-3-haiku-20240307", max_tokens=100\n'
    "    )\n"
    '    assert llm._llm_type and llm.model == "claude-3-haiku-20240307"\n'
)
UNASSERTED = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def test_invoke():\n"
    "    llm = ChatAnthropic(\n"
    '        model="claude-3-haiku-20240307", max_tokens=100\n'
    "    )\n"
    "    assert llm is not None\n"
)


def test_a_retired_id_the_test_expects_again_keeps_it(cli: Cli) -> None:
    write_tree(
        cli.cwd, {"pyproject.toml": "", "claude-migrate.toml": POLICY, "tests/test_b.py": TEST}
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    calls = [d for d in found if d["line"] == 6]
    assert calls and calls[0]["fix"] is None
    assert "expects this id again (line 8)" in calls[0]["message"]
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_b.py").read_text() == TEST


def test_migrate_keeps_the_id_the_test_expects_again(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_b.py": TEST})
    cli("migrate", "--to", "claude-haiku-4-5", ".")
    assert (cli.cwd / "tests/test_b.py").read_text() == TEST


def test_an_id_no_assertion_states_moves(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"pyproject.toml": "", "claude-migrate.toml": POLICY, "tests/test_b.py": UNASSERTED},
    )
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-3-haiku-20240307" not in (cli.cwd / "tests/test_b.py").read_text()


def test_an_id_read_through_a_constant_the_test_also_asserts_keeps_it(cli: Cli) -> None:
    text = (
        "from langchain_anthropic import ChatAnthropic\n\n"
        'MODEL_NAME = "claude-sonnet-4-5"\n\n\n'
        "def test_init():\n"
        "    llm = ChatAnthropic(model=MODEL_NAME, max_tokens=100)\n"
        "    assert llm.model == MODEL_NAME\n"
    )
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_b.py": text})
    cli("migrate", "--to", "claude-sonnet-4-6", ".")
    assert (cli.cwd / "tests/test_b.py").read_text() == text


def test_a_sampling_parameter_the_test_asserts_on_keeps_the_model(cli: Cli) -> None:
    text = (
        "import anthropic\n\n\n"
        "def test_request():\n"
        "    params = dict(model='claude-sonnet-4-5', temperature=0)\n"
        "    anthropic.Anthropic().messages.create(\n"
        '        model="claude-sonnet-4-5", max_tokens=100, temperature=0, messages=[],\n'
        "    )\n"
        '    assert params["temperature"] == 0\n'
    )
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_r.py": text})
    result = cli("migrate", "--to", "claude-sonnet-5-5", ".")
    assert (cli.cwd / "tests/test_r.py").read_text() == text
    assert "the move removes temperature, and the test asserts on it (line 9)" in result.output


def test_an_expectation_kept_beside_a_legacy_call_says_why_without_placeholders(cli: Cli) -> None:
    # Two reasons name what a test expects: the expectation kept because another literal of
    # the file keeps the id (a Text Completions call waiting for CM301), and a call whose test
    # expects its id again (with that line). Each message is written out, never a template.
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "tests/test_legacy.py": (
                "from unittest import mock\n\nimport anthropic\n\n\n"
                '@mock.patch("anthropic.Anthropic")\n'
                "def test_ask(client):\n"
                "    anthropic.Anthropic().completions.create(\n"
                '        model="claude-2.1", max_tokens_to_sample=300, prompt="hi"\n'
                "    )\n"
                "    sent = client.return_value.completions.create.call_args\n"
                '    assert sent.kwargs["model"] == "claude-2.1"\n'
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    expected = [d for d in found if d["line"] == 12]
    assert expected and expected[0]["fix"] is None
    assert "{" not in expected[0]["message"]
    assert "a test in this file expects it" in expected[0]["message"]
