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
    # "inference-config" (Bedrock converse), "model-kwargs" (LangChain Bedrock), "json" (HTTP),
    # "text-inference-config" (bedrock-agent-runtime retrieve_and_generate), "settings"
    # (pydantic-ai's `settings` / `model_settings` dict).
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
    # Whether the request reaches the model as written, so rules/models.toml's facts (CM108, a
    # CM302 fix's parameter changes) apply; False where a layer in between adapts it.
    model_facts: bool = True

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
    """A class (or function) of another library that is a Claude call when it is made.

    `target` is the key of its `Target`; `positional` the index its model may be passed at
    (None: by keyword only); `claude_model`: whether only a Claude model string makes it one
    (a library serving many vendors), else every call is (a class only for Claude).
    """

    target: str
    positional: int | None = None
    claude_model: bool = True


_CLAUDE_MODEL = re.compile(r"(^|[/.:])(claude)|(^|[/.])anthropic[./]", re.IGNORECASE)


def is_claude_model(model: str) -> bool:
    """Return whether a model id names a Claude model (API, Bedrock, Vertex, LiteLLM forms)."""
    return bool(_CLAUDE_MODEL.search(model.strip()))


def last_names(qualnames: Iterable[str]) -> frozenset[str]:
    """Return the last names of import paths (what a call of one must end in)."""
    return frozenset(qualname.rsplit(".", 1)[-1] for qualname in qualnames)
