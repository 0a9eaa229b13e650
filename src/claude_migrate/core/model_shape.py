"""The shape every spelling of a Claude model id has, before any catalogue is asked.

`policy.model_ids.recognise` reads a text as a model when, as a whole, it has this shape and a
catalogue knows the id; the ast triage keeps the string constants of this shape without a policy.
"""

from __future__ import annotations

import re

# The prefix a routing client puts before a model id, then the id itself (no `/`, no space).
WHOLE = re.compile(
    r"""
    (?P<prefix>
        (?:anthropic|vertex_ai|bedrock(?:/converse|/invoke)?)/
      | (?:anthropic|bedrock|google-vertex):
      | arn:aws(?:-[a-z]+)*:bedrock:[a-z0-9-]*:\d*:(?:foundation-model|inference-profile)/
    )?
    (?P<id>[A-Za-z0-9][A-Za-z0-9._:@-]*)
    """,
    re.VERBOSE,
)
# Every Claude id in every spelling holds this word; a cheap test before any lookup.
WORD = "claude"


def model_shaped(text: str) -> bool:
    """Return whether `text`, as a whole, has the shape of a Claude model id in some spelling.

    The half of `recognise` no catalogue decides: a text failing it is no model of any policy.
    """
    return WORD in text and len(text) <= 200 and WHOLE.fullmatch(text) is not None
