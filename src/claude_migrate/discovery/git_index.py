"""The paths a git index lists, read from the file itself when git cannot list them for us.

Where git is not installed (a slim container image) or refuses the repository (one another
user owns: "detected dubious ownership"), `git ls-files` says nothing, and a file git tracks
that the tree's own ignore file names would be skipped: a pull request could hide a file by
naming it in `.gitignore`. The index is plain data (https://git-scm.com/docs/index-format):
versions 2, 3 and 4, SHA-1 or SHA-256 names. A split index (`link`) or a sparse one (folders as
entries) lists only part of what is tracked; those, like anything unexpected, give None.
"""

from __future__ import annotations

import hashlib
import os
import struct
from pathlib import Path

from claude_migrate.core.source import read_regular

# Larger than the index of any repository this tool is run on (the Linux kernel's is ~10 MB).
INDEX_LIMIT = 512 * 1024 * 1024
_HEADER = struct.Struct(">4sII")
_STAT_BYTES = 40  # ctime, mtime (seconds, nanoseconds), dev, ino, mode, uid, gid, size
_MODE = struct.Struct(">I")
_FLAGS = struct.Struct(">H")
_EXTENDED = 0x4000
_NAME_MASK = 0x0FFF
_DIRECTORY = 0o040000
_PARTIAL_EXTENSIONS = (b"link", b"sdir")  # split index; sparse index
# Version 4 writes each name as what it keeps of the one before plus a suffix, so names can
# spell far more than the file holds: past this many times its size, the index is not read.
_NAMES_PER_INDEX_BYTE = 16


class _Malformed(Exception):
    pass


def index_path(root: Path) -> Path | None:
    """Return the index file of the work tree `root` (its `.git` folder or `gitdir:` file)."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git / "index"
    try:
        text = read_regular(dot_git, 4096).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not text.startswith("gitdir: "):
        return None
    return (root / text[len("gitdir: ") :].strip()) / "index"


def tracked_in_index(root: Path) -> frozenset[str] | None:
    """Return the paths the index of work tree `root` lists, or None when it cannot tell."""
    path = index_path(root)
    if path is None:
        return None
    try:
        data = read_regular(path, INDEX_LIMIT)
    except FileNotFoundError:
        return frozenset()  # a repository nothing was ever added to
    except OSError:
        return None
    for hash_bytes in _hash_sizes(data):
        try:
            return _paths(data, hash_bytes)
        except (_Malformed, struct.error, IndexError, ValueError):
            continue
    return None


def _hash_sizes(data: bytes) -> list[int]:
    """Return the object name sizes to try: the one whose checksum ends the file, else both."""
    for size, algorithm in ((20, hashlib.sha1), (32, hashlib.sha256)):
        if len(data) > size and algorithm(data[:-size]).digest() == data[-size:]:
            return [size]
    return [20, 32]  # `index.skipHash` writes a null checksum


def _paths(data: bytes, hash_bytes: int) -> frozenset[str] | None:
    signature, version, count = _HEADER.unpack_from(data, 0)
    if signature != b"DIRC" or version not in (2, 3, 4):
        raise _Malformed
    end = len(data) - hash_bytes
    if count > end:  # each entry takes far more than a byte
        raise _Malformed
    offset = _HEADER.size
    names: set[str] = set()
    previous = b""
    spelled, budget = 0, _NAMES_PER_INDEX_BYTE * len(data)
    for _ in range(count):
        start = offset
        (mode,) = _MODE.unpack_from(data, offset + 24)
        if mode & 0o170000 == _DIRECTORY:
            return None
        offset += _STAT_BYTES + hash_bytes
        (flags,) = _FLAGS.unpack_from(data, offset)
        offset += _FLAGS.size
        if flags & _EXTENDED:
            if version < 3:
                raise _Malformed
            offset += _FLAGS.size
        if version == 4:
            strip, offset = _varint(data, offset)
            if strip > len(previous):
                raise _Malformed
            stop = data.index(b"\0", offset, end)
            name = previous[: len(previous) - strip] + data[offset:stop]
            offset = stop + 1
        else:
            stop = data.index(b"\0", offset, end)
            name = data[offset:stop]
            offset = start + ((stop - start) // 8 + 1) * 8  # 1 to 8 NULs pad to 8 bytes
        length = flags & _NAME_MASK
        if length != min(len(name), _NAME_MASK) or offset > end:
            raise _Malformed
        spelled += len(name)
        if spelled > budget:
            return None
        names.add(os.fsdecode(name))
        previous = name
    if _partial(data, offset, end):
        return None
    return frozenset(names)


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    """Return git's offset encoding of a number at `offset`, and the offset after it."""
    byte = data[offset]
    offset += 1
    value = byte & 0x7F
    while byte & 0x80:
        if value > 1 << 32:
            raise _Malformed
        byte = data[offset]
        offset += 1
        value = ((value + 1) << 7) | (byte & 0x7F)
    return value, offset


def _partial(data: bytes, offset: int, end: int) -> bool:
    """Return whether an extension after the entries says they are not all that is tracked."""
    while offset + 8 <= end:
        signature = data[offset : offset + 4]
        (size,) = struct.unpack_from(">I", data, offset + 4)
        if signature in _PARTIAL_EXTENSIONS:
            return True
        offset += 8 + size
    if offset != end:
        raise _Malformed
    return False
