"""CM302 keeps a model id listed under a name that says what its models can or cannot do.

`text_only_models = ("claude-3-5-haiku-20241022",)`: the entry states that Claude 3.5 Haiku
reads text only. Renamed to Claude Haiku 4.5, which reads images, the list would state a wrong
fact about the replacement. A list named only for what it holds (`models_aws`, `CHOICES`) moves.
"""

from __future__ import annotations

from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
MODULE = (
    'text_only_models = ("claude-3-5-haiku-20241022",)\n'
    'VISION_MODELS: frozenset[str] = frozenset({"claude-3-opus-20240229"})\n'
    'other_models = ["claude-3-opus-20240229", "claude-sonnet-4-6"]\n'
)


def test_a_capability_list_keeps_its_ids_and_a_plain_list_moves(cli: Cli) -> None:
    write_tree(cli.cwd, {"claude-migrate.toml": POLICY, "models.py": MODULE})
    found = cli.json("check", "--no-cache", "--select", "CM302")["diagnostics"]
    by_line = {d["line"]: d for d in found}
    assert by_line[1]["fix"] is None and "what its models can or cannot do" in by_line[1]["message"]
    assert by_line[2]["fix"] is None
    assert by_line[3]["fix"] is not None
    cli("fix", "--unsafe-fixes", "--select", "CM302", ".")
    lines = (cli.cwd / "models.py").read_text().splitlines()
    assert lines[:2] == MODULE.splitlines()[:2]
    assert "claude-3-opus-20240229" not in lines[2]
