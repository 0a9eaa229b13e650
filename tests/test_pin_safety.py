"""CM201's fix is safe only where no use of what the raised SDK removed is seen."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

LEGACY_APP = """import anthropic
from anthropic import AI_PROMPT, HUMAN_PROMPT

client = anthropic.Anthropic()


def run(q):
    n = client.count_tokens(q)
    r = client.completions.create(prompt=f"{HUMAN_PROMPT} {q}{AI_PROMPT}", model="claude-2.1")
    return n, r
"""
CURRENT_APP = """import anthropic

client = anthropic.Anthropic()


def run(q):
    return client.messages.create(model="claude-sonnet-4-6", max_tokens=10, messages=[])
"""
POLICY = 'extend = "api-2026-10-21"\n'


def _tree(tmp_path: Path, app: str, requirement: str) -> Cli:
    write_tree(
        tmp_path,
        {"requirements.txt": requirement + "\n", "app/main.py": app, "claude-migrate.toml": POLICY},
    )
    return Cli(tmp_path)


def test_a_raise_across_removals_the_code_still_uses_is_unsafe_and_names_them(
    tmp_path: Path,
) -> None:
    cli = _tree(tmp_path, LEGACY_APP, "anthropic==0.28.0")
    [finding] = cli.json("check", "--select", "CM201", "requirements.txt")["diagnostics"]
    assert finding["fix"]["applicability"] == "unsafe"
    message = finding["message"]
    assert "count_tokens (removed in 0.39.0) is used at app/main.py:8" in message
    assert "completions (removed in 1.0.0) is used at app/main.py:9" in message
    assert "HUMAN_PROMPT" in message
    cli("fix", "--select", "CM201", "requirements.txt")
    assert (tmp_path / "requirements.txt").read_text() == "anthropic==0.28.0\n"
    cli("fix", "--select", "CM201", "--unsafe-fixes", "requirements.txt")
    assert (tmp_path / "requirements.txt").read_text() == "anthropic==2.0.0\n"


def test_a_raise_is_safe_where_no_such_use_is_seen(tmp_path: Path) -> None:
    cli = _tree(tmp_path, CURRENT_APP, "anthropic==0.28.0")
    [finding] = cli.json("check", "--select", "CM201", "requirements.txt")["diagnostics"]
    assert finding["fix"]["applicability"] == "safe"
    assert "unsafe" not in finding["message"]


def test_only_removals_the_current_constraint_has_not_crossed_count(tmp_path: Path) -> None:
    # anthropic>=0.40 is already past count_tokens' removal (0.39.0): that use is not new.
    app = "import anthropic\nclient = anthropic.Anthropic()\nclient.count_tokens('x')\n"
    cli = _tree(tmp_path, app, "anthropic>=0.40")
    [finding] = cli.json("check", "--select", "CM201", "requirements.txt")["diagnostics"]
    assert finding["fix"]["applicability"] == "safe"


def test_a_lock_files_guidance_names_the_uses(tmp_path: Path) -> None:
    lock = '[[package]]\nname = "anthropic"\nversion = "0.28.0"\n'
    write_tree(
        tmp_path, {"poetry.lock": lock, "app/main.py": LEGACY_APP, "claude-migrate.toml": POLICY}
    )
    [finding] = Cli(tmp_path).json("check", "--select", "CM201", "poetry.lock")["diagnostics"]
    assert finding["fix"] is None
    assert "count_tokens (removed in 0.39.0) is used at app/main.py:8" in finding["message"]


def test_a_changed_python_file_is_seen_through_the_cache(tmp_path: Path) -> None:
    cli = _tree(tmp_path, LEGACY_APP, "anthropic==0.28.0")
    first = cli.json("check", "--select", "CM201", "requirements.txt")["diagnostics"]
    assert first[0]["fix"]["applicability"] == "unsafe"
    (tmp_path / "app" / "main.py").write_text(CURRENT_APP, encoding="utf-8")
    second = cli.json("check", "--select", "CM201", "requirements.txt")["diagnostics"]
    assert second[0]["fix"]["applicability"] == "safe"


def test_the_search_for_uses_parses_only_files_that_spell_a_removed_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import libcst

    from claude_migrate.analysis import sdk_uses
    from claude_migrate.policy.deprecations import SdkRemoval

    removals = (
        SdkRemoval("count_tokens", "client-method", "0.39.0", "", "CM201"),
        SdkRemoval("beta.prompt_caching", "client-attribute", "0.41.0", "", "CM303"),
        SdkRemoval(
            "MessageParam", "constructor", "2.0.0", "", "CM303", ("anthropic.types.MessageParam",)
        ),
    )
    write_tree(
        tmp_path,
        {
            # Names the SDK, spells no removed name: nothing to parse.
            "plain.py": "import anthropic\n\nclient = anthropic.Anthropic()\n",
            "method.py": "import anthropic\n\nc = anthropic.Anthropic()\nc.count_tokens('x')\n",
            "attribute.py": (
                "import anthropic\n\nc = anthropic.Anthropic()\n"
                "c.beta.prompt_caching.messages.create()\n"
            ),
            "aliased.py": "from anthropic.types import MessageParam as M\n\nM(role='user')\n",
        },
    )
    parsed: list[str] = []
    real = libcst.parse_module

    def counting(text: str, *args: object, **kwargs: object) -> libcst.Module:
        parsed.append(text)
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(libcst, "parse_module", counting)
    sdk_uses._file_uses.cache_clear()
    found = sdk_uses.uses(str(tmp_path), removals)
    assert found == {
        "count_tokens": ["method.py:4"],
        "beta.prompt_caching": ["attribute.py:4"],
        "MessageParam": ["aliased.py:3"],
    }
    assert len(parsed) == 3
    assert not any("client = anthropic.Anthropic()" in text for text in parsed)


def test_a_requirements_folder_s_files_are_judged_on_the_code_beside_the_folder(
    tmp_path: Path,
) -> None:
    # `requirements/base.txt` installs the project around the folder, not the folder alone.
    write_tree(
        tmp_path,
        {
            "requirements/base.txt": "anthropic==0.28.0\n",
            "app/main.py": LEGACY_APP,
            "claude-migrate.toml": POLICY,
        },
    )
    cli = Cli(tmp_path)
    [finding] = cli.json("check", "--select", "CM201", "requirements/base.txt")["diagnostics"]
    assert finding["fix"]["applicability"] == "unsafe"
    assert "completions (removed in 1.0.0) is used at app/main.py:9" in finding["message"]
