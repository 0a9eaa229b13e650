"""A gate on pull requests from strangers: state the pull request controls never turns it green.

Each case is a real git repository whose base branch is clean by the policy and a pull request
branch that adds a violation together with something that used to hide it: a result cache
committed in the tree, an edited cache entry, a regenerated in-tree baseline, a policy file that
switches the rule off, suppression comments. The tool runs as a real process over a fresh clone
of the pull request, as CI runs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import write_tree

from claude_migrate.engine import cache as cache_module

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}  # fmt: skip
HEAD = "import anthropic\n\nclient = anthropic.Anthropic()\n"
CALL = (
    'client.messages.create(model="claude-sonnet-4-6", max_tokens=100, temperature={t},'
    " messages=[], stream=True){comment}\n"
)
CLEAN = HEAD + CALL.format(t="0.0", comment="")
VIOLATION = HEAD + CALL.format(t="0.9", comment="")
POLICY = "[temperature]\nmax = 0.2\nfix-to = 0.0\n"


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def _console_script() -> str:
    script = Path(sys.executable).with_name("claude-migrate")
    assert script.exists(), script
    return str(script)


def _check(
    cwd: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    variables = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MIGRATE")}
    variables.update(env or {})
    return subprocess.run(
        [_console_script(), "check", *args], cwd=cwd, env=variables,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def _repository(root: Path, base: dict[str, str]) -> Path:
    """Return a repository whose `main` holds `base`, checked out on a new branch `pr`."""
    repo = root / "origin"
    write_tree(repo, base)
    _git(repo, "init", "-q", "-b", "main")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "base")
    _git(repo, "checkout", "-qb", "pr")
    return repo


def _push_pr(repo: Path, files: dict[str, str], message: str = "pull request") -> Path:
    """Commit `files` on `pr` (forcing ignored ones) and return a fresh clone of that branch."""
    write_tree(repo, files)
    _git(repo, "add", "-Af", ".")
    _git(repo, "commit", "-qm", message)
    clone = repo.parent / "clone"
    _git(repo.parent, "clone", "-q", "-b", "pr", str(repo), str(clone))
    return clone


def _trusted_policy(root: Path) -> Path:
    """Return the CI's copy of the policy, from outside the checkout."""
    policy = root / "ci" / "policy.toml"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_text(POLICY)
    return policy


# The result cache ------------------------------------------------------------------------------


def _forge_entries(folder: Path) -> int:
    """Rewrite every result entry under `folder` to say its file has no finding.

    As an attacker who can write the folder would: the entry keeps its place (its key is a hash
    of public inputs) and, when the folder holds a key file, is sealed again with that key.
    Returns how many entries were forged.
    """
    secret = cache_module.read_key(folder) if (folder / cache_module.KEY_NAME).exists() else None
    key_file = folder / cache_module.KEY_NAME
    if secret is None and key_file.exists():  # read it as the attacker would, whatever its mode
        secret = bytes.fromhex(key_file.read_text().strip())
    forged = 0
    for entry in folder.rglob("*.json"):
        raw = entry.read_bytes()
        head, payload = (b"", raw) if raw.startswith(b"{") else raw.split(b"\n", 1)
        stored = json.loads(payload)
        if "result" not in stored:
            continue
        stored["result"]["diagnostics"] = []
        new = json.dumps(stored, separators=(",", ":")).encode()
        if secret is not None:
            entry.write_bytes(cache_module.seal(secret, entry.stem, new))
        else:
            entry.write_bytes(head + (b"\n" if head else b"") + new)
        forged += 1
    return forged


def test_a_cache_committed_in_the_pull_request_answers_for_nothing(tmp_path: Path) -> None:
    repo = _repository(tmp_path, {"app.py": CLEAN, "claude-migrate.toml": POLICY})
    # The attacker runs the tool on the violating file with a cache in the tree, forges what it
    # stored, and commits the folder (under both the old default name and an explicit one).
    write_tree(repo, {"app.py": VIOLATION})
    for name in (".claude-migrate-cache", "cm-cache"):
        made = _check(repo, "--cache-dir", name, "app.py")
        assert made.returncode == 1, made.stderr
        assert _forge_entries(repo / name) == 1
    clone = _push_pr(repo, {})
    home = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}

    # The default cache is outside the tree: the committed folders are never read.
    plain = _check(clone, "app.py", env=home)
    assert plain.returncode == 1, plain.stdout + plain.stderr
    assert "app.py:4:" in plain.stdout and "CM101" in plain.stdout
    # Named explicitly, the committed folder's key file (mode 0644 after a checkout) is not
    # trusted: nothing is read from it, and the run says why.
    for name in (".claude-migrate-cache", "cm-cache"):
        named = _check(clone, "--cache-dir", name, "app.py", env=home)
        assert named.returncode == 1, named.stdout + named.stderr
        assert "CM101" in named.stdout
        assert "key file cannot be trusted" in named.stderr
    # A trusted gate does not even open a cache folder inside the tree.
    gate = _check(
        clone, "--trusted-config", str(_trusted_policy(tmp_path)), "--cache-dir", "cm-cache",
        "app.py", env=home,
    )  # fmt: skip
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "is inside the checked tree: a trusted gate does not use it" in gate.stderr


