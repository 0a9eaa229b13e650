"""This module's constants that Claude calls of other modules read: reported once, here.

The project phase records every Claude call whose model, `temperature` or `max_tokens` is
written as a name imported from another checked module, where that name is assigned a literal
once at module level (`ProjectView.own["read_by"]`). A rule reports such a constant where it
is assigned, with the calls as related places, and the calls themselves are not reported
(`Value.elsewhere`): a retired model kept in `settings.py` and read by twelve calls is one
finding, and its fix edits the constant once.

The same holds for a parameter default some in-project call relies on, kept by a base class's
`__init__` (`self.max_tokens = max_tokens`) and read by a subclass's Claude call in another
module (`ProjectView.own["defaults_read_by"]`): reported once, at the default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.values import literal

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext


@dataclass(frozen=True)
class ConstantRead:
    """A module-level constant and the Claude calls of other modules that read it."""

    name: str
    canonical: str
    targets: tuple[str, ...]  # calls.TARGETS keys of the reading calls
    node: cst.BaseExpression  # the literal, where a finding and its fix go
    value: Any
    places: tuple[tuple[str, int], ...]  # (display path, line) of each call

    def related(self, label: str) -> tuple[tuple[str, int, str], ...]:
        return tuple(
            (path, line, f"{self.name} is read here as the {label} of a Claude call")
            for path, line in self.places
        )

    def describe(self) -> str:
        """Return "MODEL, read by 2 Claude calls of other modules"."""
        count = len(self.places)
        calls = "a Claude call" if count == 1 else f"{count} Claude calls"
        return f"{self.name}, read by {calls} of other modules"


def _defaults_read(
    ctx: FileContext, canonical: str, table: dict[str, dict[str, list[list[Any]]]]
) -> list[ConstantRead]:
    """Return the parameter defaults of the file that other modules' Claude calls read."""
    found: list[ConstantRead] = []
    if not table:
        return found
    for scope in ctx.index.scopes:
        params = table.get(scope.qualname) if scope.kind == "function" else None
        for param, reads in sorted((params or {}).items()):
            mine = [r for r in reads if r[0] == canonical]
            bindings = [b for b in scope.bindings.get(param, []) if b.kind == "param"]
            if not mine or len(bindings) != 1 or bindings[0].default is None:
                continue
            value = literal(bindings[0].default)
            if not value.known or value.node is None:
                continue
            owner = scope.qualname.removesuffix(".__init__")
            found.append(
                ConstantRead(
                    f"the {param} default of {owner}()",
                    canonical,
                    tuple(sorted({str(r[1]) for r in mine})),
                    bindings[0].default,
                    value.value,
                    tuple(sorted({(str(r[2]), int(r[3])) for r in mine})),
                )
            )
    return found


def constant_reads(ctx: FileContext, canonical: str) -> list[ConstantRead]:
    """Return the constants of the file that other modules' Claude calls read as `canonical`."""
    project = ctx.project
    if project is None:
        return []
    own = project.modules.get(project.module, {})
    table: dict[str, list[list[Any]]] = own.get("read_by", {})
    scope = ctx.index.module_scope
    found = _defaults_read(ctx, canonical, own.get("defaults_read_by", {}))
    if not table or scope is None:
        return found
    for name, reads in sorted(table.items()):
        mine = [r for r in reads if r[0] == canonical]
        bindings = [b for b in scope.bindings.get(name, []) if b.kind != "annotation"]
        if not mine or len(bindings) != 1:
            continue
        binding = bindings[0]
        if binding.kind != "assign" or binding.nested or binding.value is None:
            continue
        value = literal(binding.value)
        if not value.known or value.node is None:
            continue
        found.append(
            ConstantRead(
                name,
                canonical,
                tuple(sorted({str(r[1]) for r in mine})),
                binding.value,
                value.value,
                tuple(sorted({(str(r[2]), int(r[3])) for r in mine})),
            )
        )
    return found
