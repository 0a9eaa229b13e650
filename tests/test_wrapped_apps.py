"""Shapes seen in applications that route every Claude call through their own layers.

Each tree is small and written here, in the shape real applications use: a provider switch, a
settings object, a base class, a registry of providers. A shape the analysis does not follow yet
is `xfail(strict=True)`: when it starts passing, the marker must go.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

POLICY = 'extend = "default"\nselect = ["CM101", "CM102", "CM104", "CM302"]\n'


def _findings(root: Path) -> set[tuple[str, int, str]]:
    data = Cli(root).json("check", "--no-cache", ".")
    assert not data["errors"], data["errors"]
    return {
        (d["path"], d["line"], d["code"])
        for d in data["diagnostics"]
        if "found as data" not in d["message"]
    }


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    base = {"pyproject.toml": "[project]\nname='app'\n", "claude-migrate.toml": POLICY}
    base["app/__init__.py"] = ""
    return write_tree(tmp_path / "repo", {**base, **files})


SWITCH = """\
import os

from anthropic import Anthropic
from openai import OpenAI


def make_client():
    if os.environ.get("LLM_PROVIDER") == "openai":
        return OpenAI()
    return Anthropic()
"""


def test_a_provider_switch_in_the_module_of_the_call_is_a_claude_call(tmp_path: Path) -> None:
    use = (
        SWITCH + "\n\ndef ask(messages):\n    client = make_client()\n"
        "    return client.messages.create(\n"
        '        model="claude-sonnet-4-6", max_tokens=4096, messages=messages\n    )\n'
    )
    root = _tree(tmp_path, {"app/ask.py": use})
    assert _findings(root) == {("app/ask.py", 15, "CM104"), ("app/ask.py", 16, "CM102")}


def test_a_provider_switch_in_another_module_is_a_claude_call(tmp_path: Path) -> None:
    use = (
        "from app.clients import make_client\n\n\ndef ask(messages):\n"
        "    client = make_client()\n"
        '    return client.messages.create(model="claude-sonnet-4-6", max_tokens=4096, '
        "messages=messages)\n"
    )
    root = _tree(tmp_path, {"app/clients.py": SWITCH, "app/ask.py": use})
    assert ("app/ask.py", 6, "CM102") in _findings(root)


def test_a_client_cached_per_thread_is_still_the_client_made(tmp_path: Path) -> None:
    source = """\
import threading

from anthropic import Anthropic

_local = threading.local()


def get_client():
    client = getattr(_local, "client", None)
    if client is not None:
        return client
    client = Anthropic()
    _local.client = client
    return client


def ask(messages):
    return get_client().messages.create(model="claude-sonnet-4-6", max_tokens=64, messages=messages)
"""
    root = _tree(tmp_path, {"app/ask.py": source})
    assert ("app/ask.py", 18, "CM104") in _findings(root)


def test_a_budget_set_in_branches_is_reported_for_the_branch_above_the_ceiling(
    tmp_path: Path,
) -> None:
    source = """\
from anthropic import Anthropic

client = Anthropic()


def review(kind, text):
    if kind == "schema":
        budget = 1500
    else:
        budget = 800
    return client.messages.create(
        model="claude-sonnet-4-6", max_tokens=budget, messages=[], stream=True
    )
"""
    root = _tree(tmp_path, {"app/review.py": source})
    assert ("app/review.py", 8, "CM102") in _findings(root)


def test_a_base_class_default_in_another_module_is_reported_where_it_is_written(
    tmp_path: Path,
) -> None:
    files = {
        "app/base.py": (
            "class Backend:\n    def __init__(self, model, max_tokens=4096):\n"
            "        self.model = model\n        self.max_tokens = max_tokens\n"
        ),
        "app/chat.py": (
            "from anthropic import Anthropic\n\nfrom app.base import Backend\n\n\n"
            "class Chat(Backend):\n    def ask(self, text):\n"
            "        return Anthropic().messages.create(\n"
            "            model=self.model, max_tokens=self.max_tokens, messages=[], stream=True\n"
            "        )\n"
        ),
        "app/main.py": (
            "from app.chat import Chat\n\n\ndef run():\n"
            '    return Chat("claude-sonnet-4-6").ask("x")\n'
        ),
    }
    root = _tree(tmp_path, files)
    assert ("app/base.py", 2, "CM102") in _findings(root)


def test_a_provider_registry_builds_the_claude_model_from_the_settings(tmp_path: Path) -> None:
    files = {
        "app/settings.py": (
            "from dataclasses import dataclass\n\n\n@dataclass\nclass Settings:\n"
            "    name: str\n    provider: str\n    temperature: float = 0.0\n"
        ),
        "app/providers.py": """\
from langchain_anthropic import ChatAnthropic


class Provider:
    def __init__(self, settings):
        self.settings = settings
        self.model = self.build()

    def build(self):
        raise NotImplementedError


class ClaudeProvider(Provider):
    def build(self):
        return ChatAnthropic(
            model=self.settings.name, temperature=self.settings.temperature, streaming=True
        )


PROVIDERS = {"anthropic": ClaudeProvider}


def create(settings):
    return PROVIDERS[settings.provider](settings)
""",
        "app/main.py": (
            "from app.providers import create\nfrom app.settings import Settings\n\n\n"
            "def run():\n"
            '    return create(Settings("claude-sonnet-4-6", "anthropic", temperature=0.7))\n'
        ),
    }
    root = _tree(tmp_path, files)
    assert ("app/main.py", 6, "CM101") in _findings(root)


def test_settings_read_through_the_module_are_reported_at_the_calls_checked_alone(
    tmp_path: Path,
) -> None:
    # A pre-commit run stages the callers only: the constants' module is not written, so each
    # call is reported where it reads the constant, without a fix.
    files = {
        "app/settings.py": (
            'MODEL = "claude-3-opus-20240229"\nTEMPERATURE = 0.9\nMAX_TOKENS = 8000\n'
        ),
        "app/a.py": (
            "import anthropic\n\nimport app.settings as s\n\n\ndef ask(m):\n"
            "    return anthropic.Anthropic().messages.create(\n"
            "        model=s.MODEL, max_tokens=s.MAX_TOKENS, temperature=s.TEMPERATURE,\n"
            "        messages=m, stream=True,\n    )\n"
        ),
        "app/b.py": (
            "import anthropic\n\nfrom app import settings\n\n\ndef ask(m):\n"
            "    return anthropic.Anthropic().messages.create(\n"
            "        model=settings.MODEL, max_tokens=100, messages=m, stream=True\n    )\n"
        ),
    }
    root = _tree(tmp_path, files)
    data = Cli(root).json("check", "--no-cache", "app/a.py", "app/b.py")
    found = {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}
    assert found == {
        ("app/a.py", 8, "CM302"),
        ("app/a.py", 8, "CM102"),
        ("app/a.py", 8, "CM101"),
        ("app/b.py", 8, "CM302"),
    }
    assert all(d.get("fix") is None for d in data["diagnostics"])
