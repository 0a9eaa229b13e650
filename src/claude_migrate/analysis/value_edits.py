"""Where a value fix writes: the constant a Claude parameter reads, or the call's own argument.

A fix that sets a parameter (`temperature`, `max_tokens`, `model`) may only change what Claude
is sent. When the value comes from a constant, the constant is edited only if every use of its
name in the module is that parameter of a Claude call that the same fix would set; a constant
that other code also reads (`random.uniform(0, TEMPERATURE)`, a log line, another parameter)
stays as it is, and the call's argument gets the literal instead. The fix's description names
what it edits, so a reviewer sees which of the two it did.

Only the module is seen: a module-level constant that another module imports is judged on this
module's uses alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.diagnostics import Edit
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.node_map import NodeMap
    from claude_migrate.analysis.values import Entry
else:
    cst = lazy_import("libcst")


def _uses(ctx: FileContext) -> Counter[str]:
    """Return how often each name is read or mentioned in the module, assignment targets aside.

    Over-counting (an attribute or keyword of the same spelling) only ever keeps a constant
    unedited. Counted once per file (`NodeMap.name_uses`), not once per fix.
    """
    return ctx.nodes.name_uses()


@dataclass(frozen=True)
class ValueEdit:
    """A value fix's edit and the words that say where it writes.

    `subject` is what is set: the parameter (`temperature`) or the constant with its readers
    (`TEMPERATURE (used by this call)`); `constant` is True for the latter. `note` follows the
    description when the call's argument was edited instead of a shared constant.
    """

    edit: Edit
    subject: str
    constant: bool = False
    note: str = ""
    # Why the fix is not safe though it is right for the call: code that records the value
    # (a cache key, a log line) keeps formatting the constant's old one.
    caveat: str = ""


def value_edit(
    ctx: FileContext,
    entry: Entry,
    text: str,
    parameter_of: Callable[[CallSite], Entry | None],
    same_fix: Callable[[Entry], bool],
    asked_as: str = "",
) -> ValueEdit | None:
    """Return the edit that makes `entry`'s value `text`, and where it writes.

    `parameter_of` gives a call site's entry for the same parameter; `same_fix` says whether
    this fix would set that entry to the same text. `asked_as` names what `parameter_of`
    answers (a rule and its parameter): the calls reading one constant are then found once
    per file, not once per call.
    """
    value = entry.value
    if value.node is None or value.set_elsewhere:
        return None  # other files bind the constant too: the literal alone is not what runs
    constant = value.via
    if (
        constant is None
        and not value.default
        and isinstance(entry.value_node, cst.Name)
        and value.node is not entry.value_node
    ):
        # One branch's value of a local the call reads (`else: temperature = 0.7`, a loop's
        # element): the call's argument cannot take one literal for every branch, so the value
        # is edited where it is written, unless other code would see the new value too.
        if local_reader(ctx, entry, parameter_of, same_fix, asked_as) is not None:
            return None
        return ValueEdit(ctx.replace(value.node, text), entry.key)
    if constant is None or value.default:
        # A literal where it stands, or a wrapper's default that in-project calls rely on (the
        # default is the value those calls send: it is edited where it is written).
        return ValueEdit(ctx.replace(value.node, text), entry.key)
    if _class_read(ctx, entry):
        return _class_edit(ctx, entry, text, parameter_of, same_fix)
    claude_reads = {
        id(other.value_node)
        for other in _calls_reading(ctx, entry, parameter_of, asked_as)
        if same_fix(other)
    }
    calls = "this call" if len(claude_reads) <= 1 else f"{len(claude_reads)} Claude calls"
    local = _local_function(ctx, value.node, constant)
    uses = _uses(ctx)[constant] if local is None else len(_reads_in(ctx, constant, local))
    if claude_reads and uses == len(claude_reads):
        return ValueEdit(ctx.replace(value.node, text), f"{constant} (used by {calls})", True)
    reads = _reads_recording(ctx, constant)
    if local is not None:
        within = {id(n) for n in _reads_in(ctx, constant, local)}
        reads = [(n, kind) for n, kind in reads if id(n) in within]
    others = [n for n, _ in reads if id(n) not in claude_reads]
    records = [(n, kind) for n, kind in reads if id(n) not in claude_reads and kind is not None]
    if claude_reads and len(records) == len(others):
        # Only code that records the value reads it too (a cache key, a log line): changing
        # the constant keeps what they record equal to what is sent.
        said = _places(ctx, records)
        note = f" ({constant} is also read by {said}, which then records the value sent)"
        if not others:
            note = ""
        return ValueEdit(ctx.replace(value.node, text), f"{constant} (used by {calls})", True, note)
    if isinstance(entry.value_node, cst.Subscript) and not claude_reads:
        # An entry of a table (`MODELS["opus"]`) that other code may look up too: this call
        # gets the literal, the table keeps its entry.
        return ValueEdit(
            ctx.replace(entry.value_node, text),
            entry.key,
            note=f" in this call ({constant} stays in its table)",
        )
    # Other code reads the constant: give this call the literal and leave the constant alone.
    if not isinstance(entry.value_node, cst.Name) or value.choice:
        return None  # read through another expression: no place of its own to write
    lines = sorted({ctx.range(n).start.line for n in others})
    shown = ", ".join(ctx.line_label(line) for line in lines)
    where = f"on line{'s' if len(lines) != 1 else ''} {shown}" if lines else "elsewhere"
    caveat = ""
    if records:
        caveat = f"{_places(ctx, records)} still formats {constant}'s old value"
    return ValueEdit(
        ctx.replace(entry.value_node, text),
        entry.key,
        note=f" in this call ({constant} is also read {where}, and stays)",
        caveat=caveat,
    )


def local_reader(
    ctx: FileContext,
    entry: Entry,
    parameter_of: Callable[[CallSite], Entry | None],
    same_fix: Callable[[Entry], bool],
    asked_as: str = "",
) -> str | None:
    """Return why one branch's value of a local (or a function's return) cannot be edited for
    this call, else None.

    A value a function of the module returns (`return 0.9` in `def temperature_for(...)`) is
    every caller's: when the function is called more than once in the module, the edit would
    change what the other calls get (another vendor's request among them).

    The local (`temperature` in `else: temperature = 0.7`, `model` in `for model in [...]`)
    is read by spelling in the function that binds it (the module for a module-level one).
    The edit is withheld when another read would see the new value: another vendor's call,
    code the value is handed to or returned to, a Claude call this fix does not set the same
    way. Reads that leave the request's meaning alone do not count: a Claude call of the same
    fix, a log line or cache key that records the value sent, and a test of the parameter
    written before the branch (`if temperature is None:`) outside any loop.
    """
    node = entry.value_node
    written = entry.value.node
    if node is None or written is None or written is node:
        return None
    if entry.value.via is not None or entry.value.default:
        return None  # a constant or a wrapper's default: `value_edit` judges its readers
    returned = _shared_return(ctx, node, written)
    if returned is not None or not isinstance(node, cst.Name):
        return returned
    name = node.value
    owner = _owner(ctx, node)
    if _declared_outside(ctx, name, owner):
        return f"{name} is declared global or nonlocal: code elsewhere reads it too"
    claude = _claude_reads(ctx, parameter_of, same_fix, asked_as)
    at = ctx.span(written)[0]
    looped = _in_loop(ctx, written, owner)
    for read in _reads(ctx, name):
        if read is node or id(read) in claude or not _within(ctx, read, owner):
            continue
        if _is_target(ctx, read) or _records(ctx, read) is not None:
            continue
        if not looped and ctx.span(read)[0] < at and _is_test(ctx, read):
            continue
        if _falls_back_to(ctx, read, written):
            continue
        line = ctx.line_label(ctx.range(read).start.line)
        return (
            f"{name} is also read on line {line}, by code other than the Claude call: the "
            "edit would change what that code sees"
        )
    return None


def _shared_return(ctx: FileContext, node: cst.CSTNode, written: cst.CSTNode) -> str | None:
    """Return why a value written in another function than the one reading it (its return)
    is not this call's alone: the function is called more than once in the module."""
    source = _owner(ctx, written)
    if not isinstance(source, cst.FunctionDef) or source is _owner(ctx, node):
        return None
    current = ctx.nodes.parent(written)
    while current is not None and current is not source and not isinstance(current, cst.Return):
        current = ctx.nodes.parent(current)
    if not isinstance(current, cst.Return):
        return None  # kept on the instance or in a table, not given back: judged elsewhere
    name = source.name.value
    calls = _attribute_reads(ctx, name) + sum(
        1
        for read in _reads(ctx, name)
        if not isinstance(ctx.nodes.parent(read), (cst.FunctionDef, cst.ClassDef))
    )
    if calls <= 1:
        return None
    return (
        f"{name}() gives the value back and is called {calls} times in the module: the edit "
        "would change what the other calls get"
    )


def _owner(ctx: FileContext, node: cst.CSTNode) -> cst.CSTNode | None:
    """Return the function (or lambda) that holds a node; None: the module."""
    current = ctx.nodes.parent(node)
    while current is not None and not isinstance(current, (cst.FunctionDef, cst.Lambda)):
        current = ctx.nodes.parent(current)
    return current


def _declared_outside(ctx: FileContext, name: str, owner: cst.CSTNode | None) -> bool:
    """Return whether `owner` declares `name` global or nonlocal."""
    if owner is None:
        return False
    for node in ctx.nodes.names_spelled(name):
        if isinstance(ctx.nodes.parent(node), cst.NameItem) and _within(ctx, node, owner):
            return True
    return False


def _claude_reads(
    ctx: FileContext,
    parameter_of: Callable[[CallSite], Entry | None],
    same_fix: Callable[[Entry], bool],
    asked_as: str,
) -> set[int]:
    """Return the ids of the expressions that Claude calls of the same fix read a value by."""
    key = ("value_edits.claude_reads", asked_as)
    found: set[int] | None = ctx.memo.get(key) if asked_as else None
    if found is None:
        found = {
            id(other.value_node)
            for site in ctx.all_sites
            if (other := parameter_of(site)) is not None and same_fix(other)
        }
        if asked_as:
            ctx.memo[key] = found
    return found


def _is_target(ctx: FileContext, node: cst.Name) -> bool:
    """Return whether a name is bound here rather than read (a loop's or `with`'s target)."""
    parent = ctx.nodes.parent(node)
    if isinstance(parent, (cst.For, cst.CompFor)) and parent.target is node:
        return True
    if isinstance(parent, cst.AsName) and parent.name is node:
        return True
    return isinstance(parent, cst.Param) and parent.name is node


def _is_test(ctx: FileContext, node: cst.Name) -> bool:
    """Return whether a name is read only to test it: the condition of an `if` or `while`,
    alone, under `not`, or compared with `is` / `is not` (`if temperature is None:`)."""
    current: cst.CSTNode = node
    parent = ctx.nodes.parent(node)
    if isinstance(parent, cst.UnaryOperation) and isinstance(parent.operator, cst.Not):
        current, parent = parent, ctx.nodes.parent(parent)
    elif isinstance(parent, cst.Comparison) and parent.left is node:
        if not all(isinstance(c.operator, (cst.Is, cst.IsNot)) for c in parent.comparisons):
            return False
        current, parent = parent, ctx.nodes.parent(parent)
    return isinstance(parent, (cst.If, cst.While)) and parent.test is current


def _falls_back_to(ctx: FileContext, node: cst.Name, written: cst.CSTNode) -> bool:
    """Return whether a name is read only to choose the value written: `t` in `t or 0.9`, whose
    fallback is the value edited (what the name holds otherwise is not changed)."""
    parent = ctx.nodes.parent(node)
    return (
        isinstance(parent, cst.BooleanOperation)
        and isinstance(parent.operator, cst.Or)
        and parent.left is node
        and parent.right is written
    )


def _in_loop(ctx: FileContext, node: cst.CSTNode, owner: cst.CSTNode | None) -> bool:
    """Return whether a node is written in a loop inside `owner`."""
    current = ctx.nodes.parent(node)
    while current is not None and current is not owner:
        if isinstance(current, (cst.For, cst.While)):
            return True
        current = ctx.nodes.parent(current)
    return False


def _class_read(ctx: FileContext, entry: Entry) -> bool:
    """Return whether an entry reads a value through `self.<attr>` (from a class body, or set
    once in a method: `self.model = "..."`) or through the class's name (`Config.MODEL`)."""
    node = entry.value_node
    via = entry.value.via or ""
    if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)):
        return False
    attr = node.attr.value
    if not via.endswith(f".{attr}"):
        return False
    if not via.startswith(f"{node.value.value}.") or via == f"self.{attr}":
        return True
    # `Config.MODEL`, not `self.model = ...` written in a method nor an enum's member (whose
    # value other code may look the member up by).
    return entry.value.node is not None and _plain_class_body(ctx, entry.value.node)


