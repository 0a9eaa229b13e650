"""`claude-migrate server`: a Language Server Protocol server over stdio, on pygls.

Editors see the same findings `check` prints, as they type, and apply the same fixes `fix`
writes. Nothing here is a second engine: a document is checked as `check -` checks standard
input (the same policy discovery, excludes, suppressions and rules, with the editor's text in
place of the file's), and its fixes come from the same fix loop (settled and parse-checked).

- Diagnostics on open, on change (debounced: a burst of keystrokes is checked once, and a result
  computed for an older version of the document is dropped, never published) and on save, for
  Python files and the dependency files the pins rule reads. Work runs in a thread, off the event
  loop; a crash while checking becomes one diagnostic on line 1, never a dead server.
- Code actions: a quick fix per finding (its own edits, parse-checked; unsafe ones say so in the
  title), `source.fixAll.claude-migrate` (what `fix` writes, safe fixes only), and "Suppress
  CMxxx on this line" (the project's `# noqa: CMxxx` comment).
- Hover on a finding: the rule's summary, its message and how to fix it.
- Policy files (`claude-migrate.toml`, `pyproject.toml`): their errors are diagnostics, with the
  messages the CLI prints. A change to a policy or a catalogue file re-checks the open documents.

Positions: the engine counts columns in code points; LSP counts UTF-16 code units. Both ways of
counting are converted here, line by line.
"""

from __future__ import annotations

import ast
import asyncio
import bisect
import json
import os
import re
import threading
import traceback
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from claude_migrate import __version__
from claude_migrate.analysis.edits import apply_edits
from claude_migrate.api import display_path
from claude_migrate.core.diagnostics import Applicability, Diagnostic, FileError, FileResult
from claude_migrate.core.errors import ConfigError
from claude_migrate.core.job import Job, Options
from claude_migrate.core.suppress import skips_text
from claude_migrate.discovery.collect import kind_of
from claude_migrate.engine.runner import run
from claude_migrate.lsp.framing import FramedInput
from claude_migrate.lsp.protocol import GuardedProtocol
from claude_migrate.notebook import NOTEBOOK_KIND
from claude_migrate.policy.catalogue import find_rule
from claude_migrate.policy.config import PolicyLoader, read_policy_table

SOURCE = "claude-migrate"
_NOQA_CODES = re.compile(r"#\s*noqa:\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*)", re.I)
FIX_ALL_KIND = f"{types.CodeActionKind.SourceFixAll.value}.{SOURCE}"
DEBOUNCE_SECONDS = 0.25
MIB = 1024 * 1024
# A document larger than this is not checked as one types (its text, its positions and the
# engine's work on it would cost gigabytes); the CLI checks it with its per-file limits.
MAX_DOCUMENT_CHARS = 8 * MIB
POLICY_NAMES = ("claude-migrate.toml", "pyproject.toml")
# Dependency files whose `anthropic` pin decides findings in Python files (CM107: an argument the
# pinned SDK removed); a change to one re-checks every open document.
DEPENDENCY_GLOBS = (
    "*requirements*.txt",
    "requirements/*.txt",
    "constraints*.txt",
    "*.in",
    "setup.cfg",
    "Pipfile",
    "*.lock",
)
_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}


# Positions ------------------------------------------------------------------------------------


class LineIndex:
    """Offsets, code-point columns and LSP (UTF-16) positions of one text, converted."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for index, char in enumerate(text):
            if char == "\n" or (char == "\r" and text[index + 1 : index + 2] != "\n"):
                self.starts.append(index + 1)

    def _line(self, line: int) -> str:
        start = self.starts[line]
        end = self.starts[line + 1] if line + 1 < len(self.starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")

    def position(self, offset: int) -> types.Position:
        """Return the LSP position of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.starts, offset) - 1
        prefix = self.text[self.starts[line] : offset]
        return types.Position(line=line, character=_utf16_length(prefix))

    def from_column(self, line: int, column: int) -> types.Position:
        """Return the LSP position of a 1-based line and 1-based code-point column."""
        index = max(0, min(line - 1, len(self.starts) - 1))
        text = self._line(index)
        return types.Position(line=index, character=_utf16_length(text[: max(0, column - 1)]))

    def offset(self, position: types.Position) -> int:
        """Return the character offset of an LSP position (clamped to the line)."""
        index = max(0, min(position.line, len(self.starts) - 1))
        text = self._line(index)
        units = 0
        for count, char in enumerate(text):
            if units >= position.character:
                return self.starts[index] + count
            units += 2 if ord(char) > 0xFFFF else 1
        return self.starts[index] + len(text)


