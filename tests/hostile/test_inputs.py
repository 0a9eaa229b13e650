"""Hostile input: policies, ignore patterns, file names and baselines that are wrong on purpose.

Every case runs the real command in a real process and asserts what a user sees: exit 2 with
the file named for a bad input (never a traceback, never exit 1 for a crash), and output that
stays valid for every format.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import SRC, Cli, write_tree

CALL = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    'r = client.messages.create(model="claude-sonnet-4-5", max_tokens=100, temperature=0.9,'
    " messages=[])\n"
)


def run_cm(
    *args: str | bytes, cwd: Path, timeout: float = 60, **kwargs: object
) -> subprocess.CompletedProcess[bytes]:
    """Run `python -m claude_migrate` as a real process; output stays bytes (names may not decode)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "claude_migrate", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        timeout=timeout,
        **kwargs,  # type: ignore[arg-type]
    )


def cm(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run the command in this process (click's runner, exceptions not caught); same shape."""
    result = Cli(cwd)(*args)
    return subprocess.CompletedProcess(
        list(args), result.exit_code, result.stdout_bytes, result.stderr_bytes
    )


def assert_config_error(proc: subprocess.CompletedProcess[bytes], *words: str) -> str:
    """Assert a clean exit 2 (no traceback) whose message holds every word; return stderr."""
    err = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, (proc.returncode, err, proc.stdout)
    assert "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)
    return err


# Policy numbers and dates -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("policy", "key"),
    [
        ("[temperature]\nfix-to = nan\n", "temperature.fix-to"),
        ("[temperature]\nmax = nan\n", "temperature.max"),
        ("[temperature]\nmax = inf\n", "temperature.max"),
        ("[temperature]\nmax = -inf\n", "temperature.max"),
        ("[max-tokens]\nmax = 99999999999999999\n", "max-tokens.max"),
        ("[max-tokens]\nmax = 2048\nfix-to = 5000000\n", "max-tokens.fix-to"),
        ("[[overrides]]\npaths = ['x/**']\ntemperature = { max = nan }\n", "temperature.max"),
    ],
)
def test_policy_rejects_numbers_that_are_not_finite_or_sensible(
    tmp_path: Path, policy: str, key: str
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "# team policy\n" + policy, "a.py": CALL})
    for command in ("check", "fix"):
        proc = cm(command, "a.py", cwd=tmp_path)
        err = assert_config_error(proc, "claude-migrate.toml:", key, "expected")
        assert ":2:" in err or ":3:" in err or ":4:" in err, err
    assert (tmp_path / "a.py").read_text() == CALL  # nothing was fixed under a broken policy


def test_fix_never_writes_nan_as_a_temperature(tmp_path: Path) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": "[temperature]\nfix-to = nan\n", "a.py": CALL})
    cm("fix", ".", cwd=tmp_path)
    assert "nan" not in (tmp_path / "a.py").read_text()


@pytest.mark.parametrize(
    ("policy", "key"),
    [
        ("[retired-models]\nwarn-days = 9999999999\n", "retired-models.warn-days"),
        ("[retired-models]\nwarn-days = 36501\n", "retired-models.warn-days"),
        ("[retired-models]\nas-of = 9999-12-31\n", "retired-models.as-of"),
        ('[retired-models]\nas-of = "9999-12-31"\n', "retired-models.as-of"),
        ("[retired-models]\nas-of = 0001-01-01\n", "retired-models.as-of"),
    ],
)
def test_policy_bounds_dates_and_day_counts_at_load(tmp_path: Path, policy: str, key: str) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": policy, "a.py": CALL})
    proc = cm("check", "--no-cache", ".", cwd=tmp_path)
    err = assert_config_error(proc, "claude-migrate.toml:2:", key, "expected")
    assert "OverflowError" not in err + proc.stdout.decode()
    assert "datetime.date" not in err  # a date is shown as written


def test_widest_allowed_dates_and_day_counts_check_without_internal_errors(tmp_path: Path) -> None:
    policy = "[retired-models]\nas-of = 2999-12-31\nwarn-days = 36500\n"
    write_tree(tmp_path, {"claude-migrate.toml": policy, "a.py": CALL})
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stderr
    assert json.loads(proc.stdout)["errors"] == []


