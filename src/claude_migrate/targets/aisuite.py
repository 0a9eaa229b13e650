"""aisuite (andrewyng/aisuite): `aisuite.Client().chat.completions.create(model=
"anthropic:claude-...", messages=..., **kwargs)` and its async `acreate`, Claude's only with a
model of the `anthropic:` provider.

aisuite 0.1.14 (`aisuite/client.py`, `Completions._resolve_provider`) splits the model at its
first colon into a provider key and the provider's model name; the `anthropic` provider
(`aisuite/providers/anthropic_provider.py`, `AnthropicProvider`) hands every other keyword as
written to the anthropic SDK's `messages.create`: `temperature`, `max_tokens` (4096 when left
out, `DEFAULT_MAX_TOKENS`), `stop_sequences` (no `stop` is renamed: the SDK refuses it). aisuite
takes `stream` itself (`Completions.create`: `kwargs.pop("stream", False)`); with it true the call
returns OpenAI-shaped chunks instead of a response, so a non-streaming call gets no fix. Other
providers' models (`openai:gpt-4o`, and Claude served through another provider such as
`aws:anthropic.claude-...`, whose provider maps the keywords its own way) are not read. A call
whose model is its function's parameter is read at the callers whose model has the `anthropic:`
prefix (`model_prefix`: the project phase and the wrapper's call site both check it).
"""

from __future__ import annotations

from claude_migrate.targets.base import Target

AISUITE = "aisuite"

# The provider prefix of a model aisuite sends to Anthropic.
ANTHROPIC_PROVIDER = "anthropic:"

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
)

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