def _utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


# Checking a document --------------------------------------------------------------------------


@dataclass
class Checked:
    """A document's result at one version, with what code actions and hover need."""

    uri: str
    version: int | None
    text: str
    kind: str
    result: FileResult
    index: LineIndex
    job: Job | None


def document_job(path: Path, text: str, loader: PolicyLoader, notebook: bool = False) -> Job | None:
    """Return the job that checks `text` as the file `path` (None: nothing to check there).

    `notebook`: `text` is the JSON of a notebook the editor syncs as a notebook document.
    """
    kind = kind_of(path)
    if kind is None or (kind == NOTEBOOK_KIND) != notebook:
        # A notebook is checked through notebook document sync, cell by cell; opened as plain
        # JSON text, its findings would land on the wrong lines, so it gets none.
        return None
    policy = loader.for_path(path)
    if policy.is_excluded(path):
        return None
    if kind == "python" and skips_text(text.encode("utf-8", "surrogatepass")):
        return None
    display = display_path(path, Path(os.getcwd()).resolve())
    return Job(
        path=str(path), display=display, kind=kind, settings=policy.settings_for(path), text=text
    )


def check_in_place(job: Job, options: Options) -> FileResult:
    """Return one document's result the way the CLI gets it for one file.

    Through the engine's run, not straight to the processor: a deep or huge document (one that
    could crash or stall LibCST) is parsed in an isolated worker with the per-file limits, so
    the server survives what `check` survives.
    """
    return run([job], options, workers=1)[0]


def too_large(path: Path, size: int) -> FileError | None:
    """Return the error of a document too large to check as one types, or None."""
    if size <= MAX_DOCUMENT_CHARS:
        return None
    return FileError(
        str(path),
        f"the document is too large to check in the editor ({size // MIB} MiB of text; the"
        f" language server checks up to {MAX_DOCUMENT_CHARS // MIB} MiB): run `claude-migrate"
        " check` on the file",
    )


def check_document(uri: str, version: int | None, text: str, loader: PolicyLoader) -> Checked:
    """Return the findings of one document; never raises (a crash is a finding on line 1)."""
    path = Path(to_fs_path(uri) or uri)
    result = FileResult(path=str(path))
    job: Job | None = None
    large = too_large(path, len(text))
    if large is not None:
        result.errors.append(large)
        return Checked(uri, version, "", "", result, LineIndex(""), None)
    index = LineIndex(text)
    try:
        job = document_job(path, text, loader)
        if job is not None:
            result = check_in_place(job, Options())
    except ConfigError as exc:
        result.errors.append(FileError(str(path), f"the policy for this file is invalid: {exc}"))
    except Exception as exc:  # the editor keeps a server; the user learns what failed
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        result.errors.append(
            FileError(str(path), f"claude-migrate could not check this file: {last}")
        )
    return Checked(uri, version, text, job.kind if job else "", result, index, job)


def fix_document(checked: Checked, unsafe: bool = False) -> str | None:
    """Return what `fix` makes of the document (None when it changes nothing)."""
    if checked.job is None:
        return None
    options = Options(fix=True, unsafe=unsafe, write=False, keep_text=True)
    fixed = check_in_place(checked.job, options)
    if fixed.fixed_text is None or fixed.fixed_text == checked.text:
        return None
    return fixed.fixed_text


# Notebooks ------------------------------------------------------------------------------------


@dataclass
class CheckedNotebook:
    """A notebook's result, split by cell: each cell is a text document of its own in LSP."""

    uri: str
    version: int
    cells: list[tuple[str, str]]  # (cell document URI, its text), in notebook order
    kinds: list[str]  # "code" or "markdown", as the notebook has them
    result: FileResult
    job: Job | None


