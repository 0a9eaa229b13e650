"""Suppression comments: `# noqa`, `# claude-migrate: ignore[...]`, and CM002 unused-suppression."""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

HEADER = "from anthropic import Anthropic\nclient = Anthropic()\n"
HOT = 'client.messages.stream(model="m", max_tokens=10, temperature=0.9, messages=[])'
COOL = 'client.messages.stream(model="m", max_tokens=10, temperature=0.1, messages=[])'
WITH_CM002 = 'select = ["CM", "CM002"]\n'


def _codes(cli: Cli, *args: str) -> list[tuple[int, str]]:
    data = cli.json("check", *args)
    return [(d["line"], d["code"]) for d in data["diagnostics"]]


def test_ignore_comment_silences_the_named_code(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": HEADER + HOT + "  # claude-migrate: ignore[CM101]\n"})
    assert _codes(cli, "a.py") == []


def test_ignore_comment_with_other_code_does_not_silence(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": HEADER + HOT + "  # claude-migrate: ignore[CM102]\n"})
    assert _codes(cli, "a.py") == [(3, "CM101")]


def test_bare_ignore_comment_silences_everything_on_its_line(cli: Cli, tmp_path: Path) -> None:
    source = (
        HEADER + HOT.replace("max_tokens=10", "max_tokens=9000") + "  # claude-migrate: ignore\n"
    )
    write_tree(tmp_path, {"a.py": source})
    assert _codes(cli, "a.py") == []


def test_ignore_comment_accepts_several_codes_and_any_case(cli: Cli, tmp_path: Path) -> None:
    source = HEADER + HOT.replace("max_tokens=10", "max_tokens=9000")
    write_tree(tmp_path, {"a.py": source + "  # Claude-Migrate: ignore[cm101, CM102]\n"})
    assert _codes(cli, "a.py") == []


def test_ignore_comment_applies_only_to_its_own_line(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": HEADER + "# claude-migrate: ignore[CM101]\n" + HOT + "\n"})
    assert _codes(cli, "a.py") == [(4, "CM101")]


def test_unused_suppression_is_off_by_default(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": HEADER + COOL + "  # noqa: CM101\n"})
    assert _codes(cli, "a.py") == []


def test_unused_suppression_is_not_enabled_by_the_cm_prefix(cli: Cli, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"a.py": HEADER + COOL + "  # noqa: CM101\n", "claude-migrate.toml": 'select = ["CM"]\n'},
    )
    assert _codes(cli, "a.py") == []


def test_unused_suppression_reports_each_kind_of_needless_directive(
    cli: Cli, tmp_path: Path
) -> None:
    lines = [
        HOT + "  # noqa: CM101",  # used: silences the finding
        COOL + "  # noqa: CM101",  # unused
        COOL + "  # claude-migrate: ignore[CM101]",  # unused
        "x = 1  # claude-migrate: ignore",  # bare and unused: ours alone, so reported
        "y = 2  # noqa",  # bare noqa: may be another linter's, never reported
        "z = 3  # noqa: E501",  # another linter's code
        "w = 4  # noqa: CM999",  # unknown code of ours
    ]
    write_tree(
        tmp_path, {"a.py": HEADER + "\n".join(lines) + "\n", "claude-migrate.toml": WITH_CM002}
    )
    data = cli.json("check", "a.py")
    found = {(d["line"], d["code"]): d["message"] for d in data["diagnostics"]}
    assert sorted(found) == [(4, "CM002"), (5, "CM002"), (6, "CM002"), (9, "CM002")]
    assert "no CM101 finding on this line" in found[(4, "CM002")]
    assert "nothing to suppress" in found[(6, "CM002")]
    assert "unknown code CM999" in found[(9, "CM002")]
    assert all(d["fix"]["applicability"] == "safe" for d in data["diagnostics"])


def test_unused_suppression_starts_at_the_directive(cli: Cli, tmp_path: Path) -> None:
    source = HEADER + COOL + "  # noqa: CM101\n"
    write_tree(tmp_path, {"a.py": source, "claude-migrate.toml": WITH_CM002})
    (finding,) = cli.json("check", "a.py")["diagnostics"]
    column = len(COOL) + 3
    assert (finding["line"], finding["column"], finding["end_column"]) == (
        3,
        column,
        column + len("# noqa: CM101"),
    )


def test_code_not_enabled_for_the_file_is_not_judged(cli: Cli, tmp_path: Path) -> None:
    policy = 'select = ["CM", "CM002"]\nignore = ["CM102"]\n'
    source = HEADER + COOL + "  # noqa: CM102\n"
    write_tree(tmp_path, {"a.py": source, "claude-migrate.toml": policy})
    assert _codes(cli, "a.py") == []


def test_unused_suppression_can_silence_itself(cli: Cli, tmp_path: Path) -> None:
    source = HEADER + COOL + "  # noqa: CM101, CM002\n"
    write_tree(tmp_path, {"a.py": source, "claude-migrate.toml": WITH_CM002})
    assert _codes(cli, "a.py") == []


def test_unused_suppression_found_in_a_file_without_claude_calls(cli: Cli, tmp_path: Path) -> None:
    # The text prefilter must let CM002's markers through even where no check reads calls.
    write_tree(
        tmp_path,
        {"a.py": "x = 1  # claude-migrate: ignore[CM101]\n", "claude-migrate.toml": WITH_CM002},
    )
    assert _codes(cli, "a.py") == [(1, "CM002")]


def test_fix_removes_unused_codes_and_keeps_the_rest_of_the_comment(
    cli: Cli, tmp_path: Path
) -> None:
    lines = [
        COOL + "  # noqa: CM101, E501",
        COOL + "  # claude-migrate: ignore[CM101]  # reviewed in #42",
        "x = 1  # claude-migrate: ignore",
        "y = 2  # noqa: CM101  # expect: nothing",
        HOT + "  # claude-migrate: ignore[CM101, CM102]",
    ]
    expected = [
        COOL + "  # noqa: E501",
        COOL + "  # reviewed in #42",
        "x = 1",
        "y = 2  # expect: nothing",
        HOT + "  # claude-migrate: ignore[CM101]",
    ]
    write_tree(
        tmp_path,
        {"a.py": HEADER + "\r\n".join(lines) + "\r\n", "claude-migrate.toml": WITH_CM002},
    )
    result = cli("fix", "a.py")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a.py").read_bytes().decode() == HEADER + "\r\n".join(expected) + "\r\n"
    assert _codes(cli, "a.py") == []


def test_unused_suppression_in_a_requirements_file_is_reported(cli: Cli, tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "requirements.txt": "anthropic==0.40.0  # noqa: CM201\n",
            "claude-migrate.toml": WITH_CM002,
        },
    )
    assert _codes(cli, "requirements.txt") == [(1, "CM002")]
