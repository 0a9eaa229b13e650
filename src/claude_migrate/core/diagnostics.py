"""Plain data shared by the engine, the checks, the fixer and the reporters.

Everything here is a frozen dataclass that pickles cheaply, so results cross process
boundaries unchanged.
"""

from __future__ import annotations

import enum
import hashlib
import re
from dataclasses import dataclass, field


class Applicability(str, enum.Enum):
    """Whether `fix` applies a fix by default (`safe`) or only with `--unsafe-fixes`."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


class Severity(str, enum.Enum):
    """How much a finding matters: `--fail-on` decides which severities fail a run.

    `error`: the code breaks the policy now. `warning`: it will, or it is a policy's judgement
    call (a model retiring soon). `info`: worth knowing, never a reason to fail by default.
    """

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value  # "warning", as the JSON and the policy spell it, on every Python

    @property
    def rank(self) -> int:
        """Return 2 for error, 1 for warning, 0 for info (higher fails sooner)."""
        return {"error": 2, "warning": 1, "info": 0}[self.value]

    def at_least(self, threshold: Severity) -> bool:
        """Return whether this severity is `threshold` or more severe."""
        return self.rank >= threshold.rank


SEVERITIES = tuple(s.value for s in Severity)


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text between two offsets (in characters of the decoded source)."""

    start: int
    end: int
    replacement: str


@dataclass(frozen=True)
class Fix:
    """A set of edits that together repair one diagnostic."""

    applicability: Applicability
    description: str
    edits: tuple[Edit, ...]

    def applies(self, unsafe: bool) -> bool:
        """Return whether this fix is applied under the given `--unsafe-fixes` setting."""
        if self.applicability is Applicability.SAFE:
            return True
        return unsafe and self.applicability is Applicability.UNSAFE


@dataclass(frozen=True)
class Diagnostic:
    """One finding: where it is, which rule, what is wrong, and how to fix it if we can."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    code: str
    rule: str
    message: str
    fix: Fix | None = None
    # Why the fix was not applied, filled in by the fixer for the report.
    left_because: str | None = None
    # Stable identity of the offending source (whitespace/comments stripped), for baselines.
    fingerprint: str = ""
    # Enclosing function or class ("Outer.method"), for baselines.
    context: str = ""
    # From the rule (or the finding), then the policy's `[severity]` table.
    severity: Severity = Severity.ERROR
    # In a notebook: the 1-based number of the cell (counting every cell, as Jupyter shows
    # them); `line` and `end_line` are then lines within that cell.
    cell: int | None = None
    # Other places the finding goes through, as (path, line, message): the Claude call a
    # wrapper's parameter reaches.
    related: tuple[tuple[str, int, str], ...] = ()
    # In a notebook: for each related place, the cell its line counts within (0 where the
    # place is not a line of this notebook's cells); empty outside notebooks.
    related_cells: tuple[int, ...] = ()
    # In a trusted gate's run: the comment in the file that silences this finding, as written
    # (a noqa comment naming CM101, a skip-file line); such a finding is listed, not counted.
    suppressed_by: str = ""

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.column, self.code)


@dataclass(frozen=True)
class FileError:
    """A file that could not be checked at all (CM001)."""

    path: str
    message: str
    line: int | None = None
    column: int | None = None
    code: str = "CM001"
    rule: str = "parse-error"
    cell: int | None = None  # in a notebook: the cell `line` counts within


@dataclass
class FileResult:
    """What the engine learned about one file."""

    path: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)
    # Codes whose fixes were applied, one entry per applied fix (for reports).
    fixed: list[str] = field(default_factory=list)
    # The findings whose fixes were applied, as found in the round that fixed them.
    applied: list[Diagnostic] = field(default_factory=list)
    # The fixed source, when it differs from the original; set in diff mode or stdin mode.
    original_text: str | None = None
    fixed_text: str | None = None
    written: bool = False
    parsed: bool = False
    from_cache: bool = False
    # Why the file was not checked though its kind was read (a notebook of another language).
    skipped: str | None = None
    # What a user must know about how the file was read (a notebook whose metadata names another
    # language than the Python kernel it starts): always shown, as a warning.
    note: str | None = None


_COMMENT = re.compile(r"#[^\r\n]*")
_SPACE = re.compile(r"\s+")


def fingerprint(code: str) -> str:
    """Return a short hash of source text with comments and whitespace removed."""
    stripped = _SPACE.sub("", _COMMENT.sub("", code))
    return hashlib.sha1(stripped.encode("utf-8")).hexdigest()[:16]
