"""What a file may know about the rest of its project, as the stages below the project phase
name it.

The project phase (`project/phase.py`) builds one `ProjectView` per file; the engine hands it
to the file's analysis. Both read it through this protocol, so neither the per-file analysis
nor the job names the phase that builds it. Everything in it is plain data (it crosses to
worker processes): `modules` maps a module's dotted name to what the phase derived of it.
"""

from __future__ import annotations

from typing import Any, Protocol

# A class's derived functions also hold, under `Class.super().method`, what `super().method()`
# in that class runs: the next class's method, on an instance of this class.
SUPER = "super()"
# A class field's specifier whose `default=` (pydantic's: or its first argument) is the field's
# default (`model: str = field(default="...")`), read alike by the phase and the rules.
FIELD_SPECIFIERS = frozenset(
    {"dataclasses.field", "pydantic.Field", "pydantic.fields.Field", "attrs.field", "attr.ib"}
)


class ProjectView(Protocol):
    """One file's view of the project: its module and the modules it imports."""

    @property
    def module(self) -> str:
        """The file's own module, dotted."""

    @property
    def modules(self) -> dict[str, dict[str, Any]]:
        """Derived facts per module: names, functions, classes."""

    @property
    def digest(self) -> str:
        """Changes whenever anything in the view does (the result cache keys on it)."""

    @property
    def relevant(self) -> bool:
        """Whether the file must be parsed even without a Claude marker of its own."""

    def absolute(self, qualname: str) -> str:
        """Return an import path made absolute (`..x.y` in this module's package)."""

    def lookup(self, qualname: str) -> list[Any] | None:
        """Return what an absolute import path names in the project, as plain data."""

    def function(self, module: str, qual: str) -> dict[str, Any] | None:
        """Return the derived facts of a function of a module, by its qualified name."""
