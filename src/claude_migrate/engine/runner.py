"""Run the checks over one file; run many files, in parallel when it pays.

Per file: read the bytes, skip it on the text prefilter (no parse when no marker a check needs is
present), decode, parse once, run every enabled check over one shared `FileContext`, drop
suppressed findings and, when fixing, apply fixes until nothing changes. Whatever goes wrong with
one file (unreadable, undecodable, unparseable, a check crashing, LibCST's RecursionError) becomes
that file's CM001 entry; the run goes on.
"""

from __future__ import annotations

import ast
import functools
import gc
import os
import re
import signal
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

from claude_migrate.checks import ALL_CHECKS, Check
from claude_migrate.configs import CONFIG_KIND
from claude_migrate.core.atomic import WriteRefused, replace_file
from claude_migrate.core.deadline import OverTime, deadline
from claude_migrate.core.diagnostics import Diagnostic, FileError, FileResult
from claude_migrate.core.job import MIB, Job, Limits, Options  # fmt: skip
from claude_migrate.core.project_view import ProjectView
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import (
    DecodeError,
    SourceText,
    as_notebook_reads,
    as_python_reads,
    python_identifiers,
    read_regular,
    refused_cookie,
)
from claude_migrate.core.suppress import skips_file
from claude_migrate.engine.cache import ResultCache, lookup, storable, unchanged
from claude_migrate.engine.checking import analyse, run_checks
from claude_migrate.engine.fixer import MAX_FIX_ROUNDS, not_written, settle
from claude_migrate.engine.hazard import MAX_IN_PROCESS_BYTES, needs_isolation
from claude_migrate.engine.kinds import FileKind
from claude_migrate.engine.pool import (
    CRASHED,
    Crash,
    WorkerStartError,
    held_signals,
    recursion_headroom,
    run_in_workers,
)
from claude_migrate.manifests import MANIFEST_KIND
from claude_migrate.notebook import CHECKED_AS, NOTEBOOK_KIND
from claude_migrate.project.phase import attach_project
from claude_migrate.project.records import records
from claude_migrate.project.triage import (
    Sites,
    Wanted,
    candidate,
    enabled,
    parse_for_triage,
    read_sites,
)
from claude_migrate.targets import MARKERS as CLAUDE_MARKERS

if TYPE_CHECKING:
    import libcst as cst  # imported where a file is parsed: most runs never need it

__all__ = [
    "MAX_FIX_ROUNDS",
    "Job",
    "Limits",
    "Options",
    "WorkerStartError",
    "fix_file",
    "process",
    "run",
    "run_checks",
]

Parsed = TypeVar("Parsed")
# Below this many files that need parsing, a process pool costs more than it saves.
PARALLEL_MIN_FILES = 12
CHUNK_FILES = 8
# At most this many bytes read by the prefilter are kept for the parse (beyond, a file is read
# again when its turn comes), so a one-process run over a huge tree stays small.
KEEP_READ_BYTES = 64 * MIB


@cache
def _named_files() -> frozenset[str]:
    return frozenset(name for check in ALL_CHECKS for name in check.file_names)


def file_role(path: str) -> str:
    """Return the file's name when a check reads files of that name (`setup.py`), else ""."""
    name = os.path.basename(path)
    return name if name in _named_files() else ""


@cache
def checks_for(settings: FileSettings, kind: str, role: str = "") -> tuple[Check[Any], ...]:
    """Return the enabled checks for a kind of file (and a `file_role`), built once per policy."""
    kind = CHECKED_AS.get(kind, kind)
    return tuple(
        check(settings.table(check.name))
        for check in ALL_CHECKS
        if settings.enabled(check.code)
        and (kind in check.kinds or (role and role in check.file_names))
    )


