"""Apply fixes to a file's text until they settle.

Edits are offsets into the decoded text, so nothing outside them changes: line endings, BOM,
encoding and every other byte are kept. `settle` is the one fix loop every kind of file goes
through (Python modules and dependency files alike): it applies a round of non-conflicting fixes,
refuses any fix whose result would not parse, re-checks, and stops when nothing more applies or
after `MAX_FIX_ROUNDS`. Writing the result is `core.atomic`'s.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from claude_migrate.analysis.edits import apply_edits  # the writer applies what the rules computed
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, FileError

MAX_FIX_ROUNDS = 10


class LeftBecause:
    """Why a finding is still there after `fix`: the stable keys of `Diagnostic.left_because`."""

    UNSAFE = "unsafe-fix-not-enabled"
    DISPLAY_ONLY = "display-only-fix"
    NO_FIX = "no-fix-exists"
    REFUSED = "refused-would-not-parse"
    CONFLICT = "conflicts-with-another-fix"
    UNSETTLED = "fixes-did-not-settle"
    NOT_WRITTEN = "file-not-written"


REASONS = {
    LeftBecause.UNSAFE: "its fix is unsafe and --unsafe-fixes was not given",
    LeftBecause.DISPLAY_ONLY: "its fix is shown, never applied",
    LeftBecause.NO_FIX: "no automatic fix exists",
    LeftBecause.REFUSED: "its fix was refused: the fixed file would not parse",
    LeftBecause.CONFLICT: "its fix overlaps another fix that was applied first",
    LeftBecause.UNSETTLED: f"fixes did not settle within {MAX_FIX_ROUNDS} rounds",
    LeftBecause.NOT_WRITTEN: "the fixed file could not be written (see the file's CM001 error)",
}


# Selecting and applying edits -------------------------------------------------------------


def select_fixes(
    diagnostics: Sequence[Diagnostic], unsafe: bool
) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """Return (applied, conflicting): the first fix wins, an overlapping later one waits.

    Identical edits (one constant fixed for several calls) are not a conflict.
    """
    taken = _Taken()
    applied: list[Diagnostic] = []
    conflicting: list[Diagnostic] = []
    for diagnostic in diagnostics:
        fix = diagnostic.fix
        if fix is None or not fix.applies(unsafe) or not fix.edits:
            continue
        new = [e for e in fix.edits if e not in taken.edits]
        if any(taken.overlaps(e) for e in new) or _self_overlap(new):
            conflicting.append(diagnostic)
            continue
        for edit in new:
            taken.add(edit)
        applied.append(diagnostic)
    return applied, conflicting


class _Taken:
    """The edits chosen so far, sorted by position: a new edit's conflict is one search away.

    Chosen edits never overlap, so sorted by (start, end) their ends never decrease: among
    those that start before a new edit ends, the last one reaches furthest.
    """

    def __init__(self) -> None:
        self.edits: set[Edit] = set()
        self._spans: list[tuple[int, int]] = []
        self._insertions: set[int] = set()

    def overlaps(self, edit: Edit) -> bool:
        if edit.start == edit.end and edit.start in self._insertions:
            return True  # two insertions at one point: order would be arbitrary
        before = bisect.bisect_left(self._spans, (edit.end, -1))
        return before > 0 and self._spans[before - 1][1] > edit.start

    def add(self, edit: Edit) -> None:
        self.edits.add(edit)
        bisect.insort(self._spans, (edit.start, edit.end))
        if edit.start == edit.end:
            self._insertions.add(edit.start)


def _overlaps(a: Edit, b: Edit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one point: order would be arbitrary
    return a.start < b.end and b.start < a.end


def _self_overlap(edits: Sequence[Edit]) -> bool:
    ordered = sorted(edits)
    return any(_overlaps(x, y) for x, y in zip(ordered, ordered[1:], strict=False))


def _edits_of(diagnostics: Iterable[Diagnostic]) -> list[Edit]:
    return [e for d in diagnostics if d.fix is not None for e in d.fix.edits]


# The fix loop -------------------------------------------------------------------------------

Parsed = TypeVar("Parsed")


@dataclass
class Settled:
    """What `settle` gives back: the final text and what became of every finding."""

    text: str
    applied: list[Diagnostic] = field(default_factory=list)
    left: list[Diagnostic] = field(default_factory=list)
    errors: list[FileError] = field(default_factory=list)


def _identity(d: Diagnostic) -> tuple[str, str, str]:
    # Positions move as fixes land; the offending code's fingerprint (or, for kinds of file
    # without one, the message) and the fix's description name the same finding across rounds.
    description = d.fix.description if d.fix is not None else ""
    return (d.code, d.fingerprint or d.message, description)


def settle(
    text: str,
    diagnostics: Sequence[Diagnostic],
    *,
    unsafe: bool,
    parse: Callable[[str], Parsed],
    recheck: Callable[[str, Parsed], tuple[list[Diagnostic], list[FileError]]],
    max_rounds: int = MAX_FIX_ROUNDS,
) -> Settled:
    """Apply fixes round by round until none applies; never keep text that does not parse.

    `parse(text)` returns the parsed file or raises when `text` is not a valid file of its kind;
    `recheck(text, parsed)` runs the checks again. A round's fixes are applied together; if the
    result does not parse, each fix is tried on top of the ones already kept and a fix that
    breaks parsing is refused (its finding stays, reported as refused). Fixes that enable other
    fixes settle within one call.
    """
    refused: set[tuple[str, str, str]] = set()
    applied_all: list[Diagnostic] = []
    errors: list[FileError] = []
    current = list(diagnostics)
    for _ in range(max_rounds):
        candidates = [d for d in current if _identity(d) not in refused]
        chosen, _conflicts = select_fixes(candidates, unsafe)
        if not chosen:
            break
        outcome = _apply_parsing(text, chosen, parse)
        if outcome is None:
            refused.update(_identity(d) for d in chosen)
            continue  # the text is unchanged; the fixes that waited on the refused ones may apply
        text, kept, parsed, refused_now = outcome
        refused.update(_identity(d) for d in refused_now)
        applied_all.extend(kept)
        current, round_errors = recheck(text, parsed)
        errors.extend(e for e in round_errors if e not in errors)
    left = _explain(current, refused, unsafe)
    return Settled(text=text, applied=applied_all, left=left, errors=errors)


def _apply_parsing(
    text: str, chosen: list[Diagnostic], parse: Callable[[str], Parsed]
) -> tuple[str, list[Diagnostic], Parsed, list[Diagnostic]] | None:
    """Apply a round's fixes; if the result doesn't parse, keep only the fixes that do.

    Returns (new text, kept, parsed new text, refused), or None when every fix was refused.
    """
    new_text = apply_edits(text, _edits_of(chosen))
    try:
        return new_text, chosen, parse(new_text), []
    except Exception:
        pass
    kept: list[Diagnostic] = []
    refused: list[Diagnostic] = []
    result: tuple[str, Parsed] | None = None
    for diagnostic in chosen:
        trial = apply_edits(text, _edits_of([*kept, diagnostic]))
        try:
            parsed = parse(trial)
        except Exception:
            refused.append(diagnostic)
            continue
        kept.append(diagnostic)
        result = (trial, parsed)
    if result is None:
        return None
    return result[0], kept, result[1], refused


def _explain(
    left: Sequence[Diagnostic], refused: set[tuple[str, str, str]], unsafe: bool
) -> list[Diagnostic]:
    """Return the findings left, each with the reason its fix was not applied."""
    candidates = [d for d in left if _identity(d) not in refused]
    _would_apply, conflicting = select_fixes(candidates, unsafe)
    blocked = {id(d) for d in conflicting}
    explained = []
    for d in left:
        if _identity(d) in refused:
            why = LeftBecause.REFUSED
        elif d.fix is None or not d.fix.edits:
            why = LeftBecause.NO_FIX
        elif d.fix.applicability is Applicability.DISPLAY_ONLY:
            why = LeftBecause.DISPLAY_ONLY
        elif not d.fix.applies(unsafe):
            why = LeftBecause.UNSAFE
        elif id(d) in blocked:
            why = LeftBecause.CONFLICT
        else:
            why = LeftBecause.UNSETTLED
        explained.append(replace(d, left_because=why))
    return explained


def not_written(diagnostics: Iterable[Diagnostic], unsafe: bool) -> list[Diagnostic]:
    """Return the original findings of a file whose fixed text could not be written."""
    out = []
    for d in _explain(list(diagnostics), set(), unsafe):
        if d.left_because in (LeftBecause.CONFLICT, LeftBecause.UNSETTLED):
            d = replace(d, left_because=LeftBecause.NOT_WRITTEN)
        out.append(d)
    return out


# Writing --------------------------------------------------------------------------------------
