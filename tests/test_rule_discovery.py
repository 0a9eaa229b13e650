"""A rule stands alone: its module, its page and its fixtures, and nothing else lists it.

The throw-away rule below lives in a package of its own in a temporary folder. Pointing
discovery at that package (`CLAUDE_MIGRATE_EXTRA_RULES`) is the only step besides writing it:
selection, `rules` (and the README's rule table it prints), `explain`, policy options
(defaults, validation, `show-policy`, `init`) and `check` then work for it as they do for the
shipped rules.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from helpers import SRC, write_tree

from claude_migrate import checks
from claude_migrate.checks import ALL_CHECKS, CHECKS_BY_CODE, RegistryError, discover

RULE = textwrap.dedent(
    '''
    """CM901 loud-call: every Claude call, with the policy's word (a throw-away test rule)."""

    from __future__ import annotations

    from collections.abc import Iterable

    from claude_migrate.checks.base import Check, Option
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.core.diagnostics import Diagnostic


    class LoudCallCheck(Check):
        code = "CM901"
        name = "loud-call"
        summary = "a Claude call, said loudly"
        options = {
            "word": Option("enum", "LOUD", "how loudly to say it", choices=("LOUD", "QUIET")),
            "times": Option("integer", 2, "how many times", minimum=1),
        }

        def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
            for site in ctx.sites:
                said = " ".join([self.settings["word"]] * self.settings["times"])
                yield ctx.diagnostic(self, site.node, f"a Claude call: {said}")
    '''
)

PAGE = """# CM901 loud-call

- **Finds**: every Claude call
- **Default policy**: word "LOUD", times 2
- **Fix**: none

## What it does
Reports every Claude call.

## Why is this bad?
It is a test.

## Example
```python
client.messages.create(model="m", max_tokens=1, messages=[])
```

## Fixed example
There is no fix.

## Fix safety
No fix.

## Options
`word` (default `"LOUD"`), `times` (default `2`).
"""

APP = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    'client.messages.create(model="claude-sonnet-4-6", max_tokens=1, messages=[])\n'
)


@pytest.fixture
def extra_rules(tmp_path: Path) -> Path:
    """Return a folder holding `extra_rules/`, a package with one rule and its page."""
    home = tmp_path / "plugins"
    write_tree(
        home,
        {"extra_rules/__init__.py": "", "extra_rules/loud.py": RULE, "extra_rules/CM901.md": PAGE},
    )
    return home


def run(home: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(home)])
    env[checks.EXTRA_PACKAGES_ENV] = "extra_rules"
    return subprocess.run(
        [sys.executable, "-m", "claude_migrate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_rule_in_its_own_module_is_listed_explained_and_run(
    extra_rules: Path, tmp_path: Path
) -> None:
    project = write_tree(tmp_path / "project", {"app.py": APP})

    listed = run(extra_rules, project, "rules", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    row = next(r for r in json.loads(listed.stdout) if r["code"] == "CM901")
    assert row == {
        "code": "CM901",
        "name": "loud-call",
        "fix": "none",
        "status": "on",
        "summary": "a Claude call, said loudly",
    }

    explained = run(extra_rules, project, "explain", "loud-call")
    assert explained.returncode == 0, explained.stderr
    assert explained.stdout == PAGE

    table = run(extra_rules, project, "rules", "--format", "markdown")
    assert table.returncode == 0, table.stderr
    row = '| CM901 | loud-call | every Claude call | word "LOUD", times 2 | none |\n'
    assert row in table.stdout

    found = run(
        extra_rules, project, "check", "--no-cache", "--select", "CM901", "--format", "json"
    )
    assert found.returncode == 1, found.stderr
    report = json.loads(found.stdout)
    assert report["errors"] == []
    diagnostics = report["diagnostics"]
    assert [(d["code"], d["line"], d["message"]) for d in diagnostics] == [
        ("CM901", 3, "a Claude call: LOUD LOUD")
    ]


def test_a_new_rules_options_are_read_validated_and_shown_from_its_declaration(
    extra_rules: Path, tmp_path: Path
) -> None:
    project = write_tree(
        tmp_path / "project",
        {"app.py": APP, "claude-migrate.toml": 'select = ["CM901"]\n[loud-call]\nword = "QUIET"\n'},
    )
    found = run(extra_rules, project, "check", "--no-cache", "--format", "json")
    assert [d["message"] for d in json.loads(found.stdout)["diagnostics"]] == [
        "a Claude call: QUIET QUIET"
    ]

    shown = run(extra_rules, project, "show-policy", "app.py", "--format", "json")
    assert shown.returncode == 0, shown.stderr
    table = json.loads(shown.stdout)["tables"]["loud-call"]
    assert table["word"] == {"value": "QUIET", "origin": "claude-migrate.toml"}
    assert table["times"]["value"] == 2  # the declared default, written nowhere else

    (project / "claude-migrate.toml").write_text("[loud-call]\ntimes = 0\n", encoding="utf-8")
    refused = run(extra_rules, project, "check", "--no-cache")
    assert refused.returncode == 2
    assert "loud-call.times" in refused.stderr and "at least 1" in refused.stderr


def test_the_starter_policy_carries_a_new_rules_defaults(extra_rules: Path, tmp_path: Path) -> None:
    project = write_tree(tmp_path / "project", {"app.py": APP})
    started = run(extra_rules, project, "init", "--standalone")
    assert started.returncode == 0, started.stderr
    text = (project / "claude-migrate.toml").read_text(encoding="utf-8")
    assert "[loud-call]" in text and 'word = "LOUD"' in text


def test_rules_are_found_without_a_list_and_ordered_by_code() -> None:
    codes = [check.code for check in ALL_CHECKS]
    assert codes == sorted(codes)
    # Every module of the package that defines a rule is in the registry, so none can be left out.
    assert discover(["claude_migrate.checks"]) == ALL_CHECKS
    assert {"CM101", "CM102", "CM201", "CM303", "CM002"} <= set(CHECKS_BY_CODE)


def test_a_shared_base_class_without_a_code_is_not_a_rule() -> None:
    from claude_migrate.checks.ceiling import CeilingCheck

    assert CeilingCheck not in ALL_CHECKS


def test_two_rules_with_one_code_stop_discovery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    twin = RULE.replace("LoudCallCheck", "TwinCheck").replace('name = "loud-call"', 'name = "twin"')
    write_tree(tmp_path, {"twins/__init__.py": "", "twins/a.py": RULE, "twins/b.py": twin})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(RegistryError, match="CM901 is defined twice"):
        discover(["twins"])


def test_the_default_preset_repeats_no_default_that_differs_from_the_rules_declaration() -> None:
    """rules/default.toml shows the main rules' defaults to readers; the declarations decide them.

    A table the preset leaves out is filled from the rule's `Option`s (`config._with_defaults`),
    so a new rule needs no entry here; an entry it does hold must say what the rule declares.
    """
    from claude_migrate.core.resources import rules_dir
    from claude_migrate.policy.config import _with_defaults, tomllib

    preset = tomllib.loads((rules_dir() / "default.toml").read_text(encoding="utf-8"))
    declared = _with_defaults({})
    tables = {key: value for key, value in preset.items() if isinstance(value, dict)}
    assert tables, "the preset lists some rule tables"
    for name, table in tables.items():
        assert name in checks.CHECKS_BY_NAME, f"[{name}] is no rule's table"
        options = checks.CHECKS_BY_NAME[name].options
        for key, value in table.items():
            assert key in options, f"{name}.{key} is not declared by the rule"
            assert value == declared[name][key], (
                f"{name}.{key}: preset {value!r}, declared {declared[name][key]!r}"
            )
