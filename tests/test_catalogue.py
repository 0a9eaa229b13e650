"""The catalogue commands: `rules`, `explain`, `init`, `show-policy`, and every rule's page."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from helpers import Cli, write_tree

from claude_migrate.checks import ALL_CHECKS, PSEUDO_RULES
from claude_migrate.core.resources import rules_dir
from claude_migrate.policy.catalogue import PAGE_SECTIONS, RuleInfo, all_rules, page_sections
from claude_migrate.policy.config import PolicyLoader, preset_names
from claude_migrate.policy.starter import toml_value

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

REGISTERED = [check.code for check in ALL_CHECKS] + ["CM001"]


@pytest.mark.parametrize("code", REGISTERED)
def test_every_registered_rule_has_a_page_with_every_section(code: str) -> None:
    page = rules_dir() / f"{code}.md"
    assert page.is_file(), f"{code} is registered but rules/{code}.md is missing"
    text = page.read_text(encoding="utf-8")
    assert text.startswith(f"# {code} "), f"rules/{code}.md must start with '# {code} <name>'"
    sections = page_sections(text)
    assert list(sections) == list(PAGE_SECTIONS), f"rules/{code}.md sections"
    assert all(body.strip() for body in sections.values())


@pytest.mark.parametrize("check", ALL_CHECKS, ids=lambda c: c.code)
def test_every_policy_option_is_documented_with_its_default(check: type) -> None:
    options = page_sections((rules_dir() / f"{check.code}.md").read_text(encoding="utf-8"))[
        "Options"
    ]
    for key, option in check.options.items():
        # `key` in prose, `key = ...` in a TOML block, or a `[rule.key]` table header.
        escaped = re.escape(key)
        named = re.search(rf"`{escaped}`|^\s*{escaped}\s*=|[.\[]{escaped}\]", options, re.M)
        assert named, f"rules/{check.code}.md does not document `{key}`"
        if isinstance(option.default, (bool, int, float, str)):
            literal = toml_value(option.default)
            assert literal in options, f"rules/{check.code}.md: default of `{key}` ({literal})"


def test_rules_lists_every_rule_with_fix_and_status(cli: Cli) -> None:
    result = cli("rules", "--format", "json")
    assert result.exit_code == 0
    rows = {row["code"]: row for row in json.loads(result.stdout)}
    assert set(rows) == set(REGISTERED)
    assert rows["CM001"]["status"] == "on" and rows["CM001"]["fix"] == "none"
    assert rows["CM101"] == {
        "code": "CM101",
        "name": "temperature",
        "fix": "safe",
        "status": "on",
        "summary": "temperature above the policy maximum",
    }
    assert rows["CM002"]["status"] == "off (opt-in)"


def test_rules_status_follows_the_policy(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": 'select = ["CM", "CM002"]\nignore = ["CM102"]\n'})
    result = cli("rules")
    assert result.exit_code == 0
    lines = {line.split()[0]: line.split() for line in result.stdout.splitlines()[1:]}
    assert lines["CM102"][3] == "off"
    assert lines["CM002"][3] == "on"
    assert result.stdout.splitlines()[0].split() == ["code", "name", "fix", "status", "summary"]


def test_explain_prints_the_rule_page(cli: Cli) -> None:
    result = cli("explain", "CM101")
    assert result.exit_code == 0
    assert result.stdout == (rules_dir() / "CM101.md").read_text(encoding="utf-8")


def test_explain_accepts_a_rule_name_in_any_case(cli: Cli) -> None:
    assert cli("explain", "max-tokens").stdout.startswith("# CM102 max-tokens")
    assert cli("explain", "cm001").stdout.startswith("# CM001 parse-error")


def test_explain_unknown_rule_is_a_usage_error(cli: Cli) -> None:
    result = cli("explain", "CM999")
    assert result.exit_code == 2
    assert "unknown rule 'CM999'" in result.stderr and "CM101" in result.stderr


def test_every_rule_in_the_catalogue_is_registered_or_pseudo() -> None:
    codes = {rule.code for rule in all_rules()}
    assert codes == {check.code for check in ALL_CHECKS} | set(PSEUDO_RULES)


# init -------------------------------------------------------------------------------------------

PYPROJECT = """\
[project]
name = "legacy-app"   # keep this comment
version = "1.0"

