"""CM103 stop-sequences: stop sequences on a Claude call.

Finds: `stop_sequences` (and `stop`, `stopSequences` where the client spells it so) on any
recognised Claude call. Policy `mode`: `forbid` reports any non-empty stop sequence, `formatting`
only entries made of whitespace and punctuation (`"\\n\\n"`, `"---"`), `allow` nothing.
Writes instead (unsafe: the model's output changes): no argument, or the list without the
formatting-only entries.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.calls import STOP
from claude_migrate.analysis.edits import remove_elements
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted
else:
    cst = lazy_import("libcst")  # loaded by the first parse, not by the policy's import


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
            if value.known and value.value in (None, [], (), ""):
                continue
            context = site.record.scope.qualname
            if mode == "forbid":
                fix = None
                if entry.container is not None:
                    edit = remove_elements(ctx, entry.container, [entry.holder])
                    if edit is not None:
                        fix = ctx.fix(Applicability.UNSAFE, f"remove {entry.key}", edit)
                yield ctx.diagnostic(
                    self,
                    entry.holder,
                    f"{entry.key} is set on a Claude call; the policy forbids stop sequences",
                    fix,
                    context,
                )
                continue
            yield from self._formatting(ctx, site, entry, context)

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
        if len(bad) == len(items):
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


def _text(node: cst.BaseExpression) -> str | None:
    from claude_migrate.analysis.values import string_value

    return string_value(node)
