"""The per-file analysis stage: the enabled checks over one file's context, then suppressions.

Every kind of file goes through `analyse`: the checks run over its `filekind.CheckContext`, a
crashing check becomes that file's CM001 entry (never the run's end), and the one suppression
stage (`suppress.apply_suppressions`) drops what a directive silences and, with CM002 on,
reports the directives that silence nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from claude_migrate.core.diagnostics import Diagnostic, FileError
from claude_migrate.core.suppress import apply_suppressions

if TYPE_CHECKING:
    from claude_migrate.checks.base import Check
    from claude_migrate.core.filekind import CheckContext


def run_checks(
    ctx: CheckContext, checks: Sequence[Check[Any]], display: str
) -> tuple[list[Diagnostic], list[FileError]]:
    """Run every check over one file's context; a crashing check becomes that file's error.

    A check may also leave errors in `ctx.errors` (a requirement it cannot read).
    """
    found: list[Diagnostic] = []
    errors: list[FileError] = []
    for check in checks:
        try:
            found.extend(check.check(ctx))
        except RecursionError:
            errors.append(FileError(display, f"{check.code} gave up: the file nests too deeply"))
        except Exception as exc:  # a bug in one check must not end the run
            import traceback  # only a crashing check needs it

            last = traceback.format_exception_only(type(exc), exc)[-1].strip()
            errors.append(FileError(display, f"internal error in {check.code}: {last}"))
    errors.extend(e for e in ctx.errors if e not in errors)
    return found, errors


def analyse(
    ctx: CheckContext, checks: Sequence[Check[Any]], display: str
) -> tuple[list[Diagnostic], list[FileError]]:
    """Return one file's findings (suppressions applied, in report order) and its errors."""
    from claude_migrate.checks import KNOWN_CODES  # the registry, for CM002's "unknown code"

    found, errors = run_checks(ctx, checks, display)
    found = apply_suppressions(ctx, found, KNOWN_CODES)
    found.sort(key=Diagnostic.sort_key)
    return found, errors
