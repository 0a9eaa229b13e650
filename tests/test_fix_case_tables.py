"""CM302 gives no fix for a model id in a row of a test's table of cases.

`@pytest.mark.parametrize("name,expected", [("claude-3-5-sonnet", ("vendor",
"claude-3-5-sonnet-20240620")), ...])` then `assert match(name) == expected`: the row pairs an
input with what the project's code answers for it (here from a data file of its own). Renaming
a cell asks the code about the replacement, or expects it as the answer, while the code and its
data still give the old id: the test fails.
"""

from __future__ import annotations

from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
CODE = (
    "import json\n\n"
    "KNOWN = json.load(open('models.json'))\n\n\n"
    "def match(name):\n"
    "    return next(('vendor', m) for m in KNOWN if m.startswith(name))\n"
)
TEST = (
    "import pytest\n\n"
    "from app import match\n\n\n"
    '@pytest.mark.parametrize("name,expected", [\n'
    '    ("claude-3-5-sonnet", ("vendor", "claude-3-5-sonnet-20240620")),\n'
    '    pytest.param("claude-3-haiku-20240307", ("vendor", "claude-3-haiku-20240307"), id="h"),\n'
    "])\n"
    "def test_match(name, expected):\n"
    "    assert match(name) == expected\n"
)
ONE_COLUMN = (
    "import pytest\n\n\n"
    '@pytest.mark.parametrize("model", ["claude-3-haiku-20240307", "claude-3-opus-20240229"])\n'
    "def test_models(model):\n"
    "    assert model\n"
)


def test_an_id_in_a_row_of_cases_is_reported_with_no_fix(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"claude-migrate.toml": POLICY, "app.py": CODE, "tests/test_app.py": TEST},
    )
    found = cli.json("check", "--no-cache", "--select", "CM302", ".")["diagnostics"]
    assert {d["line"] for d in found} == {7, 8}
    assert all(d["fix"] is None for d in found)
    assert all("table of cases" in d["message"] for d in found)
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_app.py").read_text() == TEST


def test_an_id_in_a_table_of_single_values_keeps_its_fix(cli: Cli) -> None:
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "tests/test_models.py": ONE_COLUMN})
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-3-haiku-20240307" not in (cli.cwd / "tests/test_models.py").read_text()
