"""`claude-migrate models`: every Claude model id a tree holds, where, and what becomes of it.

The files are those `check` reads (same discovery, policy excludes and `.gitignore`), and a
model id is what CM302 recognises (`policy.model_ids`): a Python string literal outside
docstrings (notebook cells too) or a scalar of a configuration file, whatever the model's
status. Each place says whether the file's own analysis proves it to be a Claude call's model
(`call`) or not (`data`); the project phase's cross-module view is not consulted, so a model
passed to a wrapper in another module shows as data here. Each model says its status under the
file's policy (`as-of`, `warn-days`, `platform-dates`), its date per platform, and the
replacement CM302's fix writes.

Nothing from the tree runs: Python is parsed, never imported; a file that cannot be read or
parsed is listed among `errors` (`check` reports it as CM001).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.core.diagnostics import FileError
from claude_migrate.report.models import Inventory, ModelEntry, Place

if TYPE_CHECKING:
    from claude_migrate.core.job import Job
    from claude_migrate.core.source import SourceText
    from claude_migrate.policy.config import PolicyLoader
    from claude_migrate.policy.deprecations import Spelling
    from claude_migrate.policy.facts import ProjectFacts


def build(paths: Sequence[Path], loader: PolicyLoader, force_exclude: bool = False) -> Inventory:
    """Return the inventory of the files under `paths` (raises DiscoveryError, ConfigError)."""
    from claude_migrate.api import collect

    collected = collect(paths, loader, force_exclude=force_exclude)
    inventory = Inventory(files=len(collected.jobs))
    entries: dict[str, ModelEntry] = {}
    for job in collected.jobs:
        for place, spelling, facts in _places(job, inventory.errors):
            entry = entries.get(spelling.model.id)
            if entry is None:
                entry = entries[spelling.model.id] = _entry(spelling, facts)
                inventory.as_of = inventory.as_of or facts.as_of
            entry.places.append(place)
    order = {"retired": 0, "retiring": 1, "active": 2}
    inventory.models = sorted(
        entries.values(), key=lambda e: (order[e.status], e.retires or "9999", e.model)
    )
    return inventory


def _entry(spelling: Spelling, facts: ProjectFacts) -> ModelEntry:
    from claude_migrate.policy.model_ids import platform_dates

    model = spelling.model
    horizon = facts.as_of + dt.timedelta(days=facts.retirement_warn_days)
    replacement = None
    if model.retires is not None:
        found = facts.catalogue.successor(model, horizon, dict(facts.model_replacements))
        replacement = (found[1] or found[0].id) if found is not None else None
    platforms = {
        name: {"retires": date, "status": _state(date, facts)}
        for name, date in platform_dates(model).items()
    }
    api = platforms["api"]
    status = api["status"] or "active"
    return ModelEntry(model.id, status, api["retires"], platforms, replacement)


def _state(date: str | None, facts: ProjectFacts) -> str | None:
    """Return the status a date gives, or None for a platform with no date of its own."""
    if date is None:
        return None
    retires = dt.date.fromisoformat(date)
    if retires <= facts.as_of:
        return "retired"
    if (retires - facts.as_of).days <= facts.retirement_warn_days:
        return "retiring"
    return "active"


def _places(job: Job, errors: list[FileError]) -> list[tuple[Place, Spelling, ProjectFacts]]:
    from claude_migrate.core.source import DecodeError, SourceText, read_regular
    from claude_migrate.policy.facts import facts_for
    from claude_migrate.policy.model_ids import WORD

    try:
        data = read_regular(job.path)
    except OSError as exc:
        errors.append(FileError(job.display, f"cannot read: {exc.strerror or exc}"))
        return []
    if data.find(WORD.encode()) < 0:
        return []
    facts = facts_for(job.settings)
    try:
        source = SourceText.from_bytes(data, is_python=job.kind == "python")
    except DecodeError as exc:
        errors.append(FileError(job.display, str(exc), exc.line))
        return []
    try:
        if job.kind == "python":
            found = _python(job, source)
        elif job.kind == "notebook":
            found = _notebook(job, source)
        elif job.kind in ("config", "manifest"):
            found = _config(job, source)
        else:
            return []
    except (SyntaxError, RecursionError, MemoryError, ValueError) as exc:
        errors.append(FileError(job.display, f"cannot read: {exc}"))
        return []
    except Exception as exc:  # LibCST's ParserSyntaxError and friends
        errors.append(FileError(job.display, f"cannot parse: {type(exc).__name__}"))
        return []
    return [(_place(job, facts, *item), item[5], facts) for item in found]


# (line, 0-based column, cell or None, text, use, spelling)
_Found = tuple[int, int, "int | None", str, str, "Spelling"]


def _place(
    job: Job,
    facts: ProjectFacts,
    line: int,
    column: int,
    cell: int | None,
    text: str,
    use: str,
    spelling: Spelling,
) -> Place:
    from claude_migrate.policy.model_ids import assess

    status = assess(spelling, facts)
    state = status.state(facts.as_of, facts.retirement_warn_days) if status else "active"
    target = status.target if status is not None and state != "active" else None
    return Place(job.display, line, column + 1, text, use, state, target, spelling.form, cell)


def _python_context(job: Job, source: SourceText) -> Any:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext

    return FileContext(job.display, source, cst.parse_module(source.text), job.settings, job.path)


def _python_found(ctx: Any, locate: Callable[[int], tuple[int, int]] | None = None) -> list[_Found]:
    from claude_migrate.analysis.model_mentions import call_model_nodes, python_mentions

    mentions, _ = python_mentions(ctx)
    if not mentions:
        return []
    proven = call_model_nodes(ctx)
    found: list[_Found] = []
    for mention in mentions:
        line, column = ctx.source.position(ctx.span(mention.node)[0])
        cell = None
        if locate is not None:
            cell, line = locate(line)
        use = "call" if id(mention.node) in proven else "data"
        found.append((line, column, cell, mention.value, use, mention.spelling))
    return found


def _python(job: Job, source: SourceText) -> list[_Found]:
    return _python_found(_python_context(job, source))


def _notebook(job: Job, source: SourceText) -> list[_Found]:
    from claude_migrate.core.source import SourceText
    from claude_migrate.notebook.document import load, not_python
    from claude_migrate.notebook.module import CellModule

    notebook = load(source.text)
    if not_python(notebook) is not None:
        return []
    module = CellModule.build(notebook)
    starts = module.part_starts()
    if not module.parts or starts is None:
        return []
    ctx = _python_context(job, SourceText(module.text))
    return _python_found(ctx, lambda line: module.locate(line, starts))


def _config(job: Job, source: SourceText) -> list[_Found]:
    from claude_migrate.configs.processor import ConfigContext
    from claude_migrate.policy.model_ids import recognise

    ctx = ConfigContext(job.display, job.path, source, job.settings)
    catalogue = ctx.facts.catalogue
    if job.kind == "manifest":
        from claude_migrate.configs.scalars import manifest_values
        from claude_migrate.manifests import format_of

        if format_of(job.path) not in ("pyproject", "pipfile"):
            return []
        scalars = manifest_values(source)
    else:
        scalars = ctx.scalars
    found: list[_Found] = []
    for scalar in scalars:
        spelling = recognise(scalar.value, catalogue)
        if spelling is not None:
            line, column = source.position(scalar.start)
            found.append((line, column, None, scalar.value, "data", spelling))
    if ctx.errors:
        raise ValueError(ctx.errors[0].message)
    return found
