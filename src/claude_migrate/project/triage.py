"""Decide from CPython's own parser whether a Python file holds anything a rule could report.

LibCST parses about ten times slower than `ast`, and most files that mention Claude's names
define or document clients rather than call them. Before LibCST, the engine asks this module
whether the file has a *candidate site* for any enabled rule: a call whose callee ends in a name
a rule reads (`messages.create`, `invoke_model`, `ChatAnthropic`, `requests.post`...), also
through an alias (`from litellm import completion as ask`, `create = client.messages.create`,
a function returning such a callee), a call passing a keyword a rule reads (`default_headers=`),
a text a rule reads (`HUMAN_PROMPT`), a name the project phase found to wrap a Claude call, or,
for the cache-key rule, a digest that may flow into a cache operation.

The triage over-approximates on purpose: every test is a necessary condition of the rules'
own (names are unioned across scopes, every binding of a name counts, every function that may
receive a digest through a return counts). A file it rejects has no finding, so skipping LibCST
changes no result; `CLAUDE_MIGRATE_TRIAGE=0` turns it off to prove that (see the equivalence
test). Nothing here imports LibCST.
"""

from __future__ import annotations

import ast
import os
import re
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import Final

from claude_migrate.core.model_shape import WORD as MODEL_WORD
from claude_migrate.core.model_shape import model_shaped

__all__ = [
    "Sites",
    "Wanted",
    "candidate",
    "enabled",
    "has_candidate",
    "parse_for_triage",
    "read_sites",
]

# Set to "0" to send every file that passes the byte prefilter to LibCST, as before the triage.
SWITCH = "CLAUDE_MIGRATE_TRIAGE"
# Keywords a rule reads only on some callees (`Wanted.keyword_callees`): the scan records the
# callee of every call passing one (`Sites.keyword_calls`).
GUARDED_KEYWORDS = frozenset({"default_headers"})


def enabled() -> bool:
    """Return whether the ast triage runs (on unless `CLAUDE_MIGRATE_TRIAGE=0`)."""
    return os.environ.get(SWITCH, "1").strip() not in ("0", "off", "false", "no")


@dataclass(frozen=True)
class Wanted:
    """What in a module makes one or more rules worth running on it.

    `callees`: last names of called functions or methods (`create` for `c.messages.create(...)`),
    followed through imports, assignments and returns for calls of a bare name.
    `keywords`: keyword arguments of any call. `texts`: substrings of the source.
    `cache_digests`: a `hashlib` digest or `hash()` that may be used as a cache key.
    `only_with`: (callee, text) pairs: the callee counts only in a file holding one of its texts
    (the import that makes it Claude's, e.g. `Anthropic` is LlamaIndex's LLM class only when
    `llama_index` is imported, or LangChain's legacy LLM with `langchain`, and an SDK client's
    constructor is no site).
    `keyword_callees`: (keyword, pattern) pairs, the keyword one of `GUARDED_KEYWORDS`: it
    counts only on a call whose callee's last name matches the pattern (a full match), also
    through an alias of a bare name; a call whose callee is neither a name nor an attribute
    counts, one of `super().<method>` or of a dunder attribute (`self.__class__`) does not.
    `model_ids`: tests of a string literal's value (a catalogue's `recognise`): the module
    counts when one of its literals that may spell a model id (`Sites.model_strings`) passes.
    """

    callees: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()
    cache_digests: bool = False
    only_with: tuple[tuple[str, str], ...] = ()
    keyword_callees: tuple[tuple[str, str], ...] = ()
    model_ids: tuple[Callable[[str], object], ...] = ()

    def __or__(self, other: Wanted) -> Wanted:
        return Wanted(
            self.callees | other.callees,
            self.keywords | other.keywords,
            tuple(dict.fromkeys((*self.texts, *other.texts))),
            self.cache_digests or other.cache_digests,
            # A condition stays only while no side wants the callee unconditionally.
            tuple(
                dict.fromkeys(
                    (*self._conditions(other), *other._conditions(self)),
                )
            ),
            tuple(dict.fromkeys((*self.keyword_callees, *other.keyword_callees))),
            tuple(dict.fromkeys((*self.model_ids, *other.model_ids))),
        )

    def _conditions(self, other: Wanted) -> Iterator[tuple[str, str]]:
        unconditional = other.callees - {name for name, _ in other.only_with}
        return (pair for pair in self.only_with if pair[0] not in unconditional)


