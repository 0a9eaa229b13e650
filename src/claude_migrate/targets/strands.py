"""Strands Agents: its Bedrock and Anthropic model providers.

`BedrockModel(*, boto_session=None, boto_client_config=None, region_name=None, **config)`
takes `model_id`, `max_tokens`, `temperature`, `top_p`, `stop_sequences` and `streaming` as
keywords and sends the sampling ones as Bedrock converse's `inferenceConfig`, with
`converse_stream` unless `streaming=False` (the flag defaults to True); it serves every Bedrock
model, so only a Claude model id makes it a Claude call. `AnthropicModel(*, client_args=None,
**config)` takes `model_id`, `max_tokens` and a `params` dict of the request's other
parameters (`temperature`, `stop_sequences`...) and always streams with the anthropic SDK's
`messages.stream` (strands-agents 1.40, `src/strands/models/bedrock.py` and
`src/strands/models/anthropic.py`, https://github.com/strands-agents/sdk-python).
"""

from __future__ import annotations

from claude_migrate.targets.base import Constructor, Target, last_names

STRANDS = "strands"

TARGETS = (
    Target(
        "strands:BedrockModel",
        STRANDS,
        "Strands BedrockModel",
        stream=("streaming",),
        streams_unless_told=True,
        model=("model_id",),
        streaming_api="BedrockModel(..., streaming=True)",
        by_model=True,
        sends="api",
    ),
    Target(
        "strands:AnthropicModel",
        STRANDS,
        "Strands AnthropicModel",
        location="model-kwargs",
        nested="params",
        stream=(),
        streams=True,
        model=("model_id",),
        sends="sdk",
    ),
)

CONSTRUCTORS = {
    "strands.models.BedrockModel": Constructor("strands:BedrockModel"),
    "strands.models.bedrock.BedrockModel": Constructor("strands:BedrockModel"),
    "strands.models.AnthropicModel": Constructor("strands:AnthropicModel"),
    "strands.models.anthropic.AnthropicModel": Constructor("strands:AnthropicModel"),
}

CALLEES = last_names(CONSTRUCTORS)
# The providers are Strands' only in a file naming `strands`.
ONLY_WITH = tuple((name, "strands") for name in sorted(CALLEES))
