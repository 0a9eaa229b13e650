"""Haystack: the anthropic-haystack integration's generators, and amazon-bedrock-haystack's chat
generator with a Claude model.

`AnthropicChatGenerator(api_key, model, streaming_callback, generation_kwargs, ...)`,
`AnthropicGenerator(api_key, model, streaming_callback, system_prompt, generation_kwargs, ...)`,
`AnthropicVertexChatGenerator(region, project_id, model, streaming_callback,
generation_kwargs, ...)` and `AnthropicFoundryChatGenerator(*, ..., model, ...,
generation_kwargs, ...)` send `model` and the `generation_kwargs` dict (`max_tokens`,
`temperature`, `top_p`, `top_k`, `stop_sequences`, `thinking`, `extra_headers`...) with the
anthropic SDK's `messages.create` (anthropic-haystack 5.15.0,
`integrations/anthropic/src/haystack_integrations/components/generators/anthropic/`,
https://github.com/deepset-ai/haystack-core-integrations). Every model they take is Claude's.
They stream when given a `streaming_callback` (`stream=streaming_callback is not None`): a
callback, not a flag, so streaming is not judged on them.

`AmazonBedrockChatGenerator(model, ..., generation_kwargs, ...)` sends Bedrock's converse with
the `generation_kwargs` keys `maxTokens`, `stopSequences`, `temperature` and `topP` as its
`inferenceConfig` (amazon-bedrock-haystack,
`integrations/amazon_bedrock/src/haystack_integrations/components/generators/amazon_bedrock/chat/chat_generator.py`);
it serves every Bedrock model, so only a Claude model id makes it a Claude call.

A generator's `run(messages, generation_kwargs=...)` merges more keys at run time; those are not
read.
"""

from __future__ import annotations

from claude_migrate.targets.base import Constructor, Target, last_names

HAYSTACK = "haystack"
GENERATION_KWARGS = "generation_kwargs"

TARGETS = (
    Target(
        "haystack:AnthropicChatGenerator",
        HAYSTACK,
        "Haystack's Anthropic generator",
        location="model-kwargs",
        nested=GENERATION_KWARGS,
        stream=(),
        sends="sdk",
    ),
    Target(
        "haystack:AmazonBedrockChatGenerator",
        HAYSTACK,
        "Haystack's AmazonBedrockChatGenerator",
        location="model-kwargs",
        nested=GENERATION_KWARGS,
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        stream=(),
        by_model=True,
        sends="api",
    ),
)

_ANTHROPIC = "haystack_integrations.components.generators.anthropic"
_BEDROCK = "haystack_integrations.components.generators.amazon_bedrock"
_CHAT = "haystack:AnthropicChatGenerator"

CONSTRUCTORS = {
    f"{_ANTHROPIC}.AnthropicChatGenerator": Constructor(_CHAT, positional=1),
    f"{_ANTHROPIC}.chat.chat_generator.AnthropicChatGenerator": Constructor(_CHAT, positional=1),
    f"{_ANTHROPIC}.AnthropicGenerator": Constructor(_CHAT, positional=1),
    f"{_ANTHROPIC}.generator.AnthropicGenerator": Constructor(_CHAT, positional=1),
    f"{_ANTHROPIC}.AnthropicVertexChatGenerator": Constructor(_CHAT, positional=2),
    f"{_ANTHROPIC}.chat.vertex_chat_generator.AnthropicVertexChatGenerator": Constructor(
        _CHAT, positional=2
    ),
    f"{_ANTHROPIC}.AnthropicFoundryChatGenerator": Constructor(_CHAT),
    f"{_ANTHROPIC}.chat.foundry_chat_generator.AnthropicFoundryChatGenerator": Constructor(_CHAT),
    f"{_BEDROCK}.AmazonBedrockChatGenerator": Constructor(
        "haystack:AmazonBedrockChatGenerator", positional=0
    ),
    f"{_BEDROCK}.chat.chat_generator.AmazonBedrockChatGenerator": Constructor(
        "haystack:AmazonBedrockChatGenerator", positional=0
    ),
}

CALLEES = last_names(CONSTRUCTORS)
# The generators are Haystack's only in a file naming `haystack_integrations`.
ONLY_WITH = tuple((name, "haystack_integrations") for name in sorted(CALLEES))