def _private_checkout_of_a_forged_cache(tmp_path: Path) -> Path:
    """Return a clone, made under `umask 077`, of a pull request that commits a result cache
    whose entries are forged to say a violating `app.py` has no finding."""
    repo = _repository(tmp_path, {"app.py": CLEAN, "claude-migrate.toml": POLICY})
    write_tree(repo, {"app.py": VIOLATION})
    made = _check(repo, "--cache-dir", "cm-cache", "app.py")
    assert made.returncode == 1, made.stderr
    assert _forge_entries(repo / "cm-cache") == 1
    write_tree(repo, {})
    _git(repo, "add", "-Af", ".")
    _git(repo, "commit", "-qm", "pull request")
    clone = tmp_path / "clone"
    subprocess.run(
        ["sh", "-c", 'umask 077 && git clone -q -b pr "$0" "$1"', str(repo), str(clone)],
        env={**os.environ, **GIT_ENV}, check=True,
    )  # fmt: skip
    return clone


def test_a_committed_cache_is_not_trusted_after_a_checkout_under_a_private_umask(
    tmp_path: Path,
) -> None:
    # Under `umask 077` git checks the committed key file out with mode 0600, owned by the user
    # running the gate: its mode and owner are those of a key the tool made. Git tracks it, so
    # the tool did not make it: the folder is never trusted.
    clone = _private_checkout_of_a_forged_cache(tmp_path)
    key = clone / "cm-cache" / cache_module.KEY_NAME
    assert key.stat().st_mode & 0o777 == 0o600
    home = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    named = _check(clone, "--cache-dir", "cm-cache", "app.py", env=home)
    assert named.returncode == 1, named.stdout + named.stderr
    assert "app.py:4:" in named.stdout and "CM101" in named.stdout
    assert "key file cannot be trusted" in named.stderr


def test_an_edited_entry_in_the_users_cache_is_a_miss(tmp_path: Path) -> None:
    project = tmp_path / "project"
    write_tree(project, {"app.py": VIOLATION, "claude-migrate.toml": POLICY})
    folder = tmp_path / "cache"
    first = _check(project, "--cache-dir", str(folder), "app.py")
    assert first.returncode == 1, first.stderr
    # Edited in place, the entry's seal no longer matches its contents.
    for entry in folder.rglob("*.json"):
        raw = entry.read_bytes()
        head, payload = (b"", raw) if raw.startswith(b"{") else raw.split(b"\n", 1)
        stored = json.loads(payload)
        if "result" in stored:
            stored["result"]["diagnostics"] = []
            entry.write_bytes(head + (b"\n" if head else b"") + json.dumps(stored).encode())
    again = _check(project, "--cache-dir", str(folder), "app.py")
    assert again.returncode == 1, again.stdout + again.stderr
    assert "CM101" in again.stdout


def test_a_shard_folder_replaced_by_a_link_is_never_written_through(tmp_path: Path) -> None:
    import shutil

    project = tmp_path / "project"
    write_tree(project, {"app.py": VIOLATION, "claude-migrate.toml": POLICY})
    folder = tmp_path / "cache"
    assert _check(project, "--cache-dir", str(folder), "app.py").returncode == 1
    outside = tmp_path / "outside"
    outside.mkdir()
    for shard in [p for p in folder.glob("*/*") if p.is_dir()]:
        shutil.rmtree(shard)
        shard.symlink_to(outside, target_is_directory=True)
    again = _check(project, "--cache-dir", str(folder), "app.py")
    assert again.returncode == 1, again.stderr
    assert list(outside.iterdir()) == []


