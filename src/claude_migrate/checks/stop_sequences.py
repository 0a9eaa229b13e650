"""CM103 stop-sequences: stop sequences on a Claude call.

Finds: `stop_sequences` (and `stop`, `stopSequences` where the client spells it so) on any
recognised Claude call. Policy `mode`: `forbid` reports any non-empty stop sequence, `formatting`
only entries made of whitespace and punctuation (`"\\n\\n"`, `"---"`), `allow` nothing.
Writes instead (unsafe: the model's output changes): no argument, or the list without the
formatting-only entries. A stop sequence that closes what the request prefills (`</category>`
after an assistant turn `<category>`, also one added by `messages.append`; a code fence after a
prefilled opening fence) is what ends the answer where the code expects it: it is reported
without a fix, and the message says why; so are stop sequences a public function passes on from
its own caller's parameter (`stop_sequences=stop`): removed, what a caller asks for is dropped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.edits import remove_elements
from claude_migrate.analysis.value_edits import shared_dict
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import STOP

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted
else:
    cst = lazy_import("libcst")  # loaded by the first parse, not by the policy's import


_OPEN_TAG = re.compile(r"<([A-Za-z][\w:.-]*)(?:\s[^<>]*)?>")
FENCE = "```"


def closes(stop: str, prefill: str) -> bool:
    """Return whether a stop sequence closes a tag or code fence the prefilled text leaves open."""
    text = stop.strip()
    if text.startswith("</") and text.endswith(">"):
        name = text[2:-1].strip()
        opened = [m.group(1) for m in _OPEN_TAG.finditer(prefill)]
        return name in opened and prefill.count(f"</{name}>") < opened.count(name)
    if text == FENCE:
        return prefill.count(FENCE) % 2 == 1
    return False


def kept_for_prefill(ctx: FileContext, site: CallSite, stops: Iterable[object]) -> list[str]:
    """Return the stop sequences that close what the request's prefilled assistant turn opens."""
    from claude_migrate.analysis.turns import prefilled_texts

    texts = [s for s in stops if isinstance(s, str)]
    if not texts:
        return []
    prefills = prefilled_texts(ctx, site)
    return [s for s in texts if any(closes(s, p) for p in prefills)]


def _kept_reason(kept: list[str]) -> str:
    listed = ", ".join(repr(k) for k in kept)
    return (
        f"; no fix: {listed} close{'s' if len(kept) == 1 else ''} what the request's prefilled "
        "assistant turn opens, and the answer would run on past it without the stop sequence"
    )


def is_formatting(text: str) -> bool:
    """Return whether a stop sequence is made only of whitespace and punctuation."""
    return all(c.isspace() or unicodedata.category(c)[0] in "PS" for c in text)


class StopSequencesCheck(Check["FileContext"]):
    code = "CM103"
    name = "stop-sequences"
    summary = "stop sequences on a Claude call"
    fix_applicability = Applicability.UNSAFE
    reads = STOP
    options = {
        "mode": Option(
            "enum",
            "forbid",
            "forbid: any stop sequence; formatting: only whitespace/punctuation entries; "
            "allow: none",
            choices=("forbid", "formatting", "allow"),
        )
    }

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        return bool(table.get("mode", "forbid") != "allow")

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        mode = self.settings["mode"]
        for site in ctx.sites:
            entry = site.param(STOP)
            if entry is None:
                continue
            value = entry.value
            if value.known and value.value in (None, [], (), "") and not value.given_too:
                continue  # none sent (an empty default some call passes a list for is not)
            context = site.record.scope.qualname
            if mode == "forbid":
                fix = None
                stops = _stops(value.value) if value.known else []
                kept = kept_for_prefill(ctx, site, stops)
                message = f"{entry.key} is set on a Claude call; the policy forbids stop sequences"
                shared = shared_dict(ctx, entry)
                passed = caller_parameter(site, entry)
                if kept:
                    message += _kept_reason(kept)
                elif shared:
                    message += f" (no automatic fix: {shared})"
                elif passed:
                    message += f" (no automatic fix: {passed})"
                elif restated := _restated(ctx, site, entry):
                    message += f" (no automatic fix: {restated})"
                elif entry.container is not None:
                    edit = remove_elements(ctx, entry.container, [entry.holder])
                    if edit is not None:
                        fix = ctx.fix(Applicability.UNSAFE, f"remove {entry.key}", edit)
                yield ctx.diagnostic(self, entry.holder, message, fix, context)
                continue
            yield from self._formatting(ctx, site, entry, context)
        yield from self._forwarded(ctx, mode)

    def _forwarded(self, ctx: FileContext, mode: str) -> Iterable[Diagnostic]:
        """Report stop sequences handed to a wrapper that passes them on through `**kwargs`.

        The wrapper's own call shows no `stop_sequences`, so the value is reported where it is
        written. No fix: what the request prefills is in the wrapper, out of this call's sight.
        """
        for site in ctx.all_sites:
            if site.via is None:
                continue
            entry = site.param(STOP)
            if entry is None or entry.key not in site.via.forwarded:
                continue
            if entry.value.known:
                stops = _stops(entry.value.value)
            elif mode == "forbid" and _non_empty(entry.value_node):
                stops = ["..."]  # `[stop]`: some stop sequence, whatever its text
            else:
                continue
            if mode == "formatting":
                stops = [s for s in stops if isinstance(s, str) and is_formatting(s)]
            if not stops:
                continue
            listed = ", ".join(repr(s) for s in stops)
            what = "stop sequences"
            if mode != "forbid":
                what = f"formatting-only stop sequences ({listed})"
            passed = site.via.describe(entry.key, (ctx.path, ctx.place_label))
            yield ctx.diagnostic(
                self,
                entry.holder,
                f"{entry.key} {passed}; the policy forbids {what} "
                f"(no fix: the request it joins is built in {site.via.callee}())",
                None,
                site.record.scope.qualname,
                related=site.via.related(entry.key, entry.key),
            )

    def _formatting(
        self, ctx: FileContext, site: CallSite, entry: Entry, context: str
    ) -> Iterable[Diagnostic]:
        value = entry.value
        if not value.known:
            return
        items = [value.value] if isinstance(value.value, str) else value.value
        if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
            return
        bad = [i for i in items if is_formatting(i)]
        if not bad:
            return
        listed = ", ".join(repr(i) for i in bad)
        message = (
            f"{entry.key} has formatting-only stop sequence{'s' if len(bad) > 1 else ''} "
            f"{listed} (whitespace/punctuation)"
        )
        fix = None
        kept = kept_for_prefill(ctx, site, bad)
        shared = shared_dict(ctx, entry)
        if kept:
            message += _kept_reason(kept)
        elif shared:
            message += f" (no automatic fix: {shared})"
        elif restated := _restated(ctx, site, entry):
            message += f" (no automatic fix: {restated})"
        elif len(bad) == len(items):
            if entry.container is not None:
                edit = remove_elements(ctx, entry.container, [entry.holder])
                if edit is not None:
                    fix = ctx.fix(Applicability.UNSAFE, f"remove {entry.key}", edit)
        elif isinstance(value.node, (cst.List, cst.Tuple)):
            doomed = [
                element
                for element in value.node.elements
                if isinstance(element, cst.Element)
                and isinstance(ctx_value := _text(element.value), str)
                and is_formatting(ctx_value)
            ]
            edit = remove_elements(ctx, value.node, doomed) if doomed else None
            if edit is not None:
                fix = ctx.fix(Applicability.UNSAFE, f"remove {listed} from {entry.key}", edit)
        yield ctx.diagnostic(self, entry.holder, message, fix, context)


