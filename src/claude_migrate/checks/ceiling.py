"""The shared shape of CM101 and CM102: a numeric parameter above a policy maximum."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from claude_migrate.analysis.value_edits import local_reader, shared_dict, value_edit
from claude_migrate.checks.base import Check, call_sites, parameter_markers
from claude_migrate.core.diagnostics import Applicability, Diagnostic

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.constant_reads import Reading
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted


def format_number(value: float | int) -> str:
    """Return a number as Python source (`0.0`, `1024`)."""
    return repr(value)


class CeilingCheck(Check["FileContext"]):
    """Report a Claude call whose `parameter` is proven above the table's `max`."""

    parameter: ClassVar[str]
    label: ClassVar[str]
    fix_applicability = Applicability.SAFE

    @classmethod
    def confirms_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        return parameter_markers(cls.parameter)

    def defers(self, ctx: FileContext, site: CallSite) -> bool:
        """Return whether another rule owns this call's parameter (no finding here)."""
        return False

    def withholds(self, ctx: FileContext, site: CallSite) -> str:
        """Return why the fix would make this call's request one the API refuses ("" if not)."""
        return ""

    def _reports(self, ctx: FileContext, entry: Entry, maximum: float) -> bool:
        """Return whether this rule reports (and so fixes) an entry's value."""
        value = entry.value.value
        return (
            entry.value.known
            and not isinstance(value, bool)
            and isinstance(value, (int, float))
            and value > maximum
        )

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        return call_sites()  # reads ctx.sites only

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        from claude_migrate.analysis.constant_reads import constant_reads, one_per_value

        readings = list(self._calls(ctx))
        found, reported = one_per_value(
            ctx, self, readings, self.label, constant_reads(ctx, self.parameter)
        )
        yield from found
        for reading in readings:
            value = reading.entry.value
            reported.add(id(value.node if value.node is not None else reading.entry.holder))
        yield from self._constants(ctx, reported)

    def _constants(self, ctx: FileContext, reported: set[int]) -> Iterable[Diagnostic]:
        """Report this file's constants that other modules' Claude calls read, once each."""
        from claude_migrate.analysis.constant_reads import constant_reads, read_by_other_code

        maximum = self.settings["max"]
        fix_to = format_number(self.settings["fix-to"])
        for read in constant_reads(ctx, self.parameter):
            value = read.value
            if id(read.node) in reported or isinstance(value, bool):
                continue
            if not isinstance(value, (int, float)) or value <= maximum:
                continue
            fix = None
            shared = read_by_other_code(ctx, read)
            no_fix = f" (no automatic fix: {shared})" if shared else ""
            # A fix never writes outside the given paths, nor where other code reads the value.
            if not read.outside and not shared:
                fix = ctx.fix(
                    # Every module reading the constant gets the new value, Claude calls or not.
                    Applicability.UNSAFE,
                    f"set {read.name} to {fix_to} (read by every module that imports it)",
                    ctx.replace(read.node, fix_to),
                )
            yield ctx.diagnostic(
                self,
                read.node,
                f"{self.label} {format_number(value)} ({read.describe(ctx.path)}) is above the "
                f"policy maximum {format_number(maximum)}{no_fix}",
                fix,
                related=read.related(self.label),
            )

    def _calls(self, ctx: FileContext) -> Iterable[Reading]:
        from claude_migrate.analysis.constant_reads import Reading

        maximum = self.settings["max"]
        fix_to = self.settings["fix-to"]
        for site in ctx.all_sites:
            entry = site.param(self.parameter)
            if entry is None or not entry.value.known or self.defers(ctx, site):
                continue
            if entry.value.elsewhere:
                continue  # reported where the constant is assigned, in its own module
            value = entry.value.value
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            if value <= maximum:
                continue
            via = f" (from {entry.value.via})" if entry.value.via else ""
            name = entry.key
            if site.via is not None:
                # A wrapper's parameter: say what it is for Claude, and where it goes.
                name = self.label
                via += f" {site.via.describe(entry.key, (ctx.path, ctx.place_label))} and"
            fix = None
            why_not = self.withholds(ctx, site) or _restated(ctx, site, entry, self.parameter)
            why_not = why_not or _falls_back(site, entry, fix_to, maximum) or _set_elsewhere(entry)
            shared = None if why_not else shared_dict(ctx, entry)
            found = None

            def parameter_of(other: CallSite) -> Entry | None:
                return None if self.defers(ctx, other) else other.param(self.parameter)

            def same_fix(other: Entry) -> bool:
                return self._reports(ctx, other, maximum)

            asked_as = f"{self.code} {self.parameter}"
            if not why_not and shared is None:
                shared = local_reader(ctx, entry, parameter_of, same_fix, asked_as)
            if not why_not and shared is None:
                found = value_edit(
                    ctx, entry, format_number(fix_to), parameter_of, same_fix, asked_as
                )
            if found is not None:
                # A recorder of the old value (a cache key, a log line) makes it unsafe.
                caveat = f"; unsafe: {found.caveat}" if found.caveat else ""
                fix = ctx.fix(
                    Applicability.UNSAFE if caveat else Applicability.SAFE,
                    f"set {found.subject} to {format_number(fix_to)}{found.note}"
                    f"{_fallback_note(site, entry, fix_to)}{caveat}",
                    found.edit,
                )
            reason = why_not or shared
            if found is None and not reason and entry.value.choice and entry.value.via:
                # The default of an options object a caller may pass instead.
                reason = "a caller may pass its own object, and other code reads the same field"
            if found is None and not reason and entry.value.node is None:
                reason = _written_elsewhere(ctx, entry)
            no_fix = f" (no automatic fix: {reason})" if reason else ""
            # A value read through a name (`temperature=t`) is part of what makes the finding:
            # a baseline entry recorded for `t = 0.5` must not cover `t = 2.0`.
            identity = (
                f"{ctx.code(entry.holder)}={format_number(value)}" if entry.value.via else None
            )
            diagnostic = ctx.diagnostic(
                self,
                entry.holder,
                f"{name} {format_number(value)}{via} is above the policy maximum "
                f"{format_number(maximum)}{no_fix}",
                fix,
                context=site.record.scope.qualname,
                fingerprint_of=identity,
                related=site.via.related(entry.key, self.label) if site.via else (),
            )
            yield Reading(site, entry, diagnostic)