def parse_for_triage(text: str) -> ast.Module | None:
    """Return the module's `ast`, or None when CPython cannot parse it (LibCST then words why)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def has_candidate(
    tree: ast.Module, text: str, wanted: Wanted, exported: Collection[str] = ()
) -> bool:
    """Return whether the module holds a site any of `wanted` could report on.

    `exported` names the functions other modules of the project wrap Claude calls in (the
    project phase's summaries): a call of one of them, by any alias, is a candidate too.
    """
    return candidate(read_sites(tree, text), text, wanted, exported)


@dataclass(frozen=True)
class Sites:
    """What the triage reads of one module, whatever the rules ask: its decision's inputs.

    Read once from the module's `ast` (by the project phase, which parses the module anyway, or
    by the triage itself) and then tested against each file's `Wanted` and exported names
    without the tree: the names called as attributes and as bare names, the keywords passed,
    every name and attribute mentioned, the imports as (last name imported, name bound), the
    names and attributes the values of the bare names called may come from (followed through
    assignments and returns to a fixed point, `_may_alias`), and, when the text holds "digest"
    or "hash", whether a digest may key a cache (`_may_key_a_cache`; None otherwise).
    """

    attr_calls: frozenset[str]
    name_calls: frozenset[str]
    keywords: frozenset[str]
    mentioned: frozenset[str]
    imports: tuple[tuple[str, str], ...]
    alias_names: frozenset[str]
    alias_attrs: frozenset[str]
    keys_a_cache: bool | None
    # (keyword, callee shape, callee name) of the calls passing one of `GUARDED_KEYWORDS`; the
    # shape is "name", "attr", "super" (`super().x`) or "other" (name "").
    keyword_calls: frozenset[tuple[str, str, str]] = frozenset()
    # For each bare name called so: the names and attributes its value may come from (the
    # alias closure of that one name, as `alias_names`/`alias_attrs` are for all of them).
    keyword_callee_sources: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # The values of the string constants that may, as a whole, spell a Claude model id
    # (`core.model_shape.model_shaped`): what a model-id test of `Wanted.model_ids` is asked about.
    model_strings: frozenset[str] = frozenset()

    def to_json(self) -> list[object]:
        return [
            sorted(self.attr_calls), sorted(self.name_calls), sorted(self.keywords),
            sorted(self.mentioned), [list(pair) for pair in self.imports],
            sorted(self.alias_names), sorted(self.alias_attrs), self.keys_a_cache,
            sorted(list(call) for call in self.keyword_calls),
            [[name, list(sources)] for name, sources in self.keyword_callee_sources],
            sorted(self.model_strings),
        ]  # fmt: skip

    @classmethod
    def from_json(cls, data: object) -> Sites | None:
        """Return the sites stored by `to_json`, or None when `data` is not of that shape."""
        if not isinstance(data, list) or len(data) != 11:
            return None
        attr_calls, name_calls, keywords, mentioned, imports, alias_names, alias_attrs = data[:7]
        keys, keyword_calls, callee_sources, model_strings = data[7:]
        if not isinstance(callee_sources, list) or not all(
            isinstance(e, list)
            and len(e) == 2
            and isinstance(e[0], str)
            and isinstance(e[1], list)
            and all(isinstance(x, str) for x in e[1])
            for e in callee_sources
        ):
            return None
        names = [attr_calls, name_calls, keywords, mentioned, alias_names, alias_attrs]
        names.append(model_strings)
        if not all(isinstance(v, list) and all(isinstance(x, str) for x in v) for v in names):
            return None
        if not isinstance(imports, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in imports
        ):
            return None
        if keys is not None and not isinstance(keys, bool):
            return None
        if not isinstance(keyword_calls, list) or not all(
            isinstance(c, list) and len(c) == 3 and all(isinstance(x, str) for x in c)
            for c in keyword_calls
        ):
            return None
        return cls(
            frozenset(attr_calls),
            frozenset(name_calls),
            frozenset(keywords),
            frozenset(mentioned),
            tuple((p[0], p[1]) for p in imports),
            frozenset(alias_names),
            frozenset(alias_attrs),
            keys,
            frozenset((c[0], c[1], c[2]) for c in keyword_calls),
            tuple((e[0], tuple(e[1])) for e in callee_sources),
            frozenset(model_strings),
        )


def read_sites(tree: ast.Module, text: str) -> Sites:
    """Return what the triage needs of a module, read from its `ast` in one pass."""
    scan = _Scan(tree)
    alias_names, alias_attrs = _alias_sources(scan, scan.name_calls)
    guarded = sorted({name for _, shape, name in scan.keyword_calls if shape == "name"})
    callee_sources = []
    for name in guarded:
        names, attrs = _alias_sources(scan, {name})
        callee_sources.append((name, tuple(sorted(names | attrs))))
    keys = _may_key_a_cache(tree, scan, text) if ("digest" in text or "hash" in text) else None
    return Sites(
        frozenset(scan.attr_calls),
        frozenset(scan.name_calls),
        frozenset(scan.keywords),
        frozenset(scan.mentioned),
        tuple(
            (alias.name.rsplit(".", 1)[-1], alias.asname or alias.name.split(".")[0])
            for alias in scan.imports
        ),
        frozenset(alias_names),
        frozenset(alias_attrs),
        keys,
        frozenset(scan.keyword_calls),
        tuple(callee_sources),
        frozenset(scan.model_strings),
    )


def candidate(sites: Sites, text: str, wanted: Wanted, exported: Collection[str] = ()) -> bool:
    """Return whether a module with these `sites` holds a site `wanted` could report on."""
    if any(word in text for word in wanted.texts):
        return True
    # A callee with several conditions counts when any of them holds (`Anthropic` is
    # LlamaIndex's class or LangChain's legacy one). A name the project itself gives (a
    # wrapper class of its own called `LLM` or `Claude`) counts whatever the text holds.
    absent = {name for name, _ in wanted.only_with} - {
        name for name, word in wanted.only_with if word in text
    }
    callees = (wanted.callees - absent) | frozenset(exported)
    if sites.attr_calls & callees or sites.name_calls & callees:
        return True
    if sites.keywords & wanted.keywords:
        return True
    if wanted.model_ids and any(test(s) for s in sites.model_strings for test in wanted.model_ids):
        return True
    for keyword, pattern in wanted.keyword_callees:
        if keyword in sites.keywords and _guarded_call(sites, keyword, pattern):
            return True
    if sites.name_calls and callees and _may_alias(sites, callees):
        return True
    # `.digest()`, `.hexdigest()` and `hash(...)` are identifiers, written as such in the text.
    if not wanted.cache_digests or not ("digest" in text or "hash" in text):
        return False
    return bool(sites.keys_a_cache)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_BINDINGS = frozenset(
    {
        ast.Assign,
        ast.AnnAssign,
        ast.AugAssign,
        ast.NamedExpr,
        ast.For,
        ast.AsyncFor,
        ast.comprehension,
        ast.With,
        ast.AsyncWith,
    }
)


class _Scan:
    """What the triage reads of a module's calls, names and bindings, in one pass."""

    def __init__(self, tree: ast.Module) -> None:
        self.attr_calls: set[str] = set()
        self.name_calls: set[str] = set()
        self.keywords: set[str] = set()
        self.keyword_calls: set[tuple[str, str, str]] = set()
        self.mentioned: set[str] = set()  # every Name id and Attribute attr
        self.imports: list[ast.alias] = []
        self.bindings: list[tuple[list[ast.AST], list[ast.AST]]] = []
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.model_strings: set[str] = set()
        # A plain loop over a list: `ast.walk`'s generators cost as much as the parse here.
        stack: list[ast.AST] = [tree]
        pop, push, mentioned = stack.pop, stack.append, self.mentioned
        while stack:
            node = pop()
            kind = type(node)
            if kind is ast.Name:
                mentioned.add(node.id)  # type: ignore[attr-defined]
                continue
            if kind is ast.Constant:
                value = node.value  # type: ignore[attr-defined]
                if type(value) is str and MODEL_WORD in value and model_shaped(value):
                    self.model_strings.add(value)
                continue
            if kind is ast.Attribute:
                mentioned.add(node.attr)  # type: ignore[attr-defined]
                push(node.value)  # type: ignore[attr-defined]
                continue
            if kind is ast.Call:
                self._call(node)  # type: ignore[arg-type]
            elif kind is ast.Import or kind is ast.ImportFrom:
                self.imports.extend(node.names)  # type: ignore[attr-defined]
                continue
            elif kind in _BINDINGS:
                bound = _bound_by(node)
                if bound is not None:
                    self.bindings.append(bound)
            elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                self.functions.append(node)  # type: ignore[arg-type]
            _push_children(node, stack)

    def _call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute):
            self.attr_calls.add(func.attr)
        elif isinstance(func, ast.Name):
            self.name_calls.add(func.id)
        if _HANDS_ON.get(_callee_shape(func)[1]) == len(node.args) - 1:
            # `asyncio.to_thread(client.messages.create, ...)` calls the method handed to it;
            # `loop.run_in_executor(None, functools.partial(client.messages.create, ...))` too.
            handed = node.args[-1]
            if isinstance(handed, ast.Call) and handed.args:
                handed = handed.args[0]
            if isinstance(handed, ast.Attribute):
                self.attr_calls.add(handed.attr)
        for keyword in node.keywords:
            if keyword.arg is not None:
                self.keywords.add(keyword.arg)
                if keyword.arg in GUARDED_KEYWORDS:
                    self.keyword_calls.add((keyword.arg, *_callee_shape(func)))