def notebook_json(cells: Sequence[tuple[str, str]], kinds: Sequence[str], language: str) -> str:
    """Return the `.ipynb` JSON of an editor's notebook (sources only), as the engine reads it."""
    return json.dumps(
        {
            "cells": [
                {
                    "cell_type": "markdown" if kind == "markdown" else "code",
                    "metadata": {},
                    "source": text,
                    **({"execution_count": None, "outputs": []} if kind != "markdown" else {}),
                }
                for (_, text), kind in zip(cells, kinds, strict=True)
            ],
            "metadata": {"kernelspec": {"language": language, "name": language}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def check_notebook(
    uri: str,
    version: int,
    cells: Sequence[tuple[str, str]],
    kinds: Sequence[str],
    language: str,
    loader: PolicyLoader,
    fix: bool = False,
) -> CheckedNotebook:
    """Return a notebook's findings (or, with `fix`, its fixed sources); never raises."""
    path = Path(to_fs_path(uri) or uri)
    result = FileResult(path=str(path))
    job: Job | None = None
    large = too_large(path, sum(len(text) for _, text in cells))
    if large is not None:
        result.errors.append(large)
        return CheckedNotebook(uri, version, list(cells), list(kinds), result, None)
    try:
        job = document_job(path, notebook_json(cells, kinds, language), loader, notebook=True)
        if job is not None:
            options = Options(fix=True, write=False, keep_text=True) if fix else Options()
            result = check_in_place(job, options)
    except ConfigError as exc:
        result.errors.append(FileError(str(path), f"the policy for this file is invalid: {exc}"))
    except Exception as exc:
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        result.errors.append(FileError(str(path), f"claude-migrate could not check this: {last}"))
    return CheckedNotebook(uri, version, list(cells), list(kinds), result, job)


def notebook_diagnostics(checked: CheckedNotebook) -> dict[str, list[types.Diagnostic]]:
    """Return the LSP diagnostics of every cell of a checked notebook, by cell URI."""
    by_cell: dict[str, list[types.Diagnostic]] = {uri: [] for uri, _ in checked.cells}
    indexes = [LineIndex(text) for _, text in checked.cells]
    for error in checked.result.errors:
        number = (getattr(error, "cell", None) or 1) - 1
        if not 0 <= number < len(checked.cells):
            number = 0
        index = indexes[number]
        start = index.from_column(error.line or 1, error.column or 1)
        by_cell[checked.cells[number][0]].append(
            types.Diagnostic(
                range=types.Range(start=start, end=types.Position(start.line + 1, 0)),
                message=error.message,
                severity=types.DiagnosticSeverity.Error,
                code=error.code,
                source=SOURCE,
            )
        )
    for d in checked.result.diagnostics:
        number = (d.cell or 1) - 1
        if not 0 <= number < len(checked.cells):
            continue
        index = indexes[number]
        href = _rule_page_uri(d.code)
        by_cell[checked.cells[number][0]].append(
            types.Diagnostic(
                range=types.Range(
                    start=index.from_column(d.line, d.column),
                    end=index.from_column(d.end_line, d.end_column),
                ),
                message=d.message,
                severity=_severity(d),
                code=d.code,
                code_description=types.CodeDescription(href=href) if href else None,
                source=SOURCE,
            )
        )
    return by_cell


def notebook_fix_edits(checked: CheckedNotebook, fixed: FileResult) -> list[types.TextDocumentEdit]:
    """Return one edit per cell that `fix` changed (the fixed notebook JSON, split by cell)."""
    if fixed.fixed_text is None:
        return []
    try:
        cells = json.loads(fixed.fixed_text)["cells"]
    except (ValueError, KeyError, TypeError):
        return []
    edits = []
    for (uri, text), cell in zip(checked.cells, cells, strict=False):
        source = cell.get("source", "")
        new = "".join(source) if isinstance(source, list) else str(source)
        if new != text:
            edits.append(
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri),
                    edits=minimal_edits(LineIndex(text), new),
                )
            )
    return edits


def _parses(kind: str, text: str) -> bool:
    if kind != "python":
        return True
    try:
        ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def quick_fix_text(checked: Checked, diagnostic: Diagnostic) -> str | None:
    """Return the document with this one finding's fix applied, if it leaves valid code."""
    fix = diagnostic.fix
    if fix is None or fix.applicability is Applicability.DISPLAY_ONLY or not fix.edits:
        return None
    try:
        text = apply_edits(checked.text, fix.edits)
    except ValueError:
        return None
    return text if _parses(checked.kind, text) else None


def minimal_edits(index: LineIndex, new: str) -> list[types.TextEdit]:
    """Return one TextEdit that turns index.text into `new`, spanning only what differs."""
    old = index.text
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    # Never split a surrogate pair or a CRLF between the edit and the text around it.
    while start > 0 and (old[start - 1] == "\r" or old[start - 1 : start + 1] == "\r\n"):
        start -= 1
    rng = types.Range(start=index.position(start), end=index.position(end_old))
    return [types.TextEdit(range=rng, new_text=new[start:end_new])]


def _severity(d: Diagnostic) -> types.DiagnosticSeverity:
    return _SEVERITY.get(str(getattr(d, "severity", "error")), types.DiagnosticSeverity.Error)


def _rule_page_uri(code: str) -> str | None:
    rule = find_rule(code)
    if rule is None or not rule.page_path.is_file():
        return None
    uri: str | None = from_fs_path(str(rule.page_path))
    return uri


def to_lsp(checked: Checked) -> list[types.Diagnostic]:
    """Return the LSP diagnostics of a checked document."""
    index = checked.index
    out = []
    for error in checked.result.errors:
        line = error.line or 1
        start = index.from_column(line, error.column or 1)
        end = types.Position(line=start.line, character=_utf16_length(index._line(start.line)))
        out.append(
            types.Diagnostic(
                range=types.Range(start=start, end=end),
                message=error.message,
                severity=types.DiagnosticSeverity.Error,
                code=error.code,
                source=SOURCE,
            )
        )
    for number, d in enumerate(checked.result.diagnostics):
        href = _rule_page_uri(d.code)
        message = d.message
        if d.fix is not None and d.fix.applicability is not Applicability.DISPLAY_ONLY:
            message += f" [fix: {d.fix.description}]"
        out.append(
            types.Diagnostic(
                range=types.Range(
                    start=index.from_column(d.line, d.column),
                    end=index.from_column(d.end_line, d.end_column),
                ),
                message=message,
                severity=_severity(d),
                code=d.code,
                code_description=types.CodeDescription(href=href) if href else None,
                source=SOURCE,
                data={"index": number, "version": checked.version},
            )
        )
    return out


# Policy files --------------------------------------------------------------------------------


def _policy_problem(path: Path, problem: ConfigError) -> types.Diagnostic:
    """Return one policy mistake as a diagnostic on its line of `path`.

    A mistake in another file of the `extend` chain goes on line 1: its message names its file
    and line.
    """
    line = max(0, (problem.line or 1) - 1)
    try:
        elsewhere = Path(problem.path).resolve() != path.resolve()
    except (OSError, ValueError):
        elsewhere = True
    if elsewhere:
        line = 0
    message = f"`{problem.key}`: {problem.detail}" if problem.key else problem.detail
    if elsewhere:
        message = str(problem)
    return types.Diagnostic(
        range=types.Range(
            start=types.Position(line=line, character=0),
            end=types.Position(line=line + 1, character=0),
        ),
        message=message,
        severity=types.DiagnosticSeverity.Error,
        source=SOURCE,
    )


def policy_diagnostics(path: Path) -> list[types.Diagnostic]:
    """Return a policy file's errors as diagnostics (the messages `check` prints)."""
    try:
        if read_policy_table(path) is None:
            return []
        PolicyLoader(config=path)
    except ConfigError as exc:
        # One diagnostic per mistake: the loader reports them all at once (`problems`).
        return [_policy_problem(path, problem) for problem in exc.problems]
    except Exception as exc:  # a policy we cannot read at all is still one clear diagnostic
        return [
            types.Diagnostic(
                range=types.Range(start=types.Position(0, 0), end=types.Position(1, 0)),
                message=f"cannot read this policy: {exc}",
                severity=types.DiagnosticSeverity.Error,
                source=SOURCE,
            )
        ]
    return []


# The server ----------------------------------------------------------------------------------


class MigrateServer(LanguageServer):
    """The language server: documents, their last results, and the policy loader."""

    def __init__(self) -> None:
        super().__init__(
            SOURCE,
            __version__,
            notebook_document_sync=types.NotebookDocumentSyncOptions(
                notebook_selector=[
                    types.NotebookDocumentFilterWithCells(
                        notebook="jupyter-notebook",
                        cells=[types.NotebookCellLanguage(language="python")],
                    )
                ],
                save=True,
            ),
            protocol_cls=GuardedProtocol,
        )
        self.loader = PolicyLoader()
        self.results: dict[str, Checked] = {}
        self.notebooks: dict[str, CheckedNotebook] = {}
        self.pending: dict[str, asyncio.Task[None]] = {}
        self.lock = threading.Lock()  # one check at a time: the engine keeps per-process caches

    def reload_policies(self) -> None:
        self.loader = PolicyLoader()

    def notebook_state(self, uri: str) -> tuple[int, list[tuple[str, str]], list[str], str] | None:
        """Return (version, cells, cell kinds, language) of an open notebook."""
        notebook = self.workspace.get_notebook_document(notebook_uri=uri)
        if notebook is None:
            return None
        cells, kinds = [], []
        language = "python"
        for cell in notebook.cells:
            document = self.workspace.text_documents.get(cell.document)
            text = document.source if document is not None else ""
            cells.append((cell.document, text))
            markup = cell.kind == types.NotebookCellKind.Markup
            kinds.append("markdown" if markup else "code")
            if not markup and document is not None and document.language_id:
                language = document.language_id
        return notebook.version, cells, kinds, language

    def check_notebook_now(self, uri: str, fix: bool = False) -> CheckedNotebook | None:
        state = self.notebook_state(uri)
        if state is None:
            return None
        version, cells, kinds, language = state
        with self.lock:
            return check_notebook(uri, version, cells, kinds, language, self.loader, fix)

    async def refresh_notebook(self, uri: str, delay: float = 0.0) -> None:
        """Check a notebook and publish each cell's findings, unless it changed meanwhile."""
        if delay:
            await asyncio.sleep(delay)
        loop = asyncio.get_running_loop()
        checked = await loop.run_in_executor(None, self.check_notebook_now, uri)
        if checked is None:
            return
        state = self.notebook_state(uri)
        if state is None or state[0] != checked.version:
            return
        self.notebooks[uri] = checked
        for cell_uri, found in notebook_diagnostics(checked).items():
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell_uri, diagnostics=found)
            )

    def schedule_notebook(self, uri: str, delay: float = 0.0) -> None:
        previous = self.pending.pop(uri, None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = asyncio.ensure_future(self.refresh_notebook(uri, delay))
        self.pending[uri] = task

    def check_now(self, uri: str) -> Checked | None:
        document = self.workspace.get_text_document(uri)
        with self.lock:
            return check_document(uri, document.version, document.source, self.loader)

    async def refresh(self, uri: str, delay: float = 0.0) -> None:
        """Check a document (after `delay`) and publish, unless a newer version came first."""
        if delay:
            await asyncio.sleep(delay)
        path = Path(to_fs_path(uri) or uri)
        if path.name in POLICY_NAMES:
            found = await asyncio.get_running_loop().run_in_executor(None, policy_diagnostics, path)
            if path.name == "claude-migrate.toml" or found:
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(uri=uri, diagnostics=found)
                )
                return
        document = self.workspace.get_text_document(uri)
        version = document.version
        checked = await asyncio.get_running_loop().run_in_executor(None, self.check_now, uri)
        if checked is None:
            return
        current = self.workspace.text_documents.get(uri)
        if current is None or current.version != version or checked.version != version:
            return  # the document moved on (or closed) while it was checked: drop the result
        self.results[uri] = checked
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=to_lsp(checked))
        )

    def schedule(self, uri: str, delay: float = 0.0) -> None:
        previous = self.pending.pop(uri, None)
        if previous is not None and not previous.done():
            previous.cancel()
        task = asyncio.ensure_future(self.refresh(uri, delay))
        self.pending[uri] = task
        task.add_done_callback(_report_task_failure(self, uri))

    def recheck_all(self) -> None:
        # A policy or a dependency file changed on disk (or a module was saved): what was read
        # from them is read again, so a new `anthropic` pin decides as it would on the CLI.
        from claude_migrate.policy.facts import forget_project_files

        self.reload_policies()
        forget_project_files()
        in_notebooks: set[str] = set()
        for uri in list(self.workspace.notebook_documents):
            self.schedule_notebook(uri)
            state = self.notebook_state(uri)
            in_notebooks.update(cell for cell, _ in (state[1] if state else []))
        for uri in list(self.workspace.text_documents):
            if uri not in in_notebooks:
                self.schedule(uri)

    def in_notebook(self, uri: str) -> str | None:
        """Return the notebook URI a cell document belongs to (None for a plain document)."""
        notebook = self.workspace.get_notebook_document(cell_uri=uri)
        return notebook.uri if notebook is not None else None


