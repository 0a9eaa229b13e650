"""Recognise Claude call sites, in every supported client, from one registry.

`TARGETS` lists every kind of Claude call the rules understand: how it is recognised (the
callee it resolves to), where its parameters live (keyword arguments, a JSON body, a nested
`inferenceConfig` or `model_kwargs` dict, a `json=` payload) and the names it uses for
temperature, output budget, stop sequences and streaming. `find_call_sites` turns every call of a
module that provably reaches Claude into a `CallSite`; an OpenAI client, another vendor's model,
a local class with a `messages.create` method, or a receiver that cannot be followed is never one.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .lazy import lazy_import
from .scope import CallRecord, ModuleIndex
from .symbols import (
    BEDROCK_RUNTIME,
    Instance,
    Qual,
    Resolver,
    is_sdk_client_class,
)
from .values import Entries, Entry, string_value

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Canonical parameter names the rules ask for.
TEMPERATURE = "temperature"
MAX_TOKENS = "max_tokens"
STOP = "stop_sequences"
STREAM = "stream"
MODEL = "model"
HEADERS = "headers"

SDK, BEDROCK, LANGCHAIN, LITELLM, HTTP = "sdk", "bedrock", "langchain", "litellm", "http"
LLAMAINDEX = "llamaindex"


@dataclass(frozen=True)
class Target:
    """One kind of Claude call: its parameter names, and whether it streams by itself."""

    key: str
    family: str
    description: str
    # Where the parameters are: "kwargs", "json-body" (Bedrock invoke_model body),
    # "inference-config" (Bedrock converse), "model-kwargs" (LangChain Bedrock), "json" (HTTP).
    location: str = "kwargs"
    temperature: tuple[str, ...] = (TEMPERATURE,)
    max_tokens: tuple[str, ...] = (MAX_TOKENS,)
    stop: tuple[str, ...] = (STOP,)
    stream: tuple[str, ...] = (STREAM,)
    model: tuple[str, ...] = (MODEL,)
    # True when the call streams by itself (messages.stream); None when a flag decides.
    streams: bool | None = None
    legacy: bool = False
    # What a non-streaming call should use instead (for messages).
    streaming_api: str = ""

    def names(self, canonical: str) -> tuple[str, ...]:
        return {
            TEMPERATURE: self.temperature,
            MAX_TOKENS: self.max_tokens,
            STOP: self.stop,
            STREAM: self.stream,
            MODEL: self.model,
            HEADERS: ("headers", "extra_headers"),
        }[canonical]


def _sdk(path: str, **kw: Any) -> Target:
    return Target(f"sdk:{path}", SDK, path, **kw)


TARGETS: dict[str, Target] = {
    t.key: t
    for t in (
        _sdk("messages.create", streaming_api="client.messages.stream(...)"),
        _sdk("messages.stream", streams=True),
        _sdk("beta.messages.create", streaming_api="client.beta.messages.stream(...)"),
        _sdk("beta.messages.stream", streams=True),
        _sdk(
            "completions.create",
            max_tokens=("max_tokens_to_sample",),
            legacy=True,
            streaming_api="completions.create(..., stream=True)",
        ),
        Target(
            "bedrock:invoke_model",
            BEDROCK,
            "bedrock-runtime invoke_model",
            location="json-body",
            max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
            model=("modelId",),
            streaming_api="invoke_model_with_response_stream(...)",
        ),
        Target(
            "bedrock:invoke_model_with_response_stream",
            BEDROCK,
            "bedrock-runtime invoke_model_with_response_stream",
            location="json-body",
            max_tokens=(MAX_TOKENS, "max_tokens_to_sample"),
            model=("modelId",),
            streams=True,
        ),
        Target(
            "bedrock:converse",
            BEDROCK,
            "bedrock-runtime converse",
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
            location="inference-config",
            max_tokens=("maxTokens",),
            stop=("stopSequences",),
            model=("modelId",),
            streams=True,
        ),
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
            "langchain:ChatBedrock",
            LANGCHAIN,
            "ChatBedrock",
            location="model-kwargs",
            stream=("streaming",),
            model=("model_id", MODEL),
            streaming_api="ChatBedrock(..., streaming=True)",
        ),
        Target(
            "langchain:ChatBedrockConverse",
            LANGCHAIN,
            "ChatBedrockConverse",
            stop=("stop", STOP),
            stream=(),
            model=(MODEL, "model_id"),
        ),
        Target(
            "llamaindex:Anthropic",
            LLAMAINDEX,
            "LlamaIndex Anthropic",
            stop=(),
            stream=(),
        ),
        Target(
            "litellm:completion",
            LITELLM,
            "litellm completion",
            max_tokens=(MAX_TOKENS, "max_completion_tokens"),
            stop=("stop",),
            streaming_api="completion(..., stream=True)",
        ),
        Target(
            "http:messages",
            HTTP,
            "POST /v1/messages",
            location="json",
            streaming_api='"stream": true in the request body',
        ),
        Target(
            "http:complete",
            HTTP,
            "POST /v1/complete",
            location="json",
            max_tokens=("max_tokens_to_sample",),
            legacy=True,
            streaming_api='"stream": true in the request body',
        ),
    )
}

SDK_METHODS = {
    ("messages", "create"): "sdk:messages.create",
    ("messages", "stream"): "sdk:messages.stream",
    ("beta", "messages", "create"): "sdk:beta.messages.create",
    ("beta", "messages", "stream"): "sdk:beta.messages.stream",
    ("completions", "create"): "sdk:completions.create",
}
BEDROCK_METHODS = {
    "invoke_model": "bedrock:invoke_model",
    "invoke_model_with_response_stream": "bedrock:invoke_model_with_response_stream",
    "converse": "bedrock:converse",
    "converse_stream": "bedrock:converse_stream",
}
# LangChain classes by their last name, and the packages they may be imported from.
LANGCHAIN_CLASSES = {
    "ChatAnthropic": "langchain:ChatAnthropic",
    "ChatAnthropicMessages": "langchain:ChatAnthropic",
    "ChatBedrock": "langchain:ChatBedrock",
    "BedrockChat": "langchain:ChatBedrock",
    "ChatBedrockConverse": "langchain:ChatBedrockConverse",
}
LANGCHAIN_PACKAGES = ("langchain_anthropic", "langchain_aws", "langchain_community", "langchain")
LITELLM_FUNCTIONS = ("litellm.completion", "litellm.acompletion")
# LlamaIndex's Claude LLM class (every model it takes is a Claude model).
LLAMAINDEX_CLASSES = (
    "llama_index.llms.anthropic.Anthropic",
    "llama_index.llms.anthropic.base.Anthropic",
)
HTTP_FUNCTIONS = {
    "requests.post": "requests",
    "requests.request": "requests",
    "requests.api.post": "requests",
    "httpx.post": "httpx",
    "httpx.request": "httpx",
    "httpx.stream": "httpx",
}
HTTP_CLIENT_METHODS = ("post", "request", "stream")

# Method or function names a call must end in to be worth resolving at all.
CALLEE_NAMES = frozenset(
    {
        "create",
        "stream",
        "completion",
        "acompletion",
        "Anthropic",
        *BEDROCK_METHODS,
        *LANGCHAIN_CLASSES,
    }
    | set(HTTP_CLIENT_METHODS)
)

# Byte strings one of which appears in any file with a call the registry recognises: every
# target is proven Claude through an import of `anthropic`/`langchain_anthropic`, a Claude model
# id (`claude-...`, `anthropic.claude-...`, `anthropic/...`), an `anthropic_version` body key or
# the `api.anthropic.com` URL. The prefilter skips files with none of them without parsing.
MARKERS: tuple[bytes, ...] = (b"anthropic", b"Anthropic", b"claude")

_CLAUDE_MODEL = re.compile(r"(^|[/.:])(claude)|(^|[/.])anthropic[./]", re.IGNORECASE)
ANTHROPIC_API = re.compile(r"^(https?://)?api\.anthropic\.com(:\d+)?(/|$)|^\{\}(/|$)")


def is_claude_model(model: str) -> bool:
    """Return whether a model id names a Claude model (API, Bedrock, Vertex, LiteLLM forms)."""
    return bool(_CLAUDE_MODEL.search(model.strip()))


def anthropic_endpoint(url: str) -> str | None:
    """Return "messages" or "complete" when a URL is the Anthropic API's endpoint for it."""
    match = re.match(r"^(?:https?://)?api\.anthropic\.com(?::\d+)?(/[^?#]*)", url)
    if not match:
        return None
    path = match.group(1).rstrip("/")
    if path.endswith("/v1/messages"):
        return "messages"
    if path.endswith("/v1/complete"):
        return "complete"
    return None


