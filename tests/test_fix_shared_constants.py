"""A value fix changes only what Claude is sent: a constant other code reads is left alone.

The constant is edited when every use of it in the module is the same parameter of a Claude
call that the same fix sets; otherwise the call's argument gets the literal. The fix's
description names what it edits.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

SHARED = (
    "import random\n"
    "import anthropic\n"
    "TEMP = 0.8\n"
    "client = anthropic.Anthropic()\n"
    "def ask(q):\n"
    "    return client.messages.create(model='claude-sonnet-4-6', max_tokens=10,\n"
    "                                  temperature=TEMP, messages=[], stream=True)\n"
    "def jitter():\n"
    "    return random.uniform(0, TEMP)\n"
)


def _fix(cli: Cli, source: str) -> tuple[str, list[str]]:
    write_tree(cli.cwd, {"app.py": source})
    data = cli.json("check")
    descriptions = [d["fix"]["description"] for d in data["diagnostics"] if d["fix"]]
    cli("fix")
    return (cli.cwd / "app.py").read_text(), descriptions


def test_constant_read_by_other_code_is_left_and_the_call_gets_the_literal(cli: Cli) -> None:
    fixed, descriptions = _fix(cli, SHARED)
    assert fixed == SHARED.replace("temperature=TEMP,", "temperature=0.0,")
    assert "TEMP = 0.8\n" in fixed and "random.uniform(0, TEMP)" in fixed
    assert descriptions == [
        "set temperature to 0.0 in this call (TEMP is also read on line 9, and stays)"
    ]
    assert cli.json("check")["diagnostics"] == []


def test_constant_used_only_by_claude_calls_is_edited_where_it_is_defined(cli: Cli) -> None:
    source = SHARED.replace("random.uniform(0, TEMP)", "random.uniform(0, 1)") + (
        "def again(q):\n"
        "    return client.messages.create(model='claude-sonnet-4-6', max_tokens=10,\n"
        "                                  temperature=TEMP, messages=[], stream=True)\n"
    )
    fixed, descriptions = _fix(cli, source)
    assert fixed == source.replace("TEMP = 0.8", "TEMP = 0.0")
    # One finding at the constant, which both calls read: one fix.
    assert descriptions == ["set TEMP (used by 2 Claude calls) to 0.0"]


def test_one_claude_call_reading_the_constant_is_named_in_the_description(cli: Cli) -> None:
    source = SHARED.replace("random.uniform(0, TEMP)", "random.uniform(0, 1)")
    fixed, descriptions = _fix(cli, source)
    assert fixed == source.replace("TEMP = 0.8", "TEMP = 0.0")
    assert descriptions == ["set TEMP (used by this call) to 0.0"]


def test_constant_also_sent_as_another_parameter_is_not_edited(cli: Cli) -> None:
    # top_p=TEMP is a Claude parameter, but not one the temperature fix sets.
    source = SHARED.replace("random.uniform(0, TEMP)", "0").replace(
        "temperature=TEMP,", "temperature=TEMP, top_p=TEMP,"
    )
    fixed, _ = _fix(cli, source)
    assert "TEMP = 0.8" in fixed
    assert "temperature=0.0, top_p=TEMP," in fixed


def test_a_model_constant_also_logged_is_changed_where_defined(cli: Cli) -> None:
    source = (
        "import logging\n"
        "import anthropic\n"
        "MODEL = 'claude-2.1'\n"
        "client = anthropic.Anthropic()\n"
        "def ask():\n"
        "    logging.info('asking %s', MODEL)\n"
        "    return client.messages.create(model=MODEL, max_tokens=10, messages=[],\n"
        "                                  stream=True)\n"
    )
    write_tree(cli.cwd, {"app.py": source})
    data = cli.json("check", "--select", "CM302")
    assert [d["fix"]["description"] for d in data["diagnostics"]] == [
        "replace 'claude-2.1' with 'claude-sonnet-4-6' in MODEL (used by this call) "
        "(MODEL is also read by the log line on line 6, which then records the value sent)"
    ]
    cli("fix", "--unsafe-fixes", "--select", "CM302")
    fixed = (cli.cwd / "app.py").read_text()
    assert fixed == source.replace("MODEL = 'claude-2.1'", "MODEL = 'claude-sonnet-4-6'")


CACHED = (
    "import hashlib\n"
    "import random\n"
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    "LIMIT = 4000\n"
    "def ask(prompt, cache):\n"
    "    key = hashlib.sha256(f'{LIMIT}:{prompt}'.encode()).hexdigest()\n"
    "    if key not in cache:\n"
    "        cache[key] = client.messages.create(model='claude-sonnet-4-6', max_tokens=LIMIT,\n"
    "                                            messages=[], stream=True)\n"
    "    return cache[key]\n"
)


def test_a_constant_also_in_a_cache_key_is_changed_where_defined(cli: Cli) -> None:
    fixed, descriptions = _fix(cli, CACHED)
    assert fixed == CACHED.replace("LIMIT = 4000", "LIMIT = 1024")
    assert descriptions == [
        "set LIMIT (used by this call) to 1024 (LIMIT is also read by the cache key on line 7, "
        "which then records the value sent)"
    ]


def test_a_cache_key_left_formatting_the_old_value_makes_the_fix_unsafe(cli: Cli) -> None:
    source = CACHED.replace("    if key", "    spread = random.randint(0, LIMIT)\n    if key")
    write_tree(cli.cwd, {"app.py": source})
    [finding] = cli.json("check", "--select", "CM102")["diagnostics"]
    assert finding["fix"]["applicability"] == "unsafe"
    assert finding["fix"]["description"] == (
        "set max_tokens to 1024 in this call (LIMIT is also read on lines 7, 8, and stays); "
        "unsafe: the cache key on line 7 still formats LIMIT's old value"
    )


def test_a_constant_nothing_else_reads_is_never_said_to_be_read(cli: Cli) -> None:
    # `.TEMP` and `TEMP=` are spelled the same but read nothing: the constant is edited.
    source = SHARED.replace("random.uniform(0, TEMP)", "dict(TEMP=1).get('x') or client.TEMP")
    _, descriptions = _fix(cli, source)
    assert descriptions == ["set TEMP (used by this call) to 0.0"]


@pytest.mark.parametrize(
    "config",
    [
        'MODELS = [\n    # "anthropic/claude-3.5-haiku",\n]\nTEMPERATURE = 1.0\n',
        "\n\n\nTEMPERATURE = 1.0\n",  # names nothing of Claude's: read from the importer
    ],
)
def test_a_module_named_after_the_sdk_in_a_plain_folder_imports_the_sdk(
    tmp_path: Path, config: str
) -> None:
    # `src/clients/anthropic.py` (no `__init__.py`) importing `anthropic`: run as a script it
    # would import a second copy of itself and stop at that import, so it works only imported
    # as `src.clients.anthropic`, where the name is the SDK's. Its call is a Claude call of the
    # project, and the constant it reads from `src/config.py` is reported where it is written,
    # once, with the call as a related place: as for any other layout.
    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": (
                '[project]\nname = "bench"\nversion = "0.1.0"\n'
                'dependencies = ["anthropic>=0.49.0", "openai>=1.72.0"]\n'
            ),
            "benchmark.py": (
                "from src.clients.anthropic import ClaudeClient\n"
                "from src.clients.gpt import GptClient\n"
            ),
            "src/clients/gpt.py": (
                "from openai import AsyncOpenAI\n\n"
                "from src.config import TEMPERATURE\n\n\n"
                "class GptClient:\n"
                "    def __init__(self, model):\n"
                "        self.model = model\n"
                "        self.client = AsyncOpenAI()\n\n"
                "    async def ask(self, prompt):\n"
                "        return await self.client.chat.completions.create(\n"
                "            model=self.model, temperature=TEMPERATURE, messages=[]\n"
                "        )\n"
            ),
            "src/config.py": config,
            "src/clients/anthropic.py": (
                "from anthropic import AsyncAnthropic\n\n"
                "from src.config import TEMPERATURE\n\n\n"
                "class ClaudeClient:\n"
                "    def __init__(self, model):\n"
                "        self.model = model\n"
                "        self.client = AsyncAnthropic()\n\n"
                "    async def ask(self, prompt):\n"
                "        response = await self.client.messages.create(\n"
                "            model=self.model,\n"
                "            max_tokens=1024,\n"
                "            temperature=TEMPERATURE,\n"
                '            messages=[{"role": "user", "content": prompt}],\n'
                "        )\n"
                "        return response.content[0].text\n"
            ),
        },
    )
    data = Cli(root).json("check", "--no-cache", "--select", "CM101", ".")
    [finding] = data["diagnostics"]
    assert (finding["path"], finding["line"]) == ("src/config.py", 4)
    assert "TEMPERATURE, read by a Claude call of other modules" in finding["message"]
    assert [(r["path"], r["line"]) for r in finding["related"]] == [
        ("src/clients/anthropic.py", 12)
    ]
    # Unsafe, and says so: every module importing it (the OpenAI client's too) gets the value.
    assert finding["fix"]["description"] == (
        "set TEMPERATURE to 0.0 (read by every module that imports it)"
    )