# The last names of the functions that call the function handed to them at this position
# (`analysis.calls.HANDOFFS` and `EXECUTOR_METHODS`).
_HANDS_ON: Final = {"to_thread": 0, "submit": 0, "run_in_executor": 1}


def _callee_shape(func: ast.expr) -> tuple[str, str]:
    """Return (shape, name) of a callee for `Sites.keyword_calls`."""
    if isinstance(func, ast.Name):
        return "name", func.id
    if isinstance(func, ast.Attribute):
        base = func.value
        if (
            isinstance(base, ast.Call)
            and isinstance(base.func, ast.Name)
            and base.func.id == "super"
        ):
            return "super", func.attr
        return "attr", func.attr
    return "other", ""


# Aliases ------------------------------------------------------------------------------------


def _may_alias(sites: Sites, callees: frozenset[str]) -> bool:
    """Return whether a bare name called in the module may hold one of `callees`.

    A name is an alias when some binding of it, in any scope, imports a callee (`from m import
    create as c`) or assigns an expression mentioning a callee or an alias (`c = x.create`,
    `c = make()` where `make` returns one, `with ... as c`, `for c in ...`, a parameter's
    default). Every binding counts, whatever its scope: a superset of what a resolver proves.
    """
    imported = {bound for last, bound in sites.imports if last in callees}
    if sites.name_calls & imported:
        return True
    if not imported and not sites.mentioned & callees:
        return False  # no callee is named anywhere: nothing can hold one
    return bool(sites.alias_attrs & callees or sites.alias_names & (imported | callees))


