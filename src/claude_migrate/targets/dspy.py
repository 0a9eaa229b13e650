"""DSPy 3.x `dspy.LM(model, temperature=, max_tokens=, **kwargs)`, Claude's with a Claude model:
extra keywords such as `stop` go to the provider call (LiteLLM); streaming is `dspy.streamify`,
not a flag."""

from __future__ import annotations

from claude_migrate.targets.base import Target, last_names

DSPY = "dspy"

TARGETS = (Target("dspy:LM", DSPY, "dspy.LM", stop=("stop",), stream=()),)

DSPY_LMS = ("dspy.LM", "dspy.clients.LM", "dspy.clients.lm.LM")

# What the family describes by import path (`registry.described`).
DESCRIBED = frozenset(DSPY_LMS)

CALLEES = last_names(DSPY_LMS)
