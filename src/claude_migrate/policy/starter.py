"""`claude-migrate init`: write a commented starter policy, never touching one that exists.

The starter names a preset in `extend` and lists every rule's options commented out with the
value the preset gives them, so a team sees what it may change. Into an existing
`pyproject.toml` the section is appended as text (the file is never re-serialised, so its
comments and layout stay), with the file's own line endings, and only after the result is
checked to parse; otherwise a new `claude-migrate.toml` is written.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claude_migrate.checks import ALL_CHECKS
from claude_migrate.core.atomic import write_atomic
from claude_migrate.policy.config import (
    CONFIG_NAME,
    PYPROJECT,
    PolicyLoader,
    _with_defaults,
    preset_names,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

COMMENT_COLUMN = 28
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


class StarterError(Exception):
    """`init` would overwrite a policy or break a file; nothing was written (exit 2)."""


@dataclass(frozen=True)
class Written:
    path: Path
    appended: bool


def toml_value(value: Any) -> str:
    """Return `value` as a TOML literal (strings, numbers, booleans, lists, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()  # a TOML local date
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items())
        return "{ " + items + " }" if items else "{}"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def _line(assignment: str, comment: str) -> str:
    return f"{assignment:<{COMMENT_COLUMN - 1}} # {comment}" if comment else assignment


def starter_text(preset: str, in_pyproject: bool, loader: PolicyLoader | None = None) -> str:
    """Return the commented starter policy for `preset` (a pyproject section or a whole file)."""
    loader = loader or PolicyLoader()
    policy = loader.preset(preset)
    tables = _with_defaults(policy.tables)
    prefix = "tool.claude-migrate." if in_pyproject else ""
    lines = []
    if in_pyproject:
        lines.append("[tool.claude-migrate]")
    lines += [
        f"# claude-migrate policy, written by `claude-migrate init --preset {preset}`.",
        "# Every key is optional: what is not set here comes from the preset named in `extend`",
        "# (the commented values are the preset's). `claude-migrate rules` lists the rules,",
        "# `claude-migrate explain CODE` explains one, and `claude-migrate show-policy FILE`",
        "# shows the policy in effect for a file and where each value comes from.",
        _line(
            f"extend = {toml_value(preset)}",
            "a preset (" + ", ".join(preset_names()) + ") or a TOML file",
        ),
        _line(
            f"# select = {toml_value(policy.select)}",
            "codes or prefixes; opt-in rules need their full code",
        ),
        _line(f"# ignore = {toml_value(policy.ignore)}", "codes or prefixes to turn off"),
        _line(
            f"# exclude = {toml_value(policy.exclude or ['legacy/**'])}",
            "for example; gitignore-style globs relative to this folder",
        ),
    ]
    for check in ALL_CHECKS:
        if not check.options:
            continue
        lines += [
            "",
            f"[{prefix}{check.name}]".ljust(COMMENT_COLUMN - 1)
            + f" # {check.code}: {check.summary}",
        ]
        table = tables.get(check.name, {})
        for key, option in check.options.items():
            value = table.get(key, option.default)
            if value is None:  # unset unless the policy sets it: show an example value
                shown = option.example_value()
                example = f" {toml_value(shown)}" if shown is not None else ""
                lines.append(
                    _line(f"# {_key(key)} ={example}", f"{option.description}; unset by default")
                )
                continue
            lines.append(_line(f"# {_key(key)} = {toml_value(value)}", option.description))
    lines += [
        "",
        '# A rule\'s findings as "error", "warning" or "info" (`--fail-on` picks what fails):',
        f"# [{prefix}severity]",
        '# CM302 = "warning"',
        "",
        "# A part of the tree with its own limits (later entries win, tables merge key by key):",
        f"# [[{prefix}overrides]]",
        '# paths = ["services/creative/**"]',
        "# temperature = { max = 1.0 }",
    ]
    return "\n".join(lines) + "\n"


def init(folder: Path, preset: str, standalone: bool = False) -> Written:
    """Write a starter policy into `folder` (made when missing); refuse when one is there."""
    if preset not in preset_names():
        raise StarterError(f"unknown preset {preset!r} (known: {', '.join(preset_names())})")
    if folder.exists() and not folder.is_dir():
        raise StarterError(f"{folder}: not a folder")
    config = folder / CONFIG_NAME
    pyproject = folder / PYPROJECT
    if config.exists():
        raise StarterError(f"{config}: a policy file already exists; not overwriting it")
    existing: bytes | None = None
    if pyproject.is_file():
        existing = pyproject.read_bytes()
        data = _parse(existing, pyproject)
        tool = data.get("tool")
        if isinstance(tool, dict) and "claude-migrate" in tool:
            raise StarterError(
                f"{pyproject}: already has a [tool.claude-migrate] table; not overwriting it"
            )
    loader = PolicyLoader(cwd=folder)
    if existing is None or standalone:
        text = starter_text(preset, in_pyproject=False, loader=loader)
        _parse(text.encode("utf-8"), config)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = exc.strerror or exc
            raise StarterError(f"{folder}: cannot create the folder: {reason}") from None
        write_atomic(config, text.encode("utf-8"))
        return Written(config, appended=False)
    newline = b"\r\n" if b"\r\n" in existing else b"\n"
    section = starter_text(preset, in_pyproject=True, loader=loader).encode("utf-8")
    section = section.replace(b"\n", newline)
    glue = b"" if not existing or existing.endswith((b"\n", b"\r")) else newline
    combined = existing + glue + (newline if existing.strip() else b"") + section
    parsed = _parse(combined, pyproject, appended=True)
    if "claude-migrate" not in parsed.get("tool", {}):
        raise StarterError(f"{pyproject}: the appended section did not parse as expected")
    write_atomic(pyproject, combined)
    return Written(pyproject, appended=True)


def _parse(data: bytes, path: Path, appended: bool = False) -> dict[str, Any]:
    try:
        text = data.decode("utf-8-sig")
        return tomllib.loads(text)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError) as exc:
        line = getattr(exc, "lineno", None)
        if line is None:
            match = re.search(r"line (\d+)", str(exc))
            line = int(match.group(1)) if match else None
        where = f"{path}:{line}" if line else str(path)
        if appended:
            raise StarterError(
                f"{where}: appending a [tool.claude-migrate] section would not parse ({exc}); "
                "add it by hand or use --standalone"
            ) from None
        raise StarterError(f"{where}: not valid TOML ({exc}); nothing was written") from None


def display(path: Path) -> str:
    try:
        return Path(os.path.relpath(path)).as_posix()
    except ValueError:
        return str(path)