@cache
def markers_for(
    settings: FileSettings, kind: str, role: str = ""
) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Return the markers one of which a file must contain for any enabled check to fire.

    The first tuple is matched exactly, the second against the lowercased file (checks with
    `markers_ignore_case`, such as package names in dependency files).
    """
    exact: list[bytes] = []
    folded: list[bytes] = []
    for check in checks_for(settings, kind, role):
        into = folded if check.markers_ignore_case else exact
        for marker in check.markers_for(check.settings):
            marker = marker.lower() if check.markers_ignore_case else marker
            if marker not in into:
                into.append(marker)
    return tuple(exact), tuple(folded)


@cache
def stages_for(
    settings: FileSettings, kind: str, role: str = ""
) -> tuple[tuple[tuple[bytes, ...], bool, tuple[bytes, ...]], ...]:
    """Return, per enabled check, (its markers, whether they ignore case, its confirmations)."""
    stages = []
    for check in checks_for(settings, kind, role):
        folds = check.markers_ignore_case
        own = tuple(m.lower() if folds else m for m in check.markers_for(check.settings))
        confirms = tuple(c.lower() for c in check.confirms_for(check.settings))
        stages.append((own, folds, confirms))
    return tuple(stages)


def wanted_for(
    settings: FileSettings, kind: str, role: str = "", data: bytes | None = None
) -> Wanted | None:
    """Return what the enabled checks look for in a module's `ast`; None when one cannot say.

    With the file's bytes, only the checks whose own markers (and confirmations) the bytes
    hold count: a check the prefilter rules out for this file has nothing to look for in it.
    """
    checks = checks_for(settings, kind, role)
    if data is not None:
        checks = _passing(checks, stages_for(settings, kind, role), data)
    return _wanted_of(checks, settings)


def _passing(
    checks: tuple[Check[Any], ...],
    stages: tuple[tuple[tuple[bytes, ...], bool, tuple[bytes, ...]], ...],
    data: bytes,
) -> tuple[Check[Any], ...]:
    """Return the checks whose markers and confirmations `data` holds (the prefilter's test)."""
    lowered: bytes | None = None
    kept = []
    for check, (own, folds, confirms) in zip(checks, stages, strict=True):
        if (folds or confirms) and lowered is None:
            lowered = data.lower()
        text = lowered if folds and lowered is not None else data
        if not any(m in text for m in own):
            continue
        if not confirms or (lowered is not None and any(c in lowered for c in confirms)):
            kept.append(check)
    return tuple(kept)


@cache
def _wanted_of(checks: tuple[Check[Any], ...], settings: FileSettings) -> Wanted | None:
    merged = Wanted()
    for check in checks:
        wanted = check.wanted(settings)
        if wanted is None:
            return None
        merged = merged | wanted
    return merged


def exported_names(job: Job) -> frozenset[str]:
    """Return the names through which a module may reach Claude in code outside it.

    The project phase's view of the module (`ProjectView`: the module-level clients and the
    wrapper functions and methods the modules it imports give, `_view_exports`) and the
    functions the policy declares as call sites (`[[call-sites]]`). A call of one of them, by
    any alias, makes the module a candidate of the triage.
    """
    declared = frozenset(name.decode() for name in _declared(job.settings))
    if job.project is None:
        return declared
    return declared | _view_exports(job.project)


_EXPORTS: dict[str, frozenset[str]] = {}


def _reaches(view: ProjectView, module: object, qual: str) -> bool:
    """Return whether the view says a function passes what it is given on to a Claude call."""
    entry = view.modules.get(str(module), {}).get("functions", {}).get(qual, {})
    return _runs_requests(entry)


def _handed_methods(entry: dict[str, Any]) -> list[str]:
    """Return a function's parameters its callers give an SDK client's method, which it calls
    (`with_retry(client.messages.create, **request)`)."""
    clients = entry.get("param_clients", {})
    return [str(name) for name, held in clients.items() if isinstance(held, list)]


def _runs_requests(entry: dict[str, Any]) -> bool:
    """Return whether a call of a function is a site: its parameters reach a Claude call, or
    it calls an SDK method its callers hand it."""
    return bool(entry.get("reaches") or entry.get("forwards") or _handed_methods(entry))


def _may_run_a_request(view: ProjectView, plain: object) -> bool:
    """Return whether calling a module-level name a view gives may be a site of its own: a
    wrapper function, a class whose `__init__` is one or that subclasses an SDK client, an
    object whose `__call__` is one; any other kind but a constant, to be safe."""
    if not isinstance(plain, (list, tuple)) or not plain:
        return True
    kind = plain[0]
    if kind == "const":
        return False
    if kind == "func" and len(plain) == 3:
        return _reaches(view, plain[1], str(plain[2]))
    if kind == "class" and len(plain) == 3:
        held = view.modules.get(str(plain[1]), {}).get("classes", {}).get(str(plain[2]), {})
        return bool(held.get("client_base")) or _reaches(view, plain[1], f"{plain[2]}.__init__")
    if kind == "obj" and len(plain) == 3:
        return _reaches(view, plain[1], f"{plain[2]}.__call__")
    return True


def _same_library_name(name: object, plain: object) -> bool:
    """Return whether a module's name is a library's class or function it re-exports under the
    library's own name (`from ._client import Anthropic`): a call of it is what the checks' own
    callee names already find in a file, so it makes no file a candidate. Under another name
    (`Claude = anthropic.Anthropic`, `ask = litellm.completion`) only the view can tell."""
    return (
        isinstance(plain, (list, tuple))
        and len(plain) == 2
        and plain[0] == "ref"
        and str(plain[1]).rpartition(".")[2] == name
    )


def _view_exports(view: ProjectView) -> frozenset[str]:
    """Return every name a project view says may lead to a Claude call (by its digest, once).

    A call is a site of its own only where it runs a Claude call with what it is given: a
    wrapper, whose facts say where its parameters reach (`reaches`, `forwards`; the rules'
    `_wrapper_site` asks the same), a function calling the SDK method its callers hand it, or
    a subclass of an SDK client being made. A factory, a
    function whose parameter holds a client or an object, and a class holding a client make
    no request when called: a request made with what they return is a call of a Claude method
    (`messages.create`), a wanted callee of its own. Their names are left out, or every file
    that calls a helper of the SDK's (`copy()`, `to_dict()`) would be parsed by LibCST.
    """
    found = _EXPORTS.get(view.digest)
    if found is None:
        names: set[str] = set()
        for facts in view.modules.values():
            for qual, entry in facts.get("functions", {}).items():
                # A parameter its callers give an SDK client's method: its call (`fn(...)`) is
                # the request.
                names.update(_handed_methods(entry))
                if _runs_requests(entry):
                    names.update(str(qual).split("."))  # `Class.method`: the class, the method
            names.update(
                str(name)
                for name, held in facts.get("classes", {}).items()
                if held.get("client_base")
            )
            names.update(
                str(name)
                for name, plain in facts.get("names", {}).items()
                if _may_run_a_request(view, plain) and not _same_library_name(name, plain)
            )
        if len(_EXPORTS) > 4096:
            _EXPORTS.clear()
        found = _EXPORTS[view.digest] = frozenset(names)
    return found


def triaged_out(job: Job, text: str, data: bytes | None = None) -> bool:
    """Return whether the ast triage proves the module holds nothing an enabled check reads.

    A module Python cannot parse is not triaged: LibCST's parse then words the CM001 entry.
    """
    return _triage(job, text, data)[0]


def _triage(
    job: Job, text: str, data: bytes | None, sites: Sites | None = None
) -> tuple[bool, bool | None]:
    """Return (whether the triage rejects the module, whether Python parses it, if it tried).

    `sites` is what the project phase read of the same text, when it parsed the module: the
    module is then not parsed again.
    """
    if job.kind != "python" or not enabled():
        return False, None
    own = job.project.modules.get(job.project.module, {}) if job.project is not None else {}
    if "read_by" in own or "defaults_read_by" in own:
        return False, None  # its constants or defaults are read by Claude calls of other modules
    data = text.encode("utf-8", "surrogatepass") if data is None else as_read(job.kind, data)
    # A file the project phase or a declared call site makes relevant is parsed whatever its
    # markers (`_verdict`): every enabled check then counts, not only those whose markers it has.
    forced = (job.project is not None and job.project.relevant) or any(
        name in data for name in _declared(job.settings)
    )
    wanted = wanted_for(job.settings, job.kind, file_role(job.path), None if forced else data)
    if wanted is None:
        return False, None
    if sites is None:
        tree = parse_for_triage(text)
        if tree is None:
            return False, False
        sites = read_sites(tree, text)
    return not candidate(sites, text, wanted, exported_names(job)), True


def settle_without_libcst(
    job: Job, data: bytes, verdict: int, phase: tuple[str, Sites] | None = None
) -> FileResult | bool:
    """Return the result of a Python file that CPython's parser alone decides.

    A file whose markers no enabled check reads (SYNTAX_ONLY) and that compiles, or one the
    triage rejects, has nothing to report and nothing to fix: the result is the one `process`
    would give, found in this process without LibCST and without the file-shape measure that
    guards LibCST's parse (CPython's parser answers pathological nesting with an exception,
    never a crash). Otherwise the file goes on to `process`: True when the triage found a
    candidate site in it (so it need not be asked again), False when nothing was decided.
    `phase` is the text the project phase parsed and what the triage reads of it: used only
    when it is the text decoded here (a coding cookie may make them differ).
    """
    if job.kind != "python" or job.text is not None or verdict == SKIP:
        return False
    result = FileResult(path=job.display)
    try:
        source = read_source(job, data, result, is_python=True)
        if source is None:
            return result  # skipped by its comment, or undecodable (CM001): as `process` says
        if verdict == SYNTAX_ONLY:
            return result if _compiles(source.text) else False
        sites = phase[1] if phase is not None and phase[0] == source.text else None
        rejected, parsed = _triage(job, source.text, data, sites)
    except (RecursionError, MemoryError):
        return False  # `process` words these
    if rejected:
        return result
    return parsed is True


# What the prefilter decides about a file's bytes.
SKIP = 0  # no marker: nothing to report, the file is done
SYNTAX_ONLY = 1  # names Claude, but nothing an enabled check reads: only CM001 can come out
PARSE = 2  # may hold a finding: parse it with LibCST and run the checks


def prefilter(
    data: bytes, settings: FileSettings, kind: str, path: str = "", unnamed: bool = False
) -> int:
    """Return SKIP, SYNTAX_ONLY or PARSE for a file's bytes (the cheap tests before any parse).

    Stage one: the file holds a marker of the call-site registry (one `in` per marker over the
    raw bytes, which decides nearly every file of an ordinary tree). Stage two, for the few
    left: some enabled check finds both its marker and one of its confirmations (the names of
    the parameter it reads, from the registry; matched ignoring case), else no finding can come
    out of the file. Such a Python file that names Claude (`calls.MARKERS`) is still decoded
    and compiled by CPython's parser, ten times faster than LibCST, so a Claude file Python
    cannot read or parse is still reported (CM001); one that only LibCST rejects is not, since
    no enabled rule needs its tree. A file whose only markers are a rule's generic ones (CM106's
    `digest(`, which every hashing module of an ordinary tree holds) is skipped like a file
    without a marker: no rule can report on it, and it is no Claude code to vouch for.

    `unnamed`: `data` is known to hold none of `targets.MARKERS` (the project phase looked for
    them in the same bytes), so they are not looked for again.
    """
    role = file_role(path)
    exact, folded = markers_for(settings, kind, role)
    if unnamed:
        exact = _beyond_claude_names(exact)
    lowered: bytes | None = None
    if not any(marker in data for marker in exact):
        if not folded:
            return SKIP
        lowered = data.lower()
        if not any(marker in lowered for marker in folded):
            return SKIP
    for own, folds, confirms in stages_for(settings, kind, role):
        if (folds or confirms) and lowered is None:
            lowered = data.lower()
        text = lowered if folds and lowered is not None else data
        if not any(m in text for m in own):
            continue
        if not confirms or (lowered is not None and any(c in lowered for c in confirms)):
            return PARSE
    if kind != "python":
        return PARSE
    if unnamed:
        return SKIP
    return SYNTAX_ONLY if any(marker in data for marker in CLAUDE_MARKERS) else SKIP


@cache
def _beyond_claude_names(markers: tuple[bytes, ...]) -> tuple[bytes, ...]:
    return tuple(marker for marker in markers if marker not in CLAUDE_MARKERS)


def as_read(kind: str, data: bytes) -> bytes:
    """Return the bytes the text tests read of a file: its text as Python (or JSON) reads it.

    A coding cookie, an identifier in a compatibility form or a JSON escape would otherwise
    hide a name from a byte search that the program still holds (`source.as_python_reads`).
    """
    if kind == "python":
        return as_python_reads(data)
    if kind == NOTEBOOK_KIND:
        return as_notebook_reads(data)
    return data


def _verdict(job: Job, data: bytes, read: bytes | None = None, unnamed: bool = False) -> int:
    """Return the prefilter's verdict, parsing a file the project phase found a use for.

    `read`: the file's bytes as Python reads them (`as_read`), when already known; `unnamed`:
    the project phase found none of `targets.MARKERS` in those bytes.
    """
    data = as_read(job.kind, data) if read is None else read
    if unnamed and read is not None:
        verdict = prefilter(data, job.settings, job.kind, job.path, unnamed=True)
    else:
        verdict = prefilter(data, job.settings, job.kind, job.path)
    if verdict != PARSE and job.project is not None and job.project.relevant:
        return PARSE
    if (
        verdict != PARSE
        and job.kind == "python"
        and any(name in data for name in _declared(job.settings))
    ):
        return PARSE
    return verdict


@cache
def _declared(settings: FileSettings) -> tuple[bytes, ...]:
    """Return the names of the functions the policy declares as call sites (`[[call-sites]]`)."""
    sites = settings.table("call-sites").get("sites", ())
    return tuple(str(dict(site)["function"]).rsplit(".", 1)[-1].encode() for site in sites)


def passes_prefilter(data: bytes, settings: FileSettings, kind: str, path: str = "") -> bool:
    """Return whether the file may hold a finding, so that LibCST has to parse it."""
    return prefilter(data, settings, kind, path) == PARSE


def _compiles(text: str) -> bool:
    """Return whether CPython's own parser accepts `text` (no LibCST involved)."""

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _parse(text: str) -> cst.Module:
    import libcst as cst

    return cst.parse_module(text)


def _python_syntax_error(error: SyntaxError) -> FileError:
    # Python's message often is, or starts with, "invalid syntax": say it once.
    detail = error.msg or "invalid syntax"
    message = detail if detail.startswith("invalid syntax") else f"invalid syntax: {detail}"
    return FileError("", message, error.lineno, error.offset)


def _refused_deep_file(text: str) -> FileError | None:
    """Return Python's error for a deeply nested file CPython refuses, before LibCST sees it.

    CPython answers pathological nesting with a `SyntaxError` ("too many nested parentheses");
    LibCST's native parser may abort the process on the same text (engine/hazard.py), which
    would be reported as a crash instead of the file's real fault.
    """
    if not needs_isolation(text.encode("utf-8", "surrogatepass")):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        return _python_syntax_error(error)
    except (ValueError, RecursionError, MemoryError):
        return None
    return None


def _syntax_error(exc: Exception, text: str) -> FileError:
    """Return the CM001 entry for a file LibCST cannot parse, in Python's own words if it can."""

    import libcst as cst

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except SyntaxError as error:
        return _python_syntax_error(error)
    except (ValueError, RecursionError, MemoryError):
        tree = None
    if tree is not None:
        known = _libcst_limit(tree)
        if known is not None:
            construct, line, column = known
            return FileError("", f"{LIBCST_LIMIT}: {construct}", line, column)
    if isinstance(exc, cst.ParserSyntaxError):
        detail = re.sub(r"^(parser error: )?error at \d+:\d+: ", "", exc.message)
        prefix = LIBCST_LIMIT if tree is not None else "LibCST cannot parse this file"
        return FileError("", f"{prefix}: {detail}", exc.raw_line, exc.raw_column + 1)
    return FileError("", f"cannot parse: {type(exc).__name__}: {exc}")


# Said when Python's own parser accepts a file that LibCST rejects: the file is valid, the
# tool cannot read it. No rule that needs LibCST runs on it (every Python rule does today).
LIBCST_LIMIT = (
    "Python accepts this file but LibCST, the parser the rules need, does not (a LibCST limit;"
    " the file's calls are not checked)"
)


def _libcst_limit(tree: ast.Module) -> tuple[str, int, int] | None:
    """Return the first construct LibCST is known not to parse: a description, line, column.

    Known from LibCST 1.x's grammar: an annotated assignment whose target is in parentheses,
    `(x): int = 1`, which Python allows (and marks `simple = 0`).
    """
    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign):
            target = node.target
            parenthesised = (node.lineno, node.col_offset) < (target.lineno, target.col_offset)
            if parenthesised:
                shown = ast.unparse(target)
                return (
                    f"the annotated assignment target `({shown})` is in parentheses"
                    f" (LibCST reads only `{shown}: ...`)",
                    node.lineno,
                    node.col_offset + 1,
                )
    return None


