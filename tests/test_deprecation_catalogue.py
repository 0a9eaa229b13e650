"""The deprecation catalogue: its spellings, its validation, and extending it without code."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from helpers import Cli, snapshot, write_tree

from claude_migrate.policy import deprecations
from claude_migrate.policy.config import ConfigError

AS_OF = dt.date(2026, 4, 1)


@pytest.fixture(scope="module")
def shipped() -> deprecations.Catalogue:
    return deprecations.load()


@pytest.mark.parametrize(
    ("text", "model", "form", "prefix"),
    [
        ("claude-3-opus-20240229", "claude-3-opus-20240229", "api", ""),
        ("claude-3-opus-latest", "claude-3-opus-20240229", "alias", ""),
        ("claude-v1.3-100k", "claude-1.3", "alias", ""),
        ("claude-instant-1.1", "claude-instant-1.2", "alias", ""),
        ("anthropic.claude-3-opus-20240229-v1:0", "claude-3-opus-20240229", "bedrock", ""),
        ("anthropic.claude-v2:1", "claude-2.1", "bedrock", ""),
        (
            "us.anthropic.claude-3-5-sonnet-20241022-v2:0",
            "claude-3-5-sonnet-20241022",
            "bedrock",
            "us.",
        ),
        (
            "us-gov.anthropic.claude-3-sonnet-20240229-v1:0",
            "claude-3-sonnet-20240229",
            "bedrock",
            "us-gov.",
        ),
        (
            "arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-v2",
            "claude-2.0",
            "bedrock",
            "arn:aws:bedrock:us-east-1::foundation-model/",
        ),
        ("claude-3-opus@20240229", "claude-3-opus-20240229", "vertex", ""),
        ("claude-opus-4@20250514", "claude-opus-4-20250514", "vertex", ""),
        ("claude-3-5-sonnet-v2@20241022", "claude-3-5-sonnet-20241022", "vertex", ""),
        ("anthropic/claude-2.1", "claude-2.1", "alias", "anthropic/"),
        (
            "bedrock/converse/us.anthropic.claude-3-7-sonnet-20250219-v1:0",
            "claude-3-7-sonnet-20250219",
            "bedrock",
            "bedrock/converse/us.",
        ),
        (
            "vertex_ai/claude-3-5-haiku@20241022",
            "claude-3-5-haiku-20241022",
            "vertex",
            "vertex_ai/",
        ),
    ],
)
def test_every_platform_spelling_names_the_same_entry(
    shipped: deprecations.Catalogue, text: str, model: str, form: str, prefix: str
) -> None:
    spelling = shipped.lookup(text)
    assert spelling is not None
    assert (spelling.model.id, spelling.form, spelling.prefix) == (model, form, prefix)


@pytest.mark.parametrize(
    "text",
    ["gpt-4o", "claude-sonnet-5-5", "amazon.titan-text-express-v1", "claude-3-opus@2024", ""],
)
def test_unknown_models_are_not_found(shipped: deprecations.Catalogue, text: str) -> None:
    assert shipped.lookup(text) is None or shipped.lookup(text).model.retires is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("claude-3-5-haiku-20241022", "claude-haiku-4-5-20251001"),  # a pin stays a pin
        ("claude-3-5-haiku-latest", "claude-haiku-4-5"),  # an alias stays an alias
        ("anthropic.claude-instant-v1", "anthropic.claude-haiku-4-5-20251001-v1:0"),
        ("eu.anthropic.claude-3-opus-20240229-v1:0", "eu.anthropic.claude-opus-4-6-v1"),
        ("claude-3-7-sonnet@20250219", "claude-sonnet-4-6"),
        ("claude-3-5-haiku@20241022", "claude-haiku-4-5@20251001"),
        ("anthropic/claude-3-opus-latest", "anthropic/claude-opus-4-6"),
        ("anthropic.claude-v2:1:200k", None),  # provisioned throughput: no automatic id
        ("bedrock/anthropic.claude-mythos-preview-v1:0", None),
    ],
)
def test_the_replacement_is_written_in_the_spelling_it_replaces(
    shipped: deprecations.Catalogue, text: str, written: str | None
) -> None:
    if text.startswith("bedrock/anthropic.claude-mythos"):
        # No Bedrock id is listed for the Mythos models: not found as a Bedrock id at all.
        assert shipped.lookup(text) is None
        return
    spelling = shipped.lookup(text)
    assert spelling is not None
    found = shipped.successor(spelling.model, AS_OF)
    assert found is not None
    assert shipped.spell(found[0], spelling, found[1]) == written


def test_every_retired_model_has_a_replacement_chain_ending_in_a_current_model(
    shipped: deprecations.Catalogue,
) -> None:
    far_future = dt.date(2100, 1, 1)
    for model in shipped.models:
        if model.retires is None:
            continue
        found = shipped.successor(model, model.retires)
        assert found is not None, model.id
        assert found[0].retires is None or found[0].retires > model.retires, model.id
        # Every current model the catalogue points at has no retirement date at all today.
        end = found[0]
        while end.retires is not None and end.retires <= far_future and end.replacement:
            end = shipped.find(end.replacement)  # type: ignore[assignment]
        assert end.retires is None, model.id


def test_a_successor_that_retires_within_the_window_is_skipped(tmp_path: Path) -> None:
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[[models]]\nid = "claude-a-20240101"\nretires = 2025-01-01\n'
        'replacement = "claude-b-20250101"\n'
        '[[models]]\nid = "claude-b-20250101"\nretires = 2026-04-20\n'
        'replacement = "claude-sonnet-4-6"\n',
        encoding="utf-8",
    )
    known = deprecations.load(str(extra))
    a = known.find("claude-a-20240101")
    assert a is not None
    assert known.successor(a, AS_OF)[0].id == "claude-b-20250101"  # type: ignore[index]
    assert known.successor(a, AS_OF + dt.timedelta(days=90))[0].id == "claude-sonnet-4-6"  # type: ignore[index]


def test_policy_replacements_override_the_catalogue(shipped: deprecations.Catalogue) -> None:
    spelling = shipped.lookup("us.anthropic.claude-3-opus-20240229-v1:0")
    assert spelling is not None
    found = shipped.successor(spelling.model, AS_OF, {"claude-3-opus-20240229": "claude-haiku-4-5"})
    assert found is not None
    assert (
        shipped.spell(found[0], spelling, found[1]) == "us.anthropic.claude-haiku-4-5-20251001-v1:0"
    )
    api = shipped.lookup("claude-3-opus-20240229")
    assert shipped.spell(found[0], api, found[1]) == "claude-haiku-4-5"  # type: ignore[arg-type]


# Validation ----------------------------------------------------------------------------------


def _broken(tmp_path: Path, body: str) -> ConfigError:
    extra = tmp_path / "extra.toml"
    extra.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        deprecations.load(str(extra))
    return info.value


@pytest.mark.parametrize(
    ("body", "entry", "line", "says"),
    [
        (
            'schema = 1\n\n[[models]]\nid = "claude-x-20250101"\nretires = 2026-01-01\n',
            "models[0] (claude-x-20250101)",
            4,
            "needs a `replacement`",
        ),
        (
            '[[models]]\nid = "claude-x-20250101"\nretires = "2026-01-01"\n'
            'replacement = "claude-sonnet-4-6"\n',
            "models[0] (claude-x-20250101).retires",
            3,
            "expected a date",
        ),
        (
            '[[models]]\nid = "claude-x-20250101"\nretired = 2026-01-01\n',
            "models[0] (claude-x-20250101).retired",
            3,
            "unknown key",
        ),
        (
            '[[models]]\nid = "claude-y"\n\n[[models]]\nid = "claude-x-20250101"\n'
            'retires = 2026-01-01\nreplacement = "claude-nope"\n',
            "models (claude-x-20250101)",
            5,
            "'claude-nope' is not a model of the catalogue",
        ),
        (
            '[[models]]\nid = "claude-x"\naliases = ["claude-3-opus-latest"]\n',
            "models (claude-x)",
            2,
            "already claimed by 'claude-3-opus-20240229'",
        ),
        (
            '[[models]]\nid = "claude-p"\nretires = 2026-01-01\nreplacement = "claude-q"\n'
            '[[models]]\nid = "claude-q"\nretires = 2026-01-01\nreplacement = "claude-p"\n',
            "models (claude-p)",
            2,
            "replacements loop",
        ),
        (
            '[[models]]\nid = "claude-x"\nbedrock = ["claude-x-v1"]\n',
            "models[0] (claude-x).bedrock",
            3,
            "starting `anthropic.`",
        ),
        (
            '[[sdk-removals]]\nname = "tokenize"\nkind = "client-method"\nremoved-in = "soon"\n'
            'replacement = "x"\nrule = "CM303"\n',
            "sdk-removals[0] (tokenize).removed-in",
            4,
            "expected a version",
        ),
        (
            '[[api-versions]]\nversion = "2027"\n',
            "api-versions[0]",
            2,
            'expected `version` as "YYYY-MM-DD"',
        ),
        ("schema = 2\n", "schema", 1, "expected 1"),
        ("[[models]\n", None, 1, "invalid TOML"),
    ],
)
def test_a_malformed_entry_is_an_error_naming_the_entry_and_its_line(
    tmp_path: Path, body: str, entry: str | None, line: int, says: str
) -> None:
    error = _broken(tmp_path, body)
    assert error.key == entry
    assert error.line == line
    assert says in error.detail
    assert error.path.endswith("extra.toml")


def test_a_malformed_policy_catalogue_stops_the_run_before_any_file_is_touched(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": '[retired-models]\ncatalogue = "team/deprecations.toml"\n',
            "team/deprecations.toml": (
                '[[models]]\nid = "claude-x-20250101"\nretires = 2026-01-01\n'
            ),
            "app.py": (
                "import anthropic\n"
                'anthropic.Anthropic().messages.create(model="claude-2.1", max_tokens=1)\n'
            ),
        },
    )
    before = snapshot(tmp_path)
    result = Cli(tmp_path)("fix", "--unsafe-fixes")
    assert result.exit_code == 2
    assert "team/deprecations.toml:2: `models[0] (claude-x-20250101)`" in result.stderr
    assert "needs a `replacement`" in result.stderr
    assert snapshot(tmp_path) == before


def test_a_malformed_shipped_catalogue_stops_the_run_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "rules" / "deprecations.toml"
    write_tree(
        tmp_path, {"rules/deprecations.toml": '[[models]]\nid = ""\n', "app/a.py": "x = 1\n"}
    )
    monkeypatch.setattr(deprecations, "shipped_path", lambda: broken)
    deprecations.load.cache_clear()
    try:
        result = Cli(tmp_path / "app")("check")
    finally:
        deprecations.load.cache_clear()
    assert result.exit_code == 2
    assert "catalogue:deprecations.toml:2: `models[0]`: expected `id`" in result.stderr


def test_a_missing_policy_catalogue_names_the_policy_key(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"claude-migrate.toml": '[retired-models]\ncatalogue = "nope.toml"\n', "a.py": ""}
    )
    result = Cli(tmp_path)("check")
    assert result.exit_code == 2
    assert (
        "claude-migrate.toml:2: `retired-models.catalogue`: expected an existing TOML file"
        in result.stderr
    )


@pytest.mark.parametrize(
    ("policy", "says"),
    [
        (
            '[retired-models]\nas-of = "April 1st"\n',
            "`retired-models.as-of`: expected a date written YYYY-MM-DD",
        ),
        (
            "[retired-models]\nwarn-days = -1\n",
            "`retired-models.warn-days`: expected an integer between 0 and 36500",
        ),
        (
            '[retired-models.replace]\n"claude-9" = "claude-sonnet-4-6"\n',
            "`retired-models.replace`: 'claude-9' is not a model of the catalogue",
        ),
    ],
)
def test_retired_models_policy_mistakes_exit_2(tmp_path: Path, policy: str, says: str) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": policy, "a.py": ""})
    result = Cli(tmp_path)("check")
    assert result.exit_code == 2
    assert says in result.stderr


# Extending the catalogue with no code change --------------------------------------------------

APP = """\
from anthropic import Anthropic

