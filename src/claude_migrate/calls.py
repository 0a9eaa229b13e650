"""Recognise Claude call sites, in every supported client, from one registry.

A *target* says how a call is recognised and where its parameters live; the resolver follows
names (imports, assignments, parameters' annotations, `self.<attr>`, factory functions,
`.with_options()` chains) to decide what a call's receiver is. Only calls proven to reach Claude
become `CallSite`s: an OpenAI client, a local class with a `messages.create` method, or a receiver
we cannot follow is never a Claude call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from .scope import Binding, CallRecord, ClassInfo, ModuleIndex, Scope
    from .values import Entries
else:
    # The registry below is read by the prefilter for every file; LibCST loads at the first
    # resolution, so a tree with no Claude call never imports it.
    cst = lazy_import("libcst")

MAX_DEPTH = 16

# Canonical parameter names the rules ask for.
TEMPERATURE = "temperature"
MAX_TOKENS = "max_tokens"
STOP = "stop_sequences"
STREAM = "stream"
MODEL = "model"

# --- What a receiver is --------------------------------------------------------------------


@dataclass(frozen=True)
class Qual:
    """A module or object known by its import path, e.g. `anthropic.Anthropic`."""

    name: str


@dataclass(frozen=True)
class Instance:
    """An object built by calling a known class, reached through `path` attributes."""

    cls: str
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


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN = _Unknown()
Symbol = Qual | Instance | LocalFunction | LocalClass | LocalInstance | _Unknown

# --- The registry ----------------------------------------------------------------------------

# Every client class of the official SDK: Anthropic, AsyncAnthropic, Client, AsyncClient and the
# platform clients (AnthropicBedrock, AnthropicVertex, AnthropicFoundry, AnthropicAWS, ...), so a
# client class added by a newer SDK is recognised without a code change here.
_SDK_CLIENT = re.compile(r"^(Async)?(Client|Anthropic(?:[A-Z][A-Za-z]*)?)$")


def is_sdk_client_class(qualname: str) -> bool:
    """Return whether an import path names a client class of the `anthropic` SDK."""
    if not qualname.startswith("anthropic."):
        return False
    last = qualname.rsplit(".", 1)[-1]
    return bool(_SDK_CLIENT.match(last)) and not last.endswith(("Error", "Exception"))


@dataclass(frozen=True)
class Target:
    """One kind of Claude call and the names its parameters go by."""

    key: str
    family: str  # "sdk", "bedrock", "langchain", "litellm", "http"
    description: str
    temperature: tuple[str, ...] = (TEMPERATURE,)
    max_tokens: tuple[str, ...] = (MAX_TOKENS,)
    stop: tuple[str, ...] = (STOP,)
    stream: tuple[str, ...] = (STREAM,)
    # True when the call streams by itself (messages.stream); None when a flag decides.
    streams: bool | None = None
    legacy: bool = False

    def names(self, canonical: str) -> tuple[str, ...]:
        return {
            TEMPERATURE: self.temperature,
            MAX_TOKENS: self.max_tokens,
            STOP: self.stop,
            STREAM: self.stream,
            MODEL: (MODEL,),
        }[canonical]

    def __post_init__(self) -> None:
        _TARGETS[self] = None


# Every target ever built, wherever it is kept, for `parameter_names`.
_TARGETS: dict[Target, None] = {}


def parameter_names(canonical: str) -> frozenset[str]:
    """Return every name a canonical parameter goes by in any target (for the prefilter)."""
    return frozenset(name for target in list(_TARGETS) for name in target.names(canonical))


SDK_METHODS: dict[tuple[str, ...], Target] = {
    ("messages", "create"): Target("sdk:messages.create", "sdk", "messages.create"),
    ("messages", "stream"): Target("sdk:messages.stream", "sdk", "messages.stream", streams=True),
    ("beta", "messages", "create"): Target(
        "sdk:beta.messages.create", "sdk", "beta.messages.create"
    ),
    ("beta", "messages", "stream"): Target(
        "sdk:beta.messages.stream", "sdk", "beta.messages.stream", streams=True
    ),
    ("completions", "create"): Target(
        "sdk:completions.create",
        "sdk",
        "completions.create",
        max_tokens=("max_tokens_to_sample",),
        legacy=True,
    ),
}

# Byte strings at least one of which appears in any file holding a call the registry recognises.
# The prefilter skips files with none of them without parsing.
MARKERS: tuple[bytes, ...] = (b"anthropic",)


@dataclass(eq=False)
class CallSite:
    """A call proven to reach Claude, with its parameters as written."""

    record: CallRecord
    target: Target
    params: Entries
    client: str = ""  # the client class, e.g. "anthropic.AsyncAnthropic"
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def node(self) -> cst.Call:
        return self.record.node

    @property
    def is_async(self) -> bool:
        return self.client.rsplit(".", 1)[-1].startswith("Async")

    def param(self, canonical: str):  # type: ignore[no-untyped-def]
        """Return the entry for a canonical parameter, under any of the target's names."""
        return self.params.get(*self.target.names(canonical))

    def may_have(self, canonical: str) -> bool:
        return self.params.may_have(*self.target.names(canonical))