[tool.ruff]
line-length = 88
"""


@pytest.mark.parametrize("preset", preset_names())
def test_init_writes_a_policy_that_loads_as_the_preset(
    cli: Cli, tmp_path: Path, preset: str
) -> None:
    result = cli("init", "--preset", preset)
    assert result.exit_code == 0, result.output
    written = tmp_path / "claude-migrate.toml"
    text = written.read_text(encoding="utf-8")
    assert f'extend = "{preset}"' in text
    assert "# max = " in text  # options are listed, commented out
    probe = tmp_path / "x.py"
    loaded = PolicyLoader().for_path(probe).settings_for(probe)
    expected = PolicyLoader().preset(preset).settings_for(probe)
    assert loaded == expected


def test_init_lists_the_presets_values_in_its_comments(cli: Cli, tmp_path: Path) -> None:
    cli("init", "--preset", "strict")
    text = (tmp_path / "claude-migrate.toml").read_text(encoding="utf-8")
    assert "# max = 0.0" in text and "# max = 256" in text


def test_init_appends_to_pyproject_without_touching_existing_bytes(
    cli: Cli, tmp_path: Path
) -> None:
    original = PYPROJECT.replace("\n", "\r\n").encode()
    (tmp_path / "pyproject.toml").write_bytes(original)
    result = cli("init", "--preset", "balanced")
    assert result.exit_code == 0, result.output
    assert "appended a [tool.claude-migrate] section to pyproject.toml" in result.stdout
    data = (tmp_path / "pyproject.toml").read_bytes()
    assert data.startswith(original)
    added = data[len(original) :]
    assert b"\n" not in added.replace(b"\r\n", b""), "the file's CRLF line endings are kept"
    parsed = tomllib.loads(data.decode())
    assert parsed["tool"]["claude-migrate"]["extend"] == "balanced"
    assert parsed["tool"]["ruff"] == {"line-length": 88}
    assert not (tmp_path / "claude-migrate.toml").exists()


def test_init_refuses_to_overwrite_an_existing_policy(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        PYPROJECT + "\n[tool.claude-migrate]\nextend = 'strict'\n"
    )
    before = (tmp_path / "pyproject.toml").read_bytes()
    result = cli("init")
    assert result.exit_code == 2
    assert "already has a [tool.claude-migrate] table" in result.stderr
    assert (tmp_path / "pyproject.toml").read_bytes() == before
    (tmp_path / "claude-migrate.toml").write_text("# ours\n")
    result = cli("init", "--standalone")
    assert result.exit_code == 2
    assert (tmp_path / "claude-migrate.toml").read_text() == "# ours\n"


def test_init_standalone_writes_its_own_file_next_to_pyproject(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    assert cli("init", "--standalone").exit_code == 0
    assert (tmp_path / "pyproject.toml").read_text() == PYPROJECT
    assert tomllib.loads((tmp_path / "claude-migrate.toml").read_text())["extend"] == "default"


def test_init_leaves_an_invalid_pyproject_alone(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project\nname = 1\n")
    result = cli("init")
    assert result.exit_code == 2
    assert "pyproject.toml:1" in result.stderr and "nothing was written" in result.stderr
    assert (tmp_path / "pyproject.toml").read_text() == "[project\nname = 1\n"


def test_init_refuses_when_appending_would_break_pyproject(cli: Cli, tmp_path: Path) -> None:
    # An inline `tool` table cannot be extended by a `[tool.claude-migrate]` header.
    content = "tool = { ruff = { line-length = 88 } }\n"
    (tmp_path / "pyproject.toml").write_text(content)
    result = cli("init")
    assert result.exit_code == 2
    assert "--standalone" in result.stderr
    assert (tmp_path / "pyproject.toml").read_text() == content


# show-policy ------------------------------------------------------------------------------------

POLICY = """\
extend = "balanced"
exclude = ["legacy/**"]

[temperature]
fix-to = 0.1

