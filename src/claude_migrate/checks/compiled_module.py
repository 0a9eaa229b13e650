"""CM003 compiled-module: code in the checked tree that Python runs and the tool cannot read.

Only a trusted gate (`check --trusted-config`) looks for these: its discovery lists the
compiled modules of the tree (`core/compiled.py` names them, and decides from a few bytes
of each whether Python would import it in place of source the tool reads), and `results`
turns them into findings. The class puts the rule in the registry (selection, `rules`,
`explain`, SARIF's rule list); no kind of file runs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from claude_migrate.checks.base import Check
from claude_migrate.core.compiled import CODE, NAME, content_digest, reason
from claude_migrate.core.diagnostics import Diagnostic, FileResult
from claude_migrate.core.filekind import CheckContext
from claude_migrate.core.job import Job


class CompiledModuleCheck(Check[CheckContext]):
    code = CODE
    name = NAME
    summary = (
        "in a trusted gate, a compiled module Python may import from the tree in place of "
        "source (an extension module, bytecode without its source or run instead of it, a "
        "wheel, egg or zip of modules): code the tool cannot read"
    )
    kinds = frozenset[str]()

    def check(self, ctx: CheckContext) -> Iterable[Diagnostic]:
        return ()


def results(jobs: Sequence[Job]) -> list[FileResult]:
    """Return a result for each compiled module the policy checks, with its finding if any.

    The finding starts at the file's first line and carries a hash of its bytes as its
    fingerprint: a baseline accepts one committed binary as it is, never a replacement.
    """
    found = []
    for job in jobs:
        if not job.settings.enabled(CODE):
            continue
        result = FileResult(path=job.display)
        why = reason(Path(job.path))
        if why is not None:
            severity = job.settings.severity_of(CODE, CompiledModuleCheck.severity)
            result.diagnostics.append(
                Diagnostic(
                    job.display,
                    1,
                    1,
                    1,
                    1,
                    CODE,
                    NAME,
                    why,
                    fingerprint=content_digest(Path(job.path)),
                    severity=severity,
                )  # fmt: skip
            )
        found.append(result)
    return found