def _run_checks(
    job: Job, source: SourceText, module: cst.Module, checks: Sequence[Check[Any]]
) -> tuple[list[Diagnostic], list[FileError]]:
    from claude_migrate.analysis.context import FileContext

    ctx = FileContext(
        job.display, source, module, job.settings, file_path=job.path, project=job.project
    )
    return analyse(ctx, checks, job.display)


def read_source(
    job: Job, data: bytes | None, result: FileResult, is_python: bool
) -> SourceText | None:
    """Return a job's decoded text, or None when the file is skipped or undecodable (CM001)."""
    if job.text is not None:
        # An editor's text: Python reads the file it saves by its coding cookie, and one
        # Python refuses (`# coding: klingon`) makes the file one Python cannot run.
        refused = refused_cookie(job.text) if is_python else None
        if refused is not None:
            result.errors.append(FileError(job.display, str(refused), refused.line))
            return None
        source = SourceText(job.text)
    else:
        assert data is not None
        if skips_file(data) and not job.settings.list_suppressed:
            return None  # (a trusted gate checks it, and lists what the comment hides)
        try:
            source = SourceText.from_bytes(data, is_python=is_python)
        except DecodeError as exc:
            result.errors.append(FileError(job.display, str(exc), exc.line))
            return None
    return as_python_sees(source) if is_python else source


