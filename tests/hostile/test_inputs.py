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
    """Run `python -m claude_migrate` as a process; bytes out (names may not decode)."""
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
        (
            "[cache-key]\ntemplate = '{anthropic_version!r:>999999999}{stream}{key}'\n",
            "cache-key.template",
        ),
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
        "[tool.claude-migrate.temperature]\nmax = {{ t }}\n",
        '[tool]\nclaude-migrate = { select = ["CM101" }\n',
        "tool.claude-migrate.select = [\n",
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
    ["creative/**", "!creative/strict/**"],
    ["creative/**", "!creative/strict/", "!creative/strict/**"],
    ["**/"], ["**/", "!d/"], ["a/**/"], ["*/**/"], ["d/**/*.py"], ["**/e/"], ["**/e/**"],
]  # fmt: skip


def _git_ignored(repo: Path) -> set[str]:
    out = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "-uall", "-z"],
        cwd=repo, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return {e[3:] for e in out.split("\0") if e.startswith("!! ")} - {".gitignore"}


def test_gitignore_lines_match_exactly_what_git_ignores(tmp_path: Path) -> None:
    from claude_migrate.core.gitignore import gitignore_spec

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
            ".gitignore": (
                "!\n\\\nbuild\\\ngenerated/\n!generated/keep.py\n*.gen.py\n[[:upper:]]*.py\n"
            ),
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


