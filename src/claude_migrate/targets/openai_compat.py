"""The OpenAI SDK pointed at Anthropic's OpenAI-compatible endpoint
(https://docs.claude.com/en/api/openai-sdk): max_tokens / max_completion_tokens, stop
(non-whitespace entries), stream and temperature (0 to 1; above 1 it is capped at 1) are
honoured. What the layer does with what a model refuses is not documented: the model facts are
not read."""

from __future__ import annotations

import re

from claude_migrate.targets.base import MAX_TOKENS, Target

OPENAI_COMPAT = "openai-compat"

TARGETS = (
    Target(
        "openai-compat:chat.completions.create",
        OPENAI_COMPAT,
        "chat.completions.create on Anthropic's OpenAI-compatible endpoint",
        max_tokens=(MAX_TOKENS, "max_completion_tokens"),
        stop=("stop",),
        streaming_api="chat.completions.create(..., stream=True)",
        model_facts=False,
    ),
)

OPENAI_CLIENTS = ("openai.OpenAI", "openai.AsyncOpenAI", "openai.Client", "openai.AsyncClient")
# The synthetic class of an OpenAI client whose base_url is Anthropic's endpoint.
OPENAI_ON_ANTHROPIC = "openai:anthropic"
# The attributes of a Claude client the OpenAI SDK's client lacks: through these, a call on an
# object that is one or the other (`OpenAI() if p else Anthropic()`) can only be the Claude
# client's. The OpenAI client has `chat`, `completions`, `models`, `beta`, ... but no `messages`
# (openai-python 1.x, https://github.com/openai/openai-python/blob/main/src/openai/_client.py).
CLAUDE_ONLY_ATTRIBUTES: dict[str, frozenset[str]] = {
    name: frozenset({"messages"})
    for name in (*OPENAI_CLIENTS, "openai.AzureOpenAI", "openai.AsyncAzureOpenAI")
}
ANTHROPIC_OPENAI_URL = re.compile(r"^https?://api\.anthropic\.com(:\d+)?/v1/?$")
OPENAI_COMPAT_METHODS = {("chat", "completions", "create"): "openai-compat:chat.completions.create"}

CALLEES = frozenset({"create"})
