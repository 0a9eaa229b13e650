"""What every check is: its code, name, policy options, and how it turns a file into findings."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from claude_migrate.core.dates import as_date
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Severity
from claude_migrate.core.paths import path_problem

if TYPE_CHECKING:
    from claude_migrate.core.filekind import CheckContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

# The context a rule reads: `FileContext` for Python rules, `ManifestContext` for dependency
# files, `CheckContext` (what every kind shares) for a rule of every kind.
ContextT = TypeVar("ContextT", bound="CheckContext", contravariant=True)


# The dates a policy may name. Date arithmetic (`as-of` plus `warn-days`) must stay inside what
# `datetime.date` holds, and a date outside these years is a typo, not a plan.
EARLIEST_DATE = dt.date(2000, 1, 1)
LATEST_DATE = dt.date(2999, 12, 31)


@dataclass(frozen=True)
class Option:
    """One key of a rule's policy table: its type, default and allowed range."""

    # "number", "integer", "string", "bool", "string-list", "string-table", "enum",
    # "date" (a TOML date or "YYYY-MM-DD"), "path" (a file, relative to the policy's folder)
    kind: str
    default: Any
    description: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()
    # Derive the default from other options of the same table (e.g. fix-to defaults to max).
    default_from: str | None = None
    pattern: Callable[[str], bool] | None = None
    pattern_text: str = ""
    # A value to show (`init`) for an option whose default is None (unset); a callable is asked
    # each time, for examples that must not age (a date in the future).
    example: Any = None

    def example_value(self) -> Any:
        """Return the example to show for this option (None when it has none)."""
        return self.example() if callable(self.example) else self.example

    def expected(self) -> str:
        """Return a human description of what this option accepts."""
        if self.kind == "number":
            text = "a number"
        elif self.kind == "integer":
            text = "an integer"
        elif self.kind == "bool":
            return "true or false"
        elif self.kind == "enum":
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        elif self.kind == "string-list":
            return "a list of strings"
        elif self.kind == "string-table":
            return "a table of strings" + (f" ({self.pattern_text})" if self.pattern_text else "")
        elif self.kind == "date":
            return (
                f"a date written YYYY-MM-DD, between {EARLIEST_DATE.isoformat()} "
                f"and {LATEST_DATE.isoformat()}"
            )
        elif self.kind == "path":
            return "a path to a file (relative to the policy's folder)"
        else:
            text = "a string"
            if self.pattern_text:
                text += f" ({self.pattern_text})"
            return text
        if self.minimum is not None and self.maximum is not None:
            text += f" between {_bound(self.minimum)} and {_bound(self.maximum)}"
        elif self.minimum is not None:
            text += f" of at least {_bound(self.minimum)}"
        elif self.maximum is not None:
            text += f" of at most {_bound(self.maximum)}"
        return text

    def check(self, value: Any) -> bool:
        """Return whether `value` is acceptable for this option."""
        kind = self.kind
        if kind in ("number", "integer"):
            if isinstance(value, bool):
                return False
            if kind == "integer" and not isinstance(value, int):
                return False
            if not isinstance(value, (int, float)):
                return False
            # TOML has `nan` and `inf`: neither is a limit, and `nan` compares false with every
            # bound, so it would pass a range check and reach the code a fix writes.
            if isinstance(value, float) and not math.isfinite(value):
                return False
            if self.minimum is not None and value < self.minimum:
                return False
            return not (self.maximum is not None and value > self.maximum)
        if kind == "bool":
            return isinstance(value, bool)
        if kind == "enum":
            return value in self.choices
        if kind == "string":
            return isinstance(value, str) and (self.pattern is None or self.pattern(value))
        if kind == "string-list":
            return isinstance(value, list) and all(isinstance(v, str) for v in value)
        if kind == "date":
            date = as_date(value)
            return date is not None and EARLIEST_DATE <= date <= LATEST_DATE
        if kind == "path":
            return isinstance(value, str) and bool(value.strip()) and path_problem(value) is None
        if kind == "string-table":
            return isinstance(value, dict) and all(
                isinstance(v, str) and (self.pattern is None or self.pattern(v))
                for v in value.values()
            )
        return False