def test_gitignore_with_bom_crlf_and_form_feed_is_read_as_git_reads_it(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write_tree(tmp_path, {"gen.py": CALL, "b.py": CALL, "c\x0cd.py": CALL, "keep.py": CALL})
    (tmp_path / ".gitignore").write_bytes(b"\xef\xbb\xbfgen.py\r\nb.py\r\nc\x0cd.py\r\n")
    proc = cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    checked = {d["path"] for d in json.loads(proc.stdout)["diagnostics"]}
    git_ignored = _git_ignored(tmp_path)
    assert git_ignored == {"gen.py", "b.py", "c\x0cd.py"}
    assert checked == {"keep.py"}


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


# File names that are not UTF-8, in every output format ------------------------------------

RAW_NAME = b"caf\xe9 \xff.py"  # Latin-1 bytes: no UTF-8 decoder reads them
FORMATS = ["text", "concise", "json", "sarif", "github", "junit"]


@pytest.fixture
def latin1_tree(tmp_path: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "ok.py").write_text(CALL)
    with open(os.path.join(os.fsencode(tmp_path), RAW_NAME), "wb") as handle:
        handle.write(CALL.encode())
    return tmp_path


def _check_output(fmt: str, data: bytes) -> None:
    """Assert a report names the non-UTF-8 file, losslessly or escaped as its format allows."""
    if fmt in ("text", "concise"):
        assert RAW_NAME in data  # the name's own bytes: the line opens the file it names
        return
    text = data.decode("utf-8")  # the structured formats are valid UTF-8, always
    if fmt == "json":
        report = json.loads(text)
        paths = {d["path"] for d in report["diagnostics"]}
        assert "caf\\xe9 \\xff.py" in paths
        assert not any(0xD800 <= ord(c) <= 0xDFFF for p in paths for c in p)
    elif fmt == "sarif":
        report = json.loads(text)
        uris = {
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in report["runs"][0]["results"]
        }
        assert "caf%E9%20%FF.py" in uris  # percent-encoded bytes: exact and a valid URI
    elif fmt == "github":
        assert "file=caf\\xe9 \\xff.py," in text
    elif fmt == "junit":
        import xml.etree.ElementTree as ET

        root = ET.fromstring(data)  # valid XML, or this raises
        names = {case.get("name") for case in root.iter("testcase")}
        assert "caf\\xe9 \\xff.py" in names


@pytest.mark.parametrize("fmt", FORMATS)
def test_undecodable_file_name_in_every_format_to_stdout_and_output(
    latin1_tree: Path, fmt: str
) -> None:
    # Plain text to a real process's stdout under a UTF-8 locale, where a lone surrogate
    # cannot be printed as text; the rest in this process (same code, faster).
    env_locale = {"LC_ALL": "C.UTF-8", "LANG": "C.UTF-8", "PYTHONUTF8": "1"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env_locale.items():
            patch.setenv(name, value)
        run = run_cm if fmt in ("text", "concise") else cm
        to_stdout = run("check", "--format", fmt, ".", cwd=latin1_tree)
        to_file = cm("check", "--format", fmt, "--output", "out/report", ".", cwd=latin1_tree)
    for proc in (to_stdout, to_file):
        assert proc.returncode == 1, proc.stderr.decode(errors="replace")
        assert b"Traceback" not in proc.stderr
    _check_output(fmt, to_stdout.stdout)
    _check_output(fmt, (latin1_tree / "out" / "report").read_bytes())


def test_undecodable_file_name_is_baselined_and_matched_again(latin1_tree: Path) -> None:
    recorded = cm("check", "--write-baseline", "baseline.json", ".", cwd=latin1_tree)
    assert recorded.returncode == 0, recorded.stderr
    raw = (latin1_tree / "baseline.json").read_bytes()
    entries = json.loads(raw.decode("utf-8"))["entries"]
    assert "caf\\xe9 \\xff.py" in {e["path"] for e in entries}
    assert b"\\udc" not in raw  # no lone surrogate spelled as a JSON escape either
    again = cm("check", "--baseline", "baseline.json", ".", cwd=latin1_tree)
    assert again.returncode == 0, again.stdout
    # Recording over a few files keeps the other files' entries (the name still exists).
    partial = cm("check", "--write-baseline", "baseline.json", "ok.py", cwd=latin1_tree)
    assert partial.returncode == 0, partial.stderr
    kept = json.loads((latin1_tree / "baseline.json").read_text())["entries"]
    assert "caf\\xe9 \\xff.py" in {e["path"] for e in kept}


def test_fix_report_and_diff_name_an_undecodable_file(latin1_tree: Path) -> None:
    diff = cm("fix", "--diff", ".", cwd=latin1_tree)
    assert diff.returncode == 1
    assert b"+++ b/" + RAW_NAME in diff.stdout
    fixed = cm("fix", "--report", "fixes.json", ".", cwd=latin1_tree)
    assert fixed.returncode in (0, 1), fixed.stderr
    report = json.loads((latin1_tree / "fixes.json").read_bytes().decode("utf-8"))
    assert "caf\\xe9 \\xff.py" in {f["path"] for f in report["changed"]}
    assert b"temperature=0.0" in (latin1_tree / os.fsdecode(RAW_NAME)).read_bytes()


def test_junit_is_valid_xml_whatever_the_names_and_messages_hold(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    # Control characters (XML 1.0 cannot hold them, even escaped) and markup in names.
    names = [b"ctl\x01\x1b.py", b'<a&b>".py', b"tab\there.py", b"\xfe\xfe.py"]
    for name in names:
        with open(os.path.join(os.fsencode(tmp_path), name), "wb") as handle:
            handle.write(CALL.encode())
    (tmp_path / "broken.py").write_bytes(b"import anthropic\ndef f(:\n  \x0c\x01\n")
    proc = cm("check", "--format", "junit", ".", cwd=tmp_path)
    assert proc.returncode == 1
    root = ET.fromstring(proc.stdout)
    assert int(root.get("tests", "0")) == len(names) + 1
    assert any(case.find("error") is not None for case in root.iter("testcase"))


# Baselines that are malformed on purpose, and output that cannot be written ---------------


def _baseline_with(entries: object) -> str:
    return json.dumps({"version": 1, "tool": "claude-migrate", "entries": entries})


GOOD_ENTRY = {"path": "a.py", "code": "CM101", "context": "", "fingerprint": "0" * 16}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (_baseline_with([{**GOOD_ENTRY, "path": "x" * 5000}]), ("entries[0]`.path", "5000 bytes")),
        (
            _baseline_with([{**GOOD_ENTRY, "path": "d/" * 2100 + "a.py"}]),
            ("entries[0]`.path", "bytes"),
        ),
        (_baseline_with([{**GOOD_ENTRY, "path": "a\u0000.py"}]), ("entries[0]`.path", "NUL")),
        (_baseline_with([{**GOOD_ENTRY, "path": "/etc/passwd"}]), ("entries[0]`.path", "absolute")),
        (_baseline_with([{**GOOD_ENTRY, "path": "\ud800.py"}]), ("entries[0]`.path", "surrogate")),
        (
            '{"version": 1, "entries": ' + "[" * 100_000 + "]" * 100_000 + "}",
            ("nested too deeply",),
        ),
        ("[" * 100_000, ("baseline",)),
        (_baseline_with({"a.py": 1}), ("entries", "expected a list")),
        (_baseline_with([["a.py"]]), ("entries[0]", "expected an object")),
        (_baseline_with([{**GOOD_ENTRY, "code": 101}]), ("entries[0]`.code", "expected a string")),
        (_baseline_with([{**GOOD_ENTRY, "count": "3"}]), ("entries[0]`.count", "positive integer")),
        (
            _baseline_with([{**GOOD_ENTRY, "count": 10**400}]),
            ("entries[0]`.count", "positive integer"),
        ),
        (
            _baseline_with([{**GOOD_ENTRY, "count": True}]),
            ("entries[0]`.count", "positive integer"),
        ),
        ('{"version": "1", "entries": []}', ('"version": 1',)),
        ("\xff\xfe{}", ("baseline",)),
    ],
)
def test_malformed_baseline_is_a_clear_exit_2_naming_the_file(
    tmp_path: Path, text: str, words: tuple[str, ...]
) -> None:
    write_tree(tmp_path, {"a.py": CALL})
    (tmp_path / "bl.json").write_bytes(text.encode("utf-8", "surrogatepass"))
    for args in (["--baseline", "bl.json"], ["--baseline", "bl.json", "--prune-baseline"]):
        proc = cm("check", *args, ".", cwd=tmp_path)
        assert_config_error(proc, "bl.json", *words)
    # Recording over it reads it first (to keep other files' entries): the same error.
    assert_config_error(cm("check", "--write-baseline", "bl.json", ".", cwd=tmp_path), "bl.json")


def test_baseline_that_is_a_fifo_is_an_error_not_a_hang(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": CALL})
    os.mkfifo(tmp_path / "fifo.json")
    proc = run_cm("check", "--baseline", "fifo.json", ".", cwd=tmp_path, timeout=30)
    assert_config_error(proc, "fifo.json", "not a regular file")


def _limit_file_size() -> None:
    import resource

    # Writes past 64 bytes fail with EFBIG, as on a full disk (Python ignores SIGXFSZ).
    resource.setrlimit(resource.RLIMIT_FSIZE, (64, 64))


@pytest.mark.parametrize(
    ("args", "target", "what"),
    [
        (["check", "--write-baseline", "bl.json"], "bl.json", "baseline"),
        (["check", "--baseline", "bl.json", "--prune-baseline"], "bl.json", "baseline"),
        (["check", "--output", "out.txt"], "out.txt", "report"),
        (["check", "--format", "sarif", "--output", "out.txt"], "out.txt", "report"),
        (["fix", "--diff", "--report", "out.txt"], "out.txt", "report"),
    ],
)
def test_output_on_a_full_disk_exits_2_and_keeps_the_old_file(
    tmp_path: Path, args: list[str], target: str, what: str
) -> None:
    # A baseline entry that no finding matches: stale, so --prune-baseline rewrites the file.
    previous = _baseline_with([GOOD_ENTRY]) if what == "baseline" else "previous contents\n"
    write_tree(tmp_path, {"a.py": CALL, target: previous})
    proc = run_cm(*args, ".", cwd=tmp_path, preexec_fn=_limit_file_size)
    err = assert_config_error(proc, target, f"cannot write the {what}")
    assert "File too large" in err
    assert (tmp_path / target).read_text() == previous
    assert not list(tmp_path.glob("*.cm-tmp"))


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--output", "report.sarif"],
        ["check", "--write-baseline", "report.sarif"],
        ["fix", "--diff", "--report", "report.sarif"],
        ["check", "--output", "out/report.sarif"],
    ],
)
def test_output_through_a_link_the_tree_holds_to_outside_it_exits_2(
    tmp_path: Path, args: list[str]
) -> None:
    # A pull request commits the name a CI step writes its report to as a link out of the
    # checkout (or a folder on its way): the report would overwrite a file of the runner's.
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    write_tree(tree, {"a.py": CALL})
    write_tree(outside, {"victim": "precious\n"})
    (tree / "report.sarif").symlink_to("../outside/victim")
    (tree / "out").symlink_to("../outside")
    proc = run_cm(*args, ".", cwd=tree)
    assert_config_error(proc, args[-1], "a symbolic link inside the tree being checked leads out")
    assert sorted(p.name for p in outside.iterdir()) == ["victim"]
    assert (outside / "victim").read_text() == "precious\n"


