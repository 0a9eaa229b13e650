"""CM101, CM102 and CM103 keep a value a test states again in what it expects of the call it makes.

`assert payload["temperature"] == 0.7` after `ChatAnthropic(temperature=0.7)`, or an expected
request body `{"max_tokens": 4096}` compared with what a mocked client received: setting the
call's value alone would make the test compare the new value with the old one.
"""

from __future__ import annotations

import pytest
from helpers import Cli, write_tree

PAYLOAD = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def test_payload():\n"
    "    model = ChatAnthropic(\n"
    '        model="claude-sonnet-4-6",\n'
    "        temperature=0.7,\n"
    "        max_tokens=1000,\n"
    "    )\n"
    '    payload = model._get_request_payload(["hi"])\n'
    '    assert payload["temperature"] == 0.7\n'
)
BODY = (
    "import json\nfrom unittest.mock import MagicMock\n\nimport anthropic\n\n\n"
    "def test_body():\n"
    "    client = anthropic.Anthropic()\n"
    "    client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=4096,\n'
    '        messages=[{"role": "user", "content": "hi"}],\n'
    "    )\n"
    "    expected = {\n"
    '        "max_tokens": 4096,\n'
    '        "messages": [{"role": "user", "content": "hi"}],\n'
    "    }\n"
    "    assert sent() == expected\n"
)
MOCKED = (
    "import anthropic\n\n\n"
    "def test_called():\n"
    "    client = anthropic.Anthropic()\n"
    "    client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=4096, messages=[],\n'
    "    )\n"
    "    client.messages.create.assert_called_once_with(\n"
    '        model="claude-sonnet-4-6", max_tokens=4096, messages=[],\n'
    "    )\n"
)
UNRELATED = (
    "import anthropic\n\n\n"
    "def test_other_numbers():\n"
    "    client = anthropic.Anthropic()\n"
    "    client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=4096, messages=[],\n'
    "    )\n"
    '    assert len("x" * 4096) == 4096\n'
    '    assert {"max_tokens": 100}["max_tokens"] == 100\n'
)


def _run(cli: Cli, text: str, path: str = "tests/test_x.py") -> tuple[list[dict], str]:
    write_tree(cli.cwd, {"pyproject.toml": "", path: text})
    found = cli.json("check", "--no-cache", "--select", "CM101,CM102")["diagnostics"]
    cli("fix", "--select", "CM101,CM102", ".")
    return found, (cli.cwd / path).read_text()


def test_an_asserted_temperature_keeps_its_value_and_the_other_parameter_moves(cli: Cli) -> None:
    found, after = _run(cli, PAYLOAD)
    (temperature,) = [d for d in found if d["code"] == "CM101"]
    assert temperature["fix"] is None
    assert "again in what it expects (line 11)" in temperature["message"]
    assert "temperature=0.7," in after


def test_an_expected_request_body_keeps_max_tokens(cli: Cli) -> None:
    found, after = _run(cli, BODY)
    assert [d["fix"] for d in found] == [None]
    assert "line 14" in found[0]["message"]
    assert after == BODY


def test_a_mock_expectation_keeps_max_tokens(cli: Cli) -> None:
    found, after = _run(cli, MOCKED)
    assert [d["fix"] for d in found] == [None]
    assert after == MOCKED


def test_other_numbers_and_other_names_leave_the_fix(cli: Cli) -> None:
    found, after = _run(cli, UNRELATED)
    assert [d["fix"] is not None for d in found] == [True]
    assert "max_tokens=1024" in after


def test_the_same_code_outside_the_tests_keeps_the_fix(cli: Cli) -> None:
    found, after = _run(cli, BODY.replace("def test_body", "def body"), path="app/body.py")
    assert [d["fix"] is not None for d in found] == [True]
    assert "max_tokens=1024" in after


HELPER = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def make_model():\n"
    '    return ChatAnthropic(model="claude-sonnet-4-6", temperature=0.6, max_tokens=512)\n\n\n'
    "def test_builds_a_model():\n"
    "    model = make_model()\n"
    "    assert model.temperature == 0.6\n\n\n"
    "def test_other():\n"
    "    assert make_model() is not None\n"
)


def test_a_helper_the_tests_call_keeps_a_value_one_of_them_states_again(cli: Cli) -> None:
    found, after = _run(cli, HELPER)
    (temperature,) = [d for d in found if d["code"] == "CM101"]
    assert temperature["fix"] is None
    assert "again in what it expects (line 10)" in temperature["message"]
    assert "temperature=0.6" in after


# A span an instrumentation test expects: the request's stop sequences are recorded in it.
SPAN = (
    "import anthropic\n\n\n"
    "def test_span(exporter):\n"
    "    client = anthropic.Anthropic()\n"
    "    client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=100, messages=[],\n'
    '        stop_sequences=["END", "STOP"],\n'
    "    )\n"
    "    assert exporter.spans() == [\n"
    '        {"request": {"max_tokens": 100, "stop_sequences": ["END", "STOP"]}},\n'
    "    ]\n"
)


