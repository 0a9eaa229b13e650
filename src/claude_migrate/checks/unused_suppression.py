"""CM002 unused-suppression: a suppression comment that silences nothing (opt-in).

The work happens where suppressions are applied (`suppress.apply_suppressions`), after every
other check has reported: only then is it known which directives silenced a finding. This class
puts the rule in the registry (selection, `rules`, `explain`, the prefilter's markers).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from claude_migrate.checks.base import Check
from claude_migrate.core.diagnostics import Applicability, Diagnostic
from claude_migrate.core.filekind import CheckContext
from claude_migrate.core.suppress import UNUSED_CODE, UNUSED_NAME


class UnusedSuppressionCheck(Check[CheckContext]):
    code = UNUSED_CODE
    name = UNUSED_NAME
    summary = "a suppression comment that silences nothing"
    fix_applicability = Applicability.SAFE
    opt_in = True
    markers_ignore_case = True
    # Suppressions are judged in every kind of file: one suppression stage serves them all.
    kinds = frozenset({"python", "manifest"})

    @classmethod
    def markers_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        return (b"noqa", b"claude-migrate")

    def check(self, ctx: CheckContext) -> Iterable[Diagnostic]:
        return ()
