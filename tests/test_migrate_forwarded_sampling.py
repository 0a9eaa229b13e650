"""A call moved to a model that takes temperature or top_p, not both, keeps its model where a
caller of its function hands both through `**kwargs`.

`def ask(question, **options): client.messages.create(model="claude-3-7-sonnet-20250219", ...,
**options)` called as `ask("hi", temperature=0.3, top_p=0.8)`: the request the call makes then
carries both, which Claude Sonnet 4.6 answers 400 to (rules/models.toml, `sampling = "one-of"`).
The call itself writes neither, so neither `migrate --to` nor CM302's fix may move it alone: it is
reported with the caller's place, and left for the checklist. A function whose callers hand only
one of the two still moves.
"""

from __future__ import annotations

from helpers import Cli, write_tree

ASK = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def ask(question, **options):\n"
    "    with client.messages.stream(\n"
    '        model="claude-3-7-sonnet-20250219",\n'
    "        max_tokens=512,\n"
    '        messages=[{"role": "user", "content": question}],\n'
    "        **options,\n"
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)
BOTH = 'from app.ask import ask\n\n\ndef run():\n    return ask("hi", temperature=0.3, top_p=0.8)\n'
ONE = 'from app.ask import ask\n\n\ndef run():\n    return ask("hi", temperature=0.3)\n'


def _tree(cli: Cli, caller: str) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": "[retired-models]\nas-of = 2026-12-01\n",
            "app/__init__.py": "",
            "app/ask.py": ASK,
            "app/run.py": caller,
        },
    )


def test_migrate_keeps_a_call_whose_caller_hands_both_through_kwargs(cli: Cli) -> None:
    _tree(cli, BOTH)
    cli("migrate", "--to", "claude-sonnet-4-6", "--no-cache", "--checklist", "left.md", ".")
    assert (cli.cwd / "app/ask.py").read_text() == ASK
    left = (cli.cwd / "left.md").read_text()
    assert "ask() passes on what its callers give: its call at app/run.py:5 gives both" in left


def test_the_retired_models_fix_is_withheld_for_it_too(cli: Cli) -> None:
    _tree(cli, BOTH)
    found = cli.json("check", "--no-cache", "--select", "CM302", ".")["diagnostics"]
    assert [(d["path"], d["line"], d["fix"]) for d in found] == [("app/ask.py", 8, None)]
    assert "takes temperature or top_p, not both" in found[0]["message"]


def test_a_call_whose_callers_hand_one_of_the_two_moves(cli: Cli) -> None:
    _tree(cli, ONE)
    cli("migrate", "--to", "claude-sonnet-4-6", "--no-cache", ".")
    assert 'model="claude-sonnet-4-6"' in (cli.cwd / "app/ask.py").read_text()