def _bound(value: float) -> str:
    """Return a range bound as people write it (1000000, not 1e+06; 0.2 as 0.2)."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def parameter_markers(canonical: str) -> tuple[bytes, ...]:
    """Return every name a parameter goes by in any registered target, as bytes.

    A value is only ever proven where it is written under one of those names (a keyword, a dict
    key, `dict(name=...)`, a JSON body's key), so a file holding none of them has no finding.
    """
    from claude_migrate.targets import parameter_names

    return tuple(sorted(name.encode() for name in parameter_names(canonical)))


def call_sites(**more: Any) -> Wanted:
    """Return what a rule that reads only the registry's call sites (`ctx.sites`) needs.

    Every site's callee ends in one of `calls.CALLEE_NAMES` (`CallFinder.site` rejects the
    rest before resolving), directly or through a name bound to such a callee. `more` adds
    what a rule reads besides the sites (`Wanted`'s fields).
    """
    from claude_migrate.project.triage import Wanted
    from claude_migrate.targets import CALLEE_NAMES, ONLY_WITH

    # A callee that is a site only where its library is named (`Anthropic(...)` as LlamaIndex's
    # class or LangChain's legacy LLM): the families' `ONLY_WITH`.
    sites = Wanted(callees=CALLEE_NAMES, only_with=ONLY_WITH)
    return sites | Wanted(**more)


class Check(Generic[ContextT]):
    """Base class of a rule. Subclasses set the class attributes and implement `check`.

    A rule is `Check[FileContext]` (Python files), `Check[ManifestContext]` or
    `Check[CheckContext]` (every kind it lists in `kinds`); `check` is typed accordingly.
    """

    code: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    fix_applicability: ClassVar[Applicability | None] = None
    # What a finding of this rule is unless the finding or the policy's `[severity]` says otherwise.
    severity: ClassVar[Severity] = Severity.ERROR
    options: ClassVar[dict[str, Option]] = {}
    # File kinds this check reads: "python" and/or "manifest".
    kinds: ClassVar[frozenset[str]] = frozenset({"python"})
    # Python files this check reads by their name only (CM201 reads `setup.py`, not every file).
    file_names: ClassVar[frozenset[str]] = frozenset()
    # Whether `markers_for` is matched against the lowercased file (package names).
    markers_ignore_case: ClassVar[bool] = False
    # Off unless its full code is selected explicitly (not by a prefix).
    opt_in: ClassVar[bool] = False
    # The canonical parameter (`calls.STOP`, ...) every finding of this check is about, if one
    # is: the prefilter's second stage then asks for one of its names in the file.
    reads: ClassVar[str | None] = None

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = settings

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        """Return (key, expected) pairs for cross-key problems in a merged table."""
        return []

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        """Return whether the policy table leaves anything for this rule to report."""
        return True

    @classmethod
    def markers_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        """Return byte strings one of which a file must contain for this check to find anything.

        The default is the call-site registry's markers: every check that reads Claude calls
        needs one of them, so a new target cannot be forgotten by the prefilter.
        """
        from claude_migrate.targets import MARKERS

        return MARKERS

    @classmethod
    def confirms_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        """Return byte strings one of which a file must also contain (in any case) to fire.

        The prefilter's second stage, read only for files that hold a marker: a check that
        reads one parameter needs that parameter's name somewhere in the file. Empty means no
        further condition (a check about every call, such as a missing argument).
        """
        return parameter_markers(cls.reads) if cls.reads else ()

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted | None:
        """Return what in a Python module this check could report on, for the ast triage.

        The engine parses a file with LibCST only when it holds one of these for some enabled
        check (`triage.has_candidate`). None, the default, asks for every file that passes the
        byte prefilter: a rule declares what it reads before the triage may skip a file for it.
        """
        return None

    def check(self, ctx: ContextT) -> Iterable[Diagnostic]:
        """Return the file's findings; parts it cannot read go to `ctx.errors`."""
        raise NotImplementedError
