"""A client that may be another vendor's: one decision for names, choices and factories.

`OpenAI() if p else Anthropic()` bound to a name, chosen inline, or returned by a local factory:
a method only the Claude client has (`messages`) runs on the Claude client; one the other client
has too (`chat.completions`) is not Claude's. The fixture fixtures/streaming/vendor_choice.py
holds the shapes; these pin that every path reaches the same answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

POLICY = 'extend = "default"\nselect = ["CM104"]\n'
HEAD = "import os\n\nfrom anthropic import Anthropic\nfrom openai import OpenAI\n\n"
MESSAGES = "client.messages.create(model='claude-haiku-4-5', max_tokens=8, messages=[])"
CHAT = "client.chat.completions.create(model='gpt-4o', messages=[])"

MAKE = (
    "def make():\n    if os.environ.get('P'):\n        return OpenAI()\n"
    "    return Anthropic()\n\n\n"
)
SHAPES = {
    "branches": (
        "def run():\n    if os.environ.get('P'):\n        client = OpenAI()\n"
        "    else:\n        client = Anthropic()\n    return CALL\n"
    ),
    "inline": "def run():\n    client = OpenAI() if os.environ.get('P') else Anthropic()\n"
    "    return CALL\n",
    "factory": MAKE + "def run():\n    client = make()\n    return CALL\n",
    "or": (
        "def run(cached=None):\n    client = cached or OpenAI() or Anthropic()\n    return CALL\n"
    ),
}


def _codes(tmp_path: Path, source: str) -> list[str]:
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": HEAD + source})
    data = Cli(root).json("check", "--no-cache", ".")
    assert not data["errors"], data["errors"]
    return [d["code"] for d in data["diagnostics"]]


@pytest.mark.parametrize("shape", ["branches", "inline", "factory"])
def test_a_method_only_claude_has_runs_on_the_claude_client(shape: str, tmp_path: Path) -> None:
    assert _codes(tmp_path, SHAPES[shape].replace("CALL", MESSAGES)) == ["CM104"]


@pytest.mark.parametrize("shape", ["branches", "inline", "factory"])
def test_a_method_the_other_vendor_has_too_is_not_claude(shape: str, tmp_path: Path) -> None:
    assert _codes(tmp_path, SHAPES[shape].replace("CALL", CHAT)) == []


def test_a_cached_client_of_unknown_origin_keeps_the_choice_unknown(tmp_path: Path) -> None:
    # `cached` may be anything: nothing proves the call runs on a Claude client.
    assert _codes(tmp_path, SHAPES["or"].replace("CALL", CHAT)) == []


def test_a_local_class_named_like_a_vendor_client_is_not_another_vendors(tmp_path: Path) -> None:
    # Only an imported class is another vendor's: a local stand-in shadowing the import has
    # unknown methods.
    source = (
        "class OpenAI:\n    messages = None\n\n\n"
        + MAKE
        + "def run():\n    client = make()\n    return "
        + MESSAGES
        + "\n"
    )
    assert _codes(tmp_path, source) == []