# Policy and baseline ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hiding",
    [
        {"claude-migrate.toml": 'ignore = ["CM101"]\n'},
        {"claude-migrate.toml": "[temperature]\nmax = 1.0\n"},
        {"pkg/pyproject.toml": '[tool.claude-migrate]\nselect = ["CM2"]\n'},
        {"claude-migrate.toml": 'exclude = ["pkg/**"]\n' + POLICY},
    ],
    ids=["ignore", "raised-maximum", "nested-pyproject", "exclude"],
)
def test_the_trusted_gate_ignores_every_policy_file_in_the_tree(
    tmp_path: Path, hiding: dict[str, str]
) -> None:
    repo = _repository(tmp_path, {"pkg/app.py": CLEAN, "claude-migrate.toml": POLICY})
    clone = _push_pr(repo, {"pkg/app.py": VIOLATION, **hiding})
    untrusted = _check(clone, "--no-cache", ".")
    assert untrusted.returncode == 0, untrusted.stdout  # the pull request's policy turned it off
    gate = _check(clone, "--no-cache", "--trusted-config", str(_trusted_policy(tmp_path)), ".")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "pkg/app.py:4:" in gate.stdout and "CM101" in gate.stdout
    assert "Trusted gate: policy " in gate.stdout
    assert "the tree's own policy files, baselines and caches were not read" in gate.stdout
    # With `--no-cache` no cache folder is in question, so none is said to be inside the tree.
    assert "cache folder" not in gate.stderr, gate.stderr


def test_the_trusted_gate_reads_its_baseline_only_from_outside_the_tree(tmp_path: Path) -> None:
    repo = _repository(tmp_path, {"old.py": VIOLATION, "claude-migrate.toml": POLICY})
    _git(repo, "checkout", "-q", "main")
    recorded = _check(repo, "--no-cache", "--write-baseline", "baseline.json", ".")
    assert recorded.returncode == 0, recorded.stderr
    _git(repo, "add", "baseline.json")
    _git(repo, "commit", "-qm", "baseline")
    _git(repo, "checkout", "-qB", "pr")
    # The pull request adds a violation and regenerates the in-tree baseline to accept it.
    write_tree(repo, {"new.py": VIOLATION})
    again = _check(repo, "--no-cache", "--write-baseline", "baseline.json", ".")
    assert again.returncode == 0, again.stderr
    clone = _push_pr(repo, {})
    policy = _trusted_policy(tmp_path)
    assert _check(clone, "--no-cache", "--baseline", "baseline.json", ".").returncode == 0

    # The base branch's copy, named by the CI from outside the checkout.
    base = tmp_path / "ci" / "baseline.json"
    base.write_text(_git(clone, "show", "origin/main:baseline.json"))
    gate = _check(clone, "--no-cache", "--trusted-config", str(policy), "--baseline", str(base))
    assert gate.returncode == 1, gate.stdout + gate.stderr
    lines = [line for line in gate.stdout.splitlines() if ": CM101 " in line]
    assert [line.split(":")[0] for line in lines] == ["new.py"]
    assert f"baseline {base}" in gate.stdout

    # The tree's own baseline (or policy) is refused, never silently used.
    for flag, inside in (
        ("--baseline", "baseline.json"),
        ("--trusted-config", "claude-migrate.toml"),
    ):
        args = ["--trusted-config", str(policy), "--baseline", inside]
        if flag == "--trusted-config":
            args = ["--trusted-config", inside]
        refused = _check(clone, "--no-cache", *args, ".")
        assert refused.returncode == 2, refused.stdout + refused.stderr
        assert f"{flag} {inside}: the file is inside the tree being checked" in refused.stderr


# Suppression comments --------------------------------------------------------------------------


