"""Where a project's tests stand in for a Claude call that a fix would change the shape of.

CM104 rewrites `client.messages.create(...)` into `with client.messages.stream(...) as stream:`
and CM301 rewrites `completions.create` into `messages.create`. Tests that replace the call they
had (a `unittest.mock` configured on `messages.create`, `patch("app.llm.client.messages.create")`,
`monkeypatch.setattr(client.messages, "create", fake)`, a hand-written fake client whose
`messages` has `create` and no `stream`) no longer see the call after the rewrite: the test
calls the real client, or gets a bare `MagicMock` where it configured a reply. A test module
that replays recorded Claude exchanges (`analysis.recordings`) stands in for the call too: the
recording answers the request as it is sent now (a JSON message where a stream reads events,
`/v1/complete` where the rewrite posts to `/v1/messages`), so it stands in for the calls of the
modules it imports and for those in its own body. Such a fix is refused, naming the test and
its line, so the migration never ships a red test suite.

The project's test files (`test_*.py`, `*_test.py`, `conftest.py`, files under `tests/` or
`test/`) are read with CPython's `ast`, never run; a test counts for a module when it imports it
or names it in a patch target. The search is bounded like `sdk_uses` (files, bytes, folders).
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from claude_migrate.analysis.sdk_uses import MAX_BYTES, python_file_names
from claude_migrate.core.source import python_text, read_regular

ROOT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "tox.ini", "pytest.ini", ".git")
MAX_LEVELS = 8
TEST_FOLDERS = frozenset({"tests", "test", "testing"})
# Attributes read on a configured mock (`create.return_value = ...`, `create.assert_called()`).
MOCK_ATTRIBUTES = frozenset(
    {"return_value", "side_effect", "call_args", "call_args_list", "call_count", "called"}
)
SHOWN = 2  # doubles named in a message
# The endpoints a `<resource>.create` posts to, as an HTTP mock names them: respx routes
# (`respx.post("https://api.anthropic.com/v1/messages")`, `respx_mock.route(url__regex=...)`)
# and pytest-httpx responses (`httpx_mock.add_response(url=".../v1/messages", json=...)`) answer
# the request the call sends now: a JSON message where a stream reads events
# (https://lundberg.github.io/respx/guide/, https://colin-b.github.io/pytest_httpx/).
ENDPOINTS = {"/v1/messages": "messages", "/v1/complete": "completions"}
HTTP_MOCKS = frozenset({"add_response", "add_callback"})  # pytest-httpx's `httpx_mock`
ROUTE_VERBS = frozenset({"post", "route"})  # respx's routes, on `respx` or a router
# How many package levels a module's re-export (`pkg/__init__.py`: `from .client import X`) is
# followed up, for tests that import the package.
MAX_PACKAGES = 4
# How long a root's test-file digest is reused within one process (a run's workers ask once per
# file; a long-lived server sees edited tests after this many seconds).
STATE_SECONDS = 5.0
# The calls whose first argument may name a patch target (`mock.patch("app.chat.MODEL")`,
# `patch.object`, pytest's `monkeypatch.setattr("app.chat.MODEL", ...)` and `setitem`).
PATCHERS = frozenset({"patch", "object", "setattr", "setitem"})
# The most parts of a dotted name read as one module name (`_add_runs`).
MAX_RUN = 8
MAX_REMEMBERED = 65536  # test file versions whose imported modules are kept
_ESCAPE = re.compile(r"\\[xuUN0-7]")  # a string literal's escape that may spell a letter
# What may stand between string literals Python joins into one (`_joined_literals`).
_BETWEEN_LITERALS = re.compile(r"[\s\\\"']+")
_COMMENT = re.compile(r"#[^\n]*")
_PREFIX = re.compile(r"[rRuU](?=[\"'])")
# What a test file standing in for a call spells (as written, or as Python reads it).
_DOUBLE_WORDS = frozenset({"create", "MockTransport", *ENDPOINTS})
# Test file versions' joined literals (`_may_spell`), up to this many characters in all.
MAX_JOINED = 32 * 1024 * 1024
_joined: dict[tuple[str, str], str] = {}
_joined_size = 0
_states: dict[str, tuple[float, str]] = {}
_modules_read: dict[tuple[str, str], frozenset[str] | None] = {}  # (path, stamp) -> modules
_roots: dict[str, tuple[float, str]] = {}  # a file's folder -> its project's root, the same way


@dataclass(frozen=True)
class Double:
    """One place a test stands in for `<resource>.create`."""

    path: str  # relative to the project root, forward slashes
    line: int
    resource: str  # "messages" or "completions"
    what: str  # how it stands in, for messages
    modules: frozenset[str]  # names of the modules the test file imports or patches
    replays: bool = False  # the test module replays recorded Claude exchanges

    def place(self) -> str:
        return f"{self.path}:{self.line}"


def forget() -> None:
    """Drop the digests and roots reused within `STATE_SECONDS`: a new run in this process
    (a server's, the API's) reads the test files as they are now, after a fix wrote them."""
    _states.clear()
    _roots.clear()
    _modules_read.clear()
    _remember_joined(("", ""), "", forget=True)


def project_root(path: str) -> str:
    """Return the folder of the project a file belongs to: the nearest one above it holding a
    project file (pyproject.toml, setup.py, .git, ...), else the file's own folder."""
    folder = os.path.dirname(os.path.abspath(path))
    now = time.monotonic()
    known = _roots.get(folder)
    if known is not None and now - known[0] < STATE_SECONDS:
        return known[1]
    if len(_roots) > 4096:
        _roots.clear()
    root = _find_root(folder)
    _roots[folder] = (now, root)
    return root


