"""CM107 sampling-params: temperature / top_p / top_k where the target API or SDK rejects them.

What changed upstream (rules/deprecations.toml, with sources): the anthropic Python SDK 1.0.0
(2026-08-20) dropped the `temperature`, `top_p` and `top_k` keyword arguments, and API version
`2026-10-21` (sent by default from SDK 2.0.0) answers 400 to a request that carries any of them.
Finds: any of the three on a Claude call that will be sent where they are rejected:
- an SDK Messages call, when the policy's `api-version.version` is a version that rejects them,
  or the policy's `sdk-pins.minimums.anthropic` or the project's dependency files require an SDK
  at or above the release that removed them;
- a raw HTTP POST to /v1/messages, when the policy's `api-version.version` rejects them;
- a Bedrock `invoke_model` Messages body (and LangChain `ChatBedrock`'s `model_kwargs`), when its
  own `anthropic_version` rejects them (or, without one, the policy's `api-version.version` does);
- LangChain `ChatAnthropic` (which sends through the SDK's `messages.create`: the policy's
  api-version, sdk-pins minimum or the project's pins, as for an SDK call);
- Bedrock `converse` / `converse_stream` (`inferenceConfig`: `temperature`, `topP`),
  `ChatBedrockConverse`, LiteLLM and LlamaIndex's `Anthropic`, when the policy's
  `api-version.version` rejects them.
A legacy Text Completions call is CM301's.
Under such a target CM101 (temperature) yields to this rule: one finding per argument.
Writes instead (unsafe: sampling changes): the call without the argument.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from ..calls import BEDROCK, HTTP, LANGCHAIN, LITELLM, LLAMAINDEX, SDK, CallSite
from ..diagnostics import Applicability, Diagnostic
from ..edits import remove_elements, remove_line
from .base import Check

if TYPE_CHECKING:
    from ..config import FileSettings
    from ..context import FileContext
    from ..deprecations import Catalogue
    from ..values import Entries

SAMPLING = ("temperature", "top_p", "top_k")
# Other spellings of the same parameters (Bedrock converse's inferenceConfig).
SPELLINGS = {
    "temperature": ("temperature",),
    "top_p": ("top_p", "topP"),
    "top_k": ("top_k", "topK"),
}
SDK_PACKAGE = "anthropic"


@dataclass(frozen=True)
class Rejection:
    """Why a sampling parameter cannot be sent from this call."""

    reason: str


def _catalogue(settings: FileSettings) -> Catalogue:
    from .. import deprecations

    return deprecations.for_settings(settings.table("retired-models"))


def policy_api_version(settings: FileSettings) -> str | None:
    """Return the policy's target API version (`[api-version] version`), if it has one."""
    version = settings.table("api-version").get("version")
    return version if isinstance(version, str) else None


def _api_rejection(
    known: Catalogue, version: str | None, parameter: str, whose: str
) -> Rejection | None:
    rejecting = known.rejecting_version(version, parameter)
    if rejecting is None:
        return None
    return Rejection(f"API version {version} ({whose}) answers 400 to it")


def _version(text: object) -> Version | None:
    try:
        return Version(str(text))
    except InvalidVersion:
        return None


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
    minimums: dict[str, object] = {
        str(canonicalize_name(name)): value
        for name, value in dict(ctx.settings.table("sdk-pins").get("minimums") or {}).items()
    }
    floor = _version(minimums.get(SDK_PACKAGE))
    if floor is not None and floor >= removed_in:
        return Rejection(
            f"the policy requires {SDK_PACKAGE}>={floor} (sdk-pins), and {SDK_PACKAGE} "
            f"{removed_in} removed the {parameter}= argument"
        )
    pinned = project_pins_at_least(str(Path(ctx.file_path).resolve().parent), str(removed_in))
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
    own `anthropic_version`, or without one the policy's api-version."""
    own = params.get("anthropic_version")
    if own is not None and own.value.known and isinstance(own.value.value, str):
        version = own.value.value.removeprefix("bedrock-")
        return _api_rejection(known, version, parameter, "the body's anthropic_version")
    if own is None or not own.value.known:
        return _api_rejection(known, target, parameter, "the policy's api-version")
    return None


