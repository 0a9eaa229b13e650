"""`--shard K/N`: a stable, balanced share of the files, so a CI matrix can split one big tree.

Every shard of a matrix sees the same checkout, so each computes the same partition on its own:
the files are dealt largest first to the shard with the least work so far (ties broken by a hash
of the path, never by the order the walk found them), which keeps the shards within one file's
size of each other. The union of the shards is exactly the unsharded set of files, each in one
shard, and `claude-migrate report --merge` joins their outputs into the unsharded result.
"""

from __future__ import annotations

import hashlib
import heapq
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Item = TypeVar("Item")

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


class ShardError(ValueError):
    """A `--shard` value that is not `K/N` with 1 <= K <= N."""


@dataclass(frozen=True)
class Shard:
    """Shard `index` (1-based) of `count`."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse(spec: str) -> Shard:
    """Return the shard `K/N` names; raise ShardError with what was expected otherwise."""
    match = _SPEC.match(spec)
    if match is None:
        raise ShardError(f"expected K/N (for example 2/4), got {spec!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 1 <= index <= count:
        raise ShardError(f"expected K/N with 1 <= K <= N, got {spec!r}")
    return Shard(index, count)


def _path_hash(path: str) -> bytes:
    return hashlib.blake2b(path.encode("utf-8", "surrogateescape"), digest_size=8).digest()


def file_weight(path: str) -> int:
    """Return how much work a file is likely to be: its size in bytes (1 when unreadable)."""
    try:
        return max(1, os.stat(path).st_size)
    except OSError:
        return 1


def partition(
    items: Sequence[Item],
    count: int,
    key: Callable[[Item], str],
    weight: Callable[[Item], int],
) -> list[list[Item]]:
    """Return `count` lists that split `items` by weight, the same for the same (key, weight)s.

    Each list keeps the items' original order, so a shard reports in the order an unsharded run
    would.
    """
    order = sorted(
        range(len(items)),
        key=lambda i: (-weight(items[i]), _path_hash(key(items[i])), key(items[i])),
    )
    loads: list[tuple[int, int]] = [(0, shard) for shard in range(count)]
    heapq.heapify(loads)
    chosen: list[list[int]] = [[] for _ in range(count)]
    for i in order:
        load, shard = heapq.heappop(loads)
        chosen[shard].append(i)
        heapq.heappush(loads, (load + weight(items[i]), shard))
    return [[items[i] for i in sorted(indices)] for indices in chosen]


def select(
    items: Sequence[Item],
    shard: Shard,
    key: Callable[[Item], str],
    weight: Callable[[Item], int],
) -> list[Item]:
    """Return the items of `shard` (in their original order)."""
    return partition(items, shard.count, key, weight)[shard.index - 1]
