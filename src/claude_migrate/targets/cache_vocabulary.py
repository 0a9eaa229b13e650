"""The words of response caches: what hashes, what is a cache, what names a prompt or a key.

What CM106 recognises in code, as data: the methods that yield a digest, the libraries and
calls that build a cache (redis-py's clients, diskcache, cachetools, Django's cache framework),
the methods that take a key, and the words that say hashed data is a prompt or a file. Not a
target family: it lives here, below the analysis and the project phase, because both read it.
"""

from __future__ import annotations

import re

HASH_METHODS = frozenset({"hexdigest", "digest"})

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
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_CACHE_KEY_NAME = re.compile(r"cache_?key", re.IGNORECASE)


def tokens(text: str) -> set[str]:
    """Return the lower-cased words of an identifier or text (`msgHistory` -> msg, history)."""
    return {w.lower() for w in _WORD.findall(text)}


def names_a_cache_key(name: str) -> bool:
    """Return whether a name says it holds a cache key (`cache_key`, `promptCacheKey`)."""
    return bool(_CACHE_KEY_NAME.search(name))
