"""The per-call records: what the project phase knows of each Claude call site, after its
fixed point.

For every call of a module's summary that the phase recognises as a Claude call (`_target`,
the same test its fixed point reads calls with), a `CallRecord` gives the call's position, its
target and, for each parameter that matters, the values it may hold: the literals the phase's
own evaluation proves (`Project.evaluate`, over the branches `Project._alternatives` gives),
each with the place it is written where the phase can tell it, or unknown. Nothing here knows a
shape of its own: what the phase cannot evaluate is unknown.

Positions are those the summaries keep: the call's line, and its column as CPython's `ast`
gives it (UTF-8 bytes from the start of the line, from 0); LibCST counts characters, the same
on ASCII lines. Places of values are known only for a literal written in the call's own
arguments (read from one `ast` parse of the file, only when asked for: `with_places`).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claude_migrate.project.kinds import Const, DictLit
from claude_migrate.targets.base import CANONICAL, HEADERS
from claude_migrate.targets.registry import TARGETS

if TYPE_CHECKING:
    from claude_migrate.project.phase import Project

# The parameters a record reads: the registry's canonical ones (under each target's names),
# the headers, and those read by their own name.
BY_NAME = ("top_p", "top_k", "thinking")
PARAMETERS = (*CANONICAL, HEADERS, *BY_NAME)
# The most values a parameter's branches are read for; more is unknown.
MAX_VALUES = 16


@dataclass(frozen=True, slots=True)
class Place:
    """Where a value is written: display path, line (from 1), column (from 0, `ast`'s)."""

    path: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Values:
    """What a parameter may hold: literal values (each with its place, None when not known),
    and whether that is all it may hold (`complete`: no branch is unknown)."""

    known: tuple[tuple[Any, Place | None], ...] = ()
    complete: bool = False
    # The argument expression as the summary keeps it (for tracing a disagreement).
    written: tuple[str, ...] = ()

    @property
    def values(self) -> list[Any]:
        found: list[Any] = []
        for value, _ in self.known:
            if value not in found:
                found.append(value)
        return found


UNKNOWN = Values()


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One Claude call site as the project phase sees it."""

    path: str
    line: int
    column: int  # `ast`'s: UTF-8 bytes from 0
    target: str  # the registry's key ("anthropic:messages.create")
    family: str
    function: str | None  # the qualname of the function it is in (None: module level)
    params: dict[str, Values] = field(default_factory=dict)
    # Whether the call passes `**something` whose keys are not all known.
    opaque: bool = False

    @property
    def position(self) -> tuple[int, int]:
        return self.line, self.column


def _calls(summary: dict[str, Any]) -> Iterator[tuple[str | None, list[Any]]]:
    for qual, facts in summary["functions"].items():
        for call in facts["calls"]:
            yield qual, call
    for call in summary["calls"]:
        yield None, call


def records(project: Project, module: str) -> list[CallRecord]:
    """Return the records of a module's Claude call sites, in source order."""
    summary = project.summaries.get(module)
    if summary is None:
        return []
    path = project.paths.get(module, module)
    found: dict[tuple[int, int], CallRecord] = {}
    for function, call in _calls(summary):
        position = (call[6], call[7] - 1)
        if position in found:
            continue  # a call summarised twice (a lambda's, read with its function)
        record = _record(project, module, function, call, path)
        if record is not None:
            found[position] = record
    return [found[key] for key in sorted(found)]


def _record(
    project: Project, module: str, function: str | None, call: list[Any], path: str
) -> CallRecord | None:
    target = project._target(module, function, call)  # noqa: SLF001 - the phase's own test
    if target is None:
        return None
    key, kwargs = target
    registered = TARGETS[key]
    spread = [project.evaluate(module, function, star) for star in call[5]]
    dicts = [s for s in spread if isinstance(s, DictLit)]
    opaque = len(dicts) != len(spread) or any(d.opaque or d.spreads for d in dicts)
    params: dict[str, Values] = {}
    for parameter in PARAMETERS:
        for name in _names(key, parameter):
            if name in kwargs:
                params[parameter] = _values(project, module, function, kwargs[name])
                break
            holder = next((d for d in dicts if name in d.entries), None)
            if holder is not None:
                params[parameter] = _values(
                    project, holder.module, holder.function, holder.entries[name]
                )
                break
    return CallRecord(
        path, call[6], call[7] - 1, key, registered.family, function, params, opaque
    )


def _values(project: Project, module: str, function: str | None, value: list[Any]) -> Values:
    """Return what an argument may hold: each branch the phase sees, evaluated by the phase."""
    branches = project._alternatives(module, function, value, 0)  # noqa: SLF001
    if len(branches) > MAX_VALUES:
        return Values(written=(_text(value),))
    known: list[tuple[Any, Place | None]] = []
    complete = True
    for branch in branches:
        found = project.evaluate(module, function, branch)
        if isinstance(found, Const):
            known.append((found.value, None))
        else:
            complete = False
    return Values(tuple(known), complete and bool(known), (_text(value),))


def _text(value: list[Any]) -> str:
    """Return a short text of a summary expression (for tracing only)."""
    kind = value[0] if value else "?"
    if kind == "lit":
        return repr(value[1])
    if kind == "name":
        return str(value[1])
    if kind == "attr":
        return f"{_text(value[1])}.{value[2]}"
    if kind == "call":
        return f"{_text(value[1])}(...)"
    if kind == "sub":
        return f"{_text(value[1])}[{value[2]!r}]"
    return f"<{kind}>"


def with_places(found: list[CallRecord], text: str | bytes) -> list[CallRecord]:
    """Return records with the places of the literals written in their calls' keywords.

    One `ast` parse of the file; a value read from elsewhere keeps no place.
    """
    if not found:
        return found
    arguments = _keywords_by_call(text)
    out = []
    for record in found:
        keywords = arguments.get(record.position, {})
        params = {
            name: _placed(values, _written(record.target, name, keywords), record.path)
            for name, values in record.params.items()
        }
        out.append(
            CallRecord(
                record.path, record.line, record.column, record.target, record.family,
                record.function, params, record.opaque,
            )
        )  # fmt: skip
    return out


def _names(target: str, parameter: str) -> tuple[str, ...]:
    """Return the keywords a target takes a parameter by."""
    if parameter in (*CANONICAL, HEADERS):
        return TARGETS[target].names(parameter) or (parameter,)
    return (parameter,)


def _written(target: str, parameter: str, keywords: dict[str, ast.expr]) -> ast.expr | None:
    return next((keywords[n] for n in _names(target, parameter) if n in keywords), None)


def _placed(values: Values, node: ast.expr | None, path: str) -> Values:
    if node is None or len(values.known) != 1 or not values.complete:
        return values
    if not isinstance(node, (ast.Constant, ast.UnaryOp, ast.List, ast.Tuple)):
        return values
    place = Place(path, node.lineno, node.col_offset)
    return Values(((values.known[0][0], place),), True, values.written)


def _keywords_by_call(text: str | bytes) -> dict[tuple[int, int], dict[str, ast.expr]]:
    """Return each call's keyword arguments, by the call's position."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return {}
    return {
        (node.lineno, node.col_offset): {k.arg: k.value for k in node.keywords if k.arg}
        for node in ast.walk(tree)
        if type(node) is ast.Call
    }


__all__ = ["CallRecord", "Place", "Values", "records", "with_places"]
