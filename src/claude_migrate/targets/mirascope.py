"""Mirascope: the `@anthropic.call(...)` decorator of `mirascope.core.anthropic`.

`call(model, *, stream=False, tools=None, response_model=None, output_parser=None,
json_mode=False, client=None, call_params=None)` makes the decorated function a Messages
request with the anthropic SDK: `model` (every model it takes is Claude's) and the
`call_params` dict (`AnthropicCallParams`: `max_tokens`, `temperature`, `top_p`, `top_k`,
`stop_sequences`, `extra_headers`, `thinking`...); `stream=True` makes it stream (Mirascope
1.x, `mirascope/core/anthropic/_call.py`; API reference
https://mirascope.com/docs/v1/api/core/anthropic/call). The decorator call is reported; the
request is sent each time the decorated function runs.
"""

from __future__ import annotations

from claude_migrate.targets.base import STREAM, Constructor, Target, last_names

MIRASCOPE = "mirascope"

TARGETS = (
    Target(
        "mirascope:call",
        MIRASCOPE,
        "Mirascope's anthropic.call",
        location="model-kwargs",
        nested="call_params",
        stream=(STREAM,),
        streaming_api="@anthropic.call(..., stream=True)",
        sends="sdk",
    ),
)

CONSTRUCTORS = {
    f"mirascope.core.anthropic.{name}": Constructor("mirascope:call", positional=0)
    for name in ("call", "anthropic_call")
}

CALLEES = last_names(CONSTRUCTORS)
# The decorator is Mirascope's only in a file naming `mirascope`.
ONLY_WITH = tuple((name, "mirascope") for name in sorted(CALLEES))
