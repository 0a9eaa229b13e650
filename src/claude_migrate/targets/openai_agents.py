"""The OpenAI Agents SDK's LiteLLM model: `LitellmModel(model="anthropic/claude-...")`.

`LitellmModel(model, base_url=None, api_key=None, ...)`
(`agents.extensions.models.litellm_model`) keeps the model and sends it with every request
through LiteLLM's `acompletion`; the request's sampling parameters come from the agent's
`ModelSettings` (`temperature`, `top_p`, `max_tokens`), not from the constructor, and are not
read here (openai-agents 0.22.0, `src/agents/extensions/models/litellm_model.py`,
https://github.com/openai/openai-agents-python). It serves every LiteLLM provider: only a
Claude model id makes it a Claude call, whose model CM302 and `migrate` read.
"""

from __future__ import annotations

from claude_migrate.targets.base import MODEL, Constructor, Target, last_names

OPENAI_AGENTS = "openai-agents"

TARGETS = (
    Target(
        "openai-agents:LitellmModel",
        OPENAI_AGENTS,
        "OpenAI Agents LitellmModel",
        temperature=(),
        max_tokens=(),
        stop=(),
        stream=(),
        model=(MODEL,),
        by_model=True,
        sends="api",
    ),
)

CONSTRUCTORS = {
    "agents.extensions.models.litellm_model.LitellmModel": Constructor(
        "openai-agents:LitellmModel", positional=0
    ),
}

CALLEES = last_names(CONSTRUCTORS)
# The class is the Agents SDK's only in a file naming its module.
ONLY_WITH = tuple((name, "litellm_model") for name in sorted(CALLEES))
