"""instructor over Claude: a client made by `instructor.from_anthropic(<anthropic client>)` or
`instructor.from_provider("anthropic/...")` (instructor 1.x `instructor/auto_client.py`).

Over an anthropic client every keyword but instructor's own (response_model, max_retries,
context...) reaches anthropic's messages.create; its streaming is `create_partial` /
`create_iterable`, which change the result's type. `from_provider("anthropic/...", **kwargs)`:
the keywords become defaults of every request the client makes.
"""

from __future__ import annotations

from claude_migrate.targets.base import Target, last_names

INSTRUCTOR = "instructor"

TARGETS = (
    Target("instructor:create", INSTRUCTOR, "instructor create", stream=()),
    Target("instructor:from_provider", INSTRUCTOR, "instructor from_provider", stream=()),
)

# The synthetic class of an instructor client over Claude.
INSTRUCTOR_ON_ANTHROPIC = "instructor:anthropic"
INSTRUCTOR_FROM_ANTHROPIC = ("instructor.from_anthropic",)
INSTRUCTOR_FROM_PROVIDER = ("instructor.from_provider",)
# The model prefix of `from_provider` that makes the client Claude's.
PROVIDER_PREFIX = "anthropic/"
# instructor client methods (`client.messages.create`, `client.chat.completions.create`,
# `client.create`, and their `_with_completion` / `_partial` / `_iterable` forms).
INSTRUCTOR_METHODS = frozenset(
    (*prefix, name)
    for prefix in ((), ("messages",), ("chat", "completions"))
    for name in ("create", "create_with_completion", "create_partial", "create_iterable")
)

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset((*INSTRUCTOR_FROM_ANTHROPIC, *INSTRUCTOR_FROM_PROVIDER))

CALLEES = last_names(INSTRUCTOR_FROM_PROVIDER) | {path[-1] for path in INSTRUCTOR_METHODS}
