"""Whether a Claude call streams: read from its target and its `stream` argument.

CM104 (streaming) reports calls that do not; CM106 (cache-key) needs the same answer to write
the stream component of a cache key.
"""

from __future__ import annotations

from claude_migrate.analysis.calls import CallSite
from claude_migrate.targets import BEDROCK, STREAM


def call_streams(site: CallSite) -> bool | None:
    """Return whether a Claude call streams: True, False, or None when it cannot be known."""
    target = site.target
    if target.streams:
        return True
    if site.family == BEDROCK:
        return False  # the method decides: only the *_stream twins stream
    names = target.names(STREAM)
    if not names:
        return None  # no streaming switch on this kind of call
    entry = site.param(STREAM)
    if entry is None:
        if target.streams_unless_told:
            return True
        return None if site.may_have(STREAM) else False
    value = entry.value
    if value.known and isinstance(value.value, bool):
        return value.value
    return None
