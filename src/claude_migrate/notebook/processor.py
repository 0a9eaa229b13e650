"""Check (and fix) one notebook: the engine's processor for the `"notebook"` kind.

The same stages as a Python file, over the module of its code cells (`module.CellModule`): parse
once with LibCST, run the Python checks and the suppression stage, settle fixes with the shared
fix loop. Findings then move from module lines to (cell, line within the cell). A fix is written
only when every fixed cell still compiles, the module splits back into the same cells with their
IPython lines intact, and the spliced JSON reads back as the same notebook with only those
sources changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from claude_migrate.core.atomic import WriteRefused, replace_file
from claude_migrate.core.diagnostics import Diagnostic, FileError, FileResult
from claude_migrate.core.source import SourceText, python_identifiers
from claude_migrate.core.suppress import skips_text
from claude_migrate.engine.checking import analyse
from claude_migrate.engine.fixer import not_written, settle
from claude_migrate.notebook.document import (
    Notebook,
    NotebookError,
    language_disagrees,
    load,
    not_python,
    python_superset,
    with_sources,
)
from claude_migrate.notebook.module import CellModule

if TYPE_CHECKING:
    from claude_migrate.checks.base import Check
    from claude_migrate.core.job import Job, Options
    from claude_migrate.engine.kinds import PythonPath


def process_notebook(
    job: Job, data: bytes | None, options: Options, result: FileResult, python: PythonPath
) -> None:
    """Check one notebook into `result`; fix it when `options` say so.

    `python` is the engine's Python path (checks, parse, syntax errors), handed in so that this
    module imports nothing from the engine.
    """
    try:
        notebook = load(job.text if job.text is not None else (data or b""))
    except NotebookError as exc:
        result.errors.append(FileError(job.display, str(exc), exc.line, exc.column, cell=exc.cell))
        return
    reason = not_python(notebook)
    if reason is not None:
        result.skipped = reason
        return
    result.note = language_disagrees(notebook)
    module = CellModule.build(notebook)
    # A Coconut cell that is not Python is Coconut, not a mistake: it is left out quietly.
    quiet = python_superset(notebook) is not None
    for problem in module.problems:
        if problem.is_error and not quiet:
            result.errors.append(
                FileError(
                    job.display, problem.message, problem.line, problem.column, cell=problem.cell
                )
            )
    if not module.parts:
        return
    skipped = skips_text(module.text.encode("utf-8", "surrogatepass"))
    if skipped and not job.settings.list_suppressed:
        return
    _check(job, notebook, module, options, result, python)


def _check(
    job: Job,
    notebook: Notebook,
    module: CellModule,
    options: Options,
    result: FileResult,
    python: PythonPath,
) -> None:
    checks = python.checks(job.settings, job.kind)
    source = SourceText(module.text)
    text = python_identifiers(source.text)
    if text is not source.text:
        # `import ａnthropic` imports `anthropic`: checked as Python reads it, never rewritten.
        why = "identifiers written in compatibility forms (NFKC), checked as Python reads them"
        source = SourceText(text, lossy=why)
    starts = module.part_starts()
    assert starts is not None  # the module was just built with its boundaries
    try:
        tree = python.parse(source.text)
    except Exception as exc:
        error = python.syntax_error(exc, source.text)
        result.errors.append(_error_in_cell(replace(error, path=job.display), module, starts))
        return
    result.parsed = True
    diagnostics, errors = _run_checks(job, module, source, tree, checks)
    result.errors.extend(_error_in_cell(e, module, starts) for e in errors)
    final = source.text
    if options.fix:
        diagnostics, final = _fix(
            job, notebook, module, source, diagnostics, options, result, python
        )
    final_starts = module.part_starts(final) or starts
    result.diagnostics = [_in_cell(d, module, final_starts) for d in diagnostics]


def _fix(
    job: Job,
    notebook: Notebook,
    module: CellModule,
    source: SourceText,
    diagnostics: list[Diagnostic],
    options: Options,
    result: FileResult,
    python: PythonPath,
) -> tuple[list[Diagnostic], str]:
    """Settle the module's fixes and write the notebook; return the findings left and the text."""
    checks = python.checks(job.settings, job.kind)

    def parse(text: str) -> Any:
        if module.split(text) is None:
            raise ValueError("the fix touches a cell boundary or an IPython line")
        if not module.parts_compile(text):
            raise SyntaxError("a fixed cell does not compile")
        return python.parse(text)

    def recheck(text: str, tree: Any) -> tuple[list[Diagnostic], list[FileError]]:
        return _run_checks(job, module, SourceText(text), tree, checks)

    settled = settle(source.text, diagnostics, unsafe=options.unsafe, parse=parse, recheck=recheck)
    starts = module.part_starts(settled.text) or module.part_starts() or [1]
    for error in settled.errors:
        mapped = _error_in_cell(error, module, starts)
        if mapped not in result.errors:
            result.errors.append(mapped)
    if settled.text == source.text:
        return settled.left, source.text
    sources = module.split(settled.text)
    problem: str | None = None
    new_text = notebook.text
    if sources is None:  # pragma: no cover - `parse` refused every such text
        problem = "the fixed cells cannot be told apart"
    else:
        try:
            new_text = with_sources(notebook, sources)
        except ValueError as exc:
            problem = str(exc)
    if problem is None and source.lossy is not None:
        problem = source.lossy
    if problem is None and options.write and job.text is None:
        problem = _write(job, notebook, new_text, options.force_write)
        if problem is None:
            result.written = True
    if problem is not None:
        result.errors.append(FileError(job.display, f"fix not written: {problem}"))
        return not_written(diagnostics, options.unsafe), source.text
    original_starts = module.part_starts() or [1]
    result.applied.extend(_in_cell(d, module, original_starts) for d in settled.applied)
    result.fixed.extend(d.code for d in settled.applied)
    if options.keep_text:
        result.original_text = notebook.text
        result.fixed_text = new_text
    return settled.left, settled.text


