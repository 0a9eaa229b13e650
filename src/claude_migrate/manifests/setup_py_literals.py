"""`setup.py`'s requirement literals, read with CPython's `ast` (never run, never LibCST).

What the project's facts need to know before any file is checked (does the project require
`anthropic>=1.0`?) is the list a `setup(...)` call at module level passes as `install_requires`:
a list or tuple of string literals, written in the call or bound once to a module-level name
(`REQUIRES = [...]`). Anything computed (a file read, a comprehension, a concatenation) is not
read here; `manifests/setup_py.py` reads the same call from its LibCST tree for CM201's fixes.
"""

from __future__ import annotations

import ast
import warnings

from packaging.requirements import InvalidRequirement

from claude_migrate.manifests.pin import PEP440, Pin
from claude_migrate.manifests.requirement import parse_pep508


def read_install_requires(text: str) -> list[Pin]:
    """Return the pins `setup(install_requires=[...])` names at module level ([] when none or
    when the file does not parse)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    bound = _bound_once(tree.body)
    pins: list[Pin] = []
    for call in _setup_calls(tree.body):
        for keyword in call.keywords:
            if keyword.arg != "install_requires":
                continue
            value = keyword.value
            if isinstance(value, ast.Name):
                value = bound.get(value.id) or value
            pins.extend(_pins(value))
    return pins


def _bound_once(body: list[ast.stmt]) -> dict[str, ast.expr]:
    """Return the module-level names assigned exactly once, with their values."""
    seen: dict[str, ast.expr | None] = {}
    for statement in body:
        if isinstance(statement, ast.Assign):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    seen[target.id] = None if target.id in seen else statement.value
    return {name: value for name, value in seen.items() if value is not None}


def _setup_calls(body: list[ast.stmt]) -> list[ast.Call]:
    """Return the `setup(...)` / `<module>.setup(...)` calls made at module level, including
    under `if __name__ == "__main__":`."""
    found: list[ast.Call] = []
    for statement in body:
        if isinstance(statement, ast.If):
            found.extend(_setup_calls(statement.body))
            continue
        if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
            continue
        func = statement.value.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if name == "setup":
            found.append(statement.value)
    return found


def _pins(value: ast.expr) -> list[Pin]:
    if not isinstance(value, (ast.List, ast.Tuple)):
        return []
    pins = []
    for element in value.elts:
        if not isinstance(element, ast.Constant) or not isinstance(element.value, str):
            continue
        try:
            parsed = parse_pep508(element.value)
        except InvalidRequirement:
            continue
        # Offsets are not kept: this reading decides the project's facts, never an edit.
        pins.append(
            Pin(parsed.requirement.name, 0, 0, parsed.spec, PEP440, None, where="install_requires")
        )
    return pins