@dataclass(eq=False)
class CallSite:
    """A call proven to reach Claude, with its parameters as written."""

    record: CallRecord
    target: Target
    params: Entries
    client: str = ""  # the client class, e.g. "anthropic.AsyncAnthropic"
    # The call's keyword arguments when the parameters live elsewhere (a JSON body...).
    call_args: Entries | None = None
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def node(self) -> cst.Call:
        return self.record.node

    @property
    def family(self) -> str:
        return self.target.family

    @property
    def is_async(self) -> bool:
        return self.client.rsplit(".", 1)[-1].startswith("Async") or self.record.awaited

    def param(self, canonical: str) -> Entry | None:
        """Return the entry for a canonical parameter, under any of the target's names."""
        names = self.target.names(canonical)
        return self.params.get(*names) if names else None

    def may_have(self, canonical: str) -> bool:
        return self.params.may_have(*self.target.names(canonical))

    @property
    def legacy(self) -> bool:
        """Whether this is a Text Completions request (CM301's), by endpoint or body format."""
        if self.target.legacy:
            return True
        return (
            self.family == BEDROCK
            and self.target.location == "json-body"
            and self.params.get("prompt") is not None
        )


_MUTATING_METHODS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})


class CallFinder:
    """Matches a module's calls against the registry."""

    def __init__(self, index: ModuleIndex, resolver: Resolver) -> None:
        self.index = index
        self.resolver = resolver
        self.values = resolver.values
        self._mutators: dict[int, dict[str, list[int]]] | None = None

    def mutators(self, record: CallRecord) -> dict[str, list[int]]:
        """Return, per name, the orders of mutating method calls on it (`d.update(...)`)."""
        if self._mutators is None:
            table: dict[int, dict[str, list[int]]] = {}
            for other in self.index.calls:
                func = other.node.func
                if (
                    isinstance(func, cst.Attribute)
                    and isinstance(func.value, cst.Name)
                    and func.attr.value in _MUTATING_METHODS
                ):
                    key = id(other.scope.function())
                    table.setdefault(key, {}).setdefault(func.value.value, []).append(other.order)
            self._mutators = table
        return self._mutators.get(id(record.scope.function()), {})

    def kwargs(self, record: CallRecord) -> Entries:
        return self.values.entries_of_call(
            record.node, record.scope, record.order, self.mutators(record)
        )

    def _string(self, entry: Entry | None, record: CallRecord) -> str | None:
        if entry is None:
            return None
        value = entry.value
        if value.known and isinstance(value.value, str):
            return value.value
        return None

    # Recognition -------------------------------------------------------------------------------
    def site(self, record: CallRecord) -> CallSite | None:
        func = record.node.func
        if isinstance(func, cst.Attribute):
            if func.attr.value not in CALLEE_NAMES:
                return None
        elif not isinstance(func, cst.Name):
            return None
        symbol = self.resolver.resolve(func, record.scope)
        if isinstance(symbol, Instance):
            return self._method_site(record, symbol)
        if isinstance(symbol, Qual):
            return self._function_site(record, symbol.name)
        return None

    def _method_site(self, record: CallRecord, symbol: Instance) -> CallSite | None:
        if is_sdk_client_class(symbol.cls):
            key = SDK_METHODS.get(symbol.path)
            if key is None:
                return None
            return CallSite(record, TARGETS[key], self.kwargs(record), client=symbol.cls)
        if symbol.cls == BEDROCK_RUNTIME and len(symbol.path) == 1:
            key = BEDROCK_METHODS.get(symbol.path[0])
            return self._bedrock_site(record, TARGETS[key]) if key else None
        if symbol.cls == "litellm.Router" and symbol.path in (("completion",), ("acompletion",)):
            return self._litellm_site(record)
        if (
            symbol.cls.split(".")[0] in ("requests", "httpx", "aiohttp")
            and len(symbol.path) == 1
            and symbol.path[0] in HTTP_CLIENT_METHODS
        ):
            return self._http_site(record, symbol.path[0], base_url=symbol.info)
        return None

    def _function_site(self, record: CallRecord, qualname: str) -> CallSite | None:
        last = qualname.rsplit(".", 1)[-1]
        if last in LANGCHAIN_CLASSES and qualname.split(".")[0] in LANGCHAIN_PACKAGES:
            return self._langchain_site(record, TARGETS[LANGCHAIN_CLASSES[last]])
        if qualname in LITELLM_FUNCTIONS:
            return self._litellm_site(record)
        if qualname in LLAMAINDEX_CLASSES:
            target = TARGETS["llamaindex:Anthropic"]
            return CallSite(record, target, self.kwargs(record), client="llamaindex")
        if qualname in HTTP_FUNCTIONS:
            return self._http_site(record, last)
        return None

    def _bedrock_site(self, record: CallRecord, target: Target) -> CallSite | None:
        args = self.kwargs(record)
        model = self._string(args.get("modelId"), record)
        if target.location == "json-body":
            body = args.get("body")
            if body is None:
                return None
            params = self.values.json_payload(
                body.value_node, record.scope, record.order, self.mutators(record)
            )
            if params is None:
                return None
            # A Claude model id, or the Anthropic body's version key, proves it is Claude.
            if not (model and is_claude_model(model)) and "anthropic_version" not in params.items:
                return None
        else:
            if not (model and is_claude_model(model)):
                return None
            params = self.values.nested(args.get("inferenceConfig"), record.scope) or Entries()
            if "inferenceConfig" in args.unknown_keys or (
                args.get("inferenceConfig") is not None and not params.items and params.opaque
            ):
                params.opaque = True
            params.opaque = params.opaque or args.opaque
        return CallSite(record, target, params, client=BEDROCK_RUNTIME, call_args=args)

    def _langchain_site(self, record: CallRecord, target: Target) -> CallSite | None:
        args = self.kwargs(record)
        if target.key == "langchain:ChatAnthropic":
            return CallSite(record, target, args, client="langchain")
        model = None
        for name in target.model:
            model = model or self._string(args.get(name), record)
        if not (model and is_claude_model(model)):
            return None
        if target.location == "model-kwargs":
            nested = self.values.nested(args.get("model_kwargs"), record.scope)
            params = Entries(dict(args.items), args.opaque, set(args.unknown_keys))
            if nested is not None:
                params.items.update(nested.items)
                params.opaque = params.opaque or nested.opaque
            elif args.get("model_kwargs") is not None:
                params.opaque = True
            return CallSite(record, target, params, client="langchain", call_args=args)
        return CallSite(record, target, args, client="langchain")

    def _litellm_site(self, record: CallRecord) -> CallSite | None:
        args = self.kwargs(record)
        model = self._string(args.get(MODEL), record)
        if model is None and record.node.args and record.node.args[0].keyword is None:
            first = record.node.args[0]
            if not first.star:
                value = self.values.value(first.value, record.scope)
                model = value.value if value.known and isinstance(value.value, str) else None
        if not (model and is_claude_model(model)):
            return None
        return CallSite(record, TARGETS["litellm:completion"], args, client="litellm")

    def _http_site(self, record: CallRecord, method: str, base_url: str = "") -> CallSite | None:
        call = record.node
        positional = [a for a in call.args if a.keyword is None and not a.star]
        args = self.kwargs(record)
        url_node: cst.BaseExpression | None = None
        verb: str | None = "POST" if method == "post" else None
        if method in ("request", "stream"):
            if len(positional) >= 2:
                verb_value = self.values.value(positional[0].value, record.scope)
                verb = verb_value.value if verb_value.known else None
                url_node = positional[1].value
            elif args.get("method") is not None:
                verb = self._string(args.get("method"), record)
        elif positional:
            url_node = positional[0].value
        if url_node is None and (url_arg := args.get("url")) is not None:
            url_node = url_arg.value_node
        if not isinstance(verb, str) or verb.upper() != "POST" or url_node is None:
            return None
        url = self.values.template(url_node, record.scope)
        if url is None:
            return None
        if base_url and not re.match(r"^[a-z]+://", url):
            url = base_url.rstrip("/") + "/" + url.lstrip("/")
        endpoint = anthropic_endpoint(url)
        if endpoint is None:
            return None
        target = TARGETS["http:messages" if endpoint == "messages" else "http:complete"]
        body = args.get("json")
        params: Entries | None = None
        if body is not None:
            params = self.values.json_payload(
                body.value_node, record.scope, record.order, self.mutators(record)
            )
        else:
            for key in ("data", "content"):
                if (raw := args.get(key)) is not None:
                    params = self.values.json_payload(
                        raw.value_node, record.scope, record.order, self.mutators(record)
                    )
                    break
        if params is None:
            params = Entries(opaque=True)
        return CallSite(
            record, target, params, client=f"http:{method}", call_args=args, extra={"url": url}
        )


def find_call_sites(index: ModuleIndex, resolver: Resolver | None = None) -> Iterator[CallSite]:
    """Yield every call in the module proven to reach Claude."""
    finder = CallFinder(index, resolver or Resolver(index))
    for record in index.calls:
        site = finder.site(record)
        if site is not None:
            yield site


def parameter_names(canonical: str) -> frozenset[str]:
    """Return every name a canonical parameter goes by in any target (for the prefilter)."""
    return frozenset(name for target in TARGETS.values() for name in target.names(canonical))


__all__ = [
    "CallSite",
    "MARKERS",
    "TARGETS",
    "Target",
    "find_call_sites",
    "is_claude_model",
    "string_value",
]