def _plain_class_body(ctx: FileContext, node: cst.CSTNode) -> bool:
    """Return whether `node` is written in a class body, outside any function, of a class that
    is not an enum."""
    current = ctx.nodes.parent(node)
    while current is not None:
        if isinstance(current, (cst.FunctionDef, cst.Lambda)):
            return False
        if isinstance(current, cst.ClassDef):
            scope = ctx.index.module_scope
            return scope is not None and not any(
                (ctx.resolver.qualname(base.value, scope) or "").startswith("enum.")
                for base in current.bases
            )
        current = ctx.nodes.parent(current)
    return False


def _class_edit(
    ctx: FileContext,
    entry: Entry,
    text: str,
    parameter_of: Callable[[CallSite], Entry | None],
    same_fix: Callable[[Entry], bool],
) -> ValueEdit | None:
    """Return the edit of a value a Claude call reads as `self.model` from a class body.

    The class attribute is edited when every read of the attribute's name in the module is a
    Claude parameter this fix sets the same way; otherwise this call gets the literal.
    """
    assert isinstance(entry.value_node, cst.Attribute) and entry.value.node is not None
    attr = entry.value_node.attr.value
    read_by: set[int] = set()
    for site in ctx.all_sites:  # the sites split by the class the instance is, too
        other = parameter_of(site)
        if (
            other is not None
            and other.value.node is entry.value.node
            and isinstance(other.value_node, cst.Attribute)
            and other.value_node.attr.value == attr
            and same_fix(other)
        ):
            read_by.add(id(other.value_node))
    reads = len(read_by)
    if reads and _attribute_reads(ctx, attr) == reads:
        subject = f"{entry.value.via} (read by {'this call' if reads == 1 else f'{reads} calls'})"
        return ValueEdit(ctx.replace(entry.value.node, text), subject, True)
    if entry.holder is entry.value.node:
        return None  # one of several classes' values: the call's argument serves them all
    if entry.value.choice:
        return None  # the default of an object a caller may pass: its value is not replaced
    return ValueEdit(
        ctx.replace(entry.value_node, text),
        entry.key,
        note=f" in this call ({entry.value.via} is read elsewhere too, and stays)",
    )


