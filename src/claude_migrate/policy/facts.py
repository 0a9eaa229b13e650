"""What is true of the project a file belongs to, beyond the file itself: one object per policy.

Rules read these facts instead of each other's policy tables: the target API version (what
`[api-version] version` says every call sends), the SDK minimums (`[sdk-pins] minimums`, and
the `anthropic` floor the project's own dependency files prove), the deprecation catalogue
(the shipped one, extended by a team catalogue), whether calls must stream, the date and the
window retirements are judged on, and which sampling parameter a model fix keeps. `facts_for`
builds them once per policy; `FileContext.facts` hands them to every check.

The result cache keys a file's entry on `ProjectFacts.cache_key` for every file and every rule
selection, so a rule that reads a fact cannot forget to declare it: an edited team catalogue,
a new day or a re-pinned `anthropic` is a different key whichever rules are selected.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from packaging.version import InvalidVersion, Version

from claude_migrate.core.dates import as_date
from claude_migrate.manifests import canonical_name

if TYPE_CHECKING:
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.manifests.pin import Pin
    from claude_migrate.policy.deprecations import Catalogue

SDK_PACKAGE = "anthropic"
# The one Python file whose requirements decide the SDK floor (read with `ast`, never run).
SETUP_PY = "setup.py"
# A longer setup.py proves no floor: it is parsed in the run's own process, where no per-file
# memory limit holds, so it gets the bound above which the engine parses Python files only in a
# worker (`engine.hazard.MAX_IN_PROCESS_BYTES`): its `ast` alone could cost gigabytes.
MAX_SETUP_PY_BYTES = 512 * 1024
# A longer dependency file (a lock file, a requirements or pyproject file) proves no floor
# either: it too is parsed in the run's own process, once for every Python file below it, where
# a pull request's 60 MB `poetry.lock` took minutes and gigabytes and cost those files their
# findings (a CM001 for the time limit). Checked as a file of its own, it keeps its findings.
# Real lock files stay well under this bound.
MAX_PIN_FILE_BYTES = 4 * 1024 * 1024


def today() -> dt.date:
    """Return today's date in UTC: the default `as-of` of every date comparison."""
    from claude_migrate.policy.deprecations import today as catalogue_today

    return catalogue_today()


def as_version(text: object) -> Version | None:
    """Return `text` as a version, or None when it is not one."""
    try:
        return Version(str(text))
    except InvalidVersion:
        return None


@dataclass(frozen=True)
class ProjectFacts:
    """The facts every rule may read about a file's project, under one policy."""

    # The `anthropic-version` the project targets (`[api-version] version`).
    api_version: str
    # The lowest version allowed per package (canonical names), from `[sdk-pins] minimums`.
    sdk_minimums: Mapping[str, str]
    # A team catalogue extending the shipped one (absolute path), if the policy names one.
    team_catalogue: str | None
    # The date retirements are judged on: `[retired-models] as-of`, else today (UTC).
    as_of: dt.date
    # Whether the policy requires Claude calls to stream (CM104 enabled with `require`).
    streaming_required: bool
    # How retirements are judged (`[retired-models]`): the warning window in days, what an id
    # with no platform date of its own gets ("api", "warn", "ignore"), the team's replacements.
    retirement_warn_days: int
    platform_dates: str
    model_replacements: Mapping[str, str]
    # Which catalogue replacement a fix writes: "nearest" or "recommended" (`[retired-models]
    # prefer`).
    replacement_preference: str
    # Which sampling parameter a model fix keeps when the model takes only one
    # (`[model-params] prefer`).
    sampling_preference: str
    # The `as-of` the policy sets, if any (None: today, read again for every key).
    fixed_as_of: dt.date | None = field(default=None, compare=False)

    @property
    def catalogue(self) -> Catalogue:
        """Return the deprecation catalogue: shipped, extended by the team catalogue."""
        from claude_migrate.policy import deprecations

        return deprecations.load(self.team_catalogue)

    def sdk_floor(self, package: str = SDK_PACKAGE) -> Version | None:
        """Return the policy's minimum version of `package`, if it sets a valid one."""
        return as_version(self.sdk_minimums.get(canonical_name(package)))

    def pinned_at_least(self, path: str, version: str) -> str | None:
        """Return the dependency file near `path` that requires `anthropic>=version`, if any."""
        return project_pins_at_least(str(Path(path).resolve().parent), version)

    def cache_key(self, path: str) -> str:
        """Return every fact outside the file and its policy that a finding may depend on.

        Today's date (or the policy's `as-of`), the team catalogue's bytes, and the `anthropic`
        requirements of the project's dependency files nearest to `path`. Built for every file
        whatever the rule selection.
        """
        as_of = self.fixed_as_of or today()
        digest = ""
        if self.team_catalogue:
            try:
                digest = hashlib.sha256(Path(self.team_catalogue).read_bytes()).hexdigest()[:16]
            except OSError:
                digest = "missing"
        pins = "|".join(sdk_requirement_files(_real_folder_of(path)))
        from claude_migrate.policy.installed_sdk import installed_version

        # CM302 falls back to the installed SDK's deprecation table: its version is a fact too.
        version = installed_version() or "-"
        return f"as-of={as_of.isoformat()};catalogue={digest};pins={pins};sdk={version}"