def test_every_suppression_comment_the_gate_honours_is_listed(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    repo = _repository(tmp_path, {"app.py": CLEAN, "other.py": CLEAN})
    noqa = HEAD + CALL.format(t="0.9", comment="  # noqa: CM101")
    ignore = HEAD + CALL.format(t="0.7", comment="  # claude-migrate: ignore[CM101]")
    skip = "# claude-migrate: skip-file\n" + VIOLATION
    clone = _push_pr(repo, {"app.py": noqa, "other.py": ignore, "skipped.py": skip})
    gate = ["--no-cache", "--trusted-config", str(_trusted_policy(tmp_path))]
    expected = [
        ("app.py", 4, "# noqa: CM101"),
        ("other.py", 4, "# claude-migrate: ignore[CM101]"),
        ("skipped.py", 5, "# claude-migrate: skip-file"),
    ]

    text = _check(clone, *gate, ".")
    assert text.returncode == 0, text.stdout + text.stderr  # honoured: they do not fail the run
    assert "Suppressed by comments in the checked files (3)" in text.stdout
    for path, line, comment in expected:
        assert any(
            row.strip().startswith(f"{path}:{line}:") and "CM101" in row and f"[{comment}]" in row
            for row in text.stdout.splitlines()
        ), (path, text.stdout)
    assert "3 suppressions by comments in the files (listed above)" in text.stdout

    data: dict[str, Any] = json.loads(_check(clone, *gate, "--format", "json", ".").stdout)
    assert data["diagnostics"] == []
    listed = [(d["path"], d["line"], d["suppressed_by"]) for d in data["trusted"]["suppressed"]]
    assert listed == expected
    assert data["trusted"]["baseline"] is None and data["trusted"]["cache"] is None

    sarif = json.loads(_check(clone, *gate, "--format", "sarif", ".").stdout)
    schema = json.loads(
        (Path(__file__).parents[1] / "schemas" / "sarif-schema-2.1.0.json").read_text()
    )
    jsonschema.validate(sarif, schema)
    results = sarif["runs"][0]["results"]
    assert len(results) == 3
    assert all(r["suppressions"][0]["kind"] == "inSource" for r in results)
    assert sarif["runs"][0]["invocations"][0]["properties"]["trustedGate"]["suppressed"] == 3

    github = _check(clone, *gate, "--format", "github", ".").stdout.splitlines()
    notices = [line for line in github if line.startswith("::notice ")]
    assert len(notices) == 3 and all("suppressed by" in line for line in notices)

    # Without the gate, the same comments silence the findings and nothing says so.
    plain = _check(clone, "--no-cache", "--config", str(_trusted_policy(tmp_path)), ".")
    assert plain.returncode == 0 and "Suppressed" not in plain.stdout


def test_the_trusted_gate_is_the_whole_policy(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CLEAN})
    policy = _trusted_policy(tmp_path / "elsewhere")
    for extra in (
        ["--config", str(policy)],
        ["--base-config", "strict"],
        ["--write-baseline", "b"],
    ):
        refused = _check(tmp_path, "--trusted-config", str(policy), *extra, "app.py")
        assert refused.returncode == 2, refused.stderr
        assert "--trusted-config is the whole policy" in refused.stderr


def test_a_committed_cache_is_not_trusted_where_git_cannot_say_it_is_tracked(
    tmp_path: Path,
) -> None:
    # The same private-umask checkout, checked where no git is installed (a slim container
    # image): the index still says the key file came with the checkout.
    clone = _private_checkout_of_a_forged_cache(tmp_path)
    no_git = tmp_path / "bin-without-git"
    no_git.mkdir()
    home = {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path / "home")}
    named = _check(clone, "--cache-dir", "cm-cache", "app.py", env={**home, "PATH": str(no_git)})
    assert named.returncode == 1, named.stdout + named.stderr
    assert "app.py:4:" in named.stdout and "CM101" in named.stdout
    assert "key file cannot be trusted" in named.stderr


def test_a_compiled_module_committed_without_its_source_is_not_a_green_gate(
    tmp_path: Path,
) -> None:
    import py_compile

    repo = _repository(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": CLEAN})
    source = tmp_path / "chat_source.py"
    source.write_text(VIOLATION)
    compiled = repo / "pkg" / "chat.pyc"
    py_compile.compile(str(source), cfile=str(compiled), doraise=True)  # compiled, never run
    clone = _push_pr(repo, {"pkg/app.py": CLEAN + "from pkg import chat\n"})
    assert (clone / "pkg" / "chat.pyc").is_file()
    gate = _check(clone, "--no-cache", "--trusted-config", str(_trusted_policy(tmp_path)), ".")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "pkg/chat.pyc:1:1: CM003 bytecode with no source beside it" in gate.stdout


def test_a_module_python_imports_on_windows_is_checked(tmp_path: Path) -> None:
    # `pkg/chat.pyw` is source Python imports as `pkg.chat` on Windows (its SOURCE_SUFFIXES);
    # a `.pyw` beside a `chat.py` is never imported, and is checked as a script of its own.
    repo = _repository(tmp_path, {"pkg/__init__.py": "", "pkg/app.py": CLEAN})
    clone = _push_pr(
        repo,
        {
            "pkg/chat.pyw": VIOLATION, "pkg/app.py": CLEAN + "from pkg import chat\n",
            "pkg/other.py": CLEAN, "pkg/other.pyw": VIOLATION,
        },
    )  # fmt: skip
    gate = _check(clone, "--no-cache", "--trusted-config", str(_trusted_policy(tmp_path)), ".")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    assert "pkg/chat.pyw:4:" in gate.stdout and "pkg/other.pyw:4:" in gate.stdout
