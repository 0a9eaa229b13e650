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
# Where an edit saved into a file while it was being replaced is kept when it cannot go back in
# place (the replacing version was edited too). Never a suffix discovery reads.
SAVED_SUFFIX = ".cm-saved"

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

# How long a fix waits for another program that has the file open for writing to close it
# before refusing, and how long, once a program opened the replaced file for writing, it waits
# for that program to close it before reading what it saved.
LEASE_WAIT = 1.0
WRITER_WAIT = 10.0
# Where leases are not offered: how long the replaced file must stay unchanged after the rename.
SETTLE = 0.01


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
_BY_HANDLE = bool(_O_DIRECTORY) and {
    os.open,
    os.stat,
    os.rename,
    os.unlink,
    os.access,
    os.link,
} <= (os.supports_dir_fd)


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

    def link_new(self, source: str, target: str) -> bool:
        """Give `source` the name `target` too, unless `target` exists (then return False)."""
        try:
            if self.fd is None:
                os.link(os.path.join(self.path, source), os.path.join(self.path, target))
            else:
                os.link(source, target, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except FileExistsError:
            return False
        return True

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
    either way the file is left as it was, or as another program saved it. `path` is the file's
    real path (discovery resolves symlinks, so a link's target is what gets written and the link
    stays a link); a folder on it that became a symlink since is refused. What the file was is
    kept or the write refused: its permission bits, owner and group (refused when this user
    cannot give them to a new file), its hard links (refused: a rename would split them), and a
    read-only file is not rewritten unless `force_write`. The new bytes go to a temporary file
    that is fsynced, then renamed over the file by `_swap`, which makes sure no edit saved by
    another program is lost (see `_Watch` for how).
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
            late = _swap(folder, name, temp, info, original)
            if late is not None:
                _put_back(folder, name, late, data, info)
        finally:
            folder.sync()


def _swap(
    folder: _Folder, name: str, temp: str, info: os.stat_result, expected: bytes
) -> bytes | None:
    """Rename `temp` over `name` if `name` still holds `expected`, else refuse.

    Returns what another program saved into the replaced file while it was being replaced (its
    whole content), or None when nothing was; `_Watch` says how that is known.
    """
    try:
        watch = _still_as_read(folder, name, info, expected)
    except BaseException:
        with contextlib.suppress(OSError):
            folder.unlink(temp)
        raise
    with watch:
        try:
            watch.before_rename()
            folder.replace(temp, name)
        except BaseException:
            with contextlib.suppress(OSError):
                folder.unlink(temp)
            raise
        if watch.untouched():
            return None
        edited = watch.read_when_written()
    return None if edited == expected else edited


def _put_back(folder: _Folder, name: str, edited: bytes, data: bytes, was: os.stat_result) -> None:
    """Put `edited`, saved into the replaced file, back at `name` (which holds the fixed `data`).

    Always raises WriteRefused: the fix is not in place. If the fixed file is edited too before
    or while it is replaced, both edits are kept: the later one in the file, the earlier beside.
    """

    def keep(fd: int) -> None:
        with contextlib.suppress(WriteRefused):
            _keep_attributes(fd, was)

    temp = folder.write_temp(name, edited, keep)
    try:
        now = folder.lstat(name)
    except OSError:
        with contextlib.suppress(OSError):
            folder.unlink(temp)
        raise
    try:
        late = _swap(folder, name, temp, now, data)
    except WriteRefused:
        _save_beside(folder, name, edited)  # the file keeps the edit made to the fixed version
    if late is not None:
        _save_beside(folder, name, late)  # the file holds `edited`; the fixed version was edited
    raise WriteRefused(
        "the file changed on disk while the fix was being written; the saved version was kept"
    )


def _save_beside(folder: _Folder, name: str, edited: bytes) -> None:
    """Keep an edit that cannot go back in place beside the file, and raise saying where.

    As `<name>.cm-saved` (`.cm-saved-2`, ... when taken: an earlier one is never overwritten),
    written to a temporary file first and linked into place, so it is whole or absent.
    """
    temp = folder.write_temp(name, edited, lambda fd: None)
    try:
        for number in range(1, 1000):
            saved = f"{name}{SAVED_SUFFIX}" + (f"-{number}" if number > 1 else "")
            if folder.link_new(temp, saved):
                break
        else:  # pragma: no cover - a thousand saved edits of one file
            raise FileExistsError(f"no free name beside {name} for the edit saved meanwhile")
    finally:
        with contextlib.suppress(OSError):
            folder.unlink(temp)
    raise WriteRefused(
        "the file was edited on disk twice while the fix was being written; the file keeps"
        f" the later edit and {saved} the earlier one"
    )


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


def _still_as_read(folder: _Folder, name: str, info: os.stat_result, expected: bytes) -> _Watch:
    """Return a watch on the file if it still holds `expected`; else refuse.

    The last look before the rename: same file, same size, same modification time (when the
    read recorded one), same content.
    """
    lost = WriteRefused("the file changed on disk while it was being fixed")
    try:
        held = folder.open(name, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK)
    except OSError:
        raise lost from None
    watch = _Watch(held, by_handle=folder.fd is not None)
    try:
        watch.start()  # first: a write after this point is seen by the watch
        now = os.fstat(held)
        mtime_ns = getattr(expected, "mtime_ns", now.st_mtime_ns)
        if (
            (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino)
            or not stat.S_ISREG(now.st_mode)
            or now.st_size != len(expected)
            or now.st_mtime_ns != mtime_ns
            or _digest(held) != hashlib.blake2b(expected).digest()
        ):
            raise lost
    except BaseException:
        watch.close()
        raise
    return watch


def _digest(fd: int) -> bytes:
    digest = hashlib.blake2b()
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        digest.update(chunk)
    return digest.digest()


class _Watch:
    """Knows whether another program wrote into a file between a look at it and its replacement.

    An editor that opened the file before the rename writes into the old file, which the rename
    took off the folder: its edit would vanish. So the file is held open (`fd`) from the last
    look at its content until after the rename, and:

    - Where Linux offers leases (`fcntl(2)` F_SETLEASE), a read lease is taken on it first. The
      kernel grants one only while no process has the file open for writing, so once it is
      granted every later write needs a new open, and an open for writing breaks the lease
      (`F_GETLEASE` no longer says F_RDLCK) and blocks that process until the lease is
      released. After the rename the old file cannot be opened by name, so a lease still held
      then proves nothing wrote into it: no sleep, no copy. A broken lease means a program
      opened it in that window; it is let go, and once it has closed the file (the lease can be
      taken again) what it saved is read and put back. If a program has the file open for
      writing when the fix comes, the fix waits LEASE_WAIT for it to close and else refuses.
      The kernel signals the lease holder when a lease breaks; that signal is set to SIGURG,
      ignored by default, since the default SIGIO would end the process.
    - Elsewhere (macOS, Windows, file systems without leases), the old file's size and
      modification time are compared just after the rename and again SETTLE later; a change
      means an edit, read once the file has stopped changing. A program that writes into the
      old file later than that is not seen: leases are what close that window.
    """

    def __init__(self, fd: int, *, by_handle: bool) -> None:
        self.fd: int | None = fd
        self.by_handle = by_handle
        self.leased = False
        self.seen: tuple[int, int] = (0, 0)

    def __enter__(self) -> _Watch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Let go of the file (closing it releases a lease)."""
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def start(self) -> None:
        """Begin watching: take a lease if the system offers one; refuse if a writer holds on."""
        assert self.fd is not None
        self.leased = _take_lease(self.fd, LEASE_WAIT)
        self.seen = _size_and_mtime(self.fd)

    def before_rename(self) -> None:
        """Windows cannot rename over a file held open: there the watch ends here."""
        if not self.by_handle:
            self.close()

    def untouched(self) -> bool:
        """Return whether nothing can have written into the replaced file since `start`."""
        if self.fd is None:
            return True
        if self.leased:
            return bool(fcntl.fcntl(self.fd, fcntl.F_GETLEASE) == fcntl.F_RDLCK)
        if _size_and_mtime(self.fd) != self.seen:
            return False
        time.sleep(SETTLE)
        return _size_and_mtime(self.fd) == self.seen

    def read_when_written(self) -> bytes:
        """Return the replaced file's content once the program writing it is done with it."""
        assert self.fd is not None
        if self.leased:
            fcntl.fcntl(self.fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)  # let the opener go on
            self.leased = _take_lease(self.fd, WRITER_WAIT, refuse=False)
        else:
            _wait_until_still(self.fd, WRITER_WAIT)
        return _read_all(self.fd)


try:
    import fcntl

    _LEASES = hasattr(fcntl, "F_SETLEASE") and hasattr(fcntl, "F_SETSIG")
except ImportError:  # pragma: no cover - Windows
    _LEASES = False


def _take_lease(fd: int, wait: float, *, refuse: bool = True) -> bool:
    """Take a read lease on `fd`, waiting up to `wait` for writers to close the file.

    Returns False where leases are not offered, or (with `refuse` off) when writers still hold
    the file after `wait`; with `refuse` on, that raises WriteRefused.
    """
    if not _LEASES:
        return False
    import errno
    import signal

    try:
        fcntl.fcntl(fd, fcntl.F_SETSIG, signal.SIGURG)
    except OSError:
        return False
    deadline = time.monotonic() + wait
    pause = 0.0005
    while True:
        try:
            fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
            return True
        except OSError as exc:
            if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK):
                return False  # this file system offers no leases
        if time.monotonic() >= deadline:
            if refuse:
                raise WriteRefused("another program has it open for writing")
            return False
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _size_and_mtime(fd: int) -> tuple[int, int]:
    now = os.fstat(fd)
    return now.st_size, now.st_mtime_ns


def _wait_until_still(fd: int, wait: float) -> None:
    """Wait (up to `wait`) until the file's size and modification time stop changing."""
    deadline = time.monotonic() + wait
    last = _size_and_mtime(fd)
    while time.monotonic() < deadline:
        time.sleep(SETTLE)
        now = _size_and_mtime(fd)
        if now == last:
            return
        last = now


def _read_all(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)
