"""Compiled modules: files of the checked tree Python may run that are not source the tool reads.

A trusted gate (`check --trusted-config`) reads the tree's Python source. A pull request can also
commit code in a form the tool cannot read, which Python imports all the same
(https://docs.python.org/3/reference/import.html#path-entry-finders): an extension module
(`chat.so`, `chat.cpython-312-x86_64-linux-gnu.so`, `chat.pyd`), which Python's file finder
takes before a `chat.py` beside it; a bytecode file `chat.pyc` with no source beside it; a
`__pycache__/chat.cpython-312.pyc` whose header lets Python run it without compiling the
`chat.py` the tool read (PEP 552: an unchecked hash, or a recorded hash, time and size that
match the source); an archive of modules (a wheel, an egg, a zip application, a zip holding
modules) that Python imports from once it is on `sys.path`. `classify` says which names to
look at; `reason` reads a few bytes of one file (never runs, loads or unpacks it) and says why
it is code the gate did not check, or None when Python would not run it in place of source.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import stat
from pathlib import Path

COMPILED_KIND = "compiled"
# The rule that reports them (`checks/compiled_module.py`).
CODE = "CM003"
NAME = "compiled-module"

# `NAME.so`, `NAME.abi3.so`, `NAME.cpython-312-x86_64-linux-gnu.so`, `NAME.pyd`,
# `NAME.cp312-win_amd64.pyd`: Python's extension suffixes (importlib.machinery.EXTENSION_SUFFIXES
# on every platform) are the module's name, at most one tag, then `.so` or `.pyd`.
_EXTENSION = re.compile(r"([^.]+)(?:\.[^.]+)?\.(?:so|pyd)")
# `__pycache__/NAME.TAG.pyc` and `NAME.TAG.opt-1.pyc` (PEP 3147, PEP 488).
_CACHED = re.compile(r"([^.]+)\.[^.]+(?:\.opt-[12])?\.pyc")
_ARCHIVES = (".whl", ".egg", ".pyz", ".pyzw")
# A zip holding one of these is a place Python can import modules from (zipimport).
_MODULE_SUFFIXES = (".py", ".pyc", ".so", ".pyd")
# What is read of a file: the bytecode header (PEP 552), and at most this much of an extension
# module while looking for its initialisation function's name; a zip's listing is read only up
# to this size of file, a larger one is reported unlisted.
_HEADER = 16
_SCAN_LIMIT = 256 * 1024 * 1024
_ZIP_LIMIT = 64 * 1024 * 1024
_CHUNK = 1024 * 1024
# An extension module exports `PyInit_NAME` (`PyInitU_...` for a non-ASCII name), the function
# Python calls to load it (https://docs.python.org/3/extending/building.html): a shared library
# without one is not a module Python can import.
_INIT = b"PyInit"


def classify(path: Path) -> str | None:
    """Return COMPILED_KIND for a file name Python may import code from, else None."""
    name = path.name
    if name.endswith(_ARCHIVES) or name.endswith((".zip", ".pyc")):
        return COMPILED_KIND
    return COMPILED_KIND if _EXTENSION.fullmatch(name) else None


def _open(path: Path) -> int | None:
    """Return a descriptor for a regular file (links followed, as Python's import does)."""
    try:
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError):
        return None
    try:
        if stat.S_ISREG(os.fstat(handle).st_mode):
            return handle
    except OSError:
        pass
    os.close(handle)
    return None


def _head(path: Path, size: int) -> bytes | None:
    handle = _open(path)
    if handle is None:
        return None
    try:
        return os.read(handle, size)
    except OSError:
        return None
    finally:
        os.close(handle)


def _holds(path: Path, needle: bytes) -> bool | None:
    """Return whether the file's first `_SCAN_LIMIT` bytes hold `needle` (None: unreadable)."""
    handle = _open(path)
    if handle is None:
        return None
    tail = b""
    read = 0
    try:
        while read < _SCAN_LIMIT:
            chunk = os.read(handle, _CHUNK)
            if not chunk:
                return False
            if needle in tail + chunk:
                return True
            tail = chunk[-len(needle) :]
            read += len(chunk)
    except OSError:
        return None
    finally:
        os.close(handle)
    return True  # too large to read through: taken for what its name says


def _shadowed(folder: Path, stem: str) -> bool:
    """Return whether Python's file finder takes source before `stem`'s bytecode in `folder`."""
    return (folder / f"{stem}.py").is_file() or (folder / stem / "__init__.py").is_file()


