"""Find, load, merge (preset -> extends -> file -> overrides) and validate the policy.

A policy file is `claude-migrate.toml` (keys at top level) or a `pyproject.toml` with a
`[tool.claude-migrate]` table. Each file checked gets the policy of the nearest such file above
it; `--config` applies one to every file; with none found the built-in `default` preset applies.
Every mistake is a `ConfigError` naming the file, the line where we can find it, the key and
what was expected, and is raised before any file is touched.
"""

from __future__ import annotations

import copy
import datetime as dt
import errno
import functools
import json
import keyword
import os
import re
import stat
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.checks import ALL_CHECKS, ALWAYS_ON, CHECKS_BY_NAME, KNOWN_CODES
from claude_migrate.core.diagnostics import SEVERITIES
from claude_migrate.core.errors import ConfigError, number_too_long
from claude_migrate.core.gitignore import PatternError, compile_pattern, matches, policy_spec
from claude_migrate.core.paths import as_shown, path_problem
from claude_migrate.core.resources import rules_dir
from claude_migrate.core.settings import FileSettings

if TYPE_CHECKING:
    import pathspec  # compiled on first use (`gitignore`)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

CONFIG_NAME = "claude-migrate.toml"
PYPROJECT = "pyproject.toml"
TOP_LEVEL_KEYS = ("extend", "select", "ignore", "exclude", "severity", "overrides", "call-sites")
OVERRIDE_KEYS = ("paths", "select", "ignore", "severity")
# `[[call-sites]]`: a team's own wrapper, by import path, and which of its parameters is which
# Claude parameter.
CALL_SITES = "call-sites"
CALL_SITE_PARAMETERS = ("model", "temperature", "max-tokens", "stop-sequences", "stream")
DEFAULT_PRESET = "default"


class _Problems:
    """Collects every `ConfigError` of one validation pass instead of stopping at the first."""

    def __init__(self) -> None:
        self.found: list[ConfigError] = []

    def check(self, func: Any, *args: Any) -> None:
        try:
            func(*args)
        except ConfigError as exc:
            self.found.append(exc)

    def raise_any(self) -> None:
        if self.found:
            raise ConfigError.combine(self.found)


def suggestion(word: str, choices: Iterable[str]) -> str:
    """Return ` (did you mean `x`?)` for the closest choice to a mistyped key, or ""."""
    import difflib  # only a policy with a mistake gets this far

    options = list(choices)
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        normal = {c.replace("_", "-").lower(): c for c in options}
        hit = normal.get(word.replace("_", "-").lower())
        close = [hit] if hit else []
    return f"; did you mean `{close[0]}`?" if close else ""


class RealPaths:
    """`Path.resolve()` for the thousands of paths of one run, each folder resolved once.

    Resolving a path walks every component with `lstat`; a tree walk asks about every file, so
    the folders' answers are kept. A file's own name still gets its `lstat` (it may be a link).
    """

    def __init__(self) -> None:
        self._folders: dict[str, str] = {}

    def resolve(self, path: Path) -> Path:
        text = os.path.abspath(path)
        folder, name = os.path.split(text)
        if not name or os.path.islink(text):
            return Path(os.path.realpath(text))
        real = self._folders.get(folder)
        if real is None:
            real = self._folders[folder] = os.path.realpath(folder)
        return Path(os.path.join(real, name))


def preset_names() -> list[str]:
    """Return the names of the presets shipped in rules/."""
    data = ("deprecations", "models", "releases")  # catalogue data files, not policies
    return sorted(p.stem for p in rules_dir().glob("*.toml") if p.stem not in data)


@dataclass
class Override:
    spec: pathspec.GitIgnoreSpec
    patterns: list[str]
    tables: dict[str, dict[str, Any]]
    select: list[str] | None
    ignore: list[str] | None
    source: str
    severity: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class CommandLine:
    """What the command line adds to every policy: ruff's `--extend-select`, `--exclude` and
    `--extend-exclude`.

    `exclude` (when given) takes the place of each policy's own `exclude`; `extend_exclude` adds
    to it. Their globs are read as in a policy file, relative to `cwd` (where the command runs).
    """

    extend_select: tuple[str, ...] = ()
    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    cwd: Path = field(default_factory=Path.cwd)

    @property
    def globs(self) -> tuple[str, ...]:
        return (*(self.exclude or ()), *self.extend_exclude)

    def spec(self) -> pathspec.GitIgnoreSpec | None:
        """Return the command line's exclude globs compiled (None when there are none)."""
        if not self.globs:
            return None
        try:
            return policy_spec(self.globs)
        except PatternError as exc:
            flag = "--exclude" if self.exclude else "--extend-exclude"
            raise ConfigError(flag, None, str(exc)) from None


