"""Drafts a reply to a customer ticket."""

import random
import time

import anthropic

from .settings import REPLY_MODEL

MAX_REPLY_TOKENS = 4096
TEMPERATURE = 0.8  # how varied the drafts are; also scales the retry jitter

client = anthropic.Anthropic()


def draft_reply(ticket: str, history: list[dict[str, str]]) -> str:
    """Return a draft answer to `ticket`, given the conversation so far."""
    with client.messages.stream(
        model=REPLY_MODEL,
        max_tokens=MAX_REPLY_TOKENS,
        temperature=TEMPERATURE,
        system="You are a patient support agent. Answer in the customer's language.",
        messages=[*history, {"role": "user", "content": ticket}],
        stop_sequences=["\n\n---"],
    ) as stream:
        message = stream.get_final_message()
    return message.content[0].text


def backoff(attempt: int) -> float:
    """Return how long to wait before retrying, with jitter so clients do not stampede."""
    delay = min(2**attempt, 30) + random.uniform(0, TEMPERATURE)
    time.sleep(delay)
    return delay
