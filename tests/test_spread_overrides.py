"""A `**spread` after a literal entry of a request dict may replace it.

`{"temperature": t, **extra}` sends what `extra` holds when it has the key
(https://docs.python.org/3/reference/expressions.html#dictionary-displays: a later key wins), so
the entry is read as sent only when the spread's keys are all seen and lack it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

_ONE_MODULE = """from anthropic import Anthropic

client = Anthropic()


def ask(text, extra):
    request = {{"model": "claude-sonnet-4-6", "max_tokens": 100, "temperature": 0.9,
               "messages": [], **{spread}}}
    with client.messages.stream(**request) as stream:
        return stream.get_final_message()


def run():
    return ask("hi", {{"temperature": 0.0}})
"""


def _lines(root: Path) -> list[tuple[str, int]]:
    data = Cli(root).json("check", "--no-cache", "--select", "CM101", ".")
    assert not data["errors"], data["errors"]
    return [(d["path"], d["line"]) for d in data["diagnostics"]]


def test_an_entry_a_callers_dict_spread_after_it_may_replace_is_not_read(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {"app.py": _ONE_MODULE.format(spread="extra")})
    assert _lines(root) == []


def test_an_entry_a_dict_literal_spread_after_it_lacks_is_still_read(tmp_path: Path) -> None:
    source = _ONE_MODULE.format(spread="base").replace(
        "def ask(text, extra):\n", 'def ask(text, extra):\n    base = {"top_k": 5}\n'
    )
    root = write_tree(tmp_path, {"app.py": source})
    assert _lines(root) == [("app.py", 8)]


def test_an_entry_a_spread_after_it_replaces_is_not_read(tmp_path: Path) -> None:
    source = _ONE_MODULE.format(spread="extra").replace(
        "def ask(text, extra):\n", 'def ask(text, extra):\n    extra = {"temperature": 0.0}\n'
    )
    root = write_tree(tmp_path, {"app.py": source})
    assert _lines(root) == []


_HELPER = """from dataclasses import dataclass
from typing import Any

from anthropic import Anthropic


@dataclass
class Settings:
    model: str = "claude-sonnet-4-6"
    max_tokens: int = 512
    temperature: float = 0.1


class Helper:
    def __init__(self, settings: Settings | None = None, extra: dict[str, Any] | None = None):
        self.settings = settings or Settings()
        self.extra = extra or {}
        self.client = Anthropic()

    def _request(self, text: str) -> dict[str, Any]:
        return {
            "model": self.settings.model,
            "max_tokens": self.settings.max_tokens,
            "temperature": self.settings.temperature,
            "messages": [{"role": "user", "content": text}],
            **self.extra,
        }

    def ask(self, text: str) -> Any:
        with self.client.messages.stream(**self._request(text)) as stream:
            return stream.get_final_message()
"""


def test_options_a_callers_dict_overrides_in_another_module_are_not_reported(
    tmp_path: Path,
) -> None:
    """The options object's `temperature` reaches the request dict before `**self.extra`,
    and this caller's `extra` holds `temperature`: that is what the call sends."""
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER,
            "app/use.py": (
                "from app.helper import Helper, Settings\n\n"
                'Helper(settings=Settings(temperature=0.9), extra={"temperature": 0.1}).ask("x")\n'
            ),
        },
    )
    assert _lines(root) == []


@pytest.mark.parametrize("extra", [', extra={"top_k": 5}', "", ", extra=None"])
def test_options_a_callers_dict_without_the_key_leaves_reported(tmp_path: Path, extra: str) -> None:
    """This caller's `extra` lacks `temperature` (or is left out: `extra or {}`), so the
    options object's value is what its call sends: reported where the caller writes it."""
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER,
            "app/use.py": (
                "from app.helper import Helper, Settings\n\n"
                f'Helper(settings=Settings(temperature=0.9){extra}).ask("x")\n'
            ),
        },
    )
    assert _lines(root) == [("app/use.py", 3)]


