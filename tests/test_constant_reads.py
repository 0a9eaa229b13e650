"""A constant of one module read by Claude calls of others: one finding, at the constant.

Real trees: the CLI runs `check`/`fix` over a project in a temporary folder, and the JSON report
is read as users read it.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, snapshot, write_tree

POLICY = 'extend = "default"\nselect = ["CM101", "CM102", "CM302"]\n'
SETTINGS = 'MODEL = "claude-3-opus-20240229"\nTEMPERATURE = 0.9\nLABEL = "orders"\n'
ORDERS = (
    "import anthropic\n\nfrom app.settings import MODEL, TEMPERATURE\n\n\n"
    "def describe(order):\n"
    "    return anthropic.Anthropic().messages.create(\n"
    "        model=MODEL, max_tokens=100, temperature=TEMPERATURE, messages=[]\n"
    "    )\n"
)
REPORTS = (
    "import anthropic\n\nfrom app.settings import LABEL, MODEL\n\n\n"
    "def summarise(text):\n"
    "    print(LABEL)\n"
    "    return anthropic.Anthropic().messages.create(model=MODEL, max_tokens=100, messages=[])\n"
)


WRAPPER = (
    "import anthropic\n\n\ndef ask(prompt, model):\n"
    "    return anthropic.Anthropic().messages.create(model=model, max_tokens=100, messages=[])\n"
)
MAIL = (
    "from app.settings import MODEL\nfrom app.wrapper import ask\n\n\n"
    "def reply(text):\n    return ask(text, MODEL)\n"
)

AUDIT = (
    "import anthropic\n\nfrom app import settings\n\n\n"
    "def audit(text):\n"
    "    return anthropic.Anthropic().messages.create(\n"
    "        model=settings.MODEL, max_tokens=100, messages=[]\n"
    "    )\n"
)


def _tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path / "repo",
        {
            "claude-migrate.toml": POLICY,
            "app/__init__.py": "",
            "app/settings.py": SETTINGS,
            "app/orders.py": ORDERS,
            "app/reports.py": REPORTS,
            "app/wrapper.py": WRAPPER,
            "app/mail.py": MAIL,
            "app/audit.py": AUDIT,
        },
    )


def test_a_constant_read_by_calls_of_other_modules_is_one_finding_with_the_calls_related(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    data = Cli(root).json("check", "--no-cache", ".")
    found = sorted((d["path"], d["line"], d["code"]) for d in data["diagnostics"])
    # Not also at each call, and the model id is not also reported as data.
    assert found == [("app/settings.py", 1, "CM302"), ("app/settings.py", 2, "CM101")]
    by_code = {d["code"]: d for d in data["diagnostics"]}
    related = sorted((r["path"], r["line"]) for r in by_code["CM302"]["related"])
    # The calls that read it (as a name or as `settings.MODEL`), and the call passing it to a
    # wrapper that sends it.
    assert related == [
        ("app/audit.py", 7),
        ("app/mail.py", 6),
        ("app/orders.py", 7),
        ("app/reports.py", 8),
    ]
    assert [(r["path"], r["line"]) for r in by_code["CM101"]["related"]] == [("app/orders.py", 7)]
    assert "MODEL, read by 4 Claude calls of other modules" in by_code["CM302"]["message"]


def test_the_fix_edits_the_constant_once(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    before = snapshot(root)
    Cli(root)("fix", "--no-cache", "--unsafe-fixes", ".")
    after = snapshot(root)
    assert after["app/settings.py"].decode() == (
        'MODEL = "claude-opus-4-6"\nTEMPERATURE = 0.0\nLABEL = "orders"\n'
    )
    for name in ("orders", "reports", "mail", "wrapper", "audit"):
        assert after[f"app/{name}.py"] == before[f"app/{name}.py"]
    assert Cli(root).json("check", "--no-cache", ".")["diagnostics"] == []


def test_a_constant_outside_the_checked_paths_is_reported_at_each_call(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    data = Cli(root).json("check", "--no-cache", "app/orders.py")
    found = sorted((d["path"], d["line"], d["code"]) for d in data["diagnostics"])
    assert found == [("app/orders.py", 8, "CM101"), ("app/orders.py", 8, "CM302")]
    before = snapshot(root)
    Cli(root)("fix", "--no-cache", "--unsafe-fixes", "app/orders.py")
    assert snapshot(root) == before  # the constant is in another file: nothing is written
