"""Suppression comments: `# noqa[: CODES]`, `# claude-migrate: ignore[CODES]`, `skip-file`.

A directive on the line where a finding starts silences it there. `apply_suppressions` drops the
silenced findings and, when CM002 unused-suppression is enabled, reports each directive (or code
in one) that silenced nothing, with a safe fix that removes it.

`# noqa` is shared with other linters, so CM002 only judges the `CM` codes in it and never a bare
`# noqa`; `# claude-migrate: ignore` is ours alone, so every code in it (and a bare one) is judged.
A code that is known but not enabled for the file is never reported: nothing can be said about it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, Fix

if TYPE_CHECKING:
    from claude_migrate.core.filekind import CheckContext

SKIP_FILE = b"claude-migrate: skip-file"
_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.I)
_IGNORE = re.compile(r"#\s*claude-migrate:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.I)
_CODE = re.compile(r"[A-Z]+[0-9]+")
ALL = frozenset({"*"})
OUR_PREFIX = "CM"
UNUSED_CODE = "CM002"
UNUSED_NAME = "unused-suppression"


def skips_file(data: bytes) -> bool:
    """Return whether `# claude-migrate: skip-file` stands in the leading comments of a file's
    bytes, read as Python reads them (BOM, coding cookie)."""
    from claude_migrate.core.source import leading_bytes

    return skips_text(leading_bytes(data))


def skips_text(data: bytes) -> bool:
    """Return whether `# claude-migrate: skip-file` stands in the leading comments of a
    decoded text, given in UTF-8 (an editor's buffer, a notebook's cells)."""
    if SKIP_FILE not in data:
        return False
    for raw in data.splitlines():
        line = raw.strip()
        if not line:
            continue
        if not line.startswith(b"#"):
            return False
        if re.match(rb"#\s*claude-migrate:\s*skip-file\b", line):
            return True
    return False


def _codes(text: str | None) -> frozenset[str]:
    if not text:
        return ALL
    return frozenset(_CODE.findall(text.upper()))


@dataclass(frozen=True)
class Directive:
    """One suppression directive inside one comment."""

    kind: str  # "noqa" or "ignore"
    line: int  # 1-based
    column: int  # 0-based column of the comment in its line
    comment: str  # the whole comment token, from `#` to the end of the line
    start: int  # the directive's span inside `comment`
    end: int
    codes: frozenset[str]  # ALL for a bare directive
    listed: tuple[str, ...]  # the codes as written, in order (empty for a bare directive)

    @property
    def text(self) -> str:
        return self.comment[self.start : self.end]


def directives(ctx: CheckContext, lines: Iterable[int] | None = None) -> list[Directive]:
    """Return every suppression directive in the file's comments (only on `lines`, when given)."""
    wanted = None if lines is None else set(lines)
    if wanted is not None and not wanted:
        return []
    lowered = ctx.source.text.lower()
    if "noqa" not in lowered and "claude-migrate" not in lowered:
        return []
    found: list[Directive] = []
    for comment in ctx.comments(wanted):
        for kind, pattern in (("noqa", _NOQA), ("ignore", _IGNORE)):
            match = pattern.search(comment.text)
            if match is None:
                continue
            listed = tuple(_CODE.findall((match.group("codes") or "").upper()))
            found.append(
                Directive(
                    kind=kind,
                    line=comment.line,
                    column=comment.column,
                    comment=comment.text,
                    start=match.start(),
                    end=match.end(),
                    codes=_codes(match.group("codes")),
                    listed=listed,
                )
            )
    return found


def comment_codes(comment: str) -> frozenset[str]:
    """Return the codes a comment's `noqa` / `claude-migrate: ignore` silences ("*" for all)."""
    codes: frozenset[str] = frozenset()
    for pattern in (_NOQA, _IGNORE):
        match = pattern.search(comment)
        if match:
            codes = codes | _codes(match.group("codes"))
    return codes


def _silences(directive: Directive, diagnostic: Diagnostic) -> bool:
    return directive.line == diagnostic.line and (
        directive.codes is ALL or "*" in directive.codes or diagnostic.code in directive.codes
    )


