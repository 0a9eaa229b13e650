"""LiteLLM: `completion` / `acompletion` and a `Router`'s, Claude's only with a Claude model
(`claude-...`, `anthropic/...`, `bedrock/anthropic.claude-...`)."""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, Target

LITELLM = "litellm"

TARGETS = (
    Target(
        "litellm:completion",
        LITELLM,
        "litellm completion",
        by_model=True,
        max_tokens=(MAX_TOKENS, "max_completion_tokens"),
        stop=("stop",),
        streaming_api="completion(..., stream=True)",
    ),
)

LITELLM_FUNCTIONS = ("litellm.completion", "litellm.acompletion")
LITELLM_ROUTERS = ("litellm.Router", "litellm.router.Router")
# The synthetic class of a Router's instances, and the methods of it that make a request.
LITELLM_ROUTER = "litellm.Router"
ROUTER_METHODS = (("completion",), ("acompletion",))

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset((*LITELLM_FUNCTIONS, *LITELLM_ROUTERS))

CALLEES = frozenset({"completion", "acompletion"})
