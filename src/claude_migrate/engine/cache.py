"""The result cache: what a file was found to hold, kept by everything that decides it.

An entry is keyed by a hash of the file's bytes, its `FileSettings.digest` (the policy in effect
for it), its kind and name, and the run's mode; entries live under a folder named by a hash of
the tool's own source, so an upgrade (or an edit of an editable install) starts afresh. File
modification times play no part: CI checkouts reset them, and a content hash is what decides
the findings.

Only files that pass the prefilter are cached: the others are decided from their bytes faster
than an entry could be read. On a warm run every such file is answered from its entry, so nothing
is parsed and LibCST is never imported.

Layout and safety under concurrent runs: one small JSON file per entry
(`<root>/<build>/<ab>/<key>.json`), written to a temporary file in the same folder and renamed
into place, so a reader sees a whole entry or none; there is no shared index to tear. Two runs
storing the same key write the same bytes. An entry that is unreadable, truncated or not what
this build writes is a miss (and is overwritten), never an error. JSON, not pickle: a cache
folder can come from anywhere (a CI cache restore), and reading it must not run code.

Pruning: an entry used by a run has its modification time refreshed; entries and whole builds
unused for `MAX_AGE` are deleted, at most once per `PRUNE_EVERY` per cache folder. The cache
deletes only what it made: a folder is pruned only if it holds the marker file written when
the tool created it (`MARKER`), and in it only entries recognised by name and shape
(`<build>/<ab>/<ab...40 hex>.json`, the temporary files of their writes) and then-empty shard
and build folders; anything else is left alone. A folder asked for (`--cache-dir`) that exists,
is not empty and has no marker belongs to someone else: the cache goes to a `claude-migrate`
subfolder of it, and when that too is taken, the run is not cached.

Reading: an entry is used only if every field has the type and shape this build writes (a
line is a positive int, an edit is three values ...); anything else is a miss.

Where: by default `$XDG_CACHE_HOME/claude-migrate` (else `~/.cache/claude-migrate`), outside
every tree the tool checks, so a pull request cannot bring entries of its own; `--cache-dir`
chooses another folder.

Authenticity: entries are keyed by public inputs (a file's bytes, its policy), so anyone who can
write in the folder could plant a result for a file they know. Each entry therefore starts with
an HMAC-SHA256 of its key and payload under the folder's secret key (`KEY_NAME`, 32 random
bytes, created with mode 0600 the first time the folder is written). An entry whose HMAC does
not match is a miss; a key file that is not a regular file of this user readable by this user
alone (a checked-out copy has mode 0644), or that git tracks (under `umask 077` a checked-out
copy has mode 0600), makes the folder unusable for the run, with a warning.

`fix`: an entry records the result of checking a file. A `fix` run uses a check entry only when
it holds no finding (then there is nothing to fix, and the fix result is the same); otherwise it
uses its own entries, keyed by `--unsafe-fixes` too, stored only for files a fix left unchanged
(their remaining findings, each with why it was left). A file `fix` rewrote is not stored: its
new bytes are checked again next time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import hmac
import json
import os
import re
import time
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

from claude_migrate import __version__
from claude_migrate.core.diagnostics import Diagnostic, Edit, FileError, FileResult, Fix
from claude_migrate.core.settings import FileSettings
from claude_migrate.core.source import read_regular

# The folder name under the user's cache folder (and the one earlier versions used in a tree).
CACHE_DIR_NAME = "claude-migrate"
FORMAT = 2
# The folder's secret key for entry HMACs: 32 random bytes as hex, mode 0600.
KEY_NAME = "secret-key"
_KEY_BYTES = 32
MAX_AGE = 7 * 24 * 3600.0  # seconds an entry or build may go unused before it is pruned
PRUNE_EVERY = 3600.0  # seconds between two prunes of one cache folder
_TOUCH_AFTER = 3600.0  # refresh an entry's time at most this often
_PRUNED_MARK = ".last-prune"
# Written in a cache folder when the tool creates it: only a folder holding it is ever pruned.
MARKER = ".claude-migrate-owned"
_MARKER_TEXT = (
    "This folder is claude-migrate's result cache. claude-migrate deletes entries here that\n"
    "have not been used for a week; deleting the whole folder is always safe.\n"
)
# The subfolder used when the folder asked for is someone else's.
SUBFOLDER = "claude-migrate"
_LEGACY_TAG = "created by claude-migrate"  # the CACHEDIR.TAG earlier versions wrote
# The names the cache writes, and nothing else is ever deleted.
_BUILD_NAME = re.compile(r"[0-9A-Za-z.+_!-]+-[0-9a-f]{20}")
_SHARD_NAME = re.compile(r"[0-9a-f]{2}")
_ENTRY_NAME = re.compile(r"[0-9a-f]{40}\.json")
_TEMP_NAME = re.compile(r"\.[a-z0-9_]{8}\.tmp")  # tempfile.mkstemp(prefix=".", suffix=".tmp")
# FileResult fields that describe this run rather than the file: never stored.
_RUN_FIELDS = frozenset(
    {"path", "parsed", "from_cache", "written", "fixed", "original_text", "fixed_text"}
)


@functools.cache
def build_id() -> str:
    """Return a hash of this installation's version and source, naming its cache folder."""
    digest = hashlib.blake2b(f"{FORMAT}:{__version__}".encode(), digest_size=10)
    package = Path(__file__).resolve().parents[1]
    from claude_migrate.core.resources import rules_dir

    shipped = rules_dir()
    # The code and the shipped data (presets, the deprecation catalogue) decide every result.
    files = [*sorted(package.rglob("*.py")), *sorted(shipped.glob("*.toml"))]
    for path in files:
        digest.update(
            path.name.encode()
            if path.parent == shipped
            else path.relative_to(package).as_posix().encode()
        )
        with contextlib.suppress(OSError):
            digest.update(path.read_bytes())
    return f"{__version__}-{digest.hexdigest()}"


