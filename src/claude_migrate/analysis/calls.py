"""Recognise Claude call sites, in every supported client, from the target registry.

The registry (`claude_migrate.targets`) lists every kind of Claude call the rules understand:
how it is recognised (the callee it resolves to), where its parameters live (keyword arguments,
a JSON body, a nested `inferenceConfig` or `model_kwargs` dict, a `json=` payload) and the names
it uses for temperature, output budget, stop sequences and streaming. `find_call_sites` turns
every call of a module that provably reaches Claude into a `CallSite`; an OpenAI client, another
vendor's model, a local class with a `messages.create` method, or a receiver that cannot be
followed is never one.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.option_fields import FieldReader, split_path
from claude_migrate.analysis.scope import CallRecord, ModuleIndex, Scope
from claude_migrate.analysis.symbols import (
    UNKNOWN,
    Instance,
    LocalClass,
    LocalFunction,
    Partial,
    ProjectClass,
    ProjectFunction,
    Qual,
    Resolver,
    Symbol,
)
from claude_migrate.analysis.values import (
    MUTATING_METHODS,
    Entries,
    Entry,
    Value,
    literal,
    string_value,
)
from claude_migrate.core.lazy import lazy_import
from claude_migrate.core.project_view import FIELD_SPECIFIERS, SUPER
from claude_migrate.targets.aisuite import (
    AISUITE,
    AISUITE_CLIENT,
    AISUITE_METHODS,
    provider_target,
)
from claude_migrate.targets.anthropic_sdk import (
    BATCH_REQUEST_TYPES,
    NOT_GIVEN,
    NOT_GIVEN_CLASSES,
    SDK,
    SDK_METHODS,
    is_sdk_client_class,
    sent_another_model,
)
from claude_migrate.targets.base import (
    MAX_TOKENS,
    MODEL,
    STOP,
    STREAM,
    TEMPERATURE,
    Constructor,
    Target,
    is_claude_model,
)
from claude_migrate.targets.bedrock import (
    BEDROCK,
    BEDROCK_AGENT_METHODS,
    BEDROCK_AGENT_RUNTIME,
    BEDROCK_AGENT_SOURCES,
    BEDROCK_METHODS,
    BEDROCK_RUNTIME,
)
from claude_migrate.targets.dspy import DSPY_LMS
from claude_migrate.targets.http import (
    HTTP_CLIENT_METHODS,
    HTTP_FUNCTIONS,
    HTTP_PACKAGES,
    anthropic_endpoint,
)
from claude_migrate.targets.instructor import (
    INSTRUCTOR_FROM_PROVIDER,
    INSTRUCTOR_METHODS,
    INSTRUCTOR_ON_ANTHROPIC,
    PROVIDER_PREFIX,
)
from claude_migrate.targets.langchain import LANGCHAIN_CLAUDE_ONLY, langchain_target
from claude_migrate.targets.litellm import (
    LITELLM_FUNCTIONS,
    LITELLM_ROUTER,
    LITELLM_ROUTERS,
    ROUTER_METHODS,
)
from claude_migrate.targets.llama_index import LLAMAINDEX_BEDROCK_CLASSES, LLAMAINDEX_CLASSES
from claude_migrate.targets.openai_compat import OPENAI_COMPAT_METHODS, OPENAI_ON_ANTHROPIC
from claude_migrate.targets.pydantic_ai import PYDANTIC_AI_AGENTS, PYDANTIC_AI_MODELS
from claude_migrate.targets.registry import CALLEE_NAMES, CONSTRUCTORS, TARGETS

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# Functions that call the function handed to them with the keywords that follow it, and the
# position it is handed at: `asyncio.to_thread(fn, /, *args, **kwargs)`
# (https://docs.python.org/3/library/asyncio-task.html#asyncio.to_thread).
HANDOFFS: dict[str, int] = {"asyncio.to_thread": 0}
_HANDOFF_NAMES = frozenset(name.rsplit(".", 1)[1] for name in HANDOFFS)
# Executor methods that call the function handed to them: `submit(fn, /, *args, **kwargs)`
# (https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.submit)
# and `loop.run_in_executor(executor, func, *args)`, which passes no keywords
# (https://docs.python.org/3/library/asyncio-eventloop.html#asyncio.loop.run_in_executor): its
# request is a `functools.partial` of the SDK's method.
EXECUTOR_METHODS: dict[str, int] = {"submit": 0, "run_in_executor": 1}


@dataclass(frozen=True)
class Hop:
    """A call of a wrapper: the parameters it passes on, and the Claude calls they reach."""

    callee: str  # "ask", "Chat.complete", "Claude" (a class called)
    # wrapper parameter (or keyword forwarded through `**kwargs`) -> (path, line) of the call
    reaches: tuple[tuple[str, str, int], ...]
    declared: bool = False  # a `[[call-sites]]` entry of the policy
    # Keywords the wrapper takes only through `**kwargs` and passes on as they are.
    forwarded: frozenset[str] = frozenset()
    # Whether a Claude call its temperature or max_tokens reaches may turn extended thinking on
    # (a `thinking` not proven off, in the wrapper's request): the project phase's `thinking`.
    thinking: bool = False
    # Tables keyed by model id the wrapper looks a parameter up in: (parameter, table, keys).
    tables: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    # The Claude calls its model reaches whose request ends with a prefilled assistant turn,
    # as (path, line): the project phase's `prefill`.
    prefills: tuple[tuple[str, int], ...] = ()
    # The Claude calls its model reaches whose request may send both temperature and top_p,
    # as (path, line): the project phase's `sampling_pair`.
    sampling_pairs: tuple[tuple[str, int], ...] = ()
    # Parameters the wrapper reads as `param or FALLBACK` (a literal), with that fallback: an
    # empty value passed (`0.0`, `""`, None) sends the fallback instead.
    fallbacks: tuple[tuple[str, object], ...] = ()

    def fallback(self, key: str) -> tuple[bool, object]:
        """Return whether the wrapper reads a parameter through `or` with a literal, and it."""
        for name, value in self.fallbacks:
            if name == key:
                return True, value
        return False, None

    def where(self, key: str) -> tuple[str, int] | None:
        for name, path, line in self.reaches:
            if name == key:
                return path, line
        return None

    def related(self, key: str, canonical: str) -> tuple[tuple[str, int, str], ...]:
        """Return the Claude calls a parameter reaches, as a report's related locations."""
        found: list[tuple[str, int, str]] = []
        for name, path, line in self.reaches:
            place = (path, line, f"the Claude call {self.callee}() passes {canonical} to")
            if name == key and place not in found:
                found.append(place)
        return tuple(found)

    def describe(self, key: str, own: tuple[str, Callable[[int], str]] | None = None) -> str:
        """Return "passed to ask() reaches a Claude call at app/llm.py:20" for a parameter.

        `own` is the reporting file's path and how it names a line after it: a call in a
        notebook is named by its cell and the line within it (`at a.ipynb:cell 2:3`), as the
        notebook's findings are, the module line meaning nothing there.
        """
        if self.declared:
            return f"passed to {self.callee}(), a Claude call site the policy declares,"
        where = self.where(key)
        line = str(where[1]) if where else ""
        if where and own is not None and where[0] == own[0]:
            line = own[1](where[1])
        at = f" at {where[0]}:{line}" if where else ""
        return f"passed to {self.callee}() reaches a Claude call{at}"


def _sends_declared_other(args: Entries, target: Target, declared: dict[str, str]) -> bool:
    """Return whether a wrapper call leaving its model parameter out sends the wrapper's
    declared default and that is another vendor's model (`def ask(q, model="llama3.2")`
    called as `ask(q)`), as if the caller had passed it: not a Claude call. Not when the
    caller may give the model otherwise (a spread dict, `*args`)."""
    if args.opaque or not target.model or set(target.model) & args.unknown_keys:
        return False
    defaults = [declared.get(name) for name in target.model]
    return all(isinstance(d, str) and d.strip() and not is_claude_model(d) for d in defaults)


def _tabled(args: Entries, target: Target, tabled: dict[str, list[Any]]) -> Entry | None:
    """Return a wrapper call's model entry as the Claude call sends it, kept in `args`, when
    the wrapper looks its model up by the parameter in a table of model ids (`MODELS[
    provider]`): the table's entry for the key the caller passes, written in the table (no
    fix at the call); unknown for any other key. None when the model is not looked up so."""
    entry = args.get(*target.model) if target.model else None
    found = tabled.get(entry.key) if entry is not None else None
    if entry is None or not found:
        return None
    name, table = found
    value = entry.value
    key = value.value if value.known else None
    model = table.get(key) if name is not None and isinstance(key, str) else None
    changed = Value(True, model, None, f"{name}[{key!r}]") if isinstance(model, str) else None
    entry = dataclasses.replace(entry, value=changed or Value(False))
    args.items[entry.key] = entry
    return entry


def _spelled(args: Entries, target: Target, spelled: dict[str, list[list[str]]]) -> Entry | None:
    """Return a wrapper call's model entry as the Claude call sends it, kept in `args`: a
    string the caller passes, with the text the wrapper writes around it
    (`f"anthropic.{model}-v1:0"`). A parameter spelled several ways is one of several ids:
    judged as passed, with no fix (`choice`)."""
    entry = args.get(*target.model) if target.model else None
    pairs = spelled.get(entry.key) if entry is not None else None
    if entry is None or not pairs:
        return entry
    value = entry.value
    if not value.known or not isinstance(value.value, str):
        return entry
    if len(pairs) != 1:
        changed = dataclasses.replace(value, choice=True)
    else:
        prefix, suffix = pairs[0]
        whole = f"{prefix}{value.value}{suffix}"
        changed = dataclasses.replace(value, value=whole, spelled=(prefix, suffix))
    entry = dataclasses.replace(entry, value=changed)
    args.items[entry.key] = entry
    return entry