def _set_elsewhere(entry: Entry) -> str:
    """Return why a constant other files of the run bind to the same literal gets no fix ("" if
    none do): changed here alone, it is set back when they run."""
    files = entry.value.set_elsewhere
    if not files:
        return ""
    shown = ", ".join(files)
    sets = "sets" if len(files) == 1 else "set"
    return f"{shown} also {sets} {entry.value.via} to it, which a fix here alone would not change"


def _written_elsewhere(ctx: FileContext, entry: Entry) -> str:
    """Return why a constant another project module writes (`from src.config import
    TEMPERATURE`), which that module does not report (other code, another vendor's call, may
    read it too), gets no fix here ("" for any other value)."""
    owner = (entry.value.via or "").rpartition(".")[0]
    project = ctx.project
    if project is None or not owner or owner == project.module or owner not in project.modules:
        return ""
    return (
        f"it is written in {owner}, where other code may read it too: pass this call its own "
        "value instead"
    )


def _restated(ctx: FileContext, site: CallSite, entry: Entry, parameter: str) -> str:
    """Return why a test that states the value again in what it expects keeps it ("" if not)."""
    from claude_migrate.analysis.expectations import restated

    line = restated(ctx, site, entry, parameter)
    if not line:
        from claude_migrate.analysis.expectations import restated_by_tests

        place = restated_by_tests(ctx, entry, parameter)
        if not place:
            return ""
        return (
            f"a test of this module states {format_number(entry.value.value)} again in what it "
            f"expects ({place}): change both together"
        )
    return (
        f"the test states {format_number(entry.value.value)} again in what it expects (line "
        f"{line}): change both together"
    )


def _falls_back(site: CallSite, entry: Entry, fix_to: float, maximum: float) -> str:
    """Return why an empty value cannot be written for a wrapper's parameter it reads as
    `param or FALLBACK` ("" if it can): the wrapper would send the fallback instead, above the
    maximum (or unknown). A fallback within it is what the fixed call sends, and meets the
    policy."""
    if fix_to or site.via is None:
        return ""
    falls_back, fallback = site.via.fallback(entry.key)
    if not falls_back:
        return ""
    if (
        isinstance(fallback, (int, float))
        and not isinstance(fallback, bool)
        and fallback <= maximum
    ):
        return ""
    shown = format_number(fallback) if isinstance(fallback, (int, float)) else repr(fallback)
    return (
        f"{site.via.callee}() reads it as `{entry.key} or {shown}`: "
        f"{format_number(fix_to)} would send {shown}; pass a value within the maximum by hand"
    )


def _fallback_note(site: CallSite, entry: Entry, fix_to: float) -> str:
    """Return what a wrapper reading the parameter as `param or FALLBACK` sends once an empty
    value is passed ("" when it sends the value passed)."""
    if fix_to or site.via is None:
        return ""
    falls_back, fallback = site.via.fallback(entry.key)
    if not falls_back or not isinstance(fallback, (int, float)):
        return ""
    return (
        f" ({site.via.callee}() then sends {format_number(fallback)}: "
        f"`{entry.key} or {format_number(fallback)}`)"
    )
