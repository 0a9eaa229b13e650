"""CM302 keeps a retired id in a test that exercises what the replacement no longer takes.

A helper adds the `token-efficient-tools-2025-02-19` beta header for Claude 3.7 models only, and
its test sets `model_name = "claude-3-7-sonnet-20250219"` and expects the header back. The
replacement, Claude Sonnet 4.6, no longer takes that beta (rules/models.toml), and the helper
rightly leaves it off there: renamed, the test fails. The id keeps its model there (in the test
function naming the beta, or at module level in a test module that names it) and the finding
says why; an id in a test naming no such beta still moves.
"""

from __future__ import annotations

from helpers import Cli, run_tree_tests, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
BETA = "token-efficient-tools-2025-02-19"
HELPER = (
    "def beta_headers(model_name, headers):\n"
    "    headers = dict(headers)\n"
    '    if model_name.startswith("claude-3-7"):\n'
    f'        headers["anthropic-beta"] = "{BETA}"\n'
    "    return headers\n"
)
TEST = (
    "from app.betas import beta_headers\n\n"
    'SONNET_37 = "claude-3-7-sonnet-20250219"\n\n\n'
    "def test_the_header_is_added():\n"
    '    model_name = "claude-3-7-sonnet-20250219"\n'
    f'    assert beta_headers(model_name, {{}})["anthropic-beta"] == "{BETA}"\n\n\n'
    "def test_the_constant_gets_the_header():\n"
    f'    assert "{BETA}" in beta_headers(SONNET_37, {{}})["anthropic-beta"]\n'
)
PLAIN = (
    "from app.betas import beta_headers\n\n\n"
    "def test_no_header_for_older_models():\n"
    '    assert beta_headers("claude-3-5-sonnet-20241022", {}) == {}\n'
)
CALL = (
    "import anthropic\n\n\n"
    "def test_compare_usage():\n"
    "    client = anthropic.Anthropic()\n"
    "    client.messages.create(\n"
    '        model="claude-3-7-sonnet-20250219", max_tokens=100,\n'
    '        messages=[{"role": "user", "content": "hi"}],\n'
    f'        extra_headers={{"anthropic-beta": "{BETA}"}},\n'
    "    )\n"
)


def _tree(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "conftest.py": "",
            "app/__init__.py": "",
            "app/betas.py": HELPER,
            "tests/test_betas.py": TEST,
            "tests/test_plain.py": PLAIN,
        },
    )


def test_an_id_in_a_test_naming_a_dropped_beta_keeps_its_model(cli: Cli) -> None:
    _tree(cli)
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    kept = {d["line"]: d for d in found if d["path"].endswith("test_betas.py")}
    assert sorted(kept) == [3, 7]
    for diagnostic in kept.values():
        assert diagnostic["fix"] is None
        assert f"exercises '{BETA}'" in diagnostic["message"]
        assert "'claude-sonnet-4-6' no longer takes" in diagnostic["message"]
    assert all("(line 8)" in d["message"] for d in kept.values())


def test_the_trees_tests_pass_after_fix_unsafe_fixes(cli: Cli) -> None:
    _tree(cli)
    assert run_tree_tests(cli.cwd).returncode == 0
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_betas.py").read_text() == TEST
    # A test naming no dropped beta moves as before.
    assert "claude-3-5-sonnet-20241022" not in (cli.cwd / "tests/test_plain.py").read_text()
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr


def test_a_call_in_a_test_sending_a_dropped_beta_keeps_its_model(cli: Cli) -> None:
    write_tree(
        cli.cwd, {"pyproject.toml": "", "claude-migrate.toml": POLICY, "tests/test_call.py": CALL}
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [d["line"] for d in found] == [7]
    assert found[0]["fix"] is None and f"exercises '{BETA}' (line 9)" in found[0]["message"]


def test_the_same_call_outside_tests_still_gets_its_fix(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "claude-migrate.toml": POLICY, "app/usage.py": CALL})
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [d["line"] for d in found] == [7] and found[0]["fix"] is not None
