"""A model passed to a wrapper moves only where the wrapper's request is one the new model takes.

`ask("claude-sonnet-4-5", q)` where `ask` sends `temperature=0.5`: the caller's finding is about
the id alone, so moving it would make every request of the wrapper one a model that takes no
sampling parameters (Claude Sonnet 5.5) answers 400 to. CM302 and CM304 read the wrapped call
when this module holds it, and keep the id when the target refuses what it sends; where the
wrapped call cannot be read (another module, a Bedrock call whose model is only the wrapper's
parameter), a move to a model that takes no sampling parameters keeps the id.
"""

from __future__ import annotations

from helpers import Cli, write_tree

SDK = (
    "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
    "def ask(model, q):\n"
    "    return client.messages.create(\n"
    "        model=model, max_tokens=100, temperature=0.5,\n"
    '        messages=[{"role": "user", "content": q}],\n'
    "    )\n\n\n"
    "def main():\n"
    '    return ask("claude-sonnet-4-5", "hi")\n'
)
BEDROCK = (
    'import boto3\n\nclient = boto3.client("bedrock-runtime")\n\n\n'
    "def options(config):\n"
    '    return {"maxTokens": 100, "temperature": config.get("temperature", 0.1)}\n\n\n'
    "def ask(model, q, config):\n"
    '    params = {"modelId": model, "messages": [{"role": "user", "content": [{"text": q}]}]}\n'
    '    params["inferenceConfig"] = options(config)\n'
    "    return client.converse(**params)\n\n\n"
    "def main():\n"
    '    return ask("anthropic.claude-sonnet-4-5-20250929-v1:0", "hi", {})\n'
)
POLICY = "[retired-models]\nas-of = 2026-12-01\n"


def _migrate(cli: Cli, text: str, to: str = "claude-sonnet-5-5") -> tuple[str, str]:
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": text})
    result = cli("migrate", "--to", to, ".")
    return (cli.cwd / "app.py").read_text(), result.output


def test_a_wrapper_sending_temperature_keeps_the_id_a_model_without_sampling_refuses(
    cli: Cli,
) -> None:
    after, output = _migrate(cli, SDK)
    assert after == SDK
    assert "the Claude call it reaches (line 7) sends what claude-sonnet-5-5 refuses" in output


def test_a_wrapper_sending_nothing_the_target_refuses_moves(cli: Cli) -> None:
    text = SDK.replace(" temperature=0.5,", "")
    after, _ = _migrate(cli, text)
    assert '"claude-sonnet-5-5"' in after


def test_a_retired_id_keeps_its_place_when_the_wrapper_sends_both_sampling_parameters(
    cli: Cli,
) -> None:
    text = SDK.replace("temperature=0.5,", "temperature=0.5, top_p=0.9,").replace(
        "claude-sonnet-4-5", "claude-3-opus-20240229"
    )
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "app.py": text})
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [d["fix"] for d in found] == [None]
    assert "takes temperature or top_p, not both" in found[0]["message"]


def test_a_wrapped_bedrock_call_every_caller_gives_a_claude_id_is_read_and_keeps_the_id(
    cli: Cli,
) -> None:
    after, output = _migrate(cli, BEDROCK)
    assert after == BEDROCK
    assert "the Claude call it reaches (line 13) sends what" in output
    assert "temperature answers 400" in output


def test_a_wrapped_bedrock_call_the_analysis_cannot_read_keeps_the_id(cli: Cli) -> None:
    # Another caller gives another vendor's model: the wrapped call is not Claude's alone.
    text = BEDROCK + '\n\ndef other():\n    return ask("amazon.nova-pro-v1:0", "hi", {})\n'
    after, output = _migrate(cli, text)
    assert after == text
    assert "is not checked by this fix" in output and "sampling parameters" in output


def test_a_prefill_in_another_modules_wrapper_keeps_the_id(cli: Cli) -> None:
    llm = (
        "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
        "def ask(model, q):\n"
        "    return client.messages.create(\n"
        "        model=model, max_tokens=100,\n"
        '        messages=[{"role": "user", "content": q},\n'
        '                  {"role": "assistant", "content": "{"}],\n'
        "    )\n"
    )
    main = 'from llm import ask\n\n\ndef main():\n    return ask("claude-sonnet-4-5", "hi")\n'
    write_tree(cli.cwd, {"pyproject.toml": "", "llm.py": llm, "main.py": main})
    result = cli("migrate", "--to", "claude-sonnet-4-6", ".")
    assert (cli.cwd / "main.py").read_text() == main
    assert "the Claude call it reaches (llm.py:7) is not checked by this fix" in result.output
    assert "a prefilled assistant turn" in result.output
    # The same wrapper whose request ends with the user's turn: the move is made.
    write_tree(
        cli.cwd,
        {"llm.py": llm.replace(',\n                  {"role": "assistant", "content": "{"}', "")},
    )
    cli("migrate", "--to", "claude-sonnet-4-6", ".")
    assert '"claude-sonnet-4-6"' in (cli.cwd / "main.py").read_text()
