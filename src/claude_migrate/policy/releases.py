"""Published releases (`rules/releases.toml`): the versions a raised pin may name.

A pin raised to a version that was never published leaves a project that no longer installs
(`anthropic==0.32.1`: PyPI lists 0.32.0, then 0.33.0). CM201 raises `==`, `~=`, `^` and `~` pins
to the lowest published release at or above the policy minimum; a policy minimum that is not a
release is worth a warning that names the nearest ones. Each package's list carries its source
and the date it was read, and `catalogue --check` says when the installed SDK is newer.
"""

from __future__ import annotations

import datetime as dt
import sys
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from packaging.version import InvalidVersion, Version

from claude_migrate.core.resources import rules_dir
from claude_migrate.manifests.names import canonical_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

RELEASES_NAME = "releases.toml"


@dataclass(frozen=True)
class Releases:
    """One package's published final releases, oldest first, with where the list came from."""

    package: str
    source: str
    as_of: dt.date
    versions: tuple[Version, ...]

    def published(self, version: Version) -> bool:
        index = bisect_left(self.versions, version)
        return index < len(self.versions) and self.versions[index] == version

    def at_or_above(self, version: Version) -> Version | None:
        """Return the lowest release at or above `version`, or None when the list has none."""
        index = bisect_left(self.versions, version)
        return self.versions[index] if index < len(self.versions) else None

    def below(self, version: Version) -> Version | None:
        """Return the highest release below `version`, or None when the list has none."""
        index = bisect_left(self.versions, version)
        return self.versions[index - 1] if index > 0 else None

    @property
    def latest(self) -> Version | None:
        return self.versions[-1] if self.versions else None


def path() -> Path:
    return rules_dir() / RELEASES_NAME


@cache
def load() -> dict[str, Releases]:
    """Return the shipped release lists by canonical package name ({} when the file is missing).

    The file ships with the package; a malformed one is a packaging fault, reported as missing
    lists rather than a crash in every worker.
    """
    try:
        data = tomllib.loads(path().read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    found: dict[str, Releases] = {}
    for package, table in data.items():
        if not isinstance(table, dict):
            continue
        versions: list[Version] = []
        for text in table.get("releases", ()):
            try:
                versions.append(Version(str(text)))
            except InvalidVersion:
                continue
        as_of = table.get("as-of")
        found[package] = Releases(
            package=package,
            source=str(table.get("source", "")),
            as_of=as_of if isinstance(as_of, dt.date) else dt.date.min,
            versions=tuple(sorted(set(versions))),
        )
    return found


def for_package(name: str) -> Releases | None:
    return load().get(name)


def target(name: str, minimum: Version) -> Version:
    """Return the version a pin raised to `minimum` names: the lowest release at or above it.

    Without a list for the package, or when the minimum is newer than every listed release (the
    list is older than the policy), the minimum itself.
    """
    releases = for_package(name)
    found = releases.at_or_above(minimum) if releases is not None else None
    return found if found is not None else minimum


def minimum_warning(name: str, minimum: str) -> str | None:
    """Return a warning when a policy minimum is not a published release of `name`, else None."""
    releases = for_package(name)
    try:
        version = Version(minimum)
    except InvalidVersion:
        return None
    if releases is None or releases.latest is None or version > releases.latest:
        return None  # unknown package, or newer than the list: nothing to say about it
    if releases.published(version):
        return None
    below = releases.below(version)
    above = releases.at_or_above(version)
    nearest = " and ".join(
        part
        for part in (
            f"{below} below it" if below is not None else "",
            f"{above} above it" if above is not None else "",
        )
        if part
    )
    return (
        f"sdk-pins minimum {name} {minimum} is not a published release "
        f"(nearest: {nearest}; {releases.source}, as of {releases.as_of.isoformat()}); "
        f"pins are raised to {above}"
    )


def policy_warnings(minimums: Iterable[Mapping[str, str]]) -> list[str]:
    """Return one warning per policy minimum that is not a published release (each once).

    `minimums` are the SDK minimums (package -> version) of the policies in effect for the
    files CM201 checks.
    """
    seen: dict[tuple[str, str], None] = {}
    for table in minimums:
        for name, minimum in table.items():
            seen.setdefault((canonical_name(str(name)), str(minimum)))
    return [
        f"claude-migrate: warning: {warning}"
        for name, minimum in seen
        if (warning := minimum_warning(name, minimum)) is not None
    ]