def _run_checks(
    job: Job, module: CellModule, source: SourceText, tree: Any, checks: Sequence[Check[Any]]
) -> tuple[list[Diagnostic], list[FileError]]:
    """Run the checks and the suppression stage over the module, as for a Python file."""
    from claude_migrate.analysis.context import FileContext

    ctx = FileContext(
        job.display, source, tree, job.settings, file_path=job.path, project=job.project
    )
    starts = module.part_starts(source.text)
    if starts is not None:

        def label(line: int) -> str:
            cell, within = module.locate(line, starts)
            return f"{within} (cell {cell})"

        def place(line: int) -> str:
            cell, within = module.locate(line, starts)
            return f"cell {cell}:{within}"

        ctx.line_labels = label
        ctx.place_labels = place
    return analyse(ctx, checks, job.display)


def _write(job: Job, notebook: Notebook, text: str, force_write: bool = False) -> str | None:
    """Write the fixed notebook if the file still holds what was read; return what went wrong.

    Through the same `replace_file` as source files: the changed-on-disk check right before the
    rename, mode, owner and links kept or the write refused, read-only files left alone.
    """
    try:
        original = notebook.source.to_bytes()
        replace_file(job.path, original, notebook.source.to_bytes(text), force_write=force_write)
    except WriteRefused as exc:
        return str(exc)
    except UnicodeEncodeError as exc:
        return f"the fixed notebook cannot be encoded as UTF-8: {exc.reason}"
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    return None


def _in_cell(d: Diagnostic, module: CellModule, starts: list[int]) -> Diagnostic:
    """Return a finding placed at its cell and the line within that cell."""
    cell, line = module.locate(d.line, starts)
    end_cell, end_line = module.locate(d.end_line, starts)
    column = d.column + module.shift(d.line, starts)
    if end_cell != cell:  # never across cells: end where the cell ends its line
        end_line, end_column = line, column + 1
    else:
        end_column = d.end_column + module.shift(d.end_line, starts)
    placed = [_related_in_cell(r, d.path, module, starts) for r in d.related]
    return replace(
        d,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        cell=cell,
        related=tuple(place for place, _ in placed),
        related_cells=tuple(n for _, n in placed) if placed else (),
    )


def _related_in_cell(
    place: tuple[str, int, str], path: str, module: CellModule, starts: list[int]
) -> tuple[tuple[str, int, str], int]:
    """Return a related place of the same notebook at its line within its cell, the cell named
    in its message, and that cell (0 for a place in another file)."""
    if place[0] != path:
        return place, 0
    cell, line = module.locate(place[1], starts)
    return (place[0], line, f"{place[2]} (cell {cell})"), cell


def _error_in_cell(error: FileError, module: CellModule, starts: list[int]) -> FileError:
    if error.line is None:
        return error
    cell, line = module.locate(error.line, starts)
    column = error.column
    if column is not None:
        column += module.shift(error.line, starts)
    return replace(error, line=line, column=column, cell=cell)
