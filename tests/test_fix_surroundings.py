"""Fixes read right in the code around them: comments, indentation, one finding per call."""

from __future__ import annotations

from helpers import Cli, write_tree

RETIRED = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n"
    "# claude-3-7-sonnet-20250219 labels tickets best\n"
    'MODEL = "claude-3-7-sonnet-20250219"\n\n\n'
    "def ask(q):\n"
    "    with client.messages.stream(\n"
    "        model=MODEL,\n"
    "        max_tokens=100,\n"
    '        messages=[{"role": "user", "content": q}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n\n\n"
    "def other(q):\n"
    "    with client.messages.stream(\n"
    '        model="claude-3-7-sonnet-20250219",  # claude-3-7-sonnet-20250219 is fast\n'
    "        max_tokens=100,\n"
    '        messages=[{"role": "user", "content": q}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)


def test_a_model_swap_renames_the_old_id_in_comments_on_its_line_and_the_line_above(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {"app.py": RETIRED, "claude-migrate.toml": "[retired-models]\nas-of = 2026-04-01\n"},
    )
    cli("fix", "--unsafe-fixes", "--select", "CM302")
    fixed = (cli.cwd / "app.py").read_text()
    assert "claude-3-7" not in fixed
    assert "# claude-sonnet-4-6 labels tickets best\n" in fixed
    assert '"claude-sonnet-4-6",  # claude-sonnet-4-6 is fast\n' in fixed


def _streaming_fix(cli: Cli, source: str) -> str:
    write_tree(cli.cwd, {"app.py": source})
    cli("fix", "--unsafe-fixes", "--select", "CM104")
    return (cli.cwd / "app.py").read_text()


def test_the_with_body_follows_the_blocks_own_indentation(cli: Cli) -> None:
    source = (
        "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
        "def first():\n"
        "    return 1\n\n\n"
        "def ask(q):\n"
        "  reply = client.messages.create(\n"
        '      model="claude-sonnet-4-6",\n'
        "      max_tokens=100,\n"
        '      messages=[{"role": "user", "content": q}])\n'
        "  return reply\n"
    )
    fixed = _streaming_fix(cli, source)
    assert (
        '      messages=[{"role": "user", "content": q}]) as stream:\n'
        "    reply = stream.get_final_message()\n"
        "  return reply\n"
    ) in fixed


def test_a_closing_parenthesis_on_its_own_line_moves_to_the_statements_indentation(
    cli: Cli,
) -> None:
    source = (
        "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
        "def ask(q):\n"
        "    reply = client.messages.create(\n"
        '        model="claude-sonnet-4-6",\n'
        "        max_tokens=100,\n"
        '        messages=[{"role": "user", "content": q}],\n'
        "        )\n"
        "    return reply\n"
    )
    fixed = _streaming_fix(cli, source)
    assert "    ) as stream:\n        reply = stream.get_final_message()\n" in fixed


def test_a_call_in_a_loop_over_models_is_one_finding_per_rule(cli: Cli) -> None:
    source = (
        "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
        "def ask(q):\n"
        '    for model in ["claude-sonnet-4-6", "claude-opus-4-6"]:\n'
        "        reply = client.messages.create(model=model, max_tokens=100, temperature=0.9,\n"
        '                                       stop_sequences=["\\n\\n"], messages=[])\n'
        "        print(reply)\n"
    )
    write_tree(cli.cwd, {"app.py": source})
    found = cli.json("check", "--select", "CM101,CM103,CM104")["diagnostics"]
    assert sorted(d["code"] for d in found) == ["CM101", "CM103", "CM104"]