# Policy files that are links to nowhere, and pyproject.toml files that do not parse ---------


@pytest.mark.parametrize("name", ["claude-migrate.toml", "pyproject.toml"])
@pytest.mark.parametrize("shape", ["dangling", "loop"])
def test_policy_symlink_that_dangles_or_loops_is_a_configuration_error(
    tmp_path: Path, name: str, shape: str
) -> None:
    write_tree(tmp_path, {"src/a.py": CALL})
    link = tmp_path / "src" / name
    os.symlink("missing.toml" if shape == "dangling" else name, link)
    for command in ("check", "fix"):
        proc = cm(command, ".", cwd=tmp_path)
        words = ("does not exist",) if shape == "dangling" else ("loops",)
        assert_config_error(proc, f"src/{name}", *words)
    assert (tmp_path / "src" / "a.py").read_text() == CALL


def test_policy_named_fifo_is_an_error_not_a_hang(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": CALL})
    os.mkfifo(tmp_path / "claude-migrate.toml")
    proc = run_cm("check", "a.py", cwd=tmp_path, timeout=30)
    assert_config_error(proc, "claude-migrate.toml", "not a regular file")


TEMPLATE_PYPROJECT = '[project]\nname = "{{ cookiecutter.project_slug }}"\nversion = {{ v }}\n'


def test_unparseable_pyproject_without_the_table_is_its_own_cm001_and_the_walk_goes_on(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[temperature]\nmax = 0.5\n",
            "app/chat.py": CALL,
            "templates/{{cookiecutter.slug}}/pyproject.toml": TEMPLATE_PYPROJECT,
            "templates/{{cookiecutter.slug}}/pkg/x.py": CALL,
            "vendor/lib/tests/data/pyproject.toml": '[project\ndependencies = ["anthropic<0.2"]\n',
        },
    )
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    errors = {(e["path"], e["code"], e["line"]) for e in report["errors"]}
    assert errors == {
        ("templates/{{cookiecutter.slug}}/pyproject.toml", "CM001", 3),
        ("vendor/lib/tests/data/pyproject.toml", "CM001", 1),
    }
    assert all("invalid TOML" in e["message"] for e in report["errors"])
    # Both Python files were checked under the root policy (max 0.5), not stopped or defaulted.
    temperature = {d["path"] for d in report["diagnostics"] if d["code"] == "CM101"}
    assert temperature == {"app/chat.py", "templates/{{cookiecutter.slug}}/pkg/x.py"}
    assert all("0.5" in d["message"] for d in report["diagnostics"] if d["code"] == "CM101")


def test_unparseable_pyproject_that_sets_the_policy_table_stops_the_run(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "svc/pyproject.toml": '[project]\nname = "svc"\n\n[tool.claude-migrate]\nselect = [\n',
            "svc/a.py": CALL,
        },
    )
    proc = cm("fix", ".", cwd=tmp_path)
    assert_config_error(proc, "svc/pyproject.toml", "invalid TOML")
    assert (tmp_path / "svc" / "a.py").read_text() == CALL


@pytest.mark.parametrize(
    "text",
    [
        '[tool.claude-migrate.temperature]\nmax = {{ t }}\n',
        '[tool]\nclaude-migrate = { select = ["CM101" }\n',
        'tool.claude-migrate.select = [\n',
        '[tool."claude-migrate"]\nselect = [\n',
    ],
)
def test_any_visible_spelling_of_the_policy_table_governs_even_unparsed(
    tmp_path: Path, text: str
) -> None:
    write_tree(tmp_path, {"pyproject.toml": text, "a.py": CALL})
    assert_config_error(cm("check", ".", cwd=tmp_path), "pyproject.toml", "invalid TOML")


def test_unparseable_pyproject_naming_the_tool_as_a_dependency_does_not_govern(
    tmp_path: Path,
) -> None:
    text = '[project]\ndependencies = [\n  "claude-migrate==0.1",\n  "anthropic>=0.40",\n'
    write_tree(tmp_path, {"pyproject.toml": text, "a.py": CALL})
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout)
    assert [e["path"] for e in report["errors"]] == ["pyproject.toml"]
    assert any(d["path"] == "a.py" for d in report["diagnostics"])
