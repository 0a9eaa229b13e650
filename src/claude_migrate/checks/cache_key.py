"""CM106 cache-key: a response cache keyed by a hash of the prompt alone.

A cache of Claude answers keyed only by the prompt keeps serving answers produced under an older
API version, or in the other stream mode, after a migration changes either. The key needs those
components, so that a migration misses the old entries instead of serving them.

Finds: a digest of prompt or messages data (`hashlib.<algorithm>(...).hexdigest()` / `.digest()`,
also through `h = hashlib.sha256(); h.update(...)`, or `hash(...)`), alone or inside an f-string,
a concatenation, `str()`, `.format()` or `"".join()`, that is used as the key of a cache (redis
`get/set/setex/hget/hset/delete/...`, Django's `cache`/`caches[...]`, diskcache, cachetools, a
dict whose name says it is a cache) or bound to a name that says it is one (`cache_key`,
`*_cache_key`, a function `make_cache_key(...)` returning it), and that has no component naming
each of `cache-key.require` (the API version: a name containing `version` or a date; the stream
flag: a name or text containing `stream`). A digest of file contents (`open`, `.read()`,
`read_bytes()`, a path) is a fingerprint, not a prompt, and is not reported.
Writes instead (unsafe, invalidates the existing entries): the key rebuilt from
`cache-key.template`, with the policy's API version and the cached call's stream flag, e.g.
`f"claude:2023-06-01:stream:{digest}"`. Without a Claude call whose stream flag is proven in the
key's function, there is no fix.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..calls import MARKERS
from ..diagnostics import Applicability, Diagnostic, Edit, Fix
from ..edits import apply_edits
from ..lazy import lazy_import
from ..streams import call_streams
from ..values import string_value
from ..walk import walk
from .base import Check, Option

if TYPE_CHECKING:
    from ..context import FileContext
    from ..scope import CallRecord, Scope

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

COMPONENTS = ("anthropic_version", "stream")
COMPONENT_LABELS = {"anthropic_version": "API-version", "stream": "stream"}
STREAM_VALUES = {True: "stream", False: "nostream"}

HASH_METHODS = frozenset({"hexdigest", "digest"})
# Methods through which the prefilter recognises a cache by its name (`cache.set(`...).
_CACHE_VERBS = (b"get", b"set", b"add", b"setex", b"setdefault", b"hget", b"hset", b"delete", b"pop")

# Words (of names and strings in the hashed data or the key) that say it is a prompt.
PROMPT_WORDS = frozenset(
    [
        "prompt",
        "prompts",
        "message",
        "messages",
        "system",
        "question",
        "questions",
        "conversation",
        "chat",
        "instruction",
        "instructions",
        "completion",
        "claude",
        "anthropic",
        "llm",
    ]
)
# Words that say the hashed data is a file's contents: a fingerprint, not a prompt.
FILE_WORDS = frozenset(
    ["path", "paths", "file", "files", "filename", "filepath", "open", "read", "readlines", "fh"]
)

# Receivers proven to be caches: what builds them, and what annotates them.
CACHE_FACTORIES = frozenset(
    [
        "redis.Redis",
        "redis.StrictRedis",
        "redis.from_url",
        "redis.Redis.from_url",
        "redis.StrictRedis.from_url",
        "redis.client.Redis",
        "redis.RedisCluster",
        "redis.cluster.RedisCluster",
        "redis.asyncio.Redis",
        "redis.asyncio.from_url",
        "redis.asyncio.Redis.from_url",
        "redis.asyncio.client.Redis",
        "redis.asyncio.StrictRedis",
        "diskcache.Cache",
        "diskcache.FanoutCache",
        "diskcache.core.Cache",
        "cachetools.Cache",
        "cachetools.TTLCache",
        "cachetools.LRUCache",
        "cachetools.LFUCache",
        "cachetools.FIFOCache",
        "cachetools.RRCache",
        "cachetools.TLRUCache",
    ]
)
CACHE_CLASSES = CACHE_FACTORIES - {n for n in CACHE_FACTORIES if n.endswith("from_url")} | {
    "django.core.cache.backends.base.BaseCache"
}
CACHE_OBJECTS = frozenset({"django.core.cache.cache"})
CACHE_REGISTRIES = frozenset({"django.core.cache.caches"})
DICT_FACTORIES = frozenset({"dict", "collections.OrderedDict", "collections.defaultdict"})
DICT_ANNOTATIONS = frozenset({"dict", "Dict", "MutableMapping", "OrderedDict"})
# Methods whose first argument (or `key=` / `name=`) is a cache key; `h*` methods of redis take
# the hash's name first and the field second.
KEY_METHODS = frozenset(
    [
        "get",
        "set",
        "setex",
        "setnx",
        "psetex",
        "getex",
        "getdel",
        "getset",
        "delete",
        "exists",
        "expire",
        "add",
        "get_or_set",
        "has_key",
        "touch",
        "pop",
        "setdefault",
        "incr",
        "decr",
        "hget",
        "hset",
        "hdel",
        "hexists",
        "hsetnx",
        "aget",
        "aset",
        "aadd",
        "adelete",
        "aget_or_set",
        "ahas_key",
        "atouch",
    ]
)
MAX_FOLLOW = 4
MAX_WORDS = 400
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_CACHE_KEY_NAME = re.compile(r"cache_?key", re.IGNORECASE)


def tokens(text: str) -> set[str]:
    """Return the lower-cased words of an identifier or text (`msgHistory` -> msg, history)."""
    return {w.lower() for w in _WORD.findall(text)}


def names_a_cache_key(name: str) -> bool:
    return bool(_CACHE_KEY_NAME.search(name))


def template_fields(template: str) -> list[str] | None:
    """Return the replacement fields of a template, or None if it is not a valid one."""
    try:
        return [field for _, field, _, _ in string.Formatter().parse(template) if field is not None]
    except ValueError:
        return None


def _valid_template(template: str) -> bool:
    fields = template_fields(template)
    return (
        fields is not None
        and fields.count("key") == 1
        and all(f in ("key", *COMPONENTS) for f in fields)
        # Plain fields only: a conversion or format spec (`{stream!r:>999999999}`) would make
        # every message and fix carry whatever it pads or rewrites to.
        and all(
            not spec and conversion is None
            for _, name, spec, conversion in string.Formatter().parse(template)
            if name is not None
        )
    )


class CacheKeyCheck(Check["FileContext"]):
    code = "CM106"
    name = "cache-key"
    summary = "a cache key built from a hash of the prompt alone"
    fix_applicability = Applicability.UNSAFE
    options = {
        "require": Option(
            "string-list",
            list(COMPONENTS),
            "components a prompt-hash cache key must have: anthropic_version, stream",
        ),
        "template": Option(
            "string",
            "claude:{anthropic_version}:{stream}:{key}",
            "how the fix rebuilds a key; {key} is the old key",
            pattern=_valid_template,
            pattern_text=(
                "one {key}, and no fields but {anthropic_version} and {stream}, each without"
                " a conversion or format spec"
            ),
        ),
    }

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        problems = []
        unknown = [v for v in table["require"] if v not in COMPONENTS]
        if unknown:
            problems.append(
                ("require", f"expected a list of {', '.join(COMPONENTS)}, got {unknown!r}")
            )
        fields = template_fields(table["template"]) or []
        absent = [v for v in table["require"] if v in COMPONENTS and v not in fields]
        if absent:
            problems.append(
                (
                    "template",
                    "expected a template with a field for every required component, missing "
                    + ", ".join("{" + a + "}" for a in absent),
                )
            )
        return problems

    @classmethod
    def active(cls, table: Mapping[str, Any]) -> bool:
        return bool(table.get("require", COMPONENTS))

    @classmethod
    def markers_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        # A cache layer may never name Claude: a `.hexdigest()` / `.digest()` is enough to look.
        # `hash(...)` keys are only looked for in files that mention Claude (`hash(` is in
        # too many files to be worth a parse).
        return (*MARKERS, b"digest(")

    @classmethod
    def confirms_for(cls, table: Mapping[str, Any]) -> tuple[bytes, ...]:
        # Every cache this rule recognises is used so in the file: a Redis client, diskcache,
        # cachetools, Django's cache (`cache.get(`/`caches[`), a dict named as a cache
        # (`..._cache[key]`, `response_cache.get(`) or a key named as one (`cache_key`). A file
        # that hashes but uses no cache that way (hmac, uuid, a download checksum, a module that
        # merely mentions a cache) is not parsed for this rule. Matched on the lowercased file.
        return (
            b"redis",
            b"diskcache",
            b"cachetools",
            b"django.core.cache",
            b"cache_key",
            b"cachekey",
            b"cache[",
            b"caches[",
            *(b"cache." + verb + b"(" for verb in _CACHE_VERBS),
        )

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        finder = _KeyFinder(ctx)
        require = [c for c in self.settings["require"] if c in COMPONENTS]
        reported: set[int] = set()
        for digest in finder.digests():
            key = finder.key_for(digest)
            if key is None or id(key.node) in reported:
                continue
            words = finder.words(key.node, key.scope) | finder.words_of_all(
                digest.data, digest.scope
            )
            vocabulary = {token for word in words for token in tokens(word)}
            if vocabulary & FILE_WORDS or digest.file:
                continue
            if not vocabulary & PROMPT_WORDS:
                continue
            missing = [c for c in require if not _has_component(words, c)]
            if not missing:
                continue
            reported.add(id(key.node))
            yield self._diagnostic(ctx, finder, key, digest, missing)

    def _diagnostic(
        self, ctx: FileContext, finder: _KeyFinder, key: Key, digest: Digest, missing: list[str]
    ) -> Diagnostic:
        labels = " and ".join(COMPONENT_LABELS[m] for m in missing)
        plural = "s" if len(missing) > 1 else ""
        message = (
            f"cache key from a hash of prompt data has no {labels} component{plural}, so a "
            "migration would keep serving old answers"
        )
        version = ctx.facts.api_version
        flag, why = finder.stream_flag(key, digest)
        fix: Fix | None = None
        template = self.settings["template"]
        if flag is not None:
            rendered = render_key(ctx, key.node, template, version, STREAM_VALUES[flag])
            if rendered is not None:
                preview = template.format(
                    anthropic_version=version, stream=STREAM_VALUES[flag], key="..."
                )
                fix = ctx.fix(
                    Applicability.UNSAFE,
                    f"rebuild the key as {preview} (invalidates existing cache entries)",
                    rendered,
                )
                message += f"; rebuilding it as {preview} invalidates existing cache entries"
        if fix is None:
            preview = template.format(anthropic_version=version, stream="<stream flag>", key="...")
            message += f"; key it as {preview} (this invalidates existing cache entries); {why}"
        return ctx.diagnostic(self, key.node, message, fix, context=key.scope.qualname)


def _has_component(words: set[str], component: str) -> bool:
    if component == "anthropic_version":
        return any("version" in w.lower() or _DATE.search(w) for w in words)
    return any(component in w.lower() for w in words)


# Finding digests and the keys they end up in ----------------------------------------------------


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


class _Tree:
    """Parents of every node, and every name by the function (or module) it appears in."""

    def __init__(self) -> None:
        self.parent: dict[int, cst.CSTNode] = {}
        self.names: dict[tuple[int, str], list[cst.Name]] = {}
        self._owners: list[cst.CSTNode] = []
        # The nodes being visited, outermost first: the last is the parent of the next one
        # (`node.children` would build the list of children again for every node).
        self._path: list[cst.CSTNode] = []

    def on_visit(self, node: cst.CSTNode) -> bool:
        if self._path:
            self.parent[id(node)] = self._path[-1]
        self._path.append(node)
        if isinstance(node, cst.Name) and self._owners:
            self.names.setdefault((id(self._owners[-1]), node.value), []).append(node)
        if isinstance(node, (cst.Module, cst.FunctionDef)):
            self._owners.append(node)
        return True

    def on_leave(self, original_node: cst.CSTNode) -> None:
        self._path.pop()
        if isinstance(original_node, (cst.Module, cst.FunctionDef)):
            self._owners.pop()


class _KeyFinder:
    def __init__(self, ctx: FileContext) -> None:
        self.ctx = ctx
        self.resolver = ctx.resolver
        self.values = ctx.resolver.values
        self._tree: _Tree | None = None
        self._records: dict[int, CallRecord] | None = None

    @property
    def tree(self) -> _Tree:
        if self._tree is None:
            self._tree = _Tree()
            walk(self.ctx.module, self._tree)
        return self._tree

    def record_of(self, call: cst.Call) -> CallRecord | None:
        if self._records is None:
            self._records = {id(r.node): r for r in self.ctx.index.calls}
        return self._records.get(id(call))

    def parent(self, node: cst.CSTNode) -> cst.CSTNode | None:
        return self.tree.parent.get(id(node))

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
            return Key(grown, scope, functions) if names_a_cache_key(target.attr.value) else None
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
        for use in self.tree.names.get((id(owner), target.value), []):
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
            from ..symbols import LocalInstance

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
                binding = self.values.single_binding(node.value, scope)
                if binding is not None and binding.value is not None:
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
        if (
            flag is False
            and self.ctx.facts.streaming_required
        ):
            return None, "no fix until the call streams (CM104)"
        return flag, ""


def _walk(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    yield node
    for child in node.children:
        yield from _walk(child)


# Rebuilding the key -------------------------------------------------------------------------------


def _escape(text: str, quote: str, raw: bool, formatted: bool) -> str | None:
    """Return literal text for inside a string literal with `quote`, or None if impossible."""
    if formatted:
        text = text.replace("{", "{{").replace("}", "}}")
    if raw:
        return None if ("\\" in text or quote in text or "\n" in text) else text
    return text.replace("\\", "\\\\").replace(quote, "\\" + quote).replace("\n", "\\n")


def render_key(
    ctx: FileContext, node: cst.BaseExpression, template: str, version: str, stream: str
) -> Edit | None:
    """Return the edit that rebuilds a key expression from the template, keeping the old key."""
    head, _, tail = template.partition("{key}")
    prefix = head.format(anthropic_version=version, stream=stream)
    suffix = tail.format(anthropic_version=version, stream=stream)
    text = ctx.code(node)
    if isinstance(node, cst.FormattedString) and "b" not in node.prefix.lower():
        quote = node.start[len(node.prefix) :]
        raw = "r" in node.prefix.lower()
        before = _escape(prefix, quote[0], raw, True)
        after = _escape(suffix, quote[0], raw, True)
        if before is None or after is None:
            return None
        body = text[len(node.start) : len(text) - len(node.end)]
        return ctx.replace(node, node.start + before + body + after + node.end)
    if isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Add):
        edits = _concatenation_edits(ctx, node, prefix, suffix)
        if edits is not None:
            return ctx.replace(node, apply_edits(text, edits))
    usable = (
        "\n" not in text
        and "\r" not in text
        and "\\" not in text
        and "#" not in text
        and not text.startswith("{")
        and not ('"' in text and "'" in text)
    )
    if usable:
        quote = '"' if '"' not in text else "'"
        before = _escape(prefix, quote, False, True)
        after = _escape(suffix, quote, False, True)
        return ctx.replace(node, f"f{quote}{before}{{{text}}}{after}{quote}")
    before = _escape(prefix, '"', False, False)
    after = _escape(suffix, '"', False, False)
    parts = [f'"{before}"'] if prefix else []
    parts.append(text if _is_hexdigest(node) else f"str({text})")
    if suffix:
        parts.append(f'"{after}"')
    return ctx.replace(node, " + ".join(parts))


def _is_hexdigest(node: cst.BaseExpression) -> bool:
    """Return whether an expression is a `.hexdigest()` call (a str, and an atom)."""
    return (
        isinstance(node, cst.Call)
        and isinstance(node.func, cst.Attribute)
        and node.func.attr.value == "hexdigest"
    )


def _concatenation_edits(
    ctx: FileContext, node: cst.BinaryOperation, prefix: str, suffix: str
) -> list[Edit] | None:
    """Return edits (relative to the node's text) that put the template's text into `a + b`.

    The prefix goes inside the leftmost string literal, the suffix inside the rightmost one or
    as one more `+ '...'` in the leftmost literal's quotes. None when the leftmost operand is not
    a text literal.
    """
    leftmost: cst.BaseExpression = node
    while isinstance(leftmost, cst.BinaryOperation) and isinstance(leftmost.operator, cst.Add):
        leftmost = leftmost.left
    if not isinstance(leftmost, cst.SimpleString) or "b" in leftmost.prefix.lower():
        return None
    start, end = ctx.span(node)
    quote = leftmost.quote[0]
    edits = []
    if prefix:
        before = _escape(prefix, quote, "r" in leftmost.prefix.lower(), False)
        if before is None:
            return None
        at = ctx.span(leftmost)[0] - start + len(leftmost.prefix) + len(leftmost.quote)
        edits.append(Edit(at, at, before))
    if suffix:
        rightmost = node.right
        if isinstance(rightmost, cst.SimpleString) and "b" not in rightmost.prefix.lower():
            after = _escape(suffix, rightmost.quote[0], "r" in rightmost.prefix.lower(), False)
            if after is None:
                return None
            at = ctx.span(rightmost)[1] - start - len(rightmost.quote)
            edits.append(Edit(at, at, after))
        else:
            edits.append(
                Edit(
                    end - start,
                    end - start,
                    f" + {quote}{_escape(suffix, quote, False, False)}{quote}",
                )
            )
    return edits
