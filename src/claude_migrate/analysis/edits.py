"""Edits that change the shape of code: removing arguments, dict entries, list items or imports.

Removals are computed on the text around the elements, so nothing but the removed elements,
their commas and the whitespace or comment that belonged to them changes: an element on its own
line(s) goes with its line(s); an inline one goes with its comma.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from claude_migrate.core.diagnostics import Edit
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
else:
    cst = lazy_import("libcst")  # loaded by the first parse, not by the policy's import

_REST_OF_LINE = re.compile(r"[ \t]*,?[ \t]*(#[^\r\n]*)?(\r\n|\n|\r|$)")
_COMMA = re.compile(r"\s*,")


def _children(container: cst.CSTNode) -> list[cst.CSTNode] | None:
    if isinstance(container, cst.Call):
        return list(container.args)
    if isinstance(container, (cst.Dict, cst.List, cst.Tuple, cst.Set)):
        return list(container.elements)
    if isinstance(container, cst.ImportFrom) and not isinstance(container.names, cst.ImportStar):
        return list(container.names)
    return None


def _own_lines(ctx: FileContext, start: int, end: int) -> tuple[int, int] | None:
    """Return the span of whole lines holding [start, end) if nothing else shares them."""
    text = ctx.source.text
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    if text[line_start:start].strip():
        return None
    rest = _REST_OF_LINE.match(text, end)
    if rest is None or not rest.group(2):
        return None
    return line_start, rest.end()


def remove_elements(
    ctx: FileContext, container: cst.CSTNode, elements: Sequence[cst.CSTNode]
) -> Edit | None:
    """Return one edit removing `elements` from a call's args, a dict/list/tuple/set literal or
    the names of a `from ... import` (which must keep at least one)."""
    children = _children(container)
    if children is None:
        return None
    drop = [i for i, child in enumerate(children) if any(child is e for e in elements)]
    if len(drop) != len(elements) or not drop:
        return None
    kept = [i for i in range(len(children)) if i not in drop]
    if isinstance(container, cst.Set) and not kept:
        return None  # `{}` would be a dict
    text = ctx.source.text
    spans = [ctx.span(child) for child in children]
    pieces: list[tuple[int, int, str]] = []
    runs: list[list[int]] = []
    for i in drop:
        if runs and runs[-1][-1] == i - 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    needs_tuple_comma = isinstance(container, cst.Tuple) and len(kept) == 1
    for run in runs:
        first, last = run[0], run[-1]
        start, end = spans[first][0], spans[last][1]
        whole = _own_lines(ctx, start, end)
        if last + 1 < len(children):
            # Followed by a kept element: take everything up to where that one starts.
            pieces.append(
                (whole[0] if whole else start, whole[1] if whole else spans[last + 1][0], "")
            )
        elif whole is not None and first > 0 and not needs_tuple_comma:
            pieces.append((whole[0], whole[1], ""))
        elif first > 0:
            # A trailing run: the previous element's comma goes, the run's own trailing comma
            # (if any) stays as the new last element's.
            replacement = ""
            if needs_tuple_comma:
                comma = _COMMA.match(text, end)
                end = comma.end() if comma else end
                replacement = ","
            pieces.append((spans[first - 1][1], end, replacement))
        else:
            comma = _COMMA.match(text, end)
            pieces.append(
                (whole[0], whole[1], "") if whole else (start, comma.end() if comma else end, "")
            )
    if needs_tuple_comma and kept[0] == len(children) - 1:
        k = kept[0]
        if not _COMMA.match(text, spans[k][1]):
            pieces.append((spans[k][1], spans[k][1], ","))
    pieces.sort()
    # Merge into one edit over the covered range so the fix is atomic.
    lo, hi = pieces[0][0], max(p[1] for p in pieces)
    out, position = [], lo
    for start, end, replacement in pieces:
        out.append(text[position:start])
        out.append(replacement)
        position = max(position, end)
    out.append(text[position:hi])
    return Edit(lo, hi, "".join(out))


_LINE_REST = re.compile(r"[ \t]*(#[^\r\n]*)?(\r\n|\n|\r)")


def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def append_element(ctx: FileContext, container: cst.CSTNode, element: str) -> Edit | None:
    """Return an edit adding `element` as the last argument or entry, in the container's layout.

    One element per line stays one per line (same indentation, trailing comma kept or not as
    the last element had it, a comment after it kept on its line); otherwise the element joins
    the last one inline. None when the container is not one we can extend.
    """
    children = _children(container)
    if children is None or isinstance(container, cst.Set):
        return None
    text = ctx.source.text
    start, end = ctx.span(container)
    if not children:
        if isinstance(container, cst.Call):
            opening = text.find("(", ctx.span(container.func)[1], end)
        else:
            opening = start if text[start : start + 1] in "[{(" else -1
        closing = end - 1
        if opening < 0 or text[opening + 1 : closing].strip():
            return None
        return Edit(opening + 1, closing, element)
    last_start, last_end = ctx.span(children[-1])
    comma = _COMMA.match(text, last_end)
    after = comma.end() if comma else last_end
    rest = _LINE_REST.match(text, after)
    line_start = _line_start(text, last_start)
    own_line = not text[line_start:last_start].strip() and rest is not None and rest.end() < end
    if own_line and rest is not None:
        indent = text[line_start:last_start]
        added = indent + element + ("," if comma else "") + rest.group(2)
        kept = text[last_end : rest.end()]
        return Edit(last_end, rest.end(), ("" if comma else ",") + kept + added)
    if comma:
        inline = Edit(after, after, " " + element + ",")
    else:
        inline = Edit(last_end, last_end, ", " + element)
    return _within_width(ctx, container, children, element, inline)


def _within_width(
    ctx: FileContext,
    container: cst.CSTNode,
    children: list[cst.CSTNode],
    element: str,
    inline: Edit,
) -> Edit:
    """Return `inline`, or, when it would leave the container's line longer than the project's
    formatter keeps lines (`analysis.line_width`), the container written one element per line
    with a trailing comma: the layout Ruff's and Black's formatters give a call that does not
    fit on its line, and keep as it is (the trailing comma is "magic" to both).

    Only a container alone on its line's brackets is laid out again (`x = Call(...)`, not
    `f(Call(...))`, whose outer call a formatter would split first); anything else stays
    inline."""
    from claude_migrate.analysis.line_width import line_width

    text = ctx.source.text
    start, end = ctx.span(container)
    line_start = _line_start(text, start)
    rest = _LINE_REST.match(text, end)
    line_end = rest.start(2) if rest is not None else len(text)
    if rest is None and text[end:].strip():
        return inline
    line = text[line_start:line_end]
    added = len(inline.replacement) - (inline.end - inline.start)
    if "\n" in text[start:end] or "\r" in text[start:end]:
        return inline
    if len(line) + added <= line_width(ctx.file_path):
        return inline
    opening = _opening(ctx, container, start)
    before = text[line_start:opening]
    indent = before[: len(before) - len(before.lstrip(" \t"))]
    if opening < 0 or any(c in before for c in "([{") or "\t" in indent:
        return inline
    if text[end - 1 : end] not in ")]}":
        return inline
    newline = ctx.source.newline_at(start)
    inner = indent + "    "
    items = [text[slice(*ctx.span(child))] for child in children] + [element]
    laid = "".join(newline + inner + item + "," for item in items) + newline + indent
    return Edit(opening + 1, end - 1, laid)


def _opening(ctx: FileContext, container: cst.CSTNode, start: int) -> int:
    """Return the offset of a container's opening bracket, -1 if not found where expected."""
    text = ctx.source.text
    if isinstance(container, cst.Call):
        return text.find("(", ctx.span(container.func)[1])
    return start if text[start : start + 1] in "[{(" else -1