def rejection(ctx: FileContext, site: CallSite, parameter: str) -> Rejection | None:
    """Return why `parameter` cannot be sent from this Claude call, or None if it can."""
    known = _catalogue(ctx.settings)
    target = policy_api_version(ctx.settings)
    policy = "the policy's api-version"
    key = site.target.key
    if site.family == SDK and key.startswith(("sdk:messages.", "sdk:beta.messages.")):
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, key.removeprefix("sdk:"), parameter)
        )
    if site.family == HTTP and key == "http:messages":
        return _api_rejection(known, target, parameter, policy)
    if site.family == BEDROCK and site.target.location == "json-body":
        return _body_rejection(known, site.params, target, parameter)
    if key == "langchain:ChatAnthropic":
        # ChatAnthropic sends through the anthropic SDK's messages.create.
        return _api_rejection(known, target, parameter, policy) or (
            _sdk_rejection(ctx, known, "messages.create", parameter)
        )
    if key == "langchain:ChatBedrock":
        return _body_rejection(known, site.params, target, parameter)
    if site.family in (BEDROCK, LANGCHAIN, LITELLM, LLAMAINDEX):
        # Bedrock converse's inferenceConfig, ChatBedrockConverse, LiteLLM and LlamaIndex
        # carry the parameter to a Messages request: the target API version decides.
        return _api_rejection(known, target, parameter, policy)
    return None


@cache
def project_pins_at_least(folder: str, version: str) -> str | None:
    """Return the dependency file (and its constraint) that requires `anthropic>=version`.

    Looks in `folder` and then each folder above it; the nearest folder whose dependency files
    name `anthropic` decides. A requirement proves the floor when it admits no version below
    `version` (a bare name or an open range proves nothing). `setup.py` is not read here.
    """
    from ..manifests import format_of, read_text
    from ..manifests.requirement import ConstraintError, constraint_admits_below

    minimum = Version(version)
    current = Path(folder)
    while True:
        named = False
        try:
            entries = sorted(os.listdir(current))
        except OSError:
            entries = []
        for name in entries:
            fmt = format_of(name)
            if fmt is None or not (current / name).is_file():
                continue
            try:
                text = (current / name).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if SDK_PACKAGE not in text.lower():
                continue
            pins, _problems = read_text(fmt, text, name)
            for pin in pins:
                if canonicalize_name(pin.name) != SDK_PACKAGE:
                    continue
                named = True
                try:
                    below = constraint_admits_below(pin.spec, pin.syntax, minimum)
                except ConstraintError:
                    continue
                if pin.spec.strip() and not below:
                    return f"{name} ({pin.name} {pin.spec.strip()})"
        if named or current.parent == current:
            return None
        current = current.parent


class SamplingParamsCheck(Check):
    code = "CM107"
    name = "sampling-params"
    summary = "temperature / top_p / top_k where the target API or SDK rejects them"
    fix_applicability = Applicability.UNSAFE

    @classmethod
    def external_state(cls, table: Mapping[str, Any], path: str) -> str:
        # Whether the project's dependency files pin anthropic past the versions that removed
        # the sampling arguments decides the findings: the cache must see that change.
        from .. import deprecations

        known = deprecations.load(None)
        versions = sorted({r.removed_in for r in known.removals("argument", "CM107")})
        folder = str(Path(path).resolve().parent)
        return "|".join(f"{v}:{project_pins_at_least(folder, v)}" for v in versions)

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        for site in ctx.sites:
            if site.legacy:
                continue  # CM301 migrates the whole call
            for parameter in SAMPLING:
                entry = site.params.get(*SPELLINGS[parameter])
                if entry is None:
                    continue
                why = rejection(ctx, site, parameter)
                if why is None:
                    continue
                if entry.container is not None:
                    edit = remove_elements(ctx, entry.container, [entry.holder])
                else:  # `params["temperature"] = ...`: the statement goes
                    edit = remove_line(ctx, entry.holder)
                fix = None
                if edit is not None:
                    fix = ctx.fix(Applicability.UNSAFE, f"remove {entry.key}", edit)
                yield ctx.diagnostic(
                    self,
                    entry.holder,
                    f"{entry.key} cannot be sent from this call: {why.reason}; remove it",
                    fix,
                    site.record.scope.qualname,
                )
