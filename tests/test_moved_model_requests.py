"""A retired model moved by CM302's fix must leave a request the replacement accepts.

Each tree is small and written here in a shape real code has: an options object a caller fills
and hands to a generator in another module, whose request sends both of its sampling fields. A
shape the fix does not yet withhold its move for is `xfail(strict=True)`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import Cli, write_tree

GENERATOR = """\
from dataclasses import dataclass
from typing import Optional

import anthropic


@dataclass
class Settings:
    temperature: float = 0.1
    top_p: float = 1.0
    model: Optional[str] = None


class Generator:
    def __init__(self):
        self.client = anthropic.Anthropic()

    def generate(self, messages, settings: Settings = Settings()):
        request = {
            "model": settings.model or "claude-sonnet-4-6",
            "max_tokens": 100,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "messages": messages,
        }
        with self.client.messages.stream(**request) as stream:
            return stream.get_final_message()
"""


def _retired_model_fixes(tmp_path: Path, caller: str) -> list[Any]:
    files = {
        "pyproject.toml": "[project]\nname='app'\n",
        "claude-migrate.toml": 'extend = "default"\nselect = ["CM302"]\n',
        "app/__init__.py": "",
        "app/generators.py": GENERATOR,
        "app/callers.py": caller,
    }
    root = write_tree(tmp_path / "repo", files)
    data = Cli(root).json("check", "--no-cache", "--unsafe-fixes", ".")
    assert not data["errors"], data["errors"]
    found = [d for d in data["diagnostics"] if d["path"] == "app/callers.py"]
    assert found, data["diagnostics"]
    return [d["fix"] for d in found]


def test_a_model_given_to_the_options_constructor_is_not_moved(tmp_path: Path) -> None:
    caller = (
        "from app.generators import Generator, Settings\n\n\n"
        "def ask():\n"
        '    settings = Settings(model="claude-3-5-sonnet-20240620", temperature=0.0, top_p=0.9)\n'
        "    return Generator().generate([], settings=settings)\n"
    )
    assert _retired_model_fixes(tmp_path, caller) == [None]


@pytest.mark.xfail(
    strict=True,
    reason="a model assigned as data to an options object's attribute (`settings.model = ...`) "
    "is moved without reading the request of the wrapper the object is handed to",
)
def test_a_model_assigned_to_the_options_attribute_is_not_moved(tmp_path: Path) -> None:
    caller = (
        "from app.generators import Generator, Settings\n\n"
        "settings = Settings(temperature=0.0, top_p=0.9)\n\n\n"
        "def ask():\n"
        '    settings.model = "claude-3-5-sonnet-20240620"\n'
        "    return Generator().generate([], settings=settings)\n"
    )
    assert _retired_model_fixes(tmp_path, caller) == [None]
