"""CM104 and CM301 refuse a rewrite the project's tests would no longer see, naming the test."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

from claude_migrate.analysis import doubles

APP = (
    "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
    "def ask(q):\n"
    "    reply = client.messages.create(\n"
    '        model="claude-sonnet-4-6",\n'
    "        max_tokens=100,\n"
    '        messages=[{"role": "user", "content": q}],\n'
    "    )\n"
    "    return reply.content[0].text\n"
)
LEGACY = (
    "import anthropic\nfrom anthropic import AI_PROMPT, HUMAN_PROMPT\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def ask(q):\n"
    "    r = client.completions.create(\n"
    '        model="claude-2.1", max_tokens_to_sample=100,\n'
    '        prompt=f"{HUMAN_PROMPT} {q}{AI_PROMPT}",\n'
    "    )\n"
    "    return r.completion\n"
)


@pytest.mark.parametrize(
    ("test", "what"),
    [
        (
            "from unittest import mock\nfrom app import llm\n\n\ndef test_ask():\n"
            "    with mock.patch.object(llm.client.messages, 'create') as create:\n"
            "        llm.ask('q')\n",
            "tests/test_llm.py:6, mock.patch.object on messages.create",
        ),
        (
            "from unittest.mock import patch\n\n\n"
            "@patch('app.llm.client.messages.create')\ndef test_ask(create):\n    pass\n",
            "tests/test_llm.py:4, patch('app.llm.client.messages.create')",
        ),
        (
            "from app import llm\n\n\ndef test_ask(mocker):\n"
            "    fake = mocker.MagicMock()\n"
            "    fake.messages.create.return_value = object()\n"
            "    llm.client = fake\n",
            "tests/test_llm.py:6, a mock configured on messages.create",
        ),
        (
            "from app import llm\n\n\ndef test_ask(monkeypatch):\n"
            "    monkeypatch.setattr(llm.client.messages, 'create', lambda **kw: None)\n",
            "tests/test_llm.py:5, monkeypatch.setattr on messages.create",
        ),
        (
            "from types import SimpleNamespace\nfrom app import llm\n\n\n"
            "def test_ask(monkeypatch):\n"
            "    fake = SimpleNamespace(messages=SimpleNamespace(create=lambda **kw: None))\n"
            "    monkeypatch.setattr(llm, 'client', fake)\n",
            "tests/test_llm.py:6, a stand-in messages object with create only",
        ),
        (
            "import httpx\nimport respx\nfrom app import llm\n\n\n@respx.mock\ndef test_ask():\n"
            "    respx.post('https://api.anthropic.com/v1/messages').mock(\n"
            "        return_value=httpx.Response(200, json={})\n    )\n",
            "tests/test_llm.py:8, an HTTP mock of /v1/messages (respx.post)",
        ),
        (
            "from app import llm\n\n\ndef test_ask(respx_mock):\n"
            "    respx_mock.route(method='POST', url__regex=r'.*/v1/messages$')\n",
            "tests/test_llm.py:5, an HTTP mock of /v1/messages (respx_mock.route)",
        ),
        (
            "from app import llm\n\nBASE = 'https://api.anthropic.com'\n\n\n"
            "def test_ask(httpx_mock):\n"
            "    httpx_mock.add_response(url=f'{BASE}/v1/messages', json={})\n",
            "tests/test_llm.py:7, an HTTP mock of /v1/messages (httpx_mock.add_response)",
        ),
        (
            "import anthropic\nfrom unittest import mock\nfrom app import llm\n\n\n"
            "def test_ask():\n"
            "    with mock.patch.object(anthropic.resources.messages.Messages, 'create'):\n"
            "        llm.ask('q')\n",
            "tests/test_llm.py:7, mock.patch.object on Messages.create",
        ),
        (
            "from unittest.mock import patch\nfrom app import llm\n\n\n"
            "@patch('anthropic.resources.AsyncMessages.create')\ndef test_ask(create):\n"
            "    pass\n",
            "tests/test_llm.py:5, patch('anthropic.resources.AsyncMessages.create')",
        ),
        (
            "from app import llm\n\n\nclass FakeClient:\n    def __init__(self, **kw):\n"
            "        self.messages = self\n\n    def create(self, **kw):\n        return None\n",
            "tests/test_llm.py:4, fake class FakeClient is its own messages",
        ),
        (
            "import anthropic\nimport httpx\nfrom app import llm\n\n\n"
            "def test_ask(monkeypatch):\n"
            "    transport = httpx.MockTransport(lambda request: httpx.Response(200, json={}))\n"
            "    http = httpx.Client(transport=transport)\n"
            "    monkeypatch.setattr(llm, 'client', anthropic.Anthropic(http_client=http))\n",
            "tests/test_llm.py:7, an httpx.MockTransport answering the client's requests",
        ),
        (
            "from app import llm\n\n\nclass StubAnthropic:\n    def create(self, **kw):\n"
            "        return None\n",
            "tests/test_llm.py:4, fake client StubAnthropic has create and no stream",
        ),
        (
            "from app import llm\n\n\nclass Completions:\n    def create(self, **kw):\n"
            "        return None\n\n\nclass FakeClient:\n    messages = Completions()\n",
            "tests/test_llm.py:4, fake class Completions has create and no stream",
        ),
    ],
)
def test_each_shape_of_test_double_refuses_the_streaming_rewrite(
    cli: Cli, test: str, what: str
) -> None:
    _refused(cli, test, what)


def _refused(cli: Cli, test: str, what: str) -> None:
    write_tree(
        cli.cwd,
        {"pyproject.toml": "", "app/__init__.py": "", "app/llm.py": APP, "tests/test_llm.py": test},
    )
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert len(found) == 1
    assert found[0]["fix"] is None
    assert what in found[0]["message"]
    assert "would not see the rewritten call" in found[0]["message"]


@pytest.mark.parametrize(
    ("spelled", "what"),
    [
        ("'cre' 'ate'", "mock.patch.object on messages.create"),
        ("'cr\\x65ate'", "mock.patch.object on messages.create"),
        ("(\n        'cr'  # the method\n        'eate'\n    )", "on messages.create"),
    ],
    ids=["joined", "escape", "joined_lines"],
)
def test_a_double_naming_create_only_as_python_reads_it_refuses_the_rewrite(
    cli: Cli, spelled: str, what: str
) -> None:
    test = (
        "from unittest import mock\nfrom app import llm\n\n\ndef test_ask():\n"
        f"    with mock.patch.object(llm.client.messages, {spelled}) as create:\n"
        "        llm.ask('q')\n"
    ).replace(" as create", " as fake")
    assert "create" not in test
    _refused(cli, test, what)


def test_an_http_mock_naming_the_endpoint_in_joined_literals_refuses_the_rewrite(
    cli: Cli,
) -> None:
    test = (
        "import httpx\nimport respx\nfrom app import llm\n\n\n@respx.mock\ndef test_ask():\n"
        "    respx.post('https://api.anthropic.com/v1/mess' 'ages').mock(\n"
        "        return_value=httpx.Response(200, json={})\n    )\n"
    )
    _refused(cli, test, "tests/test_llm.py:8, an HTTP mock of /v1/messages (respx.post)")


def test_a_test_of_another_module_or_a_fake_with_stream_does_not_refuse(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_other.py": (
                "from unittest import mock\nfrom app import other\n\n\ndef test_x():\n"
                "    with mock.patch.object(other.client.messages, 'create'):\n        pass\n"
            ),
            "tests/test_llm.py": (
                "from app import llm\n\n\nclass Messages:\n"
                "    def create(self, **kw):\n        return None\n\n"
                "    def stream(self, **kw):\n        return None\n"
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert len(found) == 1 and found[0]["fix"] is not None


def test_the_completions_rewrite_refuses_when_tests_mock_completions_create(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "setup.py": "",
            "legacy.py": LEGACY,
            "test_legacy.py": (
                "import legacy\n\n\ndef test_ask(monkeypatch):\n"
                "    monkeypatch.setattr(legacy.client.completions, 'create', lambda **kw: 1)\n"
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM301")["diagnostics"]
    calls = [d for d in found if "completions.create()" in d["message"]]
    assert len(calls) == 1 and calls[0]["fix"] is None
    assert "test_legacy.py:5, monkeypatch.setattr on completions.create" in calls[0]["message"]


def test_a_test_file_with_no_double_of_its_own_is_never_refused(tmp_path: Path) -> None:
    write_tree(tmp_path, {"pyproject.toml": "", "tests/test_llm.py": "x = 1\n"})
    assert doubles.doubles_for(str(tmp_path / "tests" / "test_llm.py"), "messages") == []


def test_the_project_root_is_the_nearest_folder_with_a_project_file(tmp_path: Path) -> None:
    write_tree(tmp_path, {"svc/pyproject.toml": "", "svc/app/deep/x.py": ""})
    assert doubles.project_root(str(tmp_path / "svc/app/deep/x.py")) == str(tmp_path / "svc")


def test_a_changed_test_file_changes_the_result_cache_key(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "app/__init__.py": "", "app/llm.py": APP})
    first = cli.json("check", "--select", "CM104")["diagnostics"]
    assert first[0]["fix"] is not None
    write_tree(
        cli.cwd,
        {
            "tests/test_llm.py": (
                "from unittest.mock import patch\n\n\n"
                "@patch('app.llm.client.messages.create')\ndef test_ask(create):\n    pass\n"
            )
        },
    )
    doubles._states.clear()  # the digest is reused for a few seconds within a process
    second = cli.json("check", "--select", "CM104")["diagnostics"]
    assert second[0]["fix"] is None


def test_an_unreadable_or_deeply_nested_test_file_is_skipped(cli: Cli) -> None:
    deep = "x = " + "[" * 5000 + "]" * 5000 + "\n"
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_deep.py": "from app import llm\nimport create\n" + deep,
            "tests/test_bad.py": b"from app import llm\n\xff\xfe create(\n",
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert len(found) == 1 and found[0]["fix"] is not None


def test_a_mock_of_another_endpoint_or_a_test_client_of_the_app_does_not_refuse(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_llm.py": (
                "from app import llm\n\n\ndef test_count(respx_mock, client):\n"
                "    respx_mock.post('https://api.anthropic.com/v1/messages/count_tokens')\n"
                "    client.post('/v1/messages', json={})\n"
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert len(found) == 1 and found[0]["fix"] is not None


def test_an_http_mock_of_the_completions_endpoint_refuses_the_completions_rewrite(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {
            "setup.py": "",
            "legacy.py": LEGACY,
            "test_legacy.py": (
                "import legacy\n\n\ndef test_ask(httpx_mock):\n"
                "    httpx_mock.add_response(url='https://api.anthropic.com/v1/complete')\n"
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM301")["diagnostics"]
    calls = [d for d in found if "completions.create()" in d["message"]]
    assert len(calls) == 1 and calls[0]["fix"] is None
    assert "test_legacy.py:5, an HTTP mock of /v1/complete" in calls[0]["message"]


def test_a_patch_of_openai_chat_completions_does_not_refuse_the_completions_rewrite(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {
            "setup.py": "",
            "legacy.py": LEGACY,
            "test_legacy.py": (
                "import legacy\nfrom unittest import mock\n\n\ndef test_ask():\n"
                "    with mock.patch('openai.resources.chat.Completions.create'):\n"
                "        pass\n"
            ),
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM301")["diagnostics"]
    calls = [d for d in found if "completions.create()" in d["message"]]
    assert len(calls) == 1 and "test_legacy.py" not in calls[0]["message"]


def test_a_mock_client_fixture_in_conftest_refuses_for_the_modules_its_tests_import(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "app/other.py": APP,
            "tests/conftest.py": (
                "import pytest\nfrom unittest.mock import MagicMock\n\n\n@pytest.fixture\n"
                "def fake_client():\n    client = MagicMock()\n"
                "    client.messages.create.return_value = object()\n    return client\n"
            ),
            "tests/test_llm.py": (
                "from app import llm\n\n\ndef test_ask(monkeypatch, fake_client):\n"
                "    monkeypatch.setattr(llm, 'client', fake_client)\n"
            ),
        },
    )
    found = {
        d["path"]: d for d in cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    }
    assert found["app/llm.py"]["fix"] is None
    assert (
        "tests/conftest.py:8, a mock configured on messages.create"
        in found["app/llm.py"]["message"]
    )
    assert found["app/other.py"]["fix"] is not None  # no test of it uses the fixture


# A test of an instrumentation that makes the call itself, its client answered by a mock
# transport returning one JSON message: the stream the rewrite opens would read events.
OWN_CALL = (
    "import httpx\nfrom anthropic.lib.bedrock import AnthropicBedrock\n\n\n"
    "def handler(request):\n"
    "    return httpx.Response(200, json={'type': 'message', 'content': []})\n\n\n"
    "def test_call():\n"
    "    http = httpx.Client(transport=httpx.MockTransport(handler))\n"
    "    client = AnthropicBedrock(aws_region='us-east-1', http_client=http)\n"
    "    reply = client.messages.create(\n"
    "        model='anthropic.claude-sonnet-4-6', max_tokens=10, messages=[],\n"
    "    )\n"
    "    assert reply.content == []\n"
)


def test_a_tests_own_call_answered_by_a_mock_transport_keeps_its_shape(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_bedrock.py": OWN_CALL})
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert [d["fix"] for d in found] == [None]
    assert "tests/test_bedrock.py:10, an httpx.MockTransport" in found[0]["message"]
    cli("fix", "--unsafe-fixes", "--select", "CM104", ".")
    assert (cli.cwd / "tests" / "test_bedrock.py").read_text() == OWN_CALL


def test_a_tests_own_call_beside_a_mock_transport_of_another_service_is_rewritten(
    cli: Cli,
) -> None:
    # No Claude client in the file: the transport answers some other HTTP client.
    other = OWN_CALL.replace(
        "from anthropic.lib.bedrock import AnthropicBedrock", "from vendor import Bedrock"
    ).replace("AnthropicBedrock(", "Bedrock(")
    real = (
        "import anthropic\n\n\n"
        "def test_live():\n"
        "    client = anthropic.Anthropic()\n"
        "    reply = client.messages.create(\n"
        "        model='claude-sonnet-4-6', max_tokens=10, messages=[],\n"
        "    )\n"
        "    assert reply.content\n"
    )
    write_tree(
        cli.cwd,
        {"pyproject.toml": "", "tests/test_vendor.py": other, "tests/test_live.py": real},
    )
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert [d["path"] for d in found] == ["tests/test_live.py"]
    assert found[0]["fix"] is not None


def test_a_test_file_in_a_declared_encoding_is_read_as_python_reads_it(cli: Cli) -> None:
    # A PEP 263 cookie (latin-1, with a byte that is not UTF-8): Python runs this test, so its
    # patch of messages.create stands in for the call, and the rewrite is refused.
    test = (
        "# -*- coding: latin-1 -*-\n"
        "from unittest.mock import patch\n\n"
        "GREETING = '\xe9t\xe9'\n\n\n"
        "@patch('app.llm.client.messages.create')\ndef test_ask(create):\n    pass\n"
    ).encode("latin-1")
    write_tree(cli.cwd, {"pyproject.toml": "", "app/__init__.py": "", "app/llm.py": APP})
    (cli.cwd / "tests").mkdir()
    (cli.cwd / "tests/test_llm.py").write_bytes(test)
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    assert len(found) == 1
    assert found[0]["fix"] is None, found[0]
    assert "tests/test_llm.py:7, patch('app.llm.client.messages.create')" in found[0]["message"]
