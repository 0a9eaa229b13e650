"""Bedrock and Vertex ids are judged by their platform's date where the catalogue has one."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

APP = """from anthropic import AnthropicBedrock
bedrock = AnthropicBedrock()
bedrock.messages.create(model="anthropic.claude-3-sonnet-20240229-v1:0", max_tokens=8, messages=[])
"""


@pytest.mark.parametrize(
    ("mode", "reported", "fixed"),
    [("warn", True, False), ("api", True, True), ("ignore", False, False)],
)
def test_platform_dates_policy_decides_what_an_unknown_platform_date_means(
    tmp_path: Path, mode: str, reported: bool, fixed: bool
) -> None:
    policy = f'[retired-models]\nas-of = 2026-04-01\nplatform-dates = "{mode}"\n'
    write_tree(tmp_path, {"app.py": APP, "claude-migrate.toml": policy})
    found = Cli(tmp_path).json("check", "--select", "CM302", "app.py")["diagnostics"]
    assert bool(found) is reported
    if found:
        assert (found[0]["fix"] is not None) is fixed
        if mode == "warn":
            assert "retired on the Anthropic API on 2025-07-21" in found[0]["message"]
            assert "Amazon Bedrock sets its own date" in found[0]["message"]


def test_a_platform_date_in_a_catalogue_replaces_the_api_date(tmp_path: Path) -> None:
    extra = (
        '[[models]]\nid = "claude-3-sonnet-20240229"\nretires = 2025-07-21\n'
        'bedrock-retires = 2026-03-01\nreplacement = "claude-sonnet-4-6"\n'
    )
    policy = '[retired-models]\nas-of = 2026-04-01\ncatalogue = "extra.toml"\n'
    write_tree(tmp_path, {"app.py": APP, "claude-migrate.toml": policy, "extra.toml": extra})
    [found] = Cli(tmp_path).json("check", "--select", "CM302", "app.py")["diagnostics"]
    assert "was retired on 2026-03-01" in found["message"]
    assert found["fix"] is not None


def test_a_malformed_platform_date_is_refused_naming_its_line(tmp_path: Path) -> None:
    extra = '[[models]]\nid = "claude-x"\nbedrock-retires = "soon"\n'
    policy = '[retired-models]\ncatalogue = "extra.toml"\n'
    write_tree(tmp_path, {"app.py": APP, "claude-migrate.toml": policy, "extra.toml": extra})
    result = Cli(tmp_path)("check", "app.py")
    assert result.exit_code == 2
    assert "bedrock-retires" in result.output and ":3" in result.output
