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


# Gitignore patterns: git's semantics in .gitignore, exclude and overrides.paths ----------------

IGNORE_TREE_FILES = [
    "foo", "bar", "x\\y", "xy", "!x", "#x", "sp ", "a.py", "d/e/f.py", "d/g.py", "sub/foo",
    "br[a", "a]b", "tr\\", "Foo", "9oo", "-oo", "[oo", "]oo", "zoo", "^oo", " oo", "a/b/c.py",
    "creative/a.py", "creative/strict/b.py",
]  # fmt: skip

# Each a .gitignore git accepts; the malformed lines among them (a bare `!`, a trailing `\`,
# an unterminated `[`, an unknown class) git ignores silently.
GITIGNORES = [
    ["*", "!"], ["*", "!", "!foo"], ["foo\\"], ["tr\\"], ["tr\\\\"], ["\\"], ["\\!x"],
    ["sp\\ "], ["sp "], ["br[a"], ["br\\[a"], ["[!a]oo"], ["[^b]ar"], ["a]b"], ["x\\y"],
    ["**/f.py"], ["d/**"], ["d/**/f.py"], ["d/"], ["/"], ["*", "!d/"], ["d", "!d/g.py"],
    ["\\#x"], ["#x"], ["***"], ["a/**b"], ["[a-"], ["[z-a]oo"], ["[z-af]oo"], ["f[o]o"],
    ["[[:alpha:]]oo"], ["[[:digit:]]oo"], ["[![:lower:]]oo"], ["[[:foo:]]oo"],
    ["[[:punct:]]oo"], ["[]]oo"], ["[!]]oo"], ["[]-]oo"], ["[\\]]oo"], ["[a\\-z]oo"],
    ["[[]oo"], ["[[:]oo"], ["[[:alpha:]-]oo"], ["a[/]b/c.py"], ["[^]oo"], ["[--0]oo"],
    ["*oo", "![[:upper:]]*"], ["[[:space:]]oo"], ["[[:alpha:][:digit:]]oo"], ["a?b"],
    ["d/*/f.py"], ["/d/g.py"], ["e/f.py"], ["[A-z]oo"], ["\\[oo"], ["d/**", "!d/g.py"],
    ["d/**", "!d/e/"], ["d/**/", "!d/e/f.py"], ["a/**", "!a/b/c.py"], ["/a/**", "!a/b/"],
    ["creative/**", "!creative/strict/**"], ["creative/**", "!creative/strict/", "!creative/strict/**"],
    ["**/"], ["**/", "!d/"], ["a/**/"], ["*/**/"], ["d/**/*.py"], ["**/e/"], ["**/e/**"],
]  # fmt: skip


def _git_ignored(repo: Path) -> set[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "-uall", "-z"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return {e[3:] for e in out.split("\0") if e.startswith("!! ")} - {".gitignore"}


def test_gitignore_lines_match_exactly_what_git_ignores(tmp_path: Path) -> None:
    from claude_migrate.gitignore import gitignore_spec

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {name: "" for name in IGNORE_TREE_FILES})
    differences = []
    for lines in GITIGNORES:
        (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n")
        spec = gitignore_spec(lines)

        def ignored(name: str, spec: object = spec) -> bool:
            # As the walk decides: a folder that is ignored hides everything in it.
            parts = name.split("/")
            for k in range(1, len(parts)):
                if spec.check_file("/".join(parts[:k]) + "/").include:  # type: ignore[attr-defined]
                    return True
            return bool(spec.check_file(name).include)  # type: ignore[attr-defined]

        ours = {name for name in IGNORE_TREE_FILES if ignored(name)}
        git = _git_ignored(tmp_path)
        if ours != git:
            differences.append((lines, sorted(git), sorted(ours)))
    assert differences == []


def test_gitignore_with_bang_and_backslash_lines_is_honoured_not_a_traceback(
    tmp_path: Path,
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(
        tmp_path,
        {
            ".gitignore": "!\n\\\nbuild\\\ngenerated/\n!generated/keep.py\n*.gen.py\n[[:upper:]]*.py\n",
            "app.py": CALL,
            "generated/x.py": CALL,
            "out.gen.py": CALL,
            "Tool.py": CALL,
        },
    )
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    paths = {d["path"] for d in json.loads(proc.stdout)["diagnostics"]}
    assert paths == {"app.py"}


def test_policy_exclude_and_overrides_follow_gitignore_negation_and_escapes(
    tmp_path: Path,
) -> None:
    policy = (
        'exclude = ["legacy/**", "!legacy/keep.py", "\\\\#draft.py"]\n'
        "[[overrides]]\n"
        'paths = ["creative/**", "!creative/strict/", "!creative/strict/**",'
        ' "lab/[[:digit:]]*.py"]\n'
        "temperature = { max = 1.0 }\n"
    )
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": policy,
            "legacy/old.py": CALL,
            "legacy/keep.py": CALL,
            "#draft.py": CALL,
            "creative/a.py": CALL,
            "creative/strict/b.py": CALL,
            "lab/1.py": CALL,
            "lab/x.py": CALL,
        },
    )
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    temperature = {
        d["path"] for d in json.loads(proc.stdout)["diagnostics"] if d["code"] == "CM101"
    }
    assert temperature == {"legacy/keep.py", "creative/strict/b.py", "lab/x.py"}


@pytest.mark.parametrize(
    ("key", "pattern", "reason"),
    [
        ("exclude", "!", "nothing to negate"),
        ("exclude", "build\\\\", "unescaped"),
        ("exclude", "docs/[draft", "without its `]`"),
        ("exclude", "[[:letter:]]*.py", "unknown class"),
        ("overrides[0].paths", "\\\\", "unescaped"),
        ("overrides[0].paths", "!", "nothing to negate"),
    ],
)
def test_policy_pattern_git_cannot_match_exits_2_naming_it(
    tmp_path: Path, key: str, pattern: str, reason: str
) -> None:
    listed = f'["ok/**", "{pattern}"]'
    if key == "exclude":
        policy = f"select = ['CM']\nexclude = {listed}\n"
    else:
        policy = f"[[overrides]]\npaths = {listed}\ntemperature = {{ max = 1.0 }}\n"
    write_tree(tmp_path, {"claude-migrate.toml": policy, "a.py": CALL})
    for command in ("check", "fix"):
        proc = cm(command, ".", cwd=tmp_path)
        err = assert_config_error(proc, "claude-migrate.toml:2:", f"`{key}`", reason)
        assert pattern.replace("\\\\", "\\") in err
    assert (tmp_path / "a.py").read_text() == CALL
