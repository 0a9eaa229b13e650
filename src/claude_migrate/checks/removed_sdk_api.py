"""CM303 removed-sdk-api: calls into parts of the anthropic SDK that no longer exist.

What changed upstream (rules/deprecations.toml, `[[sdk-removals]]` with `rule = "CM303"`):
`client.count_tokens()` and `client.get_tokenizer()` were removed in anthropic 0.39.0 (token
counting is the API's `client.messages.count_tokens(model=..., messages=...)` now), and the
`event_handler=` argument of `messages.stream()` in 0.28.0 (iterate the stream instead),
`output_format=` on `beta.messages.create()` in 1.0.0 (`output_config` instead), and
`MessageParam` stopped being a class in 2.0.0 (a Union of the per-role TypedDicts: calling it
raises TypeError).
Finds: a call of a removed client method on any SDK client (`client.count_tokens(...)`), a
removed keyword argument on the SDK calls the catalogue names, and a call of a removed class by
any import path the catalogue names (`MessageParam(...)`). The catalogue drives both: a new
removal is a data change.
Writes instead: nothing (report only): counting tokens now needs the model and the messages,
and an event handler's callbacks become a loop over events, which no rewrite can infer.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from claude_migrate.analysis.symbols import Instance, Qual
from claude_migrate.checks.base import Check, call_sites
from claude_migrate.core.diagnostics import Diagnostic
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import SDK, is_sdk_client_class

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

RULE = "CM303"


class RemovedSdkApiCheck(Check["FileContext"]):
    code = RULE
    name = "removed-sdk-api"
    summary = "a call to a method or argument the anthropic SDK removed"
    fix_applicability = None

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        # The sites (removed arguments), and calls of a removed client method or class by name.
        from claude_migrate.policy.facts import facts_for

        known = facts_for(settings).catalogue
        methods = {r.name for r in known.removals("client-method", RULE)}
        classes = {r.name for r in known.removals("constructor", RULE)}
        # A removed namespace is reached through a call of one of its methods: its name is text.
        names = tuple(r.name.rsplit(".", 1)[-1] for r in known.removals("client-attribute", RULE))
        return call_sites(callees=frozenset(methods | classes), texts=names)

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        known = ctx.facts.catalogue
        methods = {r.name: r for r in known.removals("client-method", RULE)}
        if methods:
            for record in ctx.index.calls:
                func = record.node.func
                if not isinstance(func, cst.Attribute) or func.attr.value not in methods:
                    continue
                symbol = ctx.resolver.resolve(func, record.scope)
                if not (
                    isinstance(symbol, Instance)
                    and is_sdk_client_class(symbol.cls)
                    and symbol.path == (func.attr.value,)
                ):
                    continue
                removal = methods[func.attr.value]
                yield ctx.diagnostic(
                    self,
                    record.node,
                    f"client.{removal.name}() was removed in anthropic {removal.removed_in}; "
                    f"use {removal.replacement}",
                    None,
                    record.scope.qualname,
                )
        yield from self._constructors(ctx)
        yield from self._attributes(ctx)
        arguments = known.removals("argument", RULE)
        if not arguments:
            return
        for site in ctx.sites:
            if site.family != SDK:
                continue
            path = site.target.key.removeprefix("sdk:")
            for removal in arguments:
                if path not in removal.calls:
                    continue
                entry = site.params.get(removal.name)
                if entry is None:
                    continue
                yield ctx.diagnostic(
                    self,
                    entry.holder,
                    f"{removal.name}= was removed from {path}() in anthropic "
                    f"{removal.removed_in}; {removal.replacement}",
                    None,
                    site.record.scope.qualname,
                )

    def _constructors(self, ctx: FileContext) -> Iterable[Diagnostic]:
        """Yield a finding per call of a class the SDK removed (by any import path listed)."""
        removed = {
            path: removal
            for removal in ctx.facts.catalogue.removals("constructor", RULE)
            for path in removal.calls
        }
        if not removed:
            return
        for record in ctx.index.calls:
            symbol = ctx.resolver.resolve(record.node.func, record.scope)
            if not isinstance(symbol, Qual) or symbol.name not in removed:
                continue
            removal = removed[symbol.name]
            yield ctx.diagnostic(
                self,
                record.node,
                f"{removal.name}(...) cannot be called since anthropic {removal.removed_in}: "
                f"it is no longer a class; use {removal.replacement}",
                None,
                record.scope.qualname,
            )

    def _attributes(self, ctx: FileContext) -> Iterable[Diagnostic]:
        """Yield a finding per call reached through a client namespace the SDK removed."""
        # A client's path is made of the attribute names this file spells (`client.beta.x`)
        # or passes to `getattr`: a file spelling neither the namespace's last name nor
        # `getattr` cannot reach it, and its calls are not resolved for it.
        text = ctx.source.text
        removed = [
            (tuple(removal.name.split(".")), removal)
            for removal in ctx.facts.catalogue.removals("client-attribute", RULE)
            if removal.name.rsplit(".", 1)[-1] in text or "getattr" in text
        ]
        if not removed:
            return
        for record in ctx.index.calls:
            symbol = ctx.resolver.resolve(record.node.func, record.scope)
            paths = [symbol.path] if isinstance(symbol, Instance) else []
            if not (isinstance(symbol, Instance) and is_sdk_client_class(symbol.cls)):
                # A choice of resources (`client.messages if plain else
                # client.beta.prompt_caching.messages`): reached when that branch is taken.
                func = record.node.func
                choices = None
                if isinstance(func, cst.Attribute):
                    choices = ctx.resolver.resources(func, record.scope)
                if choices is None:
                    continue
                paths = [choice.path for choice in choices]
            for parts, removal in removed:
                if any(path[: len(parts)] == parts for path in paths):
                    yield ctx.diagnostic(
                        self,
                        record.node,
                        f"client.{removal.name} was removed in anthropic {removal.removed_in}; "
                        f"use {removal.replacement}",
                        None,
                        record.scope.qualname,
                    )