def remove_line(ctx: FileContext, node: cst.CSTNode) -> Edit | None:
    """Return an edit removing the line(s) that hold only `node` (and a trailing comment).

    None when anything else shares those lines (`x = 1; y = 2`, code before it).
    """
    start, end = ctx.span(node)
    span = _own_lines(ctx, start, end)
    if span is None:
        text = ctx.source.text
        line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
        rest = _REST_OF_LINE.match(text, end)
        # The last line of a file without a final newline.
        if text[line_start:start].strip() or rest is None or rest.end() != len(text):
            return None
        return Edit(line_start, len(text), "")
    if ctx.source.text[end : span[1]].lstrip(" \t").startswith(","):
        return None  # an element of a list, not a statement
    return Edit(span[0], span[1], "")


def string_literal(original: cst.CSTNode, text: str) -> str:
    """Return `text` as a string literal written with the quotes of `original`."""
    if isinstance(original, cst.SimpleString):
        quote = original.quote
        prefix = original.prefix.replace("f", "").replace("F", "")
        if quote in text or "\\" in text:
            return repr(text)
        return f"{prefix}{quote}{text}{quote}"
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Return `text` with non-overlapping edits applied (duplicates applied once)."""
    unique = sorted(set(edits))
    out: list[str] = []
    position = 0
    for edit in unique:
        if edit.start < position:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out.append(text[position : edit.start])
        out.append(edit.replacement)
        position = edit.end
    out.append(text[position:])
    return "".join(out)
