"""CM302 moves a model constant other modules' Claude calls read only where each call's
request stays valid on the replacement.

`MODEL = "claude-3-7-sonnet-20250219"` in `app/settings.py`, read by a call in `app/draft.py`
that also sends `**SAMPLING` (`{"temperature": 0.4, "top_p": 0.9}`): the fix edits the constant
only, and Claude Sonnet 4.6 answers 400 to temperature with top_p (rules/models.toml,
`sampling = "one-of"`). The finding keeps its id and names the call; where every reading call
sends one of the two, the constant still moves.
"""

from __future__ import annotations

from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
SETTINGS = 'MODEL = "claude-3-7-sonnet-20250219"\nSAMPLING = {"temperature": 0.4, "top_p": 0.9}\n'
DRAFT = (
    "import anthropic\n\n"
    "from app.settings import MODEL, SAMPLING\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def draft(question):\n"
    "    with client.messages.stream(\n"
    "        model=MODEL,\n"
    "        max_tokens=300,\n"
    '        messages=[{"role": "user", "content": question}],\n'
    "        **SAMPLING,\n"
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)
REVIEW = (
    "import anthropic\n\n"
    "from app.settings import MODEL\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def review(question):\n"
    "    with client.messages.stream(\n"
    "        model=MODEL,\n"
    "        max_tokens=300,\n"
    "        temperature=0.2,\n"
    '        messages=[{"role": "user", "content": question}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)


def _findings(cli: Cli, files: dict[str, str]) -> list[dict[str, object]]:
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "app/__init__.py": "", **files})
    found = cli.json("check", "--no-cache", "--select", "CM302", ".")["diagnostics"]
    return [d for d in found if d["path"] == "app/settings.py"]


def test_a_constant_a_call_sending_both_sampling_parameters_reads_keeps_its_id(cli: Cli) -> None:
    found = _findings(
        cli, {"app/settings.py": SETTINGS, "app/draft.py": DRAFT, "app/review.py": REVIEW}
    )
    assert [(d["line"], d["fix"]) for d in found] == [(1, None)]
    message = str(found[0]["message"])
    assert "the Claude call at app/draft.py:9 reads it" in message
    assert "temperature with top_p" in message
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert (cli.cwd / "app/settings.py").read_text() == SETTINGS


def test_a_constant_calls_sending_one_of_the_two_read_moves(cli: Cli) -> None:
    found = _findings(cli, {"app/settings.py": SETTINGS, "app/review.py": REVIEW})
    assert [d["line"] for d in found] == [1]
    assert found[0]["fix"] is not None
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert '"claude-sonnet-4-6"' in (cli.cwd / "app/settings.py").read_text()
