"""Turn a run's results into what people and CI systems read.

Each format is a module with `render(run) -> str`; `FORMATS` maps the `--format` names to them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, FileError, FileResult


@dataclass
class Run:
    """Everything a reporter needs about one run."""

    results: list[FileResult]
    fixing: bool = False
    unsafe: bool = False
    color: bool = False
    show_source: bool = False
    diagnostics: list[Diagnostic] = field(init=False)
    errors: list[FileError] = field(init=False)

    def __post_init__(self) -> None:
        self.diagnostics = sorted(
            (d for r in self.results for d in r.diagnostics), key=Diagnostic.sort_key
        )
        self.errors = sorted(
            (e for r in self.results for e in r.errors), key=lambda e: (e.path, e.line or 0)
        )

    @property
    def files(self) -> int:
        return len(self.results)

    @property
    def fixable(self) -> int:
        return sum(1 for d in self.diagnostics if d.fix is not None and d.fix.applies(True))

    @property
    def fixed(self) -> int:
        return sum(len(r.fixed) for r in self.results)

    @property
    def reported(self) -> bool:
        return bool(self.diagnostics or self.errors)


def _text(run: Run) -> str:
    from .text import render

    return render(run)


def _json(run: Run) -> str:
    from .json import render

    return render(run)


FORMATS: dict[str, Callable[[Run], str]] = {"text": _text, "json": _json}