def default_dir() -> Path | None:
    """Return the user's cache folder for claude-migrate, outside every checked tree.

    `$CLAUDE_MIGRATE_CACHE_DIR` (the command line's `--cache-dir` variable) when set; else
    `$XDG_CACHE_HOME/claude-migrate` when that variable holds an absolute path (the XDG base
    directory specification ignores a relative one), else `~/.cache/claude-migrate`; None when
    there is no home folder to put it in.
    """
    if os.environ.get("CLAUDE_MIGRATE_CACHE_DIR"):
        return Path(os.environ["CLAUDE_MIGRATE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):
            return None
    return Path(base) / CACHE_DIR_NAME


def _mac(secret: bytes, key: str, payload: bytes) -> bytes:
    message = key.encode("ascii") + b"\0" + payload
    return hmac.new(secret, message, hashlib.sha256).hexdigest().encode("ascii")


def seal(secret: bytes, key: str, payload: bytes) -> bytes:
    """Return an entry file's bytes: the HMAC of its key and payload on a line, then the payload."""
    return _mac(secret, key, payload) + b"\n" + payload


def unseal(secret: bytes, key: str, raw: bytes) -> bytes | None:
    """Return the payload of an entry file sealed under `secret` for `key`, else None."""
    mac, _, payload = raw.partition(b"\n")
    return payload if hmac.compare_digest(mac, _mac(secret, key, payload)) else None


def read_key(folder: Path) -> bytes | None:
    """Return the secret key of a cache folder, or None when it has none it can trust."""
    try:
        return _read_key(folder / KEY_NAME)
    except KeyProblem:
        return None


class KeyProblem(Exception):
    """The folder's key file cannot be trusted (its mode, owner or kind)."""


def _read_key(path: Path) -> bytes | None:
    """Return the key in `path`, None when there is none; raise KeyProblem if it is not ours."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise KeyProblem(f"cannot open {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        import stat

        if not stat.S_ISREG(info.st_mode):
            raise KeyProblem(f"{path} is not a regular file")
        if os.name == "posix" and (info.st_uid != os.getuid() or info.st_mode & 0o077):
            raise KeyProblem(f"{path} is not readable by its owner alone, or not this user's")
        text = os.read(fd, 4 * _KEY_BYTES)
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(text.decode("ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != _KEY_BYTES:
        raise KeyProblem(f"{path} does not hold a key")
    return key


def _checked_out(path: Path) -> bool:
    """Return whether git tracks the key file: it came with a checkout, the tool did not make it.

    A key file's mode and owner cannot tell: under `umask 077` git checks a committed one out
    with mode 0600, owned by the user running the tool.
    """
    from claude_migrate.discovery.git import is_tracked

    return is_tracked(path)


def _create_key(path: Path) -> bytes:
    """Create the key file (mode 0600) unless another run just did; return the key in it."""
    import secrets
    import tempfile

    fd, temporary = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "w") as handle:
            handle.write(secrets.token_hex(_KEY_BYTES) + "\n")
        # A hard link appears whole or not at all, and never replaces another run's key.
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
    key = _read_key(path)
    if key is None:
        raise KeyProblem(f"{path} disappeared")
    return key


# Entries ------------------------------------------------------------------------------------


def _fix_to_json(fix: Fix | None) -> Any:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability.value,
        "description": fix.description,
        "edits": [[e.start, e.end, e.replacement] for e in fix.edits],
    }


class Malformed(Exception):
    """An entry's field does not have the type or shape this build writes."""


def _decode(value: Any, hint: Any, path: str) -> Any:
    """Return JSON `value` as `hint` (a dataclass gets `path`); raise Malformed on any mismatch."""
    if hint in _SCALARS:
        return _SCALARS[hint](value)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _decode_union(value, typing.get_args(hint), path)
    if origin in (list, tuple):
        return _decode_sequence(value, origin, typing.get_args(hint), path)
    if hint is Edit:
        return _decode_edit(value, path)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise Malformed(f"expected a {hint.__name__}") from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return hint(**_decode_fields(value, hint, path))
    raise Malformed(f"cannot read {hint!r}")


def _exactly(kind: type) -> Callable[[Any], Any]:
    def decode(value: Any) -> Any:
        if type(value) is not kind:
            raise Malformed(f"expected {kind.__name__}")
        return value

    return decode


def _count(value: Any) -> int:
    # Every int in an entry is a position, offset or count: never negative, never a bool.
    if type(value) is not int or value < 0:
        raise Malformed("expected a non-negative int")
    return value


def _null(value: Any) -> None:
    if value is not None:
        raise Malformed("expected null")


_SCALARS: dict[Any, Callable[[Any], Any]] = {
    bool: _exactly(bool),
    str: _exactly(str),
    int: _count,
    type(None): _null,
}


def _decode_union(value: Any, options: tuple[Any, ...], path: str) -> Any:
    for option in options:
        with contextlib.suppress(Malformed):
            return _decode(value, option, path)
    raise Malformed(f"expected one of {options}")


def _decode_sequence(value: Any, origin: Any, args: tuple[Any, ...], path: str) -> Any:
    if type(value) is not list:
        raise Malformed("expected a list")
    if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
        # A fixed-shape tuple (a related location's path, line and message).
        if len(value) != len(args):
            raise Malformed(f"expected {len(args)} items")
        return tuple(_decode(v, h, path) for v, h in zip(value, args))  # noqa: B905
    items = [_decode(v, args[0], path) for v in value]
    return items if origin is list else tuple(items)


def _decode_edit(value: Any, path: str) -> Edit:
    """Return an edit stored as [start, end, replacement]."""
    if type(value) is not list or len(value) != 3:
        raise Malformed("expected an edit [start, end, replacement]")
    start, end, text = (_decode(v, h, path) for v, h in zip(value, (int, int, str)))  # noqa: B905
    if start > end:
        raise Malformed("an edit ends before it starts")
    return Edit(start, end, text)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode_fields(
    value: Any, cls: type, path: str, skip: frozenset[str] = frozenset({"path"})
) -> dict[str, Any]:
    """Return the keyword arguments of `cls` an entry's object holds (its `path` given)."""
    if type(value) is not dict:
        raise Malformed(f"expected a {cls.__name__} object")
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.name not in skip]
    unexpected = set(value) - {f.name for f in fields}
    if unexpected:
        raise Malformed(f"unexpected fields {sorted(unexpected)}")
    kwargs: dict[str, Any] = {"path": path} if "path" in hints and "path" in skip else {}
    for f in fields:
        if f.name in value:
            kwargs[f.name] = _decode(value[f.name], hints[f.name], path)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise Malformed(f"missing field {f.name}")
    return kwargs


def _fields(cls: type, skip: frozenset[str] = frozenset({"path"})) -> list[str]:
    return [f.name for f in dataclasses.fields(cls) if f.name not in skip]


def result_to_json(result: FileResult) -> dict[str, Any]:
    """Return what a result says about its file, as JSON data (no path, nothing run-specific)."""
    data: dict[str, Any] = {}
    for name in _fields(FileResult, _RUN_FIELDS):
        data[name] = getattr(result, name)
    data["diagnostics"] = [
        {
            **{name: getattr(d, name) for name in _fields(Diagnostic)},
            "fix": _fix_to_json(d.fix),
            "severity": d.severity.value,
        }
        for d in result.diagnostics
    ]
    data["errors"] = [
        {name: getattr(e, name) for name in _fields(FileError)} for e in result.errors
    ]
    return data


def result_from_json(data: Any, path: str) -> FileResult:
    """Return the result an entry holds, reported at `path`; raise Malformed on any bad field.

    Every field this build stores must be there, with the type and shape it writes.
    """
    stored = set(_fields(FileResult, _RUN_FIELDS))
    if type(data) is not dict or set(data) != stored:
        raise Malformed(f"expected an object with exactly the fields {sorted(stored)}")
    values = _decode_fields(data, FileResult, path, _RUN_FIELDS)
    values.pop("path", None)
    return FileResult(path=path, from_cache=True, **values)


class ResultCache:
    """One cache folder, used by one run (several runs may share the folder at once)."""

    def __init__(self, folder: Path, max_age: float = MAX_AGE) -> None:
        self.requested = Path(folder)
        chosen, self.problem = choose_folder(self.requested)
        # Where entries live (the folder asked for, or its subfolder); unused when `problem`.
        self.folder = chosen if chosen is not None else self.requested
        self.max_age = max_age
        self._build: Path | None = None
        self._secret: bytes | None = None
        self._key(create=False)  # a key file that cannot be trusted is said before the run
        self._digests: dict[FileSettings, str] = {}
        self.hits = 0
        self.stores = 0

    @property
    def build_folder(self) -> Path:
        if self._build is None:
            self._build = self.folder / build_id()
        return self._build

    def key(
        self,
        data: bytes,
        settings: FileSettings,
        kind: str,
        name: str,
        mode: str,
        outside: str = "",
    ) -> str:
        """Return the entry key for a file's bytes under a policy, kind, name and mode.

        `outside` is what findings depend on beyond the file and its policy (the project facts,
        `external_state`): today's date for retirements, a team catalogue, the project's pins.
        """
        digest = self._digests.get(settings)
        if digest is None:
            digest = self._digests[settings] = settings.digest
        # A file name that is not UTF-8 holds surrogate escapes: key it by its own bytes.
        header = f"{kind}\0{name}\0{digest}\0{mode}\0{outside}\0".encode("utf-8", "surrogateescape")
        return hashlib.blake2b(header + data, digest_size=20).hexdigest()

    def _entry(self, key: str) -> Path:
        return self.build_folder / key[:2] / f"{key}.json"

    @property
    def usable(self) -> bool:
        return self.problem is None

    def _key(self, create: bool) -> bytes | None:
        """Return the folder's secret key (made when `create` and missing), None if none yet.

        A key file that cannot be trusted makes the cache unusable for the rest of the run.
        """
        if self._secret is None and self.usable:
            path = self.folder / KEY_NAME
            try:
                self._secret = _read_key(path)
                if self._secret is not None and _checked_out(path):
                    self._secret = None
                    raise KeyProblem(f"{path} is tracked by git: a checked-out copy")
                if self._secret is None and create:
                    self._prepare(self.folder)
                    self._secret = _create_key(path)
            except KeyProblem as exc:
                self.problem = (
                    f"the cache's key file cannot be trusted ({exc}); results are not cached"
                )
            except OSError:
                return None
        return self._secret

    def _read(self, key: str) -> Any:
        """Return the JSON object of an authentic entry, or None (missing, forged or broken)."""
        secret = self._key(create=False)
        if secret is None:
            return None
        try:
            raw = read_regular(
                self._entry(key)
            )  # a FIFO planted in a restored cache must not block
        except OSError:
            return None
        payload = unseal(secret, key, raw)
        if payload is None:
            return None
        try:
            stored = json.loads(payload)
        except (ValueError, RecursionError):
            return None
        if not isinstance(stored, dict) or stored.get("format") != FORMAT:
            return None
        return stored

    def load(self, key: str, path: str) -> FileResult | None:
        """Return the stored result for `key` reported at `path`, or None (missing or broken)."""
        stored = self._read(key)
        if stored is None:
            return None
        entry = self._entry(key)
        try:
            result = result_from_json(stored["result"], path)
        except Exception:  # foreign or mistyped (Malformed): a miss, whatever is wrong
            return None
        self._touch(entry)
        self.hits += 1
        return result

    def _touch(self, entry: Path) -> None:
        with contextlib.suppress(OSError):
            if time.time() - os.stat(entry).st_mtime > _TOUCH_AFTER:
                os.utime(entry)

    def load_data(self, key: str) -> Any:
        """Return the JSON data stored under `key` by `store_data`, or None (missing or broken)."""
        stored = self._read(key)
        if stored is None:
            return None
        self._touch(self._entry(key))
        return stored.get("data")

    def store_data(self, key: str, data: Any) -> None:
        """Store JSON data (the project phase's facts) under `key`, atomically."""
        try:
            payload = json.dumps({"format": FORMAT, "data": data}, separators=(",", ":")).encode()
        except (TypeError, ValueError, RecursionError):
            return
        if self.usable:
            self._write(key, payload)

    def store(self, key: str, result: FileResult) -> None:
        """Write the entry for `key` atomically; a cache that can't be written is skipped."""
        if not self.usable:
            return
        try:
            payload = json.dumps(
                {"format": FORMAT, "result": result_to_json(result)}, separators=(",", ":")
            ).encode()
        except (TypeError, ValueError):  # a field JSON cannot hold: don't cache this file
            return
        self._write(key, payload)

    def _write(self, key: str, payload: bytes) -> None:
        import tempfile  # a run with `--no-cache` never writes an entry

        entry = self._entry(key)
        try:
            secret = self._key(create=True)
            if secret is None:
                return
            self._prepare(entry.parent)
            if os.path.islink(entry.parent) or os.path.islink(entry.parent.parent):
                return  # a shard or build folder replaced by a link: never written through
            fd, temp = tempfile.mkstemp(prefix=".", suffix=".tmp", dir=entry.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(seal(secret, key, payload))
                os.replace(temp, entry)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temp)
                raise
        except OSError:
            return
        self.stores += 1

    def _prepare(self, folder: Path) -> None:
        # A shard or build folder swapped for a symlink would send entries anywhere the link
        # points: never written through (the write is skipped, as for any unwritable cache).
        for part in (folder, folder.parent):
            if part.is_symlink():
                raise OSError(f"{part} is a symbolic link")
        if folder.is_dir():
            return
        if not (self.folder / MARKER).is_file():
            # Created now, or an empty folder (or one of ours from before the marker) adopted.
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / MARKER).write_text(_MARKER_TEXT)
            # Never committed, and skipped by backup tools (https://bford.info/cachedir/).
            with contextlib.suppress(OSError):
                (self.folder / ".gitignore").write_text("# Created by claude-migrate\n*\n")
                (self.folder / "CACHEDIR.TAG").write_text(
                    "Signature: 8a477f597d28d172789f06886806bc55\n"
                    "# This file is a cache directory tag created by claude-migrate.\n"
                )
        folder.mkdir(parents=True, exist_ok=True)

    # Pruning --------------------------------------------------------------------------------
    def maybe_prune(self) -> None:
        """Prune when this folder was last pruned more than `PRUNE_EVERY` ago."""
        if not owned(self.folder):
            return
        mark = self.folder / _PRUNED_MARK
        try:
            if time.time() - os.stat(mark).st_mtime < PRUNE_EVERY:
                return
        except FileNotFoundError:
            if not self.folder.is_dir():
                return
        except OSError:
            return
        with contextlib.suppress(OSError):
            mark.touch()
        self.prune()

    def prune(self, now: float | None = None) -> int:
        """Delete entries and other builds' folders unused for `max_age`; return how many.

        Only in a folder holding the marker, and only what has the shape of what the cache
        writes (see the module's docstring); symlinks are never followed.
        """
        if not owned(self.folder):
            return 0
        now = time.time() if now is None else now
        removed = 0
        for build in _scandir(str(self.folder)):
            if not (build.is_dir(follow_symlinks=False) and _BUILD_NAME.fullmatch(build.name)):
                continue
            newest = 0.0
            shards = [
                shard
                for shard in _scandir(build.path)
                if shard.is_dir(follow_symlinks=False) and _SHARD_NAME.fullmatch(shard.name)
            ]
            for shard in shards:
                for entry in _scandir(shard.path):
                    if not _ours(entry, shard.name):
                        continue
                    try:
                        mtime = entry.stat(follow_symlinks=False).st_mtime
                    except OSError:
                        continue
                    if now - mtime > self.max_age:
                        with contextlib.suppress(OSError):
                            os.unlink(entry.path)
                            removed += 1
                    else:
                        newest = max(newest, mtime)
            if build.name != build_id() and now - newest > self.max_age:
                # rmdir removes only empty folders: anything not ours keeps its folder.
                for shard in shards:
                    with contextlib.suppress(OSError):
                        os.rmdir(shard.path)
                with contextlib.suppress(OSError):
                    os.rmdir(build.path)
        return removed