def _report_task_failure(server: MigrateServer, uri: str) -> Any:
    def done(task: asyncio.Task[None]) -> None:
        if task.cancelled() or task.exception() is None:
            return
        error = task.exception()
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=[
                    types.Diagnostic(
                        range=types.Range(start=types.Position(0, 0), end=types.Position(1, 0)),
                        message=f"claude-migrate could not check this file: {error!r}",
                        severity=types.DiagnosticSeverity.Error,
                        source=SOURCE,
                    )
                ],
            )
        )

    return done


def _findings_at(checked: Checked, rng: types.Range) -> list[tuple[int, Diagnostic]]:
    start = checked.index.offset(rng.start)
    end = checked.index.offset(rng.end)
    found = []
    for number, d in enumerate(checked.result.diagnostics):
        d_start = checked.index.offset(checked.index.from_column(d.line, d.column))
        d_end = checked.index.offset(checked.index.from_column(d.end_line, d.end_column))
        if d_start <= end and start <= d_end:
            found.append((number, d))
    return found


def _workspace_edit(uri: str, version: int | None, edits: Sequence[types.TextEdit]) -> Any:
    return types.WorkspaceEdit(
        document_changes=[
            types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(
                    uri=uri, version=version
                ),
                edits=list(edits),
            )
        ]
    )