@dataclass(eq=False)
class CallSite:
    """A call proven to reach Claude, with its parameters as written.

    `via` is set for a call of an in-project wrapper: its parameters are the wrapper's, and only
    those the project phase proved to reach a Claude parameter are named by its target.
    """

    record: CallRecord
    target: Target
    params: Entries
    client: str = ""  # the client class, e.g. "anthropic.AsyncAnthropic"
    # The call's keyword arguments when the parameters live elsewhere (a JSON body...).
    call_args: Entries | None = None
    extra: dict[str, object] = field(default_factory=dict)
    via: Hop | None = None
    # The site this one was split from by a value set (`CallFinder.split_loops`): rules that
    # edit the call itself read that one (`FileContext.sites`), whose edits hold for every value.
    branch_of: CallSite | None = None

    @property
    def node(self) -> cst.Call:
        return self.record.node

    @property
    def family(self) -> str:
        return self.target.family

    def param(self, canonical: str) -> Entry | None:
        """Return the entry for a canonical parameter, under any of the target's names."""
        names = self.target.names(canonical)
        return self.params.get(*names) if names else None

    def may_have(self, canonical: str) -> bool:
        return self.params.may_have(*self.target.names(canonical))

    @property
    def legacy(self) -> bool:
        """Whether this is a Text Completions request (CM301's), by endpoint or body format."""
        if self.target.legacy:
            return True
        return (
            self.family == BEDROCK
            and self.target.location == "json-body"
            and self.params.get("prompt") is not None
        )


_MUTATING_METHODS = MUTATING_METHODS
# Methods that give an options object's fields as a dict: pydantic's `model_dump()` (v2) and
# `dict()` (v1).
DUMP_METHODS = frozenset({"model_dump", "dict"})
MAX_FOLLOW = 8
# The model of a call that is Claude's only by its model (Bedrock, LiteLLM) when it is a
# parameter every call of the project gives a Claude model: the call is Claude's, its model
# unknown here (each caller's is reported at the caller).
BY_CALLERS = "claude"
# Parameters whose value sets (a name assigned in several branches) make one site per value: a
# value above a ceiling, or a retired model, is a finding where it is written.
BRANCHED = (MODEL, TEMPERATURE, MAX_TOKENS)
MAX_SPLIT = 32