def as_python_sees(source: SourceText) -> SourceText:
    """Return the source with its identifiers in the NFKC form Python reads them as.

    `import ａnthropic` (a fullwidth letter) imports `anthropic`: the checks read the name
    Python binds. Such a file is checked as normalised and never rewritten (`lossy`): writing
    the normalised text back would change bytes outside the fixes.
    """
    text = python_identifiers(source.text)
    if text is source.text:
        return source
    why = "identifiers written in compatibility forms (NFKC), checked as Python reads them"
    return replace(source, text=text, lossy=source.lossy or why, _line_starts=None)


def _process_python(
    job: Job, data: bytes | None, options: Options, result: FileResult, syntax_only: bool = False
) -> None:
    source = read_source(job, data, result, is_python=True)
    if source is None:
        return
    if syntax_only and _compiles(source.text):
        return  # nothing to find, and it parses: LibCST is not needed (else it words the error)
    compiles: bool | None = None
    if job.triaged:
        compiles = True  # the triage parsed this text with `ast`
    elif not syntax_only:
        rejected, compiles = _triage(job, source.text, data)
        if rejected:
            return  # no candidate site for any enabled check: the same, decided by `ast`
    checks = checks_for(job.settings, job.kind, file_role(job.path))
    # Only a text CPython already refused is measured again: the measure is not free.
    refused = _refused_deep_file(source.text) if compiles is False else None
    if refused is not None:
        result.errors.append(replace(refused, path=job.display))
        return
    try:
        module = _parse(source.text)
    except Exception as exc:
        error = _syntax_error(exc, source.text)
        result.errors.append(replace(error, path=job.display))
        return
    result.parsed = True
    diagnostics, errors = _run_checks(job, source, module, checks)
    result.errors.extend(errors)
    if options.fix:
        diagnostics = _fix_loop(job, source, data, checks, diagnostics, options, result, compiles)
    result.diagnostics = diagnostics