def _table(settings: FileSettings, name: str) -> dict[str, Any]:
    return settings.table(name)


@cache
def facts_for(settings: FileSettings) -> ProjectFacts:
    """Return the project facts a file's policy states, built once per policy."""
    # These tables belong to CM105, CM201, CM302, CM104 and CM108; their declared defaults are
    # filled in by the policy loader, so no default is repeated here.
    version = _table(settings, "api-version").get("version")
    minimums = _table(settings, "sdk-pins").get("minimums") or {}
    retired = _table(settings, "retired-models")
    extra = retired.get("catalogue")
    fixed = as_date(retired.get("as-of"))
    warn_days = retired.get("warn-days")
    platform_dates = retired.get("platform-dates")
    prefer = _table(settings, "model-params").get("prefer")
    return ProjectFacts(
        api_version=version if isinstance(version, str) else "",
        sdk_minimums={canonical_name(k): str(v) for k, v in dict(minimums).items()},
        team_catalogue=extra if isinstance(extra, str) and extra else None,
        as_of=fixed or today(),
        streaming_required=settings.enabled("CM104")
        and bool(_table(settings, "streaming").get("require", True)),
        fixed_as_of=fixed,
        retirement_warn_days=warn_days if isinstance(warn_days, int) else 0,
        platform_dates=platform_dates if isinstance(platform_dates, str) else "",
        model_replacements={str(k): str(v) for k, v in dict(retired.get("replace") or {}).items()},
        replacement_preference=str(retired.get("prefer") or "nearest"),
        sampling_preference=prefer if isinstance(prefer, str) else "",
    )


def _real_folder_of(path: str) -> str:
    """Return `str(Path(path).resolve().parent)`, resolving each folder once per run.

    The key of every file asks: the files of one folder share the folder's answer, unless the
    file itself is a link (then its target's folder counts).
    """
    if os.path.islink(path):
        return str(Path(path).resolve().parent)
    folder = os.path.dirname(path)
    return _real_folder(folder if os.path.isabs(folder) else os.path.join(os.getcwd(), folder))


@cache
def _real_folder(folder: str) -> str:
    return str(Path(folder).resolve())


@cache
def nearest_sdk_pins(folder: str) -> tuple[tuple[str, Pin], ...]:
    """Return the `anthropic` requirements (file name, pin) that govern files in `folder`.

    The nearest folder, `folder` or one above it, whose dependency files name `anthropic`
    decides; each folder is listed once per run, its answer shared by every folder below it.
    `setup.py` gives its `install_requires` literal, read with `ast` (never run). Inside a git
    work tree the walk ends at its top and a file linked from outside it is not read: the
    folders above a checkout hold other projects' files (`_project_files`).
    """
    from claude_migrate.manifests import format_of

    current = Path(folder)
    found: list[tuple[str, Pin]] = []
    for name in _project_files(folder):
        fmt = format_of(name)
        if fmt is None and name != SETUP_PY:
            continue
        try:
            bound = MAX_SETUP_PY_BYTES if fmt is None else MAX_PIN_FILE_BYTES
            if (current / name).stat().st_size > bound:
                continue
            text = (current / name).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if SDK_PACKAGE not in text.lower():
            continue
        try:
            pins = _read_pins(fmt, text, name)
        except (RecursionError, MemoryError, ValueError):
            # A file no parser can read (nested too deeply, a 5,000-digit number) proves no
            # floor; checked as a dependency file it is its own CM001, never the Python file's.
            continue
        found += [(name, pin) for pin in pins if canonical_name(pin.name) == SDK_PACKAGE]
    if found or current.parent == current or _is_work_tree_top(folder):
        return tuple(found)
    return nearest_sdk_pins(str(current.parent))


