"""Shapes met in applications that route their Claude calls through their own layers, pinned in
small trees (the fixture projects `project-guarded-requests/`, `project-structured-clients/` and
`project-attribute-tables/` run through the CLI in `test_project.py`)."""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree


def _diagnostics(root: Path, *select: str) -> list[dict]:
    data = Cli(root).json("check", "--no-cache", "--select", ",".join(select), ".")
    assert not data["errors"], data["errors"]
    return data["diagnostics"]


def test_a_table_entry_read_by_several_calls_names_no_constant_in_its_related_places(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import anthropic\n\n"
                'MODELS = {"old": "claude-3-opus-20240229", "new": "claude-sonnet-4-6"}\n'
                "client = anthropic.Anthropic()\n\n\n"
                "def ask(name):\n"
                "    return client.messages.create(\n"
                "        model=MODELS[name], max_tokens=100, messages=[], stream=True\n"
                "    )\n\n\n"
                "def ask_or_default(name):\n"
                "    return client.messages.create(\n"
                '        model=MODELS.get(name, "claude-sonnet-4-6"),\n'
                "        max_tokens=100, messages=[], stream=True,\n"
                "    )\n"
            )
        },
    )
    [finding] = [d for d in _diagnostics(root, "CM302") if d["line"] == 3]
    said = {(place["line"], place["message"]) for place in finding["related"]}
    assert said == {
        (9, "this value is read here as the model of a Claude call"),
        (15, "this value is read here as the model of a Claude call"),
    }


def test_a_request_dict_built_in_the_try_body_and_sent_from_its_handler_is_not_read(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import anthropic\n\n"
                "client = anthropic.Anthropic()\n\n\n"
                "def ask(history):\n"
                "    try:\n"
                '        request = {"model": "claude-sonnet-4-6", "messages": history,\n'
                '                   "max_tokens": 9000}\n'
                "        history = list(history)\n"
                "    finally:\n"
                "        return client.messages.create(**request)\n"
            )
        },
    )
    # The `finally` block runs when the `try` body fails before `request` is bound.
    assert _diagnostics(root, "CM102", "CM104") == []


def test_an_openrouter_spelling_of_a_retired_model_is_data(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "routes.py": (
                'ROUTES = {"premium": "anthropic/claude-3.7-sonnet"}\n'
                'CURRENT = {"premium": "anthropic/claude-sonnet-4.6", "cheap": "openai/gpt-4o"}\n'
                'LOOKS = ["claude-3.7-sonnet", "anthropic/claude-3.7-sonnet-x"]\n'
            )
        },
    )
    assert [(d["line"], d["code"]) for d in _diagnostics(root, "CM302")] == [(1, "CM302")]
