"""What every target family shares: the `Target` record, the canonical parameter names the rules
ask for, and how a model id is told to be Claude's."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# Canonical parameter names the rules ask for.
TEMPERATURE = "temperature"
MAX_TOKENS = "max_tokens"
STOP = "stop_sequences"
STREAM = "stream"
MODEL = "model"
HEADERS = "headers"
CANONICAL = (TEMPERATURE, MAX_TOKENS, STOP, STREAM, MODEL)


@dataclass(frozen=True)
class Target:
    """One kind of Claude call: its parameter names, and whether it streams by itself."""

    key: str
    family: str
    description: str
    # Where the parameters are: "kwargs", "json-body" (Bedrock invoke_model body),
    # "inference-config" (Bedrock converse), "model-kwargs" (the keywords and the dict of the
    # keyword `nested`: LangChain Bedrock's `model_kwargs`, Haystack's `generation_kwargs`),
    # "json" (HTTP),
    # "text-inference-config" (bedrock-agent-runtime retrieve_and_generate), "settings"
    # (pydantic-ai's `settings` / `model_settings` dict), "batch-params" (each request's
    # `params` of a Message Batches `requests` list).
    location: str = "kwargs"
    # With location "model-kwargs": the keyword whose dict holds more of the parameters.
    nested: str = "model_kwargs"
    temperature: tuple[str, ...] = (TEMPERATURE,)
    max_tokens: tuple[str, ...] = (MAX_TOKENS,)
    stop: tuple[str, ...] = (STOP,)
    stream: tuple[str, ...] = (STREAM,)
    model: tuple[str, ...] = (MODEL,)
    # True when the call streams by itself (messages.stream); None when a flag decides.
    streams: bool | None = None
    # Whether the call streams when its flag is left out (a flag that defaults to True).
    streams_unless_told: bool = False
    legacy: bool = False
    # What a non-streaming call should use instead (for messages).
    streaming_api: str = ""
    # Whether the request reaches the model as written, so rules/models.toml's facts (CM108, a
    # CM302 fix's parameter changes) apply; False where a layer in between adapts it.
    model_facts: bool = True
    # Whether only a Claude model makes the call Claude's (a library serving many vendors):
    # a wrapper's call is one only when the model it passes is.
    by_model: bool = False
    # With `by_model`: what a model id must start with besides naming Claude (the provider
    # prefix of a library that routes by it, such as aisuite's `anthropic:`).
    model_prefix: str = ""
    # What reaches Anthropic, for what the API version and the SDK refuse (a family not listed
    # in `analysis/rejections.py` by name): "sdk" (the anthropic SDK's messages.create),
    # "body" (a Bedrock body: its own anthropic_version, else the API version), "api" (a
    # Messages request the API version judges), "" (not judged).
    sends: str = ""

    def names(self, canonical: str) -> tuple[str, ...]:
        return {
            TEMPERATURE: self.temperature,
            MAX_TOKENS: self.max_tokens,
            STOP: self.stop,
            STREAM: self.stream,
            MODEL: self.model,
            HEADERS: ("headers", "extra_headers"),
        }[canonical]


@dataclass(frozen=True)
class Constructor:
    """A class of another library that is a Claude call when it is made (its request
    parameters are the constructor's): `target` is the key of its `Target` (whose `by_model`
    says whether only a Claude model makes it one), `positional` the index its model may be
    passed at (None: by keyword only)."""

    target: str
    positional: int | None = None


_CLAUDE_MODEL = re.compile(r"(^|[/.:])(claude)|(^|[/.])anthropic[./]", re.IGNORECASE)


def is_claude_model(model: str) -> bool:
    """Return whether a model id names a Claude model (API, Bedrock, Vertex, LiteLLM forms)."""
    return bool(_CLAUDE_MODEL.search(model.strip()))


def last_names(qualnames: Iterable[str]) -> frozenset[str]:
    """Return the last names of import paths (what a call of one must end in)."""
    return frozenset(qualname.rsplit(".", 1)[-1] for qualname in qualnames)
