"""The call-site registry against the real libraries' surface."""

from __future__ import annotations

import inspect

import anthropic
import pytest

from claude_migrate.targets import anthropic_endpoint, is_claude_model, is_sdk_client_class


def sdk_client_classes() -> list[str]:
    base_sync = anthropic._base_client.SyncAPIClient  # type: ignore[attr-defined]
    base_async = anthropic._base_client.AsyncAPIClient  # type: ignore[attr-defined]
    return sorted(
        name
        for name, value in vars(anthropic).items()
        if inspect.isclass(value) and issubclass(value, (base_sync, base_async))
    )


def test_every_client_class_the_installed_sdk_exports_is_recognised() -> None:
    names = sdk_client_classes()
    assert {"Anthropic", "AsyncAnthropic", "Client", "AsyncClient"} <= set(names)
    assert [n for n in names if not is_sdk_client_class(f"anthropic.{n}")] == []


@pytest.mark.parametrize("name", ["AnthropicError", "APIError", "Stream", "HUMAN_PROMPT", "types"])
def test_other_sdk_exports_are_not_clients(name: str) -> None:
    assert not is_sdk_client_class(f"anthropic.{name}")


def test_platform_clients_from_their_own_modules() -> None:
    assert is_sdk_client_class("anthropic.lib.bedrock.AnthropicBedrock")
    assert is_sdk_client_class("anthropic.lib.vertex.AsyncAnthropicVertex")
    assert not is_sdk_client_class("openai.OpenAI")


@pytest.mark.parametrize(
    "model",
    [
        "claude-3-5-sonnet-20241022",
        "claude-sonnet-4-5",
        "anthropic/claude-3-haiku-20240307",
        "bedrock/anthropic.claude-3-haiku-20240307-v1:0",
        "anthropic.claude-v2",
        "us.anthropic.claude-sonnet-4-20250514-v1:0",
        "vertex_ai/claude-3-opus@20240229",
        "claude-3-opus@20240229",
        "arn:aws:bedrock:us-east-1:123:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0",
    ],
)
def test_claude_model_ids(model: str) -> None:
    assert is_claude_model(model)


@pytest.mark.parametrize(
    "model",
    [
        "gpt-4o",
        "mistral/mistral-large",
        "amazon.titan-text-express-v1",
        "gemini-1.5-pro",
        "meta.llama3",
    ],
)
def test_other_model_ids(model: str) -> None:
    assert not is_claude_model(model)


@pytest.mark.parametrize(
    ("url", "endpoint"),
    [
        ("https://api.anthropic.com/v1/messages", "messages"),
        ("https://api.anthropic.com/v1/messages/", "messages"),
        ("api.anthropic.com/v1/complete", "complete"),
        ("https://api.anthropic.com/v1/messages/count_tokens", None),
        ("https://api.anthropic.com.evil.example/v1/messages", None),
        ("https://example.com/v1/messages", None),
    ],
)
def test_anthropic_endpoints(url: str, endpoint: str | None) -> None:
    assert anthropic_endpoint(url) == endpoint
