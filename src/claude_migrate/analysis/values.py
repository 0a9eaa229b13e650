"""What an argument's value is: a literal where it stands, a constant, a dict entry, a `**kwargs`
dict.

Unknown stays unknown: a name bound more than once, a parameter, an environment variable or any
computation is `UNKNOWN`, and nothing is reported on it.
"""

from __future__ import annotations

import ast
import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeGuard

from claude_migrate.analysis.dict_uses import dict_uses
from claude_migrate.analysis.scope import (
    Binding,
    Branch,
    CallRecord,
    ClassInfo,
    Scope,
    SubscriptSet,
    always_before,
    may_reach,
)
from claude_migrate.core.arithmetic import fold
from claude_migrate.core.lazy import lazy_import
from claude_migrate.core.templates import Piece, format_pieces, percent_pieces

if TYPE_CHECKING:
    from collections.abc import Mapping

    import libcst as cst

    from claude_migrate.analysis.resolving import SymbolResolver
    from claude_migrate.analysis.scope import CallRecord
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Where a name is read: the order of the reading call and the branches it sits in.
Read: TypeAlias = tuple[int, tuple[Branch, ...]]

MAX_DEPTH = 12
# The most assignments of one name a value set is read from.
MAX_MEMBERS = 64
# Methods that change a dict in place: a dict they are called on is not the literal it was.
# The standard library's enum classes (https://docs.python.org/3/library/enum.html): a member's
# `.value` is what its class body assigns.
ENUM_CLASSES = frozenset({"enum.Enum", "enum.StrEnum", "enum.IntEnum", "enum.Flag", "enum.IntFlag"})
# Builtin conversions of a known value (`float(TEMPERATURE)`).
_CONVERSIONS: dict[str, Any] = {"float": float, "int": int, "str": str}
MUTATING_METHODS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})
# Builtins that read their argument and never change it (`dict(DEFAULTS)`: a copy is made).
READING_BUILTINS = frozenset(
    {"print", "len", "repr", "str", "bool", "id", "hash", "type", "isinstance", "dict", "list"}
)
# Functions of the standard library that only read what they are given.
READING_FUNCTIONS = frozenset(
    {"json.dumps", "pprint.pprint", "pprint.pformat", "copy.copy", "copy.deepcopy"}
)
# Container methods that keep their argument as it is (`list.append`, `set.add`, `Queue.put`).
STORING_METHODS = frozenset({"append", "appendleft", "insert", "add", "put", "put_nowait"})
# The standard library's logging calls (https://docs.python.org/3/library/logging.html).
LOGGING_METHODS = frozenset(
    {"debug", "info", "warning", "warn", "error", "exception", "critical", "log"}
)
LIST_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "__iadd__"})


@dataclass(frozen=True)
class Value:
    """A value proven from the source, and the node that holds it (the one a fix edits)."""

    known: bool
    value: Any = None
    node: cst.CSTNode | None = None
    # The name it was read through ("TEMPERATURE"), for messages.
    via: str | None = None
    # Set when the value is a parameter's default that some in-project call relies on: the
    # finding goes to the default, where the fix edits it.
    default: bool = False
    # Set when the value is another checked module's constant that the project phase reports
    # where it is assigned, once for every Claude call reading it: not reported at the call.
    elsewhere: bool = False
    # Set when the value is one a call may pick among several (`MODELS[key]`, a helper's
    # returns): the call's argument is not this value alone, so no fix writes there.
    choice: bool = False
    # Set when the value is a model a wrapper spells around what its caller passes
    # (`f"anthropic.{model}-v1:0"`): the text written before and after it. `value` is the
    # whole id the call sends; the node holds the caller's part only.
    spelled: tuple[str, str] | None = None
    # Set on a relied-on default when some in-project call also passes the parameter: the
    # default is one of the values the call sends, not the only one.
    given_too: bool = False
    # Set when the value is a module-level constant that other files of the run bind to the
    # same literal (the project phase's `bound_alike`): those files, where a fix of the
    # constant alone would be undone.
    set_elsewhere: tuple[str, ...] = ()


UNKNOWN = Value(False)


def _part_text(value: Any, only_strings: bool) -> str | None:
    """Return the text a proven value puts in a string built from parts: a string, or (in an
    f-string, not `only_strings`) a number it formats; never a bool, which formats as a word."""
    if isinstance(value, str):
        return value
    if only_strings or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return str(value)


def _spelled_default(parts: list[str], defaults: list[tuple[int, Value]]) -> Value:
    """Return a string built around one parameter default some call relies on: the whole
    text, found (and fixed) at the default, the text around it kept (`Value.spelled`)."""
    if len(defaults) != 1 or not isinstance(defaults[0][1].value, str):
        return UNKNOWN
    at, inner = defaults[0]
    prefix, suffix = "".join(parts[:at]), "".join(parts[at + 1 :])
    if inner.spelled is not None:  # `"bedrock/" + f"anthropic.{model}"`: both around it
        prefix, suffix = prefix + inner.spelled[0], inner.spelled[1] + suffix
    return dataclasses.replace(inner, value="".join(parts), spelled=(prefix, suffix))


@dataclass(eq=False)
class Entry:
    """One parameter as a call passes it: the node it is written at, and its value."""

    key: str
    holder: cst.CSTNode  # cst.Arg, cst.DictElement or the statement of `d[key] = v`
    value_node: cst.BaseExpression
    value: Value
    # The list the holder sits in (call args or dict elements), for removal fixes.
    container: cst.CSTNode | None = None
    # The dict the entry came from when passed as `**name`, for messages.
    through: str | None = None


@dataclass(eq=False)
class Entries:
    """The parameters of a call or dict, and whether some could not be seen."""

    items: dict[str, Entry] = field(default_factory=dict)
    opaque: bool = False
    # Keys proven present with a value we cannot know.
    unknown_keys: set[str] = field(default_factory=set)
    # Keys written in the dict that a later `**spread` may give another value (`{"prompt": p,
    # **extra}`): present whatever the spread holds.
    replaceable: set[str] = field(default_factory=set)

    def get(self, *names: str) -> Entry | None:
        for name in names:
            entry = self.items.get(name)
            if entry is not None:
                return entry
        return None

    def may_have(self, *names: str) -> bool:
        """Return whether the parameter may be present though we cannot see it."""
        return self.opaque or any(n in self.unknown_keys for n in names)


def _class_read(node: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """Return (class expression, attribute) for `Config.MODEL` or `getattr(Config, "MODEL"[, d])`.

    With `getattr`'s default, the attribute's own value still wins when the class has it.
    """
    if isinstance(node, cst.Attribute):
        return node.value, node.attr.value
    if (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "getattr"
        and 2 <= len(node.args) <= 3
        and not any(arg.star or arg.keyword for arg in node.args)
    ):
        name = string_value(node.args[1].value)
        if name is not None and name.isidentifier():
            return node.args[0].value, name
    return None


def _index(node: cst.Subscript) -> cst.BaseExpression | None:
    """Return the key of `x[key]`, when it is one plain index."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return node.slice[0].slice.value


def _self_read(node: cst.BaseExpression, scope: Scope) -> tuple[ClassInfo, str] | None:
    """Return (the method's class, the attribute) for `self.<attr>` read in a method."""
    if not (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)):
        return None
    function = scope.function()
    info = function.method_of
    if info is None or node.value.value != function.self_name:
        return None
    return info, node.attr.value


def _changes_items(module: cst.CSTNode, name: str) -> bool:
    """Return whether code of the module changes the items of the dict a dotted name reads
    (`cfg.PARAMS[k] = v`, `del cfg.PARAMS[k]`, `cfg.PARAMS.update(...)`)."""
    stack: list[cst.CSTNode] = [module]
    while stack:
        node = stack.pop()
        targets: list[cst.BaseExpression] = []
        if isinstance(node, (cst.AssignTarget, cst.AugAssign, cst.AnnAssign, cst.Del)):
            targets.append(node.target)
        elif (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in MUTATING_METHODS
            and _dotted(node.func.value) == name
        ):
            return True
        while targets:
            target = targets.pop()
            if isinstance(target, cst.Subscript) and _dotted(target.value) == name:
                return True
            if isinstance(target, (cst.Tuple, cst.List)):
                targets.extend(element.value for element in target.elements)
        stack.extend(node.children)
    return False


def _encoded_text(node: cst.BaseExpression, scope: Scope) -> cst.BaseExpression | None:
    """Return the text `bytes(text, "utf-8")` (or `bytearray(...)`) encodes, when the builtin is
    the one called (no name of the file's shadows it)."""
    if (
        not isinstance(node, cst.Call)
        or not isinstance(node.func, cst.Name)
        or node.func.value not in ("bytes", "bytearray")
        or scope.lookup(node.func.value)
        or not node.args
        or node.args[0].keyword is not None
        or node.args[0].star
    ):
        return None
    return node.args[0].value


def _subscript_root(node: cst.BaseExpression) -> cst.BaseExpression:
    """Return what a chain of subscripts reads from (`request` for `request["a"]["b"]`)."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node


def _dotted(node: cst.BaseExpression) -> str | None:
    """Return `name` or `name.attr` for a table read through a name or one attribute."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
        return f"{node.value.value}.{node.attr.value}"
    return None


def _table_key(node: cst.BaseExpression) -> tuple[str, object] | None:
    """Return how a table key is written: a literal's value, or a dotted name (`Llm.OPUS`)."""
    found = literal(node)
    if found.known and isinstance(found.value, (str, int)):
        return "literal", repr(found.value)
    parts: list[str] = []
    while isinstance(node, cst.Attribute):
        parts.append(node.attr.value)
        node = node.value
    if isinstance(node, cst.Name):
        parts.append(node.value)
        return "name", ".".join(reversed(parts))
    return None


def string_value(node: cst.BaseExpression) -> str | None:
    """Return the text of a plain (non-f, non-bytes) string literal."""
    if isinstance(node, cst.SimpleString):
        prefix = node.prefix.lower()
        if "b" in prefix or "f" in prefix:
            return None
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, SyntaxError):
            return None
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString):
        left = string_value(node.left)
        right = string_value(node.right)
        return None if left is None or right is None else left + right
    return None


def literal(node: cst.BaseExpression) -> Value:
    """Return the value of a literal expression written in place."""
    if isinstance(node, cst.Integer):
        return Value(True, node.evaluated_value, node)
    if isinstance(node, cst.Float):
        return Value(True, node.evaluated_value, node)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, (cst.Minus, cst.Plus)):
        inner = literal(node.expression)
        if (
            inner.known
            and isinstance(inner.value, (int, float))
            and not isinstance(inner.value, bool)
        ):
            sign = -1 if isinstance(node.operator, cst.Minus) else 1
            return Value(True, sign * inner.value, node)
        return UNKNOWN
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return Value(True, {"True": True, "False": False, "None": None}[node.value], node)
    if isinstance(node, cst.BinaryOperation):
        return _arithmetic(node)
    text = string_value(node)
    if text is not None:
        return Value(True, text, node)
    return UNKNOWN


def _arithmetic(node: cst.BinaryOperation) -> Value:
    """Return the value of arithmetic on number literals (`8 * 1024`), as Python computes it."""
    symbol = _OPERATOR_SYMBOLS.get(type(node.operator).__name__)
    if symbol is None:
        return UNKNOWN
    left, right = literal(node.left), literal(node.right)
    if not (left.known and right.known):
        return UNKNOWN
    result = fold(symbol, left.value, right.value)
    return UNKNOWN if result is None else Value(True, result, node)


_OPERATOR_SYMBOLS = {
    "Add": "+",
    "Subtract": "-",
    "Multiply": "*",
    "Divide": "/",
    "FloorDivide": "//",
    "Modulo": "%",
    "Power": "**",
    "LeftShift": "<<",
}