def _ours(entry: os.DirEntry[str], shard: str) -> bool:
    """Return whether a shard folder's entry is an entry file (or its write's temporary file)."""
    if not entry.is_file(follow_symlinks=False):
        return False
    name = entry.name
    return bool(_ENTRY_NAME.fullmatch(name) and name.startswith(shard)) or bool(
        _TEMP_NAME.fullmatch(name)
    )


def owned(folder: Path) -> bool:
    """Return whether `folder` holds the marker the cache writes when it creates a folder."""
    return os.path.isfile(folder / MARKER) and not os.path.islink(folder / MARKER)


def choose_folder(asked: Path) -> tuple[Path | None, str | None]:
    """Return (the folder the cache uses for the folder asked for, None) or (None, why none).

    A folder that does not exist yet, is empty, or is ours (the marker, or the tag an earlier
    version wrote) is used as it is. One that holds anything else belongs to someone else (a
    home folder, `~/.cache`, a repository): its `claude-migrate` subfolder is used instead,
    under the same conditions; if that too is taken, nothing is cached.
    """
    for folder in (asked, asked / SUBFOLDER):
        if _usable(folder):
            return folder, None
        if not folder.is_dir():
            break
    return None, (
        f"the cache folder {asked} holds files that are not claude-migrate's "
        f"(and so does {asked / SUBFOLDER}); results are not cached"
    )


