"""Which sampling parameters a Claude call cannot send, under the project's facts.

The anthropic Python SDK 1.0.0 dropped the `temperature`, `top_p` and `top_k` keyword arguments,
and API version `2026-10-21` answers 400 to a request that carries any of them
(rules/deprecations.toml names the sources). CM107 reports such arguments; CM101 yields to it
for temperature, and CM108 (model-params) for every sampling parameter. They ask here, so none
reads another. Beyond the SDK, raw HTTP and Bedrock bodies: LangChain's ChatAnthropic sends
through the SDK (same targets), and Bedrock converse, ChatBedrockConverse, LiteLLM, LlamaIndex,
pydantic-ai and DSPy are judged by the policy's api-version; instructor like the SDK it calls.
Never judged: Anthropic's OpenAI-compatible endpoint; LlamaIndex's Bedrock and LangChain's
ChatBedrock, whose bodies carry the version the library writes; Text Completions bodies, which
carry none. A family not named here says what it sends in its targets' `sends` (agno: the SDK;
CrewAI: a Messages request through LiteLLM; LangChain's legacy Bedrock LLM: a Text Completions
body).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from packaging.version import Version

from claude_migrate.analysis.calls import CallSite
from claude_migrate.policy.facts import SDK_PACKAGE
from claude_migrate.targets import (
    BEDROCK,
    DSPY,
    HTTP,
    INSTRUCTOR,
    LANGCHAIN,
    LITELLM,
    LLAMAINDEX,
    OPENAI_COMPAT,
    PYDANTIC_AI,
    SDK,
)

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entries
    from claude_migrate.policy.deprecations import Catalogue

SAMPLING = ("temperature", "top_p", "top_k")
# Other spellings of the same parameters (Bedrock converse's inferenceConfig).
SPELLINGS = {
    "temperature": ("temperature",),
    "top_p": ("top_p", "topP"),
    "top_k": ("top_k", "topK"),
}


@dataclass(frozen=True)
class Rejection:
    """Why a sampling parameter cannot be sent from this call."""

    reason: str


def _api_rejection(
    known: Catalogue, version: str | None, parameter: str, whose: str
) -> Rejection | None:
    rejecting = known.rejecting_version(version, parameter)
    if rejecting is None:
        return None
    return Rejection(f"API version {version} ({whose}) answers 400 to it")


def _sdk_rejection(
    ctx: FileContext, known: Catalogue, path: str, parameter: str
) -> Rejection | None:
    """Return why the anthropic SDK the project is on cannot send `parameter` from `path`."""
    removals = [
        r for r in known.removals("argument", "CM107") if r.name == parameter and path in r.calls
    ]
    if not removals:
        return None
    removed_in = min(Version(r.removed_in) for r in removals)
    floor = ctx.facts.sdk_floor(SDK_PACKAGE)
    if floor is not None and floor >= removed_in:
        return Rejection(
            f"the policy requires {SDK_PACKAGE}>={floor} (sdk-pins), and {SDK_PACKAGE} "
            f"{removed_in} removed the {parameter}= argument"
        )
    # The file's own path (not the path as displayed) finds the project's dependency files.
    pinned = ctx.facts.pinned_at_least(ctx.file_path, str(removed_in))
    if pinned is not None:
        return Rejection(
            f"{pinned} requires {SDK_PACKAGE} {removed_in} or later, which removed the "
            f"{parameter}= argument"
        )
    return None


def _body_rejection(
    known: Catalogue, params: Entries, target: str | None, parameter: str
) -> Rejection | None:
    """Return why a Bedrock Messages body (or LangChain's model_kwargs) cannot carry it: its
    own `anthropic_version`, or without one the policy's api-version.

    Bedrock answers by the body's version: one the analysis cannot read (a parameter, a value
    built elsewhere) proves nothing, so the policy's api-version does not stand in for it.
    """
    own = params.get("anthropic_version")
    if own is None:
        return _api_rejection(known, target, parameter, "the policy's api-version")
    if own.value.known and isinstance(own.value.value, str):
        version = own.value.value.removeprefix("bedrock-")
        return _api_rejection(known, version, parameter, "the body's anthropic_version")
    return None


def rejection(ctx: FileContext, site: CallSite, parameter: str) -> Rejection | None:
    """Return why `parameter` cannot be sent from this Claude call, or None if it can."""
    known = ctx.facts.catalogue
    target = ctx.facts.api_version or None
    policy = "the policy's api-version"
    key = site.target.key
    if site.target.sends:
        return _sent_rejection(ctx, site, parameter)
    if site.family == SDK and key.startswith(("sdk:messages.", "sdk:beta.messages.")):
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, key.removeprefix("sdk:"), parameter)
        )
    if site.family == HTTP and key == "http:messages":
        return _api_rejection(known, target, parameter, policy)
    if site.family == BEDROCK and site.target.location == "json-body":
        if site.legacy:
            # A Text Completions body ("prompt") carries no API version, and none reaches
            # Bedrock with it; CM301 moves it to a Messages body with "anthropic_version":
            # "bedrock-2023-05-31", which takes sampling parameters.
            return None
        return _body_rejection(known, site.params, target, parameter)
    if key == "langchain:ChatAnthropic":
        # ChatAnthropic sends through the anthropic SDK's messages.create.
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, "messages.create", parameter)
        )
    if key == "langchain:ChatBedrock":
        # ChatBedrock spreads `model_kwargs` into the body and then writes its own
        # "anthropic_version": "bedrock-2023-05-31" over it (langchain-aws 1.7.3,
        # langchain_aws/llms/bedrock.py, LLMInputOutputAdapter.prepare_input), whatever the
        # policy or the kwargs say: that version takes sampling parameters.
        return None
    if site.family == INSTRUCTOR:
        # instructor passes its keywords to the project's anthropic SDK's messages.create.
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, "messages.create", parameter)
        )
    if site.family == OPENAI_COMPAT or key == "llamaindex:Bedrock":
        # The OpenAI-compatible endpoint is not reached with an anthropic-version header, and
        # LlamaIndex's Bedrock writes its own body version (bedrock-2023-05-31).
        return None
    if site.family in (BEDROCK, LANGCHAIN, LITELLM, LLAMAINDEX, PYDANTIC_AI, DSPY):
        # Bedrock converse's inferenceConfig, ChatBedrockConverse, LiteLLM and LlamaIndex
        # carry the parameter to a Messages request: the target API version decides.
        return _api_rejection(known, target, parameter, policy)
    return None


def _sent_rejection(ctx: FileContext, site: CallSite, parameter: str) -> Rejection | None:
    """Return the rejection of a family that says what it sends (`Target.sends`)."""
    known = ctx.facts.catalogue
    target = ctx.facts.api_version or None
    policy = "the policy's api-version"
    if site.target.sends == "sdk":
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, "messages.create", parameter)
        )
    if site.target.sends == "body" and not site.legacy:
        return _body_rejection(known, site.params, target, parameter)
    if site.target.sends == "api":
        return _api_rejection(known, target, parameter, policy)
    return None
