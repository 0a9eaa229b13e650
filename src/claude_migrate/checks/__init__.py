"""The rule registry: every check, by code and by name, found by scanning this package.

A new rule is one module here (a `Check` subclass with its `code`), its page `rules/<CODE>.md`
and its fixtures; nothing else lists it. Discovery imports every module of the package and keeps
the classes that define a `code` of their own, ordered by code, so the order never depends on
file names or on the file system. Shared bases (`ceiling.CeilingCheck`) define no code and are
not rules.

`CLAUDE_MIGRATE_EXTRA_RULES` names further packages to scan (comma-separated importable
names, as `python -c "import NAME"` would find them). It exists so a test can add a throw-away
rule without editing this package; the rules it finds are held to the same contract (a code
of their own, a page beside their module or in `rules/`).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from claude_migrate.checks.base import Check, Option
from claude_migrate.core.resources import rules_dir

EXTRA_PACKAGES_ENV = "CLAUDE_MIGRATE_EXTRA_RULES"


class RegistryError(Exception):
    """Two rules claim one code or one name: the registry cannot say which is meant."""


def _package_checks(package: str) -> list[type[Check[Any]]]:
    module = importlib.import_module(package)
    found: list[type[Check[Any]]] = []
    names = [info.name for info in pkgutil.iter_modules(getattr(module, "__path__", []))]
    for name in sorted(names):
        member = importlib.import_module(f"{package}.{name}")
        for value in vars(member).values():
            # `type(value)`, not `isinstance`: the latter reads `__class__`, which would load a
            # module bound lazily (`cst = lazy_import("libcst")`) at start-up.
            if (
                issubclass(type(value), type)
                and issubclass(value, Check)
                and value.__module__ == member.__name__
                and "code" in vars(value)
            ):
                found.append(value)
    return found


def discover(packages: Iterable[str]) -> tuple[type[Check[Any]], ...]:
    """Return every rule defined in the modules of `packages`, ordered by code."""
    checks: dict[str, type[Check[Any]]] = {}
    names: dict[str, str] = {}
    for package in packages:
        for check in _package_checks(package):
            if check.code in checks and checks[check.code] is not check:
                twice = f"{checks[check.code]} and {check}"
                raise RegistryError(f"{check.code} is defined twice: {twice}")
            if names.get(check.name, check.code) != check.code:
                both = f"{names[check.name]} and {check.code}"
                raise RegistryError(f"rule name {check.name!r} is used by {both}")
            checks[check.code] = check
            names[check.name] = check.code
    return tuple(checks[code] for code in sorted(checks))


def _packages() -> list[str]:
    extra = os.environ.get(EXTRA_PACKAGES_ENV, "")
    return [__name__, *(name.strip() for name in extra.split(",") if name.strip())]


def page_path(check: type[Check[Any]]) -> Path:
    """Return where a rule's page is: `rules/<CODE>.md`, or beside a rule from another package."""
    if check.__module__.startswith(__name__ + "."):
        return rules_dir() / f"{check.code}.md"
    module = importlib.import_module(check.__module__)
    return Path(module.__file__ or ".").parent / f"{check.code}.md"


ALL_CHECKS: tuple[type[Check[Any]], ...] = discover(_packages())

# Codes that are always on and are not checks: CM001 parse-error.
ALWAYS_ON = frozenset({"CM001"})
PSEUDO_RULES = {"CM001": ("parse-error", "a file that can't be read, decoded or parsed")}

CHECKS_BY_CODE = {check.code: check for check in ALL_CHECKS}
CHECKS_BY_NAME = {check.name: check for check in ALL_CHECKS}
KNOWN_CODES = frozenset(CHECKS_BY_CODE) | frozenset(PSEUDO_RULES)

__all__ = [
    "ALL_CHECKS",
    "ALWAYS_ON",
    "CHECKS_BY_CODE",
    "CHECKS_BY_NAME",
    "KNOWN_CODES",
    "PSEUDO_RULES",
    "Check",
    "Option",
    "discover",
    "page_path",
]
