"""One finding per value: a constant read by several Claude calls is reported once, where it is.

The project phase records every Claude call whose model, `temperature` or `max_tokens` is
written as a name imported from another checked module, where that name is assigned a literal
once at module level (`ProjectView.own["read_by"]`). A rule reports such a constant where it
is assigned, with the calls as related places, and the calls themselves are not reported
(`Value.elsewhere`): a retired model kept in `settings.py` and read by twelve calls is one
finding, and its fix edits the constant once.

The same holds for a parameter default some in-project call relies on, kept by a base class's
`__init__` (`self.max_tokens = max_tokens`) and read by a subclass's Claude call in another
module (`ProjectView.own["defaults_read_by"]`): reported once, at the default.

The calls of the constant's own module are counted the same way (`one_per_value`): a module-level
or class-level constant (or a dict entry that several calls spread with `**`) read by two Claude
calls or more, here or in other modules, is one finding at the value, each call a related place,
and its fix the union of what each call's fix would write. A constant read by exactly one call
is reported at that call, as before, where the fix may give the call its own literal.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.values import literal
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Fix
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.values import Entry
    from claude_migrate.checks.base import Check
else:
    cst = lazy_import("libcst")


@dataclass(frozen=True)
class ConstantRead:
    """A module-level constant and the Claude calls of other modules that read it."""

    name: str
    canonical: str
    targets: tuple[str, ...]  # calls.TARGETS keys of the reading calls
    node: cst.BaseExpression  # the literal, where a finding and its fix go
    value: Any
    places: tuple[tuple[str, int], ...]  # (display path, line) of each call
    # Set for a value written in a module this run does not check (`places` is where): the
    # finding goes to the call (`node`), and no fix writes there.
    outside: bool = False

    def related(self, label: str) -> tuple[tuple[str, int, str], ...]:
        if self.outside:
            return tuple((path, line, f"{self.name} is written here") for path, line in self.places)
        return tuple(
            (path, line, f"{self.name} is read here as the {label} of a Claude call")
            for path, line in self.places
        )

    def describe(self, path: str = "") -> str:
        """Return "MODEL, read by 2 Claude calls of other modules" (of this module, when every
        call is in the file at `path`: a class attribute its instances send)."""
        if self.outside:
            (place,) = self.places
            return f"{self.name} in {place[0]}, which this run does not check"
        count = len(self.places)
        calls = "a Claude call" if count == 1 else f"{count} Claude calls"
        here = sum(1 for place, _ in self.places if place == path)
        where = "other modules"
        if here == count:
            where = "this module"
        elif here:
            where = "this module and others"
        return f"{self.name}, read by {calls} of {where}"


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


def _defaults_outside(
    ctx: FileContext, canonical: str, table: list[list[Any]]
) -> list[ConstantRead]:
    """Return the defaults of modules this run does not check that the file's Claude calls
    read (`[canonical, target key, call line, value, owner, path, line]`), each at its call."""
    found: list[ConstantRead] = []
    for read in table:
        if read[0] != canonical:
            continue
        key, line = str(read[1]), int(read[2])
        site = next(
            (s for s in ctx.sites if s.target.key == key and ctx.range(s.node).start.line == line),
            None,
        )
        if site is None:
            continue
        place = ((str(read[5]), int(read[6])),)
        found.append(
            ConstantRead(str(read[4]), canonical, (key,), site.node, read[3], place, outside=True)
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
    found.extend(_defaults_outside(ctx, canonical, own.get("defaults_outside", [])))
    if not table or scope is None:
        return found
    classes = {s.qualname: s for s in ctx.index.scopes if s.kind == "class"}
    for name, reads in sorted(table.items()):
        mine = [r for r in reads if r[0] == canonical]
        if name.endswith("]") and "()[" in name:
            returned = _returned_entry(ctx, name) if mine else None
            if returned is not None:
                node, value = returned
                function, _, key = name[:-1].partition("()[")
                label = f'the "{key}" entry of {function}()'
                targets = tuple(sorted({str(r[1]) for r in mine}))
                places = tuple(sorted({(str(r[2]), int(r[3])) for r in mine}))
                found.append(ConstantRead(label, canonical, targets, node, value, places))
            continue
        holder, dot, attr = name.rpartition(".")
        # `Settings.model`: a field's default, read through an object made of the class;
        # `Agent.model`: a class-level constant an instance of the class reads as `self.model`.
        where = (classes.get(holder) if dot else scope) or None
        if dot:
            mine = [r for r in mine if _unseen_here(ctx, r)]
        bindings = (
            [b for b in where.bindings.get(attr, []) if b.kind != "annotation"] if where else []
        )
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


def read_by_other_code(ctx: FileContext, read: ConstantRead) -> str:
    """Return why editing a constant other modules' Claude calls read would change what other
    code of its own module sees ("" if no other code of the module reads it).

    A module-level constant (`NAME`) or a class attribute (`Holder.attr`) read in its own
    module other than by the Claude calls the project phase lists (`tokens[: self.MAX_TOKENS]`,
    input clipping sharing the answer's budget) keeps its value: the new one would reach that
    code too. Reads by an attribute of the same spelling count as well: a fix is only ever
    withheld by them. What modules importing the constant do with it is not seen here.
    """
    if read.outside:
        return ""
    holder, dot, attr = read.name.rpartition(".")
    if not attr.isidentifier() or (dot and not holder.isidentifier()):
        return ""  # a parameter's default or a function's entry: read through the call
    calls = {line for path, line in read.places if path == ctx.path}
    nodes = ctx.nodes
    sent = {id(site.record.node) for site in ctx.all_sites}
    # A value a call sends from a dict it spreads (`"max_tokens": self.options.max_tokens` in
    # the dict a method builds for `create(**self._request(text))`) is the call's read too.
    sent.update(
        id(entry.value_node)
        for site in ctx.all_sites
        for entry in site.params.items.values()
        if isinstance(entry.holder, cst.DictElement)
    )
    lines: set[int] = set()
    for node in nodes.names_spelled(attr):
        if _reads_value(ctx, node, attribute=bool(dot)) and not _sent(ctx, node, sent):
            line = ctx.range(node).start.line
            if line not in calls:
                lines.add(line)
    if not lines:
        return ""
    shown = ", ".join(ctx.line_label(line) for line in sorted(lines))
    return (
        f"{read.name} is also read on line{'s' if len(lines) != 1 else ''} {shown}, by code "
        "other than the Claude calls: the edit would change what that code sees; set the "
        "calls' own value instead"
    )


def _sent(ctx: FileContext, node: cst.Name, calls: set[int]) -> bool:
    """Return whether a read is an argument of one of the file's Claude calls, as the value it
    passes (`temperature=options.temperature` in a wrapper's call, on any of its lines)."""
    parent = ctx.nodes.parent(node)
    value = parent if isinstance(parent, cst.Attribute) and parent.attr is node else node
    if id(value) in calls:
        return True
    arg = ctx.nodes.parent(value)
    return isinstance(arg, cst.Arg) and arg.value is value and id(ctx.nodes.parent(arg)) in calls


def _reads_value(ctx: FileContext, node: cst.Name, *, attribute: bool) -> bool:
    """Return whether `node` reads the value: as `<x>.<name>` (not written to), or, for a
    module-level constant (`attribute` False), as the bare name (not a target, keyword or
    `global`)."""
    parent = ctx.nodes.parent(node)
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        above = ctx.nodes.parent(parent)
        return not isinstance(above, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign))
    if attribute or isinstance(parent, (cst.NameItem, cst.ImportAlias)):
        return False  # a bare name is not the class attribute
    if isinstance(parent, (cst.AssignTarget, cst.AnnAssign)):
        return parent.target is not node
    return not (isinstance(parent, cst.Arg) and parent.keyword is node)


def _unseen_here(ctx: FileContext, read: list[Any]) -> bool:
    """Return whether a call the project phase saw reading a class attribute is one this file's
    own analysis does not read a value for: a call of another file, or one of this file whose
    parameter it cannot see (`create(**self.build_kwargs(...))`). A call of this file that no
    longer reads the value (a fix gave it its own) is not counted either."""
    canonical, _, path, line = read[:4]
    if path != ctx.path:
        return True
    for site in ctx.all_sites:
        if ctx.range(site.node).start.line == line:
            entry = site.param(str(canonical))
            return entry is None or not entry.value.known
    return False


def _returned_entry(ctx: FileContext, name: str) -> tuple[cst.BaseExpression, Any] | None:
    """Return the literal of `function()[key]`: the entry of the one dict literal a function
    of the file returns (`return {"max_tokens": 4096, ...}`)."""
    function, _, key = name[:-1].partition("()[")
    for scope in ctx.index.scopes:
        if scope.kind != "function" or scope.qualname != function or len(scope.returns) != 1:
            continue
        values = ctx.resolver.values
        made = values.dict_node(scope.returns[0], scope)
        entries = values.entries_of_dict(made[0], made[1]) if made is not None else None
        entry = entries.items.get(key) if entries is not None else None
        value = literal(entry.value_node) if entry is not None else None
        if entry is not None and value is not None and value.known:
            return entry.value_node, value.value
    return None


@dataclass(frozen=True)
class Reading:
    """What a rule found on one call's parameter, before findings on one value are merged."""

    site: CallSite
    entry: Entry
    diagnostic: Diagnostic


def _module_level(ctx: FileContext, node: cst.CSTNode) -> bool:
    """Return whether `node` is written in the module's or a class's body, not in a function."""
    current = ctx.nodes.parent(node)
    while current is not None:
        if isinstance(current, (cst.FunctionDef, cst.Lambda)):
            return False
        current = ctx.nodes.parent(current)
    return True


def shared_place(ctx: FileContext, entry: Entry) -> cst.CSTNode:
    """Return where a finding on `entry`'s value goes when several calls read it: a module-level
    (or class-level) constant's literal, else the place the call passes it (its argument, or the
    entry of a dict it spreads)."""
    value = entry.value
    if (
        value.via is not None
        and value.node is not None
        and not value.default
        and not value.elsewhere
        and _module_level(ctx, value.node)
    ):
        return value.node
    return entry.holder


def _one_per_place(found: Sequence[Diagnostic]) -> list[Diagnostic]:
    """Return a notebook's findings with those at the same place made one (two calls of one cell
    reading a function's default): the first, naming the places the others name too."""
    kept: dict[tuple[int, int, str], Diagnostic] = {}
    for diagnostic in found:
        key = (diagnostic.line, diagnostic.column, diagnostic.code)
        first = kept.get(key)
        if first is None:
            kept[key] = diagnostic
            continue
        more = tuple(p for p in diagnostic.related if p not in first.related)
        kept[key] = replace(first, related=first.related + more)
    return list(kept.values())


def one_per_value(
    ctx: FileContext,
    check: Check[Any],
    readings: Sequence[Reading],
    label: str | None,
    elsewhere: Iterable[ConstantRead] = (),
) -> tuple[list[Diagnostic], set[int]]:
    """Return the findings with those on one value merged, and the ids of the merged places.

    `label` names the value in related places ("temperature"); None names it by the parameter
    the calls send it as (a rule reporting several parameters).

    Findings are grouped by `shared_place`. A group read by two calls or more (counting the
    calls of other modules that `elsewhere` lists for a constant) becomes one finding at that
    place, with each call as a related place. A finding a rule placed elsewhere than the value
    (a refused part of the request) is kept as it is.
    """
    if ctx.line_labels is not None:
        # A notebook: its cells run one at a time, often out of order, and each request is made
        # by the cell that sends it; each call keeps its own finding there.
        return _one_per_place([_in_sending_cell(ctx, check, r) for r in readings]), set()
    others = {id(read.node): read for read in elsewhere}
    groups: dict[int, list[Reading]] = {}
    places: dict[int, cst.CSTNode] = {}
    kept: list[Diagnostic] = []
    for reading in readings:
        holder = ctx.range(reading.entry.holder).start
        if (reading.diagnostic.line, reading.diagnostic.column) != (holder.line, holder.column + 1):
            kept.append(reading.diagnostic)
            continue
        place = shared_place(ctx, reading.entry)
        groups.setdefault(id(place), []).append(reading)
        places[id(place)] = place
    merged: set[int] = set()
    for key, group in groups.items():
        read = _beside(ctx, others.get(key), group)
        calls = {id(r.site.node) for r in group}
        if len(calls) + (len(read.places) if read is not None else 0) < 2:
            kept.extend(r.diagnostic for r in group)
            continue
        kept.append(_merge(ctx, check, places[key], group, label, read))
        merged.add(key)
    return kept, merged


def _beside(
    ctx: FileContext, read: ConstantRead | None, group: Sequence[Reading]
) -> ConstantRead | None:
    """Return what the project phase found reading a value, less the calls this file's own
    analysis found too (a class attribute both read): each call is counted once."""
    if read is None:
        return None
    lines = {ctx.range(r.site.node).start.line for r in group}
    places = tuple(p for p in read.places if not (p[0] == ctx.path and p[1] in lines))
    if not places:
        return None
    return replace(read, places=places) if places != read.places else read


def _merge(
    ctx: FileContext,
    check: Check[Any],
    place: cst.CSTNode,
    group: Sequence[Reading],
    label: str | None,
    read: ConstantRead | None,
) -> Diagnostic:
    """Return one finding for the findings of several calls on one value."""
    fixes = [r.diagnostic.fix for r in group]
    # A call the value cannot be fixed for (a legacy call, a refused parameter) says why.
    first = next((r.diagnostic for r in group if r.diagnostic.fix is None), group[0].diagnostic)
    entry = group[0].entry
    label = label or entry.key
    name = entry.value.via if place is entry.value.node else entry.through
    related: list[tuple[str, int, str]] = []
    # Where each call reads the constant by name, or (a spread dict's entry) where the call is.
    read_at = [r.entry.value_node if place is entry.value.node else _spread(r) for r in group]
    lines = sorted({ctx.range(node).start.line for node in read_at})
    if place is entry.value.node:
        # A table entry a call picks by a key not known here has no name of its own.
        said = f"{name or 'this value'} is read here as the {label} of a Claude call"
    else:
        said = f"a Claude call sends this {label} here" + (f", through **{name}" if name else "")
    related.extend((ctx.path, line, said) for line in lines)
    if read is not None:
        related.extend(read.related(label))
    for reading in group:
        related.extend(p for p in reading.diagnostic.related if p not in related)
    message = first.message
    if name and place is entry.value.node:
        calls = len({id(r.site.node) for r in group})
        # A notebook's code cells are one module.
        module = "notebook" if ctx.line_labels is not None else "module"
        message = _described(message, entry, _count(name, calls, read, module))
    diagnostic = ctx.diagnostic(
        check,
        place,
        message,
        _merged_fix(fixes),
        first.context if place is entry.holder else "",
        first.severity,
        related=tuple(related),
    )
    if place is entry.holder:
        # A dict entry spread into several calls: the finding stays where each call put it.
        return replace(diagnostic, fingerprint=first.fingerprint)
    return diagnostic


def _in_sending_cell(ctx: FileContext, check: Check[Any], reading: Reading) -> Diagnostic:
    """Return a notebook call's finding on an entry of a dict it spreads, placed at its `**name`.

    The entry is written once, often in a set-up cell; the request that sends it is made by
    the call's cell, so the finding is there, with the entry as a related place (the fix still
    edits the entry: the calls' fixes are one edit).
    """
    found, entry = reading.diagnostic, reading.entry
    holder = ctx.range(entry.holder).start
    if not entry.through or (found.line, found.column) != (holder.line, holder.column + 1):
        return found
    spread = _spread(reading)
    if spread is reading.site.node:
        return found
    said = f"the {entry.key} is written here, in {entry.through}"
    return ctx.diagnostic(
        check,
        spread,
        found.message,
        found.fix,
        severity=found.severity,
        related=((ctx.path, holder.line, said), *found.related),
    )


def _spread(reading: Reading) -> cst.CSTNode:
    """Return the `**name` argument a call spreads the entry's dict with, else the call."""
    through = reading.entry.through
    for arg in reading.site.node.args:
        if arg.star == "**" and isinstance(arg.value, cst.Name) and arg.value.value == through:
            return arg
    return reading.site.node


def _count(name: str, here: int, read: ConstantRead | None, module: str) -> str:
    """Return "MODEL, read by 2 Claude calls of this module" (and of other modules)."""
    if read is None:
        return f"{name}, read by {here} Claude calls of this {module}"
    there = len(read.places)
    total = here + there
    return f"{name}, read by {total} Claude calls ({here} in this {module}, {there} in others)"


def _described(message: str, entry: Entry, count: str) -> str:
    """Return a call's message saying which constant it is about and how many calls read it."""
    said = f" (from {entry.value.via})"
    if said in message:
        return message.replace(said, f" ({count})", 1)
    shown = repr(entry.value.value)
    if shown in message:
        return message.replace(shown, f"{shown} ({count})", 1)
    return f"{message} ({count})"


def _merged_fix(fixes: Sequence[Fix | None]) -> Fix | None:
    """Return one fix doing what every call's fix does, or None when one call has none or two
    fixes write over each other."""
    edits: list[Any] = []
    descriptions: list[str] = []
    applicability = Applicability.SAFE
    for fix in fixes:
        if fix is None or fix.applicability is Applicability.DISPLAY_ONLY:
            return None
        if fix.applicability is Applicability.UNSAFE:
            applicability = Applicability.UNSAFE
        edits.extend(e for e in fix.edits if e not in edits)
        if fix.description not in descriptions:
            descriptions.append(fix.description)
    edits.sort()
    if any(a.end > b.start for a, b in zip(edits, edits[1:], strict=False)):
        return None
    description = "; ".join(descriptions)
    writes = {fix.edits for fix in fixes if fix is not None}
    if len(writes) > 1:
        # Each call's own argument is written (other code reads the constant too).
        description = description.replace(" in this call ", f" in each of the {len(writes)} calls ")
    return Fix(applicability, description, tuple(edits))
