"""What is done with a LangChain chat model away from its constructor.

A forcing `tool_choice` given by `.bind_tools()` on a model that answers 400 to it (Claude Sonnet
5.5): the move also asks for "auto", unless the test making the call asserts on the tool choice,
where the model is kept and the reason given. A model whose `.profile` is read keeps its id: the
profile comes from a table keyed by model id that may not list the new one."""

from __future__ import annotations

from helpers import Cli, write_tree

ASSERTED = (
    "from langchain_aws import ChatBedrock\n\n\n"
    "def test_forced_tool():\n"
    '    chat = ChatBedrock(model_id="anthropic.claude-sonnet-4-6", streaming=True)\n'
    '    bound = chat.bind_tools([lookup], tool_choice="any")\n'
    '    assert bound.kwargs["tool_choice"] == {"type": "any"}\n'
)
POLICY = "[retired-models]\nas-of = 2026-12-01\n"
APP = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def agent(tools):\n"
    '    llm = ChatAnthropic(model="claude-sonnet-4-6", max_tokens=256, streaming=True)\n'
    '    return llm.bind_tools(tools, tool_choice="lookup")\n'
)


def test_migrate_keeps_the_model_of_a_test_asserting_on_the_forced_choice(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_tools.py": ASSERTED})
    result = cli("migrate", "--to", "claude-sonnet-5-5", "--unsafe-fixes", ".")
    assert result.exit_code == 1, result.output
    assert (cli.cwd / "tests/test_tools.py").read_text() == ASSERTED
    assert "forced tool_choice" in result.output
    assert "the test asserts on tool_choice (line 7)" in result.output


def test_migrate_asks_for_auto_only_with_unsafe_fixes(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": APP})
    assert cli("migrate", "--to", "claude-sonnet-5-5", ".").exit_code == 1
    assert (cli.cwd / "app.py").read_text() == APP
    assert cli("migrate", "--to", "claude-sonnet-5-5", "--unsafe-fixes", ".").exit_code == 0
    moved = (cli.cwd / "app.py").read_text()
    assert 'model="claude-sonnet-5-5"' in moved
    assert 'tool_choice="auto"' in moved


PROFILED = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def window():\n"
    '    llm = ChatAnthropic(model="claude-3-5-sonnet-20241022", max_tokens=256, streaming=True)\n'
    '    return llm.profile["max_input_tokens"]\n'
)


def test_a_retired_model_whose_profile_is_read_is_reported_without_a_fix(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"pyproject.toml": "", "claude-migrate.toml": POLICY, "app.py": PROFILED},
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [d["line"] for d in found] == [5]
    assert found[0]["fix"] is None
    assert "its profile is read on line 6" in found[0]["message"]
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert (cli.cwd / "app.py").read_text() == PROFILED
