"""One suppression stage for every kind of file: Python and dependency files alike."""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

WITH_CM002 = 'select = ["CM", "CM002"]\n'


def _found(cli: Cli, *args: str) -> list[tuple[str, int, str]]:
    data = cli.json("check", *args)
    return [(d["path"], d["line"], d["code"]) for d in data["diagnostics"]]


def test_a_used_suppression_in_a_requirements_file_silences_and_is_not_reported(
    cli: Cli, tmp_path: Path
) -> None:
    write_tree(
        tmp_path,
        {
            "requirements.txt": "anthropic==0.20.0  # noqa: CM201\n",
            "claude-migrate.toml": WITH_CM002,
        },
    )
    assert _found(cli, "requirements.txt") == []


def test_fix_removes_an_unused_suppression_from_a_requirements_file(
    cli: Cli, tmp_path: Path
) -> None:
    write_tree(
        tmp_path,
        {
            "requirements.txt": "anthropic==0.40.0  # noqa: CM201\nboto3>=1.35  # pinned by ops\n",
            "claude-migrate.toml": WITH_CM002,
        },
    )
    result = cli("fix", "requirements.txt")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "requirements.txt").read_text() == (
        "anthropic==0.40.0\nboto3>=1.35  # pinned by ops\n"
    )


def test_an_unknown_code_in_a_pyproject_suppression_is_reported(cli: Cli, tmp_path: Path) -> None:
    pyproject = (
        '[project]\nname = "x"\nversion = "1"\n'
        'dependencies = [\n    "anthropic>=0.40",  # claude-migrate: ignore[CM999]\n]\n'
        '[tool.claude-migrate]\nselect = ["CM", "CM002"]\n'
    )
    write_tree(tmp_path, {"pyproject.toml": pyproject})
    data = cli.json("check", "pyproject.toml")
    assert [(d["line"], d["code"]) for d in data["diagnostics"]] == [(5, "CM002")]
    assert "unknown code CM999" in data["diagnostics"][0]["message"]


def test_a_suppression_silences_the_same_way_in_python_and_requirements(
    cli: Cli, tmp_path: Path
) -> None:
    write_tree(
        tmp_path,
        {
            "requirements.txt": "anthropic==0.20.0  # claude-migrate: ignore[CM201]\nboto3==1.0\n",
            "a.py": (
                "import anthropic\nc = anthropic.Anthropic()\n"
                'c.messages.create(model="m", max_tokens=1, messages=[], temperature=0.9)'
                "  # claude-migrate: ignore[CM101]\n"
                'c.messages.create(model="m", max_tokens=1, messages=[], temperature=0.9)\n'
            ),
            "claude-migrate.toml": 'select = ["CM101", "CM201"]\n',
        },
    )
    assert sorted(_found(cli, ".")) == [("a.py", 4, "CM101"), ("requirements.txt", 2, "CM201")]
