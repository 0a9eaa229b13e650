"""CM108 model-params, the model facts behind it, and CM302 / CM301 fixes composed with them."""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path

import anthropic
import libcst as cst
import pytest
from helpers import FIXTURES, Cli, marked_lines, write_tree

from claude_migrate.analysis.context import FileContext
from claude_migrate.checks.model_params import facts_of, problems
from claude_migrate.core.source import SourceText
from claude_migrate.policy import deprecations, model_facts
from claude_migrate.policy.config import ConfigError, PolicyLoader

FACTS = model_facts.load()
KNOWN = deprecations.load()


def _sdk_models() -> set[str]:
    literal = next(
        arg
        for arg in typing.get_args(anthropic.types.Model)
        if typing.get_origin(arg) is typing.Literal
    )
    return set(typing.get_args(literal))


# The facts file ---------------------------------------------------------------------------------


def test_the_test_extra_pins_the_anthropic_sdk_the_facts_were_read_from() -> None:
    assert anthropic.__version__ == "2.15.0"
    pyproject = (FIXTURES.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"anthropic==2.15.0"' in pyproject


@pytest.mark.parametrize("model_id", sorted(_sdk_models()))
def test_every_model_the_sdk_lists_is_in_the_catalogue_and_has_a_family(model_id: str) -> None:
    model = KNOWN.find(model_id)
    assert model is not None, f"{model_id} is missing from rules/deprecations.toml"
    assert FACTS.for_model(model.id) is not None, f"{model_id} has no family in rules/models.toml"


def test_every_fact_names_a_public_source() -> None:
    for family in FACTS.families:
        given = {
            "sampling": family.sampling,
            "prefill": family.prefill,
            "thinking": family.thinking,
            "max-tokens": family.max_tokens,
            "dropped-tools": family.dropped_tools or None,
            "dropped-betas": family.dropped_betas or None,
            "forced-tool-choice": family.forced_tool_choice,
        }
        for fact, value in given.items():
            if value is None:
                continue
            source = family.source(fact)
            assert source.startswith("https://") or "anthropic 2.15.0" in source, (family, fact)


def test_the_documented_constraints_are_in_the_data() -> None:
    def of(model_id: str) -> model_facts.Facts:
        model = KNOWN.find(model_id)
        assert model is not None
        facts = FACTS.for_model(model.id)
        assert facts is not None
        return facts

    assert of("claude-sonnet-4-5").sampling == "one-of"
    assert of("claude-haiku-4-5").sampling == "one-of"
    assert of("claude-opus-4-1").sampling == "one-of"
    assert of("claude-sonnet-4-0").sampling == "any"
    for model_id in ("claude-opus-4-7", "claude-opus-4-8", "claude-opus-5", "claude-sonnet-5"):
        assert of(model_id).sampling == "none"
        assert "enabled" not in (of(model_id).thinking or ())
    assert of("claude-opus-4-6").prefill is False and of("claude-sonnet-4-6").prefill is False
    assert of("claude-opus-4-5").prefill is True


def test_claude_3_haiku_retires_to_haiku_4_5() -> None:
    import datetime as dt

    model = KNOWN.find("claude-3-haiku-20240307")
    assert model is not None and model.retires == dt.date(2026, 4, 19)
    assert model.replacement == "claude-haiku-4-5-20251001"


def _broken(tmp_path: Path, text: str) -> ConfigError:
    path = tmp_path / "models.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        model_facts.read(path, KNOWN.find)
    return caught.value


def test_a_fact_without_a_source_is_refused_naming_the_line(tmp_path: Path) -> None:
    error = _broken(
        tmp_path,
        '[sources]\nx = "https://example.com"\n\n[[families]]\nname = "F"\n'
        'models = ["claude-opus-4-6"]\nsampling = "none"\nsource = {}\n',
    )
    assert "sampling" in str(error) and "no source" in str(error)
    assert error.line == 8


def test_an_unknown_model_or_value_is_refused(tmp_path: Path) -> None:
    error = _broken(tmp_path, '[[families]]\nname = "F"\nmodels = ["claude-opus-9"]\nsource = {}\n')
    assert "claude-opus-9" in str(error) and error.line == 3
    error = _broken(
        tmp_path,
        '[sources]\nx = "u"\n[[families]]\nname = "F"\nmodels = ["claude-opus-4-6"]\n'
        'sampling = "some"\nsource = { sampling = "x" }\n',
    )
    assert "sampling" in str(error) and error.line == 6


def test_models_toml_is_not_offered_as_a_preset() -> None:
    from claude_migrate.policy.config import preset_names

    assert "models" not in preset_names()


# CM108 behaviour ----------------------------------------------------------------------------------


def _check(cli: Cli, tmp_path: Path, source: str, *args: str) -> list[dict]:
    write_tree(tmp_path, {"app.py": source})
    return cli.json("check", "--select", "CM108", *args, "app.py")["diagnostics"]


CALL = (
    "from anthropic import Anthropic\nclient = Anthropic()\n"
    "client.messages.create(model={model!r}, max_tokens=64, temperature=0.5, top_p=0.5,"
    " messages=[])\n"
)


def test_prefer_top_p_drops_temperature(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app.py": CALL.format(model="claude-sonnet-4-6"),
            "claude-migrate.toml": '[model-params]\nprefer = "top_p"\n',
        },
    )
    cli = Cli(tmp_path)
    cli("fix", "--select", "CM108", "--unsafe-fixes", "app.py")
    text = (tmp_path / "app.py").read_text(encoding="utf-8")
    assert "top_p=0.5" in text and "temperature" not in text