def _usable(folder: Path) -> bool:
    if os.path.islink(folder) and not folder.is_dir():
        return False
    if not folder.exists():
        return True
    if not folder.is_dir():
        return False
    if owned(folder):
        return True
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    if not names:
        return True
    try:
        tag = (folder / "CACHEDIR.TAG").read_text(errors="replace")[:4096]
    except OSError:
        return False
    return _LEGACY_TAG in tag and not os.path.islink(folder / "CACHEDIR.TAG")


def _scandir(path: str) -> list[os.DirEntry[str]]:
    try:
        return list(os.scandir(path))
    except OSError:
        return []


# The engine's side ---------------------------------------------------------------------------


def external_state(settings: FileSettings, kind: str, path: str) -> str:
    """Return what a file's findings may depend on outside the file and its policy.

    The project's facts (`facts.ProjectFacts.cache_key`), the same for every rule selection and
    file kind: a rule reads facts, never state of its own, so none can be left out of the key.
    """
    from claude_migrate.policy.facts import facts_for

    key = facts_for(settings).cache_key(path)
    if kind not in ("python", "config") or os.path.basename(path) == "setup.py":
        # Whether a raised anthropic pin is a safe fix depends on the project's Python code
        # (CM201 names the uses of what the new SDK removed): dependency files key on it.
        from claude_migrate.analysis.sdk_uses import code_folder, state

        key += ";code=" + state(code_folder(os.path.dirname(os.path.abspath(path))))
        # ... and on the lock files beside it (a raise is unsafe until they are made again).
        from claude_migrate.manifests.locks import locks_beside

        key += ";locks=" + ",".join(locks_beside(path))
    elif kind == "python":
        # Whether a rewrite of a call's shape is offered depends on the project's tests (CM104
        # and CM301 refuse one that the tests' doubles of the call would no longer see).
        from claude_migrate.analysis import doubles

        key += ";tests=" + doubles.state(doubles.project_root(path))
        key += ";packages=" + doubles.packages_state(path)
        # ... and CM302 / CM304 keep a model its tests replay a recording of.
        from claude_migrate.analysis import recordings

        key += ";recorded=" + recordings.state(path)
        # ... and an argument a fix adds splits a call that would pass the formatter's width.
        from claude_migrate.analysis.line_width import line_width

        key += f";width={line_width(path)}"
    return key


