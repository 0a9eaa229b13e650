"""smolagents: `LiteLLMModel` and `AmazonBedrockModel`, Claude's with a Claude model.

`LiteLLMModel(model_id, api_base=None, api_key=None, ..., **kwargs)` keeps `kwargs` and sends
them with every request through LiteLLM's `completion` (`temperature`, `max_tokens`, `stop`...);
`AmazonBedrockModel(model_id, client=None, client_kwargs=None, ..., **kwargs)` sends its keywords
with Bedrock's converse, the sampling parameters in `inferenceConfig` (`maxTokens`,
`temperature`, `topP`, `stopSequences`) (smolagents 1.27, `src/smolagents/models.py`,
https://github.com/huggingface/smolagents; the class was `AmazonBedrockServerModel` before).
Both serve every provider's models: only a Claude model id makes them Claude calls. Streaming is
the model's `generate_stream` method, not a keyword.
"""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, Constructor, Target, last_names

SMOLAGENTS = "smolagents"

TARGETS = (
    Target(
        "smolagents:LiteLLMModel",
        SMOLAGENTS,
        "smolagents LiteLLMModel",
        max_tokens=(MAX_TOKENS, "max_completion_tokens"),
        stop=("stop",),
        stream=(),
        model=("model_id",),
        by_model=True,
        sends="api",
    ),
    Target(
        "smolagents:AmazonBedrockModel",
        SMOLAGENTS,
        "smolagents AmazonBedrockModel",
        location="model-kwargs",
        nested="inferenceConfig",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        stream=(),
        model=("model_id",),
        by_model=True,
        sends="api",
    ),
)

CONSTRUCTORS = {
    **{
        f"smolagents{module}.LiteLLMModel": Constructor("smolagents:LiteLLMModel", positional=0)
        for module in ("", ".models")
    },
    **{
        f"smolagents{module}.{name}": Constructor("smolagents:AmazonBedrockModel", positional=0)
        for module in ("", ".models")
        for name in ("AmazonBedrockModel", "AmazonBedrockServerModel")
    },
}

CALLEES = last_names(CONSTRUCTORS)
# The classes are smolagents' only in a file naming `smolagents`.
ONLY_WITH = tuple((name, "smolagents") for name in sorted(CALLEES))
