"""A model looked up in a table keyed by model id keeps it where the table has no entry for the
replacement (`analysis.model_tables`): the lookup would miss once the call names the new model.
The fixtures `retired-models/table_lookups.py` and `migrate-model/table_lookups.py` show it
within one module."""

from __future__ import annotations

from helpers import Cli, write_tree

POLICY = "[retired-models]\nas-of = 2026-12-01\n"
LIMITS = (
    "import anthropic\n\n"
    'OUTPUT_LIMIT = {"claude-3-5-sonnet-20240620": 8192}\n\n\n'
    "def answer(text, model):\n"
    "    return anthropic.Anthropic().messages.create(\n"
    "        model=model, max_tokens=OUTPUT_LIMIT[model], stream=True,\n"
    '        messages=[{"role": "user", "content": text}],\n'
    "    )\n"
)
SAME_MODULE = LIMITS + '\n\nfirst = answer("hi", "claude-3-5-sonnet-20240620")\n'
MAIN = 'from app.limits import answer\n\nfirst = answer("hi", "claude-3-5-sonnet-20240620")\n'


def _call_finding(cli: Cli, path: str) -> dict:
    data = cli.json("check", "--select", "CM302", ".")
    found = [
        d for d in data["diagnostics"] if d["path"] == path and "found as data" not in d["message"]
    ]
    assert len(found) == 1, data["diagnostics"]
    return found[0]


def test_a_wrapper_of_the_module_looking_the_model_up_keeps_the_callers_id(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {"claude-migrate.toml": POLICY, "app/__init__.py": "", "app/limits.py": SAME_MODULE},
    )
    finding = _call_finding(cli, "app/limits.py")
    assert finding["fix"] is None
    assert "looks the model up in OUTPUT_LIMIT" in finding["message"]


def test_a_wrapper_of_another_module_looking_the_model_up_keeps_the_callers_id(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": POLICY,
            "app/__init__.py": "",
            "app/limits.py": LIMITS,
            "app/main.py": MAIN,
        },
    )
    finding = _call_finding(cli, "app/main.py")
    assert finding["fix"] is None
