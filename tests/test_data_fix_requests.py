"""A model id kept as data is fixed only where the requests that may read it stay valid.

A settings default (`model: str = "..."` on a dataclass) is data to the analysis when the call
that sends it builds its request where the model cannot be read (`**self._request()`). The data
fix then checks that call: a move to a model that refuses what the request sends or may carry
(temperature with options passed through, on a model taking one of temperature and top_p; a
prefilled assistant turn) keeps the id and says why.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

POLICY = 'select = ["CM302"]\n[retired-models]\nas-of = 2026-12-01\n'

SETTINGS = """\
from dataclasses import dataclass

from anthropic import Anthropic


@dataclass
class Settings:
    model: str = "claude-3-5-sonnet-20241022"


class Bot:
    def __init__(self, settings=None, **options):
        self.settings = settings or Settings()
        self.options = options
        self.client = Anthropic()

    def _request(self, messages):
        return {{"model": self.settings.model, "max_tokens": 512, {extra}"messages": messages}}

    def answer(self, messages):
        return self.client.messages.create(**self._request(messages){spread})
"""


def _data_findings(tmp_path: Path, source: str) -> list[dict]:
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "bot.py": source})
    data = Cli(root).json("check", "--no-cache", ".")
    assert not data["errors"], data["errors"]
    return [d for d in data["diagnostics"] if "found as data" in d["message"]]


def test_a_default_read_by_a_request_sending_temperature_and_options_keeps_its_id(
    tmp_path: Path,
) -> None:
    source = SETTINGS.format(extra='"temperature": 0.5, ', spread=", **self.options")
    (found,) = _data_findings(tmp_path, source)
    assert found["fix"] is None
    assert "the Claude call on line 21" in found["message"]
    assert "may carry top_p" in found["message"]


def test_a_default_read_by_a_request_with_a_prefill_keeps_its_id(tmp_path: Path) -> None:
    source = SETTINGS.format(extra="", spread="").replace(
        '"messages": messages}',
        '"messages": [*messages, {"role": "assistant", "content": "{"}]}',
    )
    (found,) = _data_findings(tmp_path, source)
    assert found["fix"] is None, found["message"]
    assert "prefilled assistant turn" in found["message"]


def test_a_default_read_by_a_request_the_replacement_takes_moves(tmp_path: Path) -> None:
    source = SETTINGS.format(extra='"temperature": 0.5, ', spread="")
    (found,) = _data_findings(tmp_path, source)
    assert found["fix"] is not None, found["message"]
