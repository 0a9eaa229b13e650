"""What the value analysis asks of the symbol resolver, as a protocol.

`values.ValueResolver` follows names to literals and, for names it cannot settle alone (an
imported constant, a class attribute, a helper's returned dict), asks `symbols.Resolver`, which
in turn builds its `ValueResolver`. The value analysis names the resolver through this protocol
only, so the two modules do not import each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.scope import ClassInfo, ModuleIndex, Scope
    from claude_migrate.core.project_view import ProjectView


class SymbolResolver(Protocol):
    """Answers what an expression is (a `symbols.Resolver`)."""

    @property
    def index(self) -> ModuleIndex:
        """The module's index of scopes, bindings and calls."""

    @property
    def project(self) -> ProjectView | None:
        """What the project phase lets this file know (None: the file alone)."""

    def resolve(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> object:
        """Return what `node` evaluates to (a `symbols.Symbol`)."""

    def scope_of(self, node: cst.CSTNode | None) -> Scope | None:
        """Return the scope a function or class definition of this module opens."""

    def bound_outside(self, name: str) -> bool:
        """Return whether another file may bind this module's top-level `name` (the phase's
        `bound_outside`)."""

    def bound_alike(self, name: str) -> tuple[str, ...]:
        """Return the files that bind this module's top-level `name` to the literal it gives
        (the phase's `bound_alike`)."""

    def spread_kept(self, name: str) -> frozenset[str] | None:
        """Return the keys a request dict's entries keep before a spread of `Class.attr` (the
        phase's `spread_kept`), None when it says nothing of it."""

    def own_function(self, qualname: str) -> dict[str, Any] | None:
        """Return the project facts of a function of this module, by its qualified name."""

    def project_constant(
        self, node: cst.BaseExpression, attr: str, scope: Scope
    ) -> tuple[Any, str, bool] | None:
        """Return (value, "Config.MODEL", reported at the class) for a class-level constant of
        another module."""

    def local_class(self, node: cst.BaseExpression, scope: Scope) -> ClassInfo | None:
        """Return the class of this module an expression names, if it names one."""

    def qualname(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """Return the import path a callee names, if it is an imported name."""

    def project_class_path(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """Return `module.Class` for a class of another project module an expression names."""