def _guarded_call(sites: Sites, keyword: str, pattern: str) -> bool:
    """Return whether a call passing `keyword` may have a callee matching `pattern`."""
    matches = re.compile(pattern).fullmatch
    for passed, shape, name in sites.keyword_calls:
        if passed != keyword or shape == "super":
            continue  # `super().__init__(...)`: the parent's own method
        if shape == "other" or matches(name):
            return True
        if shape == "attr":
            if not (name.startswith("__") and name.endswith("__")):
                return True  # an attribute may hold any object (`self.make(...)`)
        elif _may_hold(sites, name, matches):
            return True
    return False


def _may_hold(sites: Sites, name: str, matches: Callable[[str], object]) -> bool:
    """Return whether a bare name may hold something whose name `matches` (an alias of it)."""
    if any(bound == name and matches(last) for last, bound in sites.imports):
        return True  # `from anthropic import Anthropic as make`
    sources = dict(sites.keyword_callee_sources).get(name, ())
    imported = {bound for last, bound in sites.imports if matches(last)}
    return any(matches(source) or source in imported for source in sources)


def _alias_sources(scan: _Scan, called: Collection[str]) -> tuple[set[str], set[str]]:
    """Return the names and attributes the bare names called may take their values from.

    Searched backwards from the names called, through every binding of each name (assignments,
    loop and `with` targets, parameters with a default, functions by their returns), until
    nothing new is reached: whatever the callees asked, a name called is an alias of one only
    if it is among these (`_may_alias`).
    """
    names_found: set[str] = set()
    attrs_found: set[str] = set()
    if not called:
        return names_found, attrs_found
    # name -> the expressions its bindings take their value from
    sources: dict[str, list[ast.AST]] = {}
    for function in scan.functions:
        sources.setdefault(function.name, []).append(function)
        args = function.args
        defaults = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        if defaults:
            for param in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                sources.setdefault(param.arg, []).extend(defaults)
    for targets, values in scan.bindings:
        for name in _names_in(targets):
            sources.setdefault(name, []).extend(values)
    if sources.keys().isdisjoint(called):
        return names_found, attrs_found  # no name called is bound here (builtins, imports)
    seen: set[str] = set()
    pending = list(called)
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in sources.get(name, ()):
            if isinstance(value, _FUNCTIONS):
                returned = [r.value for r in _returns(value) if r.value is not None]
                names, receivers, attrs = _mentions(returned)
            else:
                names, receivers, attrs = _mentions([value])
            names_found |= names
            attrs_found |= attrs
            pending.extend((names | receivers) - seen)
    return names_found, attrs_found


