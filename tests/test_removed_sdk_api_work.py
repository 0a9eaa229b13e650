"""CM303 resolves a file's calls for a removed client namespace only where it can be reached."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

from claude_migrate.analysis.symbols import Resolver

PLAIN = """import anthropic

client = anthropic.Anthropic()
endpoint = client.messages


def ask(question: str) -> object:
    return endpoint.create(model="claude-sonnet-4-6", max_tokens=64, messages=[])
"""
# The namespace reached through `getattr` with a literal name: its name is spelled as a string.
THROUGH_GETATTR = """import anthropic

client = anthropic.Anthropic()
beta = client.beta
endpoint = getattr(beta, "prompt_caching")


def ask(question: str) -> object:
    return endpoint.messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=[])
"""


def _resources_asked(
    tmp_path: Path, text: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, list]:
    write_tree(tmp_path, {"app.py": text})
    asked: list[object] = []
    real = Resolver.resources

    def counting(self: Resolver, *args: object) -> object:
        asked.append(args)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Resolver, "resources", counting)
    found = Cli(tmp_path).json("check", "--no-cache", "--select", "CM303", "app.py")
    return len(asked), [d["code"] for d in found["diagnostics"]]


def test_a_file_that_never_spells_a_removed_namespace_is_not_resolved_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked, codes = _resources_asked(tmp_path, PLAIN, monkeypatch)
    assert (asked, codes) == (0, [])


def test_a_namespace_reached_through_getattr_is_still_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, codes = _resources_asked(tmp_path, THROUGH_GETATTR, monkeypatch)
    assert codes == ["CM303"]
