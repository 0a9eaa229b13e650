"""Writing files so that a killed process leaves the old file or the new one, never half of one.

Writes go to a temporary file in the same folder that is fsynced and renamed over the
original; `replace_file` also keeps what the file was (owner, mode, links) or refuses, and never
overwrites an edit saved while the fix was computed.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import stat
import time
from collections.abc import Callable, Iterable
from pathlib import Path

# The suffix of the temporary file a write goes through. It must not end in `.py` (or any suffix
# discovery reads), so a file left behind by a killed run is never taken for source.
TEMP_SUFFIX = ".cm-tmp"

# Longest file name most file systems take (ext4, XFS, btrfs, APFS, NTFS), in bytes.
NAME_MAX = 255
# A temporary file older than this was left by a run that was killed (a write takes
# milliseconds), so a later `fix` may remove it.
STALE_AFTER = 3600.0
_RANDOM = 8
# `.<name, possibly cut>.<8 random characters>.cm-tmp`: the names `temp_name` makes (and the
# `tempfile.mkstemp` names earlier versions made, whose random part uses [a-z0-9_]).
_TEMP_NAME = re.compile(rf"\..+\.[a-z0-9_]{{{_RANDOM}}}{re.escape(TEMP_SUFFIX)}", re.DOTALL)
_O_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


class WriteRefused(Exception):
    """The fixed file is not written because writing it would lose something; says what."""


def temp_name(name: str) -> str:
    """Return a fresh temporary name for `name`: `.<name>.<random>.cm-tmp`, within NAME_MAX bytes.

    A long name is cut (at a character boundary) so the temporary name still fits; the random
    part keeps it unique.
    """
    raw = os.fsencode(name)
    room = NAME_MAX - len(b"..") - _RANDOM - len(TEMP_SUFFIX)
    if len(raw) > room:
        cut = room
        while cut > 0 and raw[cut] & 0xC0 == 0x80:  # a UTF-8 continuation byte: back up
            cut -= 1
        raw = raw[:cut]
    import secrets  # only a run that writes a file needs a temporary name

    return f".{os.fsdecode(raw)}.{secrets.token_hex(_RANDOM // 2)}{TEMP_SUFFIX}"


def is_temp_name(name: str) -> bool:
    """Return whether `name` has the shape of a temporary file this tool writes."""
    return _TEMP_NAME.fullmatch(name) is not None


def is_stale_temp(name: str, info: os.stat_result, now: float | None = None) -> bool:
    """Return whether a folder entry is a temporary file of ours left by a killed run.

    It must have our name shape, be a regular file (not a link), and be older than STALE_AFTER.
    """
    now = time.time() if now is None else now
    return is_temp_name(name) and stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_AFTER


def remove_stale_temps(paths: Iterable[Path], now: float | None = None) -> list[Path]:
    """Delete the stale temporary files among `paths` (checked again now); return those removed."""
    removed = []
    for path in paths:
        try:
            if is_stale_temp(path.name, os.lstat(path), now):
                os.unlink(path)
                removed.append(path)
        except OSError:
            continue
    return removed


# Where names can be resolved relative to an open folder (Linux, macOS), a write opens the folder
# once and names every file relative to it, so a folder swapped for a symlink midway cannot
# redirect it; elsewhere (Windows) each step goes by path.
_BY_HANDLE = bool(_O_DIRECTORY) and {os.open, os.stat, os.rename, os.unlink, os.access} <= (
    os.supports_dir_fd
)


class _Folder:
    """The folder a file is replaced in, held open (where the platform allows) for every step."""

    def __init__(self, path: str) -> None:
        self.path = path or "."
        self.fd = os.open(self.path, os.O_RDONLY | _O_DIRECTORY) if _BY_HANDLE else None

    def __enter__(self) -> _Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)

    def _at(self, name: str) -> tuple[str, int | None]:
        """Return the name to pass and the folder handle it is relative to (None: a path)."""
        if self.fd is None:
            return os.path.join(self.path, name), None
        return name, self.fd

    def open(self, name: str, flags: int, mode: int = 0o777) -> int:
        where, at = self._at(name)
        return os.open(where, flags, mode, dir_fd=at)

    def lstat(self, name: str) -> os.stat_result:
        where, at = self._at(name)
        return os.stat(where, follow_symlinks=False, dir_fd=at)

    def writable(self, name: str) -> bool:
        where, at = self._at(name)
        return os.access(where, os.W_OK, dir_fd=at)

    def unlink(self, name: str) -> None:
        where, at = self._at(name)
        os.unlink(where, dir_fd=at)

    def replace(self, source: str, target: str) -> None:
        if self.fd is None:
            os.replace(os.path.join(self.path, source), os.path.join(self.path, target))
        else:
            os.replace(source, target, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def sync(self) -> None:
        """Make the rename durable: fsync the folder (not possible everywhere; then skipped)."""
        with contextlib.suppress(OSError):
            fd = self.fd if self.fd is not None else os.open(self.path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                if fd != self.fd:
                    os.close(fd)

    def create_temp(self, name: str) -> tuple[int, str]:
        """Create a new, empty temporary file for `name`; return (fd, its name)."""
        for _ in range(100):
            temp = temp_name(name)
            try:
                fd = self.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_NOFOLLOW, 0o600)
            except FileExistsError:
                continue
            return fd, temp
        raise FileExistsError(f"no free temporary name for {name}")  # pragma: no cover

    def write_temp(self, name: str, data: bytes, keep: Callable[[int], None]) -> str:
        """Write `data` to a fresh temporary file for `name`, fsynced; return its name.

        `keep(fd)` gives it the attributes it must have before it replaces anything.
        """
        fd, temp = self.create_temp(name)
        try:
            try:
                _write_all(fd, data)
                keep(fd)
            finally:
                os.close(fd)
        except BaseException:
            with contextlib.suppress(OSError):
                self.unlink(temp)
            raise
        return temp


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
    os.fsync(fd)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace (or create) `path` with `data` atomically, keeping its permission bits.

    For the files the tool makes (reports, baselines, a starter policy). The temporary file lives
    in the same folder (a rename is atomic only within one file system), is named by `temp_name`
    (never a suffix discovery reads) and is fsynced before the rename, and the folder after it,
    so a crash or SIGKILL at any moment leaves the old file or the new one.
    """
    folder_path, name = os.path.split(os.fspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        # A new file gets the mode open() would give it.
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    with _Folder(folder_path) as folder:
        temp = folder.write_temp(name, data, lambda fd: _chmod(fd, mode))
        try:
            folder.replace(temp, name)
        except BaseException:
            with contextlib.suppress(OSError):
                folder.unlink(temp)
            raise
        folder.sync()


def replace_file(path: str, original: bytes, data: bytes, *, force_write: bool = False) -> None:
    """Replace the source file at `path`, which held `original` when read, with `data`.

    Raises WriteRefused (saying why) when writing would lose something, OSError when it fails;
    either way the file is left as it was. `path` is the file's real path (discovery resolves
    symlinks, so a link's target is what gets written and the link stays a link); a folder on
    it that became a symlink since is refused. What the file was is kept or the write refused:
    its permission bits, owner and group (refused when this user cannot give them to a new
    file), its hard links (refused: a rename would split them), and a read-only file is not
    rewritten unless `force_write`. The new bytes go to a temporary file that is fsynced; then,
    immediately before the rename, the file must still be what was read (size, modification
    time, content), else the race is lost and nothing is written. An edit saved into the old
    file during the rename itself is caught too, and the saved version put back.
    """
    folder_path, name = os.path.split(path)
    real = os.path.realpath(folder_path)
    if real != folder_path:
        raise WriteRefused(f"its folder is now reached through a symlink (to {real})")
    with _Folder(folder_path) as folder:
        info = folder.lstat(name)
        _check_replaceable(info, folder.writable(name), force_write)
        temp = folder.write_temp(name, data, lambda fd: _keep_attributes(fd, info))
        try:
            held: int | None = _still_as_read(folder, name, info, original)
            if folder.fd is None and held is not None:
                os.close(held)  # Windows cannot rename over a file held open
                held = None
            try:
                folder.replace(temp, name)
                if held is not None:
                    _catch_late_edit(folder, name, held, info)
            finally:
                if held is not None:
                    os.close(held)
        except BaseException:
            with contextlib.suppress(OSError):
                folder.unlink(temp)
            raise
        folder.sync()


def _check_replaceable(info: os.stat_result, writable: bool, force_write: bool) -> None:
    if stat.S_ISLNK(info.st_mode):
        raise WriteRefused("it is now a symlink")
    if not stat.S_ISREG(info.st_mode):
        raise WriteRefused("it is no longer a regular file")
    if info.st_nlink > 1:
        raise WriteRefused(f"it has {info.st_nlink} hard links, and replacing it would split them")
    if hasattr(os, "geteuid") and os.geteuid() not in (0, info.st_uid):
        raise WriteRefused(
            f"it belongs to another user (uid {info.st_uid}), and a rewritten file would be ours"
        )
    if force_write:
        return
    if not info.st_mode & 0o222:
        raise WriteRefused(
            f"it is read-only (mode {stat.S_IMODE(info.st_mode):04o}); --force-write rewrites it"
        )
    if not writable:
        raise WriteRefused("this user may not write it; --force-write rewrites it")


def _keep_attributes(fd: int, info: os.stat_result) -> None:
    """Give the temporary file the original's owner, group and permission bits."""
    if hasattr(os, "fchown"):
        now = os.fstat(fd)
        if (now.st_uid, now.st_gid) != (info.st_uid, info.st_gid):
            try:
                os.fchown(fd, info.st_uid, info.st_gid)
            except PermissionError:
                raise WriteRefused(
                    f"its group (gid {info.st_gid}) cannot be given to a new file by this user"
                ) from None
    # After the chown, which may clear set-user/group-ID bits.
    _chmod(fd, stat.S_IMODE(info.st_mode))


def _chmod(fd: int, mode: int) -> None:
    if os.chmod in os.supports_fd:
        os.chmod(fd, mode)


def _still_as_read(folder: _Folder, name: str, info: os.stat_result, original: bytes) -> int:
    """Return an open descriptor of the file if it still holds `original`; else refuse.

    The last look before the rename: same file, same size, same modification time (when the
    read recorded one), same content.
    """
    lost = WriteRefused("the file changed on disk while it was being fixed")
    try:
        held = folder.open(name, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK)
    except OSError:
        raise lost from None
    try:
        now = os.fstat(held)
        mtime_ns = getattr(original, "mtime_ns", now.st_mtime_ns)
        if (
            (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino)
            or not stat.S_ISREG(now.st_mode)
            or now.st_size != len(original)
            or now.st_mtime_ns != mtime_ns
            or _digest(held) != hashlib.blake2b(original).digest()
        ):
            raise lost
    except BaseException:
        os.close(held)
        raise
    return held


def _digest(fd: int) -> bytes:
    digest = hashlib.blake2b()
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        digest.update(chunk)
    return digest.digest()


def _catch_late_edit(folder: _Folder, name: str, held: int, info: os.stat_result) -> None:
    """After the rename: if the replaced file was written to meanwhile, put that version back.

    An editor that opened the file before the rename writes into the old file; its edit would
    vanish with it. The edited old content goes back in place (the fix is lost, not the edit).
    """
    now = os.fstat(held)
    if (now.st_size, now.st_mtime_ns) == (info.st_size, info.st_mtime_ns):
        return
    os.lseek(held, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(held, 1 << 20):
        chunks.append(chunk)

    def keep(fd: int) -> None:
        with contextlib.suppress(WriteRefused):
            _keep_attributes(fd, info)

    temp = folder.write_temp(name, b"".join(chunks), keep)
    try:
        folder.replace(temp, name)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.unlink(temp)
        raise
    raise WriteRefused(
        "the file changed on disk while the fix was being written; the saved version was kept"
    )