def _attribute_reads(ctx: FileContext, attr: str) -> int:
    """Return how many `<x>.<attr>` expressions of the module read `attr` (not set it)."""
    nodes = ctx.nodes
    count = 0
    for node in nodes.names_spelled(attr):
        parent = nodes.parent(node)
        if not (isinstance(parent, cst.Attribute) and parent.attr is node):
            continue
        holder = nodes.parent(parent)
        if isinstance(holder, (cst.AssignTarget, cst.AnnAssign, cst.AugAssign)):
            continue
        count += 1
    return count


_LOG_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "print"}
)
_KEY_CALLS = frozenset({"sha256", "sha1", "md5", "blake2b", "hash", "dumps", "new"})


def _calls_reading(
    ctx: FileContext,
    entry: Entry,
    parameter_of: Callable[[CallSite], Entry | None],
    asked_as: str,
) -> list[Entry]:
    """Return the entries of the calls that send `entry`'s constant by its name: Claude calls
    and calls of in-project wrappers that pass it on to one (`send(hot)`)."""
    value, constant = entry.value, entry.value.via
    assert constant is not None and value.node is not None
    key = ("value_edits.calls", asked_as, constant, str(id(value.node)))
    found: list[Entry] | None = ctx.memo.get(key) if asked_as else None
    if found is None:
        found = [
            other
            for site in ctx.all_sites
            if (other := parameter_of(site)) is not None
            and other.value.via == constant
            and other.value.node is value.node
            and isinstance(other.value_node, cst.Name)
            and other.value_node.value == constant
        ]
        if asked_as:
            ctx.memo[key] = found
    return found


