"""aisuite (andrewyng/aisuite): `aisuite.Client().chat.completions.create(model=
"anthropic:claude-...", messages=..., **kwargs)` and its async `acreate`, Claude's only with a
Claude model of its `anthropic:` provider, or a Claude Bedrock id of its `aws:` one.

aisuite 0.1.14 (`aisuite/client.py`, `Completions._resolve_provider`) splits the model at its
first colon into a provider key and the provider's model name; the `anthropic` provider
(`aisuite/providers/anthropic_provider.py`, `AnthropicProvider`) hands every other keyword as
written to the anthropic SDK's `messages.create`: `temperature`, `max_tokens` (4096 when left
out, `DEFAULT_MAX_TOKENS`), `stop_sequences` (no `stop` is renamed: the SDK refuses it). aisuite
takes `stream` itself (`Completions.create`: `kwargs.pop("stream", False)`); with it true the call
returns OpenAI-shaped chunks instead of a response, so a non-streaming call gets no fix.

The `aws` provider (`aisuite/providers/aws_provider.py`, `AwsProvider`) sends the model name as
Bedrock converse's `modelId` (Claude's when it is an `anthropic.claude-...` id, with or without
a cross-region prefix) and the keywords `maxTokens`, `temperature`, `topP` and `stopSequences`
as its `inferenceConfig`; every other keyword (`max_tokens`, `stop`) goes to
`additionalModelRequestFields`, which is not read. It has no streaming
(`Provider.chat_completions_create_stream` refuses). Other providers' models (`openai:gpt-4o`)
are not read. A call whose model is its function's parameter is read at the callers whose model
has the `anthropic:` prefix (`model_prefix`: the project phase and the wrapper's call site both
check it), and at a caller giving an `aws:` Claude Bedrock id for the keywords both providers
take alike (`analysis/calls._aisuite_rerouted`); the call itself is Claude's only where every
caller's model has the `anthropic:` prefix.
"""

from __future__ import annotations

import re

from claude_migrate.targets.base import Target, is_claude_model

AISUITE = "aisuite"

# The provider prefix of a model aisuite sends to Anthropic.
ANTHROPIC_PROVIDER = "anthropic:"

# The provider prefix of a Claude model aisuite sends to Bedrock's converse.
AWS_PROVIDER = "aws:"

TARGETS = (
    Target(
        "aisuite:create",
        AISUITE,
        "aisuite chat.completions.create",
        by_model=True,
        model_prefix=ANTHROPIC_PROVIDER,
        streaming_api="chat.completions.create(..., stream=True)",
        sends="sdk",
    ),
    Target(
        "aisuite:aws",
        AISUITE,
        "aisuite chat.completions.create (aws provider)",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        stream=(),
        by_model=True,
        model_prefix=AWS_PROVIDER,
    ),
)

# A Claude Bedrock id, with or without a cross-region inference profile's prefix (`us.`).
_BEDROCK_CLAUDE = re.compile(r"^(?:[a-z]{2,8}(?:-[a-z]+)?\.)?anthropic\.claude")

AISUITE_CLIENTS = ("aisuite.Client", "aisuite.client.Client")
# The synthetic class of an aisuite client, and the methods of it that make a request.
AISUITE_CLIENT = "aisuite.Client"
AISUITE_METHODS = frozenset({("chat", "completions", "create"), ("chat", "completions", "acreate")})

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset(AISUITE_CLIENTS)

CALLEES = frozenset(path[-1] for path in AISUITE_METHODS)


def served_by_anthropic(model: str) -> bool:
    """Return whether aisuite sends a model id to Anthropic (its `anthropic:` provider)."""
    return model.strip().startswith(ANTHROPIC_PROVIDER)


def provider_target(model: str) -> str | None:
    """Return the key of the target an aisuite model id makes a call Claude's by (its
    `anthropic:` provider with a Claude model, its `aws:` one with a Claude Bedrock id); None
    for any other model."""
    text = model.strip()
    if text.startswith(ANTHROPIC_PROVIDER):
        return "aisuite:create" if is_claude_model(text) else None
    if text.startswith(AWS_PROVIDER) and _BEDROCK_CLAUDE.match(text[len(AWS_PROVIDER) :]):
        return "aisuite:aws"
    return None
