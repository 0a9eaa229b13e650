"""AutoGen: autogen-ext's Anthropic model clients.

`AnthropicChatCompletionClient(**config)` takes the request's parameters as keywords (`model`,
`max_tokens`, `temperature`, `top_p`, `top_k`, `stop_sequences`, `thinking`, ...) and sends
them with the anthropic SDK's `messages.create` (autogen-ext 0.7.5,
`python/packages/autogen-ext/src/autogen_ext/models/anthropic/_anthropic_client.py`,
https://github.com/microsoft/autogen); `AnthropicBedrockChatCompletionClient` does the same
through the SDK's `AsyncAnthropicBedrock`, the model a Bedrock id. Every model they take is
Claude's. Streaming is the client's `create_stream` method, not a keyword.
"""

from __future__ import annotations

from claude_migrate.targets.base import Constructor, Target, last_names

AUTOGEN = "autogen"

TARGETS = (
    Target(
        "autogen:AnthropicChatCompletionClient",
        AUTOGEN,
        "AutoGen AnthropicChatCompletionClient",
        stream=(),
        sends="sdk",
    ),
)

CONSTRUCTORS = {
    f"autogen_ext.models.anthropic{module}.{name}": Constructor(
        "autogen:AnthropicChatCompletionClient"
    )
    for module in ("", "._anthropic_client")
    for name in ("AnthropicChatCompletionClient", "AnthropicBedrockChatCompletionClient")
}

CALLEES = last_names(CONSTRUCTORS)
# The clients are AutoGen's only in a file naming `autogen_ext`.
ONLY_WITH = tuple((name, "autogen_ext") for name in sorted(CALLEES))
