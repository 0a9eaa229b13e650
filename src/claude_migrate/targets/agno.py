"""agno: `from agno.models.anthropic import Claude`, `Claude(id="claude-...", temperature=...,
max_tokens=..., stop_sequences=[...])`.

The class is a dataclass whose fields are the request's parameters (agno
`libs/agno/agno/models/anthropic/claude.py`, https://github.com/agno-agi/agno): the model is
`id` (default "claude-sonnet-4-5-20250929"), then `max_tokens` (default 8192), `temperature`,
`stop_sequences`, `top_p`, `top_k`; it sends them with the anthropic SDK's messages.create.
Streaming is the agent's `run(stream=True)`, not a field. Every model it takes is Claude's.

Its Bedrock and Vertex AI subclasses take the same fields and send them the same way, through the
SDK's `AnthropicBedrock` and `AnthropicVertex` clients: `agno.models.aws.Claude` (agno
`libs/agno/agno/models/aws/claude.py`, `id` a Bedrock model id such as
"anthropic.claude-3-5-sonnet-20240620-v1:0", `max_tokens` default 4096) and
`agno.models.vertexai.claude.Claude` (`id` a Vertex AI id such as "claude-sonnet-4@20250514").
"""

from __future__ import annotations

from claude_migrate.targets.base import Constructor, Target

AGNO = "agno"

TARGETS = (Target("agno:Claude", AGNO, "agno Claude", stream=(), model=("id",), sends="sdk"),)

CONSTRUCTORS = {
    "agno.models.anthropic.Claude": Constructor("agno:Claude"),
    "agno.models.anthropic.claude.Claude": Constructor("agno:Claude"),
    "agno.models.aws.Claude": Constructor("agno:Claude"),
    "agno.models.aws.claude.Claude": Constructor("agno:Claude"),
    "agno.models.vertexai.claude.Claude": Constructor("agno:Claude"),
}

CALLEES = frozenset({"Claude"})
# `Claude(...)` is agno's class only in a file naming `agno`.
ONLY_WITH = (("Claude", "agno"),)
