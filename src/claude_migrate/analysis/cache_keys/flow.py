"""Where a digest of prompt data goes: the cache key it becomes, through names and returns.

`KeyFinder` starts from every `.hexdigest()` / `.digest()` / `hash(...)` call of a file, grows
it to the string built around it (an f-string, `+`, `%`, `str()`, `.format()`, `"".join()`),
and follows that value through a local name, a function's return, or an object's attribute
rendered by its `__str__` until it is used as a cache's key, or bound to a name that says it
is one. It also collects the words a key and its
hashed data are made of, and the stream flag of the Claude call the key caches. Parents and
names come from the file's shared `NodeMap` (`FileContext.nodes`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.analysis.streams import call_streams
from claude_migrate.analysis.values import string_value
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets.cache_vocabulary import (
    CACHE_CLASSES,
    CACHE_FACTORIES,
    CACHE_OBJECTS,
    CACHE_REGISTRIES,
    DICT_ANNOTATIONS,
    DICT_FACTORIES,
    HASH_METHODS,
    KEY_METHODS,
    names_a_cache_key,
)

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.scope import CallRecord, Scope
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

# How many names or returns a key is followed through, and how many words are collected.
MAX_FOLLOW = 4
MAX_WORDS = 400


@dataclass(eq=False)
class Digest:
    """A digest of some data: the expression that yields it and the data it hashes."""

    node: cst.BaseExpression
    scope: Scope
    data: list[cst.BaseExpression]
    file: bool = False  # hashlib.file_digest and the like


@dataclass(eq=False)
class Key:
    """The expression a cache is keyed by, where it is, and the functions it flows through."""

    node: cst.BaseExpression
    scope: Scope
    functions: tuple[cst.CSTNode, ...]
    # What else the key is made of: the `__str__` return of an object that holds the digest.
    parts: tuple[tuple[cst.BaseExpression, Scope], ...] = ()
    # Why the key cannot be rebuilt where it is used ("" when it can).
    no_fix: str = ""


class KeyFinder:
    """Follows digests of one file to the cache keys they become, and reads what keys hold."""

    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.resolver = ctx.resolver
        self.values = ctx.resolver.values
        self._records: dict[int, CallRecord] | None = None

    def record_of(self, call: cst.Call) -> CallRecord | None:
        if self._records is None:
            self._records = {id(r.node): r for r in self.ctx.index.calls}
        return self._records.get(id(call))

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.ctx.nodes.parent(node)

    # Digests --------------------------------------------------------------------------------
    def digests(self) -> Iterator[Digest]:
        for record in self.ctx.index.calls:
            call = record.node
            func = call.func
            if (
                isinstance(func, cst.Attribute)
                and func.attr.value in HASH_METHODS
                and not call.args
            ):
                found = self._hasher(func.value, record)
                if found is not None:
                    data, is_file = found
                    yield Digest(call, record.scope, data, is_file)
            elif (
                isinstance(func, cst.Name)
                and func.value == "hash"
                and not record.scope.lookup("hash")
                and len(call.args) == 1
                and not call.args[0].star
            ):
                yield Digest(call, record.scope, [call.args[0].value])

    def _hasher(
        self, node: cst.BaseExpression, record: CallRecord
    ) -> tuple[list[cst.BaseExpression], bool] | None:
        """Return the data a hashlib object is fed, and whether it is a file digest."""
        scope = record.scope
        if isinstance(node, cst.Call):
            qual = self.resolver.qualname(node.func, scope)
            if qual is None or not qual.startswith("hashlib."):
                return None
            data = [a.value for a in node.args if not a.star]
            return data, qual == "hashlib.file_digest"
        if isinstance(node, cst.Name):
            binding = self.values.single_binding(node.value, scope)
            if binding is None or not isinstance(binding.value, cst.Call):
                return None
            found = self._hasher(binding.value, record)
            if found is None:
                return None
            data, is_file = found
            function = scope.function()
            for other in self.ctx.index.calls:
                func = other.node.func
                if (
                    isinstance(func, cst.Attribute)
                    and func.attr.value == "update"
                    and isinstance(func.value, cst.Name)
                    and func.value.value == node.value
                    and other.scope.function() is function
                ):
                    data.extend(a.value for a in other.node.args if not a.star)
            return data, is_file
        return None

    # Where a digest goes ----------------------------------------------------------------------
    def grow(self, node: cst.BaseExpression) -> cst.BaseExpression:
        """Return the largest string-building expression around `node` (f-string, +, str()...)."""
        while True:
            parent = self.parent(node)
            if isinstance(parent, cst.FormattedStringExpression):
                outer = self.parent(parent)
                if not isinstance(outer, cst.FormattedString):
                    return node
                node = outer
            elif isinstance(parent, cst.BinaryOperation) and isinstance(
                parent.operator, (cst.Add, cst.Modulo)
            ):
                node = parent
            elif isinstance(parent, (cst.Arg, cst.Element)):
                container = self.parent(parent)
                if isinstance(container, (cst.List, cst.Tuple)):
                    arg = self.parent(container)
                    call = self.parent(arg) if isinstance(arg, cst.Arg) else None
                    if isinstance(call, cst.Call) and self._is_join(call):
                        node = call
                        continue
                    return node
                if isinstance(container, cst.Call) and (
                    self._is_str(container) or self._is_format(container)
                ):
                    node = container
                    continue
                return node
            else:
                return node

    def _is_str(self, call: cst.Call) -> bool:
        record = self.record_of(call)
        return (
            isinstance(call.func, cst.Name)
            and call.func.value == "str"
            and record is not None
            and not record.scope.lookup("str")
            and len(call.args) == 1
        )

    @staticmethod
    def _is_format(call: cst.Call) -> bool:
        func = call.func
        return (
            isinstance(func, cst.Attribute)
            and func.attr.value == "format"
            and string_value(func.value) is not None
        )

    @staticmethod
    def _is_join(call: cst.Call) -> bool:
        func = call.func
        return (
            isinstance(func, cst.Attribute)
            and func.attr.value == "join"
            and string_value(func.value) is not None
        )

    def key_for(self, digest: Digest) -> Key | None:
        return self._key(digest.node, digest.scope, (digest.scope.function().node,), 0)

    def _key(
        self,
        node: cst.BaseExpression,
        scope: Scope,
        functions: tuple[cst.CSTNode, ...],
        depth: int,
    ) -> Key | None:
        """Return the key `node` (grown) ends up as, if it provably keys a cache."""
        if depth > MAX_FOLLOW:
            return None
        grown = self.grow(node)
        if self._keys_a_cache(grown, scope):
            return Key(grown, scope, functions)
        parent = self.parent(grown)
        target: cst.BaseExpression | None = None
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
            target = parent.targets[0].target
        elif isinstance(parent, cst.AnnAssign) and parent.value is grown:
            target = parent.target
        if isinstance(target, cst.Attribute):
            if names_a_cache_key(target.attr.value):
                return Key(grown, scope, functions)
            return self._through_attribute(target, scope, functions, depth)
        if isinstance(target, cst.Name):
            if names_a_cache_key(target.value):
                return Key(grown, scope, functions)
            return self._through_name(grown, target, scope, functions, depth)
        if isinstance(parent, cst.Return):
            return self._through_return(grown, scope, functions, depth)
        return None

    def _through_name(
        self,
        value: cst.BaseExpression,
        target: cst.Name,
        scope: Scope,
        functions: tuple[cst.CSTNode, ...],
        depth: int,
    ) -> Key | None:
        """Follow a name bound to the key: used as a cache key, or built into a larger key."""
        owner = scope.function().node
        for use in self.ctx.nodes.names_in(owner, target.value):
            if use is target:
                continue
            grown = self.grow(use)
            if grown is use:
                if self._keys_a_cache(use, scope):
                    return Key(value, scope, functions)
                continue
            found = self._key(use, scope, functions, depth + 1)
            if found is not None:
                return found
        return None

    def _through_return(
        self,
        value: cst.BaseExpression,
        scope: Scope,
        functions: tuple[cst.CSTNode, ...],
        depth: int,
    ) -> Key | None:
        """Follow a function returning the key: by its name, or to callers that cache with it."""
        function = scope.function()
        node = function.node
        if not isinstance(node, cst.FunctionDef):
            return None
        if names_a_cache_key(node.name.value):
            return Key(value, scope, functions)
        for record in self.ctx.index.calls:
            func = record.node.func
            name = func.value if isinstance(func, cst.Name) else None
            if name != node.name.value:
                continue
            bindings = record.scope.lookup(name)
            if len(bindings) != 1 or bindings[0].node is not node:
                continue
            found = self._key(
                record.node, record.scope, (*functions, record.scope.function().node), depth + 1
            )
            if found is not None:
                # The key is this function's value wherever it is used as is.
                if found.node is record.node:
                    return Key(value, scope, found.functions)
                return found
        return None

    def _through_attribute(
        self,
        target: cst.Attribute,
        scope: Scope,
        functions: tuple[cst.CSTNode, ...],
        depth: int,
    ) -> Key | None:
        """Follow a key kept in `self.<attr>` and rendered by its class's `__str__`.

        The key is each place an instance of the class (`PromptKey(prompt)`, or a name bound to
        it) is rendered by `str()` or an f-string and used as a cache's key. It is not rebuilt
        there: the text of the key is the class's, and is written in its `__str__`.
        """
        method = scope.function()
        info = method.method_of
        if (
            info is None
            or not isinstance(target.value, cst.Name)
            or target.value.value != method.self_name
        ):
            return None
        rendered = self._rendering(info.node, target.attr.value)
        if rendered is None:
            return None
        render, render_scope = rendered
        name = info.node.name.value
        for record in self.ctx.index.calls:
            func = record.node.func
            if not isinstance(func, cst.Name) or func.value != name:
                continue
            bindings = record.scope.lookup(name)
            if len(bindings) != 1 or bindings[0].node is not info.node:
                continue
            chain = (*functions, render_scope.node, record.scope.function().node)
            found = self._rendered_key(record.node, record.scope, chain, depth + 1)
            if found is not None:
                why = f"no fix: the key is the text of {name}.__str__, add the components there"
                return Key(found.node, found.scope, found.functions, ((render, render_scope),), why)
        return None

    def _rendering(
        self, cls: cst.ClassDef, attribute: str
    ) -> tuple[cst.BaseExpression, Scope] | None:
        """Return what `cls.__str__` returns built around `self.<attribute>`, and its scope."""
        for statement in cls.body.body:
            if not isinstance(statement, cst.FunctionDef) or statement.name.value != "__str__":
                continue
            scope = self.resolver.scope_of(statement)
            if scope is None or scope.self_name is None:
                return None
            for use in self.ctx.nodes.names_in(statement, scope.self_name):
                node = self.parent(use)
                if (
                    isinstance(node, cst.Attribute)
                    and node.value is use
                    and node.attr.value == attribute
                ):
                    grown = self.grow(node)
                    if isinstance(self.parent(grown), cst.Return):
                        return grown, scope
        return None

    def _rendered_key(
        self,
        instance: cst.BaseExpression,
        scope: Scope,
        functions: tuple[cst.CSTNode, ...],
        depth: int,
    ) -> Key | None:
        """Return the key an instance's text becomes: `str(instance)`, or through a name."""
        if self.grow(instance) is not instance:
            return self._key(instance, scope, functions, depth)
        parent = self.parent(instance)
        if not (
            isinstance(parent, cst.Assign)
            and len(parent.targets) == 1
            and isinstance(target := parent.targets[0].target, cst.Name)
        ):
            return None
        for use in self.ctx.nodes.names_in(scope.function().node, target.value):
            if use is not target and self.grow(use) is not use:
                found = self._key(use, scope, functions, depth)
                if found is not None:
                    return found
        return None

    def _keys_a_cache(self, node: cst.BaseExpression, scope: Scope) -> bool:
        """Return whether `node` is used right here as a cache's key."""
        parent = self.parent(node)
        if isinstance(parent, cst.Arg):
            call = self.parent(parent)
            return isinstance(call, cst.Call) and self._cache_call(call, parent, scope)
        if isinstance(parent, cst.Index):
            element = self.parent(parent)
            subscript = self.parent(element) if element is not None else None
            return (
                isinstance(subscript, cst.Subscript)
                and len(subscript.slice) == 1
                and self.is_cache(subscript.value, scope)
            )
        if isinstance(parent, cst.Comparison) and parent.left is node:
            return any(
                isinstance(c.operator, (cst.In, cst.NotIn)) and self.is_cache(c.comparator, scope)
                for c in parent.comparisons
            )
        return False

    def _cache_call(self, call: cst.Call, arg: cst.Arg, scope: Scope) -> bool:
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in KEY_METHODS:
            return False
        if arg.keyword is not None:
            if arg.keyword.value not in ("key", "name"):
                return False
        else:
            positional = [a for a in call.args if a.keyword is None and not a.star]
            index = next((i for i, a in enumerate(positional) if a is arg), None)
            allowed = (0, 1) if func.attr.value.startswith("h") else (0,)
            if index not in allowed:
                return False
        return self.is_cache(func.value, scope)

    def uses_a_store(self) -> bool:
        """Return whether the module imports a shared cache store: redis, Django's cache,
        diskcache or cachetools (`CACHE_FACTORIES`, `CACHE_OBJECTS`, `CACHE_REGISTRIES`)."""
        stores = CACHE_FACTORIES | CACHE_OBJECTS | CACHE_REGISTRIES
        roots = {name.split(".")[0] for name in stores} - {"django"} | {"django.core.cache"}
        for scope in self.ctx.index.scopes:
            for bindings in scope.bindings.values():
                for binding in bindings:
                    qualname = binding.qualname
                    if binding.kind == "import" and any(
                        qualname == root or qualname.startswith(f"{root}.") for root in roots
                    ):
                        return True
        return False

    # What is a cache ----------------------------------------------------------------------------
    def is_cache(self, node: cst.BaseExpression, scope: Scope, depth: int = 0) -> bool:
        if depth > MAX_FOLLOW:
            return False
        if isinstance(node, cst.Subscript):
            return self.resolver.qualname(node.value, scope) in CACHE_REGISTRIES
        if isinstance(node, cst.Call):
            return self.resolver.qualname(node.func, scope) in CACHE_FACTORIES
        if (
            isinstance(node, (cst.Name, cst.Attribute))
            and self.resolver.qualname(node, scope) in CACHE_OBJECTS
        ):
            return True
        bindings = []
        name = ""
        if isinstance(node, cst.Name):
            name = node.value
            bindings = scope.lookup(name)
        elif isinstance(node, cst.Attribute):
            from claude_migrate.analysis.symbols import LocalInstance

            name = node.attr.value
            base = self.resolver.resolve(node.value, scope)
            if isinstance(base, LocalInstance):
                bindings = base.info.attributes.get(name, [])
        is_cache_named = "cache" in name.lower()
        for binding in bindings:
            if binding.kind in ("annotation", "param"):
                if binding.value is not None and self._cache_annotation(
                    binding.value, binding.scope, is_cache_named
                ):
                    return True
            elif binding.kind in ("assign", "with") and binding.value is not None:
                value = binding.value
                if isinstance(value, cst.Call) and self.is_cache(value, binding.scope, depth + 1):
                    return True
                if is_cache_named and self._is_dict(value, binding.scope):
                    return True
        return False

    def _is_dict(self, value: cst.BaseExpression, scope: Scope) -> bool:
        if isinstance(value, cst.Dict):
            return True
        if isinstance(value, cst.Call):
            func = value.func
            if isinstance(func, cst.Name) and func.value == "dict" and not scope.lookup("dict"):
                return True
            return self.resolver.qualname(func, scope) in DICT_FACTORIES
        return False

    def _cache_annotation(
        self, annotation: cst.BaseExpression, scope: Scope, is_cache_named: bool
    ) -> bool:
        for node in _walk(annotation):
            if isinstance(node, (cst.Name, cst.Attribute)):
                if self.resolver.qualname(node, scope) in CACHE_CLASSES:
                    return True
                last = node.value if isinstance(node, cst.Name) else node.attr.value
                if is_cache_named and last in DICT_ANNOTATIONS:
                    return True
            if isinstance(node, cst.SimpleString):
                text = string_value(node)
                if text and any(text.endswith(c.rsplit(".", 1)[-1]) for c in CACHE_CLASSES):
                    return True
        return False

    # Words: what the key and the hashed data are made of ------------------------------------
    def words(self, node: cst.CSTNode, scope: Scope) -> set[str]:
        found: set[str] = set()
        self._words(node, scope, found, 0)
        return found

    def words_of_all(self, nodes: list[cst.BaseExpression], scope: Scope) -> set[str]:
        found: set[str] = set()
        for node in nodes:
            self._words(node, scope, found, 0)
        return found

    def _words(self, node: cst.CSTNode, scope: Scope, found: set[str], depth: int) -> None:
        if len(found) > MAX_WORDS:
            return
        if isinstance(node, cst.Name):
            found.add(node.value)
            if depth < MAX_FOLLOW:
                # Every value the name may hold: one assigned in a loop or a branch, or
                # rebound, is still data the key is made of.
                for binding in scope.lookup(node.value):
                    if binding.kind == "assign" and binding.value is not None:
                        self._words(binding.value, binding.scope, found, depth + 1)
            return
        if isinstance(node, cst.Attribute):
            found.add(node.attr.value)
        elif isinstance(node, cst.SimpleString):
            text = string_value(node)
            if text is not None:
                found.add(text)
        elif isinstance(node, cst.FormattedStringText):
            found.add(node.value)
        for child in node.children:
            self._words(child, scope, found, depth)

    # Request arguments ---------------------------------------------------------------------------
    def forwards_request(self, digest: Digest) -> bool:
        """Return whether the hashed data holds the `**kwargs` its function forwards to a call.

        `hash(frozenset(kwargs.items()))` in `def generate(self, **kwargs)` that later calls
        `self.api_call(**kwargs)`: the key is made of the request's own arguments.
        """
        function = digest.scope.function().node
        if not isinstance(function, cst.FunctionDef):
            return False
        star = function.params.star_kwarg
        if not isinstance(star, cst.Param):
            return False
        name = star.name.value
        if name not in self.words_of_all(digest.data, digest.scope):
            return False
        for use in self.ctx.nodes.names_in(function, name):
            arg = self.parent(use)
            call = self.parent(arg) if isinstance(arg, cst.Arg) and arg.star == "**" else None
            if isinstance(call, cst.Call) and not _calls_a_parameter(call, digest.scope):
                return True
        return False

    # The stream flag of the cached call --------------------------------------------------------
    def stream_flag(self, key: Key, digest: Digest) -> tuple[bool | None, str]:
        """Return the stream flag of the Claude call the key caches, or None and why not."""
        owners = {id(f) for f in key.functions} | {id(digest.scope.function().node)}
        states = {
            call_streams(site)
            for site in self.ctx.sites
            if id(site.record.scope.function().node) in owners
        }
        if not states:
            return None, "no fix: no Claude call in the key's function shows the stream flag"
        if len(states) > 1 or None in states:
            return None, "no fix: the stream flag of the cached call is not known here"
        flag = states.pop()
        if flag is False and self.ctx.facts.streaming_required:
            return None, "no fix until the call streams (CM104)"
        return flag, ""


def _calls_a_parameter(call: cst.Call, scope: Scope) -> bool:
    """Return whether a call is of a function's parameter (`fn(*args, **kwargs)` in a
    decorator's wrapper, a callback): what it calls, and so what its arguments are, is
    anything the decorator is applied to, not proven a request."""
    if not isinstance(call.func, cst.Name):
        return False
    bindings = [b for b in scope.lookup(call.func.value) if b.kind != "annotation"]
    return bool(bindings) and all(b.kind == "param" for b in bindings)


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)