def _extension(path: Path, stem: str) -> str | None:
    if not stem.isidentifier() or not _holds(path, _INIT):
        return None
    beside = " (before the source beside it)" if (path.parent / f"{stem}.py").exists() else ""
    return (
        f"an extension module Python imports as `{stem}`{beside}: compiled code the gate cannot "
        "read, so its Claude calls are not checked"
    )


def _is_bytecode(head: bytes | None) -> bool:
    return head is not None and len(head) >= _HEADER and head[2:4] == b"\r\n"


def _sourceless(path: Path, stem: str) -> str | None:
    if not stem.isidentifier() or _shadowed(path.parent, stem):
        return None
    if not _is_bytecode(_head(path, _HEADER)):
        return None
    return (
        f"bytecode with no source beside it, which Python imports as `{stem}`: the gate cannot "
        "read it, so its Claude calls are not checked"
    )


def _cached(path: Path, stem: str) -> str | None:
    """Say why a `__pycache__` file runs in place of its source, or None when Python would
    compile the source instead (a stale or malformed header, no source: the file is ignored)."""
    source = path.parent.parent / f"{stem}.py"
    head = _head(path, _HEADER)
    if not _is_bytecode(head) or not source.is_file():
        return None
    assert head is not None
    flags = int.from_bytes(head[4:8], "little")
    how: str | None
    if flags == 0b01:
        how = "its header says to run it without checking the source"
    elif flags == 0b11:
        how = _hash_match(head, source)
    elif flags == 0:
        how = _time_match(head, source)
    else:
        return None  # Python refuses the file (invalid flags) and compiles the source
    if how is None:
        return None
    return (
        f"bytecode Python may run in place of `{source.name}`: {how}; the gate read the "
        "source, not this code"
    )


def _hash_match(head: bytes, source: Path) -> str | None:
    if head[:4] != importlib.util.MAGIC_NUMBER:
        return "its header records a source hash for another Python version, not verified here"
    try:
        data = source.read_bytes()
    except OSError:
        return None
    if importlib.util.source_hash(data) != head[8:16]:
        return None
    return "its header records the source's hash"


def _time_match(head: bytes, source: Path) -> str | None:
    try:
        info = source.stat()
    except OSError:
        return None
    mtime = int.from_bytes(head[8:12], "little")
    size = int.from_bytes(head[12:16], "little")
    if (int(info.st_mtime) & 0xFFFFFFFF, info.st_size & 0xFFFFFFFF) != (mtime, size):
        return None
    return "its header records the source's time and size"


def _zip_modules(path: Path) -> str | None:
    """Return a module a zip holds (None: none, or not a zip)."""
    import zipfile  # only where a zip is met

    try:
        if path.stat().st_size > _ZIP_LIMIT:
            return "(too large to list)"
        with zipfile.ZipFile(path) as archive:
            for name in archive.namelist():
                if name.endswith(_MODULE_SUFFIXES):
                    return name
    except (OSError, ValueError, EOFError, NotImplementedError, RuntimeError, zipfile.BadZipFile):
        return None
    return None


def _archive(path: Path) -> str | None:
    if path.name.endswith(_ARCHIVES):
        return (
            "an archive of Python code (a wheel, an egg or a zip application) the gate does "
            "not read inside, so its Claude calls are not checked"
        )
    module = _zip_modules(path)
    if module is None:
        return None
    return (
        f"a zip holding Python modules ({module}), which Python imports from once the zip is "
        "on `sys.path`: the gate does not read inside it, so their Claude calls are not checked"
    )


def reason(path: Path) -> str | None:
    """Return why a file `classify` named is code the gate did not check, or None when Python
    would not run it in place of source the tool reads."""
    name = path.name
    if name.endswith(_ARCHIVES) or name.endswith(".zip"):
        return _archive(path)
    if name.endswith(".pyc"):
        if path.parent.name == "__pycache__":
            cached = _CACHED.fullmatch(name)
            return _cached(path, cached.group(1)) if cached else None
        return _sourceless(path, name[: -len(".pyc")])
    extension = _EXTENSION.fullmatch(name)
    return _extension(path, extension.group(1)) if extension else None


def content_digest(path: Path) -> str:
    """Return a short hash of the file's bytes: a baseline accepts this content only."""
    digest = hashlib.sha256()
    handle = _open(path)
    if handle is None:
        return ""
    try:
        while chunk := os.read(handle, _CHUNK):
            digest.update(chunk)
    except OSError:
        return ""
    finally:
        os.close(handle)
    return digest.hexdigest()[:16]
