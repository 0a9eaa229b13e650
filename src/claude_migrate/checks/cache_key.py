"""CM106 cache-key: a response cache keyed by a hash of the prompt alone.

A cache of Claude answers keyed only by the prompt keeps serving answers produced under an older
API version, or in the other stream mode, after a migration changes either. The key needs those
components, so that a migration misses the old entries instead of serving them.

Finds: a digest of prompt or messages data (`hashlib.<algorithm>(...).hexdigest()` / `.digest()`,
also through `h = hashlib.sha256(); h.update(...)`, or `hash(...)`), alone or inside an f-string,
a concatenation, `str()`, `.format()` or `"".join()`, that is used as the key of a cache (redis
`get/set/setex/hget/hset/delete/...`, Django's `cache`/`caches[...]`, diskcache, cachetools, a
dict whose name says it is a cache) or bound to a name that says it is one (`cache_key`,
`*_cache_key`, a function `make_cache_key(...)` returning it), also when an object keeps it in
an attribute and renders it in `__str__` (`str(obj)` / `f"{obj}"` as the key; no fix there,
the text is the class's), and that has no component naming
each of `cache-key.require` (the API version: a name containing `version` or a date; the stream
flag: a name or text containing `stream`). A digest of file contents (`open`, `.read()`,
`read_bytes()`, a path) is a fingerprint, not a prompt, and is not reported.
Writes instead (unsafe, invalidates the existing entries): the key rebuilt from
`cache-key.template`, with the policy's API version and the cached call's stream flag, e.g.
`f"claude:2023-06-01:stream:{digest}"`. Without a Claude call whose stream flag is proven in the
key's function, there is no fix.

This module is the rule and its policy; what it recognises, how a digest is followed to its
key and how the key is rebuilt live in `targets/cache_vocabulary.py` and `cache_keys` (flow,
rendering).
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.cache_keys.flow import Digest, Key, KeyFinder
from claude_migrate.analysis.cache_keys.rendering import render_key
from claude_migrate.checks.base import Check, Option
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Fix
from claude_migrate.targets import MARKERS
from claude_migrate.targets.cache_vocabulary import FILE_WORDS, PROMPT_WORDS, tokens

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

COMPONENTS = ("anthropic_version", "stream")
COMPONENT_LABELS = {"anthropic_version": "API-version", "stream": "stream"}
STREAM_VALUES = {True: "stream", False: "nostream"}

# Methods through which the prefilter recognises a cache by its name (`cache.set(`...).
_CACHE_VERBS = (
    b"get",
    b"set",
    b"add",
    b"setex",
    b"setdefault",
    b"hget",
    b"hset",
    b"delete",
    b"pop",
)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


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

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        from claude_migrate.project.triage import Wanted

        # Only digests: this rule reads no call site (the stream flag comes with a finding).
        return Wanted(cache_digests=True)

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        finder = KeyFinder(ctx)
        require = [c for c in self.settings["require"] if c in COMPONENTS]
        reported: set[int] = set()
        text = ctx.source.text
        mentions_claude = any(marker.decode() in text for marker in MARKERS)
        if not mentions_claude and not finder.uses_a_store():
            # A module naming no Claude, with no shared store: its in-memory dicts hold what
            # nothing here shows to be a model's answers (a heuristic's results).
            return
        for digest in finder.digests():
            key = finder.key_for(digest)
            if key is None or id(key.node) in reported:
                continue
            words = finder.words(key.node, key.scope) | finder.words_of_all(
                digest.data, digest.scope
            )
            for part, part_scope in key.parts:
                words |= finder.words(part, part_scope)
            vocabulary = {token for word in words for token in tokens(word)}
            if vocabulary & FILE_WORDS or digest.file:
                continue
            if not vocabulary & PROMPT_WORDS and not (
                mentions_claude and finder.forwards_request(digest)
            ):
                continue
            missing = [c for c in require if not _has_component(words, c)]
            if not missing:
                continue
            reported.add(id(key.node))
            yield self._diagnostic(ctx, finder, key, digest, missing)

    def _diagnostic(
        self, ctx: FileContext, finder: KeyFinder, key: Key, digest: Digest, missing: list[str]
    ) -> Diagnostic:
        labels = " and ".join(COMPONENT_LABELS[m] for m in missing)
        plural = "s" if len(missing) > 1 else ""
        message = (
            f"cache key from a hash of prompt data has no {labels} component{plural}, so a "
            "migration would keep serving old answers"
        )
        version = ctx.facts.api_version
        flag, why = (None, key.no_fix) if key.no_fix else finder.stream_flag(key, digest)
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