def test_cm108_yields_to_cm107_where_the_api_version_rejects_sampling(tmp_path: Path) -> None:
    source = CALL.format(model="claude-opus-4-7")
    write_tree(tmp_path, {"app.py": source})
    cli = Cli(tmp_path)
    alone = cli.json("check", "--select", "CM108", "app.py")["diagnostics"]
    assert sorted(d["code"] for d in alone) == ["CM108", "CM108"]
    write_tree(tmp_path, {"claude-migrate.toml": 'extend = "api-2026-10-21"\n'})
    both = cli.json("check", "--select", "CM107,CM108", "app.py")["diagnostics"]
    assert sorted(d["code"] for d in both) == ["CM107", "CM107"]


def test_a_model_without_facts_or_an_unknown_model_is_not_checked(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    for model in ("claude-mythos-5-1", "my-own-model"):
        assert _check(cli, tmp_path, CALL.format(model=model)) == []


def test_a_legacy_call_is_left_to_cm301_and_cm104_yields_to_it(tmp_path: Path) -> None:
    source = (
        "from anthropic import Anthropic\nclient = Anthropic()\n"
        "client.completions.create(model='claude-sonnet-4-6', max_tokens_to_sample=8,"
        " temperature=0.1, top_p=0.2, prompt='x')\n"
    )
    write_tree(tmp_path, {"app.py": source})
    found = Cli(tmp_path).json("check", "--select", "CM104,CM108,CM301", "app.py")["diagnostics"]
    assert [d["code"] for d in found] == ["CM301"]


# Fixed fixtures carry nothing their model refuses ---------------------------------------------


FIXED = sorted(
    p
    for folder in ("model-params", "retired-models", "legacy-completions")
    for p in (FIXTURES / folder).glob("*.fixed.py")
)


def _context(path: Path) -> FileContext:
    policy = path.with_name(path.name.removesuffix(".fixed.py") + ".toml")
    loader = PolicyLoader(policy if policy.is_file() else None)
    settings = loader.for_path(path).settings_for(path)
    text = path.read_text(encoding="utf-8")
    return FileContext(str(path), SourceText(text), cst.parse_module(text), settings)


@pytest.mark.parametrize("golden", FIXED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_fixed_call_carries_a_parameter_its_model_refuses(golden: Path) -> None:
    """Every request a golden builds is checked against its model's facts: what is left is only
    what the rules report without a fix (and mark as expected in the golden)."""
    ctx = _context(golden)
    marked = {line for line, _code in marked_lines(golden)}
    checked = 0
    for site in ctx.sites:
        found = facts_of(ctx, site)
        if found is None:
            continue
        facts, label, _entry = found
        checked += 1
        for problem in problems(ctx, site, facts, label, yielding=False):
            line = ctx.range(problem.node).start.line
            assert not problem.fixable, f"{golden.name}:{line}: {problem.message}"
            assert line in marked, f"{golden.name}:{line}: {problem.message}"
    # Text Completions goldens, one whose requests take their model from a constructor's
    # parameter (what it checks is the tests' expectations), and one of ids kept as data only
    # (tables and lists, request and response bodies, no call; a settings default its call reads
    # through `self`), build no request with a known model.
    assert checked or golden.parent.name == "legacy-completions" or golden.name in NO_KNOWN_MODEL


NO_KNOWN_MODEL = {
    "double_expectations.fixed.py",
    "fact_flags.fixed.py",
    "config_tables.fixed.py",
    "read_defaults_plain.fixed.py",
    "model_catalogue.fixed.py",
    "legacy_bodies.fixed.py",
}


COMPOSED = [
    FIXTURES / "retired-models" / "compose.py",
    FIXTURES / "legacy-completions" / "retired_model.py",
]
SDK_2_POLICY = """extend = "api-2026-10-21"

[retired-models]
as-of = 2027-02-01

[retired-models.replace]
"claude-opus-4-5" = "claude-opus-4-7"
"""


def test_fixed_sdk_calls_type_check_against_the_installed_sdk(
    tmp_path: Path, sdk_mypy_cache: Path
) -> None:
    """The composed fixes, run as a project on the installed SDK runs them (its API version
    rejects sampling, so CM107 joins CM301 / CM302 / CM108), give SDK calls that pass mypy
    against anthropic 2.14.0; a call still carrying what the SDK dropped does not."""
    pytest.importorskip("mypy")
    files = {case.name: case.read_text(encoding="utf-8") for case in COMPOSED}
    write_tree(tmp_path, {**files, "claude-migrate.toml": SDK_2_POLICY})
    cli = Cli(tmp_path)
    result = cli("fix", "--unsafe-fixes", "--select", "CM107,CM108,CM301,CM302", *files)
    assert result.exit_code in (0, 1), result.output
    fixed = [tmp_path / name for name in files]
    assert all("completions.create" not in p.read_text(encoding="utf-8") for p in fixed)
    # CM301 reads the answer as `.content[0].text`, which mypy sees as a union of block types:
    # the calls are what is checked here, not that read. (Inline, so the shared cache's global
    # options stay the same as the other SDK type-check's.)
    for path in fixed:
        text = path.read_text(encoding="utf-8")
        path.write_text('# mypy: disable-error-code="union-attr"\n' + text, encoding="utf-8")
    wrong = tmp_path / "wrong.py"
    wrong.write_text(
        "from anthropic import Anthropic\nclient = Anthropic()\n"
        "client.messages.create(model='claude-opus-4-7', max_tokens=1, messages=[],"
        " temperature=0.5)  # wrong\n",
        encoding="utf-8",
    )
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--check-untyped-defs",
            "--ignore-missing-imports",
            "--no-error-summary",
            "--cache-dir",
            str(sdk_mypy_cache),
            *map(str, fixed),
            str(wrong),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        # Outside the project: its pyproject.toml configures mypy --strict for the package.
        cwd=tmp_path,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    located = {
        (Path(m.group(1)).name, int(m.group(2)))
        for m in (re.match(r"(.+?):(\d+): error:", e) for e in errors)
        if m
    }
    assert located == {("wrong.py", 3)}, result.stdout


# The installed SDK: catalogue --check and the run-time fallback -------------------------------


def test_catalogue_check_passes_against_the_installed_sdk(tmp_path: Path) -> None:
    result = Cli(tmp_path)("catalogue", "--check")
    assert result.exit_code == 0, result.output
    assert "anthropic 2.15.0" in result.stdout and "no gaps" in result.stdout


def test_catalogue_check_lists_what_the_catalogue_lacks_and_exits_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import datetime as dt

    from click.testing import CliRunner

    from claude_migrate.cli import main
    from claude_migrate.policy import installed_sdk

    real = installed_sdk.installed()
    assert real is not None
    fake = installed_sdk.Sdk(
        "9.9.9",
        (*real.models, "claude-opus-9"),
        {
            **real.deprecations,
            "claude-opus-4-6": dt.date(2027, 5, 1),
            "claude-x-1": dt.date(2027, 1, 1),
        },
    )
    monkeypatch.setattr(installed_sdk, "installed", lambda: fake)
    result = CliRunner().invoke(main, ["catalogue", "--check"])
    assert result.exit_code == 1
    lines = set(result.output.splitlines())
    assert (
        "missing-model: claude-opus-9: listed by anthropic.types.Model, not in the catalogue"
        in lines
    )
    assert any(line.startswith("missing-retirement: claude-opus-4-6") for line in lines)
    assert any(line.startswith("missing-retirement: claude-x-1") for line in lines)


def test_a_deprecation_only_the_installed_sdk_knows_is_still_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datetime as dt

    from claude_migrate.api import collect_jobs, execute
    from claude_migrate.core.job import Options
    from claude_migrate.policy import installed_sdk

    real = installed_sdk.installed()
    assert real is not None
    fake = installed_sdk.Sdk(real.version, real.models, {"claude-unlisted-1": dt.date(2026, 1, 1)})
    monkeypatch.setattr(installed_sdk, "installed", lambda: fake)
    app = tmp_path / "app.py"
    app.write_text(
        "from anthropic import Anthropic\n"
        "Anthropic().messages.create(model='claude-unlisted-1', max_tokens=8, messages=[])\n",
        encoding="utf-8",
    )
    jobs = collect_jobs([app], PolicyLoader(None), ["CM302"])
    run = execute(jobs, Options(fix=False, unsafe=True), workers=1)
    [finding] = run.diagnostics
    assert "retired on 2026-01-01" in finding.message
    assert f"installed anthropic {real.version}" in finding.message
    assert finding.fix is None


@pytest.mark.parametrize(
    "model_id",
    [
        "anthropic.claude-opus-4-7",
        "global.anthropic.claude-opus-4-7",
        "us.anthropic.claude-opus-4-7",
        "eu.anthropic.claude-opus-4-7",
        "apac.anthropic.claude-opus-4-7",
        "au.anthropic.claude-opus-4-7",
        "us.anthropic.claude-sonnet-5-5",
        "global.anthropic.claude-haiku-5-5",
    ],
)
def test_a_bedrock_spelling_of_a_new_model_is_checked_against_its_facts(
    tmp_path: Path, model_id: str
) -> None:
    source = (
        "import boto3\nruntime = boto3.client('bedrock-runtime')\n"
        f"runtime.converse(modelId='{model_id}', messages=[],"
        " inferenceConfig={'temperature': 0.5})\n"
    )
    found = _check(Cli(tmp_path), tmp_path, source)
    assert [f["code"] for f in found] == ["CM108"]
    assert "temperature" in found[0]["message"]


def test_each_4_6_model_cites_its_own_page_for_its_output_limit() -> None:
    from claude_migrate.policy import model_facts

    known = model_facts.load()
    sonnet = known.for_model("claude-sonnet-4-6")
    opus = known.for_model("claude-opus-4-6")
    assert sonnet is not None and opus is not None
    assert sonnet.source("max-tokens").endswith("/models/sonnet-4-6/overview")
    assert opus.source("max-tokens").endswith("/models/opus-4-6/overview")
    assert "sdk" not in sonnet.source("thinking")
