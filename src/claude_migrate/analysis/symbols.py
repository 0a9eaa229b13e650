"""What an expression is: an imported name, an instance of a known client, a local def or class.

The resolver follows names through `scope.ModuleIndex` (imports, assignments, parameter
annotations, `self.<attr>`, factory functions' returns, `with ... as x`), only as far as a
question needs. Anything it cannot prove is `UNKNOWN`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.scope import Binding, ClassInfo, ModuleIndex, Scope
from claude_migrate.analysis.values import ValueResolver, string_value
from claude_migrate.core.lazy import lazy_import
from claude_migrate.core.project_view import SUPER
from claude_migrate.targets.aisuite import AISUITE_CLIENT, AISUITE_CLIENTS
from claude_migrate.targets.anthropic_sdk import (
    CLIENT_COPIES,
    is_first_party_client,
    is_sdk_client_class,
    serves_other_models,
)
from claude_migrate.targets.bedrock import (
    BEDROCK_AGENT_RUNTIME,
    BEDROCK_RUNTIME,
    BOTO3_CLIENT_FACTORIES,
    BOTO3_SESSIONS,
)
from claude_migrate.targets.http import HTTP_CLIENTS
from claude_migrate.targets.instructor import (
    INSTRUCTOR_FROM_ANTHROPIC,
    INSTRUCTOR_FROM_PROVIDER,
    INSTRUCTOR_ON_ANTHROPIC,
    PROVIDER_PREFIX,
)
from claude_migrate.targets.litellm import LITELLM_ROUTER, LITELLM_ROUTERS
from claude_migrate.targets.openai_compat import (
    ANTHROPIC_OPENAI_URL,
    OPENAI_CLIENTS,
    OPENAI_ON_ANTHROPIC,
    OTHER_CLIENTS_LACKING,
    PLAIN_DATA_LACKING,
)
from claude_migrate.targets.registry import described

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.core.project_view import ProjectView
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

MAX_DEPTH = 16
# A choice of client resources (`a if c else b`, a name bound in each branch): how deep and how
# many alternatives are followed.
MAX_CHOICE_DEPTH = 6
MAX_CHOICES = 8


@dataclass(frozen=True)
class Qual:
    """A module or object known by its import path, e.g. `anthropic.Anthropic`."""

    name: str


@dataclass(frozen=True)
class Instance:
    """An object built by calling a known class, reached through `path` attributes.

    `cls` is the import path of the class (`anthropic.AsyncAnthropic`) or a synthetic kind
    (`boto3:bedrock-runtime`); `info` carries what the constructor said that matters later
    (an HTTP client's `base_url`).
    """

    cls: str
    path: tuple[str, ...] = ()
    info: str = ""
    # Set when another vendor's client may be the object instead (`OpenAI() if p else
    # Anthropic()`): the first attributes through which only the Claude client has methods.
    only: frozenset[str] | None = None


@dataclass(frozen=True)
class OtherClient:
    """Another vendor's client among a choice of objects (`OpenAI() if p else Anthropic()`),
    reached through `path`: `lacks` names the Claude client's attributes it has not, as
    `Resolver._other_vendor` decides."""

    lacks: frozenset[str]
    path: tuple[str, ...] = ()


@dataclass(frozen=True)
class LocalFunction:
    node: cst.FunctionDef
    scope: Scope


@dataclass(frozen=True)
class LocalClass:
    info: ClassInfo


@dataclass(frozen=True)
class LocalInstance:
    info: ClassInfo


@dataclass(frozen=True)
class ProjectFunction:
    """A function or method of a project module (this one or another), known by its summary."""

    module: str
    qualname: str  # "ask", "Chat.ask", "Chat.__init__" for a class called
    bound: bool = False  # called on an instance (or a class): its first parameter is given


@dataclass(frozen=True)
class ProjectClass:
    module: str
    name: str


@dataclass(frozen=True)
class ProjectInstance:
    module: str
    name: str


@dataclass(frozen=True)
class ProjectInstances:
    """An instance of one of several project classes, chosen at run time (a factory's
    `{"a": A, "b": B}[kind]()`)."""

    options: tuple[ProjectInstance, ...]


@dataclass(frozen=True)
class Partial:
    """`functools.partial(func, **bound)` of this module: calling it calls `func` with them."""

    func: Instance | Qual
    node: cst.Call
    scope: Scope


@dataclass(frozen=True)
class Super:
    """`super()` in a method of a class of this module."""

    info: ClassInfo


@dataclass(frozen=True)
class ClientMap:
    """A dict whose items are Claude clients of one class (`clients[key] = make_client()`)."""

    cls: str


@dataclass(frozen=True)
class ClassTable:
    """A module-level registry of project classes by literal keys (`PROVIDERS = {"claude":
    ClaudeProvider}`), as the project phase proved it (no code of the run changes it)."""

    entries: tuple[tuple[str, str, str], ...]  # (key, module, class)


@dataclass(frozen=True)
class InstanceTable:
    """A dict of project instances by literal keys every in-project call hands a parameter
    (`Orchestrator({"claude": ClaudeAgent(key), "echo": EchoAgent()})`), as the project phase
    proved it (no file of the run changes its items)."""

    entries: tuple[tuple[str, str, str], ...]  # (key, module, class)


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
# A binding not yet resolved (`Resolver._bound` holds None for one in progress).
_NOT_BOUND: Any = object()
Symbol = (
    Qual
    | Instance
    | LocalFunction
    | LocalClass
    | LocalInstance
    | ProjectFunction
    | ProjectClass
    | ProjectInstance
    | ProjectInstances
    | ClientMap
    | ClassTable
    | InstanceTable
    | Super
    | Partial
    | _Unknown
)


def _literal_key(node: cst.Subscript) -> str | None:
    """Return the key of `d["key"]` when it is one plain string literal, else None."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    index = node.slice[0].slice.value
    if not isinstance(index, cst.SimpleString):
        return None
    value = index.evaluated_value
    return value if isinstance(value, str) else None


def _get_key(node: cst.Call) -> str | None:
    """Return the key of `d.get("key")` (one plain string literal, no default), else None."""
    if not isinstance(node.func, cst.Attribute) or node.func.attr.value != "get":
        return None
    if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        return None
    value = node.args[0].value
    found = value.evaluated_value if isinstance(value, cst.SimpleString) else None
    return found if isinstance(found, str) else None


def _getattr_name(node: cst.Call) -> str | None:
    """Return the literal attribute name of `getattr(obj, "name")` (no default), else None."""
    if not (isinstance(node.func, cst.Name) and node.func.value == "getattr"):
        return None
    if len(node.args) != 2 or any(arg.star or arg.keyword for arg in node.args):
        return None
    name = string_value(node.args[1].value)
    return name if name is not None and name.isidentifier() else None


def _all_sdk_clients(symbols: Sequence[Symbol]) -> bool:
    return all(
        isinstance(s, Instance) and not s.path and is_sdk_client_class(s.cls) for s in symbols
    )


def _first_client(symbols: Sequence[Symbol]) -> Symbol:
    """Return the first of several SDK clients a name may hold, for all of them: without a
    base URL (`Instance.info`) unless every one has the same (a client of a server of other
    models only in one branch, Anthropic's in the other: Claude's)."""
    first = symbols[0]
    if isinstance(first, Instance) and any(
        isinstance(s, Instance) and s.info != first.info for s in symbols
    ):
        return Instance(first.cls, first.path, "", first.only)
    return first


def _restricted(symbol: Symbol, only: frozenset[str] | None) -> Symbol:
    """Return a Claude client that may be another vendor's instead: Claude's through `only`."""
    if only is None:
        return symbol
    if not isinstance(symbol, Instance) or symbol.path or not is_sdk_client_class(symbol.cls):
        return UNKNOWN
    restricted = only if symbol.only is None else only & symbol.only
    return Instance(symbol.cls, (), symbol.info, restricted)


def _plain_data(node: cst.BaseExpression) -> bool:
    """Return whether an expression is a literal of a built-in type (dict, list, string...)."""
    return isinstance(
        node,
        (
            cst.Dict,
            cst.List,
            cst.Tuple,
            cst.Set,
            cst.SimpleString,
            cst.ConcatenatedString,
            cst.FormattedString,
            cst.Integer,
            cst.Float,
        ),
    )


def _none_binding(binding: Binding) -> bool:
    """Return whether a binding assigns `None` (`client = None`, `OpenAI = None`)."""
    value = binding.value
    return binding.kind == "assign" and isinstance(value, cst.Name) and value.value == "None"


def _assigned(bindings: list[Binding]) -> Iterator[Binding]:
    """Yield the bindings that give a name a value (all but its annotations)."""
    return (b for b in bindings if b.kind != "annotation")


# What a name's assignments leave to its annotation (`_decided`).
_BY_ANNOTATION: Any = object()


def _decided(results: list[Symbol], only: frozenset[str] | None) -> Symbol:
    """Return what a name's assignments make it, or `_BY_ANNOTATION` when they prove nothing
    and no other vendor's client is among them (its annotation, if any, says what it is)."""
    known = [r for r in results if r is not UNKNOWN]
    if results and len(known) == len(results) and all(r == known[0] for r in known):
        return _restricted(known[0], only)
    if results and len(known) == len(results) and _all_sdk_clients(known):
        # A client bound in both branches of an `if` (`AnthropicVertex(...)` or `Anthropic()`).
        return _restricted(_first_client(known), only)
    if only is not None and known and _all_sdk_clients(known):
        # A provider switch (`OpenAI()` / `Anthropic()` / a cached one of unknown origin): a
        # method only the Claude client has is called on the Claude client, as with `or`.
        return _restricted(_first_client(known), only)
    return _BY_ANNOTATION if only is None else UNKNOWN


# Calls that bind arguments to a function for later.
PARTIALS = ("functools.partial",)
# Imports by a literal name, read as the `import` statement they stand for.
IMPORT_MODULE = "importlib.import_module"
SYS_MODULES = "sys.modules"


def _imported_name(node: cst.Call) -> str | None:
    """Return the absolute module name an `import_module`/`__import__` call is given as its
    one argument, a string literal (None for anything else: a relative or computed name)."""
    if len(node.args) != 1 or node.args[0].keyword is not None or node.args[0].star:
        return None
    value = node.args[0].value
    if not isinstance(value, cst.SimpleString):
        return None
    named = value.evaluated_value
    if not isinstance(named, str) or not all(part.isidentifier() for part in named.split(".")):
        return None
    return named


class Resolver:
    """Answers what an expression is, following only the names it has to."""

    def __init__(self, index: ModuleIndex, project: ProjectView | None = None) -> None:
        assert index.module_scope is not None
        self.index = index
        self.project = project
        self.values = ValueResolver(index.module_scope, self)
        self._scopes = {id(scope.node): scope for scope in index.scopes}
        # What each binding evaluates to, once per module (`_binding_symbol`): a name rebound
        # from itself (`client = client.with_options(...)`) many times would otherwise be
        # followed through every binding at every level, exponentially in the rebindings.
        self._bound: dict[int, Symbol | None] = {}
        # What another vendor's client a binding holds lacks (`_other_vendor`), once per binding.
        self._vendor_of: dict[int, frozenset[str] | None] = {}
        # What a list of bindings decides (`_binding_symbols`), once all of them are resolved:
        # the list itself (keeping its `id` from reuse), its annotations, the decision.
        self._unions: dict[int, tuple[list[Binding], list[Binding], Symbol]] = {}

    def scope_of(self, node: cst.CSTNode | None) -> Scope | None:
        """Return the scope a function or class definition of this module opens."""
        return None if node is None else self._scopes.get(id(node))

    # The project ----------------------------------------------------------------------------
    def _qual(self, qualname: str) -> Symbol:
        """Return what an import path names: a project module's export, or the path itself.

        A path the target registry describes is the registry's (`registry.described`), even
        where the project defines it: a library's own repository calling its Claude class."""
        if self.project is None:
            return Qual(qualname)
        absolute = self.project.absolute(qualname)
        found = self.project.lookup(qualname)
        if found is not None and found[0] == "ref":
            # The project's module binds it to a library's path (its own name shadowing
            # another library's, or a re-export): the phase says which.
            return Qual(found[1])
        if described(absolute):
            return Qual(absolute)
        if found is None:
            return Qual(self.project.absolute(qualname))
        if found[0] == "choice":
            found = self._chosen_function(found[1])
            if found is None:
                return Qual(self.project.absolute(qualname))
        kind = found[0]
        if kind == "client":
            return Instance(found[1], only=frozenset(found[2]) if len(found) > 2 else None)
        if kind == "items":
            return ClientMap(found[1])
        if kind == "classes":
            return ClassTable(tuple((key, *entry) for key, entry in sorted(found[1].items())))
        if kind == "func":
            return ProjectFunction(found[1], found[2])
        if kind == "class":
            return ProjectClass(found[1], found[2])
        if kind == "obj":
            return ProjectInstance(found[1], found[2])
        return Qual(self.project.absolute(qualname))

    def _chosen_function(self, options: list[list[Any]]) -> list[Any] | None:
        """Return the one function of several a name may be (imported in each branch of an
        `if` chain) that passes its arguments on to a Claude call; None when none or several
        do, or when one is not a function (as `_chosen_member` decides for methods)."""
        assert self.project is not None
        reaching = []
        for option in options:
            if option[0] != "func":
                return None
            facts = self.project.function(option[1], option[2]) or {}
            if facts.get("reaches") or facts.get("forwards"):
                reaching.append(option)
        return reaching[0] if len(reaching) == 1 else None

    def bound_outside(self, name: str) -> bool:
        """Return whether another file of the run may bind this module's top-level `name`
        (`chat.MODEL = "gpt-4o"`, `setattr(chat, "MODEL", m)`): the project phase decides."""
        if self.project is None:
            return False
        own = self.project.modules.get(self.project.module, {})
        return name in own.get("bound_outside", ())

    def bound_alike(self, name: str) -> tuple[str, ...]:
        """Return the files of the run that bind this module's top-level `name` from outside
        to the literal the module gives it (`generate.MAX_TOKENS = MAX_TOKENS` from a preset
        holding the same value): the phase reads the literal as sent, but a fix of it alone
        is undone when they run."""
        if self.project is None:
            return ()
        own = self.project.modules.get(self.project.module, {})
        return tuple(own.get("bound_alike", {}).get(name, ()))

    def spread_kept(self, name: str) -> frozenset[str] | None:
        """Return the keys whose entries a request dict of this module keeps as sent before a
        spread of `Class.attr`, an instance's dict its constructor's parameter gives
        (`{"temperature": self.config.temperature, **self.message_params}`): the project
        phase found an in-project constructor call sending each (`spread_kept`)."""
        if self.project is None:
            return None
        own = self.project.modules.get(self.project.module, {})
        kept = own.get("spread_kept", {}).get(name)
        return frozenset(kept) if kept else None

    def own_function(self, qualname: str) -> dict[str, Any] | None:
        """Return the project facts of a function of this module, by its qualified name."""
        if self.project is None:
            return None
        return self.project.function(self.project.module, qualname)

    def _member(self, module: str, cls: str, attr: str) -> Symbol:
        """Return a method or a client attribute of a project class's instance."""
        if self.project is None:
            return UNKNOWN
        facts = self.project.modules.get(module)
        if facts is None:
            return UNKNOWN
        held = facts["classes"].get(cls, {})
        client = held.get("clients", {}).get(attr)
        if client:
            only = held.get("only", {}).get(attr)
            return Instance(client, only=None if only is None else frozenset(only))
        if f"{cls}.{attr}" in facts["functions"]:
            return ProjectFunction(module, f"{cls}.{attr}", bound=True)
        base = held.get("client_base")
        if base and not attr.startswith("_") and attr not in held.get("defines", ()):
            # A subclass of an SDK client: what it does not define is the client's.
            return Instance(base, (attr,))
        return UNKNOWN

    def _chosen_member(self, choice: ProjectInstances, attr: str) -> Symbol:
        """Return the method a call on one of several project classes' instances may run: the
        one alternative whose method passes its arguments on to a Claude call (the others' reach
        none), else unknown."""
        assert self.project is not None
        reaching: list[Symbol] = []
        for option in choice.options:
            member = self._member(option.module, option.name, attr)
            if member is UNKNOWN:
                continue  # a method with nothing to tell: it reaches no Claude call we know
            if not isinstance(member, ProjectFunction):
                return UNKNOWN
            facts = self.project.function(member.module, member.qualname) or {}
            if (facts.get("reaches") or facts.get("forwards")) and member not in reaching:
                reaching.append(member)
        return reaching[0] if len(reaching) == 1 else UNKNOWN

    # Names ----------------------------------------------------------------------------------
    def _binding_symbols(self, bindings: list[Binding], depth: int) -> Symbol:
        """Return what a name is, from all its bindings (or an attribute's, `self.x = ...`).

        What the bindings other than annotations decide is kept per list of bindings once each
        of them is resolved: a name rebound n times and read n times is n steps, not n * n.
        """
        known = self._unions.get(id(bindings))
        if known is not None and known[0] is bindings:
            typed = self._annotated(known[1], depth)
            return typed if known[2] is _BY_ANNOTATION else known[2]
        typed = UNKNOWN
        results: list[Symbol] = []
        only: frozenset[str] | None = None
        annotations: list[Binding] = []
        settled = True
        for binding in bindings:
            if binding.kind == "annotation":
                annotations.append(binding)
                if binding.value is not None:
                    typed = self.type_of(binding.value, binding.scope, depth + 1)
                continue
            if (
                binding.kind == "assign"
                and isinstance(binding.value, cst.Name)
                and binding.value.value == "None"
            ):
                # `client = None` before a lazy initialisation: calling a method on it means
                # it holds the other assignment by then.
                continue
            key = id(binding)
            if binding.kind == "assign" and binding.value is not None:
                lacks = (
                    self._vendor_of[key]
                    if key in self._vendor_of
                    else self._binding_vendor(binding, depth)
                )
                if lacks is not None:
                    # `client = OpenAI()` in one branch: only a Claude-only method is Claude's.
                    only = lacks if only is None else only & lacks
                    continue
            found = self._bound.get(key, _NOT_BOUND)
            if found is _NOT_BOUND:
                results.append(self._binding_symbol(binding, depth))
            elif found is None:
                settled = False  # in progress: what it gives is not known yet
                results.append(UNKNOWN)
            else:
                results.append(found)
        decided = _decided(results, only)
        if settled and bindings:
            # Held with the list, whose `id` is the key: it cannot be reused while kept.
            self._unions[id(bindings)] = (bindings, annotations, decided)
        return typed if decided is _BY_ANNOTATION else decided

    def _annotated(self, annotations: list[Binding], depth: int) -> Symbol:
        """Return the instance the last of a name's annotations describes (each is read, as
        the walk over all of its bindings reads them)."""
        typed: Symbol = UNKNOWN
        for binding in annotations:
            if binding.value is not None:
                typed = self.type_of(binding.value, binding.scope, depth + 1)
        return typed

    def _binding_vendor(self, binding: Binding, depth: int) -> frozenset[str] | None:
        """Return `_other_vendor` of an assignment's value, computed once per binding."""
        if binding.value is None:
            return None
        key = id(binding)
        if key not in self._vendor_of:
            self._vendor_of[key] = self._other_vendor(binding.value, binding.scope, depth + 1)
        return self._vendor_of[key]

    def _binding_symbol(self, binding: Binding, depth: int) -> Symbol:
        """Return what one binding gives its name, computed once; a binding that depends on
        itself (through the same name, as a self-rebinding does) is UNKNOWN, as the depth limit
        made it before."""
        key = id(binding)
        if key in self._bound:
            found = self._bound[key]
            return UNKNOWN if found is None else found
        self._bound[key] = None  # in progress: a cycle back to it gives UNKNOWN
        symbol = self._evaluate_binding(binding, depth)
        self._bound[key] = symbol
        return symbol

    def _evaluate_binding(self, binding: Binding, depth: int) -> Symbol:
        if binding.kind == "import":
            return self._qual(binding.qualname)
        if binding.kind == "assign" and binding.value is not None:
            return self.resolve(binding.value, binding.scope, depth + 1)
        if binding.kind == "with" and binding.value is not None:
            # SDK clients, HTTP clients and sessions return themselves from __enter__.
            result = self.resolve(binding.value, binding.scope, depth + 1)
            return result if isinstance(result, Instance) and not result.path else UNKNOWN
        if binding.kind == "param":
            if binding.value is not None:
                return self.type_of(binding.value, binding.scope, depth + 1)
            function = binding.scope
            if function.method_of is not None and binding.order == min(
                b.order for bs in function.bindings.values() for b in bs if b.kind == "param"
            ):
                return LocalInstance(function.method_of)
            return self._handed_param(binding, function)
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            scope = self._scopes.get(id(binding.node))
            return LocalFunction(binding.node, scope) if scope is not None else UNKNOWN
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            scope = self._scopes.get(id(binding.node))
            if scope is not None and scope.class_info is not None:
                return LocalClass(scope.class_info)
        return UNKNOWN

    def _handed_param(self, binding: Binding, function: Scope) -> Symbol:
        """Return what every in-project caller that proves anything binds an un-annotated
        parameter to (the project phase decided it; ambiguous ones are left out): a Claude
        client, an instance of one project class (or of one of a few), or a dict of project
        instances."""
        facts = self.own_function(function.qualname)
        if facts is None:
            return UNKNOWN
        for name, bindings in function.bindings.items():
            if binding in bindings:
                return _given(facts, name)
        return UNKNOWN

    def type_of(self, annotation: cst.BaseExpression, scope: Scope, depth: int = 0) -> Symbol:
        """Return the instance an annotation describes (`Anthropic`, `Optional[Anthropic]`...)."""
        if depth > MAX_DEPTH:
            return UNKNOWN
        text = string_value(annotation)
        if text is not None:
            try:
                parsed = cst.parse_expression(text)
            except cst.ParserSyntaxError:
                return UNKNOWN
            return self.type_of(parsed, scope, depth + 1)
        if isinstance(annotation, cst.BinaryOperation) and isinstance(
            annotation.operator, cst.BitOr
        ):
            sides = (annotation.left, annotation.right)
            nones = [s for s in sides if isinstance(s, cst.Name) and s.value == "None"]
            real = [self.type_of(s, scope, depth + 1) for s in sides if s not in nones]
            known = [r for r in real if r is not UNKNOWN]
            if len(real) == 1 and len(known) == 1:
                return known[0]
            if real and len(known) == len(real) and _all_sdk_clients(known):
                return _first_client(known)  # `Anthropic | AnthropicBedrock`: Claude's either way
            return UNKNOWN
        if isinstance(annotation, cst.Subscript):
            base = self.resolve(annotation.value, scope, depth + 1)
            if isinstance(base, Qual) and base.name.endswith(".Optional") and annotation.slice:
                element = annotation.slice[0].slice
                if isinstance(element, cst.Index):
                    return self.type_of(element.value, scope, depth + 1)
            return UNKNOWN
        target = self.resolve(annotation, scope, depth + 1)
        if isinstance(target, Qual):
            if is_sdk_client_class(target.name):
                return Instance(target.name)
            if target.name in HTTP_CLIENTS:
                return Instance(HTTP_CLIENTS[target.name])
        if isinstance(target, LocalClass):
            return LocalInstance(target.info)
        if isinstance(target, ProjectClass):
            # A class of another project module (`def ask(provider: Provider)`): an instance
            # of it, as a local class's annotation is.
            return ProjectInstance(target.module, target.name)
        return UNKNOWN

    # Expressions ----------------------------------------------------------------------------
    def resolve(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> Symbol:
        """Return what `node` evaluates to, as far as the module proves it."""
        if depth > MAX_DEPTH:
            return UNKNOWN
        if isinstance(node, cst.Name):
            return self._binding_symbols(scope.lookup(node.value), depth)
        if isinstance(node, cst.Attribute):
            base = self.resolve(node.value, scope, depth + 1)
            return self._attribute(base, node.attr.value, depth)
        if isinstance(node, cst.Subscript):
            base = self.resolve(node.value, scope, depth + 1)
            if isinstance(base, ClientMap):
                return Instance(base.cls)
            key = _literal_key(node)
            if isinstance(base, InstanceTable):
                # The agent a literal key selects; another key's is not known here.
                chosen = [(m, c) for k, m, c in base.entries if k == key]
                return ProjectInstance(*chosen[0]) if key is not None and chosen else UNKNOWN
            if key is not None and isinstance(base, Qual) and base.name == SYS_MODULES:
                return self._qual(key)  # `sys.modules["anthropic"]`: the module itself
            if key is not None:
                return self._table_class(node.value, key, scope, depth)
            return self._item_of(node.value, scope, depth)
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            return self._choice([node.left, node.right], scope, depth)
        if isinstance(node, cst.IfExp):
            return self._choice([node.body, node.orelse], scope, depth)
        if isinstance(node, cst.Call):
            return self._call_result(node, scope, depth)
        if isinstance(node, cst.Await):
            return self.resolve(node.expression, scope, depth + 1)
        return UNKNOWN

    def _attribute(self, base: Symbol, attr: str, depth: int) -> Symbol:
        """Return what `base.attr` is, for each kind of object `base` may be."""
        if isinstance(base, Qual):
            return self._qual(f"{base.name}.{attr}")
        if isinstance(base, Instance):
            if base.only is not None and attr not in base.only:
                return UNKNOWN  # the other vendor's client has it too
            return Instance(base.cls, (*base.path, attr), base.info)
        if isinstance(base, LocalInstance):
            return self._local_member(base.info, attr, depth)
        if isinstance(base, ProjectInstance):
            return self._member(base.module, base.name, attr)
        if isinstance(base, ProjectInstances):
            return self._chosen_member(base, attr)
        if isinstance(base, Super):
            return self._super_member(base.info, attr, depth)
        if isinstance(base, ProjectClass):
            return self._class_function(base, attr)
        return UNKNOWN

    def _local_member(self, info: ClassInfo, attr: str, depth: int) -> Symbol:
        """Return an attribute of an instance of a class of this module: what its assignments
        (`self.attr = ...`) give it, else what the project phase knows of the class."""
        bindings = info.attributes.get(attr)
        if bindings:
            return self._binding_symbols(bindings, depth)
        if self.project is not None:
            return self._member(self.project.module, info.scope.qualname, attr)
        return UNKNOWN

    def _class_function(self, cls: ProjectClass, attr: str) -> Symbol:
        """Return a function read from a project class (`Chat.ask`), unbound."""
        qualname = f"{cls.name}.{attr}"
        if self.project is None or self.project.function(cls.module, qualname) is None:
            return UNKNOWN
        return ProjectFunction(cls.module, qualname)

    def _table_class(self, node: cst.BaseExpression, key: str, scope: Scope, depth: int) -> Symbol:
        """Return the class a registry of project classes holds under a literal key
        (`PROVIDERS["claude"]`): one imported, or this module's own, as the phase proved it
        (`ClassTable`); unknown for any other dict, or a key it does not hold."""
        table = self.resolve(node, scope, depth + 1)
        if not isinstance(table, ClassTable) and isinstance(node, cst.Name):
            table = self._own_table(node.value, scope)
        if not isinstance(table, ClassTable):
            return UNKNOWN
        for name, module, cls in table.entries:
            if name == key:
                return ProjectClass(module, cls)
        return UNKNOWN

    def _own_table(self, name: str, scope: Scope) -> Symbol:
        """Return a registry of classes this module binds once at its top level."""
        if self.project is None:
            return UNKNOWN
        bindings = [b for b in scope.lookup(name) if b.kind != "annotation"]
        if len(bindings) != 1 or bindings[0].kind != "assign" or bindings[0].scope.parent:
            return UNKNOWN
        own = self.project.modules.get(self.project.module, {}).get("names", {}).get(name)
        if not own or own[0] != "classes":
            return UNKNOWN
        return ClassTable(tuple((key, *entry) for key, entry in sorted(own[1].items())))

    def _item_of(self, node: cst.BaseExpression, scope: Scope, depth: int) -> Symbol:
        """Return what every item of a dict of this module is (`clients[key] = make(key)`).

        The dict is a name or a `self.<attr>`, every assignment of it is a dict literal, and
        every value put in it (by the literal or by `d[key] = value`) is a Claude client of one
        class (or of the SDK's classes): an item is one. Anything else is unknown.
        """
        values = self._dict_values(node, scope)
        if values is None:
            return UNKNOWN
        found = [self.resolve(value, where, depth + 1) for value, where in values]
        if not found or not all(isinstance(f, Instance) and not f.path for f in found):
            return UNKNOWN
        if all(f == found[0] for f in found) or _all_sdk_clients(found):
            assert isinstance(found[0], Instance)
            return Instance(found[0].cls)
        return UNKNOWN

    def _dict_values(
        self, node: cst.BaseExpression, scope: Scope
    ) -> list[tuple[cst.BaseExpression, Scope]] | None:
        """Return every value put in a dict a name or `self.<attr>` holds (its literals' and
        its `d[key] = value` items), or None when one of its assignments is not a dict literal."""
        items: list[Binding] = []
        sets: dict[int, tuple[cst.BaseExpression, Scope]] = {}
        if isinstance(node, cst.Name):
            bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
            if not bindings or any(b.kind != "assign" for b in bindings):
                return None
            sets = self._subscript_sets(node.value, bindings[0].scope.function())
        elif isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name):
            function = scope.function()
            info = function.method_of
            if info is None or node.value.value != function.self_name:
                return None
            bindings = info.attributes.get(node.attr.value, [])
            items = info.items.get(node.attr.value, [])
        else:
            return None
        values: list[tuple[cst.BaseExpression, Scope]] = []
        for binding in bindings:
            if binding.kind != "assign" or not isinstance(binding.value, cst.Dict):
                return None
            for element in binding.value.elements:
                if not isinstance(element, cst.DictElement):
                    return None
                values.append((element.value, binding.scope))
        for put in items:
            if put.value is None:
                return None
            values.append((put.value, put.scope))
        values.extend(sets.values())
        return values

    def _subscript_sets(
        self, name: str, owner: Scope
    ) -> dict[int, tuple[cst.BaseExpression, Scope]]:
        """Return the values `name[key] = value` puts in a dict bound in `owner`: in `owner`
        itself, and in every function that does not bind the name when `owner` is the module."""
        sets: dict[int, tuple[cst.BaseExpression, Scope]] = {}
        for other in self.index.scopes:
            function = other.function()
            shared = owner.parent is None and name not in function.bindings
            if function is owner or shared:
                for item in function.subscript_sets.get(name, []):
                    sets[id(item)] = (item.value, function)
        return sets

    def _choice(self, options: list[cst.BaseExpression], scope: Scope, depth: int) -> Symbol:
        """Return what `a or b` / `a if c else b` is: a Claude client when the alternatives are
        Claude clients, `None` or unknown; unknown when one is a proven other object."""
        results: list[Symbol] = []
        only: frozenset[str] | None = None
        for option in options:
            if isinstance(option, cst.Name) and option.value == "None":
                continue
            if self._proven_other(option, scope, depth + 1):
                lacks = self._other_vendor(option, scope, depth + 1)
                if lacks is None:
                    return UNKNOWN
                only = lacks if only is None else only & lacks
                continue
            results.append(self.resolve(option, scope, depth + 1))
        clients = [r for r in results if isinstance(r, Instance) and not r.path]
        if not clients or not _all_sdk_clients(clients) and any(r != clients[0] for r in clients):
            return UNKNOWN
        if any(r is not UNKNOWN and not (isinstance(r, Instance) and not r.path) for r in results):
            return UNKNOWN
        return _restricted(_first_client(clients), only)

    def _other_vendor(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> frozenset[str] | None:
        """Return the Claude client attributes another vendor's client (`OpenAI()`, or a name
        bound only to such clients) lacks, or None when `node` is not proven to be one."""
        if depth > MAX_DEPTH:
            return None
        if _plain_data(node):
            # Settings kept in the client's place for a provider the SDKs do not serve
            # (`client = {"api_key": key, "base_url": url}`): a dict, a list or a string has
            # no `messages`, so a call through it runs on the Claude client.
            return PLAIN_DATA_LACKING
        if isinstance(node, cst.Call):
            root = node.func
            while isinstance(root, cst.Attribute):
                root = root.value
            # Only an imported class is another vendor's (`OpenAI()`, `openai.OpenAI()`): a
            # name's own rebindings (`client = client.with_options(...)`) are not followed. A
            # `None` bound where the import may fail (`except ImportError: OpenAI = None`)
            # makes no object: calling it raises, so what the call returns is the import's.
            if not isinstance(root, cst.Name) or any(
                b.kind != "import" and not _none_binding(b) for b in scope.lookup(root.value)
            ):
                return None
            func = self.resolve(node.func, scope, depth + 1)
            if not isinstance(func, Qual) or func.name not in OTHER_CLIENTS_LACKING:
                return None
            if isinstance(self.resolve(node, scope, depth + 1), Instance):
                return None  # the OpenAI SDK on Anthropic's endpoint is a Claude client
            return OTHER_CLIENTS_LACKING[func.name]
        if isinstance(node, cst.Name):
            found: frozenset[str] | None = None
            for binding in scope.lookup(node.value):
                if binding.kind == "annotation":
                    continue
                if binding.kind != "assign" or binding.value is None:
                    return None
                lacks = self._binding_vendor(binding, depth)
                if lacks is None:
                    return None
                found = lacks if found is None else found & lacks
            return found
        return None

    def _proven_other(self, node: cst.BaseExpression, scope: Scope, depth: int) -> bool:
        """Return whether an expression is proven to be an object other than a Claude client
        (what another vendor's or a local class's constructor made)."""
        if depth > MAX_DEPTH:
            return False
        if isinstance(node, cst.Call):
            if isinstance(self.resolve(node, scope, depth + 1), Instance):
                return False
            func = self.resolve(node.func, scope, depth + 1)
            return isinstance(func, (Qual, LocalClass, ProjectClass))
        if isinstance(node, cst.Name):
            bindings = [b for b in scope.lookup(node.value) if b.kind == "assign"]
            return any(
                b.value is not None and self._proven_other(b.value, b.scope, depth + 1)
                for b in bindings
            )
        return False

    def _super_member(self, info: ClassInfo, attr: str, depth: int) -> Symbol:
        """Return the method `super().attr` runs: the first base class's (as the project
        phase resolved it through that class's own bases)."""
        bases = info.node.bases
        if self.project is None or not bases:
            return UNKNOWN
        own = f"{info.scope.qualname}.{SUPER}.{attr}"
        if self.project.function(self.project.module, own) is not None:
            # The phase read it on an instance of this class: what the base's `__init__`
            # keeps in `self` reaches this class's own Claude calls too.
            return ProjectFunction(self.project.module, own, bound=True)
        base = self.resolve(bases[0].value, info.scope.parent or info.scope, depth + 1)
        if isinstance(base, LocalClass):
            module, name = self.project.module, base.info.scope.qualname
        elif isinstance(base, ProjectClass):
            module, name = base.module, base.name
        elif isinstance(base, Qual) and attr == "__init__":
            # A library class's constructor (`class ClaudeLLM(ChatAnthropic)`): the class, as
            # `super().__init__(model=...)` makes one of it.
            return base
        else:
            return UNKNOWN
        if self.project.function(module, f"{name}.{attr}") is None:
            return UNKNOWN
        return ProjectFunction(module, f"{name}.{attr}", bound=True)

    def _call_result(self, node: cst.Call, scope: Scope, depth: int) -> Symbol:
        builtin = self._builtin_call(node, scope, depth)
        if builtin is not None:
            return builtin
        key = _get_key(node)
        if key is not None:
            # `PROVIDERS.get("claude")`: the key is in the registry, or nothing is known.
            assert isinstance(node.func, cst.Attribute)
            found = self._table_class(node.func.value, key, scope, depth)
            if found is not UNKNOWN:
                return found
        func = self.resolve(node.func, scope, depth + 1)
        if isinstance(func, Qual):
            return self._imported_call(func.name, node, scope, depth)
        if isinstance(func, Instance):
            if func.path in CLIENT_COPIES and is_sdk_client_class(func.cls):
                return Instance(func.cls)
            if func.cls == "boto3.Session" and func.path == ("client",):
                return self._boto3_client(node, scope)
            return UNKNOWN
        if isinstance(func, LocalFunction):
            return self._chosen_return(func, node, scope) or self._returns_of(func, depth)
        if isinstance(func, LocalClass):
            return LocalInstance(func.info)
        if isinstance(func, ProjectFunction) and self.project is not None:
            return self._project_returns(func, node, scope)
        if isinstance(func, ProjectClass):
            return ProjectInstance(func.module, func.name)
        return UNKNOWN

    def _builtin_call(self, node: cst.Call, scope: Scope, depth: int) -> Symbol | None:
        """Return what `getattr(obj, "name")` or `super()` is (builtins the module does not
        rebind), or None for any other call."""
        named = _getattr_name(node)
        if named is not None and not scope.lookup("getattr"):
            # `getattr(client, "messages")` with a literal name is `client.messages`.
            base = self.resolve(node.args[0].value, scope, depth + 1)
            if isinstance(base, Instance):
                return Instance(base.cls, (*base.path, named), base.info)
            return UNKNOWN
        if (
            isinstance(node.func, cst.Name)
            and node.func.value == "super"
            and not node.args
            and not scope.lookup("super")
        ):
            method_of = scope.function().method_of
            return Super(method_of) if method_of is not None else UNKNOWN
        if (
            isinstance(node.func, cst.Name)
            and node.func.value == "__import__"
            and not scope.lookup("__import__")
        ):
            # `__import__("anthropic")` is `import anthropic` (a dotted name gives its top
            # package, as the statement binds it).
            named = _imported_name(node)
            return self._qual(named.split(".")[0]) if named is not None else UNKNOWN
        return None

    def _imported_call(self, name: str, node: cst.Call, scope: Scope, depth: int) -> Symbol:
        """Return what calling an imported name makes: a client of a known library, a partial."""
        if name in PARTIALS:
            return self._partial(node, scope, depth)
        if name == IMPORT_MODULE:
            # `importlib.import_module("anthropic")` is the module a literal name names.
            named = _imported_name(node)
            return self._qual(named) if named is not None else UNKNOWN
        if is_sdk_client_class(name):
            # A first-party client sent to a server of other models only keeps its base URL:
            # its calls are Claude's only with a Claude model (`calls._on_other_server`).
            base_url = self.argument(node, scope, "base_url", None)
            if base_url and is_first_party_client(name) and serves_other_models(base_url):
                return Instance(name, (), base_url)
            return Instance(name)
        if name in HTTP_CLIENTS:
            base_url = self.argument(node, scope, "base_url", None)
            return Instance(HTTP_CLIENTS[name], (), base_url or "")
        if name in BOTO3_CLIENT_FACTORIES:
            return self._boto3_client(node, scope)
        if name in BOTO3_SESSIONS:
            return Instance("boto3.Session")
        if name in LITELLM_ROUTERS:
            return Instance(LITELLM_ROUTER)
        if name in AISUITE_CLIENTS:
            return Instance(AISUITE_CLIENT)
        return self._library_client(name, node, scope, depth)

    def _project_returns(
        self, func: ProjectFunction, node: cst.Call | None = None, scope: Scope | None = None
    ) -> Symbol:
        """Return what a project function returns, as the project phase proved it: a Claude
        client, an instance of one project class, or of one of several (those the call's
        literal arguments leave possible: `make("local")`)."""
        assert self.project is not None
        facts = self.project.function(func.module, func.qualname)
        if facts is not None and facts.get("returns"):
            only = facts.get("returns_only")
            return Instance(facts["returns"], only=None if only is None else frozenset(only))
        pairs = (facts or {}).get("returns_objects", [])
        choices = (facts or {}).get("return_choices")
        if choices and node is not None and scope is not None:
            pairs = self._possible_returns(choices, node, scope) or pairs
        objects = [ProjectInstance(m, c) for m, c in pairs]
        if len(objects) > 1:
            return ProjectInstances(tuple(objects))
        return objects[0] if objects else UNKNOWN

    def _chosen_return(self, func: LocalFunction, node: cst.Call, scope: Scope) -> Symbol | None:
        """Return the classes a call of a factory of this module may get when it returns one of
        several under tests of its parameters (`make("openai")`), or None: its own returns, and
        not their common annotated base (a call of an abstract method there may run any
        override), are what the call's literal arguments select among."""
        facts = self.own_function(func.scope.qualname) if self.project is not None else None
        choices = (facts or {}).get("return_choices")
        if not choices:
            return None
        objects = [ProjectInstance(m, c) for m, c in self._possible_returns(choices, node, scope)]
        if len(objects) > 1:
            return ProjectInstances(tuple(objects))
        return objects[0] if objects else None

    def _possible_returns(
        self, choices: dict[str, Any], node: cst.Call, scope: Scope
    ) -> list[list[str]]:
        """Return the classes a call may get from a function returning one of several under
        tests of its parameters (`if kind == "claude": return ClaudeChat()`), its string
        literal arguments ruling the others out (the project phase's `return_choices`)."""
        given: dict[str, str] = {}
        positional = list(choices["positional"])
        starred = any(arg.star == "*" for arg in node.args)
        index = 0
        for arg in node.args:
            if arg.star:
                continue
            if arg.keyword is not None:
                name: str | None = arg.keyword.value
            elif not starred and index < len(positional):
                name, index = positional[index], index + 1
            else:
                name = None
            value = self.values.value(arg.value, scope) if name is not None else None
            if name is not None and value is not None and isinstance(value.value, str):
                given[name] = value.value
        found: list[list[str]] = []
        for made, tests in choices["returns"]:
            ruled_out = any(
                name in given and (given[name] in values) != equal for name, values, equal in tests
            )
            if not ruled_out and made not in found:
                found.append(made)
        return found

    def _partial(self, node: cst.Call, scope: Scope, depth: int) -> Symbol:
        """Return `functools.partial(client.messages.create, model=...)` as what it calls."""
        if not node.args or node.args[0].keyword is not None or node.args[0].star:
            return UNKNOWN
        if any(arg.keyword is None for arg in node.args[1:]):
            return UNKNOWN  # bound positional arguments: not a call shape we read
        func = self.resolve(node.args[0].value, scope, depth + 1)
        if isinstance(func, (Instance, Qual)):
            return Partial(func, node, scope)
        return UNKNOWN

    def _boto3_client(self, node: cst.Call, scope: Scope) -> Symbol:
        service = self.argument(node, scope, "service_name", 0)
        if service == "bedrock-runtime":
            return Instance(BEDROCK_RUNTIME)
        if service == "bedrock-agent-runtime":
            return Instance(BEDROCK_AGENT_RUNTIME)
        return UNKNOWN

    def _library_client(self, name: str, node: cst.Call, scope: Scope, depth: int) -> Symbol:
        """Return the Claude client another library's constructor makes, when it is proven."""
        if name in OPENAI_CLIENTS:
            base_url = self.argument(node, scope, "base_url", None)
            if base_url is not None and ANTHROPIC_OPENAI_URL.match(base_url.strip()):
                return Instance(OPENAI_ON_ANTHROPIC)
            return UNKNOWN
        if name in INSTRUCTOR_FROM_ANTHROPIC:
            for index, arg in enumerate(node.args):
                named = arg.keyword is not None and arg.keyword.value == "client"
                if arg.star or not (named or (arg.keyword is None and index == 0)):
                    continue
                client = self.resolve(arg.value, scope, depth + 1)
                if not isinstance(client, Instance) or client.path:
                    return UNKNOWN
                sdk = is_sdk_client_class(client.cls)
                return Instance(INSTRUCTOR_ON_ANTHROPIC) if sdk else UNKNOWN
            return UNKNOWN
        if name in INSTRUCTOR_FROM_PROVIDER:
            model = self.argument(node, scope, "model", 0)
            if model is not None and model.strip().startswith(PROVIDER_PREFIX):
                return Instance(INSTRUCTOR_ON_ANTHROPIC)
        return UNKNOWN

    def argument(
        self, node: cst.Call, scope: Scope, keyword: str, position: int | None
    ) -> str | None:
        """Return a string argument of a call, by keyword or position, when it is proven."""
        for index, arg in enumerate(node.args):
            if arg.star:
                continue
            if (arg.keyword is not None and arg.keyword.value == keyword) or (
                arg.keyword is None and position is not None and index == position
            ):
                value = self.values.value(arg.value, scope)
                return value.value if value.known and isinstance(value.value, str) else None
        return None

    def _returns_of(self, func: LocalFunction, depth: int) -> Symbol:
        results = [self.resolve(value, func.scope, depth + 1) for value in func.scope.returns]
        known = [r for r in results if r is not UNKNOWN]
        if results and len(known) == len(results) and all(r == known[0] for r in known):
            return known[0]
        if func.node.returns is not None:
            typed = self.type_of(
                func.node.returns.annotation, func.scope.parent or func.scope, depth + 1
            )
            if typed is not UNKNOWN:
                return typed
        # What the project phase proved it returns (a client cached on a thread-local).
        facts = self.own_function(func.scope.qualname)
        if facts is not None and facts.get("returns"):
            only = facts.get("returns_only")
            return Instance(facts["returns"], only=None if only is None else frozenset(only))
        return UNKNOWN

    def project_constant(
        self, node: cst.BaseExpression, attr: str, scope: Scope
    ) -> tuple[Any, str, bool] | None:
        """Return (value, "Config.MODEL", reported) for a class-level constant of another
        project module; `reported` when the project phase has it reported in its class body,
        with the Claude calls reading it (`read_by`)."""
        symbol = self.resolve(node, scope)
        if not isinstance(symbol, ProjectClass) or self.project is None:
            return None
        facts = self.project.modules.get(symbol.module) or {}
        constants = facts.get("classes", {}).get(symbol.name, {}).get("constants", {})
        if attr not in constants:
            return None
        name = f"{symbol.name}.{attr}"
        return constants[attr], name, name in facts.get("read_by", {})

    def local_class(self, node: cst.BaseExpression, scope: Scope) -> ClassInfo | None:
        """Return the class of this module an expression names, if it names one."""
        symbol = self.resolve(node, scope)
        return symbol.info if isinstance(symbol, LocalClass) else None

    def qualname(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """Return the import path a callee names, if it is an imported name."""
        symbol = self.resolve(node, scope)
        return symbol.name if isinstance(symbol, Qual) else None

    def project_class_path(self, node: cst.BaseExpression, scope: Scope) -> str | None:
        """Return `module.Class` for a class of another project module an expression names."""
        symbol = self.resolve(node, scope)
        return f"{symbol.module}.{symbol.name}" if isinstance(symbol, ProjectClass) else None

    def resources(self, node: cst.BaseExpression, scope: Scope) -> list[Instance] | None:
        """Return the Claude client resources a choice of objects may give a method call.

        Each alternative is a resource of a Claude client (`endpoint = client.messages if plain
        else client.beta.prompt_caching.messages`, then `endpoint.create(...)`), or of another
        vendor's client that has no such resource (`client = OpenAI() if ... else Anthropic()`,
        then `client.messages.create(...)`: the OpenAI client has no `messages`, so the call can
        only run on the Claude one). None unless there are several alternatives, one at least a
        Claude client's, and every other one another vendor's client lacking the resource: what
        another vendor's client is and lacks is `_other_vendor`'s decision, the same one names and
        choices resolve through (`_binding_symbols`, `_choice`).
        """
        found = self._resources(node, scope, 0)
        if found is None or len(found) < 2:
            return None
        claude = [f for f in found if isinstance(f, Instance) and is_sdk_client_class(f.cls)]
        if not claude or not all(f.path for f in claude):
            return None
        for other in found:
            if other in claude:
                continue
            if not (isinstance(other, OtherClient) and other.path and other.path[0] in other.lacks):
                return None
        return claude

    def _resources(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> list[Instance | OtherClient] | None:
        """Return the objects an expression may be (one when it is not a choice), or None."""
        if depth > MAX_CHOICE_DEPTH:
            return None
        lacks = self._other_vendor(node, scope, depth + 1)
        if lacks is not None:
            return [OtherClient(lacks)]
        if isinstance(node, cst.Attribute):
            bases = self._resources(node.value, scope, depth + 1)
            if bases is not None and len(bases) > 1:
                return [replace(b, path=(*b.path, node.attr.value)) for b in bases]
        options = self._options(node, scope, depth)
        if len(options) == 1:
            return self._resources(options[0][0], options[0][1], depth + 1)
        if not options:
            single = self.resolve(node, scope, depth + 1)
            return [single] if isinstance(single, Instance) else None
        found: list[Instance | OtherClient] = []
        for option, where in options:
            if isinstance(option, cst.Name) and option.value == "None":
                continue  # calling a method on it means it holds another alternative by then
            inner = self._resources(option, where, depth + 1)
            if inner is None:
                return None
            found.extend(inner)
        return found if len(found) <= MAX_CHOICES else None

    def _options(
        self, node: cst.BaseExpression, scope: Scope, depth: int
    ) -> list[tuple[cst.BaseExpression, Scope]]:
        """Return the alternatives an expression chooses between: the sides of `a if c else b`
        and `a or b`, a name's few assignments, what a local function may return."""
        if isinstance(node, cst.IfExp):
            return [(node.body, scope), (node.orelse, scope)]
        if isinstance(node, cst.BooleanOperation) and isinstance(node.operator, cst.Or):
            return [(node.left, scope), (node.right, scope)]
        if isinstance(node, cst.Name):
            # A name's first five bindings tell whether it has few: never more are read.
            bindings = list(islice(_assigned(scope.lookup(node.value)), 5))
            if 0 < len(bindings) <= 4 and all(
                b.kind == "assign" and b.value is not None for b in bindings
            ):
                return [(b.value, b.scope) for b in bindings if b.value is not None]
        elif isinstance(node, cst.Call):
            func = self.resolve(node.func, scope, depth + 1)
            if isinstance(func, LocalFunction) and func.scope.returns:
                return [(value, func.scope) for value in func.scope.returns]
        return []


def _given(facts: dict[str, Any], name: str) -> Symbol:
    """Return what every in-project caller binds a parameter to, as the project phase decided:
    a Claude client (or a client's method the callers hand over: `fn=client.messages.create`),
    an instance of one project class (`call_api(self, ...)`), or of one of a few (a factory's
    result handed on: `Planner(self.llm)`), or a dict of project instances by literal keys;
    unknown when it decided none."""
    if name in facts.get("param_clients", {}):
        cls = facts["param_clients"][name]
        if isinstance(cls, list):
            return Instance(cls[0], tuple(cls[1:]))
        return Instance(cls)
    if name in facts.get("param_objects", {}):
        module, owner = facts["param_objects"][name]
        return ProjectInstance(module, owner)
    if name in facts.get("param_choices", {}):
        return ProjectInstances(
            tuple(ProjectInstance(m, c) for m, c in facts["param_choices"][name])
        )
    if name in facts.get("param_tables", {}):
        # ... or to a dict of project instances by literal keys.
        entries = facts["param_tables"][name]
        return InstanceTable(tuple((str(k), str(m), str(c)) for k, m, c in entries))
    return UNKNOWN
