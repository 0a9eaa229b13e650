"""`catalogue --check` against the installed SDK: its removals and its thinking warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from claude_migrate.cli import main
from claude_migrate.policy import deprecations, installed_sdk
from claude_migrate.policy.deprecations import SdkRemoval

REAL = installed_sdk.installed()
KNOWN = deprecations.load(None)


def test_the_installed_sdk_is_read_with_its_surface() -> None:
    assert REAL is not None and REAL.root
    assert "claude-opus-4-6" in REAL.thinking_warned
    root = Path(REAL.root)
    create = installed_sdk._parameters(root, "messages.create")
    assert create is not None and {"model", "max_tokens", "messages"} <= create


@pytest.mark.parametrize(
    "removal", [r for r in KNOWN.sdk_removals if r.kind == "argument"], ids=lambda r: r.name
)
def test_every_call_a_removal_names_is_found_in_the_sdk(removal: SdkRemoval) -> None:
    """A call path that names no method of the SDK would make the check pass vacuously."""
    assert REAL is not None
    for call in removal.calls:
        assert installed_sdk._parameters(Path(REAL.root), call) is not None, call


def test_a_removal_the_sdk_contradicts_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    assert REAL is not None
    wrong = [
        SdkRemoval("max_tokens", "argument", "1.0.0", "nothing", "CM303", ("messages.create",)),
        SdkRemoval("messages", "resource", "1.0.0", "nothing", "CM303"),
        SdkRemoval("with_options", "client-method", "1.0.0", "nothing", "CM303"),
        SdkRemoval("Anthropic", "constant", "1.0.0", "nothing", "CM303"),
        # Dated after the installed SDK: not judged yet.
        SdkRemoval("system", "argument", "99.0.0", "nothing", "CM303", ("messages.create",)),
    ]
    gaps = installed_sdk._removal_gaps(REAL, wrong)
    assert [g.model for g in gaps] == [
        "argument max_tokens",
        "resource messages",
        "client-method with_options",
        "constant Anthropic",
    ]
    assert all(g.kind == "removal-contradicted" for g in gaps)


def test_a_thinking_warning_the_facts_contradict_is_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert REAL is not None
    fake = installed_sdk.Sdk(
        REAL.version,
        REAL.models,
        REAL.deprecations,
        (*REAL.thinking_warned, "claude-sonnet-5-5"),
        REAL.root,
    )
    monkeypatch.setattr(installed_sdk, "installed", lambda: fake)
    result = CliRunner().invoke(main, ["catalogue", "--check"])
    assert result.exit_code == 1
    assert "different-thinking: claude-sonnet-5-5" in result.output


def test_a_constructor_removal_is_judged_where_the_class_is_defined() -> None:
    assert REAL is not None
    still = SdkRemoval(
        "UserMessageParam",
        "constructor",
        "2.0.0",
        "nothing",
        "CM303",
        ("anthropic.types.UserMessageParam", "anthropic.types.user_message_param.UserMessageParam"),
    )
    gone = next(r for r in KNOWN.sdk_removals if r.kind == "constructor")
    gaps = installed_sdk._removal_gaps(REAL, [still, gone])
    assert [(g.model, g.detail.split("; ")[1]) for g in gaps] == [
        (
            "constructor UserMessageParam",
            "anthropic 2.15.0 has class anthropic.types.user_message_param.UserMessageParam",
        )
    ]


def test_a_client_namespace_the_sdk_still_has_is_a_gap() -> None:
    assert REAL is not None
    wrong = SdkRemoval("beta.messages", "client-attribute", "0.41.0", "nothing", "CM303")
    gone = next(r for r in KNOWN.sdk_removals if r.kind == "client-attribute")
    gaps = installed_sdk._removal_gaps(REAL, [wrong, gone])
    assert [g.model for g in gaps] == ["client-attribute beta.messages"]
