"""LangChain: langchain-anthropic's `ChatAnthropic` (the Messages API), langchain-aws's
`ChatBedrock` (parameters in `model_kwargs`) and `ChatBedrockConverse`, langchain-google-vertexai's
`ChatAnthropicVertex`, and the legacy classes of `langchain` and `langchain_community` built on
the Text Completions API."""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, MODEL, STOP, Constructor, Target

LANGCHAIN = "langchain"

TARGETS = (
    Target(
        "langchain:ChatAnthropic",
        LANGCHAIN,
        "ChatAnthropic",
        max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
        stop=("stop", STOP),
        stream=("streaming",),
        model=(MODEL, "model_name"),
        streaming_api="ChatAnthropic(..., streaming=True)",
    ),
    Target(
        # LangChain's classes before langchain-anthropic (`langchain.chat_models`,
        # `langchain.llms`, `langchain_community`): built on the Text Completions API.
        "langchain:legacy",
        LANGCHAIN,
        "LangChain's legacy Anthropic class (Text Completions)",
        max_tokens=("max_tokens_to_sample", MAX_TOKENS),
        stop=("stop", STOP),
        stream=("streaming",),
        model=(MODEL, "model_name"),
        legacy=True,
        # Its `streaming` flag works as the current class's does (CM104 sets it).
        streaming_api="streaming=True",
        model_facts=False,
    ),
    Target(
        "langchain:ChatBedrock",
        LANGCHAIN,
        "ChatBedrock",
        location="model-kwargs",
        stream=("streaming",),
        model=("model_id", MODEL),
        streaming_api="ChatBedrock(..., streaming=True)",
        by_model=True,  # Bedrock serves other vendors' models too
    ),
    Target(
        "langchain:ChatBedrockConverse",
        LANGCHAIN,
        "ChatBedrockConverse",
        stop=("stop", STOP),
        stream=(),
        model=(MODEL, "model_id"),
        by_model=True,
    ),
    Target(
        # The legacy Bedrock LLM (`langchain.llms.Bedrock`, `langchain_community.llms.Bedrock`,
        # langchain-aws's `BedrockLLM`):
        # Claude's Text Completions format on invoke_model, the body's parameters in
        # `model_kwargs` (`max_tokens_to_sample`, `temperature`, `stop_sequences`); it refuses
        # Claude 3 models ("Claude v3 models are not supported by this LLM",
        # langchain_community/llms/bedrock.py), so a Claude model here is a Text Completions one.
        "langchain:Bedrock",
        LANGCHAIN,
        "LangChain's legacy Bedrock LLM (Text Completions)",
        location="model-kwargs",
        max_tokens=("max_tokens_to_sample",),
        stream=("streaming",),
        model=("model_id",),
        legacy=True,
        model_facts=False,
        by_model=True,
        sends="body",
    ),
    Target(
        # `init_chat_model(model, *, model_provider=None, **kwargs)` makes the chat model of the
        # provider its arguments name, and hands it `kwargs` (langchain `chat_models/base.py`,
        # https://python.langchain.com/api_reference/langchain/chat_models/langchain.chat_models.base.init_chat_model.html):
        # for "anthropic" (`model_provider="anthropic"`, "anthropic:claude-..." or a model
        # starting with "claude") a langchain-anthropic `ChatAnthropic`, whose parameter
        # names the keywords keep. Other providers' models are not Claude calls.
        "langchain:init_chat_model",
        LANGCHAIN,
        "init_chat_model",
        max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
        stop=("stop", STOP),
        stream=("streaming",),
        model=(MODEL,),
        streaming_api="init_chat_model(..., streaming=True)",
        by_model=True,
    ),
    Target(
        # langchain-google-vertexai's `ChatAnthropicVertex` (`model_garden.py` and `_base.py`'s
        # `_VertexAICommon`, 3.2.4,
        # https://github.com/langchain-ai/langchain-google/tree/main/libs/vertexai): its fields
        # `model_name` (alias `model`), `max_output_tokens` (alias `max_tokens`),
        # `temperature`, `top_p`, `top_k` and `model_kwargs` make the anthropic SDK's
        # `AnthropicVertex` request; its `stop` field (alias `stop_sequences`) is never sent,
        # only the stop an invocation passes; `streaming=True` streams and gathers the same
        # message. Every model it takes is Claude's, in its Vertex spelling.
        "langchain:ChatAnthropicVertex",
        LANGCHAIN,
        "ChatAnthropicVertex",
        location="model-kwargs",
        max_tokens=(MAX_TOKENS, "max_output_tokens"),
        stop=(),
        stream=("streaming",),
        model=(MODEL, "model_name"),
        streaming_api="ChatAnthropicVertex(..., streaming=True)",
        sends="sdk",
    ),
    Target(
        "langchain:ChatLiteLLM",
        LANGCHAIN,
        "ChatLiteLLM",
        stop=(),
        stream=("streaming",),
        model=(MODEL, "model_name"),
        streaming_api="ChatLiteLLM(..., streaming=True)",
        by_model=True,
    ),
)

