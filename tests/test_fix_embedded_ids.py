"""CM302 keeps a retired id a test expects again inside a longer text.

`Agent(vision_model="anthropic:claude-sonnet-4-20250514")` and then
`assert text.endswith(" [image fallback to claude-sonnet-4-20250514]")`: the code under test
writes the model it switched to into its answer. The text is no model id, so no fix rewrites
it; renaming the argument alone makes the code answer with the replacement while the test
still expects the old id, and it fails. The id keeps its model there, naming the line; an id
whose text the test states whole (a literal of its own, renamed with it) still moves.
"""

from __future__ import annotations

from helpers import Cli, run_tree_tests, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
AGENT = (
    "class Agent:\n"
    "    def __init__(self, vision_model):\n"
    "        self.vision_model = vision_model\n\n"
    "    def answer(self, text):\n"
    '        model = self.vision_model.split(":", 1)[1]\n'
    '        return f"{text} [image fallback to {model}]"\n'
)
TEST = (
    "from app.agent import Agent\n\n\n"
    "def test_fallback_names_the_model():\n"
    '    agent = Agent(vision_model="anthropic:claude-sonnet-4-20250514")\n'
    '    result = agent.answer("ok")\n'
    '    assert result.endswith(" [image fallback to claude-sonnet-4-20250514]")\n'
)
WHOLE = (
    "from app.agent import Agent\n\n\n"
    "def test_the_model_is_kept():\n"
    '    agent = Agent(vision_model="anthropic:claude-sonnet-4-20250514")\n'
    '    assert agent.vision_model == "anthropic:claude-sonnet-4-20250514"\n'
)


def _tree(cli: Cli, test: str) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "conftest.py": "",
            "app/__init__.py": "",
            "app/agent.py": AGENT,
            "tests/test_agent.py": test,
        },
    )


def test_an_id_the_test_expects_inside_a_text_keeps_its_model(cli: Cli) -> None:
    _tree(cli, TEST)
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [(d["line"], d["fix"]) for d in found] == [(5, None)]
    assert "expects this id again inside a text (line 7)" in found[0]["message"]


def test_the_trees_tests_pass_after_fix_unsafe_fixes(cli: Cli) -> None:
    _tree(cli, TEST)
    assert run_tree_tests(cli.cwd).returncode == 0
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_agent.py").read_text() == TEST
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr


def test_an_id_stated_whole_moves_with_its_expectation(cli: Cli) -> None:
    _tree(cli, WHOLE)
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    text = (cli.cwd / "tests/test_agent.py").read_text()
    assert "claude-sonnet-4-20250514" not in text
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr


LOADER = (
    'import tomllib\n\n\ndef model_of(text):\n    return tomllib.loads(text)["model"]["name"]\n'
)
CONFIGURED = (
    "from app.loader import model_of\n\n"
    'CONFIG = """\n'
    "[model]\n"
    'name = "claude-3-5-sonnet-20240620"\n'
    '"""\n\n\n'
    "def test_the_configured_model_is_read():\n"
    '    assert model_of(CONFIG) == "claude-3-5-sonnet-20240620"\n'
)


def test_an_expected_id_a_configuration_text_holds_keeps_its_model(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "claude-migrate.toml": POLICY,
            "conftest.py": "",
            "app/__init__.py": "",
            "app/loader.py": LOADER,
            "tests/test_loader.py": CONFIGURED,
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    assert [(d["line"], d["fix"]) for d in found] == [(10, None)]
    assert "a text of this file (line 3) holds it too" in found[0]["message"]
    cli("fix", "--unsafe-fixes", "--no-cache", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_loader.py").read_text() == CONFIGURED
    after = run_tree_tests(cli.cwd)
    assert after.returncode == 0, after.stdout + after.stderr
