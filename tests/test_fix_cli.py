"""`claude-migrate fix` through the whole command line: faithful bytes, settling, --diff, --jobs.

The tree is built from bytes (so CRLF, latin-1 and BOMs are exact whatever git does to checkouts)
and compared byte for byte with the expected tree, the way bump-pydantic's folder tests do.
"""

from __future__ import annotations

import codecs
import json
import stat
import subprocess
from pathlib import Path

import pytest
from fixbulk import command, env, run_cli
from helpers import Cli, snapshot, write_tree

import claude_migrate.engine.runner as engine

CALL = (
    'client.messages.create(model="m", temperature=0.9, max_tokens=4096, messages=[], stream=True)'
)
FIXED = (
    'client.messages.create(model="m", temperature=0.0, max_tokens=1024, messages=[], stream=True)'
)
HEAD = "import anthropic\nclient = anthropic.Anthropic()\n"


def _pair(text: str, encoding: str = "utf-8", bom: bool = False) -> tuple[bytes, bytes]:
    prefix = codecs.BOM_UTF8 if bom else b""
    return (
        prefix + text.encode(encoding),
        prefix + text.replace(CALL, FIXED).encode(encoding),
    )


CASES: dict[str, tuple[bytes, bytes]] = {
    "crlf.py": _pair((HEAD + "x = 1\n" + CALL + "\n").replace("\n", "\r\n")),
    "latin1.py": _pair(
        "# -*- coding: latin-1 -*-\n"
        + HEAD
        + "# caf\u00e9 cr\u00e8me\n"
        + CALL
        + "  # \u00e9t\u00e9\n",
        encoding="latin-1",
    ),
    "bom.py": _pair(HEAD + 'GREETING = "h\u00e9llo \u2603"\n' + CALL + "\n", bom=True),
    "no_final_newline.py": _pair(HEAD + CALL),
    "mixed_endings.py": _pair(
        "import anthropic\r\nclient = anthropic.Anthropic()\n"
        + CALL
        + "\r\n"
        + "y = 2\r"
        + "if y:\n    "
        + CALL
        + "\r\n"
        + "z = [\r\n    1,\n]\n"
    ),
    "tabs_and_unicode.py": _pair(
        HEAD + "def f():\n\tname = '\U0001f600\u00e9'\n\treturn " + CALL + "\n"
    ),
    "clean.py": (HEAD.encode(), HEAD.encode()),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    write_tree(tmp_path, {name: original for name, (original, _) in CASES.items()})
    (tmp_path / "crlf.py").chmod(0o755)
    (tmp_path / "latin1.py").chmod(0o640)
    return tmp_path


def test_fix_keeps_encoding_bom_line_endings_and_mode_byte_for_byte(tree: Path) -> None:
    completed = run_cli("fix", ".", cwd=tree)
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert snapshot(tree) == {name: fixed for name, (_, fixed) in CASES.items()}
    assert stat.S_IMODE((tree / "crlf.py").stat().st_mode) == 0o755
    assert stat.S_IMODE((tree / "latin1.py").stat().st_mode) == 0o640
    assert "Fixed 14, 0 remaining; 7 files checked." in completed.stdout


def test_second_fix_run_changes_nothing(tree: Path) -> None:
    assert run_cli("fix", ".", cwd=tree).returncode == 0
    before = snapshot(tree)
    inodes = {name: (tree / name).stat().st_ino for name in CASES}
    second = run_cli("fix", ".", cwd=tree)
    assert second.returncode == 0
    assert "Fixed 0, 0 remaining" in second.stdout
    assert snapshot(tree) == before
    assert {name: (tree / name).stat().st_ino for name in CASES} == inodes, "a file was rewritten"


def test_file_without_findings_is_never_rewritten(tree: Path) -> None:
    inode = (tree / "clean.py").stat().st_ino
    assert run_cli("fix", ".", cwd=tree).returncode == 0
    assert (tree / "clean.py").stat().st_ino == inode


def test_diff_writes_nothing_and_exits_1_only_when_something_would_change(tree: Path) -> None:
    before = snapshot(tree)
    preview = run_cli("fix", "--diff", ".", cwd=tree)
    assert preview.returncode == 1
    assert snapshot(tree) == before
    assert "6 files would be changed." in preview.stderr
    assert "--- a/no_final_newline.py" in preview.stdout
    assert "+" + FIXED + "\n\\ No newline at end of file\n" in preview.stdout
    raw = subprocess.run(
        command("fix", "--diff", "crlf.py"), cwd=tree, env=env(), capture_output=True
    )
    assert b"-" + CALL.encode() + b"\r\n+" + FIXED.encode() + b"\r\n" in raw.stdout  # CRLF kept

    assert run_cli("fix", ".", cwd=tree).returncode == 0
    settled = run_cli("fix", "--diff", ".", cwd=tree)
    assert settled.returncode == 0
    assert settled.stdout == ""
    assert "0 files would be changed." in settled.stderr


def test_diff_of_a_file_with_only_unfixable_findings_exits_0(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": HEAD + CALL + "\n"})
    result = cli("fix", "--diff", "--select", "CM101", "--unsafe-fixes", "a.py")
    assert result.exit_code == 1
    write_tree(tmp_path, {"a.py": HEAD + CALL.replace("0.9", "0.9  # noqa") + "\n"})
    result = cli("fix", "--diff", "a.py")
    assert result.exit_code == 0, result.output


def test_fix_exits_1_while_findings_remain(tmp_path: Path, cli: Cli) -> None:
    # CM103's fix (removing the stop sequences) is unsafe: a safe `fix` leaves that finding.
    call = CALL.replace("stream=True", 'stream=True, stop_sequences=["END"]')
    write_tree(tmp_path, {"a.py": HEAD + call + "\n"})
    result = cli("fix", "a.py")
    assert result.exit_code == 1, result.output
    assert "CM103" in result.output
    assert "temperature=0.0" in (tmp_path / "a.py").read_text()


def test_fix_exits_0_when_nothing_remains(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": HEAD + CALL + "\n"})
    result = cli("fix", "--select", "CM101", "a.py")
    assert result.exit_code == 0, result.output  # CM101 fixed, nothing else selected
    write_tree(tmp_path, {"b.py": "# claude-migrate: skip-file\n" + HEAD + CALL + "\n"})
    assert cli("fix", "b.py").exit_code == 0


def test_jobs_defaults_to_the_cpu_count(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(
        tmp_path, {f"m{n:02}.py": HEAD + CALL + "\n" for n in range(engine.PARALLEL_MIN_FILES)}
    )
    seen: list[int] = []
    real_pool = engine._run_pool

    def recording_pool(items, options, workers, on_result):  # type: ignore[no-untyped-def]
        seen.append(workers)
        return real_pool(items, options, workers, on_result)

    monkeypatch.setattr(engine, "_run_pool", recording_pool)
    monkeypatch.setattr(engine.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert cli("fix", ".").exit_code == 0
    assert cli("fix", "--jobs", "2", ".").exit_code == 0
    assert seen == [3, 2]
    assert engine.default_jobs() == 3
    assert all(
        (tmp_path / f"m{n:02}.py").read_text() == HEAD + FIXED + "\n"
        for n in range(engine.PARALLEL_MIN_FILES)
    )


def test_file_edited_while_being_fixed_is_left_alone_and_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    """A file edited between reading and writing is left alone and reported."""
    write_tree(tmp_path, {"a.py": HEAD + CALL + "\n"})
    real_settle = engine.settle

    def settle_then_edit(*args, **kwargs):  # type: ignore[no-untyped-def]
        settled = real_settle(*args, **kwargs)
        (tmp_path / "a.py").write_text(HEAD + "# edited meanwhile\n" + CALL + "\n")
        return settled

    monkeypatch.setattr(engine, "settle", settle_then_edit)
    result = cli("fix", "a.py")
    assert result.exit_code == 1
    assert (
        "a.py: CM001 fix not written: the file changed on disk while it was being fixed"
        in result.stdout
    )
    assert (tmp_path / "a.py").read_text() == HEAD + "# edited meanwhile\n" + CALL + "\n"


def test_write_failure_is_reported_and_keeps_every_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Cli
) -> None:
    write_tree(tmp_path, {"a.py": HEAD + CALL + "\n"})

    def refuse(path: str, original: bytes, data: bytes, *, force_write: bool = False) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(engine, "replace_file", refuse)
    result = cli("fix", "--report", "r.json", "a.py")
    assert result.exit_code == 1
    assert "a.py: CM001 fix not written: cannot write: Permission denied" in result.stdout
    assert "Fixed 0, 2 remaining" in result.stdout
    report = json.loads((tmp_path / "r.json").read_text())
    assert [d["reason"] for d in report["left"]] == ["file-not-written", "file-not-written"]
    assert report["changed"] == []
    assert (tmp_path / "a.py").read_text() == HEAD + CALL + "\n"
