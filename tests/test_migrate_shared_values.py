"""CM304 does not change a request value a call that stays on its model also sends.

`PARAMS = {"temperature": 0.3, "top_p": 0.9}` spread into a Claude 3.5 Sonnet call and a Claude
3.5 Haiku call: `migrate --to claude-sonnet-4-6` moves the Sonnet call, and Claude Sonnet 4.6
takes temperature or top_p, not both. Removing `top_p` from `PARAMS` would change the Haiku
call's request too, which does not move; the Sonnet call keeps its model and the finding says
why. When every call reading the value moves, the value is changed as before.
"""

from __future__ import annotations

from helpers import Cli, write_tree

HEAD = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n"
    'PARAMS = {"temperature": 0.3, "top_p": 0.9}\n\n\n'
)
CALL = (
    "def {name}(q):\n"
    "    return client.messages.create(\n"
    '        model="{model}", max_tokens=900,\n'
    '        messages=[{{"role": "user", "content": q}}], **PARAMS,\n'
    "    )\n"
)
SONNET = CALL.format(name="ask", model="claude-3-5-sonnet-20241022")
HAIKU = CALL.format(name="fast", model="claude-3-5-haiku-20241022")
SONNET_37 = CALL.format(name="think", model="claude-3-7-sonnet-20250219")


def test_a_value_a_staying_call_sends_is_not_changed(cli: Cli) -> None:
    text = HEAD + SONNET + "\n\n" + HAIKU
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": text})
    cli("migrate", "--no-cache", "--to", "claude-sonnet-4-6", "--report", "r.json", ".")
    assert (cli.cwd / "app.py").read_text() == text
    report = (cli.cwd / "r.json").read_text()
    assert "the request change edits PARAMS, which the call on line 15 also sends" in report


def test_a_value_every_moving_call_sends_is_changed(cli: Cli) -> None:
    write_tree(cli.cwd, {"pyproject.toml": "", "app.py": HEAD + SONNET + "\n\n" + SONNET_37})
    cli("migrate", "--no-cache", "--to", "claude-sonnet-4-6", ".")
    moved = (cli.cwd / "app.py").read_text()
    assert 'PARAMS = {"temperature": 0.3}' in moved
    assert moved.count('model="claude-sonnet-4-6"') == 2
