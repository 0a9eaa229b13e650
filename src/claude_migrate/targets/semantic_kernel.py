"""Semantic Kernel's Anthropic connector: `AnthropicChatCompletion(ai_model_id="claude-...")`
and its `AnthropicChatPromptExecutionSettings(temperature=..., max_tokens=...)`.

The service sends every request with the anthropic SDK's `AsyncAnthropic`
(`messages.create(**settings.prepare_settings_dict())`, or `messages.stream` for its streaming
method): the settings' fields are the request's keywords, `ai_model_id` sent as `model` (the
service's own `ai_model_id` when the settings name none), `max_tokens` (default 1024),
`temperature`, `top_p`, `top_k`, `stop_sequences`. Streaming is the service's method
(`get_streaming_chat_message_contents`), not a field a rule sets. Every model either takes is
Claude's (semantic-kernel, `python/semantic_kernel/connectors/ai/anthropic/services/
anthropic_chat_completion.py` and `.../prompt_execution_settings/
anthropic_prompt_execution_settings.py`, https://github.com/microsoft/semantic-kernel).
"""

from __future__ import annotations

from claude_migrate.targets.base import Constructor, Target, last_names

SEMANTIC_KERNEL = "semantic-kernel"

TARGETS = (
    Target(
        "semantic-kernel:AnthropicChatCompletion",
        SEMANTIC_KERNEL,
        "Semantic Kernel AnthropicChatCompletion",
        temperature=(),
        max_tokens=(),
        stop=(),
        stream=(),
        model=("ai_model_id",),
        sends="sdk",
    ),
    Target(
        "semantic-kernel:AnthropicChatPromptExecutionSettings",
        SEMANTIC_KERNEL,
        "Semantic Kernel AnthropicChatPromptExecutionSettings",
        stream=(),
        model=("ai_model_id",),
        sends="sdk",
    ),
)

_PACKAGE = "semantic_kernel.connectors.ai.anthropic"
CONSTRUCTORS = {
    f"{_PACKAGE}.AnthropicChatCompletion": Constructor(
        "semantic-kernel:AnthropicChatCompletion", positional=0
    ),
    f"{_PACKAGE}.services.anthropic_chat_completion.AnthropicChatCompletion": Constructor(
        "semantic-kernel:AnthropicChatCompletion", positional=0
    ),
    f"{_PACKAGE}.AnthropicChatPromptExecutionSettings": Constructor(
        "semantic-kernel:AnthropicChatPromptExecutionSettings"
    ),
    f"{_PACKAGE}.prompt_execution_settings.anthropic_prompt_execution_settings."
    "AnthropicChatPromptExecutionSettings": Constructor(
        "semantic-kernel:AnthropicChatPromptExecutionSettings"
    ),
}

CALLEES = last_names(CONSTRUCTORS)
