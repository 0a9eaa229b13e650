"""What the `anthropic` package installed next to claude-migrate says about models.

Two facts are read from it: the model ids its `Model` type lists (`anthropic/types/model.py`) and
its deprecation table (`anthropic/_data/deprecated_models.py`, model id -> "Month Dth, YYYY").
`catalogue --check` compares them with the shipped catalogue, and CM302 falls back to the table
for a model the catalogue does not know. `catalogue --check` also reads the models the SDK warns
about for `thinking={"type": "enabled"}` (`_data/models_to_warn_with_thinking_enabled.py`) and
the SDK's own surface: a removal the catalogue dates at or before the installed version must be
gone from it (the method's parameters, the client's methods, the resources, the exports).
The package is the environment's own, never the checked tree's, and its files are parsed,
not imported; without it (claude-migrate does not depend on it) both answers are None.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib.util
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claude_migrate.policy.deprecations import SdkRemoval

_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th)\b")


@dataclass(frozen=True)
class Sdk:
    version: str
    models: tuple[str, ...]
    deprecations: dict[str, dt.date]
    # The models the SDK warns about for `thinking={"type": "enabled"}` (accepted, deprecated).
    thinking_warned: tuple[str, ...] = ()
    # The package's folder, to read its surface from (empty: not read).
    root: str = ""

    @property
    def label(self) -> str:
        return f"anthropic {self.version}"


def parse_date(text: str) -> dt.date | None:
    """Return the date of "January 22nd, 2027", or None when it reads otherwise."""
    try:
        return dt.datetime.strptime(_ORDINAL.sub(r"\1", text.strip()), "%B %d, %Y").date()
    except ValueError:
        return None


def _source(root: Path, relative: str) -> ast.Module | None:
    try:
        return ast.parse((root / relative).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


def _assigned(module: ast.Module | None, name: str) -> ast.expr | None:
    """Return the value a module assigns to `name` at its top level (annotated or not)."""
    for statement in module.body if module is not None else []:
        if isinstance(statement, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in statement.targets
        ):
            return statement.value
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and statement.target.id == name
        ):
            return statement.value
    return None


def _strings(node: ast.AST | None) -> tuple[str, ...]:
    """Return every string constant inside `Literal[...]` subscripts under `node`."""
    found: list[str] = []
    for inner in ast.walk(node) if node is not None else []:
        if (
            isinstance(inner, ast.Subscript)
            and isinstance(inner.value, ast.Name)
            and inner.value.id == "Literal"
        ):
            for item in ast.walk(inner.slice):
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    found.append(item.value)
    return tuple(dict.fromkeys(found))


@cache
def _installed_root() -> tuple[Path, str] | None:
    """Return the installed SDK's folder and version, or None when it is missing or unreadable."""
    try:
        spec = importlib.util.find_spec("anthropic")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin:
        return None
    root = Path(spec.origin).parent
    version_node = _assigned(_source(root, "_version.py"), "__version__")
    if not (isinstance(version_node, ast.Constant) and isinstance(version_node.value, str)):
        return None
    return root, version_node.value


def installed_version() -> str | None:
    """Return the installed SDK's version (what `installed()` would say), reading one file."""
    found = _installed_root()
    return found[1] if found is not None else None


@cache
def installed() -> Sdk | None:
    """Return the installed SDK's model facts, or None when it is missing or unreadable.

    The package's files are read as text and parsed, never imported: importing the SDK costs
    seconds per worker process, and reading data needs none of its code.
    """
    found = _installed_root()
    if found is None:
        return None
    root, version = found
    models = _strings(_assigned(_source(root, "types/model.py"), "Model"))
    deprecations: dict[str, dt.date] = {}
    table = _assigned(_source(root, "_data/deprecated_models.py"), "DEPRECATED_MODELS")
    if isinstance(table, ast.Dict):
        for key, value in zip(table.keys, table.values, strict=False):
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                continue
            if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                continue
            date = parse_date(value.value)
            if date is not None:
                deprecations[key.value] = date
    warned = _assigned(
        _source(root, "_data/models_to_warn_with_thinking_enabled.py"),
        "MODELS_TO_WARN_WITH_THINKING_ENABLED",
    )
    thinking_warned = tuple(
        item.value
        for item in (warned.elts if isinstance(warned, (ast.List, ast.Tuple)) else [])
        if isinstance(item, ast.Constant) and isinstance(item.value, str)
    )
    return Sdk(version, models, deprecations, thinking_warned, str(root))


@dataclass(frozen=True)
class Gap:
    """One thing the installed SDK knows that the catalogue lacks or says otherwise."""

    # "missing-model", "missing-facts", "missing-retirement", "different-date",
    # "different-thinking", "removal-contradicted", "old-releases"
    kind: str
    model: str
    detail: str

    def line(self) -> str:
        return f"{self.kind}: {self.model}: {self.detail}"