def _stops(cli: Cli, text: str, path: str = "tests/test_x.py") -> tuple[list[dict], str]:
    write_tree(cli.cwd, {"pyproject.toml": "", path: text})
    found = cli.json("check", "--no-cache", "--select", "CM103")["diagnostics"]
    cli("fix", "--unsafe-fixes", "--select", "CM103", ".")
    return found, (cli.cwd / path).read_text()


def test_stop_sequences_a_test_expects_again_are_kept(cli: Cli) -> None:
    found, after = _stops(cli, SPAN)
    assert [d["fix"] for d in found] == [None]
    assert "states them again in what it expects (line 11)" in found[0]["message"]
    assert after == SPAN


def test_other_stop_sequences_in_the_expectation_leave_the_fix(cli: Cli) -> None:
    other = SPAN.replace('"stop_sequences": ["END", "STOP"]', '"stop_sequences": ["END"]')
    found, after = _stops(cli, other)
    assert [d["fix"] is not None for d in found] == [True]
    assert "stop_sequences=" not in after


# A module's call and a test of the module that mocks the client and checks what it was sent.
APP = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def ask(text):\n"
    "    return client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=2000, temperature=0.7,\n'
    '        stop_sequences=["END"], messages=[{"role": "user", "content": text}],\n'
    "    )\n"
)
APP_TEST = (
    "from unittest.mock import patch\n\n"
    "import app\n\n\n"
    "def test_ask():\n"
    '    with patch.object(app.client.messages, "create") as create:\n'
    '        app.ask("hi")\n'
    "    create.assert_called_once_with(\n"
    '        model="claude-sonnet-4-6", max_tokens=2000, temperature=0.7,\n'
    '        stop_sequences=["END"], messages=[{"role": "user", "content": "hi"}],\n'
    "    )\n"
)


def test_a_test_of_the_module_that_states_the_values_again_keeps_them(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": APP, "tests/test_app.py": APP_TEST})
    found = cli.json("check", "--no-cache", "--select", "CM101,CM102,CM103")["diagnostics"]
    assert sorted(d["code"] for d in found) == ["CM101", "CM102", "CM103"]
    assert all(d["fix"] is None for d in found)
    assert all("what it expects (tests/test_app.py:1" in d["message"] for d in found)
    cli("fix", "--unsafe-fixes", "--select", "CM101,CM102,CM103", ".")
    assert (cli.cwd / "app.py").read_text() == APP


def test_a_test_of_another_module_or_of_other_values_leaves_the_fix(cli: Cli) -> None:
    other = APP_TEST.replace("import app\n", "import app\nimport other\n").replace(
        "max_tokens=2000, temperature=0.7", "max_tokens=900, temperature=0.1"
    )
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app.py": APP,
            "tests/test_app.py": other,
            "tests/test_other.py": APP_TEST.replace("import app", "import other"),
        },
    )
    cli("fix", "--select", "CM101,CM102", ".")
    fixed = (cli.cwd / "app.py").read_text()
    assert "max_tokens=1024, temperature=0.0" in fixed


# The same test naming the module only as Python reads it: an escape in the patch target, string
# literals Python joins (`"a" "pp"`, across lines and a comment), or an identifier
# NFKC-normalised to the module's name (the text never spells `app` itself).
SPELLED_TESTS = {
    "escape": APP_TEST.replace("import app\n", "import importlib\n")
    .replace(
        'with patch.object(app.client.messages, "create") as create:',
        'with patch("\\x61pp.client.messages.create") as create:',
    )
    .replace('app.ask("hi")', 'importlib.import_module("\\x61pp").ask("hi")'),
    "concatenated": APP_TEST.replace("import app\n", "import importlib\n")
    .replace(
        'with patch.object(app.client.messages, "create") as create:',
        'with patch("a" "pp.client.messages.create") as create:',
    )
    .replace('app.ask("hi")', 'importlib.import_module("a" "pp").ask("hi")'),
    "concatenated_lines": APP_TEST.replace("import app\n", "import importlib\n")
    .replace(
        'with patch.object(app.client.messages, "create") as create:',
        'with patch(\n        "a"  # the package\n'
        '        r"pp.client.messages.create"\n    ) as create:',
    )
    .replace('app.ask("hi")', 'importlib.import_module("a" \\\n "pp").ask("hi")'),
    "nfkc": APP_TEST.replace("import app\n", "import \uff41\uff50\uff50\n").replace(
        "app.", "\uff41\uff50\uff50."
    ),
}


@pytest.mark.parametrize("spelling", sorted(SPELLED_TESTS))
def test_a_test_naming_the_module_in_another_spelling_keeps_the_values(
    cli: Cli, spelling: str
) -> None:
    test = SPELLED_TESTS[spelling]
    assert "app" not in test
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": APP, "tests/test_app.py": test})
    found = cli.json("check", "--no-cache", "--select", "CM101,CM102,CM103")["diagnostics"]
    assert sorted(d["code"] for d in found) == ["CM101", "CM102", "CM103"]
    assert all(d["fix"] is None for d in found)
    cli("fix", "--unsafe-fixes", "--select", "CM101,CM102,CM103", ".")
    assert (cli.cwd / "app.py").read_text() == APP
