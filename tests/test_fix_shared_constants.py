"""A value fix changes only what Claude is sent: a constant other code reads is left alone.

The constant is edited when every use of it in the module is the same parameter of a Claude
call that the same fix sets; otherwise the call's argument gets the literal. The fix's
description names what it edits.
"""

from __future__ import annotations

from helpers import Cli, write_tree

SHARED = (
    "import random\n"
    "import anthropic\n"
    "TEMP = 0.8\n"
    "client = anthropic.Anthropic()\n"
    "def ask(q):\n"
    "    return client.messages.create(model='claude-sonnet-4-6', max_tokens=10,\n"
    "                                  temperature=TEMP, messages=[], stream=True)\n"
    "def jitter():\n"
    "    return random.uniform(0, TEMP)\n"
)


def _fix(cli: Cli, source: str) -> tuple[str, list[str]]:
    write_tree(cli.cwd, {"app.py": source})
    data = cli.json("check")
    descriptions = [d["fix"]["description"] for d in data["diagnostics"] if d["fix"]]
    cli("fix")
    return (cli.cwd / "app.py").read_text(), descriptions


def test_constant_read_by_other_code_is_left_and_the_call_gets_the_literal(cli: Cli) -> None:
    fixed, descriptions = _fix(cli, SHARED)
    assert fixed == SHARED.replace("temperature=TEMP,", "temperature=0.0,")
    assert "TEMP = 0.8\n" in fixed and "random.uniform(0, TEMP)" in fixed
    assert descriptions == [
        "set temperature to 0.0 in this call (TEMP is read by other code too and stays)"
    ]
    assert cli.json("check")["diagnostics"] == []


def test_constant_used_only_by_claude_calls_is_edited_where_it_is_defined(cli: Cli) -> None:
    source = SHARED.replace("random.uniform(0, TEMP)", "random.uniform(0, 1)") + (
        "def again(q):\n"
        "    return client.messages.create(model='claude-sonnet-4-6', max_tokens=10,\n"
        "                                  temperature=TEMP, messages=[], stream=True)\n"
    )
    fixed, descriptions = _fix(cli, source)
    assert fixed == source.replace("TEMP = 0.8", "TEMP = 0.0")
    assert descriptions == ["set TEMP (used by 2 Claude calls) to 0.0"] * 2


def test_one_claude_call_reading_the_constant_is_named_in_the_description(cli: Cli) -> None:
    source = SHARED.replace("random.uniform(0, TEMP)", "random.uniform(0, 1)")
    fixed, descriptions = _fix(cli, source)
    assert fixed == source.replace("TEMP = 0.8", "TEMP = 0.0")
    assert descriptions == ["set TEMP (used by this call) to 0.0"]


def test_constant_also_sent_as_another_parameter_is_not_edited(cli: Cli) -> None:
    # top_p=TEMP is a Claude parameter, but not one the temperature fix sets.
    source = SHARED.replace("random.uniform(0, TEMP)", "0").replace(
        "temperature=TEMP,", "temperature=TEMP, top_p=TEMP,"
    )
    fixed, _ = _fix(cli, source)
    assert "TEMP = 0.8" in fixed
    assert "temperature=0.0, top_p=TEMP," in fixed


def test_shared_model_constant_is_replaced_only_in_the_call(cli: Cli) -> None:
    source = (
        "import logging\n"
        "import anthropic\n"
        "MODEL = 'claude-2.1'\n"
        "client = anthropic.Anthropic()\n"
        "def ask():\n"
        "    logging.info('asking %s', MODEL)\n"
        "    return client.messages.create(model=MODEL, max_tokens=10, messages=[],\n"
        "                                  stream=True)\n"
    )
    write_tree(cli.cwd, {"app.py": source})
    data = cli.json("check", "--select", "CM302")
    assert [d["fix"]["description"] for d in data["diagnostics"]] == [
        "replace 'claude-2.1' with 'claude-sonnet-4-6' in this call "
        "(MODEL is read by other code too and stays)"
    ]
    cli("fix", "--unsafe-fixes", "--select", "CM302")
    fixed = (cli.cwd / "app.py").read_text()
    # The call gets the replacement; the constant, then read by the log line alone, is a
    # mention of the retired model kept as data, and the same migration changes it too.
    assert fixed == source.replace("model=MODEL,", "model='claude-sonnet-4-6',").replace(
        "MODEL = 'claude-2.1'", "MODEL = 'claude-sonnet-4-6'"
    )