def _fix_loop(
    job: Job,
    source: SourceText,
    data: bytes | None,
    checks: Sequence[Check[Any]],
    diagnostics: list[Diagnostic],
    options: Options,
    result: FileResult,
    compiles: bool | None = None,
) -> list[Diagnostic]:
    """Apply a Python file's fixes until none applies; return what is left."""

    def recheck(text: str, module: cst.Module) -> tuple[list[Diagnostic], list[FileError]]:
        return _run_checks(job, SourceText(text, source.encoding, source.bom), module, checks)

    parse = _python_parser(source.text, compiles)
    return fix_file(job, source, data, diagnostics, options, result, parse=parse, recheck=recheck)


def _python_parser(original: str, compiles: bool | None = None) -> Callable[[str], cst.Module]:
    """Return the validity test of a fixed Python file: it must parse as the original did.

    LibCST must parse it; and when the running Python compiles the original, Python must
    compile the fixed text too (LibCST's grammar is looser in places, and the file is code).
    `compiles` is whether Python parses the original, when the triage found out already.
    """
    compiles_original: list[bool] = [] if compiles is None else [compiles]

    def parse(text: str) -> cst.Module:
        module = _parse(text)
        if not compiles_original:
            compiles_original.append(_compiles(original))
        if compiles_original[0] and not _compiles(text):
            raise SyntaxError("the fixed text does not compile")
        return module

    return parse


def fix_file(
    job: Job,
    source: SourceText,
    data: bytes | None,
    diagnostics: list[Diagnostic],
    options: Options,
    result: FileResult,
    *,
    parse: Callable[[str], Parsed],
    recheck: Callable[[str, Parsed], tuple[list[Diagnostic], list[FileError]]],
) -> list[Diagnostic]:
    """Settle one file's fixes and write the result atomically; return the findings left.

    The one path every kind of file's fixes go through (a dependency-file processor calls it
    too): `parse(text)` raises when `text` is not a valid file of its kind, and the fix that made
    it so is refused; `recheck(text, parsed)` runs the checks again. `data` is the file's bytes
    as read (None for stdin): the file is written only if it still holds them. A file that
    cannot be written keeps every finding, with the reason, and gets a CM001 error.
    """
    settled = settle(source.text, diagnostics, unsafe=options.unsafe, parse=parse, recheck=recheck)
    result.errors.extend(e for e in settled.errors if e not in result.errors)
    if settled.text == source.text:
        return settled.left
    if source.lossy is not None and job.text is None:
        # Checked before anything is written or shown: the bytes around the fixes would change.
        result.errors.append(FileError(job.display, f"fix not written: {source.lossy}"))
        return not_written(diagnostics, options.unsafe)
    if options.write and job.text is None:
        problem = _write_fixed(job, source, data, settled.text, options.force_write)
        if problem is not None:
            result.errors.append(FileError(job.display, f"fix not written: {problem}"))
            return not_written(diagnostics, options.unsafe)
        result.written = True
    result.applied.extend(settled.applied)
    result.fixed.extend(d.code for d in settled.applied)
    if options.keep_text:
        result.original_text = source.text
        result.fixed_text = settled.text
    return settled.left


def fix_loop(
    job: Job,
    source: SourceText,
    diagnostics: list[Diagnostic],
    options: Options,
    result: FileResult,
    analyse: Callable[[SourceText], tuple[list[Diagnostic], list[FileError]]],
    parses: Callable[[str], bool],
    data: bytes | None = None,
) -> list[Diagnostic]:
    """`fix_file` for callers that test validity with a predicate and re-check a `SourceText`."""

    def parse(text: str) -> None:
        if not parses(text):
            raise ValueError("the fixed text does not parse")

    def recheck(text: str, parsed: None) -> tuple[list[Diagnostic], list[FileError]]:
        return analyse(SourceText(text, source.encoding, source.bom))

    return fix_file(job, source, data, diagnostics, options, result, parse=parse, recheck=recheck)


