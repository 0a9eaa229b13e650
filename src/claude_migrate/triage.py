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
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass

__all__ = ["Wanted", "enabled", "has_candidate", "parse_for_triage"]

# Set to "0" to send every file that passes the byte prefilter to LibCST, as before the triage.
SWITCH = "CLAUDE_MIGRATE_TRIAGE"


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
    `only_with`: (callee, text) pairs: the callee counts only in a file holding the text (the
    import that makes it Claude's, e.g. `Anthropic` is LlamaIndex's LLM class only when
    `llama_index` is imported, and an SDK client's constructor is no site).
    """

    callees: frozenset[str] = frozenset()
    keywords: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()
    cache_digests: bool = False
    only_with: tuple[tuple[str, str], ...] = ()

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
    if any(word in text for word in wanted.texts):
        return True
    callees = wanted.callees | frozenset(exported)
    absent = {name for name, word in wanted.only_with if word not in text}
    if absent:
        callees -= absent
    named: set[str] = set()  # bare names called: candidates if an alias of a wanted callee
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in callees:
                return True
        elif isinstance(func, ast.Name):
            if func.id in callees:
                return True
            named.add(func.id)
        if wanted.keywords and any(k.arg in wanted.keywords for k in node.keywords):
            return True
    if named and callees and named & _aliases(tree, callees):
        return True
    return wanted.cache_digests and _may_key_a_cache(tree, text)


# Aliases ------------------------------------------------------------------------------------


def _aliases(tree: ast.Module, callees: frozenset[str]) -> set[str]:
    """Return every name that may hold one of `callees` (a superset of what a resolver proves).

    A name is an alias when some binding of it, in any scope, imports a callee (`from m import
    create as c`) or assigns an expression mentioning a callee or an alias (`c = x.create`,
    `c = make()` where `make` returns one, `with ... as c`, `for c in ...`, a parameter's default).
    """
    imported: set[str] = set()
    sources: list[tuple[set[str], set[str], set[str]]] = []  # (names bound, names read, attrs)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name.rsplit(".", 1)[-1] in callees:
                    imported.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returned = [r.value for r in _returns(node) if r.value is not None]
            sources.append(({node.name}, *_mentions(returned)))
            defaults = [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]
            if defaults:
                params = {a.arg for a in (*node.args.posonlyargs, *node.args.args)}
                params |= {a.arg for a in node.args.kwonlyargs}
                sources.append((params, *_mentions(defaults)))
        else:
            bound = _bound_by(node)
            if bound is not None:
                targets, values = bound
                sources.append((_names_in(targets), *_mentions(values)))
    tainted = set(imported) | set(callees)
    changed = True
    while changed:
        changed = False
        for names, reads, attrs in sources:
            if names <= tainted:
                continue
            if reads & tainted or attrs & callees:
                tainted |= names
                changed = True
    return tainted


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


def _returns(function: ast.AST) -> Iterator[ast.Return]:
    for node in ast.walk(function):
        if isinstance(node, ast.Return):
            yield node


def _names_in(nodes: Iterable[ast.AST]) -> set[str]:
    return {n.id for node in nodes for n in ast.walk(node) if isinstance(n, ast.Name)}


def _mentions(nodes: Iterable[ast.AST]) -> tuple[set[str], set[str]]:
    """Return the bare names and the attribute names read anywhere in `nodes`."""
    names: set[str] = set()
    attrs: set[str] = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
            elif isinstance(sub, ast.Attribute):
                attrs.add(sub.attr)
    return names, attrs


# CM106: a digest that may key a cache ---------------------------------------------------------

# Every cache the rule recognises is named so somewhere in the file: a redis/diskcache/
# cachetools/django import, a receiver whose name holds "cache", an annotation naming a
# `...Cache`/`...Redis` class, or a key named `cache_key`.
CACHE_WORDS = ("cache", "redis")
_CACHE_KEY = re.compile(r"cache_?key", re.IGNORECASE)


def _may_key_a_cache(tree: ast.Module, text: str) -> bool:
    """Return whether a digest of the module may be a cache key built from prompt words.

    Necessary conditions of the cache-key rule: a digest (`<hashlib object>.hexdigest()` in a
    module importing hashlib, or the builtin `hash(x)`); a prompt word and a cache word among
    the module's text and string values; and, in the digest's function or in a function that
    may receive it through returns, a place a key is used (a call of a cache method, a
    subscript, an `in` test, a name or function named as a cache key).
    """
    strings = [
        (v if isinstance(v, str) else v.decode("latin-1")).lower()
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(v := n.value, (str, bytes))
    ]
    lowered = text.lower()

    def mentions(words: tuple[str, ...]) -> bool:
        return any(w in lowered or any(w in s for s in strings) for w in words)

    from .checks.cache_key import HASH_METHODS, KEY_METHODS, PROMPT_WORDS

    if not (mentions(CACHE_WORDS) and mentions(tuple(PROMPT_WORDS))):
        return False
    imports_hashlib = any(
        isinstance(n, (ast.Import, ast.ImportFrom))
        and (
            "hashlib" in (getattr(n, "module", None) or "")
            or any("hashlib" in a.name for a in n.names)
        )
        for n in ast.walk(tree)
    )
    owners = _Owners(tree)
    for owner, call in owners.calls():
        func = call.func
        digest = (
            imports_hashlib
            and isinstance(func, ast.Attribute)
            and func.attr in HASH_METHODS
            and not call.args
            and not call.keywords
        ) or (isinstance(func, ast.Name) and func.id == "hash")
        if digest and any(_uses_a_key(f, KEY_METHODS) for f in owners.receivers(owner)):
            return True
    return False


class _Owners:
    """Every call by the function (or module) it is in, and who calls each function by name."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self._calls: list[tuple[ast.AST, ast.Call]] = []
        self.callers: dict[str, set[ast.AST]] = {}
        self._collect(tree, tree)

    def _collect(self, node: ast.AST, owner: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                self._calls.append((owner, child))
                if isinstance(child.func, ast.Name):
                    self.callers.setdefault(child.func.id, set()).add(owner)
            inner = child if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner
            self._collect(child, inner)

    def calls(self) -> list[tuple[ast.AST, ast.Call]]:
        return self._calls

    def receivers(self, owner: ast.AST) -> list[ast.AST]:
        """Return `owner` and every function that may get its value through calls by name."""
        found: list[ast.AST] = [owner]
        seen = {id(owner)}
        for function in found:
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for caller in self.callers.get(function.name, ()):
                if id(caller) not in seen:
                    seen.add(id(caller))
                    found.append(caller)
        return found


def _uses_a_key(owner: ast.AST, methods: Collection[str]) -> bool:
    """Return whether a function (or module) has a place a cache key is used or named."""
    if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef)) and _CACHE_KEY.search(owner.name):
        return True
    for node in ast.walk(owner):
        if isinstance(node, ast.Subscript):
            return True
        if isinstance(node, ast.Compare) and any(
            isinstance(op, (ast.In, ast.NotIn)) for op in node.ops
        ):
            return True
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in methods
            and (node.args or node.keywords)
        ):
            return True
        if isinstance(node, ast.Name) and _CACHE_KEY.search(node.id):
            return True
        if isinstance(node, ast.Attribute) and _CACHE_KEY.search(node.attr):
            return True
    return False
