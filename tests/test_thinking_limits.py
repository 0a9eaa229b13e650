"""Extended thinking's own limits: `max_tokens` above `thinking.budget_tokens`, temperature 1.

A request with `thinking={"type": "enabled", "budget_tokens": N}` answers 400 when `max_tokens`
is not above N, when N is below 1024, or when it sets a temperature other than 1
(https://platform.claude.com/docs/en/build-with-claude/extended-thinking). CM108 reports such a
request on the model it names; `migrate --to` a model that still takes manual thinking keeps the
call where it is (no fix) and says why, rather than moving a request the target refuses.
"""

from __future__ import annotations

from helpers import Cli, write_tree

APP = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def budget(text):\n"
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-20250514",\n'
    "        max_tokens=2000,\n"
    '        thinking={"type": "enabled", "budget_tokens": 4000},\n'
    '        messages=[{"role": "user", "content": text}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n\n\n"
    "def warm(text):\n"
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-20250514",\n'
    "        max_tokens=8000,\n"
    "        temperature=0.5,\n"
    '        thinking={"type": "enabled", "budget_tokens": 4000},\n'
    '        messages=[{"role": "user", "content": text}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n\n\n"
    "def small(text):\n"
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-20250514",\n'
    "        max_tokens=8000,\n"
    '        thinking={"type": "enabled", "budget_tokens": 500},\n'
    '        messages=[{"role": "user", "content": text}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n\n\n"
    "def fine(text):\n"
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-20250514",\n'
    "        max_tokens=8000,\n"
    "        temperature=1,\n"
    '        thinking={"type": "enabled", "budget_tokens": 4000},\n'
    '        messages=[{"role": "user", "content": text}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)


def test_model_params_reports_a_budget_at_max_tokens_and_a_temperature(cli: Cli) -> None:
    write_tree(cli.cwd, {"app.py": APP})
    found = cli.json("check", "--no-cache", "--select", "CM108", ".")["diagnostics"]
    assert [(d["line"], d["fix"]) for d in found] == [(9, None), (20, None), (31, None)]
    assert "max_tokens must be above the budget" in found[0]["message"]
    assert "temperature=0.5 with extended thinking on" in found[1]["message"]
    assert "budget_tokens of 500: the least is 1024" in found[2]["message"]


def test_migrate_keeps_a_request_the_target_refuses_and_lists_why(cli: Cli) -> None:
    write_tree(cli.cwd, {"app.py": APP})
    result = cli("migrate", "--to", "claude-sonnet-4-6", "--checklist", "todo.md", ".")
    fixed = (cli.cwd / "app.py").read_text()
    assert fixed.count('model="claude-sonnet-4-20250514"') == 3
    assert fixed.count('model="claude-sonnet-4-6"') == 1
    checklist = (cli.cwd / "todo.md").read_text()
    assert "max_tokens must be above the budget" in checklist
    assert "with extended thinking on" in checklist
    assert result.exit_code == 1