def test_output_through_a_link_inside_the_tree_or_named_outside_it_is_written(
    tmp_path: Path,
) -> None:
    tree = tmp_path / "tree"
    write_tree(tree, {"a.py": CALL, "reports/.keep": ""})
    (tree / "report.txt").symlink_to("reports/latest.txt")
    assert run_cm("check", "--output", "report.txt", ".", cwd=tree).returncode == 1
    assert (tree / "report.txt").is_symlink()
    assert "CM101" in (tree / "reports" / "latest.txt").read_text()
    proc = run_cm("check", "--output", str(tmp_path / "elsewhere.txt"), ".", cwd=tree)
    assert proc.returncode == 1 and "CM101" in (tmp_path / "elsewhere.txt").read_text()


@pytest.mark.parametrize("option", ["--write-baseline", "--output"])
def test_output_under_a_file_instead_of_a_folder_exits_2(tmp_path: Path, option: str) -> None:
    write_tree(tmp_path, {"a.py": CALL, "plain": "a file\n"})
    proc = cm("check", option, "plain/result.json", ".", cwd=tmp_path)
    assert_config_error(proc, "plain/result.json", "cannot write")


@pytest.mark.parametrize("option", ["--write-baseline", "--output"])
def test_output_to_a_fifo_is_written_into_and_stays_a_fifo(tmp_path: Path, option: str) -> None:
    import stat
    import threading

    write_tree(tmp_path, {"a.py": CALL})
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    proc = run_cm("check", "--format", "json", option, "pipe", ".", cwd=tmp_path, timeout=30)
    reader.join(timeout=30)
    assert proc.returncode in (0, 1), proc.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # not replaced by a regular file
    assert b'"CM101"' in received[0]