@dataclass
class Policy:
    """A merged, validated policy rooted at the folder of the file it came from."""

    root: Path
    source: str
    select: list[str]
    ignore: list[str]
    exclude: list[str]
    tables: dict[str, dict[str, Any]]
    overrides: list[Override] = field(default_factory=list)
    severity: dict[str, str] = field(default_factory=dict)
    # (table, key) -> where the value came from, for `show-policy`.
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    _exclude_spec: pathspec.GitIgnoreSpec | None = field(default=None, repr=False)
    _settings_cache: dict[Any, FileSettings] = field(default_factory=dict, repr=False)
    _real: RealPaths = field(default_factory=RealPaths, repr=False)
    _real_root: Path | None = field(default=None, repr=False)
    # From the command line (`CommandLine`): codes added to the selection, and its own exclude
    # globs (relative to `_cli_root`), which replace the policy's when `_cli_replaces`.
    extend_select: tuple[str, ...] = ()
    _cli_exclude: pathspec.GitIgnoreSpec | None = field(default=None, repr=False)
    _cli_root: Path | None = field(default=None, repr=False)
    _cli_replaces: bool = field(default=False, repr=False)

    def with_command_line(self, line: CommandLine, spec: pathspec.GitIgnoreSpec | None) -> Policy:
        """Return this policy with the command line's selection and exclusions applied."""
        self.extend_select = line.extend_select
        self._cli_exclude = spec
        self._cli_root = line.cwd.resolve()
        self._cli_replaces = line.exclude is not None
        self._settings_cache.clear()
        return self

    @property
    def exclude_spec(self) -> pathspec.GitIgnoreSpec:
        if self._exclude_spec is None:
            self._exclude_spec = policy_spec(self.exclude)
        return self._exclude_spec

    def relative(self, path: Path) -> str | None:
        """Return `path` relative to the policy root in POSIX form, or None if outside it."""
        if self._real_root is None:
            self._real_root = self.root.resolve()
        try:
            return self._real.resolve(path).relative_to(self._real_root).as_posix()
        except ValueError:
            return None

    def is_excluded(self, path: Path) -> bool:
        if self._cli_exclude is not None and self._cli_root is not None:
            try:
                rel_cli = self._real.resolve(path).relative_to(self._cli_root).as_posix()
            except ValueError:
                rel_cli = None
            if rel_cli is not None and matches(self._cli_exclude, rel_cli):
                return True
        if not self.exclude or self._cli_replaces:
            return False
        rel = self.relative(path)
        if rel is None:
            return False
        # A folder the patterns exclude excludes everything in it, as in git.
        return matches(self.exclude_spec, rel)

    def settings_for(
        self,
        path: Path,
        select: Sequence[str] | None = None,
        extend_ignore: Sequence[str] = (),
    ) -> FileSettings:
        """Return the settings for `path`, applying every matching override in order.

        `select` and `extend_ignore` come from the command line and win over the files.
        """
        rel = self.relative(path) if self.overrides else None
        matching = tuple(
            i for i, o in enumerate(self.overrides) if rel is not None and matches(o.spec, rel)
        )
        cache_key = (matching, tuple(select) if select is not None else None, tuple(extend_ignore))
        cached = self._settings_cache.get(cache_key)
        if cached is not None:
            return cached
        chosen = select
        tables = copy.deepcopy(self.tables)
        select, ignore = list(self.select), list(self.ignore)
        severity = dict(self.severity)
        for i in matching:
            override = self.overrides[i]
            for name, table in override.tables.items():
                _drop_stale_fix_to(tables.get(name), table)
                tables.setdefault(name, {}).update(table)
            if override.select is not None:
                select = list(override.select)
            if override.ignore is not None:
                ignore = ignore + list(override.ignore)
            severity.update(override.severity)
        tables = _with_defaults(tables)
        codes = resolve_codes(
            [*(select if chosen is None else chosen), *self.extend_select],
            [*ignore, *extend_ignore],
            tables,
        )
        settings = FileSettings(
            codes=codes,
            tables=tuple(
                sorted((name, tuple(sorted(t.items()))) for name, t in _freeze(tables).items())
            ),
            severities=tuple(sorted(severity.items())),
        )
        self._settings_cache[cache_key] = settings
        return settings


