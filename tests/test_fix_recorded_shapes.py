"""CM104 and CM301 refuse to change a call's shape where a test replays a recorded exchange of it
(or, for LangChain's `streaming=True`, configures a mock of the method it would stop calling).

A recording (pytest-recording's `cassettes/<module>/` beside the test module, replayed by vcrpy)
answers the request as it was sent: one made of a non-streaming `messages.create` holds a JSON
message, while `messages.stream()` reads server-sent events (the SDK's stream then ends with no
message), and one made of `completions.create` answers `/v1/complete`, not `/v1/messages`.
"""

from __future__ import annotations

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
TEST_APP = "from app import llm\n\n\ndef test_ask():\n    assert llm.ask('hi')\n"
CASSETTE = (
    "interactions:\n- request:\n"
    '    body: \'{"model": "claude-sonnet-4-6", "max_tokens": 100}\'\n'
    "    uri: https://api.anthropic.com/v1/messages\n"
    "  response:\n"
    "    body:\n"
    '      string: \'{"type": "message", "content": [{"type": "text", "text": "hello"}]}\'\n'
)
OTHER_VENDOR = "interactions:\n- request:\n    uri: https://api.example.invalid/v1/embeddings\n"
IN_TEST = (
    "import anthropic\n\n\n"
    "def test_reply():\n"
    "    client = anthropic.Anthropic()\n"
    "    response = client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=100,\n'
    '        messages=[{"role": "user", "content": "hi"}],\n'
    "    )\n"
    "    assert response.content\n"
)


def _streaming(cli: Cli, path: str) -> dict:
    found = cli.json("check", "--no-cache", "--select", "CM104")["diagnostics"]
    (finding,) = [d for d in found if d["path"] == path]
    return finding


def test_a_call_in_a_test_that_replays_a_recording_of_it_keeps_its_shape(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "tests/test_reply.py": IN_TEST,
            "tests/cassettes/test_reply/test_reply.yaml": CASSETTE,
        },
    )
    finding = _streaming(cli, "tests/test_reply.py")
    assert finding["fix"] is None
    assert "replays the exchanges recorded in cassettes/test_reply/" in finding["message"]
    cli("fix", "--unsafe-fixes", "--select", "CM104", ".")
    assert (cli.cwd / "tests/test_reply.py").read_text() == IN_TEST


def test_a_call_of_a_module_whose_tests_replay_recordings_keeps_its_shape(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_llm.py": TEST_APP,
            "tests/cassettes/test_llm/test_ask.yaml": CASSETTE,
        },
    )
    finding = _streaming(cli, "app/llm.py")
    assert finding["fix"] is None
    assert "tests/test_llm.py:1, replays the exchanges recorded in" in finding["message"]


def test_recordings_of_another_vendor_leave_the_rewrite_offered(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_llm.py": TEST_APP,
            "tests/cassettes/test_llm/test_embed.yaml": OTHER_VENDOR,
        },
    )
    assert _streaming(cli, "app/llm.py")["fix"] is not None


def test_the_completions_rewrite_keeps_a_call_its_tests_replay_a_recording_of(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "setup.py": "",
            "app/__init__.py": "",
            "app/llm.py": LEGACY,
            "tests/test_llm.py": TEST_APP,
            "tests/cassettes/test_llm/test_ask.yaml": CASSETTE,
        },
    )
    found = cli.json("check", "--no-cache", "--select", "CM301")["diagnostics"]
    calls = [d for d in found if "completions.create()" in d["message"]]
    assert len(calls) == 1 and calls[0]["fix"] is None
    assert "cassettes/test_llm/" in calls[0]["message"]


def test_a_recording_added_after_a_warm_run_withdraws_the_rewrite(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "pyproject.toml": "",
            "app/__init__.py": "",
            "app/llm.py": APP,
            "tests/test_llm.py": TEST_APP,
        },
    )
    first = cli.json("check", "--select", "CM104")["diagnostics"]
    assert [d["fix"] is not None for d in first] == [True]
    write_tree(cli.cwd, {"tests/cassettes/test_llm/test_ask.yaml": CASSETTE})
    doubles._states.clear()  # the digest is reused for a few seconds within a process
    second = cli.json("check", "--select", "CM104")["diagnostics"]
    assert [d["fix"] is None for d in second] == [True]


BEDROCK_DOUBLE = (
    "from unittest.mock import MagicMock\n\n"
    "from langchain_aws import ChatBedrock\n\n\n"
    "def test_invoke():\n"
    "    client = MagicMock()\n"
    "    client.invoke_model.return_value = {'body': None}\n"
    "    llm = ChatBedrock(\n"
    "        client=client,\n"
    '        model_id="anthropic.claude-haiku-4-5-20251001-v1:0",\n'
    "    )\n"
    '    llm.invoke("hi")\n'
)


def test_a_langchain_model_whose_test_mocks_the_unstreamed_method_gets_no_flag(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_chat.py": BEDROCK_DOUBLE})
    finding = _streaming(cli, "tests/test_chat.py")
    assert finding["fix"] is None
    assert "mock of the client's invoke_model (line 8)" in finding["message"]
    assert "invoke_model_with_response_stream" in finding["message"]


def test_the_same_model_without_the_mock_gets_the_flag(cli: Cli) -> None:
    text = BEDROCK_DOUBLE.replace("    client.invoke_model.return_value = {'body': None}\n", "")
    write_tree(cli.cwd, {"pyproject.toml": "", "tests/test_chat.py": text})
    assert _streaming(cli, "tests/test_chat.py")["fix"] is not None
