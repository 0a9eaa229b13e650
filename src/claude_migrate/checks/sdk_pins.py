"""CM201 sdk-pins: a dependency requirement that admits an SDK version below the policy minimum.

Why: a codebase that still pins `anthropic==0.28.0` or `boto3<1.30` keeps the old SDK's
behaviour whatever its code says. Finds: in every dependency file (`fixtures/sdk-pins/` has one
case per format), a requirement of a package named in `sdk-pins.minimums` whose constraint is not
empty and admits some version below the minimum; in a lock file, a locked version below it.
Writes instead: the constraint raised to the minimum in the author's style (`==`, `>=`, `~=`,
poetry `^` / `~`), every other character kept; lock files get no fix (re-lock instead).
Safe, unless raising `anthropic` crosses a release that removed something (the catalogue's
`[[sdk-removals]]`) the project's Python code still uses: then the fix is unsafe and the message
names the uses (file:line, a few). A lock file's guidance names them the same way.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from packaging.version import InvalidVersion, Version

from claude_migrate.checks.base import Check, Option
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, FileError, Fix
from claude_migrate.manifests import MANIFEST_KIND, canonical_name
from claude_migrate.manifests.pin import toml_string

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.filekind import CheckContext
    from claude_migrate.manifests.pin import Pin, Problem

DEFAULT_MINIMUMS = {"anthropic": "0.33.0", "boto3": "1.34.0"}
SDK = "anthropic"


def is_version(text: str) -> bool:
    """Return whether `text` is a PEP 440 version (what a minimum must be)."""
    try:
        Version(text)
    except InvalidVersion:
        return False
    return True


def name_marker(name: str) -> bytes:
    """Return the longest part of a package name between separators, lowercased.

    Every spelling pip accepts (`Foo_Bar`, `foo.bar`, `FOO-bar`) contains it, so it is a sound
    prefilter marker for a case-insensitive search.
    """
    parts = canonical_name(name).split("-")
    return max(parts, key=len).encode("utf-8")


class SdkPinsCheck(Check["CheckContext"]):
    code = "CM201"
    name = "sdk-pins"
    summary = "a dependency requirement admits an SDK version below the policy minimum"
    fix_applicability = Applicability.SAFE
    kinds = frozenset({MANIFEST_KIND})
    file_names = frozenset({"setup.py"})
    markers_ignore_case = True
    options = {
        "minimums": Option(
            "string-table",
            DEFAULT_MINIMUMS,
            "lowest version allowed for each package (package name -> version)",
            pattern=is_version,
            pattern_text='a version such as "0.33.0"',
        ),
    }

    def __init__(self, settings: Mapping[str, Any]) -> None:
        super().__init__(settings)
        self.minimums: dict[str, tuple[str, Version]] = {
            canonical_name(name): (text, Version(text))
            for name, text in dict(settings["minimums"]).items()
        }

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        return bool(table.get("minimums"))

    @classmethod
    def markers_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        return tuple(dict.fromkeys(name_marker(name) for name in dict(table.get("minimums", ()))))

    def check(self, ctx: CheckContext) -> Iterable[Diagnostic]:
        # The constraint logic needs `packaging`'s requirement parser: loaded only when a
        # dependency file is checked, never for a run over Python files alone.
        from claude_migrate.manifests.processor import ManifestContext
        from claude_migrate.manifests.requirement import (
            ConstraintError,
            Problem,
            constraint_admits_below,
        )

        if isinstance(ctx, ManifestContext):
            pins, problems = ctx.reading
            label = ctx.name
        elif os.path.basename(ctx.path) == "setup.py":
            from claude_migrate.manifests.setup_py import read

            # `setup.py` comes through the Python pass (`file_names`): its context is a tree.
            pins, problems = read(cast("FileContext", ctx))
            label = "setup.py"
        else:
            return
        for problem in problems:
            ctx.errors.append(_error(ctx, problem))
        for pin in pins:
            minimum = self.minimums.get(pin.key)
            if minimum is None:
                continue
            try:
                below = constraint_admits_below(pin.spec, pin.syntax, minimum[1])
            except ConstraintError as exc:
                ctx.errors.append(
                    _error(
                        ctx, Problem(pin.start, f"invalid version constraint for {pin.name}: {exc}")
                    )
                )
                continue
            if below:
                yield self._diagnostic(ctx, pin, minimum[0], label)

    def _diagnostic(self, ctx: CheckContext, pin: Pin, minimum: str, label: str) -> Diagnostic:
        from claude_migrate.core.diagnostics import fingerprint
        from claude_migrate.manifests.locks import RELOCK
        from claude_migrate.manifests.requirement import LOCKED, raise_constraint
        from claude_migrate.policy import releases

        source = ctx.source
        fix = None
        if pin.syntax == LOCKED:
            message = (
                f"{label} locks {pin.name} {pin.spec}, below the policy minimum {minimum}: "
                f"raise the requirement and re-lock (`{RELOCK.get(label, 'lock again')}`)"
            )
        else:
            message = (
                f"{pin.name} {pin.spec.strip()} admits versions below the policy minimum {minimum}"
            )
            release = str(releases.target(pin.key, Version(minimum)))
            generated = _generated(pin, label) or _unpublished(pin, minimum, release)
            message += generated
            span = pin.spec_span
            raised = (
                raise_constraint(pin.spec, pin.syntax, minimum, release)
                if span is not None and not generated
                else None
            )
            if raised is not None and span is not None:
                text = raised
                if pin.rewrite is not None:  # a TOML string with escapes, written anew
                    text = toml_string(pin.rewrite[0] + raised + pin.rewrite[1])
                edit = Edit(span[0], span[1], text)
                why = "" if release == minimum else f" ({minimum} was never published)"
                fix = Fix(Applicability.SAFE, f"raise {pin.name} to {raised.strip()}{why}", (edit,))
        blocking = self._blocking_uses(ctx, pin, minimum)
        if blocking:
            message += "; " + blocking
            if fix is not None:
                fix = Fix(Applicability.UNSAFE, fix.description, fix.edits)
        if fix is not None:
            fix, message = _relocked(ctx, fix, message)
        line, column = source.position(pin.start)
        end_line, end_column = source.position(pin.end)
        return Diagnostic(
            path=ctx.path,
            line=line,
            column=column + 1,
            end_line=end_line,
            end_column=end_column + 1,
            code=self.code,
            rule=self.name,
            message=message,
            fix=fix,
            fingerprint=fingerprint(source.text[pin.start : pin.end]),
            context=pin.where,
        )

    def _blocking_uses(self, ctx: CheckContext, pin: Pin, minimum: str) -> str:
        """Return what the raise removes that the project still uses ("" when nothing)."""
        if pin.key != SDK:
            return ""
        from claude_migrate.analysis import sdk_uses
        from claude_migrate.manifests.requirement import ConstraintError, constraint_admits_below

        floor = Version(minimum)
        crossed = []
        known = ctx.facts.catalogue  # the shipped catalogue, extended by the team's
        for removal in known.sdk_removals:
            removed_in = Version(removal.removed_in)
            if removed_in > floor:
                continue
            try:
                if not constraint_admits_below(pin.spec, pin.syntax, removed_in):
                    continue  # the project is past that release already
            except ConstraintError:
                continue
            crossed.append(removal)
        folder = getattr(ctx, "folder", None)  # a dependency file's; setup.py's is its path's
        if folder is None:
            folder = os.path.dirname(os.path.abspath(getattr(ctx, "file_path", ctx.path)))
        folder = sdk_uses.code_folder(folder)
        found = sdk_uses.uses(folder, crossed) if crossed else {}
        if not found:
            return ""
        parts = []
        for removal in crossed:
            places = found.get(removal.name)
            if not places:
                continue
            shown = ", ".join(places[: sdk_uses.SHOWN])
            extra = len(places) - sdk_uses.SHOWN
            more = f" and {extra} more" if extra > 0 else ""
            parts.append(
                f"{removal.name} (removed in {removal.removed_in}) is used at {shown}{more}"
            )
        return "unsafe: the project still uses what that removes: " + "; ".join(parts)


def _relocked(ctx: CheckContext, fix: Fix, message: str) -> tuple[Fix, str]:
    """Return the fix made unsafe, and the message saying what to run, when a lock file beside
    the dependency file records its requirements: until it is made again, installing from it
    fails (`poetry install` answers that pyproject.toml changed significantly since poetry.lock
    was last generated; `uv sync --locked` that the lock needs updating)."""
    from claude_migrate.manifests.locks import RELOCK, locks_beside

    locks = locks_beside(getattr(ctx, "file_path", ctx.path))
    if not locks:
        return fix, message
    commands = " and ".join(f"`{RELOCK[lock]}`" for lock in locks)
    said = f"{' and '.join(locks)} beside it records these requirements: run {commands} after it"
    fixed = Fix(Applicability.UNSAFE, f"{fix.description}; then run {commands}", fix.edits)
    return fixed, f"{message}; unsafe: {said}"


def _unpublished(pin: Pin, minimum: str, release: str) -> str:
    """Return why an exact pin is not raised to a version not known to be published ("" if it
    is): `==9.1.0` of a release PyPI never had leaves a project that no longer installs."""
    from claude_migrate.manifests.requirement import pins_exactly
    from claude_migrate.policy import installed_sdk, releases

    if not pins_exactly(pin.spec, pin.syntax, minimum):
        return ""
    known = releases.for_package(pin.key)
    if known is not None and known.published(Version(release)):
        return ""
    if pin.key == SDK and installed_sdk.installed_version() == release:
        return ""  # the anthropic package installed beside claude-migrate is that release
    if known is None or known.latest is None:
        listed = f"rules/releases.toml has no list of {pin.name}'s releases"
    else:
        listed = f"rules/releases.toml lists {pin.name} up to {known.latest}, read {known.as_of}"
    return (
        f"; no automatic fix: {release} is not a release of {pin.name} known to be published "
        f"({listed}), and an exact pin of one that is not would not install: pin a published "
        "release by hand"
    )


def _generated(pin: Pin, label: str) -> str:
    """Return why a requirement of a generated or hash-pinned file is not edited ("" if it is)."""
    if pin.generated is not None:
        return (
            f"; {label} is generated by `{pin.generated}`: raise the requirement in that "
            "command's input and run it again (an edit by hand is lost on the next run"
            + (" and no longer matches the file's hashes)" if pin.hashed else ")")
        )
    if pin.hashed:
        return (
            f"; {label} pins hashes: raise the requirement where it comes from and regenerate "
            "the file with the tool that wrote it (such as `poetry export` or `pip-compile "
            "--generate-hashes`); an edited version no longer matches its hashes"
        )
    return ""


def _error(ctx: CheckContext, problem: Problem) -> FileError:
    if problem.offset is not None:
        line, column = ctx.source.position(problem.offset)
        return FileError(ctx.path, problem.message, line, column + 1)
    return FileError(ctx.path, problem.message, problem.line)
