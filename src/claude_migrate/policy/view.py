"""`claude-migrate show-policy PATH`: the merged policy in effect for one file, value by value,
with where each value came from (a preset, a policy file, an `[[overrides]]` entry or the rule's
built-in default).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_migrate.checks import ALL_CHECKS
from claude_migrate.core.gitignore import matches
from claude_migrate.policy.config import Policy, PolicyLoader, _with_defaults
from claude_migrate.policy.starter import toml_value

BUILT_IN = "built-in default"


@dataclass(frozen=True)
class Setting:
    key: str
    value: Any
    origin: str


@dataclass
class PolicyView:
    """The policy for one file, ready to print."""

    path: str
    source: str  # the policy file (or preset) that governs the file
    excluded: bool
    enabled: list[str]
    top: list[Setting] = field(default_factory=list)
    tables: dict[str, list[Setting]] = field(default_factory=dict)
    overrides: list[str] = field(default_factory=list)  # the [[overrides]] that match
    # Every rule's severity here, and the `[severity]` entry (or rule default) it comes from.
    severity: list[Setting] = field(default_factory=list)


def _override_label(policy: Policy, index: int) -> str:
    override = policy.overrides[index]
    return f"{override.source} [[overrides]] #{index + 1} ({', '.join(override.patterns)})"


def view(path: Path, loader: PolicyLoader, display: str) -> PolicyView:
    """Return the fully merged policy for `path` with each value's origin."""
    policy = loader.for_path(path)
    rel = policy.relative(path)
    matching = [
        i for i, o in enumerate(policy.overrides) if rel is not None and matches(o.spec, rel)
    ]
    origins: dict[tuple[str, str], str] = dict(policy.origins)
    tables = copy.deepcopy(policy.tables)
    select, ignore = list(policy.select), list(policy.ignore)
    for index in matching:
        override = policy.overrides[index]
        label = _override_label(policy, index)
        for name, table in override.tables.items():
            for key, value in table.items():
                tables.setdefault(name, {})[key] = value
                origins[(name, key)] = label
        if override.select is not None:
            select = list(override.select)
            origins[("", "select")] = label
        if override.ignore is not None:
            ignore = ignore + list(override.ignore)
            origins[("", "ignore")] = origins.get(("", "ignore"), BUILT_IN) + " + " + label
        for selector in override.severity:
            origins[("severity", selector)] = label
    merged = _with_defaults(tables)
    settings = policy.settings_for(path)
    result = PolicyView(
        path=display,
        source=policy.source,
        excluded=policy.is_excluded(path),
        enabled=sorted(settings.codes),
        overrides=[_override_label(policy, i) for i in matching],
    )
    for key, value in (("select", select), ("ignore", ignore), ("exclude", policy.exclude)):
        result.top.append(Setting(key, value, origins.get(("", key), BUILT_IN)))
    for check in ALL_CHECKS:
        if not check.options:
            continue
        rows = []
        for key, option in check.options.items():
            origin = origins.get((check.name, key))
            if origin is None:
                origin = BUILT_IN
                if option.default_from is not None:
                    origin += f" (the value of {option.default_from})"
            rows.append(Setting(key, merged[check.name][key], origin))
        result.tables[check.name] = rows
    for check in sorted(ALL_CHECKS, key=lambda c: c.code):
        level = settings.severity_of(check.code, check.severity)
        chosen = [s for s, _ in settings.severities if check.code.startswith(s)]
        if chosen:
            selector = max(chosen, key=len)
            origin = origins.get(("severity", selector), BUILT_IN) + f" ({selector})"
        else:
            origin = "the rule's default"
        result.severity.append(Setting(check.code, level.value, origin))
    return result


def render_text(policy: PolicyView) -> str:
    """Return the view as commented TOML: valid policy text, each value's origin beside it."""
    codes = {check.name: check.code for check in ALL_CHECKS}
    lines = [
        f"# Policy in effect for {policy.path}",
        f"# from: {policy.source}",
        f"# enabled rules: {', '.join(policy.enabled)}",
        f"# excluded: {'yes (by `exclude`)' if policy.excluded else 'no'}",
    ]
    if policy.overrides:
        lines.append("# matching overrides: " + "; ".join(policy.overrides))
    lines.append("")

    def row(setting: Setting) -> str:
        if setting.value is None:  # an option that is unset unless a policy sets it
            return f"{'# ' + setting.key + ' is unset':<31} # {setting.origin}"
        assignment = f"{setting.key} = {toml_value(setting.value)}"
        return f"{assignment:<31} # {setting.origin}"

    lines += [row(s) for s in policy.top]
    for name, rows in policy.tables.items():
        lines += ["", f"[{name}]".ljust(31) + f" # {codes[name]}"]
        lines += [row(s) for s in rows]
    if policy.severity:
        heading = "[severity]".ljust(31) + " # error, warning or info; --fail-on picks what fails"
        lines += ["", heading]
        lines += [row(s) for s in policy.severity]
    return "\n".join(lines) + "\n"


def render_json(policy: PolicyView) -> str:
    def entry(setting: Setting) -> dict[str, Any]:
        return {"value": setting.value, "origin": setting.origin}

    payload = {
        "path": policy.path,
        "source": policy.source,
        "excluded": policy.excluded,
        "enabled": policy.enabled,
        "overrides": policy.overrides,
        "settings": {s.key: entry(s) for s in policy.top},
        "tables": {name: {s.key: entry(s) for s in rows} for name, rows in policy.tables.items()},
        "severity": {s.key: entry(s) for s in policy.severity},
    }
    # A TOML date (`retired-models.as-of`) is written as its ISO text.
    return json.dumps(payload, indent=2, default=lambda value: value.isoformat()) + "\n"
