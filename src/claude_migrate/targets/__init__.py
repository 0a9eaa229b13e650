"""The target registry: every kind of Claude call the rules understand, one module per family.

`base.py` holds the `Target` record, the canonical parameter names and how a model id is told
to be Claude's; each family module (`anthropic_sdk.py`, `bedrock.py`, `langchain.py`, ...) holds
that family's classes, methods, parameter names and how it names models; `registry.py` assembles
`TARGETS`, `CALLEE_NAMES`, `MARKERS` from the families it lists. This package imports nothing of
the project's but `core/`, so the LibCST analysis and the `ast` project phase both read it.
"""

from claude_migrate.targets.agno import AGNO
from claude_migrate.targets.aisuite import AISUITE
from claude_migrate.targets.anthropic_sdk import SDK, is_sdk_client_class, sent_another_model
from claude_migrate.targets.autogen import AUTOGEN
from claude_migrate.targets.base import (
    CANONICAL,
    HEADERS,
    MAX_TOKENS,
    MODEL,
    STOP,
    STREAM,
    TEMPERATURE,
    Constructor,
    Target,
    is_claude_model,
)
from claude_migrate.targets.bedrock import BEDROCK
from claude_migrate.targets.crewai import CREWAI
from claude_migrate.targets.dspy import DSPY
from claude_migrate.targets.google_adk import ADK
from claude_migrate.targets.haystack import HAYSTACK
from claude_migrate.targets.http import HTTP, anthropic_endpoint
from claude_migrate.targets.instructor import INSTRUCTOR
from claude_migrate.targets.langchain import LANGCHAIN, langchain_target
from claude_migrate.targets.litellm import LITELLM
from claude_migrate.targets.llama_index import LLAMAINDEX
from claude_migrate.targets.mirascope import MIRASCOPE
from claude_migrate.targets.openai_agents import OPENAI_AGENTS
from claude_migrate.targets.openai_compat import OPENAI_COMPAT
from claude_migrate.targets.pydantic_ai import PYDANTIC_AI
from claude_migrate.targets.registry import (
    CALLEE_NAMES,
    CONSTRUCTORS,
    FAMILIES,
    MARKERS,
    ONLY_WITH,
    ROUTER_MARKERS,
    TARGETS,
    described,
    parameter_names,
)
from claude_migrate.targets.semantic_kernel import SEMANTIC_KERNEL
from claude_migrate.targets.smolagents import SMOLAGENTS
from claude_migrate.targets.strands import STRANDS

__all__ = [
    "AGNO",
    "AISUITE",
    "ADK",
    "AUTOGEN",
    "BEDROCK",
    "CALLEE_NAMES",
    "CANONICAL",
    "CONSTRUCTORS",
    "CREWAI",
    "DSPY",
    "FAMILIES",
    "HAYSTACK",
    "HEADERS",
    "HTTP",
    "INSTRUCTOR",
    "LANGCHAIN",
    "LITELLM",
    "LLAMAINDEX",
    "MARKERS",
    "ROUTER_MARKERS",
    "MAX_TOKENS",
    "MIRASCOPE",
    "MODEL",
    "ONLY_WITH",
    "OPENAI_AGENTS",
    "OPENAI_COMPAT",
    "PYDANTIC_AI",
    "SDK",
    "SEMANTIC_KERNEL",
    "SMOLAGENTS",
    "STOP",
    "STREAM",
    "STRANDS",
    "TARGETS",
    "TEMPERATURE",
    "Constructor",
    "Target",
    "anthropic_endpoint",
    "described",
    "is_claude_model",
    "is_sdk_client_class",
    "sent_another_model",
    "langchain_target",
    "parameter_names",
]