client = Anthropic()
FINE_TUNE = "claude-internal-ft-20250101"


def ask(question):
    return client.messages.create(model=FINE_TUNE, max_tokens=64, messages=[])


def legacy(question):
    return client.messages.create(model="claude-3-opus-20240229", max_tokens=64, messages=[])
"""


def test_a_model_added_in_a_team_catalogue_is_reported_and_fixed(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": (
                'select = ["CM302"]\n'
                '[retired-models]\nas-of = 2026-04-01\ncatalogue = "policy/extra.toml"\n'
            ),
            # A model the shipped catalogue has never heard of, and a shipped entry redefined.
            "policy/extra.toml": (
                '[[models]]\nid = "claude-internal-ft-20250101"\nretires = 2026-03-01\n'
                'replacement = "claude-sonnet-4-6"\nsource = "our vendor notice"\n\n'
                '[[models]]\nid = "claude-3-opus-20240229"\naliases = ["claude-3-opus-latest"]\n'
                'retires = 2026-01-05\nreplacement = "claude-haiku-4-5"\n'
            ),
            "svc/app.py": APP,
        },
    )
    cli = Cli(tmp_path / "svc")  # the catalogue path is relative to the policy's folder
    found = cli.json("check", "--config", str(tmp_path / "claude-migrate.toml"))
    messages = sorted(d["message"] for d in found["diagnostics"])
    assert messages == [
        "model 'claude-3-opus-20240229' was retired on 2026-01-05; use 'claude-haiku-4-5-20251001'",
        "model 'claude-internal-ft-20250101' (from FINE_TUNE) was retired on 2026-03-01; "
        "use 'claude-sonnet-4-6'",
    ]
    result = Cli(tmp_path)("fix", "--unsafe-fixes")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "svc" / "app.py").read_text(encoding="utf-8")
    assert 'FINE_TUNE = "claude-sonnet-4-6"' in text
    assert 'model="claude-haiku-4-5-20251001"' in text


def test_without_the_team_catalogue_the_unknown_model_is_not_reported(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": 'select = ["CM302"]\n[retired-models]\nas-of = 2026-04-01\n',
            "app.py": APP,
        },
    )
    found = Cli(tmp_path).json("check")
    assert [d["line"] for d in found["diagnostics"]] == [12]


def test_as_of_defaults_to_today(tmp_path: Path) -> None:
    today = deprecations.today()
    entries = {
        "claude-gone-20200101": today - dt.timedelta(days=1),
        "claude-soon-20200101": today + dt.timedelta(days=10),
        "claude-later-20200101": today + dt.timedelta(days=400),
    }
    extra = "".join(
        f'[[models]]\nid = "{name}"\nretires = {date.isoformat()}\n'
        'replacement = "claude-sonnet-4-6"\n'
        for name, date in entries.items()
    )
    calls = "".join(
        f'client.messages.create(model="{name}", max_tokens=1, messages=[])\n' for name in entries
    )
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": (
                'select = ["CM302"]\n[retired-models]\ncatalogue = "extra.toml"\n'
            ),
            "extra.toml": extra,
            "app.py": "import anthropic\nclient = anthropic.Anthropic()\n" + calls,
        },
    )
    found = {d["line"]: d["message"] for d in Cli(tmp_path).json("check")["diagnostics"]}
    assert sorted(found) == [3, 4]
    assert "was retired on" in found[3]
    assert f"retires on {entries['claude-soon-20200101'].isoformat()} (in 10 days)" in found[4]


def test_warn_days_zero_turns_warnings_off(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": (
                'select = ["CM302"]\n[retired-models]\nas-of = "2026-06-01"\nwarn-days = 0\n'
            ),
            "app.py": (
                "import anthropic\nclient = anthropic.Anthropic()\n"
                'client.messages.create(model="claude-opus-4-0", max_tokens=1, messages=[])\n'
                'client.messages.create(model="claude-3-opus-latest", max_tokens=1, messages=[])\n'
            ),
        },
    )
    found = Cli(tmp_path).json("check")["diagnostics"]
    assert [(d["line"], d["fix"] is not None) for d in found] == [(4, True)]


# The pages people read say what the data says ---------------------------------------------------


@pytest.mark.parametrize("code", ["CM107", "CM301", "CM302", "CM303"])
def test_each_deprecation_page_gives_dates_and_sources_with_the_why(code: str) -> None:
    from claude_migrate.core.resources import rules_dir
    from claude_migrate.policy.catalogue import page_sections

    page = (rules_dir() / f"{code}.md").read_text(encoding="utf-8")
    why = page_sections(page)["Why is this bad"]
    sources = why[why.index("### Dates and sources") :]
    # Every page names a public source: an Anthropic page or the SDK's changelog, both URLs.
    assert re.search(
        r"https://(docs\.anthropic\.com|github\.com/anthropics/anthropic-sdk-python)/\S+", sources
    )
    assert "issue" not in sources.lower()
    assert re.search(r"\b20\d\d-\d\d-\d\d\b|\b0\.\d+\.\d+\b", sources)


def test_the_cm302_page_lists_every_retirement_date_and_replacement(
    shipped: deprecations.Catalogue,
) -> None:
    from claude_migrate.core.resources import rules_dir

    page = (rules_dir() / "CM302.md").read_text(encoding="utf-8")
    table = page[page.index("| model | retired | replacement |") :]
    for model in shipped.models:
        if model.retires is None:
            continue
        row = next((line for line in table.splitlines() if model.retires.isoformat() in line), None)
        assert row is not None, f"{model.id}: {model.retires} is not on the page"
        found = shipped.successor(model, model.retires)
        assert found is not None
        names = {found[0].id, *found[0].aliases}
        assert any(f"`{name}`" in row for name in names), f"{model.id}: replacement not in {row}"


def test_langchains_legacy_completion_llm_is_reported(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app.py": (
                "from langchain_community.llms import Anthropic\n\n"
                'llm = Anthropic(model="claude-2.1", max_tokens_to_sample=100)\n'
            )
        },
    )
    found = Cli(tmp_path).json("check", "--select", "CM301")["diagnostics"]
    assert [(d["line"], d["code"]) for d in found] == [(3, "CM301")]