class ValueResolver:
    """Follows names to the literal they are bound to."""

    def __init__(self, module_scope: Scope, symbols: SymbolResolver | None = None) -> None:
        self.module_scope = module_scope
        self.symbols = symbols
        # Helper calls whose returned dict a Claude call's `**` was read from (by node id).
        self.expanded: set[int] = set()
        # Per class: its bases and its subclasses here; per table: whether code changes it.
        self._bases_of: dict[int, list[ClassInfo | None]] = {}
        self._receivers_of: dict[int, list[ClassInfo]] = {}
        self._children_of: dict[int, list[ClassInfo]] | None = None
        self._changed_tables: dict[tuple[str, int], bool] = {}
        # Per function: the calls handing each name to other code (`annotate(request)`).
        self._handed: dict[int, dict[str, list[CallRecord]]] = {}

    def single_binding(
        self, name: str, scope: Scope, read: Read | None = None, *, objects: bool = False
    ) -> Binding | None:
        """Return the one assignment of `name` visible from `scope`, or None if not exactly one.

        `read`: where the name is read (order, branch path); an assignment inside a compound
        statement counts when it runs on every path to that read (`try:` / `with` / loop body:
        `params = {...}` then `create(**params)` in the same block).

        A module-level value another file of the run may bind (`chat.MODEL = "gpt-4o"`: the
        project phase's `bound_outside`) has no one assignment; `objects`, for a caller reading
        the object a name holds (a client, an options object), keeps the assignment as before.
        """
        found = self._one_binding(name, scope, read)
        if found is None or objects or self.symbols is None:
            return found
        if found.scope.kind == "module" and self.symbols.bound_outside(name):
            return None
        return found

    def _one_binding(self, name: str, scope: Scope, read: Read | None) -> Binding | None:
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        if len(bindings) != 1:
            return _latest_top_level(bindings, scope, read)
        binding = bindings[0]
        if binding.kind != "assign" or binding.value is None:
            return None
        # A function's local constant counts only when assigned at the function's top level,
        # or earlier in the block the read sits in.
        if binding.nested and not _runs_before(binding, read):
            return None
        return binding

    def made_object(self, name: str, scope: Scope) -> tuple[cst.BaseExpression, Scope] | None:
        """Return what a name is bound to once (`opts = Options(...)`), or the object a
        parameter left out stands for.

        A parameter with an empty default given an object only when empty, in its one other
        assignment: `if opts is None: opts = Options()` (the object's fields are what an empty
        `opts` sends, as the project phase reads it), and `opts = opts or Options()` or a
        default that is the object (`opts=Options()`) when an in-project call relies on the
        default (leaves the parameter out), as `t = t or 0.9` sends 0.9 then.
        """
        binding = self.single_binding(name, scope, objects=True)
        if binding is not None:
            return (binding.value, binding.scope) if binding.value is not None else None
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        params = [b for b in bindings if b.kind == "param"]
        if len(params) != 1 or params[0].default is None or params[0].scope is not scope:
            return None
        param, default = params[0], params[0].default
        others = [b for b in bindings if b is not param]
        if not others:
            # `opts=Options()`, or `opts=DEFAULTS` with `DEFAULTS = Options()` bound once in the
            # enclosing scope (followed from there as any name is).
            if not isinstance(default, (cst.Call, cst.Name)) or not self.relied(name, scope):
                return None
            return default, scope.parent or scope
        empty = literal(default)
        if len(others) != 1 or not empty.known or empty.value is not None:
            return None
        only = others[0]
        if only.kind != "assign" or only.value is None or len(only.path) > 1:
            return None
        made = only.value
        if not only.nested:
            parts = fallback_parts(made)
            tests = parts[:-1] if parts else []
            if not any(isinstance(t, cst.Name) and t.value == name for t in tests):
                return None
            if not self.relied(name, scope):
                return None  # every call passes its own object: the one made here is not sent
            assert parts is not None
            made = parts[-1]
        return (made, only.scope) if isinstance(made, cst.Call) else None

    def relied(self, name: str, scope: Scope) -> bool:
        """Return whether an in-project call of `scope`'s function leaves parameter `name` out
        and what it then holds reaches Claude (the project phase decides)."""
        if self.symbols is None:
            return False
        facts = self.symbols.own_function(scope.qualname)
        return facts is not None and name in facts.get("relied", ())

    def self_attribute(
        self, node: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """Return the one value a `self.<attr>` is given (in `__init__` or any method), if one.

        Assigned once, at the top level of its method, and never changed item by item.
        """
        read = _self_read(node, scope)
        if read is None:
            return None
        info, attr = read
        bindings = info.attributes.get(attr, [])
        if len(bindings) != 1 or info.items.get(attr):
            return None
        binding = bindings[0]
        if binding.kind != "assign" or binding.value is None or binding.nested:
            return None
        return binding.value, binding.scope

    def held_object(
        self, node: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """Return the one value a `self.<attr>` is given (`self_attribute`) when no subclass of
        its class here sets the attribute too: an instance of one holds that one's value."""
        read = _self_read(node, scope)
        if read is None:
            return None
        info, attr = read
        if any(attr in other.attributes for other in self._receivers(info)[1:]):
            return None
        return self.self_attribute(node, scope)

    def value(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> Value:
        """Return the proven value of `node`, following constants."""
        found = literal(node)
        if found.known or depth > MAX_DEPTH:
            return found
        members = self.class_attribute(node, scope, depth)
        if members is not None and len({id(m.node) for m in members}) == 1:
            return members[0]  # `model = "..."` in the class body, no subclass overriding it
        held = self.self_attribute(node, scope)
        if held is not None:
            # `self.model` set once from a literal or a constant, or from a parameter whose
            # default in-project calls rely on (`self.max_tokens = max_tokens` in `__init__`):
            # any other parameter's value depends on the caller.
            inner = self.value(held[0], held[1], depth + 1)
            if not inner.known:
                return UNKNOWN
            assert isinstance(node, cst.Attribute)
            via = inner.via or f"self.{node.attr.value}"
            return Value(True, inner.value, inner.node, via, default=inner.default)
        if isinstance(node, cst.Name):
            binding = self.single_binding(node.value, scope)
            if binding is None or binding.value is None:
                found = self.imported(node.value, scope)
                return found if found.known else self.relied_default(node.value, scope, depth)
            inner = self.value(binding.value, binding.scope, depth + 1)
            if not inner.known:
                return UNKNOWN
            # A local bound to a relied-on default (`max_tokens = kwargs.pop("max_tokens",
            # 4096)`, `x = param`) is that default: found and fixed there, not at the call,
            # where a value would replace what the other callers pass.
            elsewhere = inner.set_elsewhere
            if binding.scope.kind == "module" and self.symbols is not None:
                elsewhere = elsewhere or self.symbols.bound_alike(node.value)
            return Value(
                True,
                inner.value,
                inner.node,
                inner.via or node.value,
                default=inner.default,
                given_too=inner.given_too,
                set_elsewhere=elsewhere,
            )
        if isinstance(node, (cst.List, cst.Tuple)):
            return self._sequence(node, scope, depth)
        read = _class_read(node)
        if read is not None:
            return self.class_constant(read[0], read[1], scope, depth)
        if isinstance(node, (cst.FormattedString, cst.BinaryOperation)) or (
            isinstance(node, cst.Call) and _template_call(node) is not None
        ):
            return self.joined(node, scope, depth)
        if isinstance(node, cst.Subscript):
            return self.table_item(node, scope, depth)
        if isinstance(node, cst.Call):
            found = self.star_default(node, scope, depth)
            return found if found.known else self._converted(node, scope, depth)
        return UNKNOWN

    def star_default(self, node: cst.Call, scope: Scope, depth: int = 0) -> Value:
        """Return the default of `kwargs.get("key", DEFAULT)` (or `.pop`) on a function's
        `**kwargs` when an in-project call of the function relies on it: it passes no such
        keyword and spreads no dict. The project phase decides (`relied`, as `kwargs[key]`)."""
        read = self._relied_star_read(node, scope)
        if read is None:
            return UNKNOWN
        inner = self.value(node.args[1].value, scope, depth + 1)
        if not inner.known:
            return UNKNOWN
        assert isinstance(node.func, cst.Attribute) and self.symbols is not None
        name, method = read.partition("[")[0], node.func.attr.value
        owner = scope.qualname.removesuffix(".__init__")
        via = f'the default of {name}.{method}("{read[len(name) + 1 : -1]}") in {owner}()'
        facts = self.symbols.own_function(scope.qualname) or {}
        unpassed = facts.get("unpassed", ())
        given_too = read not in unpassed and name not in unpassed
        return Value(True, inner.value, inner.node, via, default=True, given_too=given_too)

    def _relied_star_read(self, node: cst.Call, scope: Scope) -> str | None:
        """Return `kwargs[key]` for `kwargs.get("key", DEFAULT)` (or `.pop`) on the function's
        own `**kwargs` when an in-project call of it relies on the default (`relied`)."""
        func = node.func
        if (
            self.symbols is None
            or not isinstance(func, cst.Attribute)
            or func.attr.value not in ("get", "pop")
            or not isinstance(func.value, cst.Name)
            or len(node.args) != 2
            or any(arg.star or arg.keyword is not None for arg in node.args)
        ):
            return None
        key = literal(node.args[0].value)
        if not key.known or not isinstance(key.value, str):
            return None
        name = func.value.value
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        params = [b for b in bindings if b.kind == "param"]
        if len(params) != 1 or params[0].scope is not scope:
            return None
        facts = self.symbols.own_function(scope.qualname)
        if facts is None:
            return None
        read = f"{name}[{key.value}]"
        if [name, "varkw"] in [list(param) for param in facts.get("params", ())]:
            return read if len(bindings) == 1 and read in facts.get("relied", ()) else None
        # A dict parameter an in-project call leaves out, made an empty dict then
        # (`config=None`, then `config = config or {}`): the `.get` default is what is read.
        if name not in facts.get("relied", ()) or not self._emptied_dict(name, bindings, scope):
            return None
        return read

    def _emptied_dict(self, name: str, bindings: list[Binding], scope: Scope) -> bool:
        """Return whether a parameter holds an empty dict when a call leaves it out: its default
        is `None` or `{}`, every other binding gives it `{}` or `name or {}`, and the function
        neither sets an item of it nor calls a method that changes it."""
        assert self.symbols is not None
        for binding in bindings:
            if binding.kind == "param":
                default = binding.default
                if default is None or not (_empty_dict(default) or _is_none(default)):
                    return False
                continue
            value = binding.value
            if binding.kind != "assign" or value is None or len(binding.path) > 1:
                return False
            if _empty_dict(value):
                continue
            parts = fallback_parts(value)
            if not (
                parts is not None
                and len(parts) == 2
                and isinstance(parts[0], cst.Name)
                and parts[0].value == name
                and _empty_dict(parts[1])
            ):
                return False
        if scope.subscript_sets.get(name) or name in scope.deep_sets:
            return False
        return not any(
            record.scope.function() is scope
            and isinstance(record.node.func, cst.Attribute)
            and isinstance(record.node.func.value, cst.Name)
            and record.node.func.value.value == name
            and record.node.func.attr.value in MUTATING_METHODS
            for record in self.symbols.index.calls
        )

    def _sequence(self, node: cst.List | cst.Tuple, scope: Scope, depth: int) -> Value:
        """Return a list or tuple display whose every element is known."""
        items = []
        for element in node.elements:
            if isinstance(element, cst.StarredElement):
                return UNKNOWN
            item = self.value(element.value, scope, depth + 1)
            if not item.known:
                return UNKNOWN
            items.append(item.value)
        return Value(True, items if isinstance(node, cst.List) else tuple(items), node)

    def _converted(self, node: cst.Call, scope: Scope, depth: int) -> Value:
        """Return `float(TEMPERATURE)`, `int(MAX_TOKENS)`, `str(MODEL)` of a known value."""
        func = node.func
        if (
            not isinstance(func, cst.Name)
            or func.value not in _CONVERSIONS
            or len(node.args) != 1
            or node.args[0].star
            or node.args[0].keyword is not None
            or scope.lookup(func.value)
        ):
            return UNKNOWN
        inner = self.value(node.args[0].value, scope, depth + 1)
        if not inner.known or isinstance(inner.value, (bool, list, tuple)) or inner.value is None:
            return UNKNOWN
        try:
            converted = _CONVERSIONS[func.value](inner.value)
        except (TypeError, ValueError, OverflowError):
            return UNKNOWN
        # Written as the same type, the fix may edit it where it is; else there is no place.
        same = type(converted) is type(inner.value)
        return Value(
            True, converted, inner.node if same else None, inner.via, default=inner.default
        )

    def class_attribute(
        self, node: cst.BaseExpression, scope: Scope, depth: int = 0
    ) -> list[Value] | None:
        """Return what `self.<attr>` reads from class bodies, one value per class it may be.

        In a method of a class of this module, `self` is an instance of that class or of any
        subclass of it here; each finds the attribute in the first class body of its own
        bases (this module's classes) that assigns it once. None when any of them cannot say:
        a method or field sets it on the instance, a base from elsewhere may hold it, or it is
        assigned otherwise than once.
        """
        read = _self_read(node, scope)
        if self.symbols is None or depth > MAX_DEPTH or read is None:
            return None
        info, attr = read
        module = self.symbols.index.module_scope
        if module is None or any(a == attr for _, a in module.attribute_sets):
            return None  # `bot.model = ...` on an instance somewhere in the module
        found: list[Value] = []
        for receiver in self._receivers(info):
            value = self._class_level(receiver, attr, depth)
            if value is None:
                return None
            if all(v.node is not value.node for v in found):
                found.append(value)
        return found

    def _receivers(self, info: ClassInfo) -> list[ClassInfo]:
        """Return a class and this module's subclasses of it (bounded)."""
        known = self._receivers_of.get(id(info))
        if known is not None:
            return known
        children = self._children()
        classes = [info]
        for candidate in classes:
            for other in children.get(id(candidate), ()):
                if other not in classes:
                    classes.append(other)
            if len(classes) > MAX_MEMBERS:
                break
        self._receivers_of[id(info)] = classes[:MAX_MEMBERS]
        return self._receivers_of[id(info)]

    def _children(self) -> dict[int, list[ClassInfo]]:
        """Return each class's direct subclasses in this module (built once)."""
        if self._children_of is None:
            assert self.symbols is not None
            self._children_of = {}
            for other in self.symbols.index.classes:
                for base in self._bases(other):
                    if base is not None:
                        self._children_of.setdefault(id(base), []).append(other)
        return self._children_of

    def _bases(self, info: ClassInfo) -> list[ClassInfo | None]:
        """Return a class's bases: this module's classes, None for any other (`object` aside)."""
        assert self.symbols is not None
        known = self._bases_of.get(id(info))
        if known is not None:
            return known
        found: list[ClassInfo | None] = []
        self._bases_of[id(info)] = found
        parent = info.scope.parent or info.scope
        for base in info.node.bases:
            if base.keyword is not None:
                continue
            if isinstance(base.value, cst.Name) and base.value.value == "object":
                continue
            found.append(self.symbols.local_class(base.value, parent))
        return found

    def _class_level(self, info: ClassInfo, attr: str, depth: int) -> Value | None:
        """Return the class-body value of `attr` an instance of `info` reads (None: unknown)."""
        seen: list[ClassInfo] = []
        order: list[ClassInfo | None] = [info]
        while order:
            current = order.pop(0)
            if current is None:
                return None  # a base from elsewhere may hold it
            if current in seen:
                continue
            seen.append(current)
            if self._instance_set(current, attr):
                return None  # set on the instance (a method, or an annotated field)
            bindings = [b for b in current.scope.bindings.get(attr, []) if b.kind != "annotation"]
            if bindings:
                binding = bindings[0]
                if len(bindings) != 1 or binding.kind != "assign" or binding.value is None:
                    return None
                if binding.nested:
                    return None
                inner = self.value(binding.value, binding.scope, depth + 1)
                if not inner.known or inner.default:
                    return None
                via = inner.via or f"{current.scope.qualname}.{attr}"
                return Value(True, inner.value, inner.node, via)
            order.extend(self._bases(current))
        return None

    def _instance_set(self, info: ClassInfo, attr: str) -> bool:
        """Return whether an instance of `info` may hold its own `attr`: a method sets it, or
        the class body annotates it in a class whose constructor may take it as a field
        (a dataclass, a pydantic model, a `NamedTuple`: any decorator or base from elsewhere).

        An annotated assignment in the body of a plain class (`MAX_TOKENS: int = 4096`, no
        decorator, no base but this module's plain classes) is a class attribute, as an
        unannotated one is (https://docs.python.org/3/reference/simple_stmts.html#annotated-assignment-statements).
        """
        bindings = info.attributes.get(attr, [])
        if not bindings:
            return False
        if any(b.kind != "annotation" or b.scope is not info.scope for b in bindings):
            return True
        return not self._plain(info, [])

    def _plain(self, info: ClassInfo, seen: list[ClassInfo]) -> bool:
        """Return whether a class makes no fields of its annotations: no decorator, no keyword
        in its bases (`metaclass=`), and no base but this module's plain classes."""
        if info in seen or len(seen) > MAX_DEPTH:
            return False
        seen.append(info)
        if info.node.decorators or any(base.keyword is not None for base in info.node.bases):
            return False
        return all(base is not None and self._plain(base, seen) for base in self._bases(info))

    def class_dict(
        self, node: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """Return the dict a `self.<attr>` reads from a class body (`default_params = {...}`),
        when every class the instance may be reads the same one and nothing changes it."""
        read = _self_read(node, scope)
        if self.symbols is None or read is None:
            return None
        info, attr = read
        module = self.symbols.index.module_scope
        if module is None or any(a == attr for _, a in module.attribute_sets):
            return None
        found: Binding | None = None
        for receiver in self._receivers(info):
            binding = self._class_binding(receiver, attr)
            if binding is None or (found is not None and binding is not found):
                return None
            found = binding
        if found is None or found.value is None:
            return None
        return found.value, found.scope

    def class_body_dict(
        self, node: cst.BaseExpression, scope: Scope
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """Return what `Config.PARAMS` reads from the body of a class of this module (or of a
        base of it here), when nothing in the module sets it again (`Config.PARAMS = ...`, a
        method's `self.PARAMS = ...`) or changes its items (`Config.PARAMS["k"] = v`,
        `self.PARAMS.update(...)`, `cls.PARAMS.pop(...)`)."""
        if self.symbols is None or not isinstance(node, cst.Attribute):
            return None
        info = self.symbols.local_class(node.value, scope)
        module = self.symbols.index.module_scope
        dotted = _dotted(node)
        if info is None or module is None or dotted is None:
            return None
        attr = node.attr.value
        if any(a == attr for _, a in module.attribute_sets):
            return None
        names = (dotted, f"self.{attr}", f"cls.{attr}")
        if any(_changes_items(module.node, name) for name in names):
            return None
        binding = self._class_binding(info, attr)
        if binding is None or binding.value is None:
            return None
        return binding.value, binding.scope

    def _class_binding(self, info: ClassInfo, attr: str) -> Binding | None:
        """Return the one class-body assignment of `attr` an instance of `info` reads."""
        seen: list[ClassInfo] = []
        order: list[ClassInfo | None] = [info]
        while order:
            current = order.pop(0)
            if current is None:
                return None
            if current in seen:
                continue
            seen.append(current)
            if self._instance_set(current, attr) or current.items.get(attr):
                return None
            bindings = [b for b in current.scope.bindings.get(attr, []) if b.kind != "annotation"]
            if bindings:
                one = bindings[0]
                ok = len(bindings) == 1 and one.kind == "assign" and not one.nested
                return one if ok else None
            order.extend(self._bases(current))
        return None

    def table_item(self, node: cst.Subscript, scope: Scope, depth: int = 0) -> Value:
        """Return the entry of a table a constant holds, read by a key written in the module.

        `MODELS["opus"]`, `MODELS[Llm.OPUS]`: the name is bound once to a dict literal that no
        code of the module changes (no `MODELS[k] = v`, no `MODELS.update(...)`); the key is a
        literal or a dotted name written the same way in the table. The entry's value is the
        value, found where the table writes it.
        """
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return UNKNOWN
        if isinstance(node.value, cst.Subscript):
            return self._imported_item(node.value, node.slice[0].slice.value, scope)
        table_name = _dotted(node.value)
        if table_name is None or self._changed(table_name, scope):
            return UNKNOWN
        found = self.dict_node(node.value, scope, depth + 1)
        wanted = _table_key(node.slice[0].slice.value)
        if wanted is None:
            return UNKNOWN
        if found is None:
            return self._imported_item(node.value, node.slice[0].slice.value, scope)
        table, table_scope, _ = found
        if not isinstance(table, cst.Dict):
            return UNKNOWN
        entry: cst.BaseExpression | None = None
        for element in table.elements:
            if not isinstance(element, cst.DictElement):
                return UNKNOWN  # `**other`: it may hold the key too
            if _table_key(element.key) == wanted:
                entry = element.value  # the last one written wins
        if entry is None:
            return UNKNOWN
        inner = self.value(entry, table_scope, depth + 1)
        if not inner.known:
            return UNKNOWN
        via = inner.via or f"{table_name}[{wanted[1]}]"
        return Value(True, inner.value, inner.node, via)

    def _imported_item(
        self, node: cst.BaseExpression, index: cst.BaseExpression, scope: Scope
    ) -> Value:
        """Return an entry of a dict of request options another module writes, imported by name
        (`from app.config import CLAUDE`, then `CLAUDE["temperature"]`), as `**CLAUDE` reads it:
        a literal the project phase proved (`Project._request_options`). Its node is in the
        other file: the finding is at the read, without a fix."""
        key = literal(index).value
        if not isinstance(key, str):
            return UNKNOWN
        found = self._imported_table(node, scope)
        if found is None or key not in found[0][1]:
            return UNKNOWN
        return Value(True, found[0][1][key], None, f"{found[1]}[{key!r}]")

    def _imported_table(
        self, node: cst.BaseExpression, scope: Scope, depth: int = 0
    ) -> tuple[list[Any], str] | None:
        """Return (the phase's `["dict", known, unknown, ...]`, its dotted name) for a dict of
        request options another module writes: imported by name (`CLAUDE`), a table of one
        read by a literal key (`CONFIG["claude"]`, a dict literal the phase read in it and no
        file of the run changes), or a name of this module bound once to either (`cfg =
        CONFIG["claude"]`, which the module does not change)."""
        project = self.symbols.project if self.symbols is not None else None
        if project is None or depth > 2:
            return None
        if isinstance(node, cst.Subscript):
            index = node.slice[0].slice if len(node.slice) == 1 else None
            key = literal(index.value).value if isinstance(index, cst.Index) else None
            outer = _dotted(node.value)
            if not isinstance(key, str) or outer is None or self._changed(outer, scope):
                return None
            found = self._imported_table(node.value, scope, depth + 1)
            tables = found[0][3] if found is not None and len(found[0]) > 3 else {}
            table = tables.get(key)
            return None if found is None or table is None else (table, f"{found[1]}[{key!r}]")
        if not isinstance(node, cst.Name):
            return None
        bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
        if len(bindings) != 1:
            return None
        one = bindings[0]
        if one.kind == "assign" and isinstance(one.value, cst.Subscript) and not one.nested:
            return self._imported_table(one.value, one.scope, depth + 1)
        if one.kind != "import":
            return None
        plain = project.lookup(one.qualname)
        if plain is None or plain[0] != "dict" or not isinstance(plain[1], dict):
            return None
        return plain, project.absolute(one.qualname)

    def table_changed(self, name: str, scope: Scope) -> bool:
        """Return whether any code of the module changes the table (a dict, or a list of
        them) `name` in place: an item set, or a method of either kind that changes it."""
        if self._changed(name, scope) or self.symbols is None:
            return True
        return any(
            isinstance(func := record.node.func, cst.Attribute)
            and func.attr.value in LIST_MUTATORS
            and _dotted(_subscript_root(func.value)) == name
            for record in self.symbols.index.calls
        )

    def _changed(self, name: str, scope: Scope) -> bool:
        """Return whether any code of the module sets an item of the table `name` (`MODELS`,
        or `self.config` in the methods of the class `scope` is a method of) or calls a
        mutating method on it: it then holds more than its literal. (`self.config[k] = v`
        makes `dict_node` refuse the attribute already.)"""
        if self.symbols is None:
            return True
        owner = scope.function().method_of if "." in name else None
        key = (name, id(owner))
        if key not in self._changed_tables:
            self._changed_tables[key] = self._changes(name, owner)
        return self._changed_tables[key]

    def _changes(self, name: str, owner: ClassInfo | None) -> bool:
        assert self.symbols is not None
        index = self.symbols.index
        if owner is None and any(
            name in s.subscript_sets or name in s.deep_sets for s in index.scopes
        ):
            return True
        for record in index.calls:
            func = record.node.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value in MUTATING_METHODS
                and _dotted(_subscript_root(func.value)) == name
                and (owner is None or record.scope.function().method_of is owner)
            ):
                return True
        return False

    def joined(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> Value:
        """Return a string built from known parts (`f"anthropic.{MODEL}-v1:0"`, `"bedrock/" + m`).

        Every part must be proven (a string, or a number in an f-string). The text is written
        in several places: the finding is at the expression, without a fix.
        """
        pieces = self._joined_parts(node, scope, depth)
        if pieces is None:
            return UNKNOWN
        parts = [str(piece.value) if isinstance(piece, Value) else piece for piece in pieces]
        # A part that is a parameter's default some call relies on (`f"anthropic.{model}"`
        # with `model="claude-..."`): reported at the default, when it is the only one.
        defaults = [
            (at, piece)
            for at, piece in enumerate(pieces)
            if isinstance(piece, Value) and piece.default
        ]
        if defaults:
            return _spelled_default(parts, defaults)
        names = [piece.via for piece in pieces if isinstance(piece, Value) and piece.via]
        via = f"a string built from {', '.join(names)}" if names else "a string built from parts"
        return Value(True, "".join(parts), None, via)

    def _joined_parts(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> list[str | Value] | None:
        """Return the parts of an f-string or `a + b`: text as written, and known values (a
        string, or a number in an f-string); None when a part is not proven."""
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            sides = [self.value(side, scope, depth + 1) for side in (node.left, node.right)]
            if not all(side.known and isinstance(side.value, str) for side in sides):
                return None
            return list(sides)
        formatted = _template_call(node)
        if formatted is not None:
            return self._template_parts(*formatted, scope, depth)
        if not isinstance(node, cst.FormattedString) or "b" in node.prefix.lower():
            return None
        pieces: list[str | Value] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                if any(mark in part.value for mark in ("{{", "}}", "\\")):
                    return None  # escapes: the text is not the value as written
                pieces.append(part.value)
                continue
            if not isinstance(part, cst.FormattedStringExpression):
                return None
            if part.conversion is not None or part.format_spec is not None:
                return None
            inner = self.value(part.expression, scope, depth + 1)
            if not inner.known or isinstance(inner.value, bool):
                return None
            if not isinstance(inner.value, (str, int, float)):
                return None
            pieces.append(inner)
        return pieces

    def _template_parts(
        self,
        pieces: list[Piece],
        arguments: list[cst.BaseExpression],
        scope: Scope,
        depth: int,
    ) -> list[str | Value] | None:
        """Return the parts of a string formatted from a literal template (`_template_call`):
        its text, and the arguments its fields format (each a proven string or number)."""
        parts: list[str | Value] = []
        for piece in pieces:
            if isinstance(piece, str):
                parts.append(piece)
                continue
            if piece >= len(arguments):
                return None
            inner = self.value(arguments[piece], scope, depth + 1)
            if not inner.known or isinstance(inner.value, bool):
                return None
            if not isinstance(inner.value, (str, int, float)):
                return None
            parts.append(inner)
        return parts

    def class_constant(
        self, base: cst.BaseExpression, attr: str, scope: Scope, depth: int = 0
    ) -> Value:
        """Return `Config.MODEL`: a class-level constant of a class of this module or the project.

        A class of this module: the attribute is assigned once, in the class body (a method
        setting `self.MODEL` makes it unknown). Another module's: what the project phase proved.
        """
        if self.symbols is None or depth > MAX_DEPTH:
            return UNKNOWN
        if attr == "value" and isinstance(base, cst.Name):
            return self._member_default(base.value, scope, depth)
        if attr == "value" and isinstance(base, cst.Attribute):
            # `Model.OPUS.value`: the value of a member of an enum of this module.
            owner = self.symbols.local_class(base.value, scope)
            if owner is not None and self._is_enum(owner):
                return self.class_constant(base.value, base.attr.value, scope, depth + 1)
        info = self.symbols.local_class(base, scope)
        if info is not None:
            bindings = [b for b in info.scope.bindings.get(attr, []) if b.kind != "annotation"]
            # A method setting `self.MODEL` too: which one a read sees depends on the run.
            changed = any(b.scope is not info.scope for b in info.attributes.get(attr, []))
            if len(bindings) != 1 or changed:
                return UNKNOWN
            binding = bindings[0]
            if binding.kind != "assign" or binding.value is None or binding.nested:
                return UNKNOWN
            inner = self.value(binding.value, binding.scope, depth + 1)
            if not inner.known or inner.default:
                return UNKNOWN
            via = inner.via or f"{info.scope.qualname}.{attr}"
            return Value(True, inner.value, inner.node, via)
        found = self.symbols.project_constant(base, attr, scope)
        if found is None:
            return self.module_constant(base, attr, scope)
        return Value(True, found[0], None, found[1], elsewhere=found[2])

    def _member_default(self, name: str, scope: Scope, depth: int) -> Value:
        """Return `model.value` for a parameter whose default is an enum's member
        (`model: Model = Model.OPUS`) that an in-project call relies on: the member's value,
        found at the default as the parameter itself is (`relied_default`).

        The default must be written as a member of a class (`Model.OPUS`) whose value is a
        literal: an enum of this module, or a project class whose constant the phase proved
        (a plain string has no `.value`, so only an enum's member can be read this way)."""
        assert self.symbols is not None
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param":
            return UNKNOWN
        default = bindings[0].default
        if not isinstance(default, cst.Attribute):
            return UNKNOWN
        outer = bindings[0].scope.parent or bindings[0].scope
        owner = self.symbols.local_class(default.value, outer)
        if owner is not None and not self._is_enum(owner):
            return UNKNOWN
        found = self.relied_default(name, scope, depth + 1)
        return found if isinstance(found.value, str) else UNKNOWN

    def _is_enum(self, info: ClassInfo) -> bool:
        assert self.symbols is not None
        outer = info.scope.parent or info.scope
        return any(
            self.symbols.qualname(base.value, outer) in ENUM_CLASSES for base in info.node.bases
        )

    def module_constant(self, base: cst.BaseExpression, attr: str, scope: Scope) -> Value:
        """Return `settings.MODEL`: a constant of a project module read through the module
        (`import app.settings as settings`, `from app import settings`), as the project phase
        proved it. Reported at the constant when that module is checked too (`imported`)."""
        project = self.symbols.project if self.symbols is not None else None
        module = self.symbols.qualname(base, scope) if self.symbols is not None else None
        if project is None or module is None:
            return UNKNOWN
        module = project.absolute(module)
        found = project.lookup(f"{module}.{attr}")
        if found is None or found[0] != "const":
            return UNKNOWN
        reported = attr in project.modules.get(module, {}).get("read_by", {})
        return Value(True, found[1], None, f"{module}.{attr}", elsewhere=reported)

    def imported(self, name: str, scope: Scope) -> Value:
        """Return the constant an imported name stands for, when the project phase proved it.

        Its node is in another file: the finding is at the call, without a fix.
        """
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "import" or self.symbols is None:
            return UNKNOWN
        project = self.symbols.project
        if project is None:
            return UNKNOWN
        found = project.lookup(bindings[0].qualname)
        if found is None or found[0] != "const":
            return UNKNOWN
        qualname = project.absolute(bindings[0].qualname)
        module, _, constant = qualname.rpartition(".")
        reported = constant in project.modules.get(module, {}).get("read_by", {})
        return Value(True, found[1], None, qualname, elsewhere=reported)

    def loop_values(self, node: cst.BaseExpression, scope: Scope) -> list[Value] | None:
        """Return the values a `for` loop's name takes, when it iterates over a literal list/tuple.

        Each value's node is its element, where a finding (and its fix) belongs.
        """
        if not isinstance(node, cst.Name):
            return None
        bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "loop" or bindings[0].value is None:
            return None
        iterable: cst.BaseExpression | None = bindings[0].value
        target = bindings[0].node
        if isinstance(target, cst.Tuple) and iterable is not None:
            # `for key, model in MODELS.items()`: the keys or the values of a dict literal.
            names = [e.value for e in target.elements]
            spelled = [isinstance(n, cst.Name) and n.value == node.value for n in names]
            position = spelled.index(True) if spelled.count(True) == 1 else None
            iterable = self._dict_items(iterable, bindings[0].scope, position)
        elif isinstance(iterable, cst.Name):
            binding = self.single_binding(iterable.value, bindings[0].scope)
            iterable = (
                binding.value if binding is not None and binding.value is not None else iterable
            )
        if not isinstance(iterable, (cst.List, cst.Tuple)) or not iterable.elements:
            return None
        values = []
        for element in iterable.elements:
            if isinstance(element, cst.StarredElement):
                return None
            found = literal(element.value)
            if not found.known:
                return None
            values.append(found)
        return values

    def _dict_items(
        self, iterable: cst.BaseExpression, scope: Scope, position: int | None
    ) -> cst.Tuple | None:
        """Return, as a tuple, the keys (`position` 0) or the values (1) of the dict literal a
        loop iterates over with `.items()` (bound once, never changed, every key a literal)."""
        if (
            position is None
            or not isinstance(iterable, cst.Call)
            or iterable.args
            or not isinstance(iterable.func, cst.Attribute)
            or iterable.func.attr.value != "items"
        ):
            return None
        table = iterable.func.value
        dotted = _dotted(table)
        if dotted is None or self._changed(dotted, scope):
            return None
        found = self.dict_node(table, scope)
        if found is None or not isinstance(found[0], cst.Dict):
            return None
        elements: list[cst.Element] = []
        for element in found[0].elements:
            if not isinstance(element, cst.DictElement) or string_value(element.key) is None:
                return None
            elements.append(cst.Element(element.key if position == 0 else element.value))
        return cst.Tuple(elements)

    def value_set(self, node: cst.BaseExpression, record: CallRecord) -> list[Value] | None:
        """Return the proven values a name read by a call may hold, one per assignment.

        `if x: t = 0.7 / elif y: t = 0.0 / else: t = cfg.t` then `create(temperature=t)`: the
        assignments of the call's own function that can run before it and are not written over
        on every path to it. Each proven value's node is where it is written (a finding and its
        fix go there); members that cannot be proven (a parameter, `cfg.t`) are left out, so
        the list says what may be sent, not all that may be. None when the name is not such a
        set (one unconditional assignment, a loop's name, or no proven member).
        """
        members = self.class_attribute(node, record.scope)
        if members is not None and len(members) > 1:
            return members  # `self.model`: one value per class the instance may be
        if not isinstance(node, cst.Name):
            return None
        function = record.scope.function()
        bindings = [b for b in record.scope.lookup(node.value) if b.kind != "annotation"]
        if not bindings or len(bindings) > MAX_MEMBERS:
            return None  # a name assigned in hundreds of places is not followed (quadratic)
        if any(b.scope is not function for b in bindings):
            return None
        reaching = [
            b for b in bindings if b.order < record.order and may_reach(b.path, record.path)
        ]
        reaching = [
            b
            for b in reaching
            if not any(
                b.order < k.order < record.order and always_before(k.path, record.path)
                for k in bindings
            )
        ]
        if len(reaching) == 1 and not reaching[0].nested:
            only = reaching[0]
            if only.kind == "assign" and only.value is not None and fallback_parts(only.value):
                # `t = t or 0.9`: the fallback is one value the call may send.
                return self.fallback(only.value, only.scope)
            return None  # one assignment on every path: what `value` answers
        if not reaching:
            return None
        values = []
        for binding in reaching:
            if binding.kind != "assign" or binding.value is None:
                continue
            found = self.value(binding.value, binding.scope)
            if found.known and not found.default:
                # Written in this branch (a constant's name too): found and fixed there.
                values.append(Value(True, found.value, binding.value))
        return values or None

    def choices(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> list[Value] | None:
        """Return the proven values an expression picks one of, each where it is written.

        `MODELS[phase]` or `MODELS.get(phase, DEFAULT)` with a key not known here: one of the
        dict literal's values (or the default); `self.pick(phase)` or `pick(phase)`, a helper of
        this module with several `return`s: what each may return; `a if c else b`: either. As
        for `value_set`, members that cannot be proven are left out: the list says what may be
        sent, not all that may be. None when the expression is no such choice.
        """
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Name):
            binding = self.single_binding(node.value, scope)
            if binding is None or binding.value is None:
                return None
            return self.choices(binding.value, binding.scope, depth + 1)
        if isinstance(node, cst.IfExp):
            return self._members([node.body, node.orelse], scope, depth)
        if isinstance(node, cst.BooleanOperation):
            return self.fallback(node, scope, depth)
        if isinstance(node, cst.Subscript):
            return self._dict_choices(node.value, _index(node), None, scope, depth)
        held = self.self_attribute(node, scope)
        if held is not None:
            return self._held_choices(held[0], held[1], depth + 1)
        if _self_read(node, scope) is not None:
            return self._attribute_choices(node, scope, depth)
        if isinstance(node, (cst.FormattedString, cst.BinaryOperation)):
            return self._built_choices(node, scope, depth)
        if not isinstance(node, cst.Call):
            return None
        func = node.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value == "get"
            and 1 <= len(node.args) <= 2
            and not any(arg.star or arg.keyword for arg in node.args)
        ):
            default = node.args[1].value if len(node.args) == 2 else None
            if default is not None and self._relied_star_read(node, scope) is not None:
                # `kwargs.get("model", self.model_name)` where a call passes no `model=`.
                return self.choices(default, scope, depth + 1)
            return self._dict_choices(func.value, node.args[0].value, default, scope, depth)
        helper = self.helper_scope(node, scope)
        if helper is None or not helper.returns or len(helper.returns) > MAX_MEMBERS:
            return None
        return self._members(helper.returns, helper, depth)

    def _built_choices(
        self, node: cst.FormattedString | cst.BinaryOperation, scope: Scope, depth: int
    ) -> list[Value] | None:
        """Return the strings an f-string or `a + b` may build when a part is one of several
        proven values (`f"claude-{version}"`, `version` one of two literals): each whole string.

        No literal holds one of them, and the expression serves every value: they are found at
        the call, where no fix writes (`Value.node` None).
        """
        parts = self._built_parts(node)
        if parts is None:
            return None
        only_strings = isinstance(node, cst.BinaryOperation)  # `+` of numbers adds them
        built = [""]
        for part in parts:
            if isinstance(part, str):
                built = [text + part for text in built]
                continue
            one = self.value(part, scope, depth + 1)
            options = [one] if one.known else self.choices(part, scope, depth + 1)
            if not options or any(option.default for option in options):
                return None  # a relied-on default is found where it is written
            texts = [_part_text(option.value, only_strings) for option in options]
            if any(text is None for text in texts):
                return None
            built = [text + str(more) for text in built for more in texts]
            if len(built) > MAX_MEMBERS:
                return None
        names = [_dotted(part) for part in parts if not isinstance(part, str)]
        via = "a string built from " + (", ".join(n for n in names if n) or "parts")
        return [Value(True, text, None, via, choice=True) for text in dict.fromkeys(built)]

    @staticmethod
    def _built_parts(
        node: cst.FormattedString | cst.BinaryOperation,
    ) -> list[str | cst.BaseExpression] | None:
        """Return an f-string's or `a + b`'s text as written and the expressions it joins."""
        if isinstance(node, cst.BinaryOperation):
            if not isinstance(node.operator, cst.Add):
                return None
            return [node.left, node.right]
        if "b" in node.prefix.lower():
            return None
        parts: list[str | cst.BaseExpression] = []
        for part in node.parts:
            if isinstance(part, cst.FormattedStringText):
                if any(mark in part.value for mark in ("{{", "}}", "\\")):
                    return None  # escapes: the text is not the value as written
                parts.append(part.value)
            elif (
                isinstance(part, cst.FormattedStringExpression)
                and part.conversion is None
                and part.format_spec is None
            ):
                parts.append(part.expression)
            else:
                return None
        return parts

    def _held_choices(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> list[Value] | None:
        """Return the values an assignment to `self.<attr>` may give it."""
        if fallback_parts(node) is not None:
            # `self.model = model or DEFAULT`: the fallback is sent only where an in-project
            # call relies on the empty default it tests.
            return self.fallback(node, scope, depth)
        # `self.model = MODELS.get(variant, DEFAULT)`: one of the table's entries.
        return self.choices(node, scope, depth)

    def _attribute_choices(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> list[Value] | None:
        """Return what each assignment of `self.<attr>` in its class's methods may set, when
        there are several (`__init__` sets a default, `switch_model` another entry of a table).

        Each is what the attribute holds from then on, so each may be what a call reads; as for
        `value_set`, assignments that cannot be proven are left out.
        """
        read = _self_read(node, scope)
        if read is None:
            return None
        info, attr = read
        bindings = info.attributes.get(attr, [])
        if not 2 <= len(bindings) <= MAX_MEMBERS or info.items.get(attr):
            return None
        found: list[Value] = []
        for binding in bindings:
            if binding.kind != "assign" or binding.value is None:
                continue
            value = self.value(binding.value, binding.scope, depth + 1)
            if value.known and not value.default:
                found.append(Value(True, value.value, binding.value))
            else:
                found.extend(self._held_choices(binding.value, binding.scope, depth + 1) or ())
        return found or None

    def fallback(
        self, node: cst.BaseExpression, scope: Scope, depth: int = 0
    ) -> list[Value] | None:
        """Return the fallback an expression sends when what it tests is proven empty.

        `temperature or 0.9`, `model or DEFAULT_MODEL`, `0.9 if t is None else t` and
        `t if t is not None else 0.9`: the fallback is sent when the tested value is empty, and
        that is proven only for a parameter whose empty default (`None`) an in-project call
        relies on (`relied_default`). Whatever else the tested value is (a caller's argument,
        the environment) it may be anything: None then, as for an unknown value.
        """
        parts = fallback_parts(node)
        if parts is None or depth > MAX_DEPTH:
            return None
        *tested, last = parts
        for operand in tested:
            if _empty_default_retested(operand, scope) and self.relied(operand.value, scope):
                continue
            first = self.value(operand, scope, depth + 1)
            if not first.known or first.value:
                return None
        return self._members([last], scope, depth)

    def _members(
        self, nodes: list[cst.BaseExpression], scope: Scope, depth: int
    ) -> list[Value] | None:
        """Return the proven values of several alternatives (each a value or a choice)."""
        found: list[Value] = []
        for node in nodes:
            value = self.value(node, scope, depth + 1)
            if value.known:
                if not value.default:
                    # Written at the literal (a constant's name reads its assignment's).
                    found.append(
                        Value(True, value.value, value.node or node, value.via, choice=True)
                    )
                continue
            found.extend(self.choices(node, scope, depth + 1) or ())
        return found or None

    def _dict_choices(
        self,
        base: cst.BaseExpression,
        key: cst.BaseExpression | None,
        default: cst.BaseExpression | None,
        scope: Scope,
        depth: int,
    ) -> list[Value] | None:
        """Return the values `base[key]` (or `base.get(key, default)`) may read, when `base` is
        a dict literal of string keys and the key is not a literal it holds."""
        if key is None or self.value(key, scope, depth + 1).known:
            return None  # a known key reads one entry: `value` answers for it
        if self._tabled_key(key, scope):
            return None  # the entry each caller's key picks is read at that call
        table_name = _dotted(base)
        if table_name is None or self._changed(table_name, scope):
            return None  # items set or changed elsewhere: not only its literal's values
        found = self.dict_node(base, scope, depth + 1)
        if found is None or not isinstance(found[0], cst.Dict):
            return None
        table, table_scope = found[0], found[1]
        values: list[cst.BaseExpression] = []
        for element in table.elements:
            if not isinstance(element, cst.DictElement) or string_value(element.key) is None:
                return None  # `**other` or a computed key: entries not all seen
            values.append(element.value)
        members = self._members(values, table_scope, depth) or []
        if default is not None:
            members.extend(self._members([default], scope, depth) or ())
        return members or None

    def _tabled_key(self, key: cst.BaseExpression, scope: Scope) -> bool:
        """Return whether a table's key is a parameter the project phase read as picking a
        Claude call's model out of that table (`MODELS[provider]`): each caller's key is read
        at its call (`calls._tabled`), not every entry here."""
        if not isinstance(key, cst.Name) or self.symbols is None:
            return False
        bindings = [b for b in scope.lookup(key.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param":
            return False
        facts = self.symbols.own_function(bindings[0].scope.qualname)
        return facts is not None and bool(facts.get("tabled", {}).get(key.value))

    def claude_by_callers(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """Return whether an expression is a parameter (or a string spelled around one:
        `f"anthropic.{model}-v1:0"`, `"bedrock/" + model`) that every call of the project gives
        a Claude model (the project phase decides, spelling included; with no call seen, or no
        project, it is not)."""
        name = _spelled_name(node) or _key_name(node)
        if name is None or self.symbols is None:
            return False
        bindings = [b for b in scope.lookup(name.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param":
            return False
        facts = self.symbols.own_function(bindings[0].scope.qualname)
        if facts is None or name.value not in facts.get("claude_models", ()):
            return False
        # A key of a table of model ids (`MODELS[provider]`) where the phase read it so, and
        # only there: what such callers give is a key, not a model.
        tabled = bool(facts.get("tabled", {}).get(name.value))
        return tabled if isinstance(node, cst.Subscript) else not tabled

    def _never_given(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """Return whether an expression is a parameter whose default is `None` and that every
        call of the project leaves at it (the project phase decides; with no call seen, or no
        project, it is not)."""
        if not isinstance(node, cst.Name) or self.symbols is None:
            return False
        bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param":
            return False
        default = bindings[0].default
        if not isinstance(default, cst.Name) or default.value != "None":
            return False
        facts = self.symbols.own_function(bindings[0].scope.qualname)
        return facts is not None and node.value in facts.get("unpassed", ())

    def declared_default(self, node: cst.BaseExpression, scope: Scope) -> Value:
        """Return the default a parameter is declared with, read directly (`model`) or through
        the one attribute a method sets from it (`self.model = model` in `__init__`), when no
        call of the project gives the parameter a value (the project phase decides: with no
        project, none is seen); unknown for anything else."""
        held = self.held_object(node, scope)
        if held is not None:
            node, scope = held
        if not isinstance(node, cst.Name):
            return UNKNOWN
        bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param":
            return UNKNOWN
        binding = bindings[0]
        facts = self.symbols.own_function(binding.scope.qualname) if self.symbols else None
        if binding.default is None or (facts and node.value in facts.get("passed", ())):
            return UNKNOWN
        # A default is evaluated where the function is defined: in the enclosing scope.
        return self.value(binding.default, binding.scope.parent or binding.scope)

    def relied_default(self, name: str, scope: Scope, depth: int = 0) -> Value:
        """Return a parameter's default when an in-project call relies on it and it reaches Claude.

        The project phase decides both (a call that passes `*args`/`**kwargs` relies on nothing
        it can prove); with no project, or a default nobody is seen relying on, it is unknown.
        """
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "param" or bindings[0].default is None:
            return UNKNOWN
        binding = bindings[0]
        if self.symbols is None:
            return UNKNOWN
        facts = self.symbols.own_function(binding.scope.qualname)
        if facts is None or name not in facts.get("relied", ()) or binding.default is None:
            return UNKNOWN
        # A default is evaluated where the function is defined: in the enclosing scope.
        inner = self.value(binding.default, binding.scope.parent or binding.scope, depth + 1)
        if not inner.known:
            return UNKNOWN
        owner = binding.scope.qualname.removesuffix(".__init__")
        # A default read from an enclosing function's default is that one's.
        via = inner.via if inner.default and inner.via else f"the default of {owner}()"
        given_too = name not in facts.get("unpassed", ())
        return Value(True, inner.value, inner.node, via, default=True, given_too=given_too)

    def dict_node(
        self, node: cst.BaseExpression, scope: Scope, depth: int = 0, read: Read | None = None
    ) -> tuple[cst.BaseExpression, Scope, str | None] | None:
        """Return the dict literal (or `dict(...)` call) an expression is bound to (`read`: where
        the expression is read, for a name assigned earlier in the same block)."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Dict):
            return node, scope, None
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Name)
            and node.func.value == "dict"
        ):
            if not scope.lookup("dict"):
                return node, scope, None
            return None
        if isinstance(node, cst.Name):
            binding = self.single_binding(node.value, scope, read)
            if binding is None or binding.value is None:
                return None
            found = self.dict_node(binding.value, binding.scope, depth + 1)
            if found is None:
                return None
            return found[0], found[1], found[2] or node.value
        if isinstance(node, cst.Subscript):
            return self._entry_dict(node, scope, depth, read)
        held = (
            self.self_attribute(node, scope)
            or self.class_dict(node, scope)
            or self.class_body_dict(node, scope)
        )
        if held is not None:
            found = self.dict_node(held[0], held[1], depth + 1)
            return None if found is None else (found[0], found[1], found[2])
        return None

    def _entry_dict(
        self, node: cst.Subscript, scope: Scope, depth: int, read: Read | None = None
    ) -> tuple[cst.BaseExpression, Scope, str | None] | None:
        """Return the dict literal an entry of a dict literal holds, read by a literal key.

        `inferenceConfig=request["inferenceConfig"]`: the table is bound once, neither it nor
        its entries are changed anywhere in the module (no `request[k] = v`, no
        `request["inferenceConfig"]["temperature"] = 1.0`, no mutating method), and every key
        it writes is a literal (a `**other` spread may hold the key too).
        """
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return None
        wanted = string_value(node.slice[0].slice.value)
        table_name = _dotted(node.value)
        if wanted is None or table_name is None or self._changed(table_name, scope):
            return None
        found = self.dict_node(node.value, scope, depth + 1, read)
        if found is None or not isinstance(found[0], cst.Dict):
            return None
        entry: cst.BaseExpression | None = None
        for element in found[0].elements:
            if not isinstance(element, cst.DictElement) or string_value(element.key) is None:
                return None
            if string_value(element.key) == wanted:
                entry = element.value  # the last one written wins
        if entry is None:
            return None
        inner = self.dict_node(entry, found[1], depth + 1)
        if inner is None:
            return None
        return inner  # the entry is read by its key, not spread as `**table`

    def _helper_entries(
        self, node: cst.BaseExpression, scope: Scope, depth: int, read: Read | None = None
    ) -> Entries | None:
        """Return the entries of the dict a helper of this module returns, when a call is one.

        `kwargs = self.build_kwargs(prompt)` or `create(**request_args(prompt))`: the helper's
        one `return` of a dict literal (with the `name[key] = value` sets before it). A helper
        that returns one of several dicts gives their keys only (`_helper_keys`); one that
        changes a dict in place is not followed.
        """
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Name):
            # `read`: where the name is read; an assignment in the same `try:` / `with` block
            # before it counts (`single_binding`).
            binding = self.single_binding(node.value, scope, read)
            if binding is None or binding.value is None:
                return None
            node, scope = binding.value, binding.scope
        if not isinstance(node, cst.Call):
            return None
        helper = self.helper_scope(node, scope)
        if helper is None:
            return (
                self._hook_entries(node, scope)
                or self._inherited_entries(node, scope)
                or self._imported_merge(node, scope, depth)
            )
        if not helper.returns:
            return None
        changes = self._helper_changes(helper)
        if changes is None:
            return None
        if len(helper.returns) > 1 or isinstance(helper.returns[0], cst.IfExp):
            return None if changes else self._helper_keys(helper, depth)
        returned = helper.returns[0]
        found = self.dict_node(returned, helper, depth + 1)
        if found is None:
            return None
        bound = self._keywords_given(returned, node, helper, scope, depth)
        if bound is not None:
            # `return {**DEFAULTS, **overrides}`: what the call gives `**overrides`, in order.
            if changes:
                return None
            entries = self.entries_of_dict(returned, helper, depth + 1, bound) or Entries()
        else:
            built = self._built_in_steps(returned, found[2], helper, changes, depth)
            if built is None:
                return None
            entries = built
        if entries.opaque and not entries.items and not entries.unknown_keys:
            return None
        self.expanded.add(id(node))
        self._bind_params(entries, node, helper, scope, depth)
        return entries

    def _keywords_given(
        self, returned: cst.BaseExpression, call: cst.Call, helper: Scope, scope: Scope, depth: int
    ) -> dict[int, Entries] | None:
        """Return what a helper's `**kwargs` holds for this call, by the node of each spread of
        it in the dict literal (or `dict(...)`) the helper returns: the keywords the call gives
        that no other parameter takes.

        Only when every argument of the call is seen (no `*args`/`**more`) and the helper
        neither rebinds nor changes its `**kwargs` (a mutating method on any name already
        stops `_helper_entries`). A key the call gives then replaces the one spread before it,
        and a key it does not give is not passed by the spread: what the call sends, where a
        spread of unknown keys would leave every key before it open.
        """
        definition = helper.node
        if not isinstance(definition, cst.FunctionDef) or any(arg.star for arg in call.args):
            return None
        params = definition.params
        star = params.star_kwarg
        if star is None:
            return None
        varkw = star.name.value
        if isinstance(returned, cst.Dict):
            spreads = [e.value for e in returned.elements if isinstance(e, cst.StarredDictElement)]
        elif isinstance(returned, cst.Call):
            spreads = [arg.value for arg in returned.args if arg.star == "**"]
        else:
            return None
        at = [n for n in spreads if isinstance(n, cst.Name) and n.value == varkw]
        bindings = [b for b in helper.bindings.get(varkw, []) if b.kind != "annotation"]
        if (
            not at
            or len(bindings) != 1
            or varkw in helper.subscript_sets
            or varkw in helper.deep_sets
        ):
            return None
        named = {p.name.value for p in (*params.posonly_params, *params.params)}
        named.update(p.name.value for p in params.kwonly_params)
        given = Entries()
        for arg in call.args:
            if arg.keyword is None or arg.keyword.value in named:
                continue
            key = arg.keyword.value
            value = self.value(arg.value, scope, depth + 1)
            given.items[key] = Entry(key, arg, arg.value, value, call)
        return {id(node): given for node in at}

    def _bind_params(
        self, entries: Entries, node: cst.Call, helper: Scope, scope: Scope, depth: int
    ) -> None:
        """An entry that is one of the helper's parameters is what this call passes for it, or
        the default when it passes nothing (found where the default is written)."""
        for key, entry in list(entries.items.items()):
            if not isinstance(entry.value_node, cst.Name):
                continue
            bound = self._bound_argument(node, helper, entry.value_node.value)
            if bound is None:
                continue
            if bound is False:
                entries.items.pop(key)
                entries.unknown_keys.add(key)
            elif isinstance(bound, cst.Arg):
                value = self.value(bound.value, scope, depth + 1)
                entries.items[key] = Entry(key, bound, bound.value, value, node)
            else:
                value = self.value(bound, helper, depth + 1)
                written = value.node
                if value.known and written is not None:
                    via = f"the default of {helper.qualname}()"
                    value = Value(True, value.value, written, via, default=True)
                    entries.items[key] = Entry(key, written, bound, value, None)
                else:
                    entries.items.pop(key)
                    entries.unknown_keys.add(key)

    def _hook_entries(self, call: cst.Call, scope: Scope) -> Entries | None:
        """Return the entries of the dict a hook's one override in another module returns
        (`self._body(turns)` on an abstract `_body`), as the project phase read them: literal
        values are reported where they are written (`elsewhere`), other keys are present with
        values not known here."""
        project = self.symbols.project if self.symbols is not None else None
        func = call.func
        if project is None or not isinstance(func, cst.Attribute):
            return None
        if not isinstance(func.value, cst.Name):
            return None
        function = scope.function()
        info = function.method_of
        if info is None or func.value.value != function.self_name:
            return None
        hook = self._method_scope(info, func.attr.value, 0)
        if hook is None or hook.returns:
            return None
        found = (project.function(project.module, hook.qualname) or {}).get("hook_returns")
        if not found:
            return None
        return _read_elsewhere(call, found, f"{hook.qualname}() of a subclass")

    def _inherited_entries(self, call: cst.Call, scope: Scope) -> Entries | None:
        """Return the entries of the dict a method the class inherits from a project base of
        another module returns (`**self.params()`), as the project phase read them: literal
        values are reported where they are written (`elsewhere`), other keys are present with
        values not known here."""
        project = self.symbols.project if self.symbols is not None else None
        func = call.func
        if project is None or not isinstance(func, cst.Attribute) or call.args:
            return None
        function = scope.function()
        info = function.method_of
        if (
            info is None
            or not isinstance(func.value, cst.Name)
            or func.value.value != function.self_name
            or self._method_scope(info, func.attr.value, 0) is not None
        ):
            return None
        qual = f"{info.scope.qualname}.{func.attr.value}"
        found = (project.function(project.module, qual) or {}).get("sent_returns")
        if not found:
            return None
        return _read_elsewhere(call, found, f"{func.attr.value}() of a base class")

    def _imported_merge(self, call: cst.Call, scope: Scope, depth: int) -> Entries | None:
        """Return what a call of another module's function sends when the function returns
        its module's dict of defaults merged with its `**kwargs` (`merged(model=M)` with
        `return {**DEFAULTS, **overrides}`), as the project phase read it: the call's keywords,
        and each entry of the defaults it does not give, written in the other module (no fix
        here). Only when every argument of the call is a keyword it writes."""
        project = self.symbols.project if self.symbols is not None else None
        func = call.func
        if project is None or not isinstance(func, cst.Name):
            return None
        if any(arg.star or arg.keyword is None for arg in call.args):
            return None
        bindings = [b for b in scope.lookup(func.value) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "import":
            return None
        plain = project.lookup(bindings[0].qualname)
        if plain is None or plain[0] != "func":
            return None
        found = (project.function(plain[1], plain[2]) or {}).get("merged_returns")
        if not found:
            return None
        literal_entries, others, name = found
        entries = Entries(unknown_keys=set(others))
        for key, value in literal_entries.items():
            known = Value(True, value, None, f"{name}[{key!r}]")
            entries.items[key] = Entry(key, call, call, known, None)
        for arg in call.args:
            assert arg.keyword is not None
            key = arg.keyword.value
            entries.unknown_keys.discard(key)
            given = self.value(arg.value, scope, depth + 1)
            entries.items[key] = Entry(key, arg, arg.value, given, call)
        return entries

    def _helper_keys(self, helper: Scope, depth: int) -> Entries | None:
        """Return the keys a helper returning one of several dicts may give, values unknown.

        `return {"system": blocks} if blocks else {}`, or a dict in each of several `return`s:
        the call passes one of them, so a key none of them has is not passed (a call built on
        it that never asks to stream does not stream), and one any of them has may be.
        """
        options: list[cst.BaseExpression] = []
        for returned in helper.returns:
            if isinstance(returned, cst.IfExp):
                options.extend((returned.body, returned.orelse))
            else:
                options.append(returned)
        entries = Entries()
        for option in options:
            if self.dict_node(option, helper, depth + 1) is None:
                return None
            found = self.expand(option, helper, depth + 1)
            if found.opaque:
                return None
            entries.unknown_keys.update(found.items, found.unknown_keys)
        return entries

    def _bound_argument(
        self, call: cst.Call, helper: Scope, name: str
    ) -> cst.Arg | cst.BaseExpression | Literal[False] | None:
        """Return what a call gives a helper's parameter: its argument, else its default.

        None when the name is not a parameter of the helper; False when it cannot be told
        (`*args`/`**kwargs` at the call, no default).
        """
        definition = helper.node
        if not isinstance(definition, (cst.FunctionDef, cst.Lambda)):
            return None
        params = definition.params
        positional = [*params.posonly_params, *params.params]
        if helper.method_of is not None and positional:
            positional = positional[1:]  # called on `self`
        every = [*positional, *params.kwonly_params]
        wanted = next((p for p in every if p.name.value == name), None)
        if wanted is None:
            return None
        index = 0
        for arg in call.args:
            if arg.star:
                return False
            if arg.keyword is not None:
                if arg.keyword.value == name:
                    return arg
                continue
            if index < len(positional) and positional[index] is wanted:
                return arg
            index += 1
        return wanted.default if wanted.default is not None else False

    def helper_scope(self, call: cst.Call, scope: Scope) -> Scope | None:
        """Return the scope of the function or method of this module a call runs, if proven.

        A module function by its name (a `def`, or a name bound once to a `lambda`: `body =
        lambda msgs: {...}`), or a method of the caller's own class called on `self`
        (`self.build_kwargs(...)`).
        """
        if self.symbols is None:
            return None
        func = call.func
        if isinstance(func, cst.Name):
            found = self.symbols.resolve(func, scope)
            node = getattr(found, "node", None)
            if isinstance(node, cst.FunctionDef):
                return getattr(found, "scope", None)
            binding = self.single_binding(func.value, scope, objects=True)
            if binding is not None and isinstance(binding.value, cst.Lambda):
                return self.symbols.scope_of(binding.value)
            return None
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)):
            return None
        function = scope.function()
        info = function.method_of
        if info is None or func.value.value != function.self_name:
            return None
        found = self._method_scope(info, func.attr.value, 0)
        if found is not None and found.returns and self._overridden(info, func.attr.value):
            return None  # a subclass's instance sends what its own method returns
        if found is None or found.returns:
            return found
        return self._override_scope(info, func.attr.value)

    def _overridden(self, info: ClassInfo, name: str) -> bool:
        """Return whether the project phase found a subclass of the class overriding a method
        whose returned dict a Claude call spreads (`project.phase._overridden_helper`)."""
        project = self.symbols.project if self.symbols is not None else None
        if project is None:
            return False
        entry = project.function(project.module, f"{info.scope.qualname}.{name}") or {}
        return bool(entry.get("overridden"))

    def _override_scope(self, info: ClassInfo, name: str) -> Scope | None:
        """Return the one override of a hook that returns nothing where it is read (an abstract
        method: `def _body(self, turns): ...`) among this module's subclasses of the class.

        Only a subclass's instance can give the hook a value: with one such override here,
        what the base class's method sends is what it returns, for that subclass. Two
        overrides (siblings returning different requests) leave it unknown.
        """
        found: list[Scope] = []
        for receiver in self._receivers(info)[1:]:
            method = self._method_scope(receiver, name, 0)
            if method is not None and method.returns and all(m is not method for m in found):
                found.append(method)
        return found[0] if len(found) == 1 else None

    def _method_scope(self, info: ClassInfo, name: str, depth: int) -> Scope | None:
        """Return the scope of the method `name` of a class of this module or of its bases.

        The class's own definition first, then each base class of this module, depth first
        and left to right; a base this module does not define ends the search (unknown).
        """
        assert self.symbols is not None
        bindings = info.scope.bindings.get(name, [])
        if bindings:
            if len(bindings) != 1 or bindings[0].kind != "def":
                return None
            return self.symbols.scope_of(bindings[0].node)
        if depth > MAX_DEPTH:
            return None
        scope = info.scope.parent or info.scope
        for base in info.node.bases:
            base_info = self.symbols.local_class(base.value, scope)
            if base_info is None:
                return None
            method = self._method_scope(base_info, name, depth + 1)
            if method is not None:
                return method
        return None

    def _helper_changes(self, helper: Scope) -> dict[str, list[CallRecord]] | None:
        """Return, per name, the mutating method calls a helper makes on a name
        (`kwargs.update(extra)`, `req.setdefault("metadata", {})`); None when unknown."""
        if self.symbols is None:
            return None
        changes: dict[str, list[CallRecord]] = {}
        for record in self.symbols.index.calls:
            func = record.node.func
            if (
                record.scope.function() is helper
                and isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.attr.value in MUTATING_METHODS
            ):
                changes.setdefault(func.value.value, []).append(record)
        return changes

    def _built_in_steps(
        self,
        returned: cst.BaseExpression,
        through: str | None,
        helper: Scope,
        changes: dict[str, list[CallRecord]],
        depth: int,
    ) -> Entries | None:
        """Return the entries of the dict a helper returns, after the changes it makes to it.

        `req = {...}; req.setdefault("metadata", {})["user"] = u; req["messages"].append(m);
        return req`: the methods change it as `_edited` reads them, and a key whose value is
        read, then perhaps changed in place, is present with a value unknown. Only when the
        changes are all on the returned name, bound to the literal itself, and every use of it
        is one whose effect is known (`dict_uses`): a dict handed to other code, stored or
        aliased may be changed there, and is not read.
        """
        if isinstance(returned, cst.Name) and self._handed_on(helper).get(returned.value):
            return None  # handed to code we do not follow before it is returned
        if not changes:
            return self.expand(returned, helper, depth + 1)
        if not isinstance(returned, cst.Name) or through != returned.value:
            return None
        if set(changes) != {returned.value}:
            return None
        touched = dict_uses(helper.node, returned.value)
        if touched is None:
            return None
        entries = self.expand(returned, helper, depth + 1, mutators=changes)
        for key in touched:
            if entries.items.pop(key, None) is not None:
                entries.unknown_keys.add(key)
        return entries

    def entries_of_dict(
        self,
        node: cst.BaseExpression,
        scope: Scope,
        depth: int = 0,
        bound: Mapping[int, Entries] | None = None,
    ) -> Entries | None:
        """Return the entries of a dict literal or `dict(...)` call, or None if not one.

        `bound`: what some of its spreads are known to pass (by the spread name's node)."""
        entries = Entries()
        bound = bound or {}
        if isinstance(node, cst.Dict):
            for element in node.elements:
                if not isinstance(element, cst.DictElement):
                    nested = bound.get(id(element.value))
                    if nested is None:
                        nested = self.expand(element.value, scope, depth + 1)
                    if nested.opaque:
                        _overridable(entries, self._spread_kept(element.value, scope))
                    self._merge(entries, nested)
                    continue
                key = string_value(element.key)
                if key is None:
                    entries.opaque = True
                    continue
                entries.items[key] = Entry(
                    key, element, element.value, self.value(element.value, scope, depth + 1), node
                )
                entries.unknown_keys.discard(key)
            return entries
        if isinstance(node, cst.Call):
            return self._dict_call_entries(node, scope, depth, bound)
        return None

    def _dict_call_entries(
        self, node: cst.Call, scope: Scope, depth: int, bound: Mapping[int, Entries]
    ) -> Entries:
        """`entries_of_dict` for a `dict(...)` call. Its keywords replace what its positional
        mapping holds (`dict(base, **extra)`), and collide with each other only by raising:
        a `**` spread of keys we cannot all see leaves the mapping's keys open, not theirs."""
        entries = Entries()
        copied: set[str] = set()
        for arg in node.args:
            if arg.keyword is not None:
                key = arg.keyword.value
                entries.items[key] = Entry(
                    key, arg, arg.value, self.value(arg.value, scope, depth + 1), node
                )
                copied.discard(key)
            elif arg.star == "**" or (arg.star == "" and arg is node.args[0]):
                # `dict(**other)`, or `dict(other)`: a copy of a dict we may see.
                nested = bound.get(id(arg.value)) if arg.star else None
                if nested is None:
                    nested = self.expand(arg.value, scope, depth + 1)
                if arg.star and nested.opaque:
                    for key in copied & set(entries.items):
                        entries.items.pop(key)
                        entries.unknown_keys.add(key)
                if not arg.star:
                    copied = set(nested.items)
                else:
                    copied -= set(nested.items) | nested.unknown_keys
                self._merge(entries, nested)
            else:
                entries.opaque = True
        return entries

    def _spread_kept(self, node: cst.BaseExpression, scope: Scope) -> frozenset[str]:
        """Return the keys of the entries before a `**self.<attr>` spread that an in-project
        constructor call sends (the project phase's `spread_kept`): none for any other
        spread."""
        read = _self_read(node, scope) if self.symbols is not None else None
        if read is None or self.symbols is None:
            return frozenset()
        info, attr = read
        return self.symbols.spread_kept(f"{info.scope.qualname}.{attr}") or frozenset()

    @staticmethod
    def _merge(entries: Entries, more: Entries) -> None:
        entries.opaque = entries.opaque or more.opaque
        entries.replaceable.update(more.replaceable)
        for key, entry in more.items.items():
            entries.items[key] = entry
            entries.unknown_keys.discard(key)
        for key in more.unknown_keys:
            entries.items.pop(key, None)
            entries.unknown_keys.add(key)

    def expand(
        self,
        node: cst.BaseExpression,
        scope: Scope,
        depth: int = 0,
        before_order: int | None = None,
        mutators: dict[str, list[CallRecord]] | None = None,
        path: tuple[Branch, ...] | None = None,
    ) -> Entries:
        """Return what `**node` passes: the bound dict's entries plus later `name[k] = v` sets.

        `path`: the branches the read sits in, with `before_order` where it is.
        """
        read = None if path is None or before_order is None else (before_order, path)
        found = self.dict_node(node, scope, depth, read)
        if found is None:
            helped = self._helper_entries(node, scope, depth, read)
            if helped is None:
                return self.project_options(node, scope)
            entries = helped
        else:
            dict_node, dict_scope, through = found
            made = self.entries_of_dict(dict_node, dict_scope, depth)
            if made is None:
                return Entries(opaque=True)
            entries = made
            if through is not None:
                for entry in entries.items.values():
                    entry.through = through
        if isinstance(node, cst.Name):
            return self._edited(entries, node.value, scope, depth, before_order, mutators)
        return entries

    def project_options(self, node: cst.BaseExpression, scope: Scope) -> Entries:
        """Return what `**settings.PARAMS` (or an imported `**PARAMS`) passes when it is another
        project module's dict of request options, as the project phase proved it.

        Its entries are in another file: a finding is at the spread, without a fix. Keys the
        phase did not prove may be there too (the entries stay opaque), and a dict this module
        changes is not read.
        """
        project = self.symbols.project if self.symbols is not None else None
        if project is None or self.symbols is None:
            return Entries(opaque=True)
        qualname: str | None = None
        if isinstance(node, cst.Name):
            bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
            if len(bindings) == 1 and bindings[0].kind == "import":
                qualname = bindings[0].qualname
        elif isinstance(node, cst.Attribute):
            # `settings.PARAMS` of an imported module, or `Config.PARAMS` of a project class.
            module = self.symbols.qualname(node.value, scope)
            module = module or self.symbols.project_class_path(node.value, scope)
            qualname = None if module is None else f"{module}.{node.attr.value}"
        dotted = _dotted(node)
        if qualname is None or dotted is None or _changes_items(scope.module().node, dotted):
            return Entries(opaque=True)
        found = project.lookup(qualname)
        if found is None or found[0] != "dict":
            return Entries(opaque=True)
        qualname = project.absolute(qualname)
        entries = Entries(opaque=True, unknown_keys=set(found[2]))
        for key, value in found[1].items():
            entries.items[key] = Entry(
                key, node, node, Value(True, value, None, f"{qualname}[{key!r}]"), None, dotted
            )
        return entries

    def _edited(
        self,
        entries: Entries,
        name: str,
        scope: Scope,
        depth: int,
        before_order: int | None,
        mutators: dict[str, list[CallRecord]] | None,
    ) -> Entries:
        """Return a dict's entries after what its function does to it before the call, in
        order: `name[key] = value`, `name.update(...)`, `name.setdefault(key, value)`,
        `name.pop(key)`. Any other change (`clear()`, `update(other)` of a dict not seen)
        makes it opaque."""
        function = scope.function()
        if before_order is not None and any(
            record.order < before_order for record in self._handed_on(function).get(name, ())
        ):
            return Entries(opaque=True)  # code we do not follow may change it first
        edits: list[tuple[int, SubscriptSet | CallRecord]] = [
            (item.order, item) for item in function.subscript_sets.get(name, [])
        ]
        edits.extend((record.order, record) for record in (mutators or {}).get(name, []))
        for order, edit in sorted(edits, key=lambda pair: pair[0]):
            if before_order is not None and order > before_order:
                continue
            if isinstance(edit, SubscriptSet):
                self._set_item(entries, name, edit, function, depth)
            elif not self._apply_method(entries, name, edit, depth):
                return Entries(opaque=True)
        return entries

    def _handed_on(self, function: Scope) -> dict[str, list[CallRecord]]:
        """Return, per name, the calls of a function that hand the name's object to code that
        may change it in place (`annotate(request)`); printing, logging or encoding it as JSON
        does not change it."""
        found = self._handed.get(id(function))
        if found is not None:
            return found
        found = {}
        if self.symbols is not None:
            for record in self.symbols.index.calls:
                if record.scope.function() is not function or self._only_reads(record):
                    continue
                for arg in record.node.args:
                    if not arg.star and isinstance(arg.value, cst.Name):
                        found.setdefault(arg.value.value, []).append(record)
        self._handed[id(function)] = found
        return found

    def _only_reads(self, record: CallRecord) -> bool:
        """Return whether a call only reads what it is given: a builtin that reads (`print`,
        `len`, `repr`), `json.dumps`, a container keeping it (`history.append(request)`), or a
        logging call (`logger.info(...)`, `logger` from `logging.getLogger(...)`, or
        `logging.info(...)`)."""
        assert self.symbols is not None
        func, scope = record.node.func, record.scope
        if isinstance(func, cst.Name):
            if func.value in READING_BUILTINS and not scope.lookup(func.value):
                return True
            return self.symbols.qualname(func, scope) in READING_FUNCTIONS
        if isinstance(func, cst.Attribute) and func.attr.value in STORING_METHODS:
            return True  # `history.append(request)`: kept, as it is, in a container
        if not isinstance(func, cst.Attribute) or func.attr.value not in LOGGING_METHODS:
            return self.symbols.qualname(func, scope) in READING_FUNCTIONS
        if self.symbols.qualname(func, scope) is not None:
            return (self.symbols.qualname(func, scope) or "").startswith("logging.")
        if not isinstance(func.value, cst.Name):
            return False
        binding = self.single_binding(func.value.value, scope)
        made = binding.value if binding is not None else None
        return (
            isinstance(made, cst.Call)
            and binding is not None
            and self.symbols.qualname(made.func, binding.scope) == "logging.getLogger"
        )

    def _set_item(
        self, entries: Entries, name: str, item: SubscriptSet, function: Scope, depth: int
    ) -> None:
        key = string_value(item.key)
        if key is None:
            # `request[key] = value`: any key may be the one set, a key written before too.
            entries.opaque = True
            entries.unknown_keys.update(entries.items)
            entries.items.clear()
            return
        value = self.value(item.value, function, depth + 1)
        _put(entries, Entry(key, item.statement, item.value, value, None, name), item.nested)

    def _apply_method(self, entries: Entries, name: str, record: CallRecord, depth: int) -> bool:
        """Apply `name.update(...)`, `.setdefault(k, v)` or `.pop(k[, d])` to the entries;
        False when the change cannot be seen."""
        call, nested = record.node, bool(record.path)
        method = call.func.attr.value if isinstance(call.func, cst.Attribute) else ""
        args = call.args
        if method == "update":
            if any(arg.star for arg in args) or len([a for a in args if a.keyword is None]) > 1:
                return False
            for arg in args:
                if arg.keyword is None and self._never_given(arg.value, record.scope):
                    continue  # `update(extra)` of a `None` default no call replaces: no change
                if arg.keyword is None:
                    more = self.expand(arg.value, record.scope, depth + 1)
                    if more.opaque:
                        return False
                    for entry in more.items.values():
                        _put(entries, entry, nested)
                    for unknown in more.unknown_keys:
                        entries.items.pop(unknown, None)
                        entries.unknown_keys.add(unknown)
                    continue
                assert arg.keyword is not None
                value = self.value(arg.value, record.scope, depth + 1)
                entry = Entry(arg.keyword.value, arg, arg.value, value, call, name)
                _put(entries, entry, nested)
            return True
        key = string_value(args[0].value) if args else None
        if any(arg.star or arg.keyword for arg in args):
            return False
        if key is None and method == "setdefault" and len(args) == 2:
            # `setdefault(name, v)`: some key may be added; none already there changes.
            entries.opaque = True
            return True
        if key is None:
            return False
        return self._keyed_method(entries, name, record, method, key, depth)

    def _keyed_method(
        self, entries: Entries, name: str, record: CallRecord, method: str, key: str, depth: int
    ) -> bool:
        args, nested = record.node.args, bool(record.path)
        if method == "setdefault" and len(args) == 2:
            if key in entries.items or key in entries.unknown_keys:
                return True  # already set: left as it is
            if entries.opaque:
                entries.unknown_keys.add(key)  # set already, or now: which is not known
                return True
            holder = record.statement if record.statement is not None else args[1]
            value = self.value(args[1].value, record.scope, depth + 1)
            _put(entries, Entry(key, holder, args[1].value, value, None, name), nested)
            return True
        if method == "pop" and len(args) <= 2:
            entries.items.pop(key, None)
            if nested or entries.opaque:
                entries.unknown_keys.add(key)  # removed on some paths only: not known
            else:
                entries.unknown_keys.discard(key)
            return True
        return False

    def entries_of_call(
        self,
        call: cst.Call,
        scope: Scope,
        order: int,
        mutators: dict[str, list[CallRecord]] | None = None,
        path: tuple[Branch, ...] | None = None,
    ) -> Entries:
        """Return the keyword arguments of a call, expanding `**dicts` we can see (`path`: the
        branches the call sits in)."""
        entries = Entries()
        for arg in call.args:
            if arg.keyword is not None:
                key = arg.keyword.value
                value = self.value_read(arg.value, scope, None if path is None else (order, path))
                if value.default and value.node is not None:
                    # The finding and its fix are at the default the call relies on.
                    entries.items[key] = Entry(key, value.node, arg.value, value, None)
                else:
                    entries.items[key] = Entry(key, arg, arg.value, value, call)
                entries.unknown_keys.discard(key)
            elif arg.star == "**":
                self._merge(entries, self.expand(arg.value, scope, 0, order, mutators, path))
        return entries

    def value_read(self, node: cst.BaseExpression, scope: Scope, read: Read | None) -> Value:
        """Return the proven value of an argument, a name read where the call is (`read`)."""
        found = self.value(node, scope)
        if found.known or read is None or not isinstance(node, cst.Name):
            return found
        return self._read_value(node, scope, read)

    def _read_value(self, node: cst.Name, scope: Scope, read: Read) -> Value:
        """Return the value of a name where a call reads it: the assignment written last before
        the call at a script's (or a notebook's) top level, which binds it again and again
        (`model_id = ...` in each cell, each cell's call reading its own), or the one assignment
        of the block that holds the call (`if __name__ == "__main__":`)."""
        binding = self.single_binding(node.value, scope, read)
        if binding is None or binding.value is None:
            return UNKNOWN
        inner = self.value(binding.value, binding.scope)
        if not inner.known:
            return UNKNOWN
        return Value(True, inner.value, inner.node, inner.via or node.value)

    # Strings built from parts: URLs ------------------------------------------------------------
    def template(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> str | None:
        """Return a string expression's text with unknown parts as `{}` (f-strings, `+`)."""
        if depth > MAX_DEPTH:
            return None
        text = string_value(node)
        if text is not None:
            return text
        if isinstance(node, cst.FormattedString):
            if "b" in node.prefix.lower():
                return None
            parts = []
            for part in node.parts:
                if isinstance(part, cst.FormattedStringText):
                    parts.append(part.value)
                elif isinstance(part, cst.FormattedStringExpression):
                    inner = self.template(part.expression, scope, depth + 1)
                    parts.append(inner if inner is not None else "{}")
            return "".join(parts)
        if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
            left = self.template(node.left, scope, depth + 1)
            right = self.template(node.right, scope, depth + 1)
            if left is None and right is None:
                return None
            return (left if left is not None else "{}") + (right if right is not None else "{}")
        if isinstance(node, cst.Name):
            binding = self.single_binding(node.value, scope)
            if binding is not None and binding.value is not None:
                return self.template(binding.value, binding.scope, depth + 1)
        held = self.self_attribute(node, scope)
        if held is not None:
            return self.template(held[0], held[1], depth + 1)
        if isinstance(node, cst.Attribute):
            # `self.API_URL` / `Client.API_URL` / `settings.API_URL`: a constant of a class body
            # (no subclass writing another) or of a project module, as `value` proves it.
            found = self.value(node, scope, depth + 1)
            if found.known and isinstance(found.value, str) and not found.default:
                return found.value
        return None

    # JSON bodies and nested dicts ---------------------------------------------------------------
    def is_call_to(self, node: cst.BaseExpression, scope: Scope, *qualnames: str) -> bool:
        if not isinstance(node, cst.Call) or self.symbols is None:
            return False
        return self.symbols.qualname(node.func, scope) in qualnames

    def json_payload(
        self,
        node: cst.BaseExpression,
        scope: Scope,
        before_order: int | None = None,
        mutators: dict[str, list[CallRecord]] | None = None,
        depth: int = 0,
        path: tuple[Branch, ...] | None = None,
    ) -> Entries | None:
        """Return the entries of the dict a JSON body is made from (`json.dumps(...)`, a name).

        None when the expression is not provably such a body. `path`: the branches the call
        sending it sits in (with `before_order` where it is).
        """
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, cst.Call) and self.is_call_to(node, scope, "json.dumps"):
            if not node.args or node.args[0].keyword is not None or node.args[0].star:
                return None
            return self.expand(node.args[0].value, scope, depth + 1, before_order, mutators, path)
        if (
            isinstance(node, cst.Call)
            and isinstance(node.func, cst.Attribute)
            and node.func.attr.value == "encode"
        ):
            return self.json_payload(
                node.func.value, scope, before_order, mutators, depth + 1, path
            )
        encoded = _encoded_text(node, scope)
        if encoded is not None:
            # `bytes(json.dumps(body), "utf-8")`: the same text, encoded.
            return self.json_payload(encoded, scope, before_order, mutators, depth + 1, path)
        if isinstance(node, cst.Name):
            read = None if path is None or before_order is None else (before_order, path)
            binding = self.single_binding(node.value, scope, read)
            if binding is None or binding.value is None:
                return None
            if isinstance(binding.value, cst.Call):
                return self.json_payload(
                    binding.value, binding.scope, before_order, mutators, depth + 1, path
                )
            if self.dict_node(node, scope, 0, read) is not None:
                return self.expand(node, scope, depth + 1, before_order, mutators, path)
        if isinstance(node, cst.Dict):
            return self.expand(node, scope, depth + 1, before_order, mutators, path)
        return None

    def nested(self, entry: Entry | None, scope: Scope, read: Read | None = None) -> Entries | None:
        """Return the entries of a dict-valued parameter (`inferenceConfig`, `model_kwargs`);
        `read`: where the call reads it, for a name bound again later (a notebook's cells)."""
        if entry is None:
            return None
        if read is None:
            found = self.expand(entry.value_node, scope)
        else:
            found = self.expand(entry.value_node, scope, before_order=read[0], path=read[1])
        return None if found.opaque and not found.items else found


def _latest_top_level(bindings: list[Binding], scope: Scope, read: Read | None) -> Binding | None:
    """Return the assignment in effect where a module's top level reads a name it binds again.

    A script, or a notebook's cells run in order, runs its top-level statements one after the
    other: `request = {...}` in one cell and again in a later one, each read between. Only when
    the read is in the module's own code (not a function, which may run later) and every
    assignment is a plain one at the module's top level, outside any `if`, loop or `try`: the
    last one written before the read is then the one in effect, a compound statement holding
    the read included. A function's read of such a name, which may run after any of them, is
    given one only when every assignment writes the same literal (`_alike`).
    """
    if not bindings:
        return None
    home = bindings[0].scope
    for binding in bindings:
        if binding.kind != "assign" or binding.value is None or binding.nested:
            return None
        if binding.scope is not home or home.kind != "module":
            return None  # `global name` in a function: it may run at any time
    if scope is not home:
        # A function's read, which may run after any of them: the same literal in each (a
        # notebook's `MODEL = "..."` written again in a later cell) is that literal.
        return _alike(bindings)
    if read is None:
        return None
    before = [b for b in bindings if b.order < read[0]]
    return max(before, key=lambda b: b.order) if before else None


def _alike(bindings: list[Binding]) -> Binding | None:
    """Return the last of a name's assignments when each gives the same literal (of the same
    type: `1` and `1.0` differ), else None."""
    values = [literal(b.value) for b in bindings if b.value is not None]
    if len(values) != len(bindings) or not all(v.known for v in values):
        return None
    first = values[0].value
    if any(type(v.value) is not type(first) or v.value != first for v in values[1:]):
        return None
    return max(bindings, key=lambda b: b.order)


def _runs_before(binding: Binding, read: Read | None) -> bool:
    """Return whether a nested assignment runs on every path to `read`, before it."""
    if read is None:
        return False
    order, path = read
    return binding.order < order and always_before(binding.path, path)


def _read_elsewhere(call: cst.Call, found: list[Any], via: str) -> Entries:
    """Return the entries of a dict another module's function returns, as the project phase
    read it ([literal entries, other keys, whether some keys may be absent or unknown]):
    literal values are reported where they are written (`elsewhere`), other keys are present
    with values not known here."""
    literal, others, unsure = found
    entries = Entries(opaque=bool(unsure), unknown_keys=set(others))
    for key, value in literal.items():
        known = Value(True, value, None, via, elsewhere=True)
        entries.items[key] = Entry(key, call, call, known, None)
    return entries


def _empty_dict(node: cst.BaseExpression) -> bool:
    """Return whether an expression is an empty dict display (`{}`) or `dict()`."""
    if isinstance(node, cst.Dict):
        return not node.elements
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Name)
        and node.func.value == "dict"
        and not node.args
    )


def _is_none(node: cst.BaseExpression) -> bool:
    return isinstance(node, cst.Name) and node.value == "None"


def fallback_parts(node: cst.BaseExpression) -> list[cst.BaseExpression] | None:
    """Return [tested..., fallback] of `a or b` (`a or b or c`), `b if a is None else a`,
    `a if a is not None else b` and `a if a else b`; None for any other expression."""
    if isinstance(node, cst.BooleanOperation):
        return _or_operands(node) if isinstance(node.operator, cst.Or) else None
    if not isinstance(node, cst.IfExp):
        return None
    test = node.test
    if isinstance(test, cst.Comparison) and len(test.comparisons) == 1:
        target = test.comparisons[0]
        if not (isinstance(target.comparator, cst.Name) and target.comparator.value == "None"):
            return None
        if isinstance(target.operator, cst.Is) and node.orelse.deep_equals(test.left):
            return [test.left, node.body]
        if isinstance(target.operator, cst.IsNot) and node.body.deep_equals(test.left):
            return [test.left, node.orelse]
        return None
    if node.body.deep_equals(test):
        return [test, node.orelse]
    return None


def _empty_default_retested(operand: cst.BaseExpression, scope: Scope) -> TypeGuard[cst.Name]:
    """Return whether `operand` is a parameter with an empty default (`None`, `""`, `0`) that
    its function gives a value only when empty, in one assignment (`t = t or 0.9`).

    A call that leaves the parameter out sends the fallback (`relied`).
    """
    if not isinstance(operand, cst.Name):
        return False
    bindings = [b for b in scope.lookup(operand.value) if b.kind != "annotation"]
    params = [b for b in bindings if b.kind == "param"]
    others = [b for b in bindings if b.kind != "param"]
    if len(params) != 1 or len(others) != 1 or params[0].scope is not scope:
        return False
    default = params[0].default
    if default is None:
        return False
    empty = literal(default)
    if not empty.known or empty.value or isinstance(empty.value, (list, tuple)):
        return False
    assigned = others[0]
    if assigned.kind != "assign" or assigned.nested or assigned.value is None:
        return False
    parts = fallback_parts(assigned.value)
    return parts is not None and any(
        isinstance(part, cst.Name) and part.value == operand.value for part in parts[:-1]
    )


def _or_operands(node: cst.BooleanOperation) -> list[cst.BaseExpression]:
    """Return the operands of `a or b or c`, in order."""
    found: list[cst.BaseExpression] = []
    for side in (node.left, node.right):
        if isinstance(side, cst.BooleanOperation) and isinstance(side.operator, cst.Or):
            found.extend(_or_operands(side))
        else:
            found.append(side)
    return found


def _overridable(entries: Entries, kept: frozenset[str] = frozenset()) -> None:
    """Leave every key set so far present with a value unknown: a later `**spread` of a dict
    whose keys we cannot all see may replace any of them (`{"temperature": t, **extra}`).
    `kept`: keys the project phase found some caller sends the entry of."""
    replaced = [key for key in entries.items if key not in kept]
    entries.unknown_keys.update(replaced)
    entries.replaceable.update(replaced)
    for key in replaced:
        del entries.items[key]


def _put(entries: Entries, entry: Entry, nested: bool) -> None:
    """Set an entry; one set in a branch or loop leaves its key present with a value unknown."""
    if nested:
        entries.items.pop(entry.key, None)
        entries.unknown_keys.add(entry.key)
        return
    entries.items[entry.key] = entry
    entries.unknown_keys.discard(entry.key)


def _template_call(
    node: cst.BaseExpression,
) -> tuple[list[Piece], list[cst.BaseExpression]] | None:
    """Return the pieces of a literal template and the arguments it formats: `"claude-%s" % x`,
    `"claude-%s-%s" % (a, b)`, `"claude-{}".format(x)` (`core.templates`); else None."""
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Modulo):
        template = string_value(node.left)
        pieces = percent_pieces(template) if template is not None else None
        if pieces is None:
            return None
        right = node.right
        if isinstance(right, cst.Tuple):
            elements = [e for e in right.elements if isinstance(e, cst.Element)]
            if len(elements) != len(right.elements):
                return None  # `*rest`: how many is not known
            arguments = [e.value for e in elements]
        else:
            arguments = [right]
        fields = sum(isinstance(piece, int) for piece in pieces)
        return (pieces, arguments) if fields == len(arguments) else None
    if not (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "format"
        and all(arg.keyword is None and not arg.star for arg in node.args)
    ):
        return None
    template = string_value(node.func.value)
    pieces = format_pieces(template) if template is not None else None
    return None if pieces is None else (pieces, [arg.value for arg in node.args])


def _key_name(node: cst.BaseExpression) -> cst.Name | None:
    """Return the name a table is read by (`MODELS[provider]`), else None."""
    if not isinstance(node, cst.Subscript) or len(node.slice) != 1:
        return None
    index = node.slice[0].slice
    if isinstance(index, cst.Index) and isinstance(index.value, cst.Name):
        return index.value
    return None


def _spelled_name(node: cst.BaseExpression) -> cst.Name | None:
    """Return the one name an expression spells a string around (itself, for a name): an
    f-string of literal text and that name, or `+` of it and string literals; else None."""
    if isinstance(node, cst.Name):
        return node
    if isinstance(node, cst.FormattedString):
        names = [
            part.expression
            for part in node.parts
            if isinstance(part, cst.FormattedStringExpression)
        ]
        plain = all(
            isinstance(part, cst.FormattedStringText)
            or (
                isinstance(part, cst.FormattedStringExpression)
                and part.conversion is None
                and part.format_spec is None
            )
            for part in node.parts
        )
        if plain and len(names) == 1 and isinstance(names[0], cst.Name):
            return names[0]
        return None
    for _ in range(MAX_DEPTH):  # `"bedrock/" + model`, `prefix + model + "-v1:0"`
        if not (isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add)):
            break
        texts = [side for side in (node.left, node.right) if isinstance(side, cst.SimpleString)]
        if len(texts) != 1:
            return None
        node = node.right if texts[0] is node.left else node.left
        if isinstance(node, cst.Name):
            return node
    return None