def _find_root(folder: str) -> str:
    current = folder
    for _ in range(MAX_LEVELS):
        if any(os.path.exists(os.path.join(current, m)) for m in ROOT_MARKERS):
            return current
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    return folder


def is_test_file(relative: str) -> bool:
    parts = relative.split("/")
    name = parts[-1]
    if name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py"):
        return True
    return any(part in TEST_FOLDERS for part in parts[:-1])


def _test_files(root: str) -> Iterator[Path]:
    return (Path(name) for name in _test_file_names(root))


def _test_file_names(root: str) -> Iterator[str]:
    """Yield the project's test files (the paths `python_files` yields, as strings)."""
    start = len(os.path.join(str(Path(root)), ""))
    for name in python_file_names(root):
        if is_test_file(name[start:].replace(os.sep, "/")):
            yield name


def state(root: str) -> str:
    """Return a digest of the test files' names, sizes and times (the result cache's key part)."""
    now = time.monotonic()
    known = _states.get(root)
    if known is not None and now - known[0] < STATE_SECONDS:
        return known[1]
    digest = _digest(root)
    _states[root] = (now, digest)
    return digest


def _digest(root: str) -> str:
    from claude_migrate.analysis import recordings

    digest = hashlib.sha256()
    for path in _test_file_names(root):
        try:
            info = os.stat(path)
        except OSError:
            continue
        recorded = recordings.state(path)  # "" (one stat) for a module with no recordings
        digest.update(f"{path}|{info.st_size}|{info.st_mtime_ns}|{recorded}\n".encode())
    return digest.hexdigest()[:16]


def doubles_for(path: str, resource: str) -> list[Double]:
    """Return the project's test doubles of `<resource>.create` that may stand in for a call
    made in the module at `path` (none when `path` is itself a test file)."""
    root = project_root(path)
    relative = Path(os.path.abspath(path)).relative_to(root).as_posix()
    if is_test_file(relative):
        # A test's own call: what the test file itself stands in with (a mock configured on
        # the call, an HTTP mock answering it) sees the call as it is written now.
        own = _file_doubles(os.path.abspath(path), relative, file_stamp(path))
        replayed = _replayed(path, relative, resource, frozenset())
        return replayed + [d for d in own if d.resource == resource and d not in replayed]
    names = _module_names(relative) | _reexported_names(root, relative)
    return [d for d in _doubles(root, state(root)) if d.resource == resource and d.modules & names]


def replaying_tests(path: str) -> list[str]:
    """Return the project's test modules (absolute paths) that import the module at `path` and
    replay recorded Claude exchanges; none when `path` is itself a test file (its own
    recordings are read directly)."""
    root = project_root(path)
    digest = state(root)
    if not _replayers(root, digest):
        return []
    return list(_replaying(os.path.abspath(path), root, digest, packages_state(path)))


