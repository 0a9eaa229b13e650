"""What a version constraint admits, and how to raise it to a minimum in the author's own style.

Every dependency file boils down to `Pin`s: a package name and the constraint written for it,
with the offsets where they stand in the file. Constraints come in two syntaxes: PEP 440
specifiers (`>=0.20,<0.30`, `~=0.25.0`) and poetry's (`^0.18.0`, `~0.25`, `0.28.0`, `1.2.*`,
space- or comma-separated, `||` unions). Both are turned into `packaging` specifier sets for the
decision; the fix edits only the clauses that must change and keeps every other character.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import InvalidSpecifier, Specifier, SpecifierSet
from packaging.version import InvalidVersion, Version

# `Pin`, `Problem` and the syntaxes live in `pin` (holding one needs no `packaging`); the
# readers import them from here along with the constraint functions.
from claude_migrate.manifests.pin import LOCKED as LOCKED
from claude_migrate.manifests.pin import PEP440 as PEP440
from claude_migrate.manifests.pin import POETRY as POETRY
from claude_migrate.manifests.pin import Pin as Pin
from claude_migrate.manifests.pin import Problem as Problem


class ConstraintError(ValueError):
    """A constraint that is not valid in its syntax."""


# Clauses -------------------------------------------------------------------------------------

_PEP440_CLAUSE = re.compile(r"(?P<op>===|~=|==|!=|<=|>=|<|>)\s*(?P<ver>[^\s,;]+)")
_POETRY_CLAUSE = re.compile(r"(?P<op>===|~=|==|!=|<=|>=|<|>|\^|~|=)?\s*(?P<ver>[^\s,|]+)")
_ANY = re.compile(r"(?i)v?[x*](\.[x*])*")
LOWER_OPS = frozenset({">=", ">", "~=", "==", "===", "^", "~", "=", ""})


@dataclass(frozen=True)
class Clause:
    """One comparison of a constraint, with its offsets inside the constraint text."""

    start: int
    end: int
    op: str
    op_end: int  # where the operator ends (the version may follow after spaces)
    version: str  # as written, possibly a wildcard ("0.28.*")

    @property
    def wildcard(self) -> bool:
        return self.version.endswith(".*")


def split_clauses(spec: str, syntax: str) -> tuple[list[Clause], list[str]]:
    """Return the clauses of a constraint and the separators between them.

    Raises ConstraintError for text that is not a constraint of `syntax`; a poetry `||` union
    is not split here (see `alternatives`).
    """
    pattern = _PEP440_CLAUSE if syntax == PEP440 else _POETRY_CLAUSE
    separator = re.compile(r"\s*,\s*") if syntax == PEP440 else re.compile(r"\s*,\s*|\s+")
    clauses: list[Clause] = []
    separators: list[str] = []
    position = len(spec) - len(spec.lstrip())
    end_text = len(spec.rstrip())
    while position < end_text:
        if clauses:
            sep = separator.match(spec, position)
            if sep is None or sep.end() == position:
                raise ConstraintError(f"expected a separator at {spec[position:]!r}")
            separators.append(sep.group())
            position = sep.end()
        match = pattern.match(spec, position)
        if match is None or match.end() > end_text:
            raise ConstraintError(f"expected a version constraint at {spec[position:]!r}")
        op = match.group("op") or ""
        clauses.append(
            Clause(match.start(), match.end(), op, match.start() + len(op), match.group("ver"))
        )
        position = match.end()
    for clause in clauses:
        _translate(clause, syntax)  # validates
    return clauses, separators


def _version(text: str) -> Version:
    try:
        return Version(text[:-2] if text.endswith(".*") else text)
    except InvalidVersion:
        raise ConstraintError(f"invalid version {text!r}") from None


def _next_breaking(version: Version) -> Version:
    """Return the first version a poetry caret range excludes (`^0.18.0` -> 0.19.0)."""
    parts = list(version.release)
    for index, part in enumerate(parts):
        if part != 0 or index == len(parts) - 1:
            return Version(".".join(str(p) for p in [*parts[:index], part + 1]))
    raise AssertionError("unreachable")


def _next_tilde(version: Version) -> Version:
    """Return the first version a poetry tilde range excludes (`~1.2.3` -> 1.3, `~1` -> 2)."""
    parts = list(version.release)
    if len(parts) == 1:
        return Version(str(parts[0] + 1))
    return Version(f"{parts[0]}.{parts[1] + 1}")


def _translate(clause: Clause, syntax: str) -> list[str]:
    """Return the PEP 440 specifiers equivalent to one clause."""
    op, text = clause.op, clause.version
    if syntax == POETRY:
        if _ANY.fullmatch(text) and op in ("", "=", "=="):
            return []
        if op == "^":
            version = _version(text)
            return [f">={text}", f"<{_next_breaking(version)}"]
        if op == "~":
            version = _version(text)
            return [f">={text}", f"<{_next_tilde(version)}"]
        if op in ("", "="):
            op = "=="
    specifier = f"{op}{text}"
    try:
        Specifier(specifier)
    except InvalidSpecifier:
        raise ConstraintError(f"invalid version constraint {clause.op}{text!r}") from None
    return [specifier]


def alternatives(spec: str, syntax: str) -> list[SpecifierSet]:
    """Return the specifier sets a constraint stands for (several for a poetry `||` union)."""
    if syntax == LOCKED:
        return [SpecifierSet(f"=={_version(spec.strip())}")]
    parts = re.split(r"\s*\|\|?\s*", spec.strip()) if syntax == POETRY else [spec]
    found = []
    for part in parts:
        if syntax == POETRY and part.strip() in ("", "*"):
            found.append(SpecifierSet())
            continue
        clauses, _ = split_clauses(part.rstrip(","), syntax)
        found.append(SpecifierSet(",".join(s for c in clauses for s in _translate(c, syntax))))
    return found


# The decision --------------------------------------------------------------------------------


def _candidates(specifiers: SpecifierSet) -> list[Version]:
    """Return the versions at and just above every edge of a specifier set.

    The lowest version a set admits below a bound sits at one of its clauses' versions (or 0),
    or just above one (`>1` admits 1.0.1 when `<1.1` rules out 1.1), or just past a wildcard
    series an `!=` excludes.
    """
    bases = [Version("0")]
    for specifier in specifiers:
        try:
            version = _version(specifier.version)
        except ConstraintError:
            continue
        bases.append(version)
        if specifier.version.endswith(".*"):
            *head, last = version.release
            bases.append(Version(".".join(str(p) for p in (*head, last + 1))))
    found = []
    for base in bases:
        found.append(base)
        for zeros in range(3):
            found.append(Version(".".join(str(p) for p in (*base.release, *([0] * zeros), 1))))
    return found


def admits_below(specifiers: SpecifierSet, minimum: Version) -> bool:
    """Return whether a non-empty specifier set admits some version below `minimum`.

    Only versions the set really admits are tried, so a `True` is always right; a set whose
    lowest admitted version sits strictly between two candidates could be missed, and no real
    constraint has that shape.
    """
    if not len(specifiers):
        return False
    return any(
        candidate < minimum and specifiers.contains(candidate, prereleases=True)
        for candidate in _candidates(specifiers)
    )


def constraint_admits_below(spec: str, syntax: str, minimum: Version) -> bool:
    """Return whether a constraint of `syntax` admits a version below `minimum`."""
    if syntax == LOCKED:
        return _version(spec.strip()) < minimum
    return any(admits_below(group, minimum) for group in alternatives(spec, syntax))


# The fix -------------------------------------------------------------------------------------


def _rewrite(clause: Clause, minimum: str) -> str:
    """Return the operator to write for a lower-bound clause raised to `minimum`."""
    op = clause.op
    if op == ">":
        return ">="
    if clause.wildcard and op in ("==", "", "="):
        width = len(clause.version[:-2].split("."))
        return "~=" if width + 1 == len(Version(minimum).release) else ("==" if op == "==" else op)
    return op


# Operators whose version is the one installed (or the start of a narrow series): the version
# they name must be a published release, not merely the policy's floor.
_EXACT_OPS = frozenset({"==", "===", "~=", "^", "~", "=", ""})


def raise_constraint(
    spec: str, syntax: str, minimum: str, release: str | None = None
) -> str | None:
    """Return `spec` raised so that it admits nothing below `minimum`, or None if we can't.

    Keeps the author's style: the first lower bound keeps its operator (`==`, `>=`, `~=`, `^`,
    `~`, a bare poetry version) with the minimum as its version (`release`, the lowest published
    release at or above the minimum, for an operator that names the version to install or the
    start of a series: `==0.32.1` or `~=0.32.1` of a version never published would not
    install); a later lower bound below the minimum goes; an upper bound or exclusion that would
    exclude that version goes and one that admits it stays; with no lower bound, `>=minimum` is
    put first. Every other character stays.
    """
    if syntax == LOCKED:
        return None
    if syntax == POETRY and "|" in spec:
        return _raise_union(spec, minimum, release)
    floor = Version(minimum)
    release = release or minimum
    wanted = Version(release)
    clauses, separators = split_clauses(spec, syntax)
    new_texts: list[str | None] = []
    raised = False
    for clause in clauses:
        translated = SpecifierSet(",".join(_translate(clause, syntax)))
        text = spec[clause.start : clause.end]
        if clause.op in LOWER_OPS and admits_below(translated, floor):
            if raised:
                new_texts.append(None)
                continue
            raised = True
            op = _rewrite(clause, release)
            between = spec[clause.op_end : clause.end - len(clause.version)]
            version = release if op in _EXACT_OPS else minimum
            if op == "~=" and len(Version(version).release) < 2:
                version += ".0"
            new_texts.append(op + between + version)
        elif clause.op in LOWER_OPS or translated.contains(wanted, prereleases=True):
            new_texts.append(text)
        else:
            new_texts.append(None)
    body = _join(separators, new_texts)
    if not raised:
        style = separators[0] if separators else ("," if syntax == PEP440 else ", ")
        body = f">={minimum}" + (style + body if body else "")
    lead = spec[: len(spec) - len(spec.lstrip())]
    trail = spec[len(spec.rstrip()) :]
    result = lead + body + trail
    try:
        groups = alternatives(result, syntax)
    except ConstraintError:
        return None
    if any(admits_below(g, floor) for g in groups) or not all(
        g.contains(wanted, prereleases=True) for g in groups
    ):
        return None
    return result


# Operators whose version is the only one installed: `==`, `===`, poetry's `=` and bare version.
_PINNING_OPS = frozenset({"==", "===", "=", ""})


def pins_exactly(spec: str, syntax: str, minimum: str) -> bool:
    """Return whether raising `spec` to `minimum` writes an exact pin (`==X`, poetry's bare `X`):
    the version it names is then the one that gets installed, so it must have been published."""
    if syntax == LOCKED:
        return False
    floor = Version(minimum)
    pieces = re.split(r"\|\|?", spec) if syntax == POETRY else [spec]
    try:
        for piece in pieces:
            for clause in split_clauses(piece, syntax)[0]:
                translated = SpecifierSet(",".join(_translate(clause, syntax)))
                if clause.op in LOWER_OPS and admits_below(translated, floor):
                    if _rewrite(clause, minimum) in _PINNING_OPS:
                        return True
                    break
    except (ConstraintError, InvalidSpecifier, InvalidVersion):
        return False
    return False


def _raise_union(spec: str, minimum: str, release: str | None) -> str | None:
    """Return a poetry `||` union raised alternative by alternative (`^0.20 || ^0.40` to
    `^0.32.1 || ^0.40`): each one that admits a version below `minimum` is raised as a
    constraint of its own, the others and every separator stay as written."""
    pieces = re.split(r"(\|\|?)", spec)  # alternatives at even indexes, separators between
    floor = Version(minimum)
    out: list[str] = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(piece)
            continue
        if piece.strip() in ("", "*"):
            return None  # an alternative that admits every version: not one to raise
        groups = alternatives(piece, POETRY)
        if not any(admits_below(group, floor) for group in groups):
            out.append(piece)
            continue
        raised = raise_constraint(piece, POETRY, minimum, release)
        if raised is None:
            return None
        out.append(raised)
    result = "".join(out)
    wanted = Version(release or minimum)
    groups = alternatives(result, POETRY)
    if any(admits_below(g, floor) for g in groups) or not any(
        g.contains(wanted, prereleases=True) for g in groups
    ):
        return None
    return result


def _join(separators: Sequence[str], texts: Sequence[str | None]) -> str:
    """Return the kept clauses joined by the separators that stood before them."""
    out: list[str] = []
    for index, text in enumerate(texts):
        if text is None:
            continue
        if out:
            out.append(separators[index - 1])
        out.append(text)
    return "".join(out)


# PEP 508 requirement strings -----------------------------------------------------------------

_NAME = re.compile(r"\s*(?P<name>[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*")


@dataclass(frozen=True)
class Pep508:
    """A parsed PEP 508 string and where its parts stand inside it."""

    requirement: Requirement
    name_start: int
    spec: str
    spec_start: int | None  # None when the specifier cannot be found verbatim (no in-place fix)


def parse_pep508(text: str) -> Pep508:
    """Parse a requirement string; raise InvalidRequirement with packaging's message."""
    requirement = Requirement(text)
    match = _NAME.match(text)
    if match is None:  # pragma: no cover - packaging accepted it, so a name is there
        raise InvalidRequirement(f"no package name in {text!r}")
    position = match.end()
    if requirement.url is not None or position >= len(text):
        return Pep508(requirement, match.start("name"), "", None)
    if text[position] == "(":
        close = text.find(")", position)
        region_start, region_end = position + 1, close
    else:
        marker = text.find(";", position)
        region_start, region_end = position, len(text) if marker < 0 else marker
    region = text[region_start:region_end]
    stripped = region.strip()
    start = region_start + len(region) - len(region.lstrip())
    try:
        same = SpecifierSet(stripped) == requirement.specifier if stripped else False
    except InvalidSpecifier:
        same = False
    spec = str(requirement.specifier) if not same else stripped
    return Pep508(requirement, match.start("name"), spec, start if same else None)
