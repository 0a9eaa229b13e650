"""CM201 end to end through the CLI: a project with pins in every kind of dependency file."""

from __future__ import annotations

import configparser
import json
import sys
from pathlib import Path

import libcst as cst
from helpers import Cli, run_subprocess, snapshot, write_tree
from packaging.requirements import Requirement

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

# Each file holds one pin below the minimum and one at or above it (or a bare name).
PROJECT = {
    "requirements.txt": "anthropic==0.28.0\nboto3>=1.34.0\n",
    "requirements/dev.txt": (
        "-r ../requirements.txt\nboto3>=1.20,<1.30 --hash=sha256:00\nanthropic\n"
    ),
    "requirements.in": "anthropic~=0.25.0\nboto3\n",
    "constraints.txt": "boto3<1.30\nanthropic>=0.33,<1\n",
    "pyproject.toml": (
        '[project]\nname = "demo"\nversion = "1"\ndependencies = [\n'
        "    \"anthropic[bedrock]>=0.20,<0.30; python_version >= '3.9'\",\n"
        '    "boto3>=1.35",\n]\n\n'
        "[tool.poetry.dependencies]\n"
        'anthropic = { version = "^0.18.0", optional = true }\nboto3 = "^1.34"\n'
    ),
    "setup.py": (
        "from setuptools import setup\n\nREQUIRES = ['anthropic==0.30.0', 'boto3>=1.34.0']\n\n"
        "setup(name='demo', install_requires=REQUIRES)\n"
    ),
    "setup.cfg": "[options]\ninstall_requires =\n    boto3==1.28.0\n    anthropic>=0.40\n",
    "Pipfile": '[packages]\nanthropic = "==0.31.0"\nboto3 = "*"\n',
    "poetry.lock": (
        '[[package]]\nname = "anthropic"\nversion = "0.28.0"\n\n'
        '[[package]]\nname = "boto3"\nversion = "1.35.0"\n'
    ),
    "uv.lock": 'version = 1\n\n[[package]]\nname = "boto3"\nversion = "1.20.0"\n',
    "pdm.lock": '[[package]]\nname = "anthropic"\nversion = "0.40.0"\n',
    "Pipfile.lock": json.dumps(
        {"_meta": {}, "default": {"anthropic": {"version": "==0.30.0"}}, "develop": {}}, indent=4
    )
    + "\n",
    "app.py": "import boto3\n\nboto3.client('s3')\n",
}

BELOW = {
    ("requirements.txt", 1),
    ("requirements/dev.txt", 2),
    ("requirements.in", 1),
    ("constraints.txt", 1),
    ("pyproject.toml", 5),
    ("pyproject.toml", 10),
    ("setup.py", 3),
    ("setup.cfg", 3),
    ("Pipfile", 2),
    ("poetry.lock", 3),
    ("uv.lock", 5),
    ("Pipfile.lock", 5),
}
LOCKED = {("poetry.lock", 3), ("uv.lock", 5), ("Pipfile.lock", 5)}
# A requirements file that pins hashes is generated: reported, regenerated rather than edited.
HASHED = {("requirements/dev.txt", 2)}

FIXED = {
    "requirements.txt": "anthropic==0.33.0\nboto3>=1.34.0\n",
    "requirements.in": "anthropic~=0.33.0\nboto3\n",
    "constraints.txt": "boto3>=1.34.0\nanthropic>=0.33,<1\n",
    "setup.cfg": "[options]\ninstall_requires =\n    boto3==1.34.0\n    anthropic>=0.40\n",
    "Pipfile": '[packages]\nanthropic = "==0.33.0"\nboto3 = "*"\n',
}


def _reported(payload: dict) -> set[tuple[str, int]]:
    assert payload["errors"] == []
    assert {d["code"] for d in payload["diagnostics"]} <= {"CM201"}
    return {(d["path"], d["line"]) for d in payload["diagnostics"]}


def test_check_reports_exactly_the_pins_below_the_minimums(cli: Cli) -> None:
    write_tree(cli.cwd, PROJECT)
    result = cli("check", "--format", "json")
    assert result.exit_code == 1
    payload = json.loads(result.stdout)
    assert _reported(payload) == BELOW
    fixable = {(d["path"], d["line"]) for d in payload["diagnostics"] if d["fix"] is not None}
    assert fixable == BELOW - LOCKED - HASHED
    for d in payload["diagnostics"]:
        if (d["path"], d["line"]) in LOCKED:
            assert "re-lock" in d["message"]
        if (d["path"], d["line"]) in HASHED:
            assert "pins hashes" in d["message"]