@cache
def _replayers(root: str, digest: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """Return the test modules that replay recorded Claude exchanges, with the modules each
    imports; only those are parsed (most test files have no recordings)."""
    from claude_migrate.analysis.recordings import replays_claude
    from claude_migrate.analysis.recordings import state as recorded_state

    found: list[tuple[str, frozenset[str]]] = []
    for path in _test_files(root):
        if not recorded_state(str(path)) or not replays_claude(str(path)):
            continue
        modules = _modules_of(path)
        if modules is not None:
            found.append((str(path), modules))
    return tuple(found)


def importing_tests(path: str) -> list[str]:
    """Return the project's test modules (absolute paths) that import the module at `path` or
    name it in a patch target; none when `path` is itself a test file."""
    root = project_root(path)
    return list(_importing(os.path.abspath(path), root, state(root), packages_state(path)))


@cache
def _importing(path: str, root: str, digest: str, packages: str) -> tuple[str, ...]:
    """`importing_tests`, once per module, test files and packages above it. Only the test
    files whose text may spell one of the module's names are parsed (`_may_spell`)."""
    relative = Path(path).relative_to(root).as_posix()
    if is_test_file(relative):
        return ()
    names = _module_names(relative) | _reexported_names(root, relative)
    words = frozenset(name.rpartition(".")[2] for name in names)
    found = []
    for test in _test_files(root):
        key = (str(test), file_stamp(str(test)))
        modules = _modules_read.get(key)
        if modules is None and _may_spell(_source(test), words, key):
            modules = _modules_of(test)
        if modules and modules & names:
            found.append(str(test))
    return tuple(found)


def _may_spell(text: str | None, words: frozenset[str], key: tuple[str, str] | None = None) -> bool:
    """Return whether a file's text may name a module by one of `words` (the last part of each
    dotted name it may use): it holds one of them as written, or it has what Python reads as
    another spelling (a non-ASCII identifier, NFKC-normalised; an escape in a string literal,
    which a patch target may be; string literals Python joins). With the file's `key` (path,
    stamp), the joined literals are worked out once per version of the file."""
    if text is None:
        return False
    if any(word in text for word in words):
        return True
    if not text.isascii() or _ESCAPE.search(text) is not None:
        return True
    if '"' not in text and "'" not in text:
        return False
    joined = _joined.get(key) if key is not None else None
    if joined is None:
        joined = "\0".join(_joined_literals(text))
        if key is not None:
            _remember_joined(key, joined)
    return any(word in joined for word in words)


def _remember_joined(key: tuple[str, str], joined: str, forget: bool = False) -> None:
    """Keep a test file version's joined literals; drop them all when told to `forget` or
    when keeping this one would pass MAX_JOINED."""
    global _joined_size
    if forget or _joined_size + len(joined) > MAX_JOINED:
        _joined.clear()
        _joined_size = 0
    if not forget:
        _joined[key] = joined
        _joined_size += len(joined)


def _joined_literals(text: str) -> Iterator[str]:
    """Yield the text with what may stand between string literals Python joins (`"a" "pp"`,
    across lines and comments, a second one's `r` or `u` prefix) taken out, as the one string
    Python reads them as (`app`): a comment, or a prefix, once taken out and once kept, so
    that a `#` or an `r` inside a literal cannot hide a spelling either way."""
    for comments in (False, True):
        for prefixes in (False, True):
            joined = _COMMENT.sub("", text) if comments else text
            joined = _PREFIX.sub("", joined) if prefixes else joined
            yield _BETWEEN_LITERALS.sub("", joined)


@cache
def _replaying(path: str, root: str, digest: str, packages: str) -> tuple[str, ...]:
    """`replaying_tests`, once per module, test files and packages above it."""
    relative = Path(path).relative_to(root).as_posix()
    if is_test_file(relative):
        return ()
    names = _module_names(relative) | _reexported_names(root, relative)
    return tuple(test for test, modules in _replayers(root, digest) if modules & names)


def _reexported_names(root: str, relative: str) -> frozenset[str]:
    """Return the names a test may use for a module through the packages that re-export it:
    `from shop import Assistant` when `shop/__init__.py` says `from .assistant import Assistant`
    (or `from . import assistant`, `from shop.assistant import ...`), up to MAX_PACKAGES levels."""
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        return frozenset()
    names: set[str] = set()
    child = parts[-1]
    for depth in range(len(parts) - 1, max(0, len(parts) - 1 - MAX_PACKAGES), -1):
        package = parts[:depth]
        if not _imports_child(Path(root, *package, "__init__.py"), ".".join(package), child):
            break
        names |= _module_names("/".join(package) + "/__init__.py")
        child = package[-1]
    return frozenset(names)


def _imports_child(init: Path, package: str, child: str) -> bool:
    """Return whether a package's `__init__.py` imports from one of its modules at top level."""
    tree = _parsed(_source(init))
    if tree is None:
        return False
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 1 and node.module == child:
            return True
        if node.level == 1 and node.module is None and any(a.name == child for a in node.names):
            return True
        if node.level == 0 and node.module == f"{package}.{child}":
            return True
    return False


def packages_state(path: str) -> str:
    """Return the sizes and times of the `__init__.py` files above a module (the result cache's
    key part: a re-export they add or drop changes which tests stand in for its calls)."""
    folder = os.path.dirname(os.path.abspath(path))
    found: list[str] = []
    for _ in range(MAX_PACKAGES):
        init = os.path.join(folder, "__init__.py")
        try:
            info = os.stat(init)
        except OSError:
            break
        found.append(f"{info.st_size}.{info.st_mtime_ns}")
        folder = os.path.dirname(folder)
    return ",".join(found)


def describe(found: list[Double], call: str) -> str:
    """Return the refusal for a rewrite the project's tests would no longer see."""
    shown = "; ".join(f"{d.place()}, {d.what}" for d in found[:SHOWN])
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return (
        f"no fix: the project's tests stand in for {call} ({shown}{more}) and would not see the "
        "rewritten call: change them with it, or rewrite both by hand"
    )


def _replayed(path: str, relative: str, resource: str, modules: frozenset[str]) -> list[Double]:
    """Return the stand-in a test module's recorded Claude exchanges are, if it has any."""
    from claude_migrate.analysis.recordings import replays_claude

    folder = replays_claude(path)
    if not folder:
        return []
    what = f"replays the exchanges recorded in {folder} (record them again with the new call)"
    return [Double(relative, 1, resource, what, modules, replays=True)]


def _module_names(relative: str) -> frozenset[str]:
    """Return the names a test may use for a module: its dotted path's tails and its stem."""
    parts = relative.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    if not parts:
        return frozenset()
    return frozenset(".".join(parts[i:]) for i in range(len(parts)))


def file_stamp(path: str) -> str:
    """Return what tells one version of a file from another (size and modification time), for
    caches kept per version; "" when it cannot be read."""
    try:
        info = os.stat(path)
    except OSError:
        return ""
    return f"{info.st_size}.{info.st_mtime_ns}"


@cache
def _file_doubles(path: str, relative: str, stamp: str) -> tuple[Double, ...]:
    """Return the doubles one test file holds (its recordings apart), read once per version."""
    return tuple(_doubles_in(Path(path), relative, with_recordings=False))


@cache
def _doubles(root: str, digest: str) -> tuple[Double, ...]:
    found: list[Double] = []
    for path in _test_files(root):
        found.extend(_doubles_in(path, path.relative_to(root).as_posix()))
    return tuple(_with_conftest_scope(root, found))


def _doubles_in(path: Path, relative: str, with_recordings: bool = True) -> list[Double]:
    """Return the doubles a test file holds (with the recordings it replays, unless told not
    to); none for a file too large, unreadable or not Python."""
    found: list[Double] = []
    text = _source(path)
    if text is None:
        return found
    replayed = _replayed(str(path), relative, "messages", frozenset()) if with_recordings else []
    if not replayed and not _may_spell(text, _DOUBLE_WORDS):
        return found
    tree = _parsed(text)
    if tree is None:
        return found  # a test file we cannot read shows no double
    scan = _Scan(tree)
    modules = frozenset(scan.modules)
    _remember_modules((str(path), file_stamp(str(path))), modules)
    found.extend(
        Double(relative, line, resource, what, modules)
        for line, resource, what in dict.fromkeys(scan.found)
    )
    if scan.transports and "anthropic" in text.lower():
        # An httpx mock transport in a test of a Claude client answers every request the
        # client sends, whatever its URL (Bedrock's and Vertex's included).
        line = scan.transports[0]
        what = f"an httpx.MockTransport answering the client's requests (line {line})"
        found.extend(
            Double(relative, line, resource, what, modules)
            for resource in ("messages", "completions")
        )
    for double in replayed:
        found.extend(
            Double(relative, double.line, resource, double.what, modules, replays=True)
            for resource in ("messages", "completions")
        )
    return found


def _with_conftest_scope(root: str, found: list[Double]) -> list[Double]:
    """Return the doubles with those of a `conftest.py` counted for the modules its tests
    import: a fixture there (a mock client configured on `messages.create`) is handed to every
    test of its folder and below (https://docs.pytest.org/en/stable/reference/fixtures.html),
    which puts it in the module's place."""
    folders = {
        d.path.rpartition("/")[0] for d in found if d.path.rpartition("/")[2] == "conftest.py"
    }
    if not folders:
        return found
    imported: dict[str, set[str]] = {folder: set() for folder in folders}
    for path in _test_files(root):
        relative = path.relative_to(root).as_posix()
        owners = [f for f in folders if not f or relative.startswith(f + "/")]
        if not owners or relative.endswith("conftest.py"):
            continue
        modules = _modules_of(path)
        if modules is None:
            continue
        for owner in owners:
            imported[owner] |= modules
    out: list[Double] = []
    for double in found:
        folder, _, name = double.path.rpartition("/")
        if name == "conftest.py" and imported.get(folder):
            double = Double(
                double.path,
                double.line,
                double.resource,
                f"{double.what}, a fixture of the tests beside it",
                double.modules | frozenset(imported[folder]),
            )
        out.append(double)
    return out


def _source(path: Path) -> str | None:
    """Return a file's text as Python decodes it (BOM, PEP 263 cookie); None for a file that is
    not regular, larger than MAX_BYTES, unreadable or not decodable."""
    try:
        data = read_regular(path, MAX_BYTES)
    except OSError:
        return None
    return python_text(bytes(data))


def _parsed(text: str | None) -> ast.Module | None:
    """Return a file's syntax tree (None for no text, or text that is not Python)."""
    if text is None:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _modules_of(path: Path) -> frozenset[str] | None:
    """Return the modules a test file imports or names in a patch target (None: not read),
    once per version of the file: the doubles' scan of it (`_doubles_in`) leaves them here."""
    key = (str(path), file_stamp(str(path)))
    if key not in _modules_read:
        tree = _parsed(_source(path))
        _remember_modules(key, None if tree is None else _imported_modules(tree))
    return _modules_read[key]


def _remember_modules(key: tuple[str, str], modules: frozenset[str] | None) -> None:
    if len(_modules_read) > MAX_REMEMBERED:
        _modules_read.clear()
    _modules_read[key] = modules


def _imported_modules(tree: ast.Module) -> frozenset[str]:
    """Return what `_Scan(tree).modules` holds (the modules imported, and those a patch target
    names), read without the rest of the scan."""
    modules: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                _add_dotted(modules, alias.name)
        elif isinstance(node, ast.ImportFrom):
            _imported_from(modules, node)
        elif isinstance(node, ast.Call):
            callee = _chain(node.func)
            if callee and callee[-1] in PATCHERS:
                _add_dotted(modules, _patched_module(node))
    return frozenset(modules)


def _add_dotted(modules: set[str], dotted: str) -> None:
    """Add every run of a dotted name's parts (`a.b.c`: a, b, c, a.b, b.c, a.b.c) of up to
    MAX_RUN parts."""
    if dotted:
        _add_runs(modules, dotted.split("."))


def _add_runs(modules: set[str], parts: list[str], last_only: bool = False) -> None:
    """Add the runs of `parts` of up to MAX_RUN parts (only those ending at the last part, when
    told). A module's names are all the tails of its path (`_module_names`), so a longer run
    naming one holds a run of MAX_RUN parts naming it too; every run of a name of thousands
    of parts would be billions of strings."""
    for end in [len(parts)] if last_only else range(1, len(parts) + 1):
        for start in range(max(0, end - MAX_RUN), end):
            modules.add(".".join(parts[start:end]))


def _imported_from(modules: set[str], node: ast.ImportFrom) -> None:
    base = node.module.split(".") if node.module else []
    _add_runs(modules, base)
    tail = base[-(MAX_RUN - 1) :]
    for alias in node.names:
        _add_runs(modules, [*tail, alias.name], last_only=True)


def _patched_module(node: ast.Call) -> str:
    """Return the module a patch target names (`patch("app.chat.client.messages.create")`:
    `app.chat`; `patch("app.chat.MODEL")`: `app.chat`); "" for no literal target."""
    first = node.args[0] if node.args else None
    if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
        return ""
    names = first.value.split(".")
    if _resource_of(names) is not None:
        return ".".join(names[:-2])
    return ".".join(names[:-1]) if len(names) > 1 else ""


def _chain(node: ast.expr) -> list[str]:
    """Return the names of an attribute chain (`a.b.c` -> ["a", "b", "c"]); [] if not one."""
    names: list[str] = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        names.append(node.id)
    elif isinstance(node, ast.Call):
        names.append("()")
    else:
        return []
    return names[::-1]


# The SDK's resource classes (`anthropic.resources.Messages`, `AsyncMessages`, ...): a patch of
# their `create` stands in for every client's call.
_RESOURCE_CLASSES = {
    "Messages": "messages",
    "AsyncMessages": "messages",
    "Completions": "completions",
    "AsyncCompletions": "completions",
}


def _resource(names: list[str]) -> str | None:
    """Return "messages" or "completions" when a chain names that resource: a client's
    attribute, or the SDK's class (not OpenAI's `chat.Completions`)."""
    if not names:
        return None
    last = names[-1]
    if last in ("messages", "completions"):
        return last
    if last in _RESOURCE_CLASSES and "chat" not in names[:-1]:
        return _RESOURCE_CLASSES[last]
    return None


def _resource_of(names: list[str]) -> str | None:
    """Return "messages" or "completions" when a chain ends in `<resource>.create`."""
    if len(names) >= 2 and names[-1] == "create":
        return _resource(names[:-1])
    return None


class _Scan(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.found: list[tuple[int, str, str]] = []
        self.modules: set[str] = set()
        # The lines of `httpx.MockTransport(handler)` calls: a transport answering every request
        # with what the handler returns, as written for the call the code makes now
        # (https://www.python-httpx.org/advanced/transports/#mock-transports).
        self.transports: list[int] = []
        self._fakes: dict[str, tuple[int, str]] = {}  # class name -> (line, resource)
        self.visit(tree)

    def _add(self, node: ast.AST, resource: str, what: str) -> None:
        self.found.append((getattr(node, "lineno", 1), resource, what))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            _add_dotted(self.modules, alias.name)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        _imported_from(self.modules, node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        # `client.messages.create.return_value = ...`, `create.assert_called_once()`.
        if node.attr in MOCK_ATTRIBUTES or node.attr.startswith("assert_"):
            resource = _resource_of(_chain(node.value))
            if resource is not None:
                self._add(node, resource, f"a mock configured on {resource}.create")
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            resource = _resource_of(_chain(target)) if isinstance(target, ast.Attribute) else None
            if resource is not None:
                self._add(node, resource, f"{resource}.create replaced by assignment")
            if isinstance(target, ast.Attribute) and target.attr in ("messages", "completions"):
                self._fake_assigned(node.value, target.attr)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        methods = {
            s.name for s in node.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        }
        if "create" in methods and "stream" not in methods:
            lowered = node.name.lower()
            resource = "completions" if "completion" in lowered else "messages"
            self._fakes[node.name] = (node.lineno, resource)
            if "message" in lowered or "completion" in lowered:
                self._add(node, resource, f"fake class {node.name} has create and no stream")
            elif (own := _own_resource(node)) is not None:
                what = f"fake class {node.name} is its own {own}, with create and no stream"
                self._add(node, own, what)
            elif "anthropic" in lowered or "claude" in lowered:
                # A fake client standing in for the SDK's class (`FakeAnthropic`).
                self._add(node, "messages", f"fake client {node.name} has create and no stream")
        for statement in node.body:  # `messages = FakeMessages()` in a fake client's body
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name) and target.id in ("messages", "completions"):
                        self._fake_assigned(statement.value, target.id)
        self.generic_visit(node)

    def _fake_assigned(self, value: ast.expr, resource: str) -> None:
        """Record a stand-in given to a `messages` / `completions` attribute."""
        if isinstance(value, ast.Call):
            callee = _chain(value.func)
            if callee and callee[-1] in self._fakes:
                line, _ = self._fakes[callee[-1]]
                what = f"fake class {callee[-1]} has create and no stream"
                self.found.append((line, resource, what))
            if any(k.arg == "create" for k in value.keywords):
                self._add(value, resource, f"a stand-in {resource} object with create only")

    def visit_Call(self, node: ast.Call) -> None:
        callee = _chain(node.func)
        last = callee[-1] if callee else ""
        if last in PATCHERS:
            _add_dotted(self.modules, _patched_module(node))
            self._patch(node, ".".join(callee))
        if last in HTTP_MOCKS or (last in ROUTE_VERBS and _respx(callee)):
            self._http_mock(node, ".".join(callee))
        if last == "MockTransport":
            self.transports.append(node.lineno)
        for keyword in node.keywords:  # SimpleNamespace(messages=SimpleNamespace(create=...))
            if keyword.arg in ("messages", "completions"):
                self._fake_assigned(keyword.value, keyword.arg)
        self.generic_visit(node)

    def _patch(self, node: ast.Call, how: str) -> None:
        args = node.args
        first = args[0] if args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names = first.value.split(".")
            resource = _resource_of(names)
            if resource is not None:
                self._add(node, resource, f"{how}({first.value!r})")
            return
        second = args[1] if len(args) > 1 else None
        if (
            first is not None
            and isinstance(second, ast.Constant)
            and second.value == "create"
            and (resource := _resource(_chain(first))) is not None
        ):
            self._add(node, resource, f"{how} on {_chain(first)[-1]}.create")

    def _http_mock(self, node: ast.Call, how: str) -> None:
        """Record an HTTP mock of the endpoint a `<resource>.create` posts to."""
        texts = [node.args[0]] if node.args else []
        texts.extend(k.value for k in node.keywords if k.arg and k.arg.split("__")[0] in _URLS)
        for text in texts:
            url = _text(text)
            for path, resource in ENDPOINTS.items():
                # `/v1/messages/batches` and `/v1/messages/count_tokens` are other endpoints.
                if path in url and not url.split(path, 1)[1].startswith("/"):
                    self._add(node, resource, f"an HTTP mock of {path} ({how})")
                    return


_URLS = frozenset({"url", "path"})  # respx's patterns (`url__regex`...) and pytest-httpx's url


def _own_resource(node: ast.ClassDef) -> str | None:
    """Return "messages" or "completions" when a class's method sets that attribute of its
    instances to the instance itself (`self.messages = self`): `client.messages.create(...)`
    then runs the class's own `create`."""
    for method in node.body:
        if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for statement in ast.walk(method):
            if not isinstance(statement, ast.Assign):
                continue
            if not (isinstance(statement.value, ast.Name) and statement.value.id == "self"):
                continue
            for target in statement.targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and target.attr in ("messages", "completions")
                ):
                    return target.attr
    return None


def _respx(callee: list[str]) -> bool:
    """Return whether a `post`/`route` call is made on respx or one of its routers
    (`respx.post`, `respx_mock.post`, `router.route`), not on a test client of the project's
    own app (`client.post("/v1/messages")`)."""
    return any("respx" in name.lower() or "router" in name.lower() for name in callee[:-1])


def _text(node: ast.expr) -> str:
    """Return a string literal's text, or an f-string's literal parts joined (`f"{BASE}/v1/
    messages"` -> "/v1/messages"); "" for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
    return ""