@pytest.mark.parametrize(
    "extra",
    [
        # A dict the caller does not spell: it may hold the key.
        ", extra=overrides",
        # A dict display of a key not all literal may be the key.
        ", extra={key: 0.1}",
        # Keywords spread into the constructor may give `extra`.
        ", **options",
    ],
)
def test_options_a_callers_unknown_dict_may_replace_are_not_reported(
    tmp_path: Path, extra: str
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER,
            "app/use.py": (
                "from app.helper import Helper, Settings\n\n\n"
                "def run(overrides, key, options):\n"
                f'    return Helper(settings=Settings(temperature=0.9){extra}).ask("x")\n'
            ),
        },
    )
    assert _lines(root) == []


def test_options_only_the_callers_whose_dict_lacks_the_key_are_reported(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER,
            "app/use.py": (
                "from app.helper import Helper, Settings\n\n"
                'Helper(settings=Settings(temperature=0.9), extra={"temperature": 0.1}).ask("x")\n'
                'Helper(settings=Settings(temperature=0.8), extra={"top_p": 0.5}).ask("x")\n'
            ),
        },
    )
    assert _lines(root) == [("app/use.py", 4)]


def test_a_spread_attribute_another_module_sets_is_not_read_per_caller(tmp_path: Path) -> None:
    """`helper.extra = {...}` elsewhere: what an instance spreads is not only what its
    constructor call gave."""
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER,
            "app/use.py": (
                "from app.helper import Helper, Settings\n\n"
                "helper = Helper(settings=Settings(temperature=0.9))\n"
                'helper.extra = {"temperature": 0.1}\n'
                'helper.ask("x")\n'
            ),
        },
    )
    assert _lines(root) == []


@pytest.mark.parametrize(
    ("callers", "reported"),
    [
        # Leaves both out: the settings' default temperature is sent.
        ('Helper().ask("x")', True),
        ('Helper(extra={"top_k": 5}).ask("x")', True),
        # The only caller leaving the settings out replaces their temperature.
        ('Helper(extra={"temperature": 0.1}).ask("x")', False),
        # The caller whose dict lacks the key sends settings of its own.
        (
            'Helper(extra={"temperature": 0.1}).ask("x")\n'
            'Helper(Settings(temperature=0.1), {"top_p": 0.5}).ask("x")',
            False,
        ),
        # A dict the caller does not spell may hold the key.
        ('Helper(extra=dict(OPTIONS)).ask("x")', False),
        # Another module sets the attribute: not only what the constructor gave.
        ('helper = Helper()\nhelper.extra = {"temperature": 0.1}\nhelper.ask("x")', False),
    ],
)
def test_a_default_the_entry_reads_is_reported_when_a_caller_leaving_it_out_sends_it(
    tmp_path: Path, callers: str, reported: bool
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/helper.py": _HELPER.replace("temperature: float = 0.1", "temperature: float = 1"),
            "app/use.py": (
                f'from app.helper import Helper, Settings\n\nOPTIONS = {{"top_k": 5}}\n{callers}\n'
            ),
        },
    )
    assert _lines(root) == ([("app/helper.py", 11)] if reported else [])


_DICT_CALL = """from anthropic import Anthropic

client = Anthropic()
BASE = {{"model": "claude-sonnet-4-6", "max_tokens": 100, "messages": []}}


def ask(extra):
    request = dict({made})
    with client.messages.stream(**request) as stream:
        return stream.get_final_message()
"""


@pytest.mark.parametrize(
    ("made", "reported"),
    [
        # Keywords replace what the positional mapping holds: `extra` may replace 0.9.
        ('{"temperature": 0.9, **BASE}, **extra', False),
        # A keyword and a `**` spread never give one key both (that raises): 0.9 is sent.
        ("BASE, temperature=0.9, **extra", True),
        # Every key of the spread is seen, and `temperature` is not one.
        ('{"temperature": 0.9, **BASE}, **BASE', True),
    ],
)
def test_a_dict_call_reads_a_spread_after_its_mapping_as_replacing_it(
    tmp_path: Path, made: str, reported: bool
) -> None:
    root = write_tree(tmp_path, {"app.py": _DICT_CALL.format(made=made)})
    assert bool(_lines(root)) is reported