def _local_function(ctx: FileContext, literal: cst.CSTNode, name: str) -> cst.FunctionDef | None:
    """Return the function whose local `name` the literal is assigned to (`name = "..."` in its
    body), None for a module constant or a name a `global` or `nonlocal` statement shares:
    the reads of a local are the function's own (a same-named local or parameter of another
    function is another variable)."""
    nodes = ctx.nodes
    assign = nodes.parent(literal)
    if not (
        isinstance(assign, cst.Assign)
        and assign.value is literal
        and len(assign.targets) == 1
        and isinstance(assign.targets[0].target, cst.Name)
        and assign.targets[0].target.value == name
    ):
        return None
    node: cst.CSTNode | None = assign
    while node is not None and not isinstance(node, cst.FunctionDef | cst.ClassDef):
        node = nodes.parent(node)
    if not isinstance(node, cst.FunctionDef):
        return None
    for spelled in nodes.names_spelled(name):
        if isinstance(nodes.parent(spelled), cst.NameItem) and _inside(nodes, spelled, node):
            return None  # `global name` / `nonlocal name`
    return node


def _reads_in(ctx: FileContext, name: str, function: cst.FunctionDef) -> list[cst.Name]:
    """Return the reads of `name` inside `function`, nested functions included."""
    return [node for node in _reads(ctx, name) if _inside(ctx.nodes, node, function)]