def _bound_by(node: ast.AST) -> tuple[list[ast.AST], list[ast.AST]] | None:
    """Return (targets, values) of a statement or expression that binds names, else None."""
    if isinstance(node, ast.Assign):
        return list(node.targets), [node.value]
    if isinstance(node, ast.AnnAssign) and node.value is not None:
        return [node.target], [node.value]
    if isinstance(node, ast.AugAssign):
        return [node.target], [node.value]
    if isinstance(node, ast.NamedExpr):
        return [node.target], [node.value]
    if isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        return [node.target], [node.iter]
    if isinstance(node, (ast.With, ast.AsyncWith)):
        items = [i for i in node.items if i.optional_vars is not None]
        return [i.optional_vars for i in items if i.optional_vars is not None], [
            i.context_expr for i in items
        ]
    return None


def _returns(function: ast.AST) -> Iterable[ast.Return]:
    """Return the return statements in a function (nested ones too: a superset).

    A `return` is a statement, so only the statement lists are searched, never an expression.
    """
    found: list[ast.Return] = []
    stack = [function]
    while stack:
        node = stack.pop()
        for name in _STATEMENT_LISTS:
            value = getattr(node, name, None)
            if type(value) is list:
                for child in value:
                    if type(child) is ast.Return:
                        found.append(child)
                    else:
                        stack.append(child)
    return found


# The fields that hold statements (`match_case` and `ExceptHandler` nodes hold them in turn).
_STATEMENT_LISTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _nodes(top: ast.AST) -> list[ast.AST]:
    """Return every node under `top` (itself included), in no particular order.

    `ast.walk` without its generators and deque: the triage's sets do not depend on the order.
    """
    found: list[ast.AST] = []
    stack = [top]
    while stack:
        node = stack.pop()
        found.append(node)
        _push_children(node, stack)
    return found


# Fields that never hold a node the triage reads: identifiers, numbers, and the contexts and
# operators (`Load()`, `Add()`, `In()`), which are nodes but tell the scans nothing.
_SCALAR_FIELDS = frozenset(
    {
        "ctx", "op", "ops", "id", "attr", "arg", "module", "level", "kind", "type_comment",
        "asname", "conversion", "is_async", "kwd_attrs", "tag", "names", "simple", "rest",
    }
)  # fmt: skip
# Lists that may hold None beside nodes (`{**d}`'s key, a keyword-only parameter's default).
_HOLES = frozenset({"keys", "kw_defaults"})
# A node type -> (its fields that may hold nodes, those of them that are lists with holes).
_CHILD_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str]]] = {}


def _child_fields(kind: type) -> tuple[tuple[str, ...], frozenset[str]]:
    skip = set(_SCALAR_FIELDS)
    if kind.__name__ in ("Constant", "MatchSingleton"):
        skip.add("value")  # a Python value, never a node
    if kind.__name__ != "TypeAlias":
        skip.add("name")  # an identifier everywhere but in `type X = ...` (a Name)
    fields = tuple(f for f in getattr(kind, "_fields", ()) if f not in skip)
    found = _CHILD_FIELDS[kind] = (fields, _HOLES.intersection(fields))
    return found