def mode_of(fix: bool, unsafe: bool) -> str:
    if not fix:
        return "check"
    return "fix-unsafe" if unsafe else "fix"


def lookup(
    cache: ResultCache,
    data: bytes,
    settings: FileSettings,
    kind: str,
    path: str,
    display: str,
    fix: bool,
    unsafe: bool,
    project: str = "",
) -> tuple[FileResult | None, str]:
    """Return (the cached result or None, the key to store this run's result under).

    `project` is the digest of what the project phase told the file (the facts of the modules
    it imports, and what other modules' calls decide about its own functions): a change there
    changes the file's findings without changing its bytes.
    """
    name = os.path.basename(path)
    mode = mode_of(fix, unsafe)
    outside = external_state(settings, kind, path)
    if project:
        outside = f"{outside};project={project}"
    key = cache.key(data, settings, kind, name, mode, outside)
    result = cache.load(key, display)
    if result is None and fix:
        # A file checked clean needs no fix: the check entry answers for `fix` too.
        checked = cache.load(cache.key(data, settings, kind, name, "check", outside), display)
        if checked is not None and not checked.diagnostics:
            result = checked
    return result, key


def storable(result: FileResult, fix: bool) -> bool:
    """Return whether a fresh result describes its file's bytes as they were read."""
    if fix and (result.written or result.fixed or result.fixed_text is not None):
        return False  # the file (or its preview) changed: next time its new bytes are checked
    return not any(e.message.startswith(_TRANSIENT) for e in result.errors)


def unchanged(path: str, data: bytes) -> bool:
    """Return whether the file still holds `data` (it may change while a worker reads it)."""
    try:
        return read_regular(path) == data
    except OSError:
        return False


# Errors that say something about this run, not about the file's bytes (a fix not written
# depends on the file's mode, owner and links, on --force-write, on a race: try again next time).
_TRANSIENT = ("cannot read", "worker process crashed", "internal error", "fix not written")