def _write_fixed(
    job: Job, source: SourceText, data: bytes | None, text: str, force_write: bool = False
) -> str | None:
    """Write the fixed text in the file's own encoding; return what went wrong, if anything."""
    try:
        encoded = source.to_bytes(text)
    except UnicodeEncodeError as exc:
        return f"the fixed text cannot be encoded as {source.encoding}: {exc.reason}"
    if data is None:
        data = source.to_bytes()
    # Ctrl-C and SIGTERM wait for the rename: a run stopped early leaves each file original or
    # fixed and no temporary file behind (a worker told to stop dies right after the write).
    with held_signals(signal.SIGINT, signal.SIGTERM):
        try:
            replace_file(job.path, data, encoded, force_write=force_write)
        except WriteRefused as exc:
            return str(exc)
        except OSError as exc:
            return f"cannot write: {exc.strerror or exc}"
    return None


def skipped(job: Job, data: bytes) -> FileResult:
    """Return the result of a file the prefilter skips: nothing, unless its kind says otherwise."""
    result = FileResult(path=job.display)
    if job.kind == MANIFEST_KIND:
        from claude_migrate.manifests.processor import skipped_file_errors

        result.errors.extend(skipped_file_errors(job, data))
    return result


def process(job: Job, options: Options, data: bytes | None = None) -> FileResult:
    """Check (and maybe fix) one file; never raises.

    `data` is the file's bytes when the caller has read them already (the run's prefilter): the
    file is read once, and those bytes are what the triage, both parsers and the fix see.
    """
    result = FileResult(path=job.display)
    try:
        if job.text is None:
            if data is None:
                try:
                    data = read_regular(job.path)
                except OSError as exc:
                    message = f"cannot read: {exc.strerror or exc}"
                    result.errors.append(FileError(job.display, message))
                    return result
            verdict = _verdict(job, data)
            if verdict == SKIP:
                return skipped(job, data)
        else:
            data = None
            verdict = PARSE
        if job.kind == "python":
            _process_python(job, data, options, result, syntax_only=verdict == SYNTAX_ONLY)
        else:
            process_other(job, data, options, result)
        result.diagnostics = with_policy_severity(result.diagnostics, job.settings)
    except RecursionError:
        result.errors.append(
            FileError(job.display, "the file nests too deeply to analyse (RecursionError)")
        )
    except MemoryError:
        result.errors.append(FileError(job.display, _out_of_memory()))
    except Exception as exc:
        import traceback  # only for an internal error

        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        result.errors.append(FileError(job.display, f"internal error: {last}"))
    return result


def _out_of_memory() -> str:
    from claude_migrate.engine import pool

    if pool.MEMORY_LIMIT is not None:
        return (
            f"the file needs more than the per-file memory limit of {pool.MEMORY_LIMIT // MIB} MiB"
            " (--file-memory)"
        )
    return "ran out of memory analysing this file"


def with_policy_severity(found: list[Diagnostic], settings: FileSettings) -> list[Diagnostic]:
    """Return the findings with the severity the policy's `[severity]` table gives their rule."""
    if not settings.severities:
        return found
    return [
        d
        if (level := settings.severity_of(d.code, d.severity)) is d.severity
        else replace(d, severity=level)
        for d in found
    ]


# Other kinds of files (dependency manifests) register a processor here.
PROCESSORS: dict[str, Callable[[Job, bytes | None, Options, FileResult], None]] = {}


def _process_manifest(job: Job, data: bytes | None, options: Options, result: FileResult) -> None:
    from claude_migrate.manifests.processor import KIND

    process_kind(KIND, job, data, options, result)


def process_kind(
    kind: FileKind, job: Job, data: bytes | None, options: Options, result: FileResult
) -> None:
    """Check (and when asked, fix) one file of a text kind other than Python."""
    source = read_source(job, data, result, is_python=False)
    if source is None:
        return
    checks = checks_for(job.settings, job.kind, file_role(job.path))
    diagnostics, errors = kind.analyse(job, source, checks)
    result.parsed = True
    result.errors.extend(errors)
    if options.fix:
        diagnostics = fix_loop(
            job,
            source,
            diagnostics,
            options,
            result,
            analyse=lambda fixed: kind.analyse(job, fixed, checks),
            parses=kind.validator(job, source, checks, errors),
        )
    result.diagnostics = diagnostics


PROCESSORS[MANIFEST_KIND] = _process_manifest


def _process_config(job: Job, data: bytes | None, options: Options, result: FileResult) -> None:
    from claude_migrate.configs.processor import KIND

    process_kind(KIND, job, data, options, result)


PROCESSORS[CONFIG_KIND] = _process_config


class _PythonPath:
    """The Python path's stages as `filekind.PythonPath`, looked up when called (tests patch)."""

    def checks(self, settings: FileSettings, kind: str) -> Sequence[Check[Any]]:
        return checks_for(settings, kind)

    def parse(self, text: str) -> object:
        return _parse(text)

    def syntax_error(self, exc: Exception, text: str) -> FileError:
        return _syntax_error(exc, text)


def _process_notebook(job: Job, data: bytes | None, options: Options, result: FileResult) -> None:
    from claude_migrate.notebook.processor import process_notebook

    process_notebook(job, data, options, result, _PythonPath())


PROCESSORS[NOTEBOOK_KIND] = _process_notebook


def process_other(job: Job, data: bytes | None, options: Options, result: FileResult) -> None:
    processor = PROCESSORS.get(job.kind)
    if processor is not None:
        processor(job, data, options, result)


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