def _restated(ctx: FileContext, site: CallSite, entry: Entry) -> str:
    """Return why a test that states the stop sequences again in what it expects (an expected
    request body or span attribute) keeps them ("" if it does not): removed from the call
    alone, the test would compare its expectation with a request that no longer sends them."""
    from claude_migrate.analysis.expectations import restated

    line = restated(ctx, site, entry, "stop_sequences")
    if not line:
        from claude_migrate.analysis.expectations import restated_by_tests

        place = restated_by_tests(ctx, entry, "stop_sequences")
        if not place:
            return ""
        return (
            f"a test of this module states them again in what it expects ({place}): change "
            "both together"
        )
    return f"the test states them again in what it expects (line {line}): change both together"


def caller_parameter(site: CallSite, entry: Entry) -> str:
    """Return why the stop sequences a public function passes on from its own caller keep the
    argument (`def complete(prompt, stop=None)` sending `stop_sequences=_given(stop)`); else "".

    The value is the caller's: removing the argument would silently drop what a caller of the
    function (outside the project too, for a library) asks for, while its signature still takes
    it. A private function (`_helper`) is the module's own business, and keeps the fix.
    """
    scope = site.record.scope.function()
    if scope.kind != "function" or not _public(scope.qualname):
        return ""
    names: list[cst.Name] = []
    stack: list[cst.CSTNode] = [entry.value_node]
    while stack:  # the names the value reads (`stop`, `_given(stop)`, `stop or []`)
        node = stack.pop()
        if isinstance(node, cst.Name):
            names.append(node)
        elif not isinstance(node, (cst.Attribute, cst.Lambda)):
            # An attribute (`self.stops`) is the object's, not a parameter passed on as it is.
            stack.extend(node.children)
    for name in names:
        bindings = scope.lookup(name.value)
        if bindings and all(b.kind == "param" and b.scope is scope for b in bindings):
            return (
                f"it passes on the caller's {name.value!r} parameter of {scope.qualname}(), "
                "and removing it would silently drop what a caller asks for; deprecate or "
                "remove the parameter itself"
            )
    return ""


def _public(qualname: str) -> bool:
    """Return whether a function's dotted name is public: no part of it starts with `_`
    (dunder methods such as `__call__` count as public)."""
    parts = qualname.split(".")
    return all(not p.startswith("_") or (p.startswith("__") and p.endswith("__")) for p in parts)


def _non_empty(node: cst.BaseExpression) -> bool:
    """Return whether an expression is a list or tuple written with elements (`[stop]`)."""
    return isinstance(node, (cst.List, cst.Tuple)) and bool(node.elements)


def _stops(value: object) -> list[object]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return list(value)
    return []


def _text(node: cst.BaseExpression) -> str | None:
    from claude_migrate.analysis.values import string_value

    return string_value(node)
