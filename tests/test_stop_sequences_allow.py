"""CM103 `mode = "allow"`: stop sequences are the team's business; nothing is reported or fixed."""

from __future__ import annotations

import json

from helpers import FIXTURES, Cli, write_tree

SOURCE = (FIXTURES / "stop-sequences" / "forbid.py").read_text(encoding="utf-8")


def test_allow_reports_no_stop_sequences_that_forbid_reports(cli: Cli) -> None:
    write_tree(cli.cwd, {"app.py": SOURCE, "claude-migrate.toml": ""})
    forbid = cli.json("check", "--select", "CM103")["diagnostics"]
    assert len(forbid) == SOURCE.count("# expect: CM103") > 0
    write_tree(cli.cwd, {"claude-migrate.toml": '[stop-sequences]\nmode = "allow"\n'})
    assert cli.json("check", "--select", "CM103")["diagnostics"] == []
    before = (cli.cwd / "app.py").read_bytes()
    assert cli("fix", "--unsafe-fixes", "--select", "CM103").exit_code == 0
    assert (cli.cwd / "app.py").read_bytes() == before


def test_allow_turns_the_rule_off_in_the_rules_listing(cli: Cli) -> None:
    write_tree(cli.cwd, {"claude-migrate.toml": '[stop-sequences]\nmode = "allow"\n'})
    rows = json.loads(cli("rules", "--format", "json").stdout)
    (row,) = [r for r in rows if r["code"] == "CM103"]
    assert row["status"] == "off"
