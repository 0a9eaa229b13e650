"""LlamaIndex: its Claude LLM class (`llama_index.llms.anthropic.Anthropic`, every model it takes
is Claude's) and its Bedrock classes, Claude's with a Claude model.

llama-index-llms-bedrock-converse 0.15 `BedrockConverse(model, temperature=, max_tokens=, ...)`
sends them as converse's inferenceConfig; it has no stop or stream argument (streaming is
`stream_chat`). llama-index-llms-bedrock 0.6 `Bedrock` (an invoke_model body) takes the same two.
"""

from __future__ import annotations

from claude_migrate.targets.base import Target, last_names

LLAMAINDEX = "llamaindex"

TARGETS = (
    Target("llamaindex:Anthropic", LLAMAINDEX, "LlamaIndex Anthropic", stop=(), stream=()),
    Target(
        "llamaindex:BedrockConverse",
        LLAMAINDEX,
        "LlamaIndex BedrockConverse",
        stop=(),
        stream=(),
    ),
    Target("llamaindex:Bedrock", LLAMAINDEX, "LlamaIndex Bedrock", stop=(), stream=()),
)

# LlamaIndex's Claude LLM class (every model it takes is a Claude model).
LLAMAINDEX_CLASSES = (
    "llama_index.llms.anthropic.Anthropic",
    "llama_index.llms.anthropic.base.Anthropic",
)
LLAMAINDEX_BEDROCK_CLASSES = {
    "llama_index.llms.bedrock_converse.BedrockConverse": "llamaindex:BedrockConverse",
    "llama_index.llms.bedrock_converse.base.BedrockConverse": "llamaindex:BedrockConverse",
    "llama_index.llms.bedrock.Bedrock": "llamaindex:Bedrock",
    "llama_index.llms.bedrock.base.Bedrock": "llamaindex:Bedrock",
}

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset((*LLAMAINDEX_CLASSES, *LLAMAINDEX_BEDROCK_CLASSES))

CALLEES = frozenset({"Anthropic"}) | last_names(LLAMAINDEX_BEDROCK_CLASSES)
# `Anthropic(...)` is LlamaIndex's LLM only in a file naming `llama_index`.
ONLY_WITH = (("Anthropic", "llama_index"),)
