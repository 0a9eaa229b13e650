"""The registry: every target family, assembled.

A family is one module of this package holding its `TARGETS` (a tuple of `Target`), its
`CALLEES` (the last names a call of it ends in: a call ending in none is never resolved) and,
optionally, `ONLY_WITH` ((callee, text) pairs: the callee counts only in a file holding the text),
`CONSTRUCTORS` (import path -> `Constructor`: a class that is a Claude call when made), and what
else it recognises by import path: `DESCRIBED` (the paths) and `describes` (a predicate, for
paths that follow a pattern).
Adding a family is its module plus one line in `FAMILIES`.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import claude_migrate.targets.agno as agno
import claude_migrate.targets.aisuite as aisuite
import claude_migrate.targets.anthropic_sdk as anthropic_sdk
import claude_migrate.targets.autogen as autogen
import claude_migrate.targets.bedrock as bedrock
import claude_migrate.targets.crewai as crewai
import claude_migrate.targets.dspy as dspy
import claude_migrate.targets.google_adk as google_adk
import claude_migrate.targets.haystack as haystack
import claude_migrate.targets.http as http
import claude_migrate.targets.instructor as instructor
import claude_migrate.targets.langchain as langchain
import claude_migrate.targets.litellm as litellm
import claude_migrate.targets.llama_index as llama_index
import claude_migrate.targets.mirascope as mirascope
import claude_migrate.targets.openai_agents as openai_agents
import claude_migrate.targets.openai_compat as openai_compat
import claude_migrate.targets.pydantic_ai as pydantic_ai
import claude_migrate.targets.semantic_kernel as semantic_kernel
import claude_migrate.targets.smolagents as smolagents
import claude_migrate.targets.strands as strands
from claude_migrate.targets.base import Constructor, Target

FAMILIES: tuple[ModuleType, ...] = (
    anthropic_sdk,
    bedrock,
    langchain,
    llama_index,
    pydantic_ai,
    dspy,
    instructor,
    openai_compat,
    litellm,
    aisuite,
    http,
    agno,
    crewai,
    haystack,
    autogen,
    smolagents,
    strands,
    mirascope,
    google_adk,
    openai_agents,
    semantic_kernel,
)

TARGETS: dict[str, Target] = {
    target.key: target for family in FAMILIES for target in family.TARGETS
}

# Method or function names a call must end in to be worth resolving at all.
CALLEE_NAMES: frozenset[str] = frozenset().union(*(family.CALLEES for family in FAMILIES))

# (callee, text): the callee is a site only in a file holding one of its texts.
ONLY_WITH: tuple[tuple[str, str], ...] = tuple(
    pair for family in FAMILIES for pair in getattr(family, "ONLY_WITH", ())
)

# Classes of other libraries that are Claude calls when made, by import path.
CONSTRUCTORS: dict[str, Constructor] = {
    qualname: made
    for family in FAMILIES
    for qualname, made in getattr(family, "CONSTRUCTORS", {}).items()
}

# Import paths a family recognises: its constructors, client classes, functions and sentinels.
DESCRIBED: frozenset[str] = frozenset(CONSTRUCTORS).union(
    *(getattr(family, "DESCRIBED", ()) for family in FAMILIES)
)
_DESCRIBES: tuple[Callable[[str], bool], ...] = tuple(
    family.describes for family in FAMILIES if hasattr(family, "describes")
)


def described(qualname: str) -> bool:
    """Return whether an absolute import path names something the registry describes (a Claude
    class or client class, a family's function, a client factory, a sentinel).

    That meaning wins over the project's own definition of the name: inside a library's own
    repository (its examples, tests and docs scripts), `from langchain_aws import
    ChatBedrockConverse` names the class the registry knows, not just one more project class.
    """
    return qualname in DESCRIBED or any(test(qualname) for test in _DESCRIBES)


# Byte strings one of which appears in any file with a call the registry recognises: every
# target is proven Claude through an import of `anthropic`/`langchain_anthropic`, a Claude model
# id (`claude-...`, `anthropic.claude-...`, `anthropic/...`), an `anthropic_version` body key or
# the `api.anthropic.com` URL. The prefilter skips files with none of them without parsing.
MARKERS: tuple[bytes, ...] = (b"anthropic", b"Anthropic", b"claude")

# Libraries serving many vendors' models, whose calls are Claude's only with a Claude model
# (`Target.by_model`): a module calling one with a model its callers pass (`def ask(model):
# return litellm.completion(model=model, ...)`) names no Claude itself, yet its calls are what
# a caller's Claude model reaches. The project phase reads the calls of modules naming one.
ROUTER_MARKERS: tuple[bytes, ...] = (
    b"litellm",
    b"crewai",
    b"init_chat_model",
    b"ChatLiteLLM",
    b"LiteLLMModel",
    b"bedrock",
    b"Bedrock",
    b"dspy",
    b"aisuite",
    b"LiteLlm",
)


def parameter_names(canonical: str) -> frozenset[str]:
    """Return every name a canonical parameter goes by in any target (for the prefilter)."""
    return frozenset(name for target in TARGETS.values() for name in target.names(canonical))