@dataclass
class _RunState:
    """What the main process has decided of a run's files so far, by job index."""

    jobs: list[Job]
    options: Options
    workers: int
    on_result: Callable[[FileResult], None] | None
    cache: ResultCache | None
    results: list[FileResult | None]
    # Files that need a parse (LibCST), in order.
    heavy: list[int] = field(default_factory=list)
    # Deep or huge: parsed in a worker even on a one-process run.
    hazardous: set[int] = field(default_factory=set)
    # Processed from the bytes keyed, not from a second read.
    shared: set[int] = field(default_factory=set)
    # The bytes read here, handed to process() when it runs in this process (one read a file).
    read: dict[int, bytes] = field(default_factory=dict)
    kept: int = 0
    keys: dict[int, tuple[str, bytes]] = field(default_factory=dict)

    def measuring(self) -> bool:
        """Whether the run may still stay in this process (few files, or --jobs 1)."""
        return self.workers <= 1 or len(self.heavy) < PARALLEL_MIN_FILES

    def done(self, i: int, result: FileResult) -> None:
        self.results[i] = result
        if self.on_result:
            self.on_result(result)


def run(
    jobs: Sequence[Job],
    options: Options,
    workers: int | None = None,
    on_result: Callable[[FileResult], None] | None = None,
    cache: ResultCache | None = None,
) -> list[FileResult]:
    """Process every job; results come back in the order of `jobs`.

    With a `cache`, a file that passes the prefilter is answered from its entry when there is
    one, and its fresh result is stored otherwise (see `cache.py`).
    """
    reads: dict[str, bytes] = {}
    # The same files' bytes as Python reads them, which the phase computed for its own scans.
    seen: dict[str, bytes] = {}
    # What the project phase read of each module it parsed: the triage then needs no parse.
    read_by_phase: dict[str, tuple[str, Sites]] = {}
    # The files of a run naming Claude nowhere, whose bytes in `seen` the phase looked at.
    unnamed: set[str] = set()
    # The phase makes no reference cycles, and its heap (trees, summaries, views) is large and
    # mostly lives on through the run: the cyclic collector is off while the phase runs, and
    # what the phase leaves is then set aside (`gc.freeze`), so that the file phase's passes
    # never scan it again (7% of a cold run's CPU on the SDK's source). What a run froze is
    # given back when the next run in the same process starts (a language server's), not at
    # its end: handing a large heap back just before the process exits costs more than the
    # whole run of one small file.
    global _FROZE
    if _FROZE:
        gc.unfreeze()
        _FROZE = False
    collecting = gc.isenabled()
    gc.disable()
    try:
        attached = list(
            attach_project(
                jobs,
                cache,
                reads,
                read_by_phase,
                seconds=options.limits.seconds,
                wants_sites=_triage_reads(jobs, reads, seen),
                records_of=records,
                seen=seen,
                unnamed=unnamed,
            )
        )
    finally:
        if collecting:
            gc.freeze()
            _FROZE = True
            gc.enable()
    read = (reads, seen, read_by_phase, unnamed)
    return _run_attached(attached, options, workers, on_result, cache, read)


def _triage_reads(
    jobs: Sequence[Job], reads: dict[str, bytes], seen: dict[str, bytes]
) -> Callable[[str], bool]:
    """Return whether the triage will read a file, as far as its bytes tell (for the phase).

    The triage reads a Python file the prefilter sends to a parse; one it does not (a file
    naming Claude that no enabled check confirms) is triaged only if the project phase then
    finds a use for it, and is parsed by the triage itself in that rare case. Files given as
    text (stdin) are always read. `seen` holds what Python reads of the files the phase read
    (`phase.python_reads`), filled before the phase asks.
    """
    by_path = {job.path: job for job in jobs if job.kind == "python" and job.text is None}

    def wants(path: str) -> bool:
        job = by_path.get(path)
        data = reads.get(path)
        if job is None or data is None:
            return True
        read = seen.get(path) or as_read(job.kind, data)
        if any(name in read for name in _declared(job.settings)):
            return True
        return prefilter(read, job.settings, job.kind, job.path) == PARSE

    return wants


# Whether the last run froze what its project phase left (see `run`).
_FROZE = False


def _run_attached(
    attached: list[Job],
    options: Options,
    workers: int | None,
    on_result: Callable[[FileResult], None] | None,
    cache: ResultCache | None,
    read: tuple[dict[str, bytes], dict[str, bytes], dict[str, tuple[str, Sites]], set[str]],
) -> list[FileResult]:
    """Settle or parse the attached jobs. `read` is what the project phase read: each file's
    bytes, the same as Python reads them (`phase.python_reads`), the triage's sites, and the
    files of a run naming Claude nowhere (`attach_project`'s `unnamed`)."""
    state = _RunState(
        attached, options, workers or default_jobs(), on_result, cache, [None] * len(attached)
    )
    # Prefilter in this process: most files of a real tree never need a parse, and sending
    # them to a pool would cost more than reading them here.
    for i, job in enumerate(state.jobs):
        _decide_in_main(state, i, job, *read)
    _process_heavy(state)
    if cache is not None:
        _store_fresh(state, cache)
    return [r for r in state.results if r is not None]