def test_a_raise_beside_a_lock_that_records_it_is_unsafe_and_says_to_re_lock(cli: Cli) -> None:
    write_tree(cli.cwd, PROJECT)
    payload = json.loads(cli("check", "--format", "json").stdout)
    for d in payload["diagnostics"]:
        if d["path"] in ("pyproject.toml", "Pipfile"):
            assert d["fix"] is not None and d["fix"]["applicability"] == "unsafe", d
            assert "beside it records these requirements" in d["message"]
        elif d["path"] == "requirements.txt":
            assert d["fix"]["applicability"] == "safe"
    assert (
        "`pipenv lock`"
        in next(d for d in payload["diagnostics"] if d["path"] == "Pipfile")["message"]
    )


def test_fix_raises_every_pin_and_a_second_fix_changes_nothing(cli: Cli) -> None:
    write_tree(cli.cwd, PROJECT)
    # Raises beside a lock file are unsafe (the lock is to be made again).
    result = cli("fix", "--unsafe-fixes")
    assert result.exit_code == 1, result.output  # the lock files remain: they need a re-lock
    for name, text in FIXED.items():
        assert (cli.cwd / name).read_text() == text, name
    pyproject = (cli.cwd / "pyproject.toml").read_text()
    assert "\"anthropic[bedrock]>=0.33.0; python_version >= '3.9'\"" in pyproject
    assert 'anthropic = { version = "^0.33.0", optional = true }' in pyproject
    assert "REQUIRES = ['anthropic==0.33.0', 'boto3>=1.34.0']" in (cli.cwd / "setup.py").read_text()
    assert (cli.cwd / "app.py").read_text() == PROJECT["app.py"]
    for lock in ("poetry.lock", "uv.lock", "pdm.lock", "Pipfile.lock", "requirements/dev.txt"):
        assert (cli.cwd / lock).read_text() == PROJECT[lock]
    # The fixed files still parse with each format's own parser.
    data = tomllib.loads(pyproject)
    for requirement in data["project"]["dependencies"]:
        Requirement(requirement)
    tomllib.loads((cli.cwd / "Pipfile").read_text())
    cst.parse_module((cli.cwd / "setup.py").read_text())
    parser = configparser.RawConfigParser()
    parser.read_string((cli.cwd / "setup.cfg").read_text())
    for line in parser.get("options", "install_requires").split():
        Requirement(line)
    for name in ("requirements.txt", "requirements.in", "constraints.txt"):
        for line in (cli.cwd / name).read_text().splitlines():
            Requirement(line)
    after = snapshot(cli.cwd)
    again = cli("fix", "--format", "json")
    assert again.exit_code == 1
    assert snapshot(cli.cwd) == after
    assert _reported(json.loads(again.stdout)) == LOCKED | HASHED


def test_check_as_a_real_process_reports_the_same_pins(tmp_path: Path) -> None:
    write_tree(tmp_path, PROJECT)
    completed = run_subprocess("check", "--format", "json", ".", cwd=tmp_path)
    assert completed.returncode == 1, completed.stderr
    assert _reported(json.loads(completed.stdout)) == BELOW


def test_policy_minimums_apply_and_a_bad_version_exits_2(cli: Cli) -> None:
    write_tree(
        cli.cwd,
        {
            "claude-migrate.toml": '[sdk-pins.minimums]\nanthropic = "0.50.0"\n',
            "requirements.txt": "anthropic>=0.40\nboto3==1.0\n",
        },
    )
    payload = cli.json("check")
    assert [(d["line"], d["message"]) for d in payload["diagnostics"]] == [
        (1, "anthropic >=0.40 admits versions below the policy minimum 0.50.0")
    ]
    (cli.cwd / "claude-migrate.toml").write_text(
        '[sdk-pins.minimums]\nboto3 = "1.34.0"\nanthropic = "latest"\n'
    )
    result = cli("check")
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "claude-migrate: error: claude-migrate.toml:3: `sdk-pins.minimums.anthropic`: "
        "expected a version such as \"0.33.0\", got 'latest'"
    )
