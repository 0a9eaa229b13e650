"""What a name is during the project phase (`project/kinds.py`), and the plain data it crosses as.

The kinds live in the run's own process only; worker processes and the result cache see the
JSON lists `_plain` makes of them, whose shape must not change without the cache's version.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from claude_migrate.project.kinds import (
    Bound,
    Choice,
    Class,
    Client,
    Const,
    DictLit,
    Foreign,
    Func,
    Items,
    Module,
    Obj,
    Param,
    Ref,
    SelfParam,
    Super,
    Sym,
)
from claude_migrate.project.phase import _plain, _union

SDK = "anthropic.Anthropic"


@pytest.mark.parametrize(
    ("symbol", "plain"),
    [
        (Client(SDK), ["client", SDK]),
        (Const("claude-sonnet-4-5"), ["const", "claude-sonnet-4-5"]),
        (Const([1, "a", None]), ["const", [1, "a", None]]),
        (Func("app.llm", "ask"), ["func", "app.llm", "ask"]),
        (Class("app.llm", "Chat"), ["class", "app.llm", "Chat"]),
        (Obj("app.llm", "Chat"), ["obj", "app.llm", "Chat"]),
        (Items(Client(SDK)), ["items", SDK]),
        # A provider switch: Claude's through `messages` only.
        (Client(SDK, (), frozenset({"messages"})), ["client", SDK, ["messages"]]),
    ],
)
def test_what_a_file_can_use_crosses_as_the_same_json_lists(symbol: Sym, plain: list[Any]) -> None:
    assert _plain(symbol) == plain
    assert json.loads(json.dumps(_plain(symbol))) == plain


@pytest.mark.parametrize(
    "symbol",
    [
        None,
        Client(SDK, ("messages",)),  # an attribute of a client is not a client
        Const({"a": 1}),  # not JSON a view keeps
        Const(object()),
        Ref("os.environ"),
        Foreign("openai.OpenAI"),
        Module("app.llm"),
        Bound("app.llm", "Chat.ask", "app.llm", "Chat"),
        SelfParam("app.llm", "Chat"),
        Super("app.llm", "Chat"),
        Param("app.llm", "ask", "model"),
        DictLit({"model": ["lit", "x"]}, "app.llm", "ask"),
        Items(Foreign("openai.OpenAI")),
        Items(None),
        Items(Client(SDK, (), frozenset({"messages"}))),
        Choice((Obj("app.llm", "Chat"), Obj("app.llm", "Echo"))),
    ],
)
def test_what_a_file_cannot_use_does_not_cross(symbol: Sym) -> None:
    assert _plain(symbol) is None


def test_a_choice_of_functions_crosses_as_each_of_them() -> None:
    # `if P: from .gpt import get_llm` / `else: from .claude import get_llm`.
    choice = Choice((Func("app.gpt", "get_llm"), Func("app.claude", "get_llm")))
    assert _plain(choice) == [
        "choice",
        [["func", "app.gpt", "get_llm"], ["func", "app.claude", "get_llm"]],
    ]


def test_kinds_are_values_compared_by_kind_and_fields() -> None:
    assert Func("m", "f") == Func("m", "f")
    assert Func("m", "f") != Class("m", "f")  # same fields, another kind
    assert Obj("m", "C") != SelfParam("m", "C")
    assert Client(SDK) == Client(SDK, ())
    assert hash(Param("m", "f", "x")) == hash(Param("m", "f", "x"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        Func("m", "f").qual = "g"  # type: ignore[misc]


def test_a_union_of_clients_and_none_is_a_client() -> None:
    assert _union([Client(SDK), Const(None)]) == Client(SDK)
    assert _union([Client(SDK), Client("anthropic.AsyncAnthropic")]) == Client(SDK)
    assert _union([Const("a"), Const("a")]) == Const("a")


def test_plain_data_beside_a_client_leaves_the_client_through_messages() -> None:
    # A string or dict kept in the client's place has no `messages`: a call through it is the
    # client's; anything else the client has (`completions`) may be the data's own method.
    only = frozenset({"messages"})
    assert _union([Client(SDK), Const("disabled")]) == Client(SDK, (), only)
    assert _union([Client(SDK), DictLit({"url": ["lit", "u"]}, "app", None)]) == Client(
        SDK, (), only
    )


def test_a_proven_other_object_beside_a_client_makes_the_union_unknown() -> None:
    assert _union([Client(SDK), Foreign("app.lib.Session")]) is None
    assert _union([Client(SDK), Obj("app", "Fake")]) is None
    assert _union([Const("a"), Const("b")]) is None
    # An unknown beside a client: a client only where either value may be the one (`a or b`).
    assert _union([Client(SDK), None]) is None
    assert _union([Client(SDK), None], choice=True) == Client(SDK)


def test_another_vendors_client_beside_a_claude_client_is_claude_only_through_what_it_lacks() -> (
    None
):
    restricted = _union([Foreign("openai.OpenAI"), Client(SDK)])
    assert restricted == Client(SDK, (), frozenset({"messages"}))
    assert _union([restricted, Const(None)]) == restricted
    # Still unknown beside anything else proven: a local class, another library's object.
    assert _union([Foreign("openai.OpenAI"), Client(SDK), Obj("app", "Fake")]) is None
    assert _union([Foreign("openai.OpenAI"), Const(None)]) is None


def test_project_classes_chosen_at_run_time_are_a_choice_of_them() -> None:
    a, b = Class("app.backends", "A"), Class("app.backends", "B")
    assert _union([a, b]) == Choice((a, b))
    assert _union([a, a]) == a
    assert _union([Choice((a, b)), b]) == Choice((a, b))
    # An unknown or another kind of value among them: unknown.
    assert _union([a, None]) is None
    assert _union([a, Const("x")]) is None
    assert _union([a, Foreign("openai.OpenAI")]) is None
