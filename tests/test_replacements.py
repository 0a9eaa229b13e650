"""The catalogue's two replacements per retired model, and `[retired-models] prefer`."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_migrate.policy import deprecations
from tests.helpers import Cli, write_tree

KNOWN = deprecations.load(None)

CALL = (
    "from anthropic import Anthropic\nclient = Anthropic()\n"
    "client.messages.create(model={model!r}, max_tokens=64,"
    " messages=[{{'role': 'user', 'content': 'hi'}}])\n"
)


def test_every_retired_model_names_a_current_recommended_model() -> None:
    for model in KNOWN.models:
        if model.retires is None:
            continue
        assert model.recommended is not None, model.id
        target = KNOWN.find(model.recommended)
        assert target is not None and target.retires is None, model.id


@pytest.mark.parametrize(
    ("prefer", "model", "written"),
    [
        ("nearest", "claude-3-haiku-20240307", "claude-haiku-4-5-20251001"),
        ("recommended", "claude-3-haiku-20240307", "claude-haiku-5-5"),
        ("nearest", "claude-3-opus-20240229", "claude-opus-4-6"),
        ("recommended", "claude-3-opus-20240229", "claude-opus-5-5"),
        ("recommended", "claude-sonnet-4-20250514", "claude-sonnet-5-5"),
    ],
)
def test_the_fix_writes_the_replacement_the_policy_prefers(
    tmp_path: Path, prefer: str, model: str, written: str
) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": f'[retired-models]\nas-of = 2026-12-01\nprefer = "{prefer}"\n',
            "app.py": CALL.format(model=model),
        },
    )
    result = Cli(tmp_path)("fix", "--unsafe-fixes", "--select", "CM302", "app.py")
    assert result.exit_code == 0, result.output
    assert f"model={written!r}" in (tmp_path / "app.py").read_text(encoding="utf-8")


def test_a_bad_preference_is_a_policy_error(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": '[retired-models]\nprefer = "newest"\n',
            "app.py": CALL.format(model="claude-3-haiku-20240307"),
        },
    )
    result = Cli(tmp_path)("check", "app.py")
    assert result.exit_code == 2
    assert "prefer" in result.output


def test_a_recommended_model_the_catalogue_lacks_stops_the_run(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "extra.toml": '[[models]]\nid = "claude-internal-20250101"\nretires = 2026-01-01\n'
            'replacement = "claude-sonnet-4-6"\nrecommended = "claude-sonnet-9"\n',
            "claude-migrate.toml": '[retired-models]\ncatalogue = "extra.toml"\n',
            "app.py": CALL.format(model="claude-3-haiku-20240307"),
        },
    )
    result = Cli(tmp_path)("check", "app.py")
    assert result.exit_code == 2
    assert "recommended 'claude-sonnet-9' is not a model of the catalogue" in result.output