def _push_children(node: ast.AST, stack: list[ast.AST]) -> None:
    """Push the child nodes of `node` the scans read (`ast.iter_child_nodes`, leaner)."""
    kind = type(node)
    fields, holes = _CHILD_FIELDS.get(kind) or _child_fields(kind)
    for name in fields:
        value = getattr(node, name, None)
        if type(value) is list:
            if name in holes:
                stack.extend(item for item in value if item is not None)
            else:
                stack.extend(value)
        elif value is not None:
            stack.append(value)


def _names_in(nodes: Iterable[ast.AST]) -> set[str]:
    found: set[str] = set()
    for node in nodes:
        kind = type(node)
        if kind is ast.Name:  # nearly every target: `x = ...`
            found.add(node.id)  # type: ignore[attr-defined]
        elif kind is ast.arg:
            found.add(node.arg)  # type: ignore[attr-defined]
        else:
            found.update(n.id for n in _nodes(node) if type(n) is ast.Name)
    return found


def _mentions(nodes: Iterable[ast.AST]) -> tuple[set[str], set[str], set[str]]:
    """Return the bare names, the receivers and the attribute names read anywhere in `nodes`.

    A receiver is a name read only to look an attribute up on it (`request` in
    `request.headers`): the expression's value is the attribute, not the name's, so the name
    is followed to its own sources but is no alias itself. A dunder attribute (`f.__call__`,
    `f.__wrapped__`) may give back the object itself: its receiver counts as a name, and so
    does a receiver also read otherwise (`request.url or request`).
    """
    attrs: set[str] = set()
    read: list[ast.Name] = []
    receiving: set[int] = set()
    for node in nodes:
        for sub in _nodes(node):
            kind = type(sub)
            if kind is ast.Name:
                read.append(sub)  # type: ignore[arg-type]
            elif kind is ast.Attribute:
                attr = sub.attr  # type: ignore[attr-defined]
                attrs.add(attr)
                if not (attr.startswith("__") and attr.endswith("__")):
                    receiving.add(id(sub.value))  # type: ignore[attr-defined]
    names = {name.id for name in read if id(name) not in receiving}
    receivers = {name.id for name in read if id(name) in receiving} - names
    return names, receivers, attrs


# CM106: a digest that may key a cache ---------------------------------------------------------

# Every cache the rule recognises is named so somewhere in the file: a redis/diskcache/
# cachetools/django import, a receiver whose name holds "cache", an annotation naming a
# `...Cache`/`...Redis` class, or a key named `cache_key`.
CACHE_WORDS = ("cache", "redis")
_CACHE_KEY = re.compile(r"cache_?key", re.IGNORECASE)


def _may_key_a_cache(tree: ast.Module, scan: _Scan, text: str) -> bool:
    """Return whether a digest of the module may be a cache key built from prompt words.

    Necessary conditions of the cache-key rule: a digest (`<hashlib object>.hexdigest()` in a
    module importing hashlib, or the builtin `hash(x)`); a prompt word and a cache word among
    the module's text and string values; and, in the digest's function or in a function that
    may receive it through returns, a place a key is used (a call of a cache method, a
    subscript, an `in` test, a name or function named as a cache key).
    """
    from claude_migrate.targets.cache_vocabulary import PROMPT_WORDS

    digest_called = scan.attr_calls & _HASH_METHODS or "hash" in scan.name_calls
    # A hashlib digest needs hashlib imported (the text names it); `hash()` needs nothing.
    if not digest_called or ("hashlib" not in text and "hash" not in scan.name_calls):
        return False
    lowered = text.lower()
    strings: list[str] | None = None

    def mentions(words: Iterable[str]) -> bool:
        nonlocal strings
        if any(w in lowered for w in words):
            return True
        if strings is None:  # escapes and implicit concatenation: the values, not the text
            strings = [
                (v if isinstance(v, str) else v.decode("latin-1")).lower()
                for n in ast.walk(tree)
                if isinstance(n, ast.Constant) and isinstance(v := n.value, (str, bytes))
            ]
        return any(w in s for w in words for s in strings)

    if not (mentions(CACHE_WORDS) and mentions(PROMPT_WORDS)):
        return False
    owners = _Owners(tree)
    return any(owners.reaches_a_key(where) for where in owners.digests)


