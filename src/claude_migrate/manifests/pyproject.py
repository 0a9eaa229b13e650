"""TOML dependency files: `pyproject.toml` (every table tools keep requirements in) and `Pipfile`.

In `pyproject.toml`: PEP 621 `project.dependencies` and `project.optional-dependencies`, PEP 735
`dependency-groups`, `build-system.requires`, uv's `tool.uv.dev-dependencies` (and its
constraint/override lists), PDM's `tool.pdm.dev-dependencies`, all PEP 508 strings; and poetry's
`tool.poetry.dependencies`, `tool.poetry.dev-dependencies` and `tool.poetry.group.*.dependencies`,
whose values are poetry constraints: a string, an inline table `{ version = "...", ... }`, a
sub-table `[tool.poetry.dependencies.NAME]`, or a list of tables with markers. In a `Pipfile`:
every package category (`[packages]`, `[dev-packages]`, custom ones), PEP 440 specifiers or `*`.
"""

from __future__ import annotations

from typing import Any

from packaging.requirements import InvalidRequirement

from claude_migrate.manifests.requirement import PEP440, POETRY, Pin, Problem, parse_pep508
from claude_migrate.manifests.toml_spans import Located, Path, TomlDocument, TomlError, dotted

PIPFILE_NOT_PACKAGES = frozenset({"source", "requires", "pipenv", "scripts"})


def _pep508(doc: TomlDocument, path: Path, pins: list[Pin], problems: list[Problem]) -> None:
    located = doc.values.get(path)
    if located is None or not isinstance(located.value, str):
        return  # e.g. a PEP 735 `{include-group = "..."}` entry
    text = located.value
    try:
        parsed = parse_pep508(text)
    except InvalidRequirement as exc:
        problems.append(
            Problem(
                located.start,
                f"invalid requirement {text!r} in {dotted(path[:-1])}: {str(exc).splitlines()[0]}",
            )
        )
        return
    spec_start = spec_end = None
    rewrite = None
    if parsed.spec_start is not None and parsed.spec:
        if located.inner_start is not None:
            spec_start = located.inner_start + parsed.spec_start
        else:  # written with escapes: the fix writes the whole string anew
            spec_start, spec_end = located.start, located.end
            after = parsed.spec_start + len(parsed.spec)
            rewrite = (text[: parsed.spec_start], text[after:])
    pins.append(
        Pin(
            parsed.requirement.name,
            located.start,
            located.end,
            parsed.spec,
            PEP440,
            spec_start,
            dotted(path[:-1]),
            spec_end=spec_end,
            rewrite=rewrite,
        )
    )


def _pep508_list(doc: TomlDocument, path: Path, pins: list[Pin], problems: list[Problem]) -> None:
    value = _get(doc.data, path)
    if isinstance(value, list):
        for index in range(len(value)):
            _pep508(doc, (*path, index), pins, problems)


def _pep508_groups(doc: TomlDocument, path: Path, pins: list[Pin], problems: list[Problem]) -> None:
    groups = _get(doc.data, path)
    if isinstance(groups, dict):
        for group in groups:
            _pep508_list(doc, (*path, group), pins, problems)


def _get(data: Any, path: Path) -> Any:
    for part in path:
        if isinstance(data, dict) and isinstance(part, str):
            data = data.get(part)
        elif isinstance(data, list) and isinstance(part, int) and part < len(data):
            data = data[part]
        else:
            return None
    return data


def _versioned(
    doc: TomlDocument, name: str, path: Path, holder: Located, syntax: str, pins: list[Pin]
) -> None:
    """Add the pin of one dependency entry: a version string, or a table with a `version` key."""
    located = doc.values.get(path)
    if located is None:
        return
    where = dotted(path[:-1])
    if isinstance(located.value, str):
        spec = located.value
        if syntax == PEP440 and spec.strip() == "*":
            spec = ""
        pins.append(_string_pin(name, holder.key_start, located, spec, syntax, where))
    elif isinstance(located.value, dict):
        version = doc.values.get((*path, "version"))
        if version is None or not isinstance(version.value, str):
            return  # a git, path or url dependency
        start = version.key_start if located.kind == "table" else holder.key_start
        spec = version.value
        if syntax == PEP440 and spec.strip() == "*":
            spec = ""
        pins.append(_string_pin(name, start, version, spec, syntax, where))
    elif isinstance(located.value, list):
        for index in range(len(located.value)):
            item = doc.values.get((*path, index))
            if item is not None:
                _versioned(doc, name, (*path, index), item, syntax, pins)


def _string_pin(name: str, start: int, located: Located, spec: str, syntax: str, where: str) -> Pin:
    """Return the pin of a constraint that is a whole TOML string (`anthropic = "^0.20"`)."""
    if not spec:
        return Pin(name, start, located.end, spec, syntax, None, where)
    if located.inner_start is not None:
        return Pin(name, start, located.end, spec, syntax, located.inner_start, where)
    # Written with escapes (`"\u003e=0.20"`): the fix writes the whole string anew.
    return Pin(
        name, start, located.end, spec, syntax, located.start, where,
        spec_end=located.end, rewrite=("", ""),
    )  # fmt: skip


def _table_of_constraints(doc: TomlDocument, path: Path, syntax: str, pins: list[Pin]) -> None:
    table = _get(doc.data, path)
    if not isinstance(table, dict):
        return
    for name in table:
        holder = doc.values.get((*path, name))
        if holder is not None and name != "python":
            _versioned(doc, name, (*path, name), holder, syntax, pins)


def read_pyproject(text: str) -> tuple[list[Pin], list[Problem]]:
    """Return every requirement of a pyproject.toml, in document order."""
    try:
        doc = TomlDocument(text)
    except TomlError as exc:
        return [], [toml_problem(exc)]
    pins: list[Pin] = []
    problems: list[Problem] = []
    _pep508_list(doc, ("build-system", "requires"), pins, problems)
    _pep508_list(doc, ("project", "dependencies"), pins, problems)
    _pep508_groups(doc, ("project", "optional-dependencies"), pins, problems)
    _pep508_groups(doc, ("dependency-groups",), pins, problems)
    for key in ("dev-dependencies", "constraint-dependencies", "override-dependencies"):
        _pep508_list(doc, ("tool", "uv", key), pins, problems)
    _pep508_groups(doc, ("tool", "pdm", "dev-dependencies"), pins, problems)
    _table_of_constraints(doc, ("tool", "poetry", "dependencies"), POETRY, pins)
    _table_of_constraints(doc, ("tool", "poetry", "dev-dependencies"), POETRY, pins)
    groups = _get(doc.data, ("tool", "poetry", "group"))
    if isinstance(groups, dict):
        for group in groups:
            _table_of_constraints(
                doc, ("tool", "poetry", "group", group, "dependencies"), POETRY, pins
            )
    pins.sort(key=lambda p: p.start)
    return pins, problems


def read_pipfile(text: str) -> tuple[list[Pin], list[Problem]]:
    """Return every package of every category of a Pipfile, in document order."""
    try:
        doc = TomlDocument(text)
    except TomlError as exc:
        return [], [toml_problem(exc)]
    pins: list[Pin] = []
    for category, table in doc.data.items():
        if category not in PIPFILE_NOT_PACKAGES and isinstance(table, dict):
            _table_of_constraints(doc, (category,), PEP440, pins)
    pins.sort(key=lambda p: p.start)
    return pins, []


def toml_problem(exc: TomlError) -> Problem:
    return Problem(None, str(exc), exc.line)