def test_output_to_a_fifo_nobody_reads_exits_2_at_once(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": CALL})
    os.mkfifo(tmp_path / "pipe")
    proc = run_cm("check", "--output", "pipe", ".", cwd=tmp_path, timeout=30)
    assert_config_error(proc, "pipe", "no process is reading")


# Numbers longer than Python converts ----------------------------------------------------------

# Python reads no decimal integer of more than 4,300 digits from text (quadratic time past it:
# https://docs.python.org/3/library/stdtypes.html#int-max-str-digits); `json` and `tomllib`
# raise a plain ValueError for one, not their decode error.
HUGE = "9" * 5000
NOTEBOOK = (
    '{"cells": [{"cell_type": "code", "execution_count": ' + HUGE + ', "metadata": {},'
    ' "outputs": [], "source": "import anthropic\\n"}], "metadata": {}, "nbformat": 4,'
    ' "nbformat_minor": 5}'
)


@pytest.mark.parametrize(
    ("files", "display"),
    [
        ({"pyproject.toml": f'[project]\nname = "x"\ndependencies = ["anthropic"]\nn = {HUGE}\n'},
         "pyproject.toml"),
        ({"pyproject.toml": f"[tool.ruff]\nline-length = {HUGE}\n"}, "pyproject.toml"),
        ({"nb.ipynb": NOTEBOOK}, "nb.ipynb"),
        ({"Pipfile.lock": '{"n": ' + HUGE + ', "default": {"anthropic": {"version": "==0.3"}}}'},
         "Pipfile.lock"),
        ({"uv.lock": f'version = 1\n[[package]]\nname = "anthropic"\nn = {HUGE}\n'}, "uv.lock"),
        ({"config.json": '{"model": "claude-2.1", "n": ' + HUGE + "}"}, "config.json"),
        ({"config.toml": f'model = "claude-2.1"\nn = {HUGE}\n'}, "config.toml"),
    ],
    ids=["pyproject", "ruff-line-length", "notebook", "pipfile-lock", "uv-lock", "json", "toml"],
)  # fmt: skip
def test_a_number_longer_than_python_reads_is_a_cm001_naming_the_file(
    tmp_path: Path, files: dict[str, str], display: str
) -> None:
    write_tree(tmp_path, {**files, "app.py": CALL})
    proc = run_cm("check", "--no-cache", ".", cwd=tmp_path)
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 1, (out, err)
    assert "Traceback" not in err and "internal error" not in out, (out, err)
    errors = [line for line in out.splitlines() if ": CM001 " in line]
    assert len(errors) == 1 and errors[0].startswith(display + ":"), out
    assert "more than 4300 digits" in errors[0], errors[0]
    assert "app.py:3:" in out  # the rest of the tree is checked


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("claude-migrate.toml", f"[temperature]\nmax = {HUGE}\n"),
        ("pyproject.toml", f"[tool.claude-migrate.temperature]\nmax = {HUGE}\n"),
    ],
    ids=["policy", "pyproject-policy"],
)
def test_a_policy_number_longer_than_python_reads_exits_2(
    tmp_path: Path, name: str, text: str
) -> None:
    write_tree(tmp_path, {name: text, "app.py": CALL})
    proc = run_cm("check", "--no-cache", ".", cwd=tmp_path)
    assert_config_error(proc, f"{name}:2:", "more than 4300 digits")


def test_a_baseline_number_longer_than_python_reads_exits_2(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CALL, "b.json": '[{"count": ' + HUGE + "}]"})
    proc = run_cm("check", "--no-cache", "--baseline", "b.json", ".", cwd=tmp_path)
    assert_config_error(proc, "b.json:1:", "more than 4300 digits")
