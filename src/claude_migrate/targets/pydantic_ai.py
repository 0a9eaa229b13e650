"""pydantic-ai 1.x/2.x: `AnthropicModel(model_name, settings=...)` and
`Agent("anthropic:claude-...", model_settings=...)`; ModelSettings keys are temperature,
max_tokens, stop_sequences (streaming is `run_stream`, not a setting).

pydantic-ai adapts a request to the model's profile (it drops sampling settings a model refuses
and caps max_tokens at its limit: pydantic_ai/profiles/anthropic.py), so the model facts are not
read on it.
"""

from __future__ import annotations

from claude_migrate.targets.base import Target, last_names

PYDANTIC_AI = "pydantic-ai"

TARGETS = (
    Target(
        "pydantic-ai:AnthropicModel",
        PYDANTIC_AI,
        "pydantic-ai AnthropicModel",
        location="settings",
        stream=(),
        model=("model_name",),
        model_facts=False,
    ),
    Target(
        "pydantic-ai:Agent",
        PYDANTIC_AI,
        "pydantic-ai Agent",
        location="settings",
        stream=(),
        model_facts=False,
    ),
)

PYDANTIC_AI_MODELS = ("pydantic_ai.models.anthropic.AnthropicModel",)
PYDANTIC_AI_AGENTS = ("pydantic_ai.Agent", "pydantic_ai.agent.Agent")

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset((*PYDANTIC_AI_MODELS, *PYDANTIC_AI_AGENTS))

CALLEES = last_names((*PYDANTIC_AI_MODELS, *PYDANTIC_AI_AGENTS))
