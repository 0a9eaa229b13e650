"""Compare the project phase's per-call records with the LibCST resolver's call sites.

A developer's measure (`scripts/compare_records.py`): on a tree, the project phase is built as
a run builds it, each module's records are read (`project/records.py`), and each file the phase
summarised is parsed with LibCST and its call sites found as the rules find them
(`FileContext.sites`, with the sites a value set splits them into). The two are matched by the
call's position, and every difference is listed: a site found by one only, a parameter passed
by one only, a value known by one only, different values, different places.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import SourceText, python_text
from claude_migrate.project import phase
from claude_migrate.project.records import PARAMETERS, CallRecord, records, with_places
from claude_migrate.targets.base import CANONICAL, HEADERS

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext

SKIPPED_FOLDERS = frozenset(
    {".git", ".hg", ".venv", "venv", "node_modules", "__pycache__", ".tox", ".mypy_cache"}
)
# The kinds of difference, in the order a summary lists them.
KINDS = (
    "site: records only",
    "site: records only, model not proven Claude's",
    "site: libcst only",
    "target differs",
    "passed: records only, a value",
    "passed: records only, unknown",
    "passed: libcst only, a value",
    "passed: libcst only, unknown",
    "value: records only",
    "value: libcst only",
    "values differ",
    "complete: records only",
    "complete: libcst only",
    "place differs",
)


@dataclass(frozen=True)
class Side:
    """One parameter of one call as one side sees it: whether it is passed, the values it
    proves (JSON texts, sorted), whether those are all, and the places (line, column)."""

    passed: bool
    values: tuple[str, ...] = ()
    complete: bool = False
    places: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class Difference:
    kind: str
    path: str
    line: int
    column: int
    parameter: str = ""
    detail: str = ""

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column + 1}"
        about = f" {self.parameter}" if self.parameter else ""
        return f"{where}: {self.kind}{about}: {self.detail}".rstrip(": ")


@dataclass
class Comparison:
    """What both sides found on a tree, and where they differ."""

    sites: int = 0  # call sites matched by position
    records_only: int = 0
    libcst_only: int = 0
    parameters: int = 0  # parameters passed, over matched sites
    agreeing: int = 0  # of those, equal on both sides (values, completeness, places)
    differences: list[Difference] = field(default_factory=list)

    def counts(self) -> Counter[str]:
        return Counter(d.kind for d in self.differences)

    def summary(self, examples: int = 1) -> str:
        lines = [
            f"sites matched {self.sites}, records only {self.records_only}, "
            f"libcst only {self.libcst_only}; parameters {self.parameters}, "
            f"agreeing {self.agreeing}"
        ]
        counts = self.counts()
        for kind in KINDS:
            if counts[kind]:
                lines.append(f"  {kind}: {counts[kind]}")
                shown = [d for d in self.differences if d.kind == kind][:examples]
                lines.extend(f"    e.g. {d}" for d in shown)
        return "\n".join(lines)


def python_files(paths: Iterable[Path]) -> list[Path]:
    """Return the Python files under the paths, leaving out tool and environment folders."""
    found: list[Path] = []
    for path in paths:
        if path.is_file():
            found.append(path.resolve())
            continue
        for item in sorted(path.rglob("*.py")):
            parts = item.relative_to(path).parts
            hidden = any(p in SKIPPED_FOLDERS or p.startswith(".") for p in parts[:-1])
            # `x.fixed.py` beside `x.py` is a fixture's golden (what `fix` writes), not code.
            if not hidden and not item.name.endswith(".fixed.py") and item.is_file():
                found.append(item.resolve())
    return found


def compare(paths: Sequence[Path], cwd: Path | None = None) -> Comparison:
    """Build the project phase over the paths' Python files and compare both sides per file."""
    files = [(path, path.read_bytes()) for path in python_files(paths)]
    project = phase.build(files, (cwd or Path.cwd()).resolve())
    result = Comparison()
    for path, data in files:
        module = project.files.get(str(path))
        if module is None:
            continue
        text = python_text(data)
        if text is None:
            continue
        found = with_places(records(project, module), data)
        context = _context(project, path, text, module)
        sites = _libcst_sites(context) if context is not None else {}
        _compare_file(result, project.paths.get(module, str(path)), found, sites, context)
    return result


def _context(project: phase.Project, path: Path, text: str, module: str) -> FileContext | None:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext

    try:
        tree = cst.parse_module(text)
    except cst.ParserSyntaxError:
        return None
    view = project.view(str(path), text)
    settings = FileSettings(frozenset(), ())
    display = project.paths.get(module, str(path))
    return FileContext(display, SourceText(text), tree, settings, str(path), view)