def _read_pins(fmt: str | None, text: str, name: str) -> list[Pin]:
    """Return the requirements of one dependency file's text (`fmt` None: a setup.py)."""
    from claude_migrate.manifests import read_text

    if fmt is None:
        # Only a setup.py naming the SDK loads the requirement parser.
        from claude_migrate.manifests.setup_py_literals import read_install_requires

        return read_install_requires(text)
    pins, _problems = read_text(fmt, text, name)
    return pins


def _is_work_tree_top(folder: str) -> bool:
    """Return whether `folder` is the top of a git work tree (or of a submodule's)."""
    return os.path.lexists(os.path.join(folder, ".git"))


@cache
def _work_tree_of(folder: str) -> str | None:
    """Return the top of the git work tree holding `folder` (a real path), or None."""
    if _is_work_tree_top(folder):
        return folder
    parent = os.path.dirname(folder)
    return None if not parent or parent == folder else _work_tree_of(parent)


def _project_files(folder: str) -> list[str]:
    """Return the names of the regular files in `folder` (a real path) its project may read.

    In a git work tree, a symbolic link whose target lies outside it is left out: a checkout
    may commit `requirements.txt -> ~/.config/...`, and what that file says must not reach a
    finding or its message. Outside a work tree every regular file counts.
    """
    try:
        entries = sorted(os.listdir(folder))
    except OSError:
        return []
    top = _work_tree_of(folder)
    kept: list[str] = []
    for name in entries:
        full = os.path.join(folder, name)
        if not os.path.isfile(full):
            continue
        if top is not None and os.path.islink(full):
            target = os.path.realpath(full)
            if os.path.commonpath([top, target]) != top:
                continue
        kept.append(name)
    return kept


@cache
def sdk_requirement_files(folder: str) -> tuple[str, ...]:
    """Return a digest of every dependency file in `folder` and above whose text names `anthropic`.

    The cache key's share of the project's pins: whatever `nearest_sdk_pins` would read is among
    these files, so an edited requirement changes the key. Reading bytes and hashing them needs
    no requirement or TOML parser, so a run answered from the cache never loads one. The walk
    stops where `nearest_sdk_pins` stops: at the top of a git work tree.
    """
    from claude_migrate.manifests import format_of

    found: list[str] = []
    for name in _project_files(folder):
        full = os.path.join(folder, name)
        if format_of(name) is None and name != SETUP_PY:
            continue
        try:
            data = Path(full).read_bytes()
        except OSError:
            continue
        if SDK_PACKAGE.encode() in data.lower():
            found.append(f"{full}:{hashlib.sha256(data).hexdigest()[:16]}")
    parent = os.path.dirname(folder)
    if parent and parent != folder and not _is_work_tree_top(folder):
        found += sdk_requirement_files(parent)
    return tuple(found)


@cache
def project_pins_at_least(folder: str, version: str) -> str | None:
    """Return the dependency file (and its constraint) that requires `anthropic>=version`.

    A requirement proves the floor when it admits no version below `version` (a bare name or
    an open range proves nothing); the requirements are those of `nearest_sdk_pins`.
    """
    pins = nearest_sdk_pins(folder)
    if not pins:
        return None  # most projects: nothing to decide, and no constraint parser to load
    from claude_migrate.manifests.requirement import ConstraintError, constraint_admits_below

    minimum = Version(version)
    for name, pin in pins:
        try:
            below = constraint_admits_below(pin.spec, pin.syntax, minimum)
        except ConstraintError:
            continue
        if pin.spec.strip() and not below:
            return f"{name} ({pin.name} {pin.spec.strip()})"
    return None


def forget_project_files() -> None:
    """Drop what was read from the project's dependency files (they changed on disk)."""
    _real_folder.cache_clear()
    _work_tree_of.cache_clear()
    nearest_sdk_pins.cache_clear()
    sdk_requirement_files.cache_clear()
    project_pins_at_least.cache_clear()
