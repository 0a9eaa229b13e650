"""A baseline stays true under fixes: fixing one finding never renews another on the same call.

A finding's fingerprint is the code that makes it a finding (the parameter and its value; for
CM104 the call's target and its stream flag), so a fix to one argument leaves the call's other
findings matching their entries, and the fixed finding's entry is reported stale, saying so.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import Cli, write_tree

SOURCE = """\
import anthropic

client = anthropic.Anthropic()


def answer(question):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature=0.7,
        messages=[{"role": "user", "content": question}],
    )
"""


def _baselined(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"app.py": SOURCE})
    result = cli("check", "app.py", "--write-baseline", "baseline.json")
    assert result.exit_code == 0, result.output
    entries = json.loads((tmp_path / "baseline.json").read_text())["entries"]
    assert sorted(e["code"] for e in entries) == ["CM101", "CM104"]


def test_fixing_one_finding_keeps_the_other_on_the_same_call_baselined(
    tmp_path: Path, cli: Cli
) -> None:
    _baselined(tmp_path, cli)
    assert cli("fix", "app.py", "--select", "CM101").exit_code == 0
    assert "temperature=0.0" in (tmp_path / "app.py").read_text()
    data = cli.json("check", "app.py", "--baseline", "baseline.json")
    assert data["diagnostics"] == []  # CM104 is still baselined, not new
    assert data["baseline"]["baselined"] == 1
    assert [(s["code"], s["recorded"], s["found"]) for s in data["baseline"]["stale"]] == [
        ("CM101", 1, 0)
    ]
    text = cli("check", "app.py", "--baseline", "baseline.json")
    assert text.exit_code == 1  # the stale entry fails the run until it is pruned
    assert (
        "app.py: baseline entry CM101 in answer no longer matches (recorded 1, found 0): "
        "no longer found (fixed or removed)" in text.stdout
    )
    assert "1 stale baseline entry in baseline.json; run with --prune-baseline" in text.stdout
    assert cli("check", "app.py", "--baseline", "baseline.json", "--prune-baseline").exit_code == 0
    assert cli("check", "app.py", "--baseline", "baseline.json").exit_code == 0


def test_editing_a_finding_says_it_changed_rather_than_that_it_was_fixed(
    tmp_path: Path, cli: Cli
) -> None:
    _baselined(tmp_path, cli)
    app = tmp_path / "app.py"
    app.write_text(SOURCE.replace("temperature=0.7", "temperature=0.9"))
    result = cli("check", "app.py", "--baseline", "baseline.json")
    assert result.exit_code == 1
    assert "CM101 [*] temperature 0.9" in result.stdout
    assert "its code changed, and it is reported again above" in result.stdout
    assert "CM104" not in result.stdout.split("baseline entry")[0]


def test_other_arguments_of_a_call_do_not_renew_its_streaming_finding(
    tmp_path: Path, cli: Cli
) -> None:
    _baselined(tmp_path, cli)
    app = tmp_path / "app.py"
    app.write_text(
        SOURCE.replace("max_tokens=512", "max_tokens=256").replace(
            '"claude-sonnet-4-6"', '"claude-opus-4-6"'
        )
    )
    data = cli.json("check", "app.py", "--baseline", "baseline.json")
    assert [d["code"] for d in data["diagnostics"]] == []
    assert data["baseline"]["baselined"] == 2
    # Setting the stream flag itself is the change that matters to CM104.
    app.write_text(SOURCE.replace("max_tokens=512,", "max_tokens=512, stream=False,"))
    data = cli.json("check", "app.py", "--baseline", "baseline.json")
    assert [d["code"] for d in data["diagnostics"]] == ["CM104"]