def _libcst_sites(context: FileContext) -> dict[tuple[int, int], list[CallSite]]:
    """Return the file's own Claude call sites by position, each with the sites a value set
    splits it into (one per value), or itself."""
    branches: dict[int, list[CallSite]] = {}
    for site in context.all_sites:
        if site.via is None:
            branches.setdefault(id(site.branch_of or site), []).append(site)
    found: dict[tuple[int, int], list[CallSite]] = {}
    for site in context.sites:
        found[_position(context, site.node)] = branches.get(id(site), [site])
    return found


def _position(context: FileContext, node: Any) -> tuple[int, int]:
    """Return a node's line and column as `ast` counts them (UTF-8 bytes from 0)."""
    start = context.range(node).start
    line_text = context.source.text.splitlines()[start.line - 1] if start.line else ""
    return start.line, len(line_text[: start.column].encode("utf-8", "surrogatepass"))


def _compare_file(
    result: Comparison,
    path: str,
    found: list[CallRecord],
    sites: dict[tuple[int, int], list[CallSite]],
    context: FileContext | None,
) -> None:
    by_position = {record.position: record for record in found}
    for position in sorted(set(by_position) - set(sites)):
        result.records_only += 1
        record = by_position[position]
        kind = "site: records only"
        if record.unproven:
            kind += ", model not proven Claude's"
        result.differences.append(Difference(kind, path, *position, detail=record.target))
    for position in sorted(set(sites) - set(by_position)):
        result.libcst_only += 1
        result.differences.append(
            Difference("site: libcst only", path, *position, detail=sites[position][0].target.key)
        )
    for position in sorted(set(sites) & set(by_position)):
        assert context is not None
        result.sites += 1
        record, branches = by_position[position], sites[position]
        if record.target != branches[0].target.key:
            detail = f"records {record.target}, libcst {branches[0].target.key}"
            result.differences.append(Difference("target differs", path, *position, detail=detail))
        for parameter in PARAMETERS:
            mine = _record_side(record, parameter)
            theirs = _libcst_side(context, branches, parameter)
            _compare_parameter(result, path, position, parameter, mine, theirs)


def _record_side(record: CallRecord, parameter: str) -> Side:
    values = record.params.get(parameter)
    if values is None:
        return Side(False)
    texts = tuple(sorted({_json(v) for v, _ in values.known}))
    places = tuple(sorted({(p.line, p.column) for _, p in values.known if p is not None}))
    return Side(True, texts, values.complete, places)


def _libcst_side(context: FileContext, branches: list[CallSite], parameter: str) -> Side:
    texts: set[str] = set()
    places: set[tuple[int, int]] = set()
    passed = False
    complete = True
    for site in branches:
        entry = site.params.get(*_names(site, parameter))
        if entry is None and site.call_args is not None:
            # Parameters in a JSON body: the model is the call's own keyword (`modelId`).
            entry = site.call_args.get(*_names(site, parameter))
        if entry is None:
            continue
        passed = True
        if not entry.value.known:
            complete = False
            continue
        texts.add(_json(entry.value.value))
        node = entry.value.node
        if node is not None and not entry.value.elsewhere:
            places.add(_position(context, node))
    if not passed:
        return Side(False)
    return Side(True, tuple(sorted(texts)), complete and bool(texts), tuple(sorted(places)))


def _names(site: CallSite, parameter: str) -> tuple[str, ...]:
    if parameter in (*CANONICAL, HEADERS):
        return site.target.names(parameter) or (parameter,)
    return (parameter,)


def _compare_parameter(
    result: Comparison,
    path: str,
    position: tuple[int, int],
    parameter: str,
    mine: Side,
    theirs: Side,
) -> None:
    if not (mine.passed or theirs.passed):
        return
    result.parameters += 1
    kind, detail = _difference(mine, theirs)
    if not kind:
        result.agreeing += 1
        return
    result.differences.append(Difference(kind, path, *position, parameter, detail))


def _difference(mine: Side, theirs: Side) -> tuple[str, str]:
    """Return the kind of difference between two sides of a parameter ("" when none)."""
    if mine.passed != theirs.passed:
        side = mine if mine.passed else theirs
        kind = "passed: records only" if mine.passed else "passed: libcst only"
        return (kind + (", a value" if side.values else ", unknown")), _show(side)
    if (mine.values, mine.complete) == (theirs.values, theirs.complete):
        if mine.places and theirs.places and mine.places != theirs.places:
            return "place differs", f"records {mine.places}, libcst {theirs.places}"
        return "", ""
    detail = f"records {_show(mine)}, libcst {_show(theirs)}"
    if mine.values == theirs.values:
        return ("complete: records only" if mine.complete else "complete: libcst only"), detail
    if not mine.values:
        return "value: libcst only", detail
    if not theirs.values:
        return "value: records only", detail
    return "values differ", detail


def _show(side: Side) -> str:
    if not side.values:
        return "unknown"
    shown = "{" + ", ".join(side.values) + "}"
    return shown if side.complete else shown + " + unknown"


def _json(value: Any) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


__all__ = ["Comparison", "Difference", "compare", "python_files"]
