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
# Other vendors' client classes, with the top-level resources of Claude's SDK they lack: a method
# reached through one of those, on a choice of such a client and a Claude client, runs on the
# Claude one. The OpenAI client's resources (openai-python `src/openai/_client.py`: completions,
# chat, embeddings, files, images, audio, moderations, models, fine_tuning, vector_stores,
# webhooks, beta, batches, uploads, responses, realtime, conversations, evals, containers,
# skills, videos) have no `messages`.
# The same holds of other vendors' SDK clients apps switch between: Groq's (groq-python 1.6.0
# `src/groq/_client.py`: chat, embeddings, audio, models, batches, files; `Client` and
# `AsyncClient` are aliases), Mistral's (client-python 1.12.0 `src/mistralai/sdk.py` and 2.5.1
# `src/mistralai/client/sdk.py`: models, beta, files, fine_tuning, batch, chat, fim, agents,
# embeddings, classifiers, ocr, audio, workflows, events) and Ollama's (ollama-python
# `ollama/_client.py`: methods such as chat, generate, embed, pull; `messages` is only a
# parameter of them).
OTHER_VENDOR_CLIENTS = (
    "groq.Groq",
    "groq.AsyncGroq",
    "groq.Client",
    "groq.AsyncClient",
    "mistralai.Mistral",
    "mistralai.client.Mistral",
    "ollama.Client",
    "ollama.AsyncClient",
)
OTHER_CLIENTS_LACKING: dict[str, frozenset[str]] = {
    name: frozenset({"messages"})
    for name in (
        *OPENAI_CLIENTS,
        "openai.AzureOpenAI",
        "openai.AsyncAzureOpenAI",
        *OTHER_VENDOR_CLIENTS,
    )
}
# What a built-in value (a dict, list or string literal kept in a client's place: the settings of a
# provider reached over HTTP) lacks of Claude's SDK client: it has no `messages` attribute.
PLAIN_DATA_LACKING: frozenset[str] = frozenset({"messages"})
# The synthetic class of an OpenAI client whose base_url is Anthropic's endpoint.
OPENAI_ON_ANTHROPIC = "openai:anthropic"
ANTHROPIC_OPENAI_URL = re.compile(r"^https?://api\.anthropic\.com(:\d+)?/v1/?$")
OPENAI_COMPAT_METHODS = {("chat", "completions", "create"): "openai-compat:chat.completions.create"}

# What the family describes by import path (`registry.described`): the OpenAI clients, and
# the other vendors' clients a choice of clients is told apart by.
DESCRIBED = frozenset((*OPENAI_CLIENTS, *OTHER_CLIENTS_LACKING))

CALLEES = frozenset({"create"})