# --- Resolution ------------------------------------------------------------------------------


_MUTATING_METHODS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})


class Resolver:
    """Answers what an expression is, following only the names it has to."""

    def __init__(self, index: ModuleIndex) -> None:
        from .values import ValueResolver

        assert index.module_scope is not None
        self.index = index
        self.values = ValueResolver(index.module_scope)
        self._mutators: dict[int, dict[str, list[int]]] | None = None

    # Names ----------------------------------------------------------------------------------
    def _binding_symbols(self, bindings: list[Binding], depth: int) -> Symbol:
        typed: Symbol = UNKNOWN
        results: list[Symbol] = []
        for binding in bindings:
            if binding.kind == "annotation":
                if binding.value is not None:
                    typed = self.type_of(binding.value, binding.scope, depth + 1)
                continue
            if binding.kind == "assign" and isinstance(binding.value, cst.Name) and binding.value.value == "None":
                # `client = None` before a lazy initialisation: calling a method on it means it
                # holds the other assignment by then.
                continue
            results.append(self._binding_symbol(binding, depth))
        known = [r for r in results if r is not UNKNOWN]
        if results and len(known) == len(results) and all(r == known[0] for r in known):
            return known[0]
        return typed

    def _binding_symbol(self, binding: Binding, depth: int) -> Symbol:
        if binding.kind == "import":
            return Qual(binding.qualname)
        if binding.kind == "assign" and binding.value is not None:
            return self.resolve(binding.value, binding.scope, depth + 1)
        if binding.kind == "with" and binding.value is not None:
            # The SDK clients' __enter__ returns the client itself.
            result = self.resolve(binding.value, binding.scope, depth + 1)
            return result if isinstance(result, Instance) else UNKNOWN
        if binding.kind == "param":
            if binding.value is not None:
                return self.type_of(binding.value, binding.scope, depth + 1)
            function = binding.scope
            if function.method_of is not None and binding.order == min(
                b.order for bs in function.bindings.values() for b in bs if b.kind == "param"
            ):
                return LocalInstance(function.method_of)
            return UNKNOWN
        if binding.kind == "def" and isinstance(binding.node, cst.FunctionDef):
            return LocalFunction(binding.node, self._scope_of(binding.node))
        if binding.kind == "class" and isinstance(binding.node, cst.ClassDef):
            for info in self.index.classes:
                if info.node is binding.node:
                    return LocalClass(info)
        return UNKNOWN

    def _scope_of(self, node: cst.CSTNode) -> Scope:
        for scope in self.index.scopes:
            if scope.node is node:
                return scope
        raise LookupError(node)

    def type_of(self, annotation: cst.BaseExpression, scope: Scope, depth: int = 0) -> Symbol:
        """Return the instance an annotation describes (`Anthropic`, `Optional[Anthropic]`...)."""
        if depth > MAX_DEPTH:
            return UNKNOWN
        if isinstance(annotation, cst.SimpleString):
            text = self.values.value(annotation, scope).value
            if isinstance(text, str):
                try:
                    parsed = cst.parse_expression(text)
                except cst.ParserSyntaxError:
                    return UNKNOWN
                return self.type_of(parsed, scope, depth + 1)
            return UNKNOWN
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            options = [
                o
                for o in (
                    self.type_of(annotation.left, scope, depth + 1),
                    self.type_of(annotation.right, scope, depth + 1),
                )
                if o is not None
            ]
            real = [o for o in options if o is not UNKNOWN]
            nones = [
                side
                for side in (annotation.left, annotation.right)
                if isinstance(side, cst.Name) and side.value == "None"
            ]
            if len(real) == 1 and len(real) + len(nones) == 2:
                return real[0]
            return UNKNOWN
        if isinstance(annotation, cst.Subscript):
            base = self.resolve(annotation.value, scope, depth + 1)
            if isinstance(base, Qual) and base.name in ("typing.Optional", "typing_extensions.Optional"):
                element = annotation.slice[0].slice
                if isinstance(element, cst.Index):
                    return self.type_of(element.value, scope, depth + 1)
            return UNKNOWN
        target = self.resolve(annotation, scope, depth + 1)
        if isinstance(target, Qual) and is_sdk_client_class(target.name):
            return Instance(target.name)
        if isinstance(target, LocalClass):
            return LocalInstance(target.info)
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
            attr = node.attr.value
            if isinstance(base, Qual):
                return Qual(f"{base.name}.{attr}")
            if isinstance(base, Instance):
                return Instance(base.cls, (*base.path, attr))
            if isinstance(base, LocalInstance):
                bindings = base.info.attributes.get(attr)
                if bindings:
                    return self._binding_symbols(bindings, depth)
            return UNKNOWN
        if isinstance(node, cst.Call):
            return self._call_result(node, scope, depth)
        if isinstance(node, cst.Await):
            return self.resolve(node.expression, scope, depth + 1)
        return UNKNOWN

    def _call_result(self, node: cst.Call, scope: Scope, depth: int) -> Symbol:
        func = self.resolve(node.func, scope, depth + 1)
        if isinstance(func, Qual) and is_sdk_client_class(func.name):
            return Instance(func.name)
        if isinstance(func, Instance) and func.path and func.path[-1] in ("with_options", "copy"):
            if len(func.path) == 1:
                return Instance(func.cls)
        if isinstance(func, LocalFunction):
            return self._returns_of(func, depth)
        if isinstance(func, LocalClass):
            return LocalInstance(func.info)
        return UNKNOWN

    def _returns_of(self, func: LocalFunction, depth: int) -> Symbol:
        results = [self.resolve(value, func.scope, depth + 1) for value in func.scope.returns]
        known = [r for r in results if r is not UNKNOWN]
        if results and len(known) == len(results) and all(r == known[0] for r in known):
            return known[0]
        if func.node.returns is not None:
            return self.type_of(func.node.returns.annotation, func.scope.parent or func.scope, depth + 1)
        return UNKNOWN

    # Parameters -----------------------------------------------------------------------------
    def mutators(self, scope: Scope) -> dict[str, list[int]]:
        """Return, per name, the orders of mutating method calls on it (`d.update(...)`)."""
        if self._mutators is None:
            table: dict[int, dict[str, list[int]]] = {}
            for record in self.index.calls:
                func = record.node.func
                if (
                    isinstance(func, cst.Attribute)
                    and isinstance(func.value, cst.Name)
                    and func.attr.value in _MUTATING_METHODS
                ):
                    key = id(record.scope.function())
                    table.setdefault(key, {}).setdefault(func.value.value, []).append(record.order)
            self._mutators = table
        return self._mutators.get(id(scope.function()), {})

    def call_entries(self, record: CallRecord) -> Entries:
        return self.values.entries_of_call(
            record.node, record.scope, record.order, self.mutators(record.scope)
        )


def find_call_sites(index: ModuleIndex, resolver: Resolver | None = None) -> Iterator[CallSite]:
    """Yield every call in the module proven to reach Claude."""
    resolver = resolver or Resolver(index)
    for record in index.calls:
        func = record.node.func
        # Cheap syntactic gate before any resolution: SDK methods are attribute calls.
        if not isinstance(func, cst.Attribute) or func.attr.value not in ("create", "stream"):
            continue
        symbol = resolver.resolve(func, record.scope)
        if not isinstance(symbol, Instance) or not is_sdk_client_class(symbol.cls):
            continue
        target = SDK_METHODS.get(symbol.path)
        if target is None:
            continue
        yield CallSite(record, target, resolver.call_entries(record), client=symbol.cls)
