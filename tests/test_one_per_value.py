"""One finding per value: a constant read by several Claude calls of its own module.

The shapes are in fixtures/project-pervalue/ and fixtures/notebooks/shared_constants.ipynb;
these pin the edges: where a single reader's finding stays, what the one fix writes when other
code reads the constant too, and the report formats' related places.
"""

from __future__ import annotations

import json
from pathlib import Path

from helpers import Cli, snapshot, write_tree

POLICY = 'extend = "default"\nselect = ["CM101", "CM102", "CM302"]\n'
HEAD = "import anthropic\n\nclient = anthropic.Anthropic()\n"


def _call(model: str = "'claude-sonnet-4-6'", temperature: str = "0.0") -> str:
    return (
        f"    return client.messages.create(model={model}, max_tokens=10, "
        f"temperature={temperature}, messages=[])\n"
    )


def _check(root: Path, *args: str) -> list[dict]:  # type: ignore[type-arg]
    data = Cli(root).json("check", "--no-cache", *args, ".")
    assert not data["errors"], data["errors"]
    return sorted(data["diagnostics"], key=lambda d: (d["path"], d["line"], d["code"]))


def _places(found: list[dict]) -> list[tuple[str, int, str]]:  # type: ignore[type-arg]
    return [(d["path"], d["line"], d["code"]) for d in found]


