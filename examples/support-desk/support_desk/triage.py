"""Sorts incoming tickets into queues."""

import anthropic

TRIAGE_MODEL = "claude-3-5-haiku-20241022"
QUEUES = ("billing", "bug", "account", "other")

client = anthropic.Anthropic()


def classify(ticket: str) -> str:
    """Return the queue a ticket belongs in."""
    message = client.messages.create(
        model=TRIAGE_MODEL,
        max_tokens=16,
        temperature=0.0,
        system="Answer with one word: " + ", ".join(QUEUES) + ".",
        messages=[{"role": "user", "content": ticket}],
        stop_sequences=["\n", "END"],
    )
    label = message.content[0].text.strip().lower()
    return label if label in QUEUES else "other"


def legacy_priority(ticket: str) -> str:
    """Return "high" or "normal" (the first feature, still on the Text Completions API)."""
    response = client.completions.create(
        model="claude-2.1",
        max_tokens_to_sample=5,
        prompt=f"{anthropic.HUMAN_PROMPT} Is this urgent? {ticket}{anthropic.AI_PROMPT}",
    )
    return "high" if "yes" in response.completion.lower() else "normal"