def compare(sdk: Sdk) -> list[Gap]:
    """Return what the shipped catalogue and model facts lack or contradict, against `sdk`."""
    from claude_migrate.policy import deprecations, model_facts

    known = deprecations.load(None)
    facts = model_facts.load()
    gaps: list[Gap] = []
    for model_id in sdk.models:
        model = known.find(model_id)
        if model is None:
            gaps.append(
                Gap(
                    "missing-model",
                    model_id,
                    "listed by anthropic.types.Model, not in the catalogue",
                )
            )
        elif facts.for_model(model.id) is None:
            gaps.append(Gap("missing-facts", model_id, "no family in rules/models.toml"))
    gaps.extend(_release_gaps(sdk))
    for model_id, date in sorted(sdk.deprecations.items()):
        model = known.find(model_id)
        if model is None or model.retires is None:
            gaps.append(
                Gap(
                    "missing-retirement",
                    model_id,
                    f"the SDK's deprecation table says end of life {date.isoformat()}",
                )
            )
        elif model.retires != date:
            gaps.append(
                Gap(
                    "different-date",
                    model_id,
                    f"the catalogue says {model.retires.isoformat()}, the SDK {date.isoformat()}",
                )
            )
    for model_id in sdk.thinking_warned:
        model = known.find(model_id)
        family = facts.for_model(model.id) if model is not None else None
        if family is not None and family.thinking is not None and "enabled" not in family.thinking:
            gaps.append(
                Gap(
                    "different-thinking",
                    model_id,
                    'the SDK warns about (so still sends) thinking {"type": "enabled"}; '
                    "rules/models.toml says the model refuses it",
                )
            )
    if sdk.root:
        gaps.extend(_removal_gaps(sdk, known.sdk_removals))
    return gaps


def _release_gaps(sdk: Sdk) -> list[Gap]:
    """Return a gap when the installed SDK is a release the shipped release list lacks.

    CM201 raises pins to releases of that list: one older than the installed SDK may still be
    right, but it no longer knows every release, so it is worth refreshing from its source.
    """
    from packaging.version import InvalidVersion, Version

    from claude_migrate.policy import releases

    known = releases.for_package("anthropic")
    try:
        version = Version(sdk.version)
    except InvalidVersion:
        return []
    if known is None or version.is_prerelease or version.is_devrelease or known.published(version):
        return []
    latest = known.latest
    if latest is not None and version < latest:
        return []  # an older release missing from the list: not staleness; nothing to say
    return [
        Gap(
            "old-releases",
            "anthropic",
            f"the installed {sdk.version} is newer than rules/releases.toml, read "
            f"{known.as_of.isoformat()} (latest {latest}); refresh it from {known.source}",
        )
    ]


def _removal_gaps(sdk: Sdk, removals: Sequence[SdkRemoval]) -> list[Gap]:
    """Return the removals the catalogue dates at or before `sdk` that its surface still has."""
    from packaging.version import InvalidVersion, Version

    try:
        installed_version = Version(sdk.version)
    except InvalidVersion:
        return []
    root = Path(sdk.root)
    gaps = []
    for removal in removals:
        if Version(removal.removed_in) > installed_version:
            continue
        still = _still_there(root, removal)
        if still:
            gaps.append(
                Gap(
                    "removal-contradicted",
                    f"{removal.kind} {removal.name}",
                    f"the catalogue says removed in {removal.removed_in}; {sdk.label} has {still}",
                )
            )
    return gaps


def _still_there(root: Path, removal: SdkRemoval) -> str:
    """Return where the installed SDK still has a removed name ("" when it is gone)."""
    if removal.kind == "argument":
        return ", ".join(
            f"{call}({removal.name}=)"
            for call in removal.calls
            if removal.name in (_parameters(root, call) or ())
        )
    if removal.kind == "client-method":
        found = _defines(_source(root, "_client.py"), removal.name)
        return f"client.{removal.name}()" if found else ""
    if removal.kind == "client-attribute":
        folder = root.joinpath("resources", *removal.name.split("."))
        there = folder.exists() or folder.with_suffix(".py").exists()
        return f"client.{removal.name}" if there else ""
    if removal.kind == "resource":
        gone = not (root / "resources" / removal.name).exists()
        gone = gone and not (root / "resources" / f"{removal.name}.py").exists()
        return "" if gone else f"resources/{removal.name}"
    if removal.kind == "constant":
        return f"anthropic.{removal.name}" if _exports(root, removal.name) else ""
    if removal.kind == "constructor":
        return ", ".join(f"class {path}" for path in removal.calls if _is_class(root, path))
    return ""


def _is_class(root: Path, path: str) -> bool:
    """Return whether the module an import path names (`anthropic.types.message_param.X`)
    defines X as a class (a re-export elsewhere is judged where it is defined)."""
    parts = path.split(".")
    if len(parts) < 3 or parts[0] != "anthropic":
        return False
    folder = root.joinpath(*parts[1:-1])
    for module in (_source(folder.parent, f"{folder.name}.py"), _source(folder, "__init__.py")):
        for node in module.body if module is not None else []:
            if isinstance(node, ast.ClassDef) and node.name == parts[-1]:
                return True
    return False


def _parameters(root: Path, call: str) -> frozenset[str] | None:
    """Return every parameter name of a resource method ("beta.messages.create"), or None."""
    parts = call.split(".")
    if len(parts) < 2:
        return None
    folder = root.joinpath("resources", *parts[:-1])
    for path in (folder / f"{parts[-2]}.py", folder.with_suffix(".py")):
        module = _source(path.parent, path.name)
        if module is None:
            continue
        names: set[str] = set()
        found = False
        for node in ast.walk(module):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == parts[-1]:
                found = True
                names.update(a.arg for a in (*node.args.args, *node.args.kwonlyargs))
        if found:
            return frozenset(names)
    return None


def _defines(module: ast.Module | None, name: str) -> bool:
    """Return whether a module defines `name` as a function or binds it (`with_options = copy`)."""
    for node in ast.walk(module) if module is not None else []:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return True
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return True
    return False


def _exports(root: Path, name: str) -> bool:
    module = _source(root, "__init__.py")
    for node in module.body if module is not None else []:
        if isinstance(node, ast.ImportFrom) and any(
            (alias.asname or alias.name) == name for alias in node.names
        ):
            return True
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return True
    return False