def _suppress_edit(checked: Checked, d: Diagnostic) -> types.TextEdit:
    """Return the edit that adds `# noqa: CODE` to the finding's first line (or to its list)."""
    line_index = d.line - 1
    line = checked.index._line(line_index)
    existing = None
    for match in _NOQA_CODES.finditer(line):
        existing = match
    if existing is not None and existing.group("codes"):
        at = _utf16_length(line[: existing.end("codes")])
        point = types.Position(line=line_index, character=at)
        return types.TextEdit(range=types.Range(start=point, end=point), new_text=f", {d.code}")
    stripped = line.rstrip()
    return types.TextEdit(
        range=types.Range(
            start=types.Position(line=line_index, character=_utf16_length(stripped)),
            end=types.Position(line=line_index, character=_utf16_length(line)),
        ),
        new_text=f"  # noqa: {d.code}",
    )


# Configuration formats where a suppression comment after a value is a comment (JSON has none,
# and `configparser` reads one after an `.ini` value as part of the value).
_NOQA_CONFIGS = ("yaml", "toml", "env")


def _takes_noqa(checked: Checked) -> bool:
    """Return whether a suppression comment may be added at the end of the document's lines."""
    if checked.kind == "python":
        return True
    if checked.kind != "config" or checked.job is None:
        return False
    from claude_migrate.configs import format_of

    return format_of(checked.job.path) in _NOQA_CONFIGS


