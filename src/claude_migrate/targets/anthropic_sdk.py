"""The official `anthropic` SDK: its client classes, the request methods on them (Messages, the
legacy Text Completions, the beta and prompt-caching resources) and the client copies
(`with_options`, `copy`) that keep a client's class."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from claude_migrate.targets.base import Target, is_claude_model

SDK = "sdk"


def _sdk(path: str, **kw: Any) -> Target:
    return Target(f"sdk:{path}", SDK, path, **kw)


TARGETS: tuple[Target, ...] = (
    _sdk("messages.create", streaming_api="client.messages.stream(...)"),
    _sdk("messages.stream", streams=True),
    _sdk("beta.messages.create", streaming_api="client.beta.messages.stream(...)"),
    _sdk("beta.messages.stream", streams=True),
    # Structured outputs (anthropic `resources/messages/messages.py` and
    # `resources/beta/messages/messages.py`, `parse`, as of 2.15.0): a Messages request whose
    # `output_format` type the SDK turns into a JSON schema; it does not stream, and
    # `messages.stream(...)` takes the same `output_format`.
    _sdk("messages.parse", streaming_api="client.messages.stream(...)"),
    _sdk("beta.messages.parse", streaming_api="client.beta.messages.stream(...)"),
    # The Message Batches API (anthropic `resources/messages/batches.py`,
    # https://docs.claude.com/en/api/creating-message-batches): each request's `params` is a
    # Messages request, judged as one; a batch does not stream.
    _sdk("messages.batches.create", location="batch-params", stream=()),
    _sdk("beta.messages.batches.create", location="batch-params", stream=()),
    # Token counting (anthropic `resources/messages/messages.py`, `count_tokens`,
    # https://docs.claude.com/en/api/messages-count-tokens): names a model, sends no sampling
    # parameters and no max_tokens.
    _sdk("messages.count_tokens", temperature=(), max_tokens=(), stop=(), stream=()),
    _sdk("beta.messages.count_tokens", temperature=(), max_tokens=(), stop=(), stream=()),
    _sdk(
        "completions.create",
        max_tokens=("max_tokens_to_sample",),
        legacy=True,
        streaming_api="completions.create(..., stream=True)",
    ),
    # The pre-0.3 SDK's `anthropic.Client(key).completion(prompt=..., model=...,
    # max_tokens_to_sample=...)` and its streaming and async forms (anthropic 0.2.x,
    # `anthropic/api.py`): a Text Completions request, its model the call's.
    _sdk("completion", max_tokens=("max_tokens_to_sample",), legacy=True),
    _sdk("completion_stream", max_tokens=("max_tokens_to_sample",), legacy=True, streams=True),
)

# `client.messages.with_raw_response.create(...)` (anthropic `_response.py`): the same request,
# its HTTP response returned as it came. Its targets are the method's own, under their path,
# with no `stream` rewrite (what the code reads from the response is not a `Message`).
RESPONSE_WRAPPERS = ("with_raw_response", "with_streaming_response")


def _wrapped(target: Target, wrapper: str) -> Target:
    resource, _, method = target.key.removeprefix("sdk:").rpartition(".")
    path = f"{resource}.{wrapper}.{method}"
    streaming_api = "stream=True" if target.streaming_api else ""
    return replace(target, key=f"sdk:{path}", description=path, streaming_api=streaming_api)


# `parse` has no raw-response form (the SDK parses the response itself).
TARGETS = TARGETS + tuple(
    _wrapped(target, wrapper)
    for target in TARGETS
    if not target.legacy and not target.key.endswith(".parse")
    for wrapper in RESPONSE_WRAPPERS
)

TARGETS_BY_KEY = {target.key: target for target in TARGETS}
SDK_METHODS = {
    ("messages", "create"): "sdk:messages.create",
    ("messages", "stream"): "sdk:messages.stream",
    ("beta", "messages", "create"): "sdk:beta.messages.create",
    ("beta", "messages", "stream"): "sdk:beta.messages.stream",
    ("messages", "parse"): "sdk:messages.parse",
    ("beta", "messages", "parse"): "sdk:beta.messages.parse",
    # The prompt-caching beta's own resource (anthropic 0.34-0.41,
    # `resources/beta/prompt_caching/messages.py`): the Messages API's parameters.
    ("beta", "prompt_caching", "messages", "create"): "sdk:beta.messages.create",
    ("beta", "prompt_caching", "messages", "stream"): "sdk:beta.messages.stream",
    ("completions", "create"): "sdk:completions.create",
    ("completion",): "sdk:completion",
    ("acompletion",): "sdk:completion",
    ("completion_stream",): "sdk:completion_stream",
    ("acompletion_stream",): "sdk:completion_stream",
    ("messages", "count_tokens"): "sdk:messages.count_tokens",
    ("beta", "messages", "count_tokens"): "sdk:beta.messages.count_tokens",
    ("messages", "batches", "create"): "sdk:messages.batches.create",
    ("beta", "messages", "batches", "create"): "sdk:beta.messages.batches.create",
}
SDK_METHODS.update(
    {
        (*path[:-1], wrapper, path[-1]): f"sdk:{'.'.join(path[:-1])}.{wrapper}.{path[-1]}"
        for path, key in list(SDK_METHODS.items())
        if key in {t.key for t in TARGETS}
        and not TARGETS_BY_KEY[key].legacy
        and not key.endswith(".parse")
        for wrapper in RESPONSE_WRAPPERS
        if path[1:2] != ("prompt_caching",)
    }
)
# The request types a batch's requests may be written with (`anthropic.types`), read as dicts.
BATCH_REQUEST_TYPES = frozenset(
    {
        "Request",
        "MessageCreateParamsNonStreaming",
        "MessageCreateParams",
        "BatchCreateParams",
    }
)
# Methods of a client that return a client of the same class.
CLIENT_COPIES = (("with_options",), ("copy",))

# The sentinels for a parameter left out of the request (anthropic 2.15.0, `anthropic/_types.py`:
# `NotGiven`, `NOT_GIVEN`, `not_given`, `Omit`, `omit`), by import path: an argument set to one
# is not sent.
NOT_GIVEN = frozenset(
    f"{module}.{name}"
    for module in ("anthropic", "anthropic._types")
    for name in ("NOT_GIVEN", "not_given", "omit")
)
NOT_GIVEN_CLASSES = frozenset(
    f"{module}.{name}"
    for module in ("anthropic", "anthropic._types")
    for name in ("NotGiven", "Omit")
)

# Every client class of the official SDK: Anthropic, AsyncAnthropic, Client, AsyncClient and the
# platform clients (AnthropicBedrock, AnthropicVertex, AnthropicFoundry, AnthropicAWS, ...), so a
# client class added by a newer SDK is recognised without a code change here.
# The last name of an SDK client class (`anthropic.AsyncAnthropicBedrock`...).
SDK_CLIENT_NAME = re.compile(r"^(Async)?(Client|Anthropic(?:[A-Z][A-Za-z]*)?)$")


def is_sdk_client_class(qualname: str) -> bool:
    """Return whether an import path names a client class of the `anthropic` SDK."""
    if not qualname.startswith("anthropic."):
        return False
    last = qualname.rsplit(".", 1)[-1]
    return bool(SDK_CLIENT_NAME.match(last)) and not last.endswith(("Error", "Exception"))


# The clients of the first-party API (`Anthropic`, `AsyncAnthropic`, `Client`, `AsyncClient`),
# which other servers speaking the Messages API are also sent through, with their own models
# (`base_url` or ANTHROPIC_BASE_URL: https://docs.ollama.com/api/anthropic-compatibility,
# https://api-docs.deepseek.com/guides/anthropic_api). The platform clients are left out: a
# Bedrock inference-profile ARN or a Foundry deployment name may stand for a Claude model.
FIRST_PARTY_CLIENT_NAME = re.compile(r"^(Async)?(Client|Anthropic)$")
# A model id with a version or a variant (`llama3.2`, `qwen2.5-coder`, `deepseek-chat`,
# `MiniMax-M2`): a bare word (`"m"`, `"local"`, `"MODEL"`) is a placeholder, not proven a model.
VERSIONED_MODEL_ID = re.compile(r"^[A-Za-z][A-Za-z0-9._:/@-]*[-0-9][A-Za-z0-9._:/@-]*$")
# Other vendors' model families whose bare name is itself a model a server pulls or serves
# (Ollama's library, https://ollama.com/library: `mistral`, `gemma`, `phi`, `qwen`, `llava`,
# ... each with an optional `:tag`, as `ollama pull mistral:latest`): no placeholder, and no
# Claude model.
OTHER_MODEL_FAMILIES = frozenset(
    {
        "codellama", "codestral", "deepseek", "falcon", "gemini", "gemma", "glm", "gpt",
        "granite", "kimi", "llama", "llava", "minimax", "mistral", "mixtral", "olmo",
        "openchat", "phi", "qwen", "starcoder", "tinyllama", "vicuna", "zephyr",
    }
)  # fmt: skip


# Servers speaking the Messages API that serve only their own models, by the base URL their
# vendors give the first-party client: Ollama's (its default port 11434, or a host named for it:
# https://docs.ollama.com/api/anthropic-compatibility), DeepSeek's `api.deepseek.com/anthropic`
# (https://api-docs.deepseek.com/guides/anthropic_api), MiniMax's `api.minimax.io/anthropic`,
# Moonshot's `api.moonshot.ai/anthropic` and Zhipu's `open.bigmodel.cn/api/anthropic` and
# `api.z.ai/api/anthropic`. A proxy's URL (LiteLLM's, a gateway's) is none of these: what it
# serves may be Claude.
OTHER_SERVER_URL = re.compile(
    r"""^https?://(?:
        [^/?#]*:11434(?:[/?#]|$)
      | (?:[^/?#:]*[.@-])?ollama(?:[.:/?#-]|$)
      | (?:[^/?#:]*\.)?
        (?:deepseek\.com|minimaxi?\.(?:io|com)|moonshot\.(?:ai|cn)|bigmodel\.cn|z\.ai)
        (?::\d+)?(?:[/?#]|$)
    )""",
    re.VERBOSE | re.IGNORECASE,
)


def serves_other_models(base_url: str) -> bool:
    """Return whether a client's base URL is a server of other vendors' models only."""
    return OTHER_SERVER_URL.match(base_url.strip()) is not None


def is_first_party_client(qualname: str) -> bool:
    """Return whether an import path names a client of the first-party API (not a platform's)."""
    return qualname.startswith("anthropic.") and bool(
        FIRST_PARTY_CLIENT_NAME.match(qualname.rsplit(".", 1)[-1])
    )


def sent_another_model(client: str, model: object, server: str = "") -> bool:
    """Return whether a call of a first-party client is sent another vendor's model id.

    Such a call goes to a server speaking the Messages API with its own models, or fails: it is
    not a Claude call (as a wrapper passed such a model is not). On a server of other models
    only (`server`, the client's base URL), any model but a Claude one is such a model.
    """
    if not is_first_party_client(client) or (isinstance(model, str) and is_claude_model(model)):
        return False
    if server and serves_other_models(server):
        return True
    return isinstance(model, str) and _names_a_model(model.strip())


def _names_a_model(model: str) -> bool:
    """Return whether a text is a model id rather than a placeholder: versioned, or the bare
    name of another vendor's family (with an optional tag)."""
    name = model.split(":", 1)[0].lower()
    return VERSIONED_MODEL_ID.match(model) is not None or name in OTHER_MODEL_FAMILIES


# What the family describes by import path (`registry.described`): every client class
# (`describes`) and the "not given" sentinels.
DESCRIBED = NOT_GIVEN | NOT_GIVEN_CLASSES
describes = is_sdk_client_class

CALLEES = frozenset({"create", "stream", "count_tokens", "parse"}) | frozenset(
    path[-1] for path in SDK_METHODS if len(path) == 1
)
