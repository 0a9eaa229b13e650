"""The HTTP API itself: a POST to `https://api.anthropic.com/v1/messages` (or `/v1/complete`)
with `requests`, `httpx`, `aiohttp` or `urllib.request`, its parameters in the JSON body."""

from __future__ import annotations

import re

from claude_migrate.targets.base import Target

HTTP = "http"

TARGETS = (
    Target(
        "http:messages",
        HTTP,
        "POST /v1/messages",
        location="json",
        streaming_api='"stream": true in the request body',
    ),
    Target(
        "http:complete",
        HTTP,
        "POST /v1/complete",
        location="json",
        max_tokens=("max_tokens_to_sample",),
        legacy=True,
        streaming_api='"stream": true in the request body',
    ),
)

HTTP_FUNCTIONS = {
    "requests.post": "requests",
    "requests.request": "requests",
    "requests.api.post": "requests",
    "httpx.post": "httpx",
    "httpx.request": "httpx",
    "httpx.stream": "httpx",
    # The standard library: the request `urllib.request.urlopen` sends is made here, a POST when
    # it has `data` (https://docs.python.org/3/library/urllib.request.html#urllib.request.Request).
    "urllib.request.Request": "urllib",
}
HTTP_CLIENT_METHODS = ("post", "request", "stream")
# Session and client classes whose instances are followed: class path -> kind.
HTTP_CLIENTS = {
    "requests.Session": "requests.Session",
    "requests.sessions.Session": "requests.Session",
    "httpx.Client": "httpx.Client",
    "httpx.AsyncClient": "httpx.AsyncClient",
    "aiohttp.ClientSession": "aiohttp.ClientSession",
    "aiohttp.client.ClientSession": "aiohttp.ClientSession",
}
HTTP_PACKAGES = ("requests", "httpx", "aiohttp")


def anthropic_endpoint(url: str) -> str | None:
    """Return "messages" or "complete" when a URL is the Anthropic API's endpoint for it."""
    match = re.match(r"^(?:https?://)?api\.anthropic\.com(?::\d+)?(/[^?#]*)", url)
    if not match:
        return None
    path = match.group(1).rstrip("/")
    if path.endswith("/v1/messages"):
        return "messages"
    if path.endswith("/v1/complete"):
        return "complete"
    return None


# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset((*HTTP_FUNCTIONS, *HTTP_CLIENTS))

CALLEES = frozenset((*HTTP_CLIENT_METHODS, "Request"))