def _kind_in(kind: str, wanted: object) -> bool:
    """Return whether a code action of `kind` is one the client asked for (`only`)."""
    # lsprotocol passes `only`'s entries through unchecked: one that is not text asks for nothing.
    return isinstance(wanted, str) and (kind == wanted or kind.startswith(wanted + "."))


def code_actions(
    checked: Checked, rng: types.Range, only: Iterable[str] | None = None
) -> list[types.CodeAction]:
    """Return the code actions for a range of a checked document."""
    wanted = list(only or [])

    def allowed(kind: str) -> bool:
        return not wanted or any(_kind_in(kind, w) for w in wanted)

    actions: list[types.CodeAction] = []
    if allowed(types.CodeActionKind.QuickFix.value):
        for _, d in _findings_at(checked, rng):
            fixed = quick_fix_text(checked, d)
            if fixed is not None and d.fix is not None:
                unsafe = d.fix.applicability is Applicability.UNSAFE
                title = f"{d.code}: {d.fix.description}" + (" (unsafe fix)" if unsafe else "")
                actions.append(
                    types.CodeAction(
                        title=title,
                        kind=types.CodeActionKind.QuickFix,
                        is_preferred=not unsafe,
                        edit=_workspace_edit(
                            checked.uri, checked.version, minimal_edits(checked.index, fixed)
                        ),
                    )
                )
        for _, d in _findings_at(checked, rng):
            if not _takes_noqa(checked):
                continue
            actions.append(
                types.CodeAction(
                    title=f"Suppress {d.code} on this line",
                    kind=types.CodeActionKind.QuickFix,
                    edit=_workspace_edit(
                        checked.uri, checked.version, [_suppress_edit(checked, d)]
                    ),
                )
            )
    if allowed(FIX_ALL_KIND) and checked.result.diagnostics:
        fixed = fix_document(checked)
        if fixed is not None:
            actions.append(
                types.CodeAction(
                    title="Fix all safe claude-migrate findings",
                    kind=FIX_ALL_KIND,
                    edit=_workspace_edit(
                        checked.uri, checked.version, minimal_edits(checked.index, fixed)
                    ),
                )
            )
    return actions