def _decide_in_main(
    state: _RunState,
    i: int,
    job: Job,
    reads: dict[str, bytes],
    seen: dict[str, bytes],
    read_by_phase: dict[str, tuple[str, Sites]],
    unnamed: set[str],
) -> None:
    """Settle job `i` in this process when its bytes allow it, or queue it for a parse."""
    measuring = state.measuring()
    if job.text is not None:
        if measuring and needs_isolation(job.text.encode("utf-8", "surrogatepass")):
            state.hazardous.add(i)
        state.heavy.append(i)
        return
    # The project phase may have read the file already: its bytes are used, and what Python
    # reads of them when it computed that too.
    data = reads.pop(job.path, None)
    read = seen.pop(job.path, None) if data and job.kind == "python" else None
    try:
        data = data or read_regular(job.path)
    except OSError:
        state.heavy.append(i)  # let process() report it
        return
    verdict = _verdict(job, data, read, job.path in unnamed)
    if verdict == SKIP:
        state.done(i, skipped(job, data))
        return
    if state.cache is not None and _answer_from_cache(state, i, job, data):
        return
    if len(data) > MAX_IN_PROCESS_BYTES and job.kind == "python":
        # Even CPython's parse of a huge file costs this process gigabytes: a worker, with the
        # per-file limits, decides it.
        state.hazardous.add(i)
        state.heavy.append(i)
        return
    # Most files that pass the prefilter are decided here by CPython's parser (it
    # compiles, or holds no candidate site): no worker, no LibCST, no shape measure.
    try:
        with deadline(state.options.limits.seconds):
            settled = settle_without_libcst(job, data, verdict, read_by_phase.get(job.path))
    except OverTime:
        settled = False  # over the per-file time limit here: a worker's limit decides
        state.hazardous.add(i)
    if isinstance(settled, FileResult):
        state.shared.add(i)
        state.done(i, settled)
        return
    if settled:
        state.jobs[i] = replace(job, triaged=True)
    if measuring and needs_isolation(data):
        state.hazardous.add(i)
    if measuring and state.kept + len(data) <= KEEP_READ_BYTES:
        state.read[i] = data
        state.kept += len(data)
    state.heavy.append(i)


def process_in_main(job: Job, options: Options, data: bytes | None) -> FileResult:
    """Return `process`'s result for a file checked in this process, within the time limit.

    A file that runs past the per-file limit (`--file-timeout`) is reported as a worker's
    would be (CM001), and the run goes on.
    """
    seconds = options.limits.seconds
    try:
        with deadline(seconds):
            return process(job, options, data)
    except OverTime:
        result = FileResult(path=job.display)
        message = f"took longer than the per-file time limit of {seconds:g} s (--file-timeout)"
        result.errors.append(FileError(job.display, message))
        return result


def _answer_from_cache(state: _RunState, i: int, job: Job, data: bytes) -> bool:
    """Answer job `i` from the cache when it holds the file's entry; remember its key."""
    assert state.cache is not None
    options = state.options
    hit, key = lookup(
        state.cache, data, job.settings, job.kind, job.path, job.display,
        options.fix, options.unsafe,
        job.project.digest if job.project is not None else "",
    )  # fmt: skip
    state.keys[i] = (key, data)
    if hit is None:
        return False
    state.done(i, hit)
    return True


def _process_heavy(state: _RunState) -> None:
    """Parse the queued files: here when few (hazardous ones still isolated), else in a pool."""
    jobs, options, on_result = state.jobs, state.options, state.on_result
    if not state.measuring():
        items = [(i, jobs[i]) for i in state.heavy]
        for i, result in _run_pool(items, options, state.workers, on_result):
            state.results[i] = result
        return
    isolated = [(i, jobs[i]) for i in state.heavy if i in state.hazardous]
    for i in state.heavy:
        if i not in state.hazardous:
            if i in state.read:
                state.shared.add(i)
            state.done(i, process_in_main(jobs[i], options, state.read.get(i)))
    for i, result in _run_pool(isolated, options, 1, on_result):
        state.results[i] = result


def _store_fresh(state: _RunState, cache: ResultCache) -> None:
    """Store every fresh result whose file still holds the bytes it was keyed on."""
    for i, (key, keyed) in state.keys.items():
        fresh = state.results[i]
        # A worker read the file again: store only if it still holds the bytes keyed.
        if (
            fresh is not None
            and not fresh.from_cache
            and storable(fresh, state.options.fix)
            and (i in state.shared or unchanged(state.jobs[i].path, keyed))
        ):
            cache.store(key, fresh)
    cache.maybe_prune()


def _run_pool(
    items: Sequence[tuple[int, Job]],
    options: Options,
    workers: int,
    on_result: Callable[[FileResult], None] | None,
) -> Iterable[tuple[int, FileResult]]:
    """Process files in worker processes; a worker that dies costs only the file it was on.

    That file is reported as CM001 with what the dying worker's fault handler wrote (the fatal
    error and the innermost frame) or its exit status; every other file is processed.
    """
    size = max(1, min(CHUNK_FILES, len(items) // (workers * 4) or 1))
    jobs = dict(items)
    work = functools.partial(process, options=options)
    limits = options.limits
    outcomes = run_in_workers(work, items, workers, size, setup=worker_setup, limits=limits)
    for i, outcome in outcomes:
        if isinstance(outcome, Crash):
            display = jobs[i].display
            result = FileResult(path=display)
            result.errors.append(FileError(display, _crash_message(outcome, limits)))
        else:
            result = outcome
        if on_result:
            on_result(result)
        yield i, result


def worker_setup() -> None:
    """Prepare a worker before its first file: deep recursion allowed, LibCST loaded.

    Loading LibCST here keeps its import out of the first file's time limit and inside the
    worker's baseline, above which the memory limit counts.
    """
    recursion_headroom()
    import libcst  # noqa: F401

    from claude_migrate.analysis import context  # noqa: F401


def _crash_message(crash: Crash, limits: Limits) -> str:
    if crash.cause != CRASHED:
        return f"{crash.detail} (--file-timeout)"
    message = f"worker process crashed on this file: {crash.detail}"
    # Native code that cannot allocate aborts; the kernel's OOM killer sends SIGKILL.
    if limits.memory is not None and ("Aborted" in crash.detail or "SIGKILL" in crash.detail):
        message += (
            f" (it may have needed more than the per-file memory limit of"
            f" {limits.memory // MIB} MiB, --file-memory)"
        )
    return message
