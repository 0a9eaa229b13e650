"""Hostile trees against every way the tool starts: no module of the checked tree ever runs.

A checked tree holds modules named like the ones Python imports on its way to our code
(`contextlib`, `warnings`, `re`, `json`, `sitecustomize`, `usercustomize` ...), each writing a
mark (and, for `contextlib`, the job's `GITHUB_TOKEN`) when imported. Each entry point is
started as a real process: from the tree as its working folder, with `PYTHONPATH` naming the
tree (absolute, relative, or a named path outside the working folder), and the marks folder
must stay empty.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from helpers import SRC, write_tree

from claude_migrate import isolation

# Modules the interpreter, `runpy`, the console script's launcher and our own start-up import.
SHADOWS = (
    "contextlib", "warnings", "functools", "collections", "types", "enum", "keyword",
    "operator", "reprlib", "re", "json", "typing", "pathlib", "fnmatch", "tempfile",
    "importlib", "sitecustomize", "usercustomize", "click", "rich", "claude_migrate",
)  # fmt: skip
APP = (
    "import anthropic\n\nclient = anthropic.Anthropic()\n"
    'client.messages.create(model="claude-sonnet-4-6", max_tokens=100, temperature=0.9,'
    " messages=[], stream=True)\n"
)
TOKEN = "ghs_secret_token_of_the_job"


def _plant(tree: Path, marks: Path) -> None:
    """Write the checked tree: one Claude call and a shadowing module for each name."""
    marks.mkdir(exist_ok=True)
    files = {"app.py": APP}
    for name in SHADOWS:
        body = (
            f"open({str(marks / name)!r}, 'w').write("
            "__import__('os').environ.get('GITHUB_TOKEN', ''))\n"
        )
        # Packages for the names that are packages; modules for the rest.
        if name in ("collections", "importlib", "json", "click", "rich", "claude_migrate"):
            files[f"{name}/__init__.py"] = body
        else:
            files[f"{name}.py"] = body
    write_tree(tree, files)


def _console_script() -> str:
    script = Path(sys.executable).with_name("claude-migrate")
    assert script.exists(), script
    return str(script)


def _environment(pythonpath: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "CLAUDE_MIGRATE"))}
    env["GITHUB_TOKEN"] = TOKEN
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    return env


def _marks(marks: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(marks.iterdir())}


ENTRIES = {
    "python-m": lambda: [sys.executable, "-m", "claude_migrate"],
    "console-script": lambda: [_console_script()],
    "python-m-with-options": lambda: [sys.executable, "-X", "utf8", "-Bm", "claude_migrate"],
}


@pytest.mark.parametrize("entry", list(ENTRIES))
@pytest.mark.parametrize("pythonpath", ["none", "tree", "relative"])
def test_no_module_of_the_tree_runs_from_the_working_folder_or_pythonpath(
    tmp_path: Path, entry: str, pythonpath: str
) -> None:
    tree, marks = tmp_path / "tree", tmp_path / "marks"
    _plant(tree, marks)
    variable = {"none": None, "tree": str(tree), "relative": "."}[pythonpath]
    completed = subprocess.run(
        [*ENTRIES[entry](), "check", "--no-cache", "app.py"],
        cwd=tree, env=_environment(variable), capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert _marks(marks) == {}, completed.stderr
    assert completed.returncode == 1, completed.stderr
    assert "app.py:4:" in completed.stdout and "CM101" in completed.stdout


def test_a_named_tree_outside_the_working_folder_on_pythonpath_is_not_imported(
    tmp_path: Path,
) -> None:
    tree, marks, elsewhere = tmp_path / "tree", tmp_path / "marks", tmp_path / "elsewhere"
    _plant(tree, marks)
    elsewhere.mkdir()
    for command in ([_console_script()], [sys.executable, "-m", "claude_migrate"]):
        completed = subprocess.run(
            [*command, "check", "--no-cache", str(tree)],
            cwd=elsewhere, env=_environment(str(tree)), capture_output=True, text=True,
            timeout=120,
        )  # fmt: skip
        assert _marks(marks) == {}, completed.stderr
        assert completed.returncode == 1, completed.stderr


def test_a_pythonpath_folder_outside_the_tree_still_applies(tmp_path: Path) -> None:
    """A team's own folder on PYTHONPATH (not the tree's) keeps working, start-up included."""
    tree, marks, team = tmp_path / "tree", tmp_path / "marks", tmp_path / "team"
    _plant(tree, marks)
    write_tree(team, {"sitecustomize.py": f"open({str(tmp_path / 'team-ran')!r}, 'w').close()\n"})
    variable = os.pathsep.join([str(team), str(tree)])
    for command in ([_console_script()], [sys.executable, "-m", "claude_migrate"]):
        (tmp_path / "team-ran").unlink(missing_ok=True)
        completed = subprocess.run(
            [*command, "check", "--no-cache", "app.py"],
            cwd=tree, env=_environment(variable), capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert _marks(marks) == {}, completed.stderr
        assert completed.returncode == 1, completed.stderr
        assert (tmp_path / "team-ran").exists()


def test_other_programs_of_the_environment_are_left_alone(tmp_path: Path) -> None:
    """The start-up line acts for claude-migrate's commands only."""
    tree, marks = tmp_path / "tree", tmp_path / "marks"
    _plant(tree, marks)
    completed = subprocess.run(
        [sys.executable, "-c", "import keyword"],
        cwd=tree, env=_environment(str(tree)), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "sitecustomize" in _marks(marks) and "keyword" in _marks(marks)


def test_the_campaign_child_runs_isolated_from_the_repository(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The all-repos fixer runs `fix` in the clone: its modules never run, its token never leaks."""
    from claude_migrate import all_repos

    tree, marks = tmp_path / "tree", tmp_path / "marks"
    _plant(tree, marks)
    startup = tmp_path / "startup.py"
    startup.write_text(f"open({str(marks / 'PYTHONSTARTUP')!r}, 'w').close()\n")
    monkeypatch.chdir(tree)
    for name in [n for n in os.environ if n.startswith(("PYTHON", "CLAUDE_MIGRATE"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.setenv("PYTHONPATH", str(tree))
    monkeypatch.setenv("PYTHONSTARTUP", str(startup))
    done = all_repos.run_fix(None, False, False, tmp_path / "report.json")
    assert _marks(marks) == {}, done.stderr
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert [change["path"] for change in report["changed"]] == ["app.py"]
    assert "temperature=0.0" in (tree / "app.py").read_text()


def _frame(message: dict[str, Any]) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_messages(stream: Any, into: list[dict[str, Any]], event: threading.Event) -> None:
    while True:
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            byte = stream.read(1)
            if not byte:
                event.set()
                return
            header += byte
        length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
        into.append(json.loads(stream.read(length)))
        event.set()


@pytest.mark.parametrize("entry", ["console-script", "python-m"])
def test_the_language_server_never_imports_the_workspace(tmp_path: Path, entry: str) -> None:
    pytest.importorskip("pygls")
    tree, marks = tmp_path / "tree", tmp_path / "marks"
    _plant(tree, marks)
    (tree / ".git").mkdir()
    env = _environment(str(tree))
    env["CLAUDE_MIGRATE_CACHE_DIR"] = str(tmp_path / "cache")
    process = subprocess.Popen(
        [*ENTRIES[entry](), "server"], cwd=tree, env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    messages: list[dict[str, Any]] = []
    arrived = threading.Event()
    reader = threading.Thread(
        target=_read_messages, args=(process.stdout, messages, arrived), daemon=True
    )
    reader.start()
    uri = (tree / "app.py").as_uri()

    def send(message: dict[str, Any]) -> None:
        assert process.stdin is not None
        process.stdin.write(_frame({"jsonrpc": "2.0", **message}))
        process.stdin.flush()

    def wait_for(test: Any) -> dict[str, Any]:
        for _ in range(600):
            found = next((m for m in messages if test(m)), None)
            if found is not None:
                return found
            arrived.wait(0.1)
            arrived.clear()
            assert process.poll() is None, process.stderr.read() if process.stderr else ""
        raise AssertionError(f"no such message; got {messages}")

    try:
        send({"id": 1, "method": "initialize", "params": {
            "processId": os.getpid(), "rootUri": tree.as_uri(), "capabilities": {}}})  # fmt: skip
        wait_for(lambda m: m.get("id") == 1)
        send({"method": "initialized", "params": {}})
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": APP}}})  # fmt: skip
        published = wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"]["uri"] == uri
                and m["params"]["diagnostics"]
            )
        )
        assert any(d.get("code") == "CM101" for d in published["params"]["diagnostics"])
        send({"id": 2, "method": "shutdown"})
        wait_for(lambda m: m.get("id") == 2)
        send({"method": "exit"})
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert _marks(marks) == {}


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["-m", "claude_migrate", "check", "."], ([], "claude_migrate", None, ["check", "."])),
        (["-Bm", "claude_migrate.all_repos"], (["-B"], "claude_migrate.all_repos", None, [])),
        (["-mclaude_migrate", "x"], ([], "claude_migrate", None, ["x"])),
        (
            ["-X", "utf8", "-W", "error", "-u", "-m", "claude_migrate", "-q"],
            (["-X", "utf8", "-W", "error", "-u"], "claude_migrate", None, ["-q"]),
        ),
        (["-Wignore", "bin/cm", "-q"], (["-Wignore"], None, "bin/cm", ["-q"])),
        (["-c", "import claude_migrate", "-m"], ([], None, None, [])),
        (["--version"], ([], None, None, [])),
        (["-"], ([], None, None, [])),
    ],
)  # fmt: skip
def test_the_interpreter_command_line_is_read_as_python_reads_it(
    argv: list[str], expected: tuple[list[str], str | None, str | None, list[str]]
) -> None:
    assert isolation._split_command(argv) == expected


def test_the_shipped_start_up_line_is_this_modules_text() -> None:
    shipped = SRC / isolation.PTH_NAME
    assert shipped.read_text(encoding="utf-8") == isolation.pth_text(), (
        f"regenerate {shipped} with: python -c 'from claude_migrate.isolation import pth_text; "
        f'open("{shipped}", "w").write(pth_text())\''
    )
    assert shipped.read_text(encoding="utf-8").count("\n") == 1  # one line: `site` runs lines
    pyproject = (SRC.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"src/{isolation.PTH_NAME}" = "{isolation.PTH_NAME}"' in pyproject


def test_checking_the_installed_source_with_it_on_pythonpath_still_runs() -> None:
    """An editable install checked by itself: its folder is the installation's, not the tree's."""
    env = _environment(str(SRC))
    for command in ([_console_script()], [sys.executable, "-m", "claude_migrate"]):
        completed = subprocess.run(
            [*command, "check", "--no-cache", "-q", "src/claude_migrate/isolation.py"],
            cwd=SRC.parent, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert completed.returncode == 0, completed.stderr