# LangChain classes by their last name, and the packages they may be imported from.
LANGCHAIN_CLASSES = {
    "ChatAnthropic": "langchain:ChatAnthropic",
    "ChatAnthropicMessages": "langchain:ChatAnthropic",
    # langchain-aws 1.7's subclasses of ChatAnthropic over the SDK's `AnthropicBedrock` and
    # `AnthropicBedrockMantle` clients (langchain_aws/chat_models/anthropic.py): the same
    # fields, the model a Bedrock id.
    "ChatAnthropicBedrock": "langchain:ChatAnthropic",
    "ChatAnthropicMantle": "langchain:ChatAnthropic",
    "ChatBedrock": "langchain:ChatBedrock",
    "BedrockChat": "langchain:ChatBedrock",
    "ChatBedrockConverse": "langchain:ChatBedrockConverse",
}
LANGCHAIN_PACKAGES = ("langchain_anthropic", "langchain_aws", "langchain_community", "langchain")
# The legacy classes (langchain's own and langchain_community's `ChatAnthropic` and LLM
# `Anthropic`) call `client.completions.create` (langchain_community/llms/anthropic.py,
# chat_models/anthropic.py); langchain_anthropic.ChatAnthropic is the Messages API one.
LANGCHAIN_LEGACY = frozenset(
    f"{package}.{module}.{name}"
    for package in ("langchain", "langchain_community")
    for module, name in (
        ("chat_models", "ChatAnthropic"),
        ("chat_models.anthropic", "ChatAnthropic"),
        ("llms", "Anthropic"),
        ("llms.anthropic", "Anthropic"),
    )
)
# Targets recognised by the class alone (every model they take is Claude's); the others are
# Claude's only with a Claude model id.
LANGCHAIN_CLAUDE_ONLY = ("langchain:ChatAnthropic", "langchain:legacy")


def langchain_target(qualname: str) -> str | None:
    """Return the target key of a LangChain class by its qualified name (None: not one)."""
    if qualname in LANGCHAIN_LEGACY:
        return "langchain:legacy"
    last = qualname.rsplit(".", 1)[-1]
    if last in LANGCHAIN_CLASSES and qualname.split(".")[0] in LANGCHAIN_PACKAGES:
        return LANGCHAIN_CLASSES[last]
    return None


# Classes recognised through the registry's constructors.
CONSTRUCTORS = {
    f"{package}.{module}.Bedrock": Constructor("langchain:Bedrock")
    for package in ("langchain", "langchain_community")
    for module in ("llms", "llms.bedrock")
}
# langchain-aws's `BedrockLLM` is the same LLM, refusing Claude 3 models as the legacy one does
# (langchain_aws/llms/bedrock.py, `validate_environment`).
CONSTRUCTORS.update(
    {
        f"langchain_aws.{module}BedrockLLM": Constructor("langchain:Bedrock")
        for module in ("", "llms.", "llms.bedrock.")
    }
)

# langchain_community's `ChatLiteLLM(model=..., temperature=..., max_tokens=...,
# streaming=False)` sends its fields through LiteLLM's completion
# (langchain_community/chat_models/litellm.py): Claude's with a Claude model.
CONSTRUCTORS.update(
    {
        f"langchain_community.chat_models{module}.ChatLiteLLM": Constructor("langchain:ChatLiteLLM")
        for module in ("", ".litellm")
    }
)
CONSTRUCTORS["langchain_google_vertexai.model_garden.ChatAnthropicVertex"] = Constructor(
    "langchain:ChatAnthropicVertex"
)
CONSTRUCTORS.update(
    {
        f"langchain.chat_models{module}.init_chat_model": Constructor(
            "langchain:init_chat_model", positional=0
        )
        for module in ("", ".base")
    }
)


def describes(qualname: str) -> bool:
    """Return whether an import path names one of LangChain's Claude classes (what the family
    describes beside `CONSTRUCTORS`, for `registry.described`)."""
    return langchain_target(qualname) is not None


CALLEES = frozenset(
    {
        *LANGCHAIN_CLASSES,
        "Anthropic",
        "Bedrock",
        "BedrockLLM",
        "init_chat_model",
        "ChatLiteLLM",
        "ChatAnthropicVertex",
    }
)
# `Anthropic(...)` is LangChain's legacy LLM only in a file naming `langchain`.
ONLY_WITH = (("Anthropic", "langchain"),)
