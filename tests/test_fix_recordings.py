"""A model id a test sends to a recorded exchange it replays keeps it (fixtures/project-recordings).

The recording (pytest-recording's `cassettes/<module>/` beside the test module) answers the
request it was made with; vcrpy may match on the body, so a renamed request finds none.
"""

from __future__ import annotations

import os

import pytest
from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
APP = (
    "import anthropic\n\n\n"
    "def reply(text, model):\n"
    "    return anthropic.Anthropic().messages.create(\n"
    "        model=model, max_tokens=100, stream=True,\n"
    '        messages=[{"role": "user", "content": text}],\n'
    "    )\n"
)
TEST = 'from app import reply\n\n\ndef test_reply():\n    reply("hi", "claude-3-haiku-20240307")\n'
CASSETTE = (
    "interactions:\n- request:\n"
    '    body: \'{"model": "claude-3-haiku-20240307", "max_tokens": 100}\'\n'
    "    uri: https://api.anthropic.com/v1/messages\n"
)


def test_an_id_a_recording_holds_keeps_it_and_the_finding_names_the_recording(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "app.py": APP,
            "tests/test_app.py": TEST,
            "tests/cassettes/test_app/test_reply.yaml": CASSETTE,
        },
    )
    result = cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert (cli.cwd / "tests/test_app.py").read_text() == TEST
    assert "cassettes/test_app/test_reply.yaml" in result.output
    assert "record it again with the new model" in result.output


def test_a_recording_made_again_with_the_new_model_lets_the_id_move_with_a_warm_cache(
    cli: Cli,
) -> None:
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "app.py": APP,
            "tests/test_app.py": TEST,
            "tests/cassettes/test_app/test_reply.yaml": CASSETTE,
        },
    )
    cli("check", "--select", "CM302", ".")  # fills the result cache
    cassette = cli.cwd / "tests/cassettes/test_app/test_reply.yaml"
    cassette.write_text(CASSETTE.replace("claude-3-haiku-20240307", "claude-haiku-4-5-20251001"))
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-haiku-4-5-20251001" in (cli.cwd / "tests/test_app.py").read_text()


def test_a_router_prefix_is_matched_without_it_and_other_ids_move(cli: Cli) -> None:
    test = (
        "import litellm\n\n\n"
        "def test_reply():\n"
        '    litellm.completion(model="anthropic/claude-3-haiku-20240307", messages=[])\n\n\n'
        "def test_other():\n"
        '    litellm.completion(model="claude-3-opus-20240229", messages=[])\n'
    )
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "tests/test_router.py": test,
            "tests/cassettes/test_router/test_reply.yaml": CASSETTE,
        },
    )
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    fixed = (cli.cwd / "tests/test_router.py").read_text()
    assert '"anthropic/claude-3-haiku-20240307"' in fixed
    assert '"claude-opus-4-6"' in fixed


def test_a_default_in_another_module_that_a_recording_holds_keeps_it(cli: Cli) -> None:
    default = 'def reply(text, model="claude-3-haiku-20240307"):'
    app = APP.replace("def reply(text, model):", default)
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "app.py": app,
            "tests/test_app.py": 'from app import reply\n\n\ndef test_reply():\n    reply("hi")\n',
            "tests/cassettes/test_app/test_reply.yaml": CASSETTE,
        },
    )
    result = cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-3-haiku-20240307" in (cli.cwd / "app.py").read_text()
    assert "tests/cassettes/test_app/test_reply.yaml" in result.output


def test_a_default_a_replaying_test_of_another_module_does_not_record_moves(cli: Cli) -> None:
    default = 'def reply(text, model="claude-3-haiku-20240307"):'
    app = APP.replace("def reply(text, model):", default)
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "app.py": app,
            "other.py": "X = 1\n",
            "tests/test_other.py": "from other import X\n\n\ndef test_x():\n    assert X\n",
            "tests/cassettes/test_other/test_x.yaml": CASSETTE,
        },
    )
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-haiku-4-5-20251001" in (cli.cwd / "app.py").read_text()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_named_like_a_cassette_is_skipped_not_waited_on(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"claude-migrate.toml": POLICY, "app.py": APP, "tests/test_app.py": TEST},
    )
    folder = cli.cwd / "tests/cassettes/test_app"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "test_reply.yaml")
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    assert "claude-haiku-4-5-20251001" in (cli.cwd / "tests/test_app.py").read_text()


def test_migrate_keeps_a_default_a_test_of_the_module_replays_and_says_why(cli: Cli) -> None:
    default = 'def reply(text, model="claude-3-haiku-20240307"):'
    app = APP.replace("def reply(text, model):", default)
    write_tree(
        cli.cwd,
        {
            "app.py": app,
            "tests/test_app.py": 'from app import reply\n\n\ndef test_reply():\n    reply("hi")\n',
            "tests/cassettes/test_app/test_reply.yaml": CASSETTE,
        },
    )
    result = cli(
        "migrate", "--to", "claude-haiku-4-5", "--unsafe-fixes", "--checklist", "todo.md", "."
    )
    assert (cli.cwd / "app.py").read_text() == app
    checklist = (cli.cwd / "todo.md").read_text()
    assert "`app.py:4`" in checklist
    assert "tests/cassettes/test_app/test_reply.yaml" in checklist
    assert "record it again with the new model" in checklist
    assert result.exit_code == 1
