"""Rebuilding a cache key from the policy's template, keeping the old key's text inside it.

The key's own expression stays as written; the template's text around `{key}` goes inside an
f-string or a concatenation's literals when the key is one, else the key becomes an f-string
field (or a `+` of strings where an f-string cannot hold its text).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from claude_migrate.analysis.edits import apply_edits
from claude_migrate.core.diagnostics import Edit
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST


def _escape(text: str, quote: str, raw: bool, formatted: bool) -> str | None:
    """Return literal text for inside a string literal with `quote`, or None if impossible."""
    if formatted:
        text = text.replace("{", "{{").replace("}", "}}")
    if raw:
        return None if ("\\" in text or quote in text or "\n" in text) else text
    return text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n")


def render_key(
    ctx: FileContext, node: cst.BaseExpression, template: str, version: str, stream: str
) -> Edit | None:
    """Return the edit that rebuilds a key expression from the template, keeping the old key."""
    head, _, tail = template.partition("{key}")
    prefix = head.format(anthropic_version=version, stream=stream)
    suffix = tail.format(anthropic_version=version, stream=stream)
    text = ctx.code(node)
    if isinstance(node, cst.FormattedString) and "b" not in node.prefix.lower():
        quote = node.start[len(node.prefix) :]
        raw = "r" in node.prefix.lower()
        before = _escape(prefix, quote[0], raw, True)
        after = _escape(suffix, quote[0], raw, True)
        if before is None or after is None:
            return None
        body = text[len(node.start) : len(text) - len(node.end)]
        return ctx.replace(node, node.start + before + body + after + node.end)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        edits = _concatenation_edits(ctx, node, prefix, suffix)
        if edits is not None:
            return ctx.replace(node, apply_edits(text, edits))
    usable = (
        "\n" not in text
        and "\r" not in text
        and "\\" not in text
        and "#" not in text
        and not text.startswith("{")
        and not ('"' in text and "'" in text)
    )
    if usable:
        quote = '"' if '"' not in text else "'"
        before = _escape(prefix, quote, False, True)
        after = _escape(suffix, quote, False, True)
        return ctx.replace(node, f"f{quote}{before}{{{text}}}{after}{quote}")
    before = _escape(prefix, '"', False, False)
    after = _escape(suffix, '"', False, False)
    parts = [f'"{before}"'] if prefix else []
    parts.append(text if _is_hexdigest(node) else f"str({text})")
    if suffix:
        parts.append(f'"{after}"')
    return ctx.replace(node, " + ".join(parts))


def _is_hexdigest(node: cst.BaseExpression) -> bool:
    """Return whether an expression is a `.hexdigest()` call (a str, and an atom)."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "hexdigest"
    )


def _concatenation_edits(
    ctx: FileContext, node: cst.BinaryOperation, prefix: str, suffix: str
) -> list[Edit] | None:
    """Return edits (relative to the node's text) that put the template's text into `a + b`.

    The prefix goes inside the leftmost string literal, the suffix inside the rightmost one or
    as one more `+ '...'` in the leftmost literal's quotes. None when the leftmost operand is not
    a text literal.
    """
    leftmost: cst.BaseExpression = node
    while isinstance(leftmost, cst.BinaryOperation) and isinstance(leftmost.operator, cst.Add):
        leftmost = leftmost.left
    if not isinstance(leftmost, cst.SimpleString) or "b" in leftmost.prefix.lower():
        return None
    start, end = ctx.span(node)
    quote = leftmost.quote[0]
    edits = []
    if prefix:
        before = _escape(prefix, quote, "r" in leftmost.prefix.lower(), False)
        if before is None:
            return None
        at = ctx.span(leftmost)[0] - start + len(leftmost.prefix) + len(leftmost.quote)
        edits.append(Edit(at, at, before))
    if suffix:
        rightmost = node.right
        if isinstance(rightmost, cst.SimpleString) and "b" not in rightmost.prefix.lower():
            after = _escape(suffix, rightmost.quote[0], "r" in rightmost.prefix.lower(), False)
            if after is None:
                return None
            at = ctx.span(rightmost)[1] - start - len(rightmost.quote)
            edits.append(Edit(at, at, after))
        else:
            edits.append(
                Edit(
                    end - start,
                    end - start,
                    f" + {quote}{_escape(suffix, quote, False, False)}{quote}",
                )
            )
    return edits
