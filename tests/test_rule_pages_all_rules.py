"""No rule page shows code the tool itself reports: its examples are checked with every rule on.

A page's "Example" may be reported only for its own rule (and, for CM002, the suppression it
shows); its "Fixed example" must be reported for nothing at all, as of today: a page that
shows a retired model, a call that does not stream, or a parameter out of the default policy
teaches what the tool would then flag.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli
from test_catalogue import EXAMPLE_PRELUDE, PAGES_WITH_PYTHON_EXAMPLES, _python_example

from claude_migrate.checks import KNOWN_CODES
from claude_migrate.policy.catalogue import RuleInfo

EVERY_RULE = ",".join(sorted(KNOWN_CODES))

# Findings of other rules a page shows on purpose, with why. CM301's page shows a legacy call as
# it was written (with the Human-turn stop sequence; CM104 leaves a legacy call to CM301) and the
# rewrite CM301 alone writes (`messages.create`); with every rule on, `fix --unsafe-fixes` goes on
# to stream it (checked below), so the page teaches nothing the tool would leave reported.
SHOWN_ON_PURPOSE = {
    ("CM301", "Example"): {"CM103"},
    ("CM301", "Fixed example"): {"CM104"},
}


def _found(cli: Cli, tmp_path: Path, source: str) -> list[str]:
    (tmp_path / "example.py").write_text(source, encoding="utf-8")
    data = cli.json("check", "example.py", "--select", EVERY_RULE, "--no-cache")
    return sorted(
        [f"{d['code']} {d['message']}" for d in data["diagnostics"]]
        + [f"{e['code']} {e['message']}" for e in data["errors"]]
    )


@pytest.mark.parametrize("rule", PAGES_WITH_PYTHON_EXAMPLES, ids=lambda r: r.code)
def test_page_examples_show_nothing_else_the_tool_reports(
    rule: RuleInfo, cli: Cli, tmp_path: Path
) -> None:
    example = _python_example(rule.code, "Example")
    fixed = _python_example(rule.code, "Fixed example")
    assert example is not None and fixed is not None
    if "import" not in example:
        example, fixed = EXAMPLE_PRELUDE + example, EXAMPLE_PRELUDE + fixed
    for section, source in (("Example", example), ("Fixed example", fixed)):
        found = _found(cli, tmp_path, source)
        on_purpose = SHOWN_ON_PURPOSE.get((rule.code, section), set())
        # An exception that no longer matches anything would hide a regression.
        codes = {f.split()[0] for f in found}
        assert on_purpose <= codes, f"{rule.code} {section}: a stale exception"
        allowed = on_purpose | ({rule.code} if section == "Example" else set())
        others = [f for f in found if f.split()[0] not in allowed]
        assert others == [], f"rules/{rule.code}.md: its {section.lower()} also shows {others}"
    if (rule.code, "Fixed example") in SHOWN_ON_PURPOSE:
        cli("fix", "example.py", "--select", EVERY_RULE, "--unsafe-fixes", "--no-cache")
        assert _found(cli, tmp_path, (tmp_path / "example.py").read_text()) == []
