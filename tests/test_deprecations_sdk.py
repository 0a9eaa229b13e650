"""The catalogue's SDK facts, checked against the real `anthropic` package installed here.

The catalogue (rules/deprecations.toml) cites public sources; these tests hold the claims it
makes about the SDK to the SDK itself, as installed. When the SDK is upgraded they re-check every
claim the rules make about it, so a stale catalogue fails here rather than in a user's codebase.
"""

from __future__ import annotations

import datetime as dt
import inspect
import re
import typing

import anthropic
import pytest
from packaging.version import Version

from claude_migrate.policy import deprecations

INSTALLED = Version(anthropic.__version__)
KNOWN = deprecations.load()


def _client() -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test-key")


def _needs(version: str) -> None:
    if Version(version) > INSTALLED:
        pytest.skip(f"the installed anthropic {INSTALLED} predates {version}")


@pytest.mark.parametrize("removal", KNOWN.removals("client-method", "CM303"), ids=lambda r: r.name)
def test_removed_client_methods_are_gone_from_the_installed_sdk(
    removal: deprecations.SdkRemoval,
) -> None:
    _needs(removal.removed_in)
    assert not hasattr(_client(), removal.name)
    assert not hasattr(anthropic.AsyncAnthropic(api_key="test-key"), removal.name)


def test_the_named_replacement_for_token_counting_exists() -> None:
    messages = _client().messages
    parameters = inspect.signature(messages.count_tokens).parameters
    assert {"model", "messages"} <= set(parameters)


@pytest.mark.parametrize(
    "removal",
    [r for r in KNOWN.sdk_removals if r.kind == "argument"],
    ids=lambda r: f"{r.name}-{r.rule}",
)
def test_removed_arguments_are_gone_from_every_call_the_catalogue_names(
    removal: deprecations.SdkRemoval,
) -> None:
    _needs(removal.removed_in)
    client = _client()
    for call in removal.calls:
        method = client
        for part in call.split("."):
            method = getattr(method, part)
        assert removal.name not in inspect.signature(method).parameters, call  # type: ignore[arg-type]


def test_the_sdk_sends_the_api_version_the_catalogue_says_it_defaults_to() -> None:
    defaults = [v for v in KNOWN.api_versions if v.sdk_default_from is not None]
    applicable = [v for v in defaults if Version(v.sdk_default_from or "0") <= INSTALLED]
    if not applicable:
        pytest.skip(f"no catalogue API version is the default of anthropic {INSTALLED}")
    newest = max(applicable, key=lambda v: v.version)
    from anthropic import _constants

    assert newest.version == _constants.ANTHROPIC_API_VERSION


def test_the_text_completions_surface_is_gone_from_the_installed_sdk() -> None:
    _needs("1.0.0")
    assert not hasattr(_client(), "completions")
    assert not hasattr(anthropic, "HUMAN_PROMPT")
    assert not hasattr(anthropic, "AI_PROMPT")


def _sdk_deprecations() -> dict[str, dt.date]:
    data = pytest.importorskip("anthropic._data")
    table = getattr(data, "DEPRECATED_MODELS", None)
    if table is None:
        pytest.skip("the installed SDK has no deprecation table")
    found = {}
    for model, text in table.items():
        cleaned = re.sub(r"(\d+)(st|nd|rd|th)", r"\1", text)
        found[model] = dt.datetime.strptime(cleaned, "%B %d, %Y").date()
    return found


def test_every_model_the_sdk_deprecates_is_in_the_catalogue_with_its_date() -> None:
    for model_id, retires in _sdk_deprecations().items():
        model = KNOWN.find(model_id)
        assert model is not None, f"{model_id} is missing from rules/deprecations.toml"
        assert model.retires == retires, model_id


def test_every_replacement_is_a_model_the_sdk_knows_and_does_not_deprecate() -> None:
    from anthropic.types import Model

    literal = next(
        arg for arg in typing.get_args(Model) if typing.get_origin(arg) is typing.Literal
    )
    known_ids = set(typing.get_args(literal))
    deprecated = set(_sdk_deprecations())
    targets = {m.replacement for m in KNOWN.models if m.replacement}
    for target in targets:
        model = KNOWN.find(target)  # type: ignore[arg-type]
        assert model is not None
        assert {model.id, *model.aliases} & known_ids, f"{target} is not in anthropic.types.Model"
        assert not {model.id, *model.aliases} & deprecated, f"{target} is deprecated by the SDK"