def apply_suppressions(
    ctx: CheckContext, found: Sequence[Diagnostic], known: frozenset[str]
) -> list[Diagnostic]:
    """Return the findings no directive silences, plus CM002 findings when it is enabled.

    The one suppression stage of every kind of file; `known` is every rule code there is (a
    directive naming another code is reported by CM002 as unknown).
    """
    report_unused = ctx.settings.enabled(UNUSED_CODE)
    listing = ctx.settings.list_suppressed
    if listing and found and skips_text(ctx.source.text.encode("utf-8", "surrogatepass")):
        # A trusted gate checks a skip-file file anyway and lists everything the comment hides.
        return [replace(d, suppressed_by="# claude-migrate: skip-file") for d in found]
    if not found and not report_unused:
        return []
    every = directives(ctx, None if report_unused else {d.line for d in found})
    if not every:
        return list(found)
    kept: list[Diagnostic] = []
    used: set[tuple[int, str]] = set()  # (directive index, code or "*")
    for diagnostic in found:
        silencer: Directive | None = None
        for index, directive in enumerate(every):
            if _silences(directive, diagnostic):
                silencer = silencer or directive
                used.add((index, "*" if "*" in directive.codes else diagnostic.code))
        if silencer is None:
            kept.append(diagnostic)
        elif listing:
            kept.append(replace(diagnostic, suppressed_by=silencer.text.strip()))
    if not report_unused:
        return kept
    unused: list[Diagnostic] = []
    for index, directive in enumerate(every):
        problem = _unused_codes(directive, index, used, ctx, known)
        if problem is None:
            continue
        reasons, stale_codes = problem
        diagnostic = _unused_diagnostic(ctx, directive, reasons, stale_codes)
        # `CM002` in a directive on the same line silences the report about that line.
        if not any(UNUSED_CODE in d.codes for d in every if d.line == directive.line):
            unused.append(diagnostic)
    kept.extend(unused)
    kept.sort(key=Diagnostic.sort_key)
    return kept


def _unused_codes(
    directive: Directive,
    index: int,
    used: set[tuple[int, str]],
    ctx: CheckContext,
    known: frozenset[str],
) -> tuple[list[str], set[str]] | None:
    """Return (reasons, codes to drop) for a directive that silences something needlessly."""
    if "*" in directive.codes:
        if directive.kind == "noqa" or (index, "*") in used:
            return None  # a bare noqa comment may be there for another linter
        return ["nothing to suppress on this line"], set()
    reasons: list[str] = []
    stale: set[str] = set()
    for code in directive.listed:
        if code == UNUSED_CODE or code in stale:
            continue
        ours = code.startswith(OUR_PREFIX)
        if directive.kind == "noqa" and not ours:
            continue  # another linter's code
        if code not in known:
            reasons.append(f"unknown code {code}")
            stale.add(code)
        elif ctx.settings.enabled(code) and (index, code) not in used:
            reasons.append(f"no {code} finding on this line")
            stale.add(code)
    return (reasons, stale) if stale else None


def _unused_diagnostic(
    ctx: CheckContext, directive: Directive, reasons: list[str], stale: set[str]
) -> Diagnostic:
    from claude_migrate.core.diagnostics import fingerprint

    column = directive.column + directive.start
    start = ctx.source.offset(directive.line, directive.column)
    replacement, description = _rewrite(directive, stale)
    edit = _comment_edit(ctx.source.text, start, directive, replacement)
    return Diagnostic(
        path=ctx.path,
        line=directive.line,
        column=column + 1,
        end_line=directive.line,
        end_column=directive.column + directive.end + 1,
        code=UNUSED_CODE,
        rule=UNUSED_NAME,
        message=f"unused suppression `{directive.text.strip()}`: " + "; ".join(reasons),
        fix=Fix(Applicability.SAFE, description, (edit,)),
        fingerprint=fingerprint(f"{directive.kind}:{','.join(sorted(stale)) or '*'}"),
        context="",
    )


def _rewrite(directive: Directive, stale: set[str]) -> tuple[str, str]:
    """Return the directive's new text ("" to remove it) and the fix's description."""
    left = [code for code in directive.listed if code not in stale]
    if not stale or not left:
        return "", "remove the unused suppression"
    codes = ", ".join(left)
    new = f"# noqa: {codes}" if directive.kind == "noqa" else f"# claude-migrate: ignore[{codes}]"
    dropped = ", ".join(code for code in directive.listed if code in stale)
    return new, f"remove {dropped} from the suppression"


def _comment_edit(text: str, comment_start: int, directive: Directive, replacement: str) -> Edit:
    """Return the edit that puts `replacement` in place of the directive, tidying the comment."""
    comment = directive.comment
    before = comment[: directive.start].rstrip()
    after = comment[directive.end :].strip()
    if replacement:
        new_comment = comment[: directive.start] + replacement + comment[directive.end :]
    elif before and after:
        new_comment = before + "  " + (after if after.startswith("#") else "# " + after)
    elif before:
        new_comment = before
    elif after:
        new_comment = after if after.startswith("#") else "# " + after
    else:
        new_comment = ""
    start = comment_start
    if not new_comment:
        # Remove the whitespace between the code and the comment too.
        while start > 0 and text[start - 1] in " \t":
            start -= 1
    return Edit(start, comment_start + len(comment), new_comment)