def _inside(nodes: NodeMap, node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    current: cst.CSTNode | None = node
    while current is not None:
        if current is outer:
            return True
        current = nodes.parent(current)
    return False


def _reads_recording(ctx: FileContext, name: str) -> list[tuple[cst.Name, str | None]]:
    """Return each read of `name` with what it records (`_records`), found once per file."""
    key = ("value_edits.reads", name)
    found: list[tuple[cst.Name, str | None]] | None = ctx.memo.get(key)
    if found is None:
        found = ctx.memo[key] = [(node, _records(ctx, node)) for node in _reads(ctx, name)]
    return found


def _reads(ctx: FileContext, name: str) -> list[cst.Name]:
    """Return the `Name` nodes that read `name` (not assignment targets, keywords, attributes)."""
    nodes = ctx.nodes
    found = []
    for node in nodes.names_spelled(name):
        parent = nodes.parent(node)
        if isinstance(parent, cst.Attribute) and parent.attr is node:
            continue
        if isinstance(parent, cst.Arg) and parent.keyword is node:
            continue
        if isinstance(parent, (cst.AssignTarget, cst.AnnAssign)) and parent.target is node:
            continue
        if isinstance(parent, cst.NameItem):  # `global NAME`
            continue
        found.append(node)
    return found


def _records(ctx: FileContext, node: cst.CSTNode) -> str | None:
    """Return "log line", "cache key" or "text" when this read only records the value."""
    nodes = ctx.nodes
    current: cst.CSTNode | None = nodes.parent(node)
    kind: str | None = None
    while current is not None and not isinstance(
        current, (cst.SimpleStatementLine, cst.BaseCompoundStatement)
    ):
        if isinstance(current, cst.Call):
            func = current.func
            last = func.attr.value if isinstance(func, cst.Attribute) else ""
            last = func.value if isinstance(func, cst.Name) else last
            if last in _LOG_METHODS:
                return "the log line"
            if last in _KEY_CALLS:
                kind = "the cache key"
            elif last != "format" and kind is None:
                return None  # handed to other code, which may compute with it
        elif isinstance(current, (cst.FormattedStringExpression, cst.FormattedString)):
            kind = kind or "text"
        elif isinstance(current, cst.Assign):
            targets = [ctx.code(t.target).lower() for t in current.targets]
            if any("key" in t for t in targets):
                return "the cache key"
            return kind if kind == "the cache key" else None
        current = nodes.parent(current)
    return kind if kind == "the cache key" else None


def _places(ctx: FileContext, records: list[tuple[cst.Name, str]]) -> str:
    return "; ".join(
        f"{kind} on line {ctx.line_label(ctx.range(n).start.line)}" for n, kind in records
    )


def shared_dict(ctx: FileContext, entry: Entry) -> str | None:
    """Return why an edit of a dict's entry would change another call's request too, else None.

    A dict of options bound to a name (`opts = {"temperature": 1.2}`) and also spread into a
    call that is not one of the file's Claude calls (`openai_client.chat.completions.create(
    **opts)`) is that call's request too: setting or removing its entry for Claude changes the
    other vendor's. Reads are matched by spelling in the function that binds the dict (the
    module for a module-level one), so a name spelled alike there only ever keeps an entry
    unedited.
    """
    named = _dict_name(ctx, entry)
    if named is None:
        return None
    name, owner = named
    key = ("value_edits.shared", name, str(id(owner)))
    if key in ctx.memo:
        found: str | None = ctx.memo[key]
        return found
    claude_calls = {id(site.record.node) for site in ctx.all_sites}
    found = None
    for node in _reads(ctx, name):
        if not _within(ctx, node, owner):
            continue
        arg = ctx.nodes.parent(node)
        if not (isinstance(arg, cst.Arg) and arg.star == "**" and arg.value is node):
            if owner is None or _is_target(ctx, node) or _sets_entry(ctx, node):
                continue
            if isinstance(arg, cst.Return):
                continue  # a helper's request, returned to the Claude call it was read for
            if isinstance(arg, cst.Arg) and id(ctx.nodes.parent(arg)) in claude_calls:
                continue  # the request handed to a Claude call (a sender taking the dict)
            if _records(ctx, node) or _reads_other_entry(ctx, node, entry.key):
                continue
            # A function's own dict handed on whole (`history.append(opts)`, `self.opts = opts`) or
            # read by other code: that code would see the new entry too. (A module-level
            # dict's other reads are often copies for Claude calls that set the entry again.)
            line = ctx.line_label(ctx.range(node).start.line)
            found = (
                f"{name} is also read on line {line}, by code other than the Claude call: the "
                "edit would change what that code sees"
            )
            break
        call = ctx.nodes.parent(arg)
        if isinstance(call, cst.Call) and id(call) not in claude_calls:
            line = ctx.line_label(ctx.range(call).start.line)
            found = (
                f"{name} is also passed to {ctx.code(call.func)}() on line {line}, which is not "
                "a Claude call: the edit would change its request too"
            )
            break
    ctx.memo[key] = found
    return found


def _sets_entry(ctx: FileContext, node: cst.Name) -> bool:
    """Return whether a dict's name is read only to set one of its entries (`opts[k] = v`)."""
    subscript = ctx.nodes.parent(node)
    if not isinstance(subscript, cst.Subscript) or subscript.value is not node:
        return False
    return isinstance(ctx.nodes.parent(subscript), cst.AssignTarget)


def _reads_other_entry(ctx: FileContext, node: cst.Name, key: str) -> bool:
    """Return whether a dict's name is read only for another entry than `key`, named by a
    string literal (`opts["model"]`, `opts.get("model")`): the edit leaves what it gets."""
    parent = ctx.nodes.parent(node)
    index: cst.BaseExpression | None = None
    if isinstance(parent, cst.Subscript) and parent.value is node and len(parent.slice) == 1:
        element = parent.slice[0].slice
        index = element.value if isinstance(element, cst.Index) else None
    elif isinstance(parent, cst.Attribute) and parent.value is node and parent.attr.value == "get":
        call = ctx.nodes.parent(parent)
        if isinstance(call, cst.Call) and call.func is parent and call.args:
            index = call.args[0].value
    if not isinstance(index, cst.SimpleString):
        return False
    named = index.evaluated_value
    return isinstance(named, str) and named != key


def _dict_name(ctx: FileContext, entry: Entry) -> tuple[str, cst.CSTNode | None] | None:
    """Return the name of the dict an entry is written in (`opts = {...}`, `opts[key] = v`)
    and the function binding it (None: the module)."""
    holder = entry.holder
    name = None
    if isinstance(holder, cst.DictElement):
        display = ctx.nodes.parent(holder)
        bound = ctx.nodes.parent(display) if isinstance(display, cst.Dict) else None
        if isinstance(bound, cst.Assign) and len(bound.targets) == 1:
            target: cst.CSTNode = bound.targets[0].target
        elif isinstance(bound, cst.AnnAssign):
            target = bound.target
        else:
            return None  # written in the call, or held where no name reads it
        name = target.value if isinstance(target, cst.Name) else None
    else:
        statement = holder
        if isinstance(holder, cst.SimpleStatementLine) and len(holder.body) == 1:
            statement = holder.body[0]
        if isinstance(statement, cst.Assign) and len(statement.targets) == 1:
            target = statement.targets[0].target
            if isinstance(target, cst.Subscript) and isinstance(target.value, cst.Name):
                name = target.value.value
    if name is None:
        return None
    owner = ctx.nodes.parent(holder)
    while owner is not None and not isinstance(owner, cst.FunctionDef):
        owner = ctx.nodes.parent(owner)
    return name, owner


def _within(ctx: FileContext, node: cst.CSTNode, owner: cst.CSTNode | None) -> bool:
    """Return whether a node lies inside `owner` (None: the module, which holds every node)."""
    if owner is None:
        return True
    current = ctx.nodes.parent(node)
    while current is not None:
        if current is owner:
            return True
        current = ctx.nodes.parent(current)
    return False