def _freeze(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    def freeze(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(freeze(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, freeze(v)) for k, v in value.items()))
        return value

    return {name: {k: freeze(v) for k, v in table.items()} for name, table in tables.items()}


def _with_defaults(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Fill in every option's default, including defaults derived from other keys."""
    result: dict[str, dict[str, Any]] = {}
    for check in ALL_CHECKS:
        table = dict(tables.get(check.name, {}))
        for key, option in check.options.items():
            if key not in table and option.default_from is None:
                table[key] = copy.deepcopy(option.default)
        for key, option in check.options.items():
            if key not in table and option.default_from is not None:
                table[key] = table[option.default_from]
        result[check.name] = table
    if CALL_SITES in tables:
        result[CALL_SITES] = tables[CALL_SITES]
    return result


def _matches(code: str, selector: str) -> bool:
    return code.startswith(selector)


def resolve_codes(
    select: Iterable[str], ignore: Iterable[str], tables: Mapping[str, Mapping[str, Any]]
) -> frozenset[str]:
    """Return the rule codes enabled by select/ignore and the rule tables."""
    select, ignore = list(select), list(ignore)
    codes = set(ALWAYS_ON)
    for check in ALL_CHECKS:
        chosen = [s for s in select if _matches(check.code, s)]
        if not chosen:
            continue
        if check.opt_in and check.code not in chosen:
            continue
        # The most specific selector wins between select and ignore, as in ruff.
        best_select = max(len(s) for s in chosen)
        dropped = [s for s in ignore if _matches(check.code, s)]
        if dropped and max(len(s) for s in dropped) >= best_select:
            continue
        if not check.active(tables.get(check.name, {})):
            continue
        codes.add(check.code)
    return frozenset(codes)


# Loading -------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _find_line(text: str, table: str | None, key: str) -> int | None:
    """Return the 1-based line where `key` is set (inside `[table]` when given), if found.

    Remembered: a policy with thousands of entries of one array (`[[call-sites]]`,
    `[[overrides]]`) asks the same question once per entry, and the text is scanned once.
    """
    lines = text.splitlines()
    in_table = table is None
    key_re = re.compile(rf"^\s*\"?{re.escape(key)}\"?\s*=")
    header_re = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?")
    for number, line in enumerate(lines, 1):
        header = header_re.match(line)
        if header:
            name = header.group(1).replace('"', "")
            in_table = table is not None and (name == table or name.endswith("." + table))
            if table is not None and in_table is False and name.endswith(f"{table}"):
                in_table = True
            continue
        if in_table and key_re.match(line):
            return number
        if (
            table is not None
            and not in_table
            and re.match(rf"^\s*\"?{re.escape(table)}\"?\s*=\s*\{{.*\b{re.escape(key)}\b", line)
        ):
            return number
    return None


@dataclass
class _RawPolicy:
    """One file's (or preset's) table before merging, with where it came from."""

    data: dict[str, Any]
    path: str
    text: str
    folder: Path


def _read_text(path: Path, display: str) -> str:
    """Return a policy file's text; anything but a readable regular file is a `ConfigError`.

    The file is opened without blocking and checked to be a regular file before it is read: a
    FIFO or a device named like a policy would otherwise hang the run or never end it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        if os.path.islink(path):
            target = os.readlink(path)
            raise ConfigError(
                display, None, f"a symbolic link to {target!r}, which does not exist"
            ) from None
        raise ConfigError(display, None, "file not found") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ConfigError(display, None, "a symbolic link that loops") from None
        raise ConfigError(display, None, f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ConfigError(display, None, "not a regular file")
        try:
            data = handle.read()
        except OSError as exc:
            raise ConfigError(display, None, f"cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(display, None, f"cannot read: not UTF-8 ({exc.reason})", line) from None


def _parse_toml(text: str, display: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        message = getattr(exc, "msg", str(exc))
        if line is None:
            match = re.search(r"line (\d+)", str(exc))
            line = int(match.group(1)) if match else None
        raise ConfigError(display, None, f"invalid TOML: {message}", line) from None
    except RecursionError:
        raise ConfigError(display, None, "invalid TOML: nested too deeply") from None
    except ValueError:
        words, number_line = number_too_long(text)
        raise ConfigError(display, None, f"invalid TOML: {words}", number_line) from None


def _read_toml(path: Path, display: str) -> tuple[dict[str, Any], str]:
    text = _read_text(path, display)
    return _parse_toml(text, display), text


# A line of a pyproject.toml that sets something of this tool: a `[tool.claude-migrate...]`
# header, or a `claude-migrate` key (under `[tool]`, or dotted from the top level).
_NAMES_TOOL_TABLE = re.compile(
    r"""^\s*(?:\[+\s*tool\s*\.\s*["']?claude-migrate\b"""
    r"""|(?:tool\s*\.\s*)?(?:claude-migrate|"claude-migrate"|'claude-migrate')\s*[.=])""",
    re.MULTILINE,
)


def names_policy_table(text: str) -> bool:
    """Return whether a pyproject.toml's text sets this tool's table, even if it does not parse."""
    return _NAMES_TOOL_TABLE.search(text) is not None


def read_policy_table(path: Path, governing: bool = False) -> _RawPolicy | None:
    """Return the claude-migrate table of a config file, or None for a pyproject without one.

    With `governing` (a pyproject.toml met while looking for the policy of the files below it),
    a pyproject.toml that does not parse governs only if its text visibly sets this tool's
    table (`names_policy_table`); otherwise it is one more file of the project, skipped like a
    pyproject.toml without the table (its own check reports it as CM001), so one stray template
    or fixture cannot stop a run over a whole monorepo.
    """
    display = as_shown(path)
    text = _read_text(path, display)
    try:
        data = _parse_toml(text, display)
    except ConfigError:
        if governing and path.name == PYPROJECT and not names_policy_table(text):
            return None
        raise
    if path.name == PYPROJECT:
        tool = data.get("tool", {})
        if not isinstance(tool, dict) or "claude-migrate" not in tool:
            return None
        table = tool["claude-migrate"]
        if not isinstance(table, dict):
            raise ConfigError(display, "tool.claude-migrate", "expected a table")
        return _RawPolicy(table, display, text, path.parent)
    return _RawPolicy(data, display, text, path.parent)


def _preset_path(name: str) -> Path | None:
    if path_problem(f"{name}.toml") is not None:
        return None
    candidate = rules_dir() / f"{name}.toml"
    return candidate if candidate.is_file() else None


class PolicyLoader:
    """Builds each policy once per config file and answers which policy a path gets."""

    def __init__(
        self,
        config: Path | None = None,
        cwd: Path | None = None,
        base: str | None = None,
        command_line: CommandLine | None = None,
        roots: Sequence[Path] = (),
    ) -> None:
        self.cwd = (cwd or Path.cwd()).resolve()
        # The paths the run checks (a file's folder for a file), as real paths: outside any git
        # work tree, a policy found inside one names only files inside it (`_boundary_of`).
        self._roots = [
            Path(os.path.realpath(root if os.path.isdir(root) else os.path.dirname(root) or "."))
            for root in roots
        ]
        self._line = command_line
        self._line_spec = command_line.spec() if command_line is not None else None
        self._forced: Policy | None = None
        # A campaign's policy (a preset name or a TOML file) layered under every policy found:
        # it takes the place of the built-in default beneath each file's own chain.
        self._base_chain: list[_RawPolicy] | None = None
        if base is not None:
            self._base_chain = self._base(base)
        self._by_file: dict[Path, Policy] = {}
        self._by_dir: dict[Path, Policy] = {}
        self._default: Policy | None = None
        self._real = RealPaths()
        self._by_given: dict[str, Policy] = {}
        if config is not None:
            raw = read_policy_table(config)
            if raw is None:
                raise ConfigError(
                    as_shown(config), "tool.claude-migrate", "no [tool.claude-migrate] table"
                )
            self._forced = self._build(raw)

    def _base(self, base: str) -> list[_RawPolicy]:
        """Return the extend chain of the campaign policy `base` names."""
        problem = path_problem(base)
        if problem is not None:
            raise ConfigError(
                "--base-config", None, f"expected a preset or {problem}, got {_shown(base)}"
            )
        if _preset_path(base) is not None and "/" not in base and not base.endswith(".toml"):
            raw = _RawPolicy({"extend": base}, f"extend = {base!r}", "", self.cwd)
        else:
            path = Path(base)
            if not path.is_file():
                raise ConfigError(
                    base,
                    None,
                    "the base policy is neither a preset ("
                    + ", ".join(preset_names())
                    + ") nor an existing TOML file",
                )
            loaded = read_policy_table(path)
            if loaded is None:
                raise ConfigError(
                    as_shown(path), "tool.claude-migrate", "no [tool.claude-migrate] table"
                )
            raw = loaded
        chain = self._extend_chain(raw, [])
        for link in chain:
            _validate(link)
        return chain

    @property
    def default(self) -> Policy:
        if self._default is None and self._base_chain is not None:
            last = self._base_chain[-1]
            merged = _merge(self._base_chain, root=last.folder, source=last.path)
            self._default = self._with_line(merged)
        if self._default is None:
            path = _preset_path(DEFAULT_PRESET)
            assert path is not None, "the default preset is missing from the installation"
            data, text = _read_toml(path, f"preset:{DEFAULT_PRESET}")
            raw = _RawPolicy(data, f"preset:{DEFAULT_PRESET}", text, self.cwd)
            self._default = self._build(raw)
        return self._default

    def preset(self, name: str) -> Policy:
        """Return the policy of a file that says only `extend = name` (for `init`)."""
        raw = _RawPolicy({"extend": name}, f"extend = {name!r}", "", self.cwd)
        return self._build(raw)

    def for_path(self, path: Path) -> Policy:
        """Return the policy for a file or folder (nearest config file above it)."""
        if self._forced is not None:
            return self._forced
        # Every file of a folder gets the folder's policy: answer from the folder as given, and
        # resolve only the first time (a symbolic link goes the long way: its target decides).
        text = os.path.abspath(path)
        given: str | None = None
        if not os.path.islink(text):
            given = text if os.path.isdir(text) else os.path.dirname(text)
            known = self._by_given.get(given)
            if known is not None:
                return known
        start = self._real.resolve(path)
        folder = start if start.is_dir() else start.parent
        visited: list[Path] = []
        policy: Policy | None = None
        current = folder
        while True:
            cached = self._by_dir.get(current)
            if cached is not None:
                policy = cached
                break
            visited.append(current)
            found = self._config_in(current)
            if found is not None:
                policy = found
                break
            if current.parent == current:
                break
            current = current.parent
        if policy is None:
            policy = self.default
        for folder_seen in visited:
            self._by_dir[folder_seen] = policy
        if given is not None:
            self._by_given[given] = policy
        return policy

    def _config_in(self, folder: Path) -> Policy | None:
        for name in (CONFIG_NAME, PYPROJECT):
            candidate = folder / name
            # A policy file that is there but cannot be read (a dangling or looping link, a
            # folder, a FIFO) is an error, never a reason to fall back on the default policy:
            # `_read_text` says which. Only a name that is not there at all is skipped.
            if not os.path.lexists(candidate):
                continue
            if candidate in self._by_file:
                return self._by_file[candidate]
            boundary = self._boundary_of(Path(os.path.realpath(folder)))
            if boundary is not None and not Path(os.path.realpath(candidate)).is_relative_to(
                boundary
            ):
                raise ConfigError(as_shown(candidate), None, _linked_outside(boundary))
            raw = read_policy_table(candidate, governing=True)
            if raw is None:
                continue
            policy = self._build(raw, boundary)
            self._by_file[candidate] = policy
            return policy
        return None

    def _boundary_of(self, folder: Path) -> Path | None:
        """Return the folder whose files a policy found in `folder` (a real path) may name.

        The top of its git work tree; outside any (a checkout unpacked from an archive), the
        outermost path given that holds it, so that a policy of the checked tree never reads a
        file elsewhere on the machine into its errors. None: a policy above every path given,
        outside git, names any file.
        """
        repository = _repository_of(folder)
        if repository is not None:
            return repository
        holders = [root for root in self._roots if folder.is_relative_to(root)]
        return min(holders, key=lambda root: len(root.parts)) if holders else None

    def _build(self, raw: _RawPolicy, repository: Path | None = None) -> Policy:
        """Return the policy of `raw`; a file found in a `repository` names only its files."""
        chain = self._extend_chain(raw, [], repository)
        problems = _Problems()
        for link in chain:
            problems.check(_validate, link)
        problems.raise_any()
        if repository is not None:
            for link in chain:
                problems.check(_paths_inside, link, repository)
            problems.raise_any()
        if self._base_chain is not None:
            # The campaign's policy replaces the built-in default beneath the file's own chain;
            # whatever the file says (its own keys, a preset it chose) still wins over it.
            own = chain[1:] if chain and chain[0].path == f"preset:{DEFAULT_PRESET}" else chain
            chain = [*self._base_chain, *own]
        return self._with_line(_merge(chain, root=raw.folder, source=raw.path))

    def _with_line(self, policy: Policy) -> Policy:
        if self._line is None:
            return policy
        return policy.with_command_line(self._line, self._line_spec)

    def _extend_chain(
        self, raw: _RawPolicy, seen: list[str], repository: Path | None = None
    ) -> list[_RawPolicy]:
        """Return [base, ..., raw]: the files `raw` extends, outermost first.

        With `repository` (the policy was found in a git work tree, not named on the command
        line), every file extended must lie inside it, after symbolic links are followed.
        """
        if raw.path in seen:
            raise ConfigError(
                raw.path, "extend", "extends itself (cycle: " + " -> ".join(seen) + ")"
            )
        extend = raw.data.get("extend")
        if extend is None:
            if raw.path.startswith("preset:"):
                return [raw]
            # Every file extends the default preset unless it says otherwise.
            extend = DEFAULT_PRESET
        if not isinstance(extend, str) or not extend:
            raise ConfigError(
                raw.path,
                "extend",
                "expected a preset name ("
                + ", ".join(preset_names())
                + ") or a path to a TOML file",
                _find_line(raw.text, None, "extend"),
            )
        problem = path_problem(extend)
        if problem is not None:
            raise ConfigError(
                raw.path, "extend", f"expected {problem}, got {_shown(extend)}",
                _find_line(raw.text, None, "extend"),
            )  # fmt: skip
        preset = (
            _preset_path(extend) if "/" not in extend and not extend.endswith(".toml") else None
        )
        if preset is not None:
            data, text = _read_toml(preset, f"preset:{extend}")
            base = _RawPolicy(data, f"preset:{extend}", text, raw.folder)
        else:
            target = (raw.folder / extend).resolve()
            if repository is not None and not target.is_relative_to(repository):
                raise ConfigError(
                    raw.path, "extend", _outside(extend, repository),
                    _find_line(raw.text, None, "extend"),
                )  # fmt: skip
            if not target.is_file():
                raise ConfigError(
                    raw.path,
                    "extend",
                    f"{extend!r} is neither a preset ("
                    + ", ".join(preset_names())
                    + ") nor an existing TOML file",
                    _find_line(raw.text, None, "extend"),
                )
            loaded = read_policy_table(target)
            if loaded is None:
                raise ConfigError(
                    as_shown(target), "tool.claude-migrate", "no [tool.claude-migrate] table"
                )
            base = loaded
        return self._extend_chain(base, seen + [raw.path], repository) + [raw]


def _repository_of(folder: Path) -> Path | None:
    """Return the top of the git work tree holding `folder` (a real path), or None."""
    for current in (folder, *folder.parents):
        if os.path.lexists(current / ".git"):
            return current
    return None


def _outside(value: str, repository: Path) -> str:
    return (
        f"{_shown(value)} is outside the repository that holds this policy "
        f"({as_shown(repository)}; outside git, the path given that holds it):"
        " a policy found in the checked tree names presets and files of its own repository only"
        " (a policy named by --config, --base-config or --trusted-config may name any file)"
    )


def _linked_outside(repository: Path) -> str:
    return (
        "a symbolic link to a file outside the repository that holds it "
        f"({as_shown(repository)}; outside git, the path given that holds it): a policy found "
        "in the checked tree is read from its own repository only (name a policy elsewhere "
        "with --config)"
    )


def _paths_inside(raw: _RawPolicy, repository: Path) -> None:
    """Raise unless every path option of `raw` (its rules' and overrides') is in `repository`."""
    tables: list[tuple[str, str, Any]] = [
        (name, name, table) for name, table in raw.data.items() if name in CHECKS_BY_NAME
    ]
    overrides = raw.data.get("overrides")
    for index, entry in enumerate(overrides if isinstance(overrides, list) else []):
        if isinstance(entry, dict):
            tables += [
                (f"overrides[{index}].{name}", name, table)
                for name, table in entry.items()
                if name in CHECKS_BY_NAME
            ]
    for where, name, table in tables:
        if not isinstance(table, dict):
            continue
        options = CHECKS_BY_NAME[name].options
        for key, value in table.items():
            if key not in options or options[key].kind != "path" or not isinstance(value, str):
                continue
            if not (raw.folder / value).resolve().is_relative_to(repository):
                raise ConfigError(
                    raw.path, f"{where}.{key}", _outside(value, repository),
                    _find_line(raw.text, name, key),
                )  # fmt: skip


def _validate_codes(raw: _RawPolicy, key: str, value: Any, table: str | None = None) -> list[str]:
    name = f"{table}.{key}" if table else key
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        line = _find_line(raw.text, table, key)
        raise ConfigError(raw.path, name, "expected a list of rule codes or prefixes", line)
    for selector in value:
        if not _known_selector(selector):
            raise ConfigError(
                raw.path, name, _unknown_code(selector), _find_line(raw.text, table, key)
            )
    return value


def _known_selector(selector: str) -> bool:
    return bool(selector) and any(code.startswith(selector) for code in KNOWN_CODES)


def _unknown_code(selector: str) -> str:
    return (
        f"unknown rule code or prefix {selector!r} (known: "
        + ", ".join(sorted(KNOWN_CODES))
        + ")"
        + suggestion(selector.upper(), KNOWN_CODES)
    )


def _validate_severity(raw: _RawPolicy, value: Any, where: str, table: str) -> None:
    """Check a `[severity]` table: rule codes or prefixes mapped to error, warning or info."""
    line = _find_table_line(raw.text, table) if where == "severity" else None
    if not isinstance(value, dict):
        raise ConfigError(raw.path, where, 'expected a table such as { CM302 = "warning" }', line)
    problems = _Problems()
    for selector, level in value.items():

        def one(selector: str = selector, level: Any = level) -> None:
            key_line = _find_line(raw.text, table, selector) or line
            if not _known_selector(selector):
                raise ConfigError(
                    raw.path, f"{where}.{selector}", _unknown_code(selector), key_line
                )
            if selector in ALWAYS_ON:
                raise ConfigError(
                    raw.path,
                    f"{where}.{selector}",
                    "a file that cannot be read or parsed is always an error",
                    key_line,
                )
            if level not in SEVERITIES:
                raise ConfigError(
                    raw.path,
                    f"{where}.{selector}",
                    f'expected "error", "warning" or "info", got {level!r}'
                    + (suggestion(level, SEVERITIES) if isinstance(level, str) else ""),
                    key_line,
                )

        problems.check(one)
    problems.raise_any()


SHOWN_CHARACTERS = 80  # a value quoted in a message: enough to recognise it


def _shown(value: Any) -> str:
    """Return a policy value as its TOML reads (a date as 2026-01-31, not its Python repr).

    A long value is cut (a 5,000-character name would bury the message).
    """
    if isinstance(value, (dt.date, dt.time)):
        return value.isoformat()
    text = repr(value)
    if len(text) > SHOWN_CHARACTERS:
        text = text[: SHOWN_CHARACTERS - 3] + "..."
    return text


def _validate_rule_table(raw: _RawPolicy, name: str, table: Any, where: str) -> None:
    check = CHECKS_BY_NAME[name]
    if not isinstance(table, dict):
        raise ConfigError(raw.path, where, "expected a table", _find_table_line(raw.text, name))
    problems = _Problems()
    for key, value in table.items():
        problems.check(_validate_option, raw, check, name, where, key, value)
    problems.raise_any()


def _validate_option(
    raw: _RawPolicy, check: Any, name: str, where: str, key: str, value: Any
) -> None:
    option = check.options.get(key)
    if option is None:
        known = ", ".join(check.options) or "none"
        raise ConfigError(
            raw.path,
            f"{where}.{key}",
            f"unknown key (known: {known})" + suggestion(key, check.options),
            _find_line(raw.text, name, key),
        )
    if not option.check(value):
        # Looked up only for the message: a valid policy's text is never scanned for lines.
        line = _find_line(raw.text, name, key)
        problem = path_problem(value) if option.kind == "path" and isinstance(value, str) else None
        if problem is not None:
            raise ConfigError(
                raw.path, f"{where}.{key}", f"expected {problem}, got {_shown(value)}", line
            )
        if option.kind == "string-table" and isinstance(value, dict):
            # Name the one entry that is wrong (`sdk-pins.minimums.anthropic`) and its line.
            for entry, item in value.items():
                if not option.check({entry: item}):
                    expected = option.pattern_text or "a string"
                    raise ConfigError(
                        raw.path,
                        f"{where}.{key}.{entry}",
                        f"expected {expected}, got {item!r}",
                        _find_line(raw.text, f"{name}.{key}", entry) or line,
                    )
        raise ConfigError(
            raw.path, f"{where}.{key}", f"expected {option.expected()}, got {_shown(value)}", line
        )


def _validate_override(raw: _RawPolicy, index: int, override: dict[str, Any]) -> None:
    where = f"overrides[{index}]"
    problems = _Problems()
    paths = override.get("paths")
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        problems.found.append(
            ConfigError(
                raw.path,
                f"{where}.paths",
                "expected a non-empty list of glob patterns",
                _find_line(raw.text, "overrides", "paths"),
            )
        )
    else:
        problems.check(
            _validate_patterns,
            raw,
            f"{where}.paths",
            paths,
            _find_line(raw.text, "overrides", "paths"),
        )
    for okey, ovalue in override.items():
        if okey == "paths":
            continue
        if okey in ("select", "ignore"):
            problems.check(_validate_codes, raw, okey, ovalue, "overrides")
        elif okey == "severity":
            problems.check(_validate_severity, raw, ovalue, f"{where}.severity", "overrides")
        elif okey in CHECKS_BY_NAME:
            problems.check(_validate_rule_table, raw, okey, ovalue, f"{where}.{okey}")
        else:
            problems.found.append(
                ConfigError(
                    raw.path,
                    f"{where}.{okey}",
                    "unknown key (expected paths, select, ignore, severity or a rule table: "
                    + ", ".join(CHECKS_BY_NAME)
                    + ")"
                    + suggestion(okey, [*OVERRIDE_KEYS, *CHECKS_BY_NAME]),
                    _find_line(raw.text, "overrides", okey),
                )
            )
    problems.raise_any()


def _validate_key(raw: _RawPolicy, key: str, value: Any) -> None:
    if key == "extend":
        return
    if key in ("select", "ignore"):
        _validate_codes(raw, key, value)
    elif key == "exclude":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(
                raw.path, key, "expected a list of glob patterns", _find_line(raw.text, None, key)
            )
        _validate_patterns(raw, key, value, _find_line(raw.text, None, key))
    elif key == "severity":
        _validate_severity(raw, value, "severity", "severity")
    elif key == "overrides":
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise ConfigError(
                raw.path,
                key,
                "expected an array of tables ([[overrides]])",
                _find_table_line(raw.text, key),
            )
        problems = _Problems()
        for index, override in enumerate(value):
            problems.check(_validate_override, raw, index, override)
        problems.raise_any()
    elif key == CALL_SITES:
        _validate_call_sites(raw, value)
    elif key in CHECKS_BY_NAME:
        _validate_rule_table(raw, key, value, key)
    else:
        raise ConfigError(
            raw.path,
            key,
            f"unknown {'table' if isinstance(value, dict) else 'key'} (expected one of: "
            + ", ".join(list(TOP_LEVEL_KEYS) + list(CHECKS_BY_NAME))
            + ")"
            + suggestion(key, [*TOP_LEVEL_KEYS, *CHECKS_BY_NAME]),
            _find_table_line(raw.text, key),
        )


def _validate_patterns(raw: _RawPolicy, key: str, patterns: list[str], line: int | None) -> None:
    """Raise a `ConfigError` naming the first glob git could never match with, and why."""
    for pattern in patterns:
        try:
            compile_pattern(pattern)
        except PatternError as exc:
            # The line of the pattern itself when it stands on a line of its own.
            own = _find_text_line(raw.text, pattern)
            raise ConfigError(
                raw.path,
                key,
                f"expected gitignore-style glob patterns: {exc}",
                own or line,
            ) from None


def _find_text_line(text: str, pattern: str) -> int | None:
    """Return the line of the TOML string that spells `pattern`, if one line holds it."""
    spellings = {json.dumps(pattern, ensure_ascii=False), "'" + pattern + "'"}
    for number, line in enumerate(text.splitlines(), 1):
        if any(s in line for s in spellings):
            return number
    return None


def _validate(raw: _RawPolicy) -> None:
    """Check every key of one policy file; raise one error that names every problem found."""
    problems = _Problems()
    for key, value in raw.data.items():
        problems.check(_validate_key, raw, key, value)
    problems.raise_any()


def _find_table_line(text: str, name: str) -> int | None:
    """Return the line of `[name]` (or `[tool.claude-migrate.name]`, `[name.sub]`, `name = ...`)."""
    header = re.compile(
        r"^\s*\[\[?\s*(?:tool\s*\.\s*\"?claude-migrate\"?\s*\.\s*)?\"?"
        + re.escape(name)
        + r"\"?\s*[\].]"
    )
    for number, line in enumerate(text.splitlines(), 1):
        if header.match(line):
            return number
    return _find_line(text, None, name)


def _is_name(value: object) -> bool:
    """Return whether `value` can name a parameter or module: an identifier, not a keyword."""
    return isinstance(value, str) and value.isidentifier() and not keyword.iskeyword(value)


def _is_dotted(value: object) -> bool:
    return isinstance(value, str) and all(_is_name(part) for part in value.split("."))


def _validate_call_sites(raw: _RawPolicy, value: Any) -> None:
    """Check `[[call-sites]]`: each a `function` import path and parameter names to map."""
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise ConfigError(
            raw.path, CALL_SITES, "expected an array of tables ([[call-sites]])",
            _find_line(raw.text, None, CALL_SITES),
        )  # fmt: skip
    for index, entry in enumerate(value):
        where = f"{CALL_SITES}[{index}]"
        function = entry.get("function")
        if not _is_dotted(function) or "." not in function:
            raise ConfigError(
                raw.path, f"{where}.function",
                'expected the import path of a function, such as "acme_llm.client.chat"',
                _find_line(raw.text, CALL_SITES, "function"),
            )  # fmt: skip
        mapped = [key for key in entry if key != "function"]
        if not mapped:
            raise ConfigError(
                raw.path, where,
                "expected at least one of " + ", ".join(CALL_SITE_PARAMETERS)
                + " naming the function's parameter",
                _find_line(raw.text, CALL_SITES, "function"),
            )  # fmt: skip
        for key in mapped:
            if key not in CALL_SITE_PARAMETERS:
                raise ConfigError(
                    raw.path, f"{where}.{key}",
                    "unknown key (expected function, " + ", ".join(CALL_SITE_PARAMETERS) + ")",
                    _find_line(raw.text, CALL_SITES, key),
                )  # fmt: skip
            name = entry[key]
            if not _is_name(name):
                raise ConfigError(
                    raw.path,
                    f"{where}.{key}",
                    "expected the name of one of the function's parameters (an identifier,"
                    f" not a keyword), got {_shown(name)}",
                    _find_line(raw.text, CALL_SITES, key),
                )


def _drop_stale_fix_to(base: dict[str, Any] | None, layer: Mapping[str, Any]) -> None:
    """Forget an inherited `fix-to` that a new, lower `max` makes invalid.

    A team that lowers `max` without naming `fix-to` means "fix to the default for my max",
    not "fail on a value I never wrote".
    """
    if base is None or "max" not in layer or "fix-to" in layer:
        return
    inherited = base.get("fix-to")
    if inherited is not None and inherited > layer["max"]:
        del base["fix-to"]


def _resolve_paths(name: str, table: Mapping[str, Any], folder: Path) -> dict[str, Any]:
    """Return a rule table with its `path` options made absolute from the policy's folder."""
    options = CHECKS_BY_NAME[name].options
    return {
        key: str((folder / value).resolve())
        if key in options and options[key].kind == "path" and isinstance(value, str)
        else value
        for key, value in table.items()
    }


@dataclass
class _Merged:
    """A policy chain merged so far, file by file (later files win, key by key)."""

    select: list[str] = field(default_factory=lambda: ["CM"])
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    tables: dict[str, dict[str, Any]] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)
    origins: dict[tuple[str, str], str] = field(default_factory=dict)
    severity: dict[str, str] = field(default_factory=dict)

    def add(self, raw: _RawPolicy) -> None:
        data = raw.data
        if "severity" in data:
            self.severity.update(data["severity"])
            for selector in data["severity"]:
                self.origins[("severity", selector)] = raw.path
        for key in ("select", "ignore", "exclude"):
            if key in data:
                setattr(self, key, list(data[key]))
                self.origins[("", key)] = raw.path
        for name in CHECKS_BY_NAME:
            if name in data:
                self._add_table(raw, name, data[name])
        if CALL_SITES in data:
            # Declared wrappers add up along the `extend` chain (a later one for the same
            # function wins).
            known = self.tables.get(CALL_SITES, {}).get("sites", [])
            declared = {e["function"]: e for e in known}
            declared.update({e["function"]: dict(e) for e in data[CALL_SITES]})
            self.tables[CALL_SITES] = {"sites": list(declared.values())}
            self.origins[(CALL_SITES, "sites")] = raw.path
        self.overrides.extend(_override(raw, entry) for entry in data.get("overrides", []))

    def _add_table(self, raw: _RawPolicy, name: str, table: dict[str, Any]) -> None:
        _drop_stale_fix_to(self.tables.get(name), table)
        for key, value in _resolve_paths(name, table, raw.folder).items():
            self.tables.setdefault(name, {})[key] = value
            self.origins[(name, key)] = raw.path

    def problems(self, last: _RawPolicy) -> list[ConfigError]:
        """Return every value the merged policy (and each override on top of it) rejects."""
        merged = _with_defaults(self.tables)
        problems: list[ConfigError] = []
        for check in ALL_CHECKS:
            for key, expected in check.validate(merged[check.name]):
                line = _find_line(last.text, check.name, key)
                problems.append(ConfigError(last.path, f"{check.name}.{key}", expected, line))
        for index, override in enumerate(self.overrides):
            for name, table in override.tables.items():
                trial = _with_defaults(
                    {**self.tables, name: {**self.tables.get(name, {}), **table}}
                )
                for key, expected in CHECKS_BY_NAME[name].validate(trial[name]):
                    where = f"overrides[{index}].{name}.{key}"
                    problems.append(ConfigError(override.source, where, expected))
        return problems


def _override(raw: _RawPolicy, entry: dict[str, Any]) -> Override:
    return Override(
        spec=policy_spec(entry["paths"]),
        patterns=list(entry["paths"]),
        tables={
            k: _resolve_paths(k, v, raw.folder) for k, v in entry.items() if k in CHECKS_BY_NAME
        },
        select=entry.get("select"),
        ignore=entry.get("ignore"),
        source=raw.path,
        severity=dict(entry.get("severity", {})),
    )


def _merge(chain: list[_RawPolicy], root: Path, source: str) -> Policy:
    merged = _Merged()
    for raw in chain:
        merged.add(raw)
    problems = merged.problems(chain[-1])
    if problems:
        raise ConfigError.combine(problems)
    select, ignore, exclude = merged.select, merged.ignore, merged.exclude
    tables, overrides, origins, severity = (
        merged.tables, merged.overrides, merged.origins, merged.severity
    )  # fmt: skip
    return Policy(
        root=root,
        source=source,
        select=select,
        ignore=ignore,
        exclude=exclude,
        tables=tables,
        overrides=overrides,
        origins=origins,
        severity=severity,
    )
