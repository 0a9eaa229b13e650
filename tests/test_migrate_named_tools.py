"""A call moved to a model that no longer takes a tool version keeps its model where the tool
comes from a module-level list the call names (`tools=TOOLS`).

`TOOLS = [{"type": "text_editor_20250124", "name": "str_replace_editor"}]` then
`client.messages.stream(model="claude-3-7-sonnet-20250219", tools=TOOLS, ...)`: Claude Sonnet
4.6 no longer takes that version (rules/models.toml, `dropped-tools`), and the list is not
written at the call, where the move would update it. Other calls may read the list, so it is not
edited for this one: the call keeps its model and the reason names the list's line. A list
written at the call is updated with the move, as before.
"""

from __future__ import annotations

from helpers import Cli, write_tree

EDIT = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n"
    'TOOLS = [{"type": "text_editor_20250124", "name": "str_replace_editor"}]\n\n\n'
    "def edit(prompt):\n"
    "    with client.messages.stream(\n"
    '        model="claude-3-7-sonnet-20250219",\n'
    "        max_tokens=1024,\n"
    "        tools=TOOLS,\n"
    '        messages=[{"role": "user", "content": prompt}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)


def test_migrate_keeps_a_call_whose_named_tool_list_holds_a_dropped_version(cli: Cli) -> None:
    write_tree(cli.cwd, {"app/edit.py": EDIT})
    cli("migrate", "--to", "claude-sonnet-4-6", "--no-cache", "--checklist", "left.md", ".")
    assert (cli.cwd / "app/edit.py").read_text() == EDIT
    left = (cli.cwd / "left.md").read_text()
    assert "no longer takes the text_editor_20250124 tool" in left
    assert "which TOOLS (line 4) sends" in left


def test_a_tool_list_written_at_the_call_moves_with_it(cli: Cli) -> None:
    inline = EDIT.replace(
        "tools=TOOLS", 'tools=[{"type": "text_editor_20250124", "name": "str_replace_editor"}]'
    )
    write_tree(cli.cwd, {"app/edit.py": inline})
    cli("migrate", "--to", "claude-sonnet-4-6", "--no-cache", ".")
    text = (cli.cwd / "app/edit.py").read_text()
    assert 'model="claude-sonnet-4-6"' in text
    assert 'tools=[{"type": "text_editor_20250728"' in text
