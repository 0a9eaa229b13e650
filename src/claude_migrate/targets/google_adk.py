"""Google's Agent Development Kit (ADK): its LiteLLM model and its Claude on Vertex AI.

`LiteLlm(model, **kwargs)` (`google.adk.models.lite_llm`) keeps every keyword but `llm_client`,
`messages`, `tools` and `stream` and sends them with each request through LiteLLM's
`completion`/`acompletion`, over what the agent's config gives (`completion_args.update(
self._additional_args)`): `temperature`, `max_tokens`, `top_p`, `stop` reach the request as
written. It serves every LiteLLM provider, so only a Claude model id (`anthropic/claude-...`,
`vertex_ai/claude-...@...`, `bedrock/anthropic.claude-...`) makes it a Claude call.

`Claude(model=...)` (`google.adk.models.anthropic_llm`, a pydantic model: keywords only) sends
through the anthropic SDK's `AnthropicVertex` client with its `model` (a Vertex AI id, default
"claude-3-5-sonnet-v2@20241022") and a `max_tokens` it fixes itself (1024); no other field
reaches the request, and every model it takes is Claude's.

Both from google/adk-python 1.4.2 (`src/google/adk/models/lite_llm.py` and
`src/google/adk/models/anthropic_llm.py`, https://github.com/google/adk-python). Streaming is the
runner's choice (`generate_content_async(..., stream=...)`), not a keyword of either.
"""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, MODEL, Constructor, Target, last_names

ADK = "google-adk"

TARGETS = (
    Target(
        "google-adk:LiteLlm",
        ADK,
        "Google ADK LiteLlm",
        max_tokens=(MAX_TOKENS, "max_completion_tokens"),
        stop=("stop",),
        stream=(),
        model=(MODEL,),
        by_model=True,
        sends="api",
    ),
    Target(
        "google-adk:Claude",
        ADK,
        "Google ADK Claude",
        temperature=(),
        max_tokens=(),
        stop=(),
        stream=(),
        model=(MODEL,),
        sends="sdk",
    ),
)

CONSTRUCTORS = {
    "google.adk.models.lite_llm.LiteLlm": Constructor("google-adk:LiteLlm", positional=0),
    "google.adk.models.anthropic_llm.Claude": Constructor("google-adk:Claude"),
}

CALLEES = last_names(CONSTRUCTORS)
# The classes are ADK's only in a file naming `google.adk` (agno has a `Claude` too).
ONLY_WITH = tuple((name, "google.adk") for name in sorted(CALLEES))
