"""The per-call records: what the project phase knows of each Claude call site, after its
fixed point.

For every call of a module's summary that the phase recognises as a Claude call (`_target`,
and `_handed` for a request handed to `asyncio.to_thread`: the tests its fixed point reads calls
with), a `CallRecord` gives the call's position, its target and, for each parameter that
matters, the values it may hold: the literals the phase's
own evaluation proves (`Project.evaluate`; each branch of `a if c else b` and `a or b`; the
default of a parameter an in-project call relies on, `Facts.relied`), each with the place it is
written where that is known, or unknown. Nothing here knows a shape of its own: what the phase
cannot evaluate is unknown, and so is what it evaluates without the guards its own uses of the
value add (reads of an instance, dicts changed after they are written).

Positions are those the summaries keep: the call's line, and its column as CPython's `ast`
gives it (UTF-8 bytes from the start of the line, from 0); LibCST counts characters, the same
on ASCII lines. Places of values are known only for a literal written in the call's own
arguments (read from one `ast` parse of the file, only when asked for: `with_places`).
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claude_migrate.project.kinds import (
    Class,
    Const,
    DictLit,
    Foreign,
    Obj,
    Param,
    Ref,
    SelfParam,
    Super,
    Sym,
)
from claude_migrate.project.reaching import Flows
from claude_migrate.targets.anthropic_sdk import NOT_GIVEN, NOT_GIVEN_CLASSES
from claude_migrate.targets.base import CANONICAL, HEADERS, is_claude_model
from claude_migrate.targets.registry import TARGETS

if TYPE_CHECKING:
    from claude_migrate.project.phase import Project

# The parameters a record reads: the registry's canonical ones (under each target's names),
# the headers, and those read by their own name.
BY_NAME = ("top_p", "top_k", "thinking")
PARAMETERS = (*CANONICAL, HEADERS, *BY_NAME)
# The most values a parameter's branches are read for; more is unknown.
MAX_VALUES = 16
MAX_DEPTH = 8
# The most subclasses a class's `self` reads are followed through (the phase's own bound).
MAX_SUBCLASSES = 32


@dataclass(frozen=True, slots=True)
class Place:
    """Where a value is written: display path, line (from 1), column (from 0, `ast`'s)."""

    path: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Values:
    """What a parameter may hold: literal values (each with its place, None when not known),
    and whether that is all it may hold (`complete`: no branch is unknown)."""

    known: tuple[tuple[Any, Place | None], ...] = ()
    complete: bool = False
    # The argument expression as the summary keeps it (for tracing a disagreement).
    written: tuple[str, ...] = ()

    @property
    def values(self) -> list[Any]:
        found: list[Any] = []
        for value, _ in self.known:
            if value not in found:
                found.append(value)
        return found


@dataclass(frozen=True, slots=True)
class CallRecord:
    """One Claude call site as the project phase sees it."""

    path: str
    line: int
    column: int  # `ast`'s: UTF-8 bytes from 0
    target: str  # the registry's key ("sdk:messages.create")
    family: str
    function: str | None  # the qualname of the function it is in (None: module level)
    params: dict[str, Values] = field(default_factory=dict)
    # Whether the call passes `**something` whose keys are not all known.
    opaque: bool = False
    # A call of a library serving many vendors (`Target.by_model`) whose model is not proven
    # Claude's here: a parameter (Claude's where its callers pass a Claude model) or unknown.
    # The phase reads it as a call site for what its parameters reach; the file's own
    # analysis reads it as a wrapper, or not at all.
    unproven: bool = False

    @property
    def position(self) -> tuple[int, int]:
        return self.line, self.column


def _calls(summary: dict[str, Any]) -> Iterator[tuple[str | None, list[Any]]]:
    for qual, facts in summary["functions"].items():
        for call in facts["calls"]:
            yield qual, call
    for call in summary["calls"]:
        yield None, call


def records(project: Project, module: str, line: int | None = None) -> list[CallRecord]:
    """Return the records of a module's Claude call sites, in source order (those on `line`
    only, when given: their values are read for no other call)."""
    summary = project.summaries.get(module)
    if summary is None or module not in project.scanned:
        return []  # a module whose calls the phase never reads (it names no Claude)
    path = project.paths.get(module, module)
    found: dict[tuple[int, int], CallRecord] = {}
    flows = Flows(project, module)
    for function, call in _calls(summary):
        position = (call[6], call[7] - 1)
        if position in found:
            continue  # a call summarised twice (a lambda's, read with its function)
        record = _record(project, module, function, call, path, flows, line)
        if record is not None:
            found[position] = record
    return [found[key] for key in sorted(found)]


def _record(
    project: Project,
    module: str,
    function: str | None,
    call: list[Any],
    path: str,
    flows: Flows,
    line: int | None = None,
) -> CallRecord | None:
    target = project._target(module, function, call)  # noqa: SLF001 - the phase's own test
    if target is None:
        # `asyncio.to_thread(client.messages.create, ...)`: the request it makes.
        handed = project._handed(module, function, call)  # noqa: SLF001
        if handed is None:
            return None
        call, target = handed
    if line is not None and call[6] != line:
        return None
    key, kwargs = target
    registered = TARGETS[key]
    # What reaches the call of the locals it passes and the dicts it spreads (one parse).
    reached = flows.at(function, call)
    dicts = [_sent(project, module, function, star, reached) for star in call[5]]
    if registered.location == "json-body" and "body" in call[3]:
        # Bedrock's `invoke_model(body=json.dumps({...}))`: the body's entries, as the phase
        # reads them (`Project._body_dict`).
        dicts.append(project._body_dict(module, function, call[3]["body"], 0))  # noqa: SLF001
    opaque = any(d is None or d.opaque or d.spreads for d in dicts)
    params: dict[str, Values] = {}
    for parameter in PARAMETERS:
        names = _names(key, parameter)
        found = _parameter(project, module, function, names, kwargs, dicts, reached)
        if found is not None:
            params[parameter] = found
    model = next((kwargs[n] for n in registered.model if n in kwargs), None)
    named = project.evaluate(module, function, model) if model else None
    unproven = registered.by_model and not (
        isinstance(named, Const) and isinstance(named.value, str) and is_claude_model(named.value)
    )
    return CallRecord(
        path, call[6], call[7] - 1, key, registered.family, function, params, opaque, unproven
    )


def _parameter(
    project: Project,
    module: str,
    function: str | None,
    names: tuple[str, ...],
    kwargs: dict[str, list[Any]],
    dicts: list[DictLit | None],
    reached: dict[str, list[list[Any]]],
) -> Values | None:
    """Return what a call passes under one of a parameter's names: a keyword of its own, else
    an entry of a dict it spreads (`**kwargs`); None when it passes none, or passes
    `anthropic.NOT_GIVEN` (the SDK's "not passed").

    A keyword that is a local assigned more than once is what the assignments reaching the
    call give (`reached`, `project/reaching.py`), each read as an expression of its own."""
    for name in names:
        if name in kwargs:
            written = kwargs[name]
            if _not_given(project.evaluate(module, function, written)):
                return None
            if written[0] == "name" and written[1] in reached:
                return _reaching_values(project, module, function, written, reached[written[1]])
            return _values(project, module, function, written)
        for made in dicts:
            found = _in_dict(project, made, name, 0) if made is not None else None
            if found is not None:
                return found
    return None


def _not_given(found: Sym) -> bool:
    """Return whether a value is the SDK's "not passed" (`NOT_GIVEN`, `omit`, `NotGiven()`)."""
    if isinstance(found, Ref):
        return found.qualname in NOT_GIVEN
    return isinstance(found, Foreign) and found.qualname in NOT_GIVEN_CLASSES


def _in_dict(project: Project, made: DictLit, name: str, depth: int) -> Values | None:
    """Return what a dict literal holds under a key: its entry (not all it may hold when the
    dict may have other keys: `{**other, ...}`, `d.update(extra)`), else what a dict spread
    into it holds there (`{**BASE}`)."""
    entry = made.entries.get(name)
    if entry is not None:
        if _not_given(project.evaluate(made.module, made.function, entry)):
            return None
        if made.opaque or made.spreads:
            # Some keys are not literal (`{**other}`, `d.update(extra)`, `d.pop(k)`): the
            # entry may be written over or taken out, and the summary keeps no order.
            return Values(written=(_text(entry),))
        read = _values(project, made.module, made.function, entry)
        if name in made.maybe:
            # Given under a condition: on the other paths the call is not passed it.
            return Values(read.known, False, read.written)
        return read
    if depth > MAX_DEPTH:
        return None
    found: Values | None = None
    unsure = made.opaque  # a key that is not literal may be this one
    for spread in made.spreads:
        inner = project.evaluate(made.module, made.function, ["name", spread])
        if not isinstance(inner, DictLit):
            unsure = True  # what it holds is not known: the key among it, maybe
            continue
        here = _in_dict(project, inner, name, depth + 1)
        if here is not None and found is not None:
            unsure = True  # two of them hold it: which one is sent depends on the order
        elif here is not None:
            found = here
        if inner.opaque or inner.spreads:
            unsure = True
    if found is not None and unsure:
        return Values(found.known, False, found.written)
    return found


def _sent(
    project: Project,
    module: str,
    function: str | None,
    star: list[Any],
    reached: dict[str, list[list[Any]]],
) -> DictLit | None:
    """Return the dict a call's `**star` sends, as the phase reads it (`Project.sent_dict`);
    None (not known) when what the summary folded into it may not hold where the call is."""
    if function is None:
        made = project.evaluate(module, function, star)
        made = made if isinstance(made, DictLit) else None
    else:
        made = project.sent_dict(module, function, star)
        changed = project.summaries[module]["functions"][function].get("changed", ())
        if star[0] == "name" and star[1] in changed and not _changed_before(reached, star[1]):
            # `params["temperature"] = 0.9` after the call, or in a nested function: the
            # summary folds every change into the literal, in no order and on no path.
            return None
    if made is not None and made.function is None and star[0] in ("name", "attr"):
        # A module-level dict (`**options.CHAT_OPTIONS`): changed by its module or by the
        # reader's (`options.CHAT_OPTIONS["temperature"] = 0.0`), it is not its literal.
        name = star[1] if star[0] == "name" else star[2]
        if project._changes_dict(made.module, name) or project._changes_dict(module, name):  # noqa: SLF001
            return None
    return made


def _changed_before(reached: dict[str, list[list[Any]]], name: str) -> bool:
    """Return whether every change the function makes to a dict it spreads into a call may
    run before the call (`project/reaching.py`): the literal, with its changes folded in
    (a key set under a condition as either value, or as maybe absent), is what it sends."""
    found = reached.get(f"**{name}")
    if not found or found[0][0] != "changes":
        return False
    _, before, every = found[0]
    return bool(before == every > 0)


def _values(project: Project, module: str, function: str | None, value: list[Any]) -> Values:
    """Return what an argument may hold, as the phase evaluates it; the branches of a
    conditional expression (`a if c else b`, `a or b`) each, when the whole is not one value."""
    known: list[tuple[Any, Place | None]] = []
    complete = _branches(project, module, function, value, known, 0)
    if len(known) > MAX_VALUES:
        return Values(written=(_text(value),))
    return Values(tuple(known), complete and bool(known), (_text(value),))


def _reaching_values(
    project: Project,
    module: str,
    function: str | None,
    written: list[Any],
    assigned: list[list[Any]],
) -> Values:
    """Return what a local may hold at a call: the values of the assignments reaching it."""
    known: list[tuple[Any, Place | None]] = []
    complete = True
    for value in assigned[:MAX_VALUES]:
        if _not_given(project.evaluate(module, function, value)):
            complete = False  # the SDK's "not passed" on one path: not a value sent
            continue
        complete = _branches(project, module, function, value, known, 0) and complete
    if len(assigned) > MAX_VALUES or len(known) > MAX_VALUES:
        return Values(written=(_text(written),))
    return Values(tuple(known), complete and bool(known), (_text(written),))


def _branches(
    project: Project,
    module: str,
    function: str | None,
    value: list[Any],
    known: list[tuple[Any, Place | None]],
    depth: int,
) -> bool:
    """Add the values an expression may have to `known`; return whether that is all of them."""
    if _on_instance(project, module, function, value):
        read = _instance_read(project, module, function, value, depth)
        if read is None:
            return False
        where, at, written = read
        return _branches(project, where, at, written, known, depth + 1)
    found = project.evaluate(module, function, value)
    if isinstance(found, Const):
        known.append((found.value, None))
        return True
    if isinstance(found, Param):
        # A parameter: its default where an in-project call relies on it (`Facts.relied`);
        # what the other calls pass is not read here.
        default = _relied_default(project, found)
        if default is not None:
            known.append((default.value, None))
        return False
    if depth > MAX_DEPTH or value[0] not in ("if", "or"):
        return False
    if value[0] == "if":
        if any(isinstance(project.evaluate(module, function, v), Param) for v in value[1:3]):
            # `t if t is not None else 0.9`: the test (not kept) is most likely on the
            # parameter, and decides which branch a caller's value takes: neither is known.
            return False
        return all([_branches(project, module, function, v, known, depth + 1) for v in value[1:3]])
    complete = True
    for index, operand in enumerate(value[1]):
        # `a or b`: an operand proven truthy is the value and ends it; a falsy value of one
        # before the last is not sent; an unknown one may be sent, or not.
        met = project.evaluate(module, function, operand)
        if isinstance(met, Const) and not met.value and index < len(value[1]) - 1:
            continue
        mine: list[tuple[Any, Place | None]] = []
        complete = _branches(project, module, function, operand, mine, depth + 1) and complete
        last = index == len(value[1]) - 1
        known.extend(item for item in mine if last or item[0])
        if isinstance(met, Const):
            return complete
    return False


def _relied_default(project: Project, param: Param) -> Const | None:
    """Return a parameter's literal default, when an in-project call relies on it."""
    if param.name not in project.facts.relied.get((param.module, param.qual), ()):
        return None
    facts = project.summaries[param.module]["functions"].get(param.qual)
    default = (
        next((p["default"] for p in facts["params"] if p["name"] == param.name), None)
        if facts is not None
        else None
    )
    found = project.evaluate(param.module, None, default) if default is not None else None
    return found if isinstance(found, Const) else None


def _instance_read(
    project: Project, module: str, function: str | None, value: list[Any], depth: int
) -> tuple[str, str | None, list[Any]] | None:
    """Return where the value an instance's attribute holds is written (module, function,
    expression), when that is proven: None else (the read stays unknown).

    Only an attribute no file of the run sets from outside the class (`obj.model = m`,
    `setattr`), that no method but `__init__` sets:

    - on an object made once by a call of a project class (`settings = Settings(t=0.7)`, a
      name bound once here or imported, or the call itself): the argument the call gives the
      field (a dataclass's or pydantic model's, or an `__init__` parameter it is set from,
      `self.model = model`), else the field's default;
    - on `self` in a method: the one value the class (or a base) writes for it, in its body
      or in `__init__` (a parameter there is read as any parameter is: its relied-on
      default), when no subclass the phase summarised writes it too.
    """
    if depth > MAX_DEPTH or value[0] != "attr":
        return None
    attr = value[2]
    base = project.evaluate(module, function, value[1])
    if isinstance(base, SelfParam):
        return None if project.set_from_outside(attr) else _self_attribute(project, base, attr)
    if not isinstance(base, Obj):
        return None
    made = _construction(project, module, function, value[1])
    if made is None:
        return None
    where, at, call = made
    cls = project.evaluate(where, at, call[1])
    if not isinstance(cls, Class) or (cls.module, cls.name) != (base.module, base.name):
        return None
    if _may_be_set(project, module, value[1], at, attr, cls):
        return None
    info = project.summaries[cls.module]["classes"].get(cls.name)
    if info is None or not _set_at_construction(project, cls, attr):
        return None
    fields = project._fields(cls.module, cls.name, info)  # noqa: SLF001
    if fields is None or attr not in fields["attrs"] or call[4] or call[5]:
        return None
    param = fields["attrs"][attr]
    given = call[3].get(param)
    order = [name for name, kind in fields["params"] if kind == "positional"]
    if given is None and param in order and order.index(param) < len(call[2]):
        given = call[2][order.index(param)]
    if len(call[2]) > len(order):
        return None  # more positional arguments than fields: not read
    if given is not None:
        return where, at, given
    default = fields["defaults"].get(param)
    if default is None or len(default) != 1:
        return None
    return cls.module, None, ["lit", default[0]]


def _may_be_set(
    project: Project, module: str, holder: list[Any], at: str | None, attr: str, cls: Class
) -> bool:
    """Return whether a file of the run may set `attr` on the object `holder` names after it
    is made: any write of the attribute on an object other than `self` counts, but for an
    object bound once at module level, whose name no file hands on, a write on another name
    (`args.model = m` in a command-line script) cannot reach it (`Project.may_set_on`)."""
    if at is not None or holder[0] != "name":
        return project.set_from_outside(attr)
    names = {holder[1]}
    qualname = project.summaries[module]["imports"].get(holder[1])
    if qualname is not None:
        names.add(qualname.rpartition(".")[2])
    return project.may_set_on(attr, names, cls.name)


def _construction(
    project: Project, module: str, function: str | None, holder: list[Any]
) -> tuple[str, str | None, list[Any]] | None:
    """Return (module, function, call) of the one call that makes the object `holder` names:
    the call itself, a local bound once, or a module-level name bound once (here, or in the
    project module it is imported from)."""
    if holder[0] == "call":
        return module, function, holder
    if holder[0] != "name":
        return None
    name = holder[1]
    summary = project.summaries[module]
    if function is not None:
        facts = summary["functions"].get(function, {})
        local = facts.get("locals", {}).get(name)
        if local is not None:
            if len(local) != 1 or local[0][0][0] != "call":
                return None
            return module, function, local[0][0]
        if any(p["name"] == name for p in facts.get("params", ())) or "parent" in facts:
            return None
    owner = module
    qualname = summary["imports"].get(name)
    if qualname is not None:
        if name in summary["assigns"]:
            return None
        owner, _, name = qualname.rpartition(".")
        if owner not in project.summaries:
            return None
    assigns = project.summaries[owner]["assigns"].get(name)
    if not assigns or len(assigns) != 1 or assigns[0][1] or assigns[0][0][0] != "call":
        return None
    return owner, None, assigns[0][0]


def _set_at_construction(project: Project, cls: Class, attr: str) -> bool:
    """Return whether every class of an object's method resolution order sets `attr` only in
    its body or its `__init__` (no other method changes it after)."""
    for owner_module, owner in project.mro(cls.module, cls.name):
        info = project.summaries[owner_module]["classes"].get(owner)
        if info is None:
            return False
        for _, method in info["attributes"].get(attr, ()):
            if method is not None and method != f"{owner}.__init__":
                return False
    return True


def _self_attribute(
    project: Project, base: SelfParam, attr: str
) -> tuple[str, str | None, list[Any]] | None:
    """`self.attr` in a method of a class (see `_instance_read`)."""
    subclasses = project._subclasses((base.module, base.name))  # noqa: SLF001
    if len(subclasses) >= MAX_SUBCLASSES:
        return None
    for sub_module, sub in subclasses[1:]:
        info = project.summaries[sub_module]["classes"].get(sub)
        if info is None or attr in info["attributes"] or attr in info["fields"]:
            return None  # a subclass writes it: which one the instance is, is not known
    for owner_module, owner in project.mro(base.module, base.name):
        info = project.summaries[owner_module]["classes"].get(owner)
        if info is None or not project._plain_bases(owner_module, info):  # noqa: SLF001
            return None  # a library base class may set it
        values = info["attributes"].get(attr)
        if not values:
            if attr in info["fields"]:
                return None  # a field without a default: the constructor's argument
            continue
        if len(values) != 1 or attr in info["fields"]:
            return None  # several writes, or a field the constructor may be given
        written, method = values[0]
        if method is not None and method != f"{owner}.__init__":
            return None
        return owner_module, method, written
    return None


def _on_instance(project: Project, module: str, function: str | None, value: list[Any]) -> bool:
    """Return whether an expression reads an attribute or item of an instance (`self.model`,
    `settings.temperature`, `self.request["model"]`).

    The phase's evaluation gives such a read the value its class writes, which the instance
    need not hold (made with other arguments, changed after): the phase itself trusts it only
    under guards of its own use (`_attribute_set`, constant reads), so a record leaves it
    unknown.
    """
    kind = value[0] if value else "?"
    if kind not in ("attr", "sub"):
        return False
    base = project.evaluate(module, function, value[1])
    if isinstance(base, (Obj, SelfParam, Super, Param)) or base is None:
        return True
    return _on_instance(project, module, function, value[1])


def _text(value: list[Any]) -> str:
    """Return a short text of a summary expression (for tracing only)."""
    kind = value[0] if value else "?"
    if kind == "lit":
        return repr(value[1])
    if kind == "name":
        return str(value[1])
    if kind == "attr":
        return f"{_text(value[1])}.{value[2]}"
    if kind == "call":
        return f"{_text(value[1])}(...)"
    if kind == "sub":
        return f"{_text(value[1])}[{value[2]!r}]"
    return f"<{kind}>"


def with_places(found: list[CallRecord], text: str | bytes) -> list[CallRecord]:
    """Return records with the places of the literals written in their calls' keywords.

    One `ast` parse of the file; a value read from elsewhere keeps no place.
    """
    if not found:
        return found
    arguments = _keywords_by_call(text)
    out = []
    for record in found:
        keywords = arguments.get(record.position, {})
        params = {
            name: _placed(values, _written(record.target, name, keywords), record.path)
            for name, values in record.params.items()
        }
        out.append(
            CallRecord(
                record.path, record.line, record.column, record.target, record.family,
                record.function, params, record.opaque, record.unproven,
            )
        )  # fmt: skip
    return out


def _names(target: str, parameter: str) -> tuple[str, ...]:
    """Return the keywords a target takes a parameter by."""
    if parameter in (*CANONICAL, HEADERS):
        return TARGETS[target].names(parameter) or (parameter,)
    return (parameter,)


def _written(target: str, parameter: str, keywords: dict[str, ast.expr]) -> ast.expr | None:
    return next((keywords[n] for n in _names(target, parameter) if n in keywords), None)


def _placed(values: Values, node: ast.expr | None, path: str) -> Values:
    if node is None or len(values.known) != 1 or not values.complete:
        return values
    if not isinstance(node, (ast.Constant, ast.UnaryOp, ast.List, ast.Tuple)):
        return values
    place = Place(path, node.lineno, node.col_offset)
    return Values(((values.known[0][0], place),), True, values.written)


def _keywords_by_call(text: str | bytes) -> dict[tuple[int, int], dict[str, ast.expr]]:
    """Return each call's keyword arguments, by the call's position."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return {}
    return {
        (node.lineno, node.col_offset): {k.arg: k.value for k in node.keywords if k.arg}
        for node in ast.walk(tree)
        if type(node) is ast.Call
    }


__all__ = ["CallRecord", "Place", "Values", "records", "with_places"]
