"""Test-only: make a worker process die on a marked file, to test crash isolation.

Put this folder on PYTHONPATH of a `claude-migrate` subprocess: Python imports `sitecustomize`
at start-up in the main process (workers start isolated and never see it), and this one wraps
CM101's check so that checking a file containing CRASH_MARKER ends the process with
`os._exit(3)`, with no Python exception for the engine to catch: exactly what a segfault in a
native parser looks like to the process. Nothing in the shipped package reads this.
"""

from __future__ import annotations

import os

from claude_migrate.checks.temperature import TemperatureCheck

CRASH_MARKER = "CRASH-THIS-WORKER"
_original = TemperatureCheck.check


def _crashing_check(self, ctx):  # type: ignore[no-untyped-def]
    if CRASH_MARKER in ctx.source.text:
        os._exit(3)
    return _original(self, ctx)


TemperatureCheck.check = _crashing_check  # type: ignore[method-assign]
