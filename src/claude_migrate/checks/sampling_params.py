"""CM107 sampling-params: temperature / top_p / top_k where the target API or SDK rejects them.

What changed upstream (rules/deprecations.toml, with sources): the anthropic Python SDK 1.0.0
(2026-08-20) dropped the `temperature`, `top_p` and `top_k` keyword arguments, and API version
`2026-10-21` (sent by default from SDK 2.0.0) answers 400 to a request that carries any of them.
Finds: any of the three on a Claude call that will be sent where they are rejected:
- an SDK Messages call, when the policy's `api-version.version` is a version that rejects them,
  or the policy's `sdk-pins.minimums.anthropic` or the project's dependency files require an SDK
  at or above the release that removed them;
- a raw HTTP POST to /v1/messages, when the policy's `api-version.version` rejects them;
- a Bedrock `invoke_model` Messages body, when its own `anthropic_version` rejects them (or,
  without one, the policy's `api-version.version` does); never LangChain `ChatBedrock`'s
  `model_kwargs`, whose body the library sends with "anthropic_version": "bedrock-2023-05-31";
- LangChain `ChatAnthropic` (which sends through the SDK's `messages.create`: the policy's
  api-version, sdk-pins minimum or the project's pins, as for an SDK call);
- Bedrock `converse` / `converse_stream` (`inferenceConfig`: `temperature`, `topP`),
  `ChatBedrockConverse`, LiteLLM and LlamaIndex's `Anthropic`, when the policy's
  `api-version.version` rejects them.
A legacy Text Completions call is reported too: CM301 moves it to Messages, which refuses the
argument as well.
Under such a target CM101 (temperature) and CM108 (model-params) yield to this rule: one
finding per argument.
Writes instead (unsafe: sampling changes): the call without the argument.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from claude_migrate.analysis.edits import remove_elements, remove_line
from claude_migrate.analysis.rejections import SAMPLING, SPELLINGS, rejection
from claude_migrate.analysis.value_edits import shared_dict
from claude_migrate.analysis.values import Entry
from claude_migrate.checks.base import Check, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST


class SamplingParamsCheck(Check["FileContext"]):
    code = "CM107"
    name = "sampling-params"
    summary = "temperature / top_p / top_k where the target API or SDK rejects them"
    fix_applicability = Applicability.UNSAFE

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        for site in ctx.sites:
            for parameter in SAMPLING:
                entry = site.params.get(*SPELLINGS[parameter])
                if entry is None:
                    continue
                why = rejection(ctx, site, parameter)
                if why is None:
                    continue
                entry = _sent_keyword(site.node, entry)
                shared = shared_dict(ctx, entry)
                if shared:
                    edit = None
                elif entry.container is not None:
                    edit = remove_elements(ctx, entry.container, [entry.holder])
                else:  # `params["temperature"] = ...`: the statement goes
                    edit = remove_line(ctx, entry.holder)
                fix = None
                if edit is not None:
                    fix = ctx.fix(Applicability.UNSAFE, f"remove {entry.key}", edit)
                yield ctx.diagnostic(
                    self,
                    entry.holder,
                    f"{entry.key} cannot be sent from this call: {why.reason}; remove it"
                    + (f" (no automatic fix: {shared})" if shared else ""),
                    fix,
                    site.record.scope.qualname,
                )


def _sent_keyword(call: cst.CSTNode, entry: Entry) -> Entry:
    """Return the keyword of the call that sends a parameter whose value is a default the call
    relies on (`temperature=temperature`, `def ask(..., temperature=0.7)`): the argument is
    what the API refuses, whatever its value, so it is reported and removed there."""
    if not entry.value.default or entry.container is not None or not isinstance(call, cst.Call):
        return entry
    for arg in call.args:
        if arg.keyword is not None and arg.value is entry.value_node:
            return replace(entry, holder=arg, container=call)
    return entry