def test_a_constant_two_calls_read_is_one_finding_at_it_and_one_fix(tmp_path: Path) -> None:
    source = (
        HEAD + "TEMP = 0.9\n\n\n"  # line 4
        "def one():\n" + _call(temperature="TEMP") + "\n\n"  # line 8
        "def two():\n" + _call(temperature="TEMP")  # line 12
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    (found,) = _check(root)
    assert (found["line"], found["column"], found["code"]) == (4, 8, "CM101")
    assert found["message"] == (
        "temperature 0.9 (TEMP, read by 2 Claude calls of this module) is above the policy "
        "maximum 0.2"
    )
    assert [(r["path"], r["line"]) for r in found["related"]] == [("m.py", 8), ("m.py", 12)]
    assert found["fix"] == {
        "applicability": "safe",
        "description": "set TEMP (used by 2 Claude calls) to 0.0",
    }
    Cli(root)("fix", "--no-cache", ".")
    assert (root / "m.py").read_text() == source.replace("TEMP = 0.9", "TEMP = 0.0")


def test_a_constant_other_code_reads_too_keeps_its_value_and_each_call_gets_the_literal(
    tmp_path: Path,
) -> None:
    source = (
        "import random\n" + HEAD + "TEMP = 0.9\n\n\n"  # line 5
        "def one():\n" + _call(temperature="TEMP") + "\n\n"
        "def two():\n" + _call(temperature="TEMP") + "\n\n"
        "def jitter():\n    return random.uniform(0, TEMP)\n"
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    (found,) = _check(root)
    assert (found["line"], found["code"]) == (5, "CM101")
    assert found["fix"]["description"] == (
        "set temperature to 0.0 in each of the 2 calls (TEMP is also read on line 17, and stays)"
    )
    Cli(root)("fix", "--no-cache", ".")
    fixed = (root / "m.py").read_text()
    assert "TEMP = 0.9" in fixed and "random.uniform(0, TEMP)" in fixed
    assert fixed.count("temperature=0.0") == 2 and "temperature=TEMP" not in fixed


def test_a_constant_one_call_reads_is_reported_at_that_call(tmp_path: Path) -> None:
    source = HEAD + "TEMP = 0.9\n\n\ndef one():\n" + _call(temperature="TEMP")
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    (found,) = _check(root)
    assert (found["line"], found["code"]) == (8, "CM101")
    assert "(from TEMP)" in found["message"] and "related" not in found


def test_a_function_local_variable_two_calls_read_is_reported_at_each_call(
    tmp_path: Path,
) -> None:
    source = (
        HEAD + "\n\ndef both():\n    temp = 0.9\n"
        "    client.messages.create(model='claude-sonnet-4-6', max_tokens=10, "
        "temperature=temp, messages=[])\n" + _call(temperature="temp")
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    assert _places(_check(root)) == [("m.py", 8, "CM101"), ("m.py", 9, "CM101")]


def test_a_constant_read_here_and_in_another_module_is_one_finding_naming_both(
    tmp_path: Path,
) -> None:
    files = {
        "claude-migrate.toml": POLICY,
        "app/__init__.py": "",
        "app/settings.py": HEAD + "MODEL = 'claude-2.1'\n\n\ndef ping():\n" + _call("MODEL"),
        "app/use.py": HEAD + "from app.settings import MODEL\n\n\ndef ask():\n" + _call("MODEL"),
    }
    root = write_tree(tmp_path / "repo", files)
    (found,) = _check(root)
    assert _places([found]) == [("app/settings.py", 4, "CM302")]
    assert "(MODEL, read by 2 Claude calls (1 in this module, 1 in others))" in found["message"]
    assert [(r["path"], r["line"]) for r in found["related"]] == [
        ("app/settings.py", 8),
        ("app/use.py", 8),
    ]
    before = snapshot(root)
    Cli(root)("fix", "--no-cache", "--unsafe-fixes", ".")
    after = snapshot(root)
    assert after["app/use.py"] == before["app/use.py"]
    assert b"MODEL = 'claude-sonnet-4-6'" in after["app/settings.py"]


def test_a_legacy_call_among_the_readers_leaves_the_one_finding_without_a_fix(
    tmp_path: Path,
) -> None:
    source = (
        HEAD + "MODEL = 'claude-2.1'\n\n\n"
        "def chat():\n" + _call("MODEL") + "\n\n"
        "def complete():\n"
        "    return client.completions.create(model=MODEL, max_tokens_to_sample=10, "
        "prompt='\\n\\nHuman: hi\\n\\nAssistant:')\n"
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    (found,) = _check(root, "--select", "CM302")
    assert (found["line"], found["code"]) == (4, "CM302")
    assert found["fix"] is None
    assert "legacy" in found["message"] or "CM301" in found["message"]


def test_sarif_lists_each_call_as_a_related_location(tmp_path: Path) -> None:
    source = (
        HEAD + "MAX = 9000\n\n\n"
        "def one():\n" + _call().replace("max_tokens=10", "max_tokens=MAX") + "\n\n"
        "def two():\n" + _call().replace("max_tokens=10", "max_tokens=MAX")
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    result = Cli(root)("check", "--no-cache", "--format", "sarif", ".")
    (run,) = json.loads(result.stdout)["runs"]
    (finding,) = run["results"]
    assert finding["ruleId"] == "CM102"
    assert finding["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    lines = [r["physicalLocation"]["region"]["startLine"] for r in finding["relatedLocations"]]
    assert lines == [8, 12]


def test_migrate_moves_a_shared_model_constant_in_one_finding(tmp_path: Path) -> None:
    source = (
        HEAD + "MODEL = 'claude-3-5-sonnet-20241022'\n\n\n"
        "def one():\n" + _call("MODEL") + "\n\n"
        "def two():\n" + _call("MODEL")
    )
    policy = '[migrate-model]\nto = "claude-sonnet-4-6"\n'
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": policy, "m.py": source})
    found = [d for d in _check(root, "--select", "CM304") if d["code"] == "CM304"]
    assert _places(found) == [("m.py", 4, "CM304")]
    assert "(MODEL, read by 2 Claude calls of this module)" in found[0]["message"]
    assert len(found[0]["related"]) == 2


def test_a_dict_entry_two_calls_spread_is_one_finding_naming_each_spread(tmp_path: Path) -> None:
    source = (
        HEAD + "ARGS = {'model': 'claude-sonnet-4-6', 'max_tokens': 9000}\n\n\n"  # line 4
        "def one():\n    return client.messages.create(\n        messages=[],\n"
        "        **ARGS,\n    )\n\n\n"  # line 10
        "def two():\n    return client.messages.create(messages=[], **ARGS)\n"  # line 15
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "m.py": source})
    (found,) = _check(root)
    assert (found["line"], found["code"]) == (4, "CM102")
    assert found["message"] == "max_tokens 9000 is above the policy maximum 1024"
    assert [(r["line"], r["message"]) for r in found["related"]] == [
        (10, "a Claude call sends this max_tokens here, through **ARGS"),
        (15, "a Claude call sends this max_tokens here, through **ARGS"),
    ]


def test_a_class_attribute_read_through_its_class_and_an_instance_is_one_finding(
    tmp_path: Path,
) -> None:
    # `Settings.MODEL` in one call, `settings.MODEL` of a module-level instance in another:
    # one value, reported once in the class body, both calls its related places.
    config = (
        "class Settings:\n"
        "    MODEL = 'claude-3-opus-20240229'\n"  # line 2
        "\n\nsettings = Settings()\n"
    )
    calls = (
        "import anthropic\n\nfrom app.config import Settings, settings\n\n"
        "client = anthropic.Anthropic()\n\n\n"
        "def one():\n" + _call(model="Settings.MODEL") + "\n\n"  # line 9
        "def two():\n" + _call(model="settings.MODEL")  # line 13
    )
    root = write_tree(
        tmp_path / "repo",
        {
            "claude-migrate.toml": POLICY,
            "app/__init__.py": "",
            "app/config.py": config,
            "app/calls.py": calls,
        },
    )
    (found,) = _check(root)
    assert _places([found]) == [("app/config.py", 2, "CM302")]
    assert [(r["path"], r["line"]) for r in found["related"]] == [
        ("app/calls.py", 9),
        ("app/calls.py", 13),
    ]
    Cli(root)("fix", "--unsafe-fixes", "--no-cache", ".")
    assert "MODEL = 'claude-opus-4-6'" in (root / "app/config.py").read_text()
    assert (root / "app/calls.py").read_text() == calls


def test_a_class_attribute_set_from_outside_proves_no_value_the_calls_send(
    tmp_path: Path,
) -> None:
    # `Settings.MODEL = ...` in another module: which value a call sends depends on the run.
    config = "class Settings:\n    MODEL = 'claude-3-opus-20240229'\n"
    calls = (
        "import anthropic\n\nfrom app.config import Settings\n\n"
        "client = anthropic.Anthropic()\n\n\n"
        "def one():\n" + _call(model="Settings.MODEL") + "\n\n"
        "def two():\n" + _call(model="Settings.MODEL")
    )
    main = "from app.config import Settings\n\nSettings.MODEL = 'claude-sonnet-4-6'\n"
    root = write_tree(
        tmp_path / "repo",
        {
            "claude-migrate.toml": POLICY,
            "app/__init__.py": "",
            "app/config.py": config,
            "app/calls.py": calls,
            "app/main.py": main,
        },
    )
    (found,) = _check(root)
    assert _places([found]) == [("app/config.py", 2, "CM302")]
    assert "found as data" in found["message"]
