"""CrewAI: `from crewai import LLM`, `LLM(model="anthropic/claude-...", temperature=...,
max_tokens=...)`.

`LLM(model, timeout=None, temperature=None, top_p=None, n=None, stop=None,
max_completion_tokens=None, max_tokens=None, ..., stream=False, **kwargs)` sends its
parameters through LiteLLM's completion (crewai `src/crewai/llm.py`,
https://github.com/crewAIInc/crewAI); it serves every LiteLLM provider, and names Anthropic's
models by the prefixes "anthropic/", "claude-" and "claude/" (`LLM.ANTHROPIC_PREFIXES`). Only a
Claude model makes a call Claude's.
"""

from __future__ import annotations

from claude_migrate.targets.base import MAX_TOKENS, STREAM, Constructor, Target

CREWAI = "crewai"

TARGETS = (
    Target(
        "crewai:LLM",
        CREWAI,
        "crewai LLM",
        max_tokens=(MAX_TOKENS, "max_completion_tokens"),
        stop=("stop",),
        stream=(STREAM,),
        streaming_api="LLM(..., stream=True)",
        by_model=True,
        sends="api",
    ),
)

CONSTRUCTORS = {
    "crewai.LLM": Constructor("crewai:LLM", positional=0),
    "crewai.llm.LLM": Constructor("crewai:LLM", positional=0),
}

CALLEES = frozenset({"LLM"})
# `LLM(...)` is CrewAI's class only in a file naming `crewai`.
ONLY_WITH = (("LLM", "crewai"),)
