"""Amazon Bedrock through boto3: the `bedrock-runtime` client's invoke_model (a JSON body) and
converse (an `inferenceConfig`), and the `bedrock-agent-runtime` client's retrieve_and_generate
(a model ARN and a `textInferenceConfig`). A Bedrock call is Claude's only with a Claude model id
(`anthropic.claude-...`, `us.anthropic.claude-...`, an ARN ending in one)."""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, Target

BEDROCK = "bedrock"
# The synthetic classes of the clients `boto3.client("bedrock-runtime")` and
# `boto3.client("bedrock-agent-runtime")` make.
BEDROCK_RUNTIME = "boto3:bedrock-runtime"
BEDROCK_AGENT_RUNTIME = "boto3:bedrock-agent-runtime"
BOTO3_CLIENT_FACTORIES = ("boto3.client", "boto3.session.Session.client")
BOTO3_SESSIONS = ("boto3.Session", "boto3.session.Session")

TARGETS = (
    Target(
        "bedrock:invoke_model",
        BEDROCK,
        "bedrock-runtime invoke_model",
        by_model=True,
        location="json-body",
        max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
        model=("modelId",),
        streaming_api="invoke_model_with_response_stream(...)",
    ),
    Target(
        "bedrock:invoke_model_with_response_stream",
        BEDROCK,
        "bedrock-runtime invoke_model_with_response_stream",
        by_model=True,
        location="json-body",
        max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
        model=("modelId",),
        streams=True,
    ),
    Target(
        "bedrock:converse",
        BEDROCK,
        "bedrock-runtime converse",
        by_model=True,
        location="inference-config",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        model=("modelId",),
        streaming_api="converse_stream(...)",
    ),
    Target(
        "bedrock:converse_stream",
        BEDROCK,
        "bedrock-runtime converse_stream",
        by_model=True,
        location="inference-config",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        model=("modelId",),
        streams=True,
    ),
    # boto3 bedrock-agent-runtime: the model is retrieveAndGenerateConfiguration.
    # knowledgeBaseConfiguration (or externalSourcesConfiguration).modelArn, the parameters
    # its generationConfiguration.inferenceConfig.textInferenceConfig.
    Target(
        "bedrock:retrieve_and_generate",
        BEDROCK,
        "bedrock-agent-runtime retrieve_and_generate",
        by_model=True,
        location="text-inference-config",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        model=("modelArn",),
        streaming_api="retrieve_and_generate_stream(...)",
    ),
    Target(
        "bedrock:retrieve_and_generate_stream",
        BEDROCK,
        "bedrock-agent-runtime retrieve_and_generate_stream",
        by_model=True,
        location="text-inference-config",
        max_tokens=("maxTokens",),
        stop=("stopSequences",),
        model=("modelArn",),
        streams=True,
    ),
)

BEDROCK_METHODS = {
    "invoke_model": "bedrock:invoke_model",
    "invoke_model_with_response_stream": "bedrock:invoke_model_with_response_stream",
    "converse": "bedrock:converse",
    "converse_stream": "bedrock:converse_stream",
}
BEDROCK_AGENT_METHODS = {
    "retrieve_and_generate": "bedrock:retrieve_and_generate",
    "retrieve_and_generate_stream": "bedrock:retrieve_and_generate_stream",
}
# The knowledgeBaseConfiguration / externalSourcesConfiguration of a retrieve_and_generate call.
BEDROCK_AGENT_SOURCES = ("knowledgeBaseConfiguration", "externalSourcesConfiguration")

# What the family describes by import path (`registry.described`): boto3's client factories
# and sessions.
DESCRIBED = frozenset((*BOTO3_CLIENT_FACTORIES, *BOTO3_SESSIONS))

CALLEES = frozenset({*BEDROCK_METHODS, *BEDROCK_AGENT_METHODS})
