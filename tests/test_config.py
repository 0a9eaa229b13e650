"""Loading, merging and validating the policy."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate.policy.config import ConfigError, PolicyLoader


def settings(root: Path, file: str = "app/x.py", config: Path | None = None):
    loader = PolicyLoader(config, cwd=root)
    path = root / file
    return loader.for_path(path).settings_for(path)


def test_default_preset_applies_without_a_policy_file(tmp_path: Path) -> None:
    result = settings(tmp_path)
    assert result.table("temperature") == {"max": 0.2, "fix-to": 0.0}
    assert result.table("max-tokens") == {"max": 1024, "fix-to": 1024}
    assert {"CM001", "CM101", "CM102"} <= result.codes


def test_nearest_policy_file_wins_and_pyproject_without_table_is_skipped(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[temperature]\nmax = 0.5\n",
            "svc/pyproject.toml": "[project]\nname = 'svc'\n",
            "svc/inner/pyproject.toml": "[tool.claude-migrate.temperature]\nmax = 0.7\n",
        },
    )
    assert settings(tmp_path, "svc/a.py").table("temperature")["max"] == 0.5
    assert settings(tmp_path, "svc/inner/a.py").table("temperature")["max"] == 0.7


def test_max_tokens_fix_to_defaults_to_the_max(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "[max-tokens]\nmax = 2048\n"})
    assert settings(tmp_path).table("max-tokens") == {"max": 2048, "fix-to": 2048}


@pytest.mark.parametrize(
    ("preset", "temperature", "tokens"),
    [("strict", (0.0, 0.0), 256), ("balanced", (0.5, 0.4), 4096), ("default", (0.2, 0.0), 1024)],
)
def test_presets(tmp_path: Path, preset: str, temperature: tuple, tokens: int) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": f'extend = "{preset}"\n'})
    result = settings(tmp_path)
    assert (
        result.table("temperature")["max"],
        result.table("temperature")["fix-to"],
    ) == temperature
    assert result.table("max-tokens")["max"] == tokens


def test_extend_a_file_relative_to_the_policy_folder(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "shared/base.toml": 'extend = "strict"\n[max-tokens]\nmax = 300\n',
            "claude-migrate.toml": 'extend = "shared/base.toml"\n[temperature]\nmax = 0.1\n',
        },
    )
    result = settings(tmp_path)
    assert result.table("temperature") == {"max": 0.1, "fix-to": 0.0}
    assert result.table("max-tokens")["max"] == 300


def test_overrides_apply_to_matching_paths_in_order(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": (
                "[[overrides]]\npaths = ['services/creative/**']\ntemperature = { max = 1.0 }\n"
                "[[overrides]]\npaths = ['services/creative/poems/**']\n"
                "temperature = { max = 0.8 }\nignore = ['CM102']\n"
            )
        },
    )
    assert settings(tmp_path, "services/creative/a.py").table("temperature")["max"] == 1.0
    poems = settings(tmp_path, "services/creative/poems/a.py")
    assert poems.table("temperature")["max"] == 0.8
    assert "CM102" not in poems.codes
    assert settings(tmp_path, "services/other.py").table("temperature")["max"] == 0.2


def test_select_and_ignore_choose_codes(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "select = ['CM1']\nignore = ['CM102']\n"})
    result = settings(tmp_path)
    assert "CM101" in result.codes and "CM102" not in result.codes


def test_exclude_globs_are_relative_to_the_policy_folder(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "exclude = ['legacy/**', '*_pb2.py']\n"})
    policy = PolicyLoader(cwd=tmp_path).for_path(tmp_path / "x.py")
    assert policy.is_excluded(tmp_path / "legacy" / "old" / "a.py")
    assert policy.is_excluded(tmp_path / "api" / "thing_pb2.py")
    assert not policy.is_excluded(tmp_path / "app" / "a.py")


@pytest.mark.parametrize(
    ("text", "key", "expected", "line"),
    [
        ("[temperature]\nmaximum = 0.5\n", "temperature.maximum", "unknown key", 2),
        ("[temperature]\nmax = 'hot'\n", "temperature.max", "expected a number between 0 and 1", 2),
        ("[temperature]\nmax = 1.5\n", "temperature.max", "expected a number between 0 and 1", 2),
        (
            "\n[max-tokens]\nmax = 0\n",
            "max-tokens.max",
            "expected an integer between 1 and 1000000",
            3,
        ),
        ("[max-tokens]\nmax = 100\nfix-to = 200\n", "max-tokens.fix-to", "at most max", 3),
        ("select = ['CM9']\n", "select", "unknown rule code or prefix 'CM9'", 1),
        ("colour = 'blue'\n", "colour", "unknown key", 1),
        ("extend = 'nonexistent'\n", "extend", "neither a preset", 1),
        (
            "[[overrides]]\ntemperature = { max = 1.0 }\n",
            "overrides[0].paths",
            "non-empty list",
            None,
        ),
        ("[temperature\nmax = 1\n", None, "invalid TOML", 1),
    ],
)
def test_policy_errors_name_file_line_key_and_expectation(
    tmp_path: Path, text: str, key: str | None, expected: str, line: int | None
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": text})
    with pytest.raises(ConfigError) as caught:
        settings(tmp_path)
    error = caught.value
    assert error.path.endswith("claude-migrate.toml")
    assert error.key == key
    assert expected in str(error)
    if line is not None:
        assert error.line == line


def test_extend_cycle_is_an_error(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "a.toml": 'extend = "b.toml"\n',
            "b.toml": 'extend = "a.toml"\n',
            "claude-migrate.toml": 'extend = "a.toml"\n',
        },
    )
    with pytest.raises(ConfigError, match="cycle"):
        settings(tmp_path)
