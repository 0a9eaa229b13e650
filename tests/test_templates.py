"""Literal templates read as strings built from parts (`core.templates`)."""

from __future__ import annotations

import pytest

from claude_migrate.core.templates import format_pieces, percent_pieces


@pytest.mark.parametrize(
    ("template", "pieces"),
    [
        ("claude-%s", ["claude-", 0]),
        ("claude-3-%s-%s", ["claude-3-", 0, "-", 1]),
        ("%s", [0]),
        ("claude-2.1", ["claude-2.1"]),
        ("claude-%d", None),
        ("claude-%r", None),
        ("claude-%%s%s", None),
        ("claude-%(size)s", None),
        ("claude-%5s", None),
    ],
)
def test_percent_templates(template: str, pieces: list[str | int] | None) -> None:
    assert percent_pieces(template) == pieces
    if pieces is not None:
        values = [f"v{i}" for i in range(sum(isinstance(p, int) for p in pieces))]
        built = "".join(p if isinstance(p, str) else values[p] for p in pieces)
        assert built == template % tuple(values)


@pytest.mark.parametrize(
    ("template", "pieces"),
    [
        ("claude-{}", ["claude-", 0]),
        ("claude-3-{}-{}", ["claude-3-", 0, "-", 1]),
        ("claude-{1}-{0}", ["claude-", 1, "-", 0]),
        ("{}", [0]),
        ("claude-{}-{0}", None),
        ("claude-{name}", None),
        ("claude-{!r}", None),
        ("claude-{:>5}", None),
        ("claude-{{}}{}", None),
        ("claude-}", None),
    ],
)
def test_format_templates(template: str, pieces: list[str | int] | None) -> None:
    assert format_pieces(template) == pieces
    if pieces is not None:
        values = ["a", "b"]
        built = "".join(p if isinstance(p, str) else values[p] for p in pieces)
        assert built == template.format(*values)