_IN = (ast.In, ast.NotIn)
# The node types `_Owners._keys` can say yes to.
_KEY_PLACES = frozenset({ast.Subscript, ast.Compare, ast.Call, ast.Name, ast.Attribute})
_HASH_METHODS = frozenset({"hexdigest", "digest"})


class _Owners:
    """Digests, calls by name and key uses, by the function (or module) they belong to.

    A function's decorators, defaults and return annotation belong to it and to the function
    around it (Python evaluates them outside; counting both is a superset either way).
    """

    def __init__(self, tree: ast.Module) -> None:
        from claude_migrate.targets.cache_vocabulary import KEY_METHODS

        self.digests: list[tuple[ast.AST, ...]] = []
        self.callers: dict[str, set[int]] = {}  # function name -> ids of calling owners
        self.keyed: set[int] = set()  # ids of owners with a place a cache key is used
        self.owner_of: dict[int, ast.AST] = {id(tree): tree}
        # method -> its class's name: a digest kept by `__init__` reaches whoever builds one
        self.class_of: dict[int, str] = {}
        stack: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(tree, (tree,))]
        while stack:
            node, owners = stack.pop()
            if isinstance(node, ast.ClassDef):
                self.class_of.update(
                    (id(m), node.name) for m in node.body if isinstance(m, _FUNCTIONS)
                )
            if isinstance(node, _FUNCTIONS):
                self._function(node, owners, stack)
                continue
            if type(node) in _KEY_PLACES and self._keys(node, KEY_METHODS):
                self.keyed.update(id(o) for o in owners)
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute) and func.attr in _HASH_METHODS:
                    if not node.args and not node.keywords:
                        self.digests.append(owners)
                elif isinstance(func, ast.Name):
                    self.callers.setdefault(func.id, set()).update(id(o) for o in owners)
                    if func.id == "hash":
                        self.digests.append(owners)
            for name in node._fields:
                value = getattr(node, name, None)
                if type(value) is list:
                    stack.extend((item, owners) for item in value if isinstance(item, ast.AST))
                elif isinstance(value, ast.AST):
                    stack.append((value, owners))

    @staticmethod
    def _keys(node: ast.AST, methods: Collection[str]) -> bool:
        """Return whether `node` is a place a cache key is used or named."""
        # A key is an index (`cache[key]`), never a slice (`digest[:16]`) or a literal.
        if isinstance(node, ast.Subscript):
            return not isinstance(node.slice, (ast.Slice, ast.Constant))
        if isinstance(node, ast.Compare):
            return not isinstance(node.left, ast.Constant) and any(
                isinstance(op, _IN) for op in node.ops
            )
        if isinstance(node, ast.Call):
            func = node.func
            return (
                isinstance(func, ast.Attribute)
                and func.attr in methods
                and bool(node.args or node.keywords)
            )
        if isinstance(node, ast.Name):
            return bool(_CACHE_KEY.search(node.id))
        if isinstance(node, ast.Attribute):
            return bool(_CACHE_KEY.search(node.attr))
        return False

    def _function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        owners: tuple[ast.AST, ...],
        stack: list[tuple[ast.AST, tuple[ast.AST, ...]]],
    ) -> None:
        self.owner_of[id(node)] = node
        both = (*owners, node)
        args = node.args
        outside: list[ast.AST] = [*node.decorator_list, *args.defaults]
        outside.extend(d for d in args.kw_defaults if d is not None)
        if node.returns is not None:
            outside.append(node.returns)
        stack.extend((child, both) for child in outside)
        stack.append((args, (node,)))
        stack.extend((statement, (node,)) for statement in node.body)

    def reaches_a_key(self, owners: tuple[ast.AST, ...]) -> bool:
        """Return whether a digest's function, or one its value may return to, uses a key.

        A method's value may also reach whoever builds an instance of its class (an object
        that keeps the digest and renders it in `__str__`).
        """
        found = list(owners)
        seen = {id(o) for o in found}
        for owner in found:
            if id(owner) in self.keyed:
                return True
            if not isinstance(owner, _FUNCTIONS):
                continue
            if _CACHE_KEY.search(owner.name):
                return True
            names = [owner.name]
            if id(owner) in self.class_of:
                names.append(self.class_of[id(owner)])
            for caller in (c for n in names for c in self.callers.get(n, ())):
                if caller not in seen:
                    seen.add(caller)
                    found.append(self.owner_of[caller])
        return False
