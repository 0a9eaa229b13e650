"""Which strings are Claude model ids: every catalogue spelling, and nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_migrate.core.model_shape import model_shaped
from claude_migrate.policy import deprecations
from claude_migrate.policy.model_ids import WORD, dated_model_test, recognise

CATALOGUE = deprecations.load()


def _spellings() -> list[tuple[str, str]]:
    """Return (text, model id) for every spelling each catalogue entry gives, prefixed too."""
    found = []
    for model in CATALOGUE.models:
        for api in (model.id, *model.aliases):
            found += [(api, model.id), (f"anthropic/{api}", model.id)]
            found += [(f"anthropic:{api}", model.id)]
        for bedrock in model.bedrock:
            found += [(bedrock, model.id), (f"bedrock/{bedrock}", model.id)]
            found += [(f"{region}.{bedrock}", model.id) for region in ("us", "eu", "apac", "au")]
            found += [(f"global.{bedrock}", model.id), (f"bedrock/converse/us.{bedrock}", model.id)]
            found += [
                (f"arn:aws:bedrock:us-east-1::foundation-model/{bedrock}", model.id),
                (
                    f"arn:aws:bedrock:eu-west-1:123456789012:inference-profile/eu.{bedrock}",
                    model.id,
                ),
            ]
        for vertex in model.vertex:
            if "@" in vertex:
                found += [(vertex, model.id), (f"vertex_ai/{vertex}", model.id)]
        for name in model.openrouter:
            found += [(f"anthropic/{name}", model.id), (f"anthropic/{name}:beta", model.id)]
    return found


@pytest.mark.parametrize(("text", "model"), _spellings())
def test_every_catalogue_spelling_is_recognised(text: str, model: str) -> None:
    found = recognise(text, CATALOGUE)
    assert found is not None, text
    assert found.model.id == model


def test_prefixes_are_kept_for_the_replacement() -> None:
    found = recognise("bedrock/us.anthropic.claude-3-haiku-20240307-v1:0", CATALOGUE)
    assert found is not None
    assert (found.form, found.prefix) == ("bedrock", "bedrock/us.")
    vertex = recognise("vertex_ai/claude-3-opus@20240229", CATALOGUE)
    assert vertex is not None and (vertex.form, vertex.prefix) == ("vertex", "vertex_ai/")


@pytest.mark.parametrize("text", ["bedrock/claude-instant-v1", "bedrock:claude-3-haiku-20240307"])
def test_an_api_id_behind_a_bedrock_route_has_no_replacement_to_write(text: str) -> None:
    # Bedrock knows its own ids only (`anthropic.claude-...`): the API id behind its route names
    # a retired model, but no spelling of the successor would be one Bedrock serves.
    found = recognise(text, CATALOGUE)
    assert found is not None and found.form != "bedrock"
    successor = CATALOGUE.successor(found.model, found.model.retires)  # type: ignore[arg-type]
    assert successor is not None
    assert CATALOGUE.spell(successor[0], found) is None
    assert CATALOGUE.spell(successor[0], recognise("anthropic/claude-instant-v1", CATALOGUE))  # type: ignore[arg-type]


def test_an_openrouter_name_is_replaced_by_openrouters_name_of_the_successor() -> None:
    # https://openrouter.ai/models names the models dotted and undated, after `anthropic/`.
    found = recognise("anthropic/claude-3.7-sonnet", CATALOGUE)
    assert found is not None
    assert (found.model.id, found.form, found.prefix) == (
        "claude-3-7-sonnet-20250219",
        "openrouter",
        "anthropic/",
    )
    successor = CATALOGUE.successor(found.model, found.model.retires)  # type: ignore[arg-type]
    assert successor is not None
    assert CATALOGUE.spell(successor[0], found) == "anthropic/claude-sonnet-4.6"
    variant = recognise("anthropic/claude-3.5-sonnet:beta", CATALOGUE)
    assert variant is not None and variant.model.id == "claude-3-5-sonnet-20241022"
    assert CATALOGUE.spell(successor[0], variant) is None  # no variant to carry over


@pytest.mark.parametrize(
    "text",
    [
        # other vendors, also behind the same routing prefixes
        "gpt-4o", "gpt-4o-mini", "openai/gpt-4o", "o1-preview", "text-embedding-3-small",
        "gemini-1.5-pro", "vertex_ai/gemini-1.5-pro", "mistral-large-latest",
        "mistral.mistral-large-2402-v1:0", "bedrock/meta.llama3-70b-instruct-v1:0",
        "amazon.titan-text-express-v1", "cohere.command-r-v1:0", "ai21.j2-ultra-v1",
        "meta-llama/Llama-2-7b-chat-hf", "deepseek-chat", "command-r-plus",
        # Claude-looking text that is no model id
        "claude", "Claude", "claude-3", "claude-3-opus", "claude-code", "claude-migrate",
        "claude_3_opus", "@anthropic-ai/claude-code", "anthropic.claude", "claude-sonnet",
        "CLAUDE-3-OPUS-20240229", " claude-3-opus-20240229", "claude-3-opus-20240229 ",
        "the claude-3-opus-20240229 model", "claude-3-opus-20240229,claude-2.1",
        "https://example.com/claude-3-opus-20240229", "models/claude-3-opus-20240229",
        "openai/claude-3-opus-20240229", "openrouter/anthropic/claude-3-opus",
        # OpenRouter's names only behind `anthropic/`, and only its own variants
        "claude-3.7-sonnet", "anthropic:claude-3.7-sonnet", "bedrock/claude-3.7-sonnet",
        "anthropic/claude-3.7-sonnet:free", "anthropic/claude-3.7-sonnet-x",
        "anthropic/claude-3.7", "anthropic/claude-3.7-sonnet/extra",
        "claude-3-opus-20240229.json", "anthropic/claude-3-opus-20240229/extra",
        "arn:aws:bedrock:us-east-1::custom-model/anthropic.claude-v2",
        "claude-3-opus-20240229" * 20,
    ],
)  # fmt: skip
def test_other_vendors_and_look_alikes_are_never_model_ids(text: str) -> None:
    assert recognise(text, CATALOGUE) is None


def test_a_team_catalogue_entry_is_recognised_with_no_code_change(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[models]]\nid = "claude-internal-ft-20250101"\nretires = 2026-03-01\n'
        'replacement = "claude-sonnet-4-6"\n'
    )
    assert recognise("claude-internal-ft-20250101", CATALOGUE) is None
    team = deprecations.load(str(extra))
    found = recognise("anthropic/claude-internal-ft-20250101", team)
    assert found is not None and found.model.id == "claude-internal-ft-20250101"


def test_every_spelling_has_a_model_shape_and_a_dated_model_passes_the_test() -> None:
    # The triage keeps only string literals of this shape: every id recognise reads has it.
    dated = dated_model_test(CATALOGUE)
    ids = {m.id for m in CATALOGUE.models if m.retires is not None}
    for text, model in _spellings():
        assert WORD in text and model_shaped(text), text
        assert dated(text) == (model in ids), text
    for text in ("openrouter/anthropic/claude-sonnet-4", "claude sonnet", "data/claude-v1.jsonl"):
        assert not model_shaped(text) and not dated(text)
    undated = [m.id for m in CATALOGUE.models if m.retires is None]
    assert undated and all(model_shaped(m) and not dated(m) for m in undated)
