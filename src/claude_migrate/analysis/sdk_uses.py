"""Where a project's Python code still uses what an `anthropic` SDK release removed.

CM201 asks this before calling a pin fix safe: raising `anthropic==0.28.0` to `==2.0.0` next to
code that calls `client.count_tokens()` or `completions.create(prompt=f"{HUMAN_PROMPT} ...")`
breaks that code, so such a fix is unsafe and names the uses. The search is bounded (files,
bytes, folders skipped) and reads only Python files that mention `anthropic`; it parses them
with LibCST and never runs them.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.policy.deprecations import SdkRemoval
else:
    cst = lazy_import("libcst")

MAX_FILES = 2000
MAX_BYTES = 1_000_000
SKIPPED_DIRS = frozenset(
    {"node_modules", "site-packages", "venv", "__pycache__", "build", "dist", "env"}
)
SHOWN = 3  # uses named in a message


def python_files(folder: str) -> Iterator[Path]:
    """Yield up to MAX_FILES Python files under `folder` (no hidden or environment folders,
    no symbolic links followed)."""
    return (Path(name) for name in python_file_names(folder))


def python_file_names(folder: str) -> Iterator[str]:
    """Yield the paths `python_files` yields, as strings, in the same order.

    Folders top-down, each one's files (sorted) before its sub-folders (sorted), as `os.walk`
    lists them; read with `os.scandir` alone, whose entries know their kind without a `stat`
    or a `Path` per file: a run answered from the cache lists the whole project this way.
    """
    count = 0
    pending = [str(Path(folder))]
    while pending:
        current = pending.pop()
        try:
            with os.scandir(current) as listing:
                entries = list(listing)
        except OSError:
            continue
        files: list[str] = []
        dirs: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                name = entry.name
                # `os.walk` lists a linked folder but never enters it.
                if not (name.startswith(".") or name in SKIPPED_DIRS or entry.is_symlink()):
                    dirs.append(name)
            elif entry.name.endswith(".py") and not entry.is_symlink():
                files.append(entry.name)
        for name in sorted(files):
            yield name if current == "." else os.path.join(current, name)
            count += 1
            if count >= MAX_FILES:
                return
        pending.extend(
            name if current == "." else os.path.join(current, name)
            for name in sorted(dirs, reverse=True)
        )


# Folders holding a project's requirement files apart from its code (`requirements/base.txt`,
# `requirements/production.txt`: pip's `-r` files, split per environment).
REQUIREMENTS_FOLDERS = frozenset({"requirements", "reqs", "requirements.d"})


def code_folder(folder: str) -> str:
    """Return the folder whose Python code a dependency file of `folder` installs: the folder
    itself, or its parent for a folder of requirement files."""
    folder = os.path.normpath(folder)
    if os.path.basename(folder).lower() in REQUIREMENTS_FOLDERS:
        return os.path.dirname(folder)
    return folder


def state(folder: str) -> str:
    """Return a digest of the Python files' names, sizes and times (the cache's key part)."""
    digest = hashlib.sha256()
    for path in python_file_names(folder):
        try:
            info = os.stat(path)
        except OSError:
            continue
        digest.update(f"{path}|{info.st_size}|{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def _context(path: Path, words: tuple[bytes, ...]) -> FileContext | None:
    """Return the file parsed by LibCST, or None when it cannot use any removal: it does not
    mention `anthropic`, or spells none of `words` (`_spelled_by_a_use`), in any case."""
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.core.source import SourceText

    try:
        if path.stat().st_size > MAX_BYTES:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"anthropic" not in data:
        return None
    lowered = data.lower()
    if not any(word in lowered for word in words):
        return None
    try:
        text = data.decode("utf-8")
        module = cst.parse_module(text)
    except Exception:  # noqa: BLE001 - an unreadable file shows no use
        return None
    return FileContext(str(path), SourceText(text), module, FileSettings(frozenset(), ()))


def _lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    """Yield the lines of the file that still use `removal`, by its kind."""
    finder = _FINDERS.get(removal.kind)
    if finder is not None:
        yield from finder(ctx, removal)


def _client_method_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    from claude_migrate.analysis.symbols import Instance
    from claude_migrate.targets import is_sdk_client_class

    for record in ctx.index.calls:
        func = record.node.func
        if not isinstance(func, cst.Attribute) or func.attr.value != removal.name:
            continue
        symbol = ctx.resolver.resolve(func, record.scope)
        if (
            isinstance(symbol, Instance)
            and is_sdk_client_class(symbol.cls)
            and symbol.path == (removal.name,)
        ):
            yield ctx.range(record.node).start.line


def _argument_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    from claude_migrate.targets import SDK

    for site in ctx.sites:
        path = site.target.key.removeprefix("sdk:")
        if site.family == SDK and path in removal.calls:
            entry = site.params.get(removal.name)
            if entry is not None:
                yield ctx.range(entry.holder).start.line


def _client_attribute_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    from claude_migrate.analysis.symbols import Instance
    from claude_migrate.targets import is_sdk_client_class

    parts = tuple(removal.name.split("."))
    for record in ctx.index.calls:
        symbol = ctx.resolver.resolve(record.node.func, record.scope)
        if (
            isinstance(symbol, Instance)
            and is_sdk_client_class(symbol.cls)
            and symbol.path[: len(parts)] == parts
        ):
            yield ctx.range(record.node).start.line


def _resource_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    from claude_migrate.targets import SDK

    for site in ctx.sites:
        if site.family == SDK and site.target.key.startswith(f"sdk:{removal.name}."):
            yield ctx.range(site.node).start.line


def _constructor_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    from claude_migrate.analysis.symbols import Qual

    for record in ctx.index.calls:
        symbol = ctx.resolver.resolve(record.node.func, record.scope)
        if isinstance(symbol, Qual) and symbol.name in removal.calls:
            yield ctx.range(record.node).start.line


def _constant_lines(ctx: FileContext, removal: SdkRemoval) -> Iterator[int]:
    word = re.compile(rf"\b{re.escape(removal.name)}\b")
    for number, line in enumerate(ctx.source.text.splitlines(), 1):
        if word.search(line.split("#", 1)[0]):
            yield number


_FINDERS: dict[str, Callable[[FileContext, SdkRemoval], Iterator[int]]] = {
    "client-method": _client_method_lines,
    "client-attribute": _client_attribute_lines,
    "argument": _argument_lines,
    "resource": _resource_lines,
    "constructor": _constructor_lines,
    "constant": _constant_lines,
}


@cache
def _spelled_by_a_use(removals: tuple[SdkRemoval, ...]) -> tuple[bytes, ...]:
    """Return words, lowercased, one of which every use of one of `removals` spells.

    A use of a client method, argument, resource or constant spells the removal's name (a
    dotted one, its first part: `beta` of `beta.prompt_caching`); a constructor call spells the
    last part of one of its qualified names (`MessageParam`, also when imported under an alias
    or through its module). A file spelling none of them, in any case, has no use to find.
    """
    words = {r.name.split(".")[0] for r in removals}
    words.update(call.rsplit(".", 1)[-1] for r in removals for call in r.calls)
    return tuple(sorted(w.lower().encode("utf-8", "surrogatepass") for w in words if w))


@cache
def _file_uses(path: str, mtime: int, removals: tuple[SdkRemoval, ...]) -> dict[str, list[int]]:
    ctx = _context(Path(path), _spelled_by_a_use(removals))
    if ctx is None:
        return {}
    return {r.name: sorted(set(_lines(ctx, r))) for r in removals}


def uses(folder: str, removals: Sequence[SdkRemoval]) -> dict[str, list[str]]:
    """Return, per removed name, where the Python files under `folder` still use it ("file:line",
    relative to `folder`)."""
    found: dict[str, list[str]] = {}
    for path in python_files(folder):
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            continue
        for name, lines in _file_uses(str(path), mtime, tuple(removals)).items():
            relative = path.relative_to(folder).as_posix()
            found.setdefault(name, []).extend(f"{relative}:{line}" for line in lines)
    return {name: places for name, places in found.items() if places}
