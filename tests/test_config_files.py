"""Configuration files as a kind of file: which are read, their scalars' places, suppressions,
unreadable files, and the run's machinery (baseline, cache, shards, stdin) over them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Cli, snapshot, write_tree

from claude_migrate.configs import format_of
from claude_migrate.configs.scalars import Unreadable, read
from claude_migrate.core.source import SourceText

POLICY = "[retired-models]\nas-of = 2026-12-01\n"


def _values(fmt: str, text: str) -> list[tuple[str, str, bool]]:
    """Return (value, the text at its span, whether it is a key) for every scalar."""
    source = SourceText(text)
    return [(s.value, text[s.start : s.end], s.key) for s in read(fmt, source)]


@pytest.mark.parametrize(
    ("name", "fmt"),
    [
        ("settings.yaml", "yaml"), ("router.yml", "yaml"), ("models.json", "json"),
        ("app.toml", "toml"), (".env", "env"), (".env.example", "env"), (".env.prod", "env"),
        ("tox.ini", "ini"), ("service.cfg", "ini"),
        ("claude-migrate.toml", None), ("package-lock.json", None), ("pnpm-lock.yaml", None),
        ("notes.md", None), ("env", None), ("app.env.bak", None),
    ],
)  # fmt: skip
def test_config_formats_by_name(name: str, fmt: str | None) -> None:
    assert format_of(name) == fmt


def test_yaml_scalars_are_exact_spans_keys_included_aliases_not() -> None:
    text = (
        "# é comment: claude-2.1\r\n"
        "app:\r\n"
        "  model: claude-3-opus-20240229   # default\r\n"
        '  fast: &f "claude-3-haiku-20240307"\r\n'
        "  other: *f\r\n"
        "  'claude-2.1': 3\r\n"
        '  escaped: "claude-2\\u002e1"\r\n'
        "  block: |\r\n    claude-2.1\r\n"
        "  list: [gpt-4o, 'claude-2.1']\r\n"
    )
    values = _values("yaml", text)
    assert ("claude-3-opus-20240229", "claude-3-opus-20240229", False) in values
    assert ("claude-3-haiku-20240307", "claude-3-haiku-20240307", False) in values
    assert ("claude-2.1", "claude-2.1", True) in values  # a key
    assert ("claude-2.1", "claude-2.1", False) in values  # in the flow list
    assert all(v == at for v, at, _ in values)  # every span holds its value verbatim
    assert not [v for v, _, _ in values if v == "f"]  # anchors and aliases are no scalars
    assert [v for v, _, _ in values].count("claude-2.1") == 2  # not the escaped, block, comment


def test_json_scalars_and_keys() -> None:
    text = '{"claude-2.1": 1, "m": ["claude-3-haiku-20240307", "a\\"b"], "x": "\\u0063laude-2.1"}'
    values = _values("json", text)
    assert ("claude-2.1", "claude-2.1", True) in values
    assert ("claude-3-haiku-20240307", "claude-3-haiku-20240307", False) in values
    assert not any("\\" in at for _, at, _ in values)


def test_a_json_key_is_told_by_the_colon_after_white_space_and_line_breaks() -> None:
    text = '{\n  "claude-2.1"\r\n\t :\n "claude-2.1",\n "k": "v" ,\n "l": ["last"\n ]}'
    values = _values("json", text)
    assert values == [
        ("claude-2.1", "claude-2.1", True),
        ("claude-2.1", "claude-2.1", False),
        ("k", "k", True),
        ("v", "v", False),
        ("l", "l", True),
        ("last", "last", False),
    ]


def test_toml_env_and_ini_scalars() -> None:
    toml = _values("toml", "[a]\nmodel = \"claude-2.1\"  # c\nn = 1\nlit = 'claude-2'\n")
    assert [v for v, _, _ in toml] == ["claude-2.1", "claude-2"]
    env = _values("env", 'A=claude-2.1 # c\nexport B="claude-2"\n# C=claude-2.1\nD=x,claude-2\n')
    assert [v for v, _, _ in env] == ["claude-2.1", "claude-2", "x", "claude-2"]
    ini = _values("ini", "[s]\n; m = claude-2.1\nm = claude-2.1\nms = a, 'claude-2'\n  claude-1\n")
    assert [v for v, _, _ in ini] == ["claude-2.1", "a", "claude-2", "claude-1"]


@pytest.mark.parametrize(
    ("fmt", "text", "line"),
    [("yaml", "a: [b\nc: d\n", 2), ("json", '{"a": 1,\n}', 2), ("toml", "a = \n", 1)],
)
def test_an_invalid_file_is_unreadable_with_its_line(fmt: str, text: str, line: int) -> None:
    with pytest.raises(Unreadable) as raised:
        read(fmt, SourceText(text))
    assert raised.value.line == line


@pytest.mark.parametrize(
    ("name", "text", "line"),
    [
        ("a.yaml", "x: 1  # noqa: CM302\nm: claude-2.1  # noqa: CM302\n", 2),
        ("a.toml", 'm = "claude-2.1"  # noqa: CM302\n', 1),
        (".env", "M=claude-2.1  # noqa: CM302\n", 1),
        ("a.ini", "[s]\nm = claude-2.1  # noqa: CM302\n", 2),
    ],
)
def test_noqa_in_config_comments_silences_the_finding(
    tmp_path: Path, name: str, text: str, line: int
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, name: text.replace("  # noqa: CM302", "")})
    data = Cli(tmp_path).json("check")
    assert [(d["path"], d["line"]) for d in data["diagnostics"]] == [(name, line)]
    write_tree(tmp_path, {name: text})
    assert Cli(tmp_path).json("check")["diagnostics"] == []


def test_a_hash_inside_a_yaml_value_is_no_comment(tmp_path: Path) -> None:
    write_tree(
        tmp_path, {"claude-migrate.toml": POLICY, "a.yaml": 'm: claude-2.1\nn: "# noqa: CM302"\n'}
    )
    data = Cli(tmp_path).json("check")
    assert [d["line"] for d in data["diagnostics"]] == [1]


def test_an_unreadable_config_is_cm001_only_when_it_names_a_model(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY,
            "broken.yaml": "model: claude-2.1\nlist: [a\n",
            "template.yaml": "name: {{ .Values.name }}: anthropic\nother: [\n",
        },
    )
    data = Cli(tmp_path).json("check")
    assert [(e["path"], e["code"], e["line"]) for e in data["errors"]] == [
        ("broken.yaml", "CM001", 3)
    ]
    assert "invalid YAML" in data["errors"][0]["message"]


def test_policy_file_lock_files_and_the_team_catalogue_are_not_read(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY + 'catalogue = "extra.toml"\n'
            '[retired-models.replace]\n"claude-2.1" = "claude-sonnet-4-6"\n',
            "extra.toml": '[[models]]\nid = "claude-2-ft-20240101"\nretires = 2025-01-01\n'
            'replacement = "claude-sonnet-4-6"\n',
            "package-lock.json": '{"m": "claude-2.1"}\n',
            "app.json": '{"m": "claude-2-ft-20240101"}\n',
        },
    )
    data = Cli(tmp_path).json("check")
    assert [d["path"] for d in data["diagnostics"]] == ["app.json"]


def test_a_key_the_table_already_has_is_not_fixed_into_a_duplicate(tmp_path: Path) -> None:
    text = '{"claude-2.1": 8, "claude-sonnet-4-6": 3}\n'
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "prices.json": text})
    data = Cli(tmp_path).json("check")
    (finding,) = data["diagnostics"]
    assert finding["fix"] is None
    assert "the file already holds 'claude-sonnet-4-6'" in finding["message"]


# A table of facts about each model, as a list of records named by a field: alias records
# beside the model records they point at. Renaming a record's name to a model another record
# has, or two records to one model, would give two records one name; an alias whose name and
# target both move would point at itself.
MODEL_RECORDS_JSON = """\
{"aliases": [
  {"name": "claude-sonnet-4-0", "alias": "claude-sonnet-4-20250514"},
  {"name": "claude-opus-4-0", "alias": "claude-opus-4-20250514"}
],
 "models": [
  {"name": "claude-3-5-haiku-latest", "parameters": 20},
  {"name": "claude-haiku-4-5-20251001", "parameters": 30},
  {"name": "claude-3-5-sonnet-20240620", "parameters": 70},
  {"name": "claude-3-7-sonnet-20250219", "parameters": 80},
  {"name": "claude-sonnet-4-20250514", "parameters": 90},
  {"name": "gpt-4o", "parameters": 100}
]}
"""
MODEL_RECORDS_YAML = """\
models:
  - name: claude-3-5-sonnet-20240620
    price: 3
  - name: claude-3-7-sonnet-20250219
    price: 3