[[overrides]]
paths = ["services/creative/**"]
temperature = { max = 1.0 }
"""


def test_show_policy_says_where_each_value_comes_from(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "services/creative/poem.py": "x = 1\n"})
    result = cli("show-policy", "services/creative/poem.py", "--format", "json")
    assert result.exit_code == 0, result.output
    view = json.loads(result.stdout)
    temperature = view["tables"]["temperature"]
    assert temperature["max"]["value"] == 1.0
    assert temperature["max"]["origin"].startswith("claude-migrate.toml [[overrides]] #1")
    assert temperature["fix-to"] == {"value": 0.1, "origin": "claude-migrate.toml"}
    assert view["tables"]["max-tokens"]["max"] == {"value": 4096, "origin": "preset:balanced"}
    assert view["settings"]["exclude"] == {"value": ["legacy/**"], "origin": "claude-migrate.toml"}
    assert view["source"] == "claude-migrate.toml"
    assert view["excluded"] is False
    assert "CM101" in view["enabled"]


def test_show_policy_outside_overrides_gets_the_file_values(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "app/a.py": "x = 1\n"})
    view = json.loads(cli("show-policy", "app/a.py", "--format", "json").stdout)
    assert view["tables"]["temperature"]["max"] == {"value": 0.5, "origin": "preset:balanced"}
    assert view["overrides"] == []


def test_show_policy_text_is_commented_toml(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": POLICY, "legacy/old.py": "x = 1\n"})
    result = cli("show-policy", "legacy/old.py")
    assert result.exit_code == 0
    assert "# excluded: yes" in result.stdout
    parsed = tomllib.loads(result.stdout)
    assert parsed["temperature"] == {"max": 0.5, "fix-to": 0.1}
    assert parsed["exclude"] == ["legacy/**"]


def test_show_policy_with_no_policy_file_uses_the_default_preset(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": "x = 1\n"})
    view = json.loads(cli("show-policy", "a.py", "--format", "json").stdout)
    assert view["source"] == "preset:default"
    assert view["tables"]["max-tokens"]["max"]["value"] == 1024


def test_show_policy_reports_a_policy_error(cli: Cli, tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "[temperature]\nmax = 7\n", "a.py": ""})
    result = cli("show-policy", "a.py")
    assert result.exit_code == 2
    assert "claude-migrate.toml:2" in result.stderr


# The pages' examples are what the tool does --------------------------------------------------

EXAMPLE_PRELUDE = "import anthropic\n\nclient = anthropic.Anthropic()\nmessages = []\n\n"
CODE_BLOCK = re.compile(r"```python\n(.*?)```", re.S)
SUPPRESSED = re.compile(r"#\s*(?:noqa:|claude-migrate:\s*ignore\[)\s*([A-Z0-9, ]+)")


def _python_example(rule_code: str, section: str) -> str | None:
    text = (rules_dir() / f"{rule_code}.md").read_text(encoding="utf-8")
    match = CODE_BLOCK.search(page_sections(text).get(section, ""))
    return match.group(1) if match else None


# The policy a page's example runs under, where the rule is off by default (the page says so).
EXAMPLE_POLICIES = {"CM304": '[migrate-model]\nto = "claude-sonnet-5-5"\n'}

PAGES_WITH_PYTHON_EXAMPLES = [
    rule for rule in all_rules() if rule.page() and _python_example(rule.code, "Example")
]


@pytest.mark.parametrize("rule", PAGES_WITH_PYTHON_EXAMPLES, ids=lambda r: r.code)
def test_page_example_is_reported_and_fixed_as_the_page_shows(
    rule: RuleInfo, cli: Cli, tmp_path: Path
) -> None:
    example = _python_example(rule.code, "Example")
    fixed = _python_example(rule.code, "Fixed example")
    assert example is not None and fixed is not None
    if "import" not in example:
        # A short example stands for a call on an SDK client: give it one.
        example, fixed = EXAMPLE_PRELUDE + example, EXAMPLE_PRELUDE + fixed
    # The rule alone, plus the rules the example's suppression comments name (for CM002).
    named = {c.strip() for m in SUPPRESSED.findall(example) for c in m.split(",") if c.strip()}
    # A pseudo-rule (CM001) is no check: it needs the checks on to have a file parsed at all.
    selection = [] if rule.code in PSEUDO_RULES else ["--select", ",".join({rule.code} | named)]

    def codes_found() -> list[str]:
        data = cli.json("check", "example.py", *selection)
        return [d["code"] for d in data["diagnostics"]] + [e["code"] for e in data["errors"]]

    if rule.code in EXAMPLE_POLICIES:
        (tmp_path / "claude-migrate.toml").write_text(EXAMPLE_POLICIES[rule.code], "utf-8")
    (tmp_path / "example.py").write_text(example, encoding="utf-8")
    assert rule.code in codes_found(), f"rules/{rule.code}.md: the example is not reported"
    if rule.fix in ("safe", "unsafe"):
        cli("fix", "example.py", *selection, "--unsafe-fixes")
        assert (tmp_path / "example.py").read_text(encoding="utf-8") == fixed
    (tmp_path / "example.py").write_text(fixed, encoding="utf-8")
    assert rule.code not in codes_found(), f"rules/{rule.code}.md: the fixed example is reported"