def notebook_actions(
    ls: MigrateServer, notebook_uri: str, cell_uri: str, params: types.CodeActionParams
) -> list[types.CodeAction]:
    """Return the code actions for a range of one notebook cell."""
    wanted = list(params.context.only or [])

    def allowed(kind: str) -> bool:
        return not wanted or any(_kind_in(kind, w) for w in wanted)

    checked = ls.check_notebook_now(notebook_uri)
    if checked is None:
        return []
    actions: list[types.CodeAction] = []
    number = next((i for i, (uri, _) in enumerate(checked.cells) if uri == cell_uri), None)
    if number is None:
        return []
    text = checked.cells[number][1]
    cell_doc = Checked(cell_uri, None, text, "python", FileResult(path=""), LineIndex(text), None)
    cell_doc.result.diagnostics = [d for d in checked.result.diagnostics if d.cell == number + 1]
    if allowed(types.CodeActionKind.QuickFix.value):
        for _, d in _findings_at(cell_doc, params.range):
            actions.append(
                types.CodeAction(
                    title=f"Suppress {d.code} on this line",
                    kind=types.CodeActionKind.QuickFix,
                    edit=_workspace_edit(cell_uri, None, [_suppress_edit(cell_doc, d)]),
                )
            )
    if allowed(FIX_ALL_KIND) and checked.result.diagnostics:
        fixed = ls.check_notebook_now(notebook_uri, fix=True)
        edits = notebook_fix_edits(checked, fixed.result) if fixed is not None else []
        if edits:
            actions.append(
                types.CodeAction(
                    title="Fix all safe claude-migrate findings",
                    kind=FIX_ALL_KIND,
                    edit=types.WorkspaceEdit(document_changes=list(edits)),
                )
            )
    return actions


def hover_text(checked: Checked, position: types.Position) -> str | None:
    """Return the Markdown shown when hovering a finding."""
    found = _findings_at(checked, types.Range(start=position, end=position))
    if not found:
        return None
    parts = []
    for _, d in found:
        rule = find_rule(d.code)
        summary = rule.summary if rule else d.rule
        how = "no automatic fix: see the rule's page"
        if d.fix is not None:
            how = f"{d.fix.applicability.value} fix: {d.fix.description}"
        parts.append(f"**{d.code} {d.rule}**: {summary}\n\n{d.message}\n\n*{how}*")
    return "\n\n---\n\n".join(parts)