agent:
  model: claude-3-haiku-20240307
"""


@pytest.mark.parametrize(
    ("name", "text", "kept", "fixed"),
    [
        ("models.json", MODEL_RECORDS_JSON, 8, 0),
        # The agent's setting is no record: it moves.
        ("models.yaml", MODEL_RECORDS_YAML, 2, 1),
    ],
)
def test_a_field_of_records_is_not_fixed_into_a_name_another_record_has(
    tmp_path: Path, name: str, text: str, kept: int, fixed: int
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, name: text})
    found = Cli(tmp_path).json("check", "--no-cache")["diagnostics"]
    refused = [d for d in found if d["fix"] is None]
    assert len(refused) == kept, found
    assert all("two records would share one name" in d["message"] for d in refused)
    assert len([d for d in found if d["fix"] is not None]) == fixed
    Cli(tmp_path)("fix", "--unsafe-fixes", "--no-cache")
    after = (tmp_path / name).read_text(encoding="utf-8")
    assert (after == text) is (fixed == 0)
    if fixed:
        assert "model: claude-haiku-4-5-20251001" in after
        assert "claude-3-5-sonnet-20240620" in after and "claude-3-7-sonnet-20250219" in after


@pytest.mark.parametrize(
    ("name", "text", "fixed"),
    [
        # A TOML table named after the model, and a value that refers to that table.
        (
            "app.toml",
            '[llm.claude-2]\nmodel = "claude-2"\n[agent]\nllm = "claude-2"\n'
            '[other]\nmodel = "claude-2.1"\n',
            '[llm.claude-2]\nmodel = "claude-2"\n[agent]\nllm = "claude-2"\n'
            '[other]\nmodel = "claude-sonnet-4-6"\n',
        ),
        # A YAML key that a value elsewhere names.
        (
            "app.yaml",
            "llms:\n  claude-2: {temperature: 0.2}\nagent: {llm: claude-2}\nm: claude-2.1\n",
            "llms:\n  claude-2: {temperature: 0.2}\nagent: {llm: claude-2}\nm: claude-sonnet-4-6\n",
        ),
    ],
)
def test_a_value_that_names_a_key_of_its_file_is_reported_without_a_fix(
    tmp_path: Path, name: str, text: str, fixed: str
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, name: text})
    data = Cli(tmp_path).json("check")
    by_line = {d["line"]: d for d in data["diagnostics"]}
    named = [d for d in data["diagnostics"] if d["fix"] is None]
    assert named and all(
        "the file has it both as a key and as a value" in d["message"] for d in named
    )
    assert any(d["fix"] is not None for d in by_line.values())
    Cli(tmp_path)("fix", "--unsafe-fixes", "--no-cache")
    assert (tmp_path / name).read_text() == fixed


def test_a_yaml_entry_with_sampling_the_replacement_refuses_is_not_fixed(tmp_path: Path) -> None:
    # Claude 3.5 Sonnet becomes Sonnet 4.6, which takes temperature or top_p, not both
    # (rules/models.toml); an entry setting one of them, or none, is fixed.
    text = (
        "ops:\n"
        "  writer:\n    name: claude-3-5-sonnet-latest\n"
        "    params: {temperature: 0.7, top_p: 0.9}\n"
        "  judge:\n    name: 'claude-3-5-sonnet-latest'\n    temperature: 0.0\n"
        "  other:\n    name: claude-3-5-sonnet-latest\n    top_p: 0.9\n    temperature: 0.1\n"
    )
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "app.yaml": text})
    data = Cli(tmp_path).json("check")
    fixed = {d["line"]: d["fix"] is not None for d in data["diagnostics"]}
    assert fixed == {3: False, 6: True, 9: False}
    refused = [d["message"] for d in data["diagnostics"] if d["fix"] is None]
    assert all("the entry also sets temperature and top_p" in m for m in refused)


def test_retiring_and_platform_ids_are_warnings_without_a_fix(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[retired-models]\nas-of = 2026-10-15\n",
            "a.yaml": "soon: claude-sonnet-4-5-20250929\nbedrock: anthropic.claude-v2\n",
        },
    )
    data = Cli(tmp_path).json("check")
    messages = {d["line"]: d for d in data["diagnostics"]}
    assert "retires on 2026-11-30 (in 46 days)" in messages[1]["message"]
    assert "Amazon Bedrock sets its own date" in messages[2]["message"]
    assert all(d["fix"] is None and d["severity"] == "warning" for d in messages.values())


def test_baseline_keeps_config_findings_quiet_until_the_value_changes(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "a.yaml": "m: claude-2.1\n"})
    cli = Cli(tmp_path)
    result = cli("check", "--fail-on", "warning", "--write-baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    assert cli("check", "--fail-on", "warning", "--baseline", "baseline.json").exit_code == 0
    (tmp_path / "a.yaml").write_text("# a comment\nm: claude-2.1\nn: claude-2\n")
    again = cli.json("check", "--baseline", "baseline.json")
    assert [d["line"] for d in again["diagnostics"]] == [3]


def test_cached_config_results_are_the_same_and_follow_edits(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "a.toml": 'm = "claude-2.1"\n'})
    cli = Cli(tmp_path)
    first = cli.json("check")
    second = cli.json("check")
    assert first["diagnostics"] == second["diagnostics"] != []
    (tmp_path / "a.toml").write_text('m = "claude-sonnet-4-6"\n')
    assert cli.json("check")["diagnostics"] == []


def test_shards_split_config_files_too(tmp_path: Path) -> None:
    files = {f"c{i}.yaml": "m: claude-2.1\n" for i in range(6)}
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, **files})
    cli = Cli(tmp_path)
    seen: list[str] = []
    for k in (1, 2, 3):
        seen += [d["path"] for d in cli.json("check", "--shard", f"{k}/3")["diagnostics"]]
    assert sorted(seen) == sorted(files)


def test_stdin_checks_and_fixes_a_config_by_its_name(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY})
    cli = Cli(tmp_path)
    text = "llm:\n  model: 'claude-2.1'  # batch\n"
    result = cli("fix", "--unsafe-fixes", "--stdin-filename", "conf/app.yaml", "-", input=text)
    assert result.stdout == text.replace("claude-2.1", "claude-sonnet-4-6")


def test_fix_keeps_bom_quotes_and_comments_and_settles(tmp_path: Path) -> None:
    text = '\ufeff# models\nm: "claude-2.1" # batch\nk: {"claude-2": 1}\n'
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "a.yaml": text.encode("utf-8")})
    cli = Cli(tmp_path)
    cli("fix", "--unsafe-fixes", "--no-cache")
    fixed = (tmp_path / "a.yaml").read_bytes().decode("utf-8")
    assert fixed == text.replace("claude-2.1", "claude-sonnet-4-6").replace(
        "claude-2", "claude-sonnet-4-6"
    )
    after = snapshot(tmp_path)
    cli("fix", "--unsafe-fixes", "--no-cache")
    assert snapshot(tmp_path) == after


def test_policy_exclude_and_overrides_leave_config_files_out(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY.replace(
                "[retired-models]", 'exclude = ["deploy/**"]\n[retired-models]'
            )
            + '\n[[overrides]]\npaths = ["config/**"]\nignore = ["CM302"]\n',
            "deploy/values.yaml": "model: claude-2.1\n",
            "config/app.yaml": "model: claude-2.1\n",
            "app.yaml": "model: claude-2.1\n",
        },
    )
    data = Cli(tmp_path).json("check")
    assert [d["path"] for d in data["diagnostics"]] == ["app.yaml"]
    models = json.loads(Cli(tmp_path)("models", "--format", "json").stdout)
    assert [p["path"] for m in models["models"] for p in m["places"]] == [
        "app.yaml",
        "config/app.yaml",
    ]


def test_cache_folders_and_this_tools_own_json_outputs_are_not_read(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY,
            "app.yaml": "m: claude-2.1\n",
            "other-cache/CACHEDIR.TAG": "Signature: 8a477f597d28d172789f06886806bc55\n",
            "other-cache/entry.json": '{"m": "claude-2.1"}\n',
        },
    )
    cli = Cli(tmp_path)
    inventory = cli("models", "--format", "json")
    (tmp_path / "inventory.json").write_text(inventory.stdout)
    assert cli("check", "--format", "json", "-o", "report.json").exit_code == 0
    assert cli("fix", "--unsafe-fixes", "--diff", "--report", "fixes.json").exit_code in (0, 1)
    assert (tmp_path / "report.json").is_file() and (tmp_path / "fixes.json").is_file()
    data = cli.json("check", "--no-cache")
    assert [d["path"] for d in data["diagnostics"]] == ["app.yaml"]


def test_a_notebook_cell_keeping_a_model_as_data_is_reported_and_fixed(tmp_path: Path) -> None:
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_markdown_cell("Uses `claude-2.1`"),
        nbformat.v4.new_code_cell('"""claude-2.1 in a docstring"""\nMODELS = ["claude-2.1"]'),
    ]
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "nb.ipynb": nbformat.writes(notebook)})
    cli = Cli(tmp_path)
    data = cli.json("check")
    assert [(d["path"], d["cell"], d["line"]) for d in data["diagnostics"]] == [("nb.ipynb", 2, 2)]
    inventory = json.loads(cli("models", "--format", "json").stdout)
    (place,) = inventory["models"][0]["places"]
    assert (place["path"], place["cell"], place["line"], place["use"]) == ("nb.ipynb", 2, 2, "data")
    cli("fix", "--unsafe-fixes")
    fixed = nbformat.reads((tmp_path / "nb.ipynb").read_text(), as_version=4)
    assert (
        fixed.cells[1].source == '"""claude-2.1 in a docstring"""\nMODELS = ["claude-sonnet-4-6"]'
    )
    assert fixed.cells[0].source == "Uses `claude-2.1`"


def test_a_toml_table_keyed_by_model_id_is_read_and_fixed_in_place(tmp_path: Path) -> None:
    text = (
        "# prices per million tokens\n"
        '[pricing]\n"claude-3-opus-20240229" = 15.0  # old\n"claude-sonnet-4-6" = 3.0\n'
        "claude-2 = 8.0\n"
        '[limits."claude-2.1"]\nrpm = 50\n'
    )
    assert [v for v, _, key in _values("toml", text) if key] == [
        "claude-3-opus-20240229",
        "claude-sonnet-4-6",
        "claude-2.1",
    ]
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "prices.toml": text})
    cli = Cli(tmp_path)
    cli("fix", "--unsafe-fixes", "--no-cache")
    fixed = (tmp_path / "prices.toml").read_text()
    # The second key would become one the file already holds: it is reported, not renamed.
    assert fixed == text.replace("claude-3-opus-20240229", "claude-opus-4-6")
    (left,) = cli.json("check", "--no-cache")["diagnostics"]
    assert (left["line"], left["fix"]) == (6, None)


def test_pyproject_tool_tables_are_read_and_the_policy_table_is_not(tmp_path: Path) -> None:
    pyproject = (
        '[project]\nname = "svc"\ndependencies = ["anthropic>=0.40"]\n\n'
        '[tool.svc]\nmodel = "claude-3-opus-20240229"  # the default\n\n'
        "[tool.claude-migrate.retired-models]\nas-of = 2026-12-01\n\n"
        '[tool.claude-migrate.retired-models.replace]\n"claude-2.1" = "claude-sonnet-4-6"\n'
    )
    write_tree(tmp_path, {"pyproject.toml": pyproject})
    cli = Cli(tmp_path)
    data = cli.json("check", "--no-cache")
    assert [(d["path"], d["line"]) for d in data["diagnostics"]] == [("pyproject.toml", 6)]
    inventory = json.loads(cli("models", "--format", "json").stdout)
    assert [(m["model"], m["count"]) for m in inventory["models"]] == [
        ("claude-3-opus-20240229", 1)
    ]
    cli("fix", "--unsafe-fixes", "--no-cache")
    assert (tmp_path / "pyproject.toml").read_text() == pyproject.replace(
        '"claude-3-opus-20240229"', '"claude-opus-4-6"'
    )


def test_a_folder_named_env_is_walked_and_environments_under_any_name_are_not(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY,
            "env/grid.py": 'MODEL = "claude-2.1"\n',
            "env/settings.yaml": "m: claude-2.1\n",
            "myvenv/pyvenv.cfg": "home = /usr/bin\n",
            "myvenv/bin/activate": "",
            "myvenv/share/app.yaml": "m: claude-2.1\n",
            # A `pyvenv.cfg` committed alone in a source folder: the folder is still source.
            "app/pyvenv.cfg": "home = /usr/bin\n",
            "app/settings.yaml": "m: claude-2.1\n",
            "conda/conda-meta/history": "",
            "conda/etc/app.yaml": "m: claude-2.1\n",
            "venv/app.yaml": "m: claude-2.1\n",
        },
    )
    data = Cli(tmp_path).json("check", "--no-cache")
    found = sorted({d["path"] for d in data["diagnostics"]})
    assert found == ["app/settings.yaml", "env/grid.py", "env/settings.yaml"]
    # A folder given by name is walked even when it is an environment (`virtualenv .`).
    data = Cli(tmp_path).json("check", "--no-cache", "myvenv")
    assert [d["path"] for d in data["diagnostics"]] == ["myvenv/share/app.yaml"]


CASSETTE_YAML = (
    "interactions:\n"
    "- request:\n"
    "    body:\n"
    "      model: claude-3-haiku-20240307\n"
    "      max_tokens: 64\n"
    "    method: POST\n"
    "    uri: https://api.anthropic.com/v1/messages\n"
    "  response:\n"
    "    status:\n"
    "      code: 200\n"
)
CASSETTE_JSON = (
    '{"interactions": [{"request": {"body": {"model": "claude-3-haiku-20240307"}},\n'
    ' "response": {"body": {"model": "claude-3-haiku-20240307"}}}]}\n'
)
SETTINGS = "model: claude-3-haiku-20240307\n"


def test_a_recorded_exchange_is_reported_without_a_fix(cli: Cli) -> None:
    # Renaming the model in a cassette fakes what was sent and answered: it is recorded again.
    tree = {
        "claude-migrate.toml": POLICY,
        "tests/cassettes/test_chat/test_ask.yaml": SETTINGS,
        "tests/recorded/ask.yaml": CASSETTE_YAML,
        "tests/recorded/ask.json": CASSETTE_JSON,
        "config/settings.yaml": SETTINGS,
    }
    write_tree(cli.cwd, tree)
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    by_file: dict[str, list[dict]] = {}
    for diagnostic in found:
        by_file.setdefault(diagnostic["path"].replace("\\", "/"), []).append(diagnostic)
    recorded = [p for p in by_file if p != "config/settings.yaml"]
    assert sorted(recorded) == sorted(p for p in tree if p.startswith("tests/"))
    for path in recorded:
        for diagnostic in by_file[path]:
            assert diagnostic["fix"] is None
            assert "recorded HTTP exchange" in diagnostic["message"]
    assert by_file["config/settings.yaml"][0]["fix"] is not None
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    for path in recorded:
        assert (cli.cwd / path).read_text() == tree[path]


def test_test_data_looked_up_in_a_kept_data_file_keeps_its_ids(tmp_path: Path) -> None:
    matcher = (
        "import json\nfrom pathlib import Path\n\n"
        "NAMES = [m['name'] for m in json.loads(Path(__file__).with_name('models.json')"
        ".read_text())['models']]\n\n\n"
        "def match(name):\n    return next((n for n in NAMES if n.startswith(name)), None)\n"
    )
    test = (
        "import pytest\n\nfrom app.matcher import match\n\n\n"
        "@pytest.mark.parametrize('name,expected', [\n"
        "    ('gpt-4o', ('openai', 'gpt-4o')),\n"
        "    ('claude-3-5-sonnet', ('anthropic', 'claude-3-5-sonnet-20240620')),\n"
        "    ('claude-3-7-sonnet-20250219', ('anthropic', 'claude-3-7-sonnet-20250219')),\n"
        "])\ndef test_match(name, expected):\n    assert match(name) == expected[1]\n"
    )
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": POLICY,
            "app/__init__.py": "",
            "app/matcher.py": matcher,
            "app/models.json": MODEL_RECORDS_JSON,
            "tests/test_matcher.py": test,
        },
    )
    Cli(tmp_path)("fix", "--unsafe-fixes", "--no-cache")
    assert (tmp_path / "app" / "models.json").read_text(encoding="utf-8") == MODEL_RECORDS_JSON
    assert (tmp_path / "tests" / "test_matcher.py").read_text(encoding="utf-8") == test


# Measurements written out by a benchmark: each record is a score a model got. Renaming the
# model in them gives the retired model's scores to its replacement.
RESULTS_JSON = """\
[
  {"model": "claude-3-haiku-20240307", "trial": 0, "score": 41},
  {"model": "claude-3-haiku-20240307", "trial": 1, "score": 44},
  {"model": "gpt-4o", "trial": 0, "score": 52},
  {"model": "gpt-4o", "trial": 1, "score": 50}
]
"""


def test_a_table_of_measurements_keeps_the_model_it_measured(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "results/scores.json": RESULTS_JSON})
    cli = Cli(tmp_path)
    found = cli.json("check", "--no-cache")["diagnostics"]
    assert [d["fix"] for d in found] == [None, None]
    assert all("a record of measurements" in d["message"] for d in found)
    cli("fix", "--unsafe-fixes", "--no-cache")
    after = (tmp_path / "results" / "scores.json").read_text(encoding="utf-8")
    assert after == RESULTS_JSON


# A list of deployments of one model, each with its own request settings: configuration, renamed.
DEPLOYMENTS_YAML = """\
llms:
  - name: fast
    model: claude-3-haiku-20240307
    max_tokens: 512
    temperature: 0.2
  - name: long
    model: claude-3-haiku-20240307
    max_tokens: 4096
    timeout: 60
"""


def test_a_list_of_configured_deployments_is_renamed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "config/llms.yaml": DEPLOYMENTS_YAML})
    Cli(tmp_path)("fix", "--unsafe-fixes", "--no-cache")
    after = (tmp_path / "config" / "llms.yaml").read_text(encoding="utf-8")
    assert after == DEPLOYMENTS_YAML.replace("claude-3-haiku-20240307", "claude-haiku-4-5-20251001")