class CallFinder:
    """Matches a module's calls against the registry."""

    def __init__(
        self,
        index: ModuleIndex,
        resolver: Resolver,
        declared: dict[str, dict[str, str]] | None = None,
    ) -> None:
        self.index = index
        self.resolver = resolver
        # `[[call-sites]]`: function import path -> {Claude parameter: the function's parameter}
        self.declared = declared or {}
        self.values = resolver.values
        self._mutators: dict[int, dict[str, list[CallRecord]]] | None = None

    def mutators(self, record: CallRecord) -> dict[str, list[CallRecord]]:
        """Return, per name, the mutating method calls on it in the call's function
        (`d.update(...)`, `d.setdefault(...)`)."""
        if self._mutators is None:
            table: dict[int, dict[str, list[CallRecord]]] = {}
            for other in self.index.calls:
                func = other.node.func
                if (
                    isinstance(func, cst.Attribute)
                    and isinstance(func.value, cst.Name)
                    and func.attr.value in _MUTATING_METHODS
                ):
                    key = id(other.scope.function())
                    table.setdefault(key, {}).setdefault(func.value.value, []).append(other)
            self._mutators = table
        return self._mutators.get(id(record.scope.function()), {})

    def kwargs(self, record: CallRecord) -> Entries:
        entries = self.values.entries_of_call(
            record.node, record.scope, record.order, self.mutators(record), record.path
        )
        dumps = [
            a for a in record.node.args if a.star == "**" and self._dumped(a.value, record.scope)
        ]
        if dumps and entries.opaque:
            entries = self._with_dumps(record, entries, dumps)
        self._narrowed(record, entries)
        for key, entry in list(entries.items.items()):
            if self._not_given(entry.value_node, record.scope):
                # `top_k=NOT_GIVEN`: the SDK leaves the parameter out of the request.
                del entries.items[key]
            elif not entry.value.known:
                field = self._field(entry, record.scope)
                if field is not None:
                    entries.items[key] = field
        return entries

    def _narrowed(self, record: CallRecord, entries: Entries) -> None:
        """Give a name the call passes the literal an enclosing `if name == "literal":` (or
        `elif`) tests it against, when nothing else is known of it and the branch does not bind
        it again: in that branch it holds that value. No fix edits it there (the literal is the
        test's, not the call's)."""
        for key, entry in entries.items.items():
            node = entry.value_node
            if entry.value.known or not isinstance(node, cst.Name):
                continue
            for branch in reversed(record.path):
                label = branch.label
                statement = int(label[5:]) if label.startswith("elif ") else branch.statement
                if label != "body" and not label.startswith("elif "):
                    continue
                found = _equal_to(self.index.tests.get(statement), node.value)
                if found is None:
                    continue
                value, written = found
                bindings = record.scope.lookup(node.value)
                if any(branch in b.path for b in bindings if b.scope is record.scope.function()):
                    break  # bound again in the branch: what it holds there is unseen
                # Written in the test: reported there, with no fix (`choice`: callers pass the
                # value the test compares, which a new literal there would no longer match).
                via = f"{node.value} == {value!r}"
                narrowed = Value(True, value, written, via, choice=True)
                entries.items[key] = dataclasses.replace(entry, value=narrowed)
                break

    def _dumped(self, node: cst.BaseExpression, scope: Scope) -> cst.BaseExpression | None:
        """Return the object `x.model_dump()` (pydantic v2), `x.dict()` (v1) or
        `dataclasses.asdict(x)` turns into the dict of its fields, if `node` is such a call."""
        if not isinstance(node, cst.Call) or any(arg.keyword or arg.star for arg in node.args):
            return None
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in DUMP_METHODS and not node.args:
            return func.value
        if len(node.args) == 1 and self.resolver.qualname(func, scope) == "dataclasses.asdict":
            return node.args[0].value
        return None

    def _with_dumps(self, record: CallRecord, entries: Entries, dumps: list[cst.Arg]) -> Entries:
        """Return a call's parameters with `**request.model_dump()` read: the fields of an
        options object made in this module (`Request(model=..., max_tokens=...)`), each found
        where it is passed, or the class's default. Unchanged when another `**` is unseen."""
        scope = record.scope
        for arg in record.node.args:
            if (
                arg.star == "**"
                and arg not in dumps
                and self.values.expand(arg.value, scope).opaque
            ):
                return entries
        found = Entries(dict(entries.items), False, set(entries.unknown_keys))
        for arg in dumps:
            fields = self._dumped_fields(arg.value, scope)
            if fields is None:
                return entries
            for key, entry in fields.items.items():
                found.items[key] = entry
            found.unknown_keys.update(fields.unknown_keys)
        return found

    def _dumped_fields(self, node: cst.BaseExpression, scope: Scope) -> Entries | None:
        """Return the fields `**x.model_dump()` passes, when `x` is made once in this module."""
        obj = self._dumped(node, scope)
        made, made_scope = obj, scope
        for _ in range(MAX_FOLLOW):
            if not isinstance(made, cst.Name):
                break
            bound = self.values.made_object(made.value, made_scope)
            if bound is None:
                return None
            made, made_scope = bound
        if obj is None or not isinstance(made, cst.Call):
            return None
        reader = FieldReader(self.resolver)
        fields = reader.fields_of(made, made_scope)
        module = self.index.module_scope
        if fields is None or "dumps" not in fields[1] or module is None:
            return None
        root = obj.value if isinstance(obj, cst.Name) else "options"
        entries = Entries()
        for name in fields[1]["dumps"]:
            if (root, name) in module.attribute_sets:
                return None  # `request.model = ...` somewhere: not the value it was made with
            found = reader.entry(f"{root}.{name}", obj, scope, None)
            if found is None or not found.value.known:
                entries.unknown_keys.add(name)
                continue
            value = found.value
            if value.node is None and isinstance(obj, cst.Name):
                written = self._default_node(obj, scope, name)
                if written is not None and literal(written).value == value.value:
                    value = Value(True, value.value, written, value.via)
            entries.items[name] = Entry(
                name, found.holder, found.value_node, value, found.container
            )
        return entries

    def _field(self, entry: Entry, scope: Scope) -> Entry | None:
        """Return the entry of `model=settings.model` (`config["limits"]["max_tokens"]`): a
        field of an options object, or a key of a dict, made in this module and bound once to
        the name (`settings = Settings(model=...)`), whose fields no code of the module sets.

        The finding stays at the call's argument; the value (and a fix) is where the object
        is made, or the class's default.
        """
        path = _path_of(entry.value_node)
        if path is None:
            return None
        root, text = path
        first = split_path(text)
        module = self.index.module_scope
        if first is None or module is None or root.value == scope.function().self_name:
            return None
        if first[1][0][0] != "attr":
            return None  # a table's entry (`MODELS["opus"]`): `ValueResolver.table_item`
        if (root.value, first[1][0][1]) in module.attribute_sets:
            return None  # `settings.model = ...` somewhere: not the value it was made with
        found = FieldReader(self.resolver).entry(text, root, scope, None)
        if found is None or not found.value.known:
            return None
        if found.value.node is not None:
            # Passed where the object is made (`Settings(temperature=0.7)`): found there.
            return Entry(entry.key, found.holder, found.value_node, found.value, found.container)
        # The class's default: the call reads it, and says from where (the default itself, when
        # the class is this module's: where a fix may edit it, and no longer a data mention).
        value = found.value
        written = self._default_node(root, scope, first[1][0][1]) if len(first[1]) == 1 else None
        if written is not None and literal(written).value == value.value:
            value = Value(True, value.value, written, value.via)
        if self.values.single_binding(root.value, scope, objects=True) is None:
            # A parameter's object made only when the caller passes none (`options or
            # Options()`): the default is one value the call may read, not the only one, so
            # no fix writes a literal at the call over the caller's.
            value = dataclasses.replace(value, choice=True, given_too=True)
        return Entry(
            entry.key, entry.holder, entry.value_node, value, entry.container, entry.through
        )

    def _default_node(self, root: cst.Name, scope: Scope, attr: str) -> cst.BaseExpression | None:
        """Return the literal a class of this module writes as a field's default, for the object
        a name is bound to once (`settings = Settings()`), if it writes one."""
        bound = self.values.made_object(root.value, scope)
        if bound is None or not isinstance(bound[0], cst.Call):
            return None
        info = self.resolver.local_class(bound[0].func, bound[1])
        if info is None:
            return None
        written = [b for b in info.scope.bindings.get(attr, []) if b.kind == "assign"]
        if not written:
            # The one write of a method (`self.temperature = 0.9` in `__init__`).
            written = [b for b in info.attributes.get(attr, []) if b.kind == "assign"]
        if len(written) != 1 or written[0].value is None:
            return None
        return self._specified(written[0].value, written[0].scope)

    def _specified(self, node: cst.BaseExpression, scope: Scope) -> cst.BaseExpression:
        """Return the default a field's specifier writes (`field(default=0.7)`, pydantic's
        `Field(0.7)`), else the node itself."""
        if not isinstance(node, cst.Call) or any(arg.star for arg in node.args):
            return node
        qualname = self.resolver.qualname(node.func, scope) or ""
        if qualname not in FIELD_SPECIFIERS:
            return node
        for arg in node.args:
            if arg.keyword is not None and arg.keyword.value == "default":
                return arg.value
        first = node.args[0] if node.args else None
        if first is not None and first.keyword is None and qualname.startswith("pydantic."):
            return first.value
        return node

    def _not_given(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """Return whether an argument is the SDK's "not given" sentinel (`NOT_GIVEN`, `omit`,
        `NotGiven()`...), which the request leaves out."""
        if not isinstance(node, (cst.Name, cst.Attribute, cst.Call)):
            return False
        names = NOT_GIVEN
        if isinstance(node, cst.Call):
            if node.args:
                return False
            node, names = node.func, NOT_GIVEN_CLASSES
        symbol = self.resolver.resolve(node, scope)
        return isinstance(symbol, Qual) and symbol.name in names

    def _string(self, entry: Entry | None, record: CallRecord) -> str | None:
        if entry is None:
            return None
        value = entry.value
        if value.known and isinstance(value.value, str):
            return value.value
        return None

    # Recognition -------------------------------------------------------------------------------
    def site(self, record: CallRecord) -> CallSite | None:
        func = record.node.func
        if isinstance(func, cst.Attribute):
            made_elsewhere = self._made_by_other_call(record, func)
            if made_elsewhere is not None:
                return made_elsewhere
            name = func.attr.value
            if (
                name not in CALLEE_NAMES
                and name not in _HANDOFF_NAMES
                and name not in self._wrapper_names
            ):
                return None
        elif not isinstance(func, cst.Name):
            return None
        symbol = self.resolver.resolve(func, record.scope)
        if symbol is UNKNOWN and isinstance(func, cst.Attribute):
            symbol = self._resource_choice(func, record.scope)
        if isinstance(symbol, Partial):
            return self._partial_site(record, symbol)
        if isinstance(symbol, Instance):
            return self._method_site(record, symbol)
        if isinstance(symbol, Qual):
            if symbol.name in HANDOFFS:
                return self._handed_site(record, HANDOFFS[symbol.name])
            return self._function_site(record, symbol.name)
        project = self.resolver.project
        if project is None:
            return None
        if isinstance(symbol, LocalFunction):
            symbol = ProjectFunction(project.module, symbol.scope.qualname)
        elif isinstance(symbol, LocalClass):
            symbol = ProjectFunction(project.module, f"{symbol.info.scope.qualname}.__init__", True)
        elif isinstance(symbol, ProjectClass):
            symbol = ProjectFunction(symbol.module, f"{symbol.name}.__init__", True)
        if isinstance(symbol, ProjectFunction):
            return self._wrapper_site(record, symbol)
        return None

    def _library_init(self, func: cst.Attribute, scope: Scope) -> str | None:
        """Return the library class `super().__init__` constructs in a subclass of a library's
        Claude class (`class ClaudeLLM(ChatAnthropic)`), whose keywords are then the request's;
        None for anything else (a project base's `__init__` is an ordinary project call)."""
        symbol = self.resolver.resolve(func, scope)
        if not isinstance(symbol, Qual):
            return None
        name = symbol.name
        return name if langchain_target(name) is not None or name in CONSTRUCTORS else None

    def _partial_site(self, record: CallRecord, partial: Partial) -> CallSite | None:
        """Return the call of a `functools.partial` of a Claude call: its keywords and the
        partial's (where they are written), the call's own winning."""
        if isinstance(partial.func, Instance):
            site = self._method_site(record, partial.func)
        else:
            site = self._function_site(record, partial.func.name)
        if site is None or site.call_args is not None:
            return None
        bound = self.values.entries_of_call(partial.node, partial.scope, record.order)
        for key, entry in bound.items.items():
            if key not in site.params.items and key not in site.params.unknown_keys:
                site.params.items[key] = entry
        site.params.opaque = site.params.opaque or bound.opaque
        site.params.unknown_keys |= bound.unknown_keys - set(site.params.items)
        return site

    def _made_by_other_call(self, record: CallRecord, func: cst.Attribute) -> CallSite | None:
        """Return the Claude request a method call makes on another's behalf: a library class's
        constructor run by `super().__init__(...)`, or the SDK request an executor is handed."""
        library = self._library_init(func, record.scope) if _super_init(func) else None
        if library is not None:
            return self._function_site(record, library)
        return self._executed_site(record, func)

    def _executed_site(self, record: CallRecord, func: cst.Attribute) -> CallSite | None:
        """Return an executor's `pool.submit(client.messages.create, model=...)` or
        `loop.run_in_executor(None, functools.partial(client.messages.create, model=...))` as
        the SDK request it makes; None for anything else, and for a method of that name of the
        project's own objects (an ordinary call)."""
        at = EXECUTOR_METHODS.get(func.attr.value)
        if at is None:
            return None
        receiver = self.resolver.resolve(func.value, record.scope)
        if receiver is not UNKNOWN and not isinstance(receiver, Qual):
            return None
        return self._handed_site(record, at)

    def _handed_site(self, record: CallRecord, at: int) -> CallSite | None:
        """Return `asyncio.to_thread(client.messages.create, model=..., ...)` as the call of the
        SDK method handed to it, its keywords the handing call's. The SDK's request methods take
        keywords only: another positional argument, or a `*` one, is not such a call."""
        args = record.node.args
        if any(arg.star == "*" for arg in args):
            return None
        positional = [arg for arg in args if arg.keyword is None and not arg.star]
        if len(positional) != at + 1:
            return None
        handed = self.resolver.resolve(positional[at].value, record.scope)
        if (
            isinstance(handed, Partial)
            and isinstance(handed.func, Instance)
            and is_sdk_client_class(handed.func.cls)
        ):
            # `run_in_executor(None, functools.partial(client.messages.create, model=...))`:
            # the partial's keywords are the request's, with the handing call's.
            return self._partial_site(record, handed)
        if not isinstance(handed, Instance) or not is_sdk_client_class(handed.cls):
            return None
        return self._method_site(record, handed)

    @property
    def _wrapper_names(self) -> frozenset[str]:
        project = self.resolver.project
        if project is None:
            return frozenset()
        names = getattr(self, "_names", None)
        if names is None:
            names = frozenset(
                part
                for facts in project.modules.values()
                for qual in facts["functions"]
                for part in qual.split(".")
            )
            self._names = names
        return names

    def _wrapper_site(self, record: CallRecord, function: ProjectFunction) -> CallSite | None:
        """Return the call of an in-project wrapper as a site naming the parameters it passes on."""
        project = self.resolver.project
        assert project is not None
        facts = project.function(function.module, function.qualname)
        if facts is None or not (facts.get("reaches") or facts.get("forwards")):
            return None
        params: list[list[str]] = facts["params"]
        args = self.kwargs(record)
        positional = [name for name, kind in params if kind == "positional"]
        # `Base.__init__(self, model)`: a method called on its class is given `self` first.
        index = -1 if facts.get("instance") and not function.bound else 0
        for arg in record.node.args:
            if arg.star:
                break
            if arg.keyword is not None:
                continue
            if 0 <= index < len(positional):
                name = positional[index]
                read = (record.order, record.path)
                value = self.values.value_read(arg.value, record.scope, read)
                args.items.setdefault(name, Entry(name, arg, arg.value, value, record.node))
            index += 1
        self._spread_args(args, facts.get("spread", ()), record)
        named = {name for name, kind in params if kind in ("positional", "keyword")}
        reaches: dict[str, list[list[object]]] = {
            k: v for k, v in facts.get("forwards", {}).items() if k not in named
        }
        forwarded = frozenset(reaches) - frozenset(facts.get("reaches", {}))
        reaches.update(facts.get("reaches", {}))
        reaches = _held_here(reaches, facts, args, record.node)
        if not reaches:
            return None
        names: dict[str, list[str]] = {}
        hops: list[tuple[str, str, int]] = []
        families = set()
        by_model = False
        legacy = False  # the model reaches a Text Completions call: it moves only with it
        prefixes: set[str] = set()  # the provider prefixes the model is routed by
        for param, items in reaches.items():
            for canonical, key, path, line in items:
                names.setdefault(str(canonical), []).append(param)
                hops.append((param, str(path), int(line)))  # type: ignore[call-overload]
                reached = TARGETS[str(key)]
                families.add(reached.family)
                by_model = by_model or reached.by_model
                legacy = legacy or (canonical == MODEL and reached.legacy)
                if canonical == MODEL and reached.by_model:
                    prefixes.add(reached.model_prefix)
        if len(families) != 1:
            return None
        fallbacks = facts.get("fallbacks", {})
        self._read_passed(args, reaches, fallbacks, record)
        callee = function.qualname.removesuffix(".__init__")
        if f".{SUPER}." in function.qualname:
            callee = f"{SUPER}.{function.qualname.rsplit('.', 1)[1]}"
        target = Target(
            f"wrapper:{function.module}.{callee}",
            families.pop(),
            f"{callee}()",
            temperature=tuple(names.get(TEMPERATURE, ())),
            max_tokens=tuple(names.get(MAX_TOKENS, ())),
            stop=tuple(names.get(STOP, ())),
            stream=tuple(names.get(STREAM, ())),
            model=tuple(names.get(MODEL, ())),
            by_model=by_model,
            legacy=legacy,
        )
        model = _tabled(args, target, facts.get("tabled", {})) or _spelled(
            args, target, facts.get("spelled", {})
        )
        passed = model.value.value if model is not None and model.value.known else None
        routed = _routed(passed, target, prefixes, reaches, names)
        if routed is None:
            return None
        target, names = routed
        declared = facts.get("model_defaults", {})
        if (
            model is None
            and not facts.get("spelled")
            and _sends_declared_other(args, target, declared)
        ):
            return None
        # Only what reaches Claude is read: other parameters of the wrapper are not Claude's.
        wanted = {n for values in names.values() for n in values}
        args.items = {k: v for k, v in args.items.items() if k in wanted}
        args.unknown_keys &= wanted
        tables = tuple(
            (str(param), str(table), tuple(keys))
            for param, found in facts.get("model_tables", {}).items()
            for table, keys in found
        )
        thinking = bool(facts.get("thinking"))
        prefills = tuple((str(path), int(line)) for path, line in facts.get("prefill", ()))
        pairs = tuple((str(path), int(line)) for path, line in facts.get("sampling_pair", ()))
        hop = Hop(
            callee,
            tuple(hops),
            forwarded=forwarded,
            thinking=thinking,
            tables=tables,
            prefills=prefills,
            sampling_pairs=pairs,
            fallbacks=tuple(
                (str(param), fallback[0])
                for param, fallback in fallbacks.items()
                if isinstance(fallback, list) and len(fallback) == 2
            ),
        )
        return CallSite(record, target, args, client="wrapper", via=hop)

    def _read_passed(
        self,
        args: Entries,
        reaches: Iterable[str],
        fallbacks: dict[str, list[Any]],
        record: CallRecord,
    ) -> None:
        """Give a wrapper call's arguments what the wrapper reads of them: a path into one
        (`options.model_id`), read where the object passed is made, and the fallback of
        `param or FALLBACK` for an empty value passed."""
        fields = FieldReader(self.resolver)
        for param in reaches:
            split = split_path(param)
            passed = args.items.get(split[0]) if split is not None else None
            if passed is not None:
                found = fields.entry(param, passed.value_node, record.scope, fallbacks.get(param))
                if found is not None:
                    args.items[param] = found
            elif split is None:
                _fall_back(args, param, fallbacks.get(param))

    def _spread_args(self, args: Entries, spread: Iterable[str], record: CallRecord) -> None:
        """Put in a wrapper call's arguments the entries of the dict it gives a parameter the
        wrapper spreads into its Claude call (`send(request)` over `create(**request)`), as
        keywords: the parameter itself is not one of the call's."""
        for param in spread:
            given = args.items.pop(param, None)
            if given is None:
                continue
            node, scope = given.value_node, record.scope
            entries = self.values.expand(
                node, scope, 0, record.order, self.mutators(record), record.path
            )
            for key, entry in entries.items.items():
                args.items.setdefault(key, entry)
            args.unknown_keys.update(k for k in entries.unknown_keys if k not in args.items)
            args.opaque = args.opaque or entries.opaque

    def _resource_choice(self, func: cst.Attribute, scope: Scope) -> Symbol:
        """Return the first of a choice of SDK resources a method is called on, when the method
        is a Claude call on every one (`endpoint.create(...)` with `endpoint = client.messages
        if plain else client.beta.prompt_caching.messages`)."""
        choices = self.resolver.resources(func, scope)
        if choices is None or not all(SDK_METHODS.get(c.path) for c in choices):
            return UNKNOWN
        return choices[0]

    def _method_site(self, record: CallRecord, symbol: Instance) -> CallSite | None:
        if is_sdk_client_class(symbol.cls):
            key = SDK_METHODS.get(symbol.path)
            if key is None:
                return None
            if TARGETS[key].location == "batch-params":
                return self._batch_site(record, TARGETS[key], symbol.cls)
            site = CallSite(record, TARGETS[key], self.kwargs(record), client=symbol.cls)
            if symbol.info:
                # The client is sent to a server of other models only (`Instance.info`, its
                # base URL): a call is Claude's where its model may be a Claude model.
                site.extra["server"] = symbol.info
                if not self._claude_on_other_server(site):
                    return None
            return None if _names_another_model(site) else site
        if symbol.cls == BEDROCK_RUNTIME and len(symbol.path) == 1:
            key = BEDROCK_METHODS.get(symbol.path[0])
            return self._bedrock_site(record, TARGETS[key]) if key else None
        if symbol.cls == LITELLM_ROUTER and symbol.path in ROUTER_METHODS:
            return self._router_site(record)
        if symbol.cls == AISUITE_CLIENT and symbol.path in AISUITE_METHODS:
            return self._aisuite_site(record)
        if symbol.cls == BEDROCK_AGENT_RUNTIME and len(symbol.path) == 1:
            key = BEDROCK_AGENT_METHODS.get(symbol.path[0])
            return self._agent_site(record, TARGETS[key]) if key else None
        if symbol.cls == INSTRUCTOR_ON_ANTHROPIC and symbol.path in INSTRUCTOR_METHODS:
            target = TARGETS["instructor:create"]
            return CallSite(record, target, self.kwargs(record), client="instructor")
        if symbol.cls == OPENAI_ON_ANTHROPIC and symbol.path in OPENAI_COMPAT_METHODS:
            target = TARGETS[OPENAI_COMPAT_METHODS[symbol.path]]
            return CallSite(record, target, self.kwargs(record), client="openai")
        if (
            symbol.cls.split(".")[0] in HTTP_PACKAGES
            and len(symbol.path) == 1
            and symbol.path[0] in HTTP_CLIENT_METHODS
        ):
            return self._http_site(record, symbol.path[0], base_url=symbol.info)
        return None

    def _batch_site(self, record: CallRecord, target: Target, client: str) -> CallSite | None:
        """Return a Message Batches call as the site of its first request's `params`; the
        others are in `extra["requests"]` (`requests_of`). None when no request is seen."""
        args = self._positional(record, self.kwargs(record), "requests", 0)
        requests = args.get("requests")
        if requests is None:
            return None
        found: list[Entries] = []
        for element in self._request_elements(requests.value_node, record.scope):
            request = self._typed_dict(element, record.scope)
            params = request.items.get("params") if request is not None else None
            if params is None:
                continue
            entries = self._typed_dict(params.value_node, record.scope)
            if entries is None:
                entries = self.values.nested(params, record.scope)
            if entries is not None:
                found.append(entries)
        if not found:
            return None
        site = CallSite(record, target, found[0], client=client)
        site.extra["requests"] = found[1:]
        return site

    def _request_elements(self, node: cst.BaseExpression, scope: Scope) -> list[cst.BaseExpression]:
        """Return the requests a batch's list is written with (a literal or a comprehension,
        inline or bound once to a name)."""
        for _ in range(MAX_SPLIT):
            if not isinstance(node, cst.Name):
                break
            binding = self.values.single_binding(node.value, scope)
            if binding is None or binding.value is None:
                return []
            node, scope = binding.value, binding.scope
        if isinstance(node, (cst.ListComp, cst.GeneratorExp)):
            return [node.elt]
        if isinstance(node, (cst.List, cst.Tuple)):
            return [e.value for e in node.elements if isinstance(e, cst.Element)]
        return []

    def _typed_dict(self, node: cst.BaseExpression, scope: Scope) -> Entries | None:
        """Return the entries of a dict literal, `dict(...)`, or a request type of the SDK
        called with keywords (`Request(custom_id=..., params=MessageCreateParamsNonStreaming(
        model=...))`)."""
        if isinstance(node, cst.Call):
            symbol = self.resolver.resolve(node.func, scope)
            named = isinstance(symbol, Qual) and symbol.name.startswith("anthropic.")
            last = symbol.name.rsplit(".", 1)[-1] if isinstance(symbol, Qual) else ""
            is_dict = isinstance(node.func, cst.Name) and node.func.value == "dict"
            if not (is_dict and not scope.lookup("dict")) and not (
                named and last in BATCH_REQUEST_TYPES
            ):
                return None
        elif not isinstance(node, cst.Dict):
            return None
        return self.values.entries_of_dict(node, scope)

    def requests_of(self, site: CallSite) -> list[CallSite]:
        """Return a site, or one site per request of a Message Batches call or per Claude
        deployment of a LiteLLM Router's group."""
        deployments = site.extra.get("deployments")
        if isinstance(deployments, list) and deployments:
            return [site] + [
                CallSite(site.record, site.target, p, client=site.client, call_args=site.call_args)
                for p in deployments
            ]
        more = site.extra.get("requests")
        if not isinstance(more, list) or not more:
            return [site]
        return [site] + [CallSite(site.record, site.target, p, client=site.client) for p in more]

    def _function_site(self, record: CallRecord, qualname: str) -> CallSite | None:
        last = qualname.rsplit(".", 1)[-1]
        langchain = langchain_target(qualname)
        if langchain is not None:
            return self._langchain_site(record, TARGETS[langchain])
        if qualname in LITELLM_FUNCTIONS:
            return self._litellm_site(record)
        if qualname in LLAMAINDEX_CLASSES:
            target = TARGETS["llamaindex:Anthropic"]
            return CallSite(record, target, self.kwargs(record), client="llamaindex")
        found = self._library_site(record, qualname)
        if found is not None:
            return found
        if qualname in HTTP_FUNCTIONS:
            return self._http_site(record, last)
        if qualname in self.declared:
            return self._declared_site(record, qualname, self.declared[qualname])
        return None

    def _declared_site(
        self, record: CallRecord, qualname: str, mapping: dict[str, str]
    ) -> CallSite:
        """Return the call of a team-declared wrapper: its mapped keywords are Claude's."""
        args = self.kwargs(record)
        names = {
            TEMPERATURE: mapping.get("temperature"),
            MAX_TOKENS: mapping.get("max-tokens"),
            STOP: mapping.get("stop-sequences"),
            STREAM: mapping.get("stream"),
            MODEL: mapping.get("model"),
        }
        last = qualname.rsplit(".", 1)[-1]
        target = Target(
            f"declared:{qualname}",
            SDK,
            f"{last}()",
            **{  # type: ignore[arg-type]
                field_name: (names[canonical],) if names[canonical] else ()
                for field_name, canonical in (
                    ("temperature", TEMPERATURE), ("max_tokens", MAX_TOKENS), ("stop", STOP),
                    ("stream", STREAM), ("model", MODEL),
                )
            },
        )  # fmt: skip
        wanted = {n for n in names.values() if n}
        args.items = {k: v for k, v in args.items.items() if k in wanted}
        return CallSite(record, target, args, client="declared", via=Hop(last, (), declared=True))

    def _claude_on_other_server(self, site: CallSite) -> bool:
        """Return whether a call of a client sent to a server of other models only may still
        be sent a Claude model: a Claude literal, one of a value set or a loop, or a model a
        caller gives (a parameter, or read from one), as for a call recognised by its model."""
        entry = site.params.get(*site.target.model)
        if entry is None:
            return False
        if entry.value.known:
            return isinstance(entry.value.value, str) and is_claude_model(entry.value.value)
        record = site.record
        node = entry.value_node
        if self._looped_model(entry, record):
            return True
        if _reads_parameter(node, record.scope):
            # A parameter declared with the server's own model (`model="llama3.2"`) that no
            # call of the project gives a value is sent that model.
            default = self.values.declared_default(node, record.scope)
            declared = isinstance(default.value, str) and bool(default.value.strip())
            if not (declared and _another_model(site.client, default, str(site.extra["server"]))):
                return True
        values = self.values.value_set(node, record) or self.values.choices(node, record.scope)
        return any(isinstance(v.value, str) and is_claude_model(v.value) for v in values or ())

    def _by_callers(self, entry: Entry | None, record: CallRecord) -> str | None:
        """Return `BY_CALLERS` when a call's model is a parameter every call of the project
        gives a Claude model (`Values.claude_by_callers`), else None."""
        if entry is None:
            return None
        return BY_CALLERS if self.values.claude_by_callers(entry.value_node, record.scope) else None

    def _bedrock_site(self, record: CallRecord, target: Target) -> CallSite | None:
        args = self.kwargs(record)
        model = self._string(args.get("modelId"), record)
        if model is None:
            # `for model_id in MODEL_IDS: converse(modelId=model_id)`: a Claude call for the
            # Claude elements (the call is one site: its parameters are the same for each).
            model = self._looped_model(args.get("modelId"), record)
        model = model or self._by_callers(args.get("modelId"), record)
        if target.location == "json-body":
            body = args.get("body")
            params = None
            if body is not None:
                params = self.values.json_payload(
                    body.value_node,
                    record.scope,
                    record.order,
                    self.mutators(record),
                    0,
                    record.path,
                )
            claude = bool(model and is_claude_model(model))
            if params is None:
                if not claude:
                    return None
                # A body built where it cannot be read (a serialised request object, a
                # parameter): the Claude model id still makes the call Claude's, with every
                # parameter of its body unknown.
                params = Entries(opaque=True)
            # A Claude model id, or the Anthropic body's version key, proves it is Claude.
            if not claude and "anthropic_version" not in params.items:
                return None
        else:
            if not (model and is_claude_model(model)):
                return None
            config = args.get("inferenceConfig")
            read = (record.order, record.path)
            params = self.values.nested(config, record.scope, read) or Entries()
            if "inferenceConfig" in args.unknown_keys or (
                args.get("inferenceConfig") is not None and not params.items and params.opaque
            ):
                params.opaque = True
            params.opaque = params.opaque or args.opaque
        return CallSite(record, target, params, client=BEDROCK_RUNTIME, call_args=args)

    # Other libraries' constructors -------------------------------------------------------------
    def _positional(self, record: CallRecord, args: Entries, name: str, index: int) -> Entries:
        """Add the call's positional argument `index` to its keywords under `name`."""
        if name in args.items:
            return args
        for position, arg in enumerate(record.node.args):
            if arg.star:
                break  # `*args` before it: its position cannot be counted
            if arg.keyword is None and position == index:
                value = self.values.value(arg.value, record.scope)
                args.items[name] = Entry(name, arg, arg.value, value, record.node)
        return args

    def _claude_model(self, args: Entries, names: tuple[str, ...], record: CallRecord) -> bool:
        model = self._string(args.get(*names), record)
        return bool(model and is_claude_model(model))

    def _library_site(self, record: CallRecord, qualname: str) -> CallSite | None:
        """Return the site of another library's Claude constructor (LlamaIndex Bedrock,
        pydantic-ai, DSPy, instructor's from_provider), when its model proves it is Claude."""
        key = LLAMAINDEX_BEDROCK_CLASSES.get(qualname)
        if key is not None:
            args = self._positional(record, self.kwargs(record), MODEL, 0)
            if not self._claude_model(args, (MODEL,), record):
                return None
            return CallSite(record, TARGETS[key], args, client="llamaindex")
        if qualname in DSPY_LMS:
            args = self._positional(record, self.kwargs(record), MODEL, 0)
            if not self._claude_model(args, (MODEL,), record):
                return None
            return CallSite(record, TARGETS["dspy:LM"], args, client="dspy")
        if qualname in INSTRUCTOR_FROM_PROVIDER:
            args = self._positional(record, self.kwargs(record), MODEL, 0)
            model = self._string(args.get(MODEL), record)
            if not (model and model.strip().startswith(PROVIDER_PREFIX) and is_claude_model(model)):
                return None
            return CallSite(record, TARGETS["instructor:from_provider"], args, client="instructor")
        if qualname in PYDANTIC_AI_MODELS:
            return self._pydantic_ai_site(record, TARGETS["pydantic-ai:AnthropicModel"], "settings")
        if qualname in PYDANTIC_AI_AGENTS:
            return self._pydantic_ai_site(record, TARGETS["pydantic-ai:Agent"], "model_settings")
        made = CONSTRUCTORS.get(qualname)
        if made is not None:
            return self._constructor_site(record, made)
        return None

    def _constructor_site(self, record: CallRecord, made: Constructor) -> CallSite | None:
        """Return the call of a registered constructor (`targets.CONSTRUCTORS`): its keywords
        are the request's, or its `model_kwargs`'s; with `by_model`, only a Claude model
        makes it one."""
        target = TARGETS[made.target]
        args = self.kwargs(record)
        if made.positional is not None:
            args = self._positional(record, args, target.model[0], made.positional)
        if target.by_model and not self._claude_model(args, target.model, record):
            return None
        if target.location == "model-kwargs":
            return self._model_kwargs_site(record, target, args, target.family)
        return CallSite(record, target, args, client=target.family)

    def _model_kwargs_site(
        self, record: CallRecord, target: Target, args: Entries, client: str
    ) -> CallSite:
        """Return a site whose parameters are its keywords and its nested dict's (`model_kwargs`,
        `generation_kwargs`: `Target.nested`)."""
        read = (record.order, record.path)
        nested = self.values.nested(args.get(target.nested), record.scope, read)
        params = Entries(dict(args.items), args.opaque, set(args.unknown_keys))
        if nested is not None:
            params.items.update(nested.items)
            params.opaque = params.opaque or nested.opaque
        elif args.get(target.nested) is not None:
            params.opaque = True
        return CallSite(record, target, params, client=client, call_args=args)

    def _pydantic_ai_site(
        self, record: CallRecord, target: Target, settings: str
    ) -> CallSite | None:
        args = self._positional(record, self.kwargs(record), target.model[0], 0)
        model = args.get(*target.model)
        if target.key == "pydantic-ai:Agent":
            # `Agent("anthropic:claude-...")`, or `Agent(AnthropicModel(...))` (whose own site
            # reports the model).
            if model is None:
                return None
            if not (
                self._claude_model(args, target.model, record)
                or self._is_pydantic_ai_model(model.value_node, record)
            ):
                return None
        params = Entries(
            {k: v for k, v in args.items.items() if k in target.model},
            args.opaque,
            set(args.unknown_keys) & set(target.model),
        )
        entry = args.get(settings)
        if entry is not None:
            nested = self.values.nested(entry, record.scope)
            if nested is None and isinstance(entry.value_node, cst.Call):
                # `ModelSettings(temperature=...)` / `AnthropicModelSettings(...)`: TypedDicts.
                func = self.resolver.resolve(entry.value_node.func, record.scope)
                name = func.name if isinstance(func, Qual) else ""
                if name.startswith("pydantic_ai.") and name.endswith("ModelSettings"):
                    nested = self.values.entries_of_call(
                        entry.value_node, record.scope, record.order
                    )
            if nested is None:
                params.opaque = True
            else:
                params.items.update(nested.items)
                params.opaque = params.opaque or nested.opaque
                params.unknown_keys |= nested.unknown_keys
        elif settings in args.unknown_keys or args.opaque:
            params.opaque = True
        return CallSite(record, target, params, client="pydantic-ai", call_args=args)

    def _is_pydantic_ai_model(self, node: cst.BaseExpression, record: CallRecord) -> bool:
        """Return whether an expression is an `AnthropicModel(...)`, written there or bound."""
        if isinstance(node, cst.Name):
            binding = self.values.single_binding(node.value, record.scope, objects=True)
            node = binding.value if binding is not None and binding.value is not None else node
        if not isinstance(node, cst.Call):
            return False
        func = self.resolver.resolve(node.func, record.scope)
        return isinstance(func, Qual) and func.name in PYDANTIC_AI_MODELS

    def _claude_arn(self, entry: Entry | None, record: CallRecord) -> bool:
        """Return whether a model ARN names a Claude model. An ARN is often an f-string whose
        region or account is unknown: the model id after its last "/" must be known."""
        if entry is None:
            return False
        text = entry.value.value if entry.value.known else None
        if not isinstance(text, str):
            text = self.values.template(entry.value_node, record.scope)
        if text is None:
            return False
        model = text.rsplit("/", 1)[-1]
        return "{}" not in model and is_claude_model(model)

    def _agent_site(self, record: CallRecord, target: Target) -> CallSite | None:
        """Return a bedrock-agent-runtime retrieve_and_generate call whose model is Claude."""
        args = self.kwargs(record)
        config = self.values.nested(args.get("retrieveAndGenerateConfiguration"), record.scope)
        if config is None:
            return None
        sources = (
            self.values.nested(config.get(name), record.scope) for name in BEDROCK_AGENT_SOURCES
        )
        source = next((found for found in sources if found is not None), None)
        if source is None or not self._claude_arn(source.get(*target.model), record):
            return None
        params: Entries | None = source
        for name in ("generationConfiguration", "inferenceConfig", "textInferenceConfig"):
            entry = params.get(name) if params is not None else None
            if entry is None:
                # Absent (nothing is sent) unless a level could not be read.
                opaque = params is None or params.opaque or name in params.unknown_keys
                params = Entries(opaque=opaque)
                break
            nested = self.values.nested(entry, record.scope)
            params = nested if nested is not None else Entries(opaque=True)
        assert params is not None
        return CallSite(record, target, params, client=BEDROCK_AGENT_RUNTIME, call_args=source)

    def _langchain_site(self, record: CallRecord, target: Target) -> CallSite | None:
        args = self.kwargs(record)
        if target.key in LANGCHAIN_CLAUDE_ONLY:
            return CallSite(record, target, args, client="langchain")
        model = None
        for name in target.model:
            model = model or self._string(args.get(name), record)
        for name in target.model:
            model = model or self._by_callers(args.get(name), record)
        if not (model and is_claude_model(model)):
            return None
        if target.location == "model-kwargs":
            return self._model_kwargs_site(record, target, args, "langchain")
        return CallSite(record, target, args, client="langchain")

    def _litellm_site(self, record: CallRecord) -> CallSite | None:
        args = self.kwargs(record)
        model = self._string(args.get(MODEL), record)
        if model is None and record.node.args and record.node.args[0].keyword is None:
            first = record.node.args[0]
            if not first.star:
                value = self.values.value(first.value, record.scope)
                model = value.value if value.known and isinstance(value.value, str) else None
        if model is None:
            model = self._looped_model(args.get(MODEL), record)
        model = model or self._by_callers(args.get(MODEL), record)
        if not (model and is_claude_model(model)):
            return None
        return CallSite(record, TARGETS["litellm:completion"], args, client="litellm")

    def _aisuite_site(self, record: CallRecord) -> CallSite | None:
        """Return an aisuite client's call whose model is one its `anthropic:` provider serves
        (written here, one element of a loop's literal list, or a parameter every caller of the
        project gives one: the project phase reads the prefix)."""
        target = TARGETS["aisuite:create"]
        args = self._positional(record, self.kwargs(record), MODEL, 0)
        model = self._string(args.get(MODEL), record)
        if model is None:
            model = self._looped_model(args.get(MODEL), record, target.model_prefix)
        if model is None and self._by_callers(args.get(MODEL), record):
            return CallSite(record, target, args, client=AISUITE)
        key = provider_target(model) if model else None
        if key is None:
            return None
        return CallSite(record, TARGETS[key], args, client=AISUITE)

    def _router_site(self, record: CallRecord) -> CallSite | None:
        """Return a LiteLLM Router's call: by a model group name the `model_list` the Router is
        made with here writes, that group's (`_router_alias_site`), else read by its model as
        `litellm.completion`'s.

        The Router looks a call's model up among its groups' `model_name`s before anything else
        (litellm/router.py, `Router._common_checks_available_deployment`: a name that is no
        group's goes to the wildcard patterns or the default deployment), so a group named like
        a model (`"model_name": "claude-3-opus"`) sends its deployment, not that name.
        """
        args = self.kwargs(record)
        alias = self._string(args.get(MODEL), record)
        groups = self._router_groups(record, alias) if alias is not None else None
        if not groups:
            return self._litellm_site(record)
        return self._router_alias_site(record, args, groups)

    def _router_alias_site(
        self, record: CallRecord, args: Entries, deployments: list[Entries | None]
    ) -> CallSite | None:
        """Return a LiteLLM Router's call by a model group name (`router.completion(model=
        "fast")`) whose deployments, in the `model_list` the Router is made with here, name a
        Claude model: one request per Claude deployment (the first the site, the others its
        `deployments`), as the Router may send any of them.

        The Router sends the deployment it picks with its `litellm_params` and the call's own
        keywords over them (litellm/router.py, `Router._completion`: `data = deployment[
        "litellm_params"].copy()`, then `litellm.completion(**{**data, "messages": messages,
        ..., **kwargs})`): its model, and its sampling limits where the call gives none. A group
        of several deployments load-balances among them, so each Claude one is a request the
        call may send; another vendor's is not a Claude call. A list changed in place, a
        deployment not written as a dict of literal keys (where none is a Claude one's) or a
        Router made with `default_litellm_params` (sent too) is not read.
        """
        requests: list[Entries] = []
        for deployment in deployments:
            if deployment is None:
                continue
            model = self._string(deployment.get(MODEL), record)
            if model is None or not is_claude_model(model):
                continue
            items = dict(deployment.items)
            items.update((key, entry) for key, entry in args.items.items() if key != MODEL)
            unknown = (deployment.unknown_keys | args.unknown_keys) - set(args.items)
            requests.append(Entries(items, deployment.opaque or args.opaque, unknown))
        if not requests:
            return None
        site = CallSite(
            record, TARGETS["litellm:completion"], requests[0], client="litellm", call_args=args
        )
        if len(requests) > 1:
            site.extra["deployments"] = requests[1:]
        return site

    def _router_groups(self, record: CallRecord, alias: str) -> list[Entries | None] | None:
        """Return the `litellm_params` of each deployment of the group `alias` names (an empty
        list when no group is named so), or None when the Router's `model_list` is not read."""
        model_list = self._router_model_list(record)
        if model_list is None:
            return None
        deployments: list[Entries | None] = []
        for element in model_list[0].elements:
            if isinstance(element, cst.StarredElement):
                return None
            found = self.values.dict_node(element.value, model_list[1])
            if found is None:
                return None
            entries = self.values.entries_of_dict(found[0], found[1])
            if entries is None or entries.opaque:
                return None
            name = self._string(entries.get("model_name"), record)
            if name is None:
                return None
            if name == alias:
                deployments.append(self.values.nested(entries.get("litellm_params"), found[1]))
        return deployments

    def _router_model_list(self, record: CallRecord) -> tuple[cst.List, Scope] | None:
        """Return the list literal a Router is made with, for a call of the Router's method: the
        receiver a name (or `self.<attr>`) bound once to `Router(model_list=[...])`, the list
        changed nowhere in the module."""
        func = record.node.func
        assert isinstance(func, cst.Attribute)
        made: tuple[cst.BaseExpression, Scope] | None = None
        if isinstance(func.value, cst.Name):
            binding = self.values.single_binding(func.value.value, record.scope, objects=True)
            if binding is not None and binding.value is not None:
                made = (binding.value, binding.scope)
        else:
            made = self.values.self_attribute(func.value, record.scope)
        if made is None or not isinstance(made[0], cst.Call):
            return None
        call, scope = made[0], made[1]
        qual = self.resolver.resolve(call.func, scope)
        if not (isinstance(qual, Qual) and qual.name in LITELLM_ROUTERS):
            return None
        given: cst.BaseExpression | None = None
        for index, arg in enumerate(call.args):
            keyword = arg.keyword.value if arg.keyword is not None else None
            if arg.star or keyword == "default_litellm_params":
                return None  # other keywords sent with every request, or unseen ones
            if keyword == "model_list" or (keyword is None and index == 0):
                given = arg.value
        if isinstance(given, cst.Name):
            if self.values.table_changed(given.value, scope):
                return None
            binding = self.values.single_binding(given.value, scope)
            if binding is None or binding.value is None:
                return None
            given, scope = binding.value, binding.scope
        return (given, scope) if isinstance(given, cst.List) else None

    def _looped_model(
        self, entry: Entry | None, record: CallRecord, prefix: str = ""
    ) -> str | None:
        """Return a Claude model a loop's name gives a call recognised by its model (one
        starting with `prefix`, a provider prefix the library routes by).

        `for model in ["bedrock/anthropic.claude-...", ...]`: Claude if one element is; for
        LiteLLM `split_loops` then makes one site per element, the others not Claude calls.
        """
        if entry is None:
            return None
        looped = self.values.loop_values(entry.value_node, record.scope)
        for value in looped or ():
            if _routed_to_claude(value, prefix):
                return str(value.value)
        return None

    def split_loops(self, site: CallSite) -> list[CallSite]:
        """Return one site per element when a parameter is a loop's name over a literal list.

        `for t in [0.2, 0.9]: create(temperature=t)` is two calls as far as a rule goes: each
        element gets its own site, whose entry is written at the element (where a fix edits it).
        For the model of a call recognised by its model (LiteLLM, Bedrock), elements that are not
        Claude models are not Claude calls. A name assigned in several branches
        (`value_set`) splits the same way, for the model and the sampling limits; a call with
        several such parameters gets a site per combination, up to `MAX_SPLIT`.
        """
        branched = {"top_p", "top_k"}.union(*(site.target.names(c) for c in BRANCHED))
        sites = [site]
        for key, entry in site.params.items.items():
            if entry.value.known:
                continue
            looped = None
            if isinstance(entry.value_node, cst.Name):
                looped = self.values.loop_values(entry.value_node, site.record.scope)
            branches = False
            if not looped and key in branched:
                # `if x: t = 0.7 / else: t = 1.0`: one site per value that may be sent; so for
                # `MODELS[phase]` and a helper returning one of several values.
                looped = self.values.value_set(
                    entry.value_node, site.record
                ) or self.values.choices(entry.value_node, site.record.scope)
                branches = True
            if not looped or len(sites) * len(looped) > MAX_SPLIT:
                continue
            sites = [
                one for each in sites for one in self._split(each, key, entry, looped, branches)
            ]
        return sites

    def _split(
        self, site: CallSite, key: str, entry: Entry, values: list[Value], branches: bool
    ) -> Iterator[CallSite]:
        for value in values:
            if (
                key in site.target.model
                and site.target.by_model
                and not _routed_to_claude(value, site.target.model_prefix)
            ):
                continue
            server = str(site.extra.get("server", ""))
            if key in site.target.model and _another_model(site.client, value, server):
                continue
            items = dict(site.params.items)
            # A string built from a chosen part is written nowhere: found at the call's entry.
            holder = entry.holder if value.node is None else value.node
            items[key] = Entry(key, holder, entry.value_node, value, None)
            params = Entries(items, site.params.opaque, set(site.params.unknown_keys))
            origin = (site.branch_of or site) if branches else site.branch_of
            yield CallSite(
                site.record,
                site.target,
                params,
                site.client,
                site.call_args,
                site.extra,
                site.via,
                origin,
            )

    def _request_verb(self, record: CallRecord, args: Entries) -> str | None:
        """Return the method of a `urllib.request.Request(url, data, headers, origin_req_host,
        unverifiable, method)`, its positional arguments added to `args` by name (its body is
        `data`): a POST when it carries data and names no other method."""
        for index, name in enumerate(("url", "data", "headers")):
            self._positional(record, args, name, index)
        self._positional(record, args, "method", 5)
        data = args.get("data")
        if data is None or any(arg.star for arg in record.node.args):
            return None  # no data (a GET), or `*args` / `**kwargs`: unseen
        named = args.get("method")
        return "POST" if named is None else self._string(named, record)

    def _http_site(self, record: CallRecord, method: str, base_url: str = "") -> CallSite | None:
        call = record.node
        positional = [a for a in call.args if a.keyword is None and not a.star]
        args = self.kwargs(record)
        url_node: cst.BaseExpression | None = None
        verb: str | None = "POST" if method == "post" else None
        if method == "Request":
            verb = self._request_verb(record, args)
        elif method in ("request", "stream"):
            if len(positional) >= 2:
                verb_value = self.values.value(positional[0].value, record.scope)
                verb = verb_value.value if verb_value.known else None
                url_node = positional[1].value
            elif args.get("method") is not None:
                verb = self._string(args.get("method"), record)
        elif positional:
            url_node = positional[0].value
        if url_node is None and (url_arg := args.get("url")) is not None:
            url_node = url_arg.value_node
        if not isinstance(verb, str) or verb.upper() != "POST" or url_node is None:
            return None
        url = self.values.template(url_node, record.scope)
        if url is None:
            return None
        if base_url and not re.match(r"^[a-z]+://", url):
            url = base_url.rstrip("/") + "/" + url.lstrip("/")
        endpoint = anthropic_endpoint(url)
        if endpoint is None:
            return None
        target = TARGETS["http:messages" if endpoint == "messages" else "http:complete"]
        body = args.get("json")
        params: Entries | None = None
        if body is not None:
            params = self.values.json_payload(
                body.value_node, record.scope, record.order, self.mutators(record), 0, record.path
            )
        else:
            for key in ("data", "content"):
                if (raw := args.get(key)) is not None:
                    params = self.values.json_payload(
                        raw.value_node, record.scope, record.order, self.mutators(record), 0,
                        record.path,
                    )  # fmt: skip
                    break
        if params is None:
            params = Entries(opaque=True)
        return CallSite(
            record, target, params, client=f"http:{method}", call_args=args, extra={"url": url}
        )


def _routed(
    passed: object,
    target: Target,
    prefixes: set[str],
    reaches: dict[str, list[list[object]]],
    names: dict[str, list[str]],
) -> tuple[Target, dict[str, list[str]]] | None:
    """Return a wrapper's call as a Claude call for the model its caller passes (None: not one):
    as the wrapper reads, or, for a model another provider of aisuite sends to Claude than the
    one its call reads as (`aisuite:aws` where it reads as `aisuite:create`), with only the
    parameters both providers name alike (`_aisuite_rerouted`)."""
    if not _not_claudes(passed, target, prefixes):
        return target, names
    rerouted = _aisuite_rerouted(passed, reaches)
    if rerouted is None:
        return None
    return dataclasses.replace(
        target,
        temperature=tuple(rerouted.get(TEMPERATURE, ())),
        max_tokens=tuple(rerouted.get(MAX_TOKENS, ())),
        stop=tuple(rerouted.get(STOP, ())),
        stream=tuple(rerouted.get(STREAM, ())),
        model=tuple(rerouted.get(MODEL, ())),
        by_model=True,
    ), rerouted


def _aisuite_rerouted(
    passed: object, reaches: dict[str, list[list[object]]]
) -> dict[str, list[str]] | None:
    """Return the parameters of a wrapper that reach Claude when its caller gives a Claude
    Bedrock id behind aisuite's `aws:` prefix to an aisuite call the wrapper makes with its
    model (read as the `anthropic:` provider's): those the aws provider takes under the same
    keyword (`temperature`, `model`); `max_tokens` and `stop_sequences` go to Bedrock's
    `additionalModelRequestFields` there, not read. None for any other model or wrapper."""
    if not isinstance(passed, str) or provider_target(passed) != "aisuite:aws":
        return None
    anthropic, aws = TARGETS["aisuite:create"], TARGETS["aisuite:aws"]
    names: dict[str, list[str]] = {}
    for param, items in reaches.items():
        for canonical, key, *_ in items:
            if key != anthropic.key:
                return None
            if set(anthropic.names(str(canonical))) == set(aws.names(str(canonical))):
                names.setdefault(str(canonical), []).append(param)
    return names


def _not_claudes(passed: object, target: Target, prefixes: set[str]) -> bool:
    """Return whether the model a wrapper's call passes (None: unknown) makes it no Claude call.

    Another vendor's model: the wrapper dispatches it elsewhere (a provider registry), or the
    call would fail. Claude's id behind another provider than the one a library routes Claude by
    (aisuite's `aws:` where it reaches `anthropic:`): another request. An unknown model, where
    the calls reached are Claude's only with a Claude model (`by_model`): not proven one.
    """
    if not isinstance(passed, str):
        return target.by_model and bool(target.model)
    model = passed.strip()
    return not (is_claude_model(model) and all(model.startswith(p) for p in prefixes))


def _routed_to_claude(value: Value, prefix: str) -> bool:
    """Return whether a model value names Claude (behind `prefix`, the provider prefix a
    library routes by, when it has one)."""
    model = value.value
    return isinstance(model, str) and model.strip().startswith(prefix) and is_claude_model(model)


def _another_model(client: str, value: Value, server: str = "") -> bool:
    """Return whether a first-party client is sent a model proven another vendor's.

    `model="llama3.2"` goes to a server speaking the Messages API with its own models
    (`targets.anthropic_sdk.sent_another_model`), or fails: not a Claude call; so does any
    model but a Claude one sent to a server of other models only (`server`).
    """
    return value.known and sent_another_model(client, value.value, server)


def _reads_parameter(node: cst.BaseExpression, scope: Scope) -> bool:
    """Return whether an expression is a parameter or read from one (`model`, `self.model`,
    `config["model"]`, `options.get("model")`): a caller may give it a Claude model."""
    while isinstance(node, (cst.Attribute, cst.Subscript, cst.Call)):
        node = node.func if isinstance(node, cst.Call) else node.value
    if not isinstance(node, cst.Name):
        return False
    bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
    return len(bindings) == 1 and bindings[0].kind == "param"


def _names_another_model(site: CallSite) -> bool:
    """Return whether a first-party client's call is sent a model proven another vendor's."""
    entry = site.params.get(*site.target.model)
    return entry is not None and _another_model(site.client, entry.value)


def _equal_to(test: cst.BaseExpression | None, name: str) -> tuple[str, cst.SimpleString] | None:
    """Return the string a test compares a name equal to (`name == "x"`, `"x" == name`), and
    the literal."""
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return None
    target = test.comparisons[0]
    if not isinstance(target.operator, cst.Equal):
        return None
    for one, other in ((test.left, target.comparator), (target.comparator, test.left)):
        if isinstance(one, cst.Name) and one.value == name:
            text = string_value(other)
            return (text, other) if isinstance(other, cst.SimpleString) and text else None
    return None


def _super_init(func: cst.Attribute) -> bool:
    """Return whether a callee is `super().__init__` (the zero-argument form)."""
    call = func.value
    return (
        func.attr.value == "__init__"
        and isinstance(call, cst.Call)
        and isinstance(call.func, cst.Name)
        and call.func.value == "super"
        and not call.args
    )


def _path_of(node: cst.BaseExpression) -> tuple[cst.Name, str] | None:
    """Return the root name and the path (`settings.limits[max_tokens]`) an expression reads."""
    steps: list[str] = []
    while isinstance(node, (cst.Attribute, cst.Subscript)):
        if isinstance(node, cst.Attribute):
            steps.append(f".{node.attr.value}")
        else:
            key = node.slice[0].slice if len(node.slice) == 1 else None
            text = string_value(key.value) if isinstance(key, cst.Index) else None
            if text is None or not re.fullmatch(r"\w+", text):
                return None
            steps.append(f"[{text}]")
        node = node.value
    if not isinstance(node, cst.Name) or not steps:
        return None
    return node, node.value + "".join(reversed(steps))


def find_call_sites(
    index: ModuleIndex,
    resolver: Resolver | None = None,
    declared: dict[str, dict[str, str]] | None = None,
) -> Iterator[CallSite]:
    """Yield every call in the module proven to reach Claude, directly or through a wrapper
    (an in-project one, or one the policy declares in `[[call-sites]]`)."""
    finder = CallFinder(index, resolver or Resolver(index), declared)
    sites = [site for record in index.calls if (site := finder.site(record)) is not None]
    # A helper call whose returned dict a Claude call's `**` was read from is that call's
    # parameters: its arguments are reported there, not once more as a wrapper's.
    expanded = finder.values.expanded
    for site in sites:
        if site.via is None or site.via.declared or id(site.node) not in expanded:
            for request in finder.requests_of(site):
                yield from finder.split_loops(request)


__all__ = ["CallFinder", "CallSite", "Hop", "find_call_sites"]


def _unguarded(
    reaches: dict[str, list[list[object]]],
    guards: dict[str, Any],
    args: Entries,
    node: cst.Call,
) -> dict[str, list[list[object]]]:
    """Return a wrapper's reaches its call's string literal arguments leave: a Claude call of
    the wrapper's own lines under a test of a parameter they rule out (`if provider ==
    "openai": ... return` above it, with "openai" given: the project phase's `line_guards`)
    never runs on this call."""
    given = {
        name: entry.value.value
        for name, entry in args.items.items()
        if entry.value.known
        and not (entry.value.choice or entry.value.default)
        and isinstance(entry.value.value, str)
    }
    if not (args.opaque or any(arg.star for arg in node.args)):
        # A parameter the call leaves out holds its string default (`provider="openai"`).
        for name, value in guards.get("defaults", {}).items():
            if name not in args.items and name not in args.unknown_keys:
                given[name] = value
    if not given:
        return reaches

    def ruled_out(line: object) -> bool:
        return any(
            first <= line <= last
            and any(
                name in given and (given[name] in values) != equal for name, values, equal in tests
            )
            for first, last, tests in guards["spans"]
        )

    found: dict[str, list[list[object]]] = {}
    for param, items in reaches.items():
        kept = [r for r in items if r[2] != guards["path"] or not ruled_out(r[3])]
        if kept:
            found[param] = kept
    return found


def _held_here(
    reaches: dict[str, list[list[object]]],
    facts: dict[str, Any],
    args: Entries,
    node: cst.Call,
) -> dict[str, list[list[object]]]:
    """Return a wrapper's reaches that hold for one call of it: those its literal arguments
    leave (`_unguarded`) and, of those read only when a dict it is given lacks a key, those
    this call's dict lacks (`_given_lacking`)."""
    if facts.get("line_guards"):
        reaches = _unguarded(reaches, facts["line_guards"], args, node)
    if facts.get("given_lacking"):
        reaches = _given_lacking(reaches, facts["given_lacking"], args, node)
    return reaches


def _given_lacking(
    reaches: dict[str, list[list[object]]],
    lacking: dict[str, list[list[object]]],
    args: Entries,
    node: cst.Call,
) -> dict[str, list[list[object]]]:
    """Return a wrapper's reaches that hold for this call: one the project phase's
    `given_lacking` names holds only when the call gives the parameter it names no dict
    holding its key (`{"temperature": self.settings.temperature, **self.extra}` sends the
    settings' value unless `extra` replaces it): the call leaves the parameter out (and
    spreads nothing), or gives `None` or a dict display of literal keys without it."""
    spreads = any(arg.star for arg in node.args)
    dropped: dict[str, list[list[object]]] = {}
    for param, items in lacking.items():
        for canonical, key, path, line, given, held in items:
            if not _gives_lacking(args, str(given), str(held), spreads):
                dropped.setdefault(param, []).append([canonical, key, path, line])
    if not dropped:
        return reaches
    found: dict[str, list[list[object]]] = {}
    for param, items in reaches.items():
        kept = [r for r in items if list(r) not in dropped.get(param, [])]
        if kept:
            found[param] = kept
    return found


def _gives_lacking(args: Entries, param: str, key: str, spreads: bool) -> bool:
    """Return whether a call surely gives `param` no dict holding `key` (`_given_lacking`)."""
    entry = args.items.get(param)
    if entry is None:
        return not spreads and param not in args.unknown_keys
    value = entry.value_node
    if isinstance(value, cst.Name):
        return value.value == "None"
    if not isinstance(value, cst.Dict):
        return False
    keys = [
        string_value(element.key) if isinstance(element, cst.DictElement) else None
        for element in value.elements
    ]
    return None not in keys and key not in keys


def _fall_back(args: Entries, param: str, fallback: list[Any] | None) -> None:
    """Give a wrapper call's argument the value its wrapper sends for it: `param or FALLBACK`
    given an empty value (`ask(q, temperature=0)`) sends the fallback, written in the wrapper
    (no edit at the call can change it)."""
    passed = args.items.get(param)
    if fallback is None or len(fallback) != 2 or passed is None or not passed.value.known:
        return
    if passed.value.value:
        return
    value, label = fallback
    where = f"{label}, " if label else ""
    via = f"{where}the fallback when {param} is {passed.value.value!r}"
    args.items[param] = Entry(
        param, passed.holder, passed.value_node, Value(True, value, None, via), passed.container
    )