def build_server() -> MigrateServer:
    """Return the server with every feature registered."""
    server = MigrateServer()
    _register_lifecycle(server)
    _register_text_documents(server)
    _register_notebooks(server)
    _register_answers(server)
    return server


def _register_lifecycle(server: MigrateServer) -> None:
    """Watch policy files once the client is ready, and recheck when they change."""

    @server.feature(types.INITIALIZED)
    async def initialized(ls: MigrateServer, params: types.InitializedParams) -> None:
        capabilities = ls.client_capabilities.workspace
        watched = capabilities.did_change_watched_files if capabilities else None
        if watched is not None and watched.dynamic_registration:
            watchers = [
                types.FileSystemWatcher(glob_pattern=f"**/{name}")
                for name in (*POLICY_NAMES, "*.toml", *DEPENDENCY_GLOBS)
            ]
            await ls.client_register_capability_async(
                types.RegistrationParams(
                    registrations=[
                        types.Registration(
                            id="claude-migrate-policy-files",
                            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=types.DidChangeWatchedFilesRegistrationOptions(
                                watchers=watchers
                            ),
                        )
                    ]
                )
            )

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched(ls: MigrateServer, params: types.DidChangeWatchedFilesParams) -> None:
        ls.recheck_all()


def _register_text_documents(server: MigrateServer) -> None:
    """Check a document when it opens, changes (debounced) and is saved; clear it on close."""

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: MigrateServer, params: types.DidOpenTextDocumentParams) -> None:
        if ls.in_notebook(params.text_document.uri) is None:
            ls.schedule(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: MigrateServer, params: types.DidChangeTextDocumentParams) -> None:
        if ls.in_notebook(params.text_document.uri) is None:
            ls.schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: MigrateServer, params: types.DidSaveTextDocumentParams) -> None:
        # A saved module can change what other open files resolve through it (an imported
        # client, a wrapper's default), and a saved policy what every file is checked against:
        # every open document is checked again, against what is now on disk.
        ls.recheck_all()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: MigrateServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.results.pop(uri, None)
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )


def _register_notebooks(server: MigrateServer) -> None:
    """Check a notebook's cells as one module when it opens, changes and is saved."""

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_open(ls: MigrateServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.schedule_notebook(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_change(ls: MigrateServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.schedule_notebook(params.notebook_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_save(ls: MigrateServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.schedule_notebook(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_close(ls: MigrateServer, params: types.DidCloseNotebookDocumentParams) -> None:
        uri = params.notebook_document.uri
        task = ls.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        ls.notebooks.pop(uri, None)
        for cell in params.cell_text_documents:
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=cell.uri, diagnostics=[])
            )


def _register_answers(server: MigrateServer) -> None:
    """Answer code-action and hover requests from the latest check."""

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND],
            resolve_provider=False,
        ),
    )
    async def code_action(
        ls: MigrateServer, params: types.CodeActionParams
    ) -> list[types.CodeAction] | None:
        uri = params.text_document.uri
        notebook = ls.in_notebook(uri)
        if notebook is not None:
            return await asyncio.get_running_loop().run_in_executor(
                None, notebook_actions, ls, notebook, uri, params
            )
        checked = ls.results.get(uri)
        document = ls.workspace.text_documents.get(uri)
        if document is None:
            return None
        if checked is None or checked.version != document.version:
            checked = await asyncio.get_running_loop().run_in_executor(None, ls.check_now, uri)
        if checked is None:
            return None
        return await asyncio.get_running_loop().run_in_executor(
            None, code_actions, checked, params.range, params.context.only
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: MigrateServer, params: types.HoverParams) -> types.Hover | None:
        checked = ls.results.get(params.text_document.uri)
        if checked is None:
            return None
        text = hover_text(checked, params.position)
        if text is None:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def serve() -> None:
    """Run the server over standard input and output until the client says exit.

    Its input is framed defensively (`framing.FramedInput`): a malformed or oversized message
    is dropped with a line on standard error, and the server reads on.
    """
    import sys

    framed = FramedInput(sys.stdin.buffer)
    build_server().start_io(stdin=framed)  # type: ignore[arg-type]
