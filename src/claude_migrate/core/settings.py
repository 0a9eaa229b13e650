"""The policy in effect for one file, as plain data every stage reads."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from claude_migrate.core.diagnostics import Severity


@dataclass(frozen=True)
class FileSettings:
    """The policy in effect for one file: enabled codes and every rule's options."""

    codes: frozenset[str]
    tables: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...]
    # The policy's `[severity]` table: (code or prefix, "error" | "warning" | "info").
    severities: tuple[tuple[str, str], ...] = ()
    # A trusted gate's run: findings a comment in the file silences (noqa, skip-file) are
    # kept, marked with the comment, so the run can list them instead of dropping them.
    list_suppressed: bool = False

    def severity_of(self, code: str, default: Severity) -> Severity:
        """Return a finding's severity: the most specific `[severity]` entry, else `default`."""
        best: tuple[int, str] | None = None
        for selector, level in self.severities:
            if code.startswith(selector) and (best is None or len(selector) > best[0]):
                best = (len(selector), level)
        return default if best is None else Severity(best[1])

    def table(self, rule_name: str) -> dict[str, Any]:
        for name, items in self.tables:
            if name == rule_name:
                return dict(items)
        return {}

    def enabled(self, code: str) -> bool:
        return code in self.codes

    @property
    def digest(self) -> str:
        """A stable hash of these settings, for caches."""
        fields: list[Any] = [sorted(self.codes), self.tables, self.severities]
        if self.list_suppressed:
            fields.append("list-suppressed")
        data = json.dumps(fields, sort_keys=True, default=str)
        return hashlib.sha256(data.encode()).hexdigest()[:16]
