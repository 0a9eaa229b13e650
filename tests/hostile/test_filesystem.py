"""A hostile tree on disk: symlinks out of the tree and in loops, FIFOs and devices named `*.py`,
hard links, read-only and foreign-owned files, encodings that do not round-trip, names at the
file-system limit, a second writer racing `fix`, a cache folder that is someone else's, and the
leftovers of a killed run. Each test builds the hostile shape for real (os.symlink, os.mkfifo,
os.link, a real writer process, a real SIGKILL) and checks what the tool promises.

Anything that could hang runs in a subprocess with a timeout, so a regression fails instead of
stalling the suite.
"""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any, cast

import pytest
from fixbulk import command, env
from helpers import Cli, write_tree

from claude_migrate.core import atomic
from claude_migrate.engine import cache as cache_module
from claude_migrate.engine.cache import MARKER, ResultCache, build_id, read_key, seal, unseal

HEAD = "import anthropic\nclient = anthropic.Anthropic()\n"
CALL = 'client.messages.create(model="m", temperature=0.9, max_tokens=4096, stream=True)'
FIXED = 'client.messages.create(model="m", temperature=0.0, max_tokens=1024, stream=True)'
SOURCE = HEAD + CALL + "\n"
FIXED_SOURCE = HEAD + FIXED + "\n"
HANG_LIMIT = 60  # seconds: far above a normal run, far below "hangs"
OLD = time.time() - 30 * 24 * 3600


def _run(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the real command; a hang fails the test instead of stalling it."""
    try:
        return subprocess.run(
            command(*args), cwd=cwd, env=env(), input=stdin, capture_output=True,
            timeout=HANG_LIMIT,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"claude-migrate {' '.join(args)} did not finish in {HANG_LIMIT} s")


def _report(result: subprocess.CompletedProcess[bytes]) -> dict:
    assert result.returncode in (0, 1), result.stderr.decode()
    return json.loads(result.stdout)


def _messages(report: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for error in report["errors"]:
        out.setdefault(error["path"], []).append(error["message"])
    return out


# Writes stay inside the paths given --------------------------------------------------------


def test_fix_never_writes_through_a_folder_symlink_that_leaves_the_tree(tmp_path: Path) -> None:
    write_tree(tmp_path, {"outside/x.py": SOURCE, "tree/a.py": SOURCE})
    (tmp_path / "tree" / "vendor").symlink_to("../outside")
    result = _run("fix", "--format", "json", ".", cwd=tmp_path / "tree")
    assert (tmp_path / "outside" / "x.py").read_text() == SOURCE
    assert (tmp_path / "tree" / "a.py").read_text() == FIXED_SOURCE
    stderr = result.stderr.decode()
    assert "vendor: skipped: a symlink to a folder outside the paths given" in stderr
    assert {d["path"] for d in _report(result)["diagnostics"]} == set()


def test_a_file_symlink_leaving_the_tree_is_skipped_and_named_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"outside/x.py": SOURCE, "tree/keep.txt": "x"})
    (tmp_path / "tree" / "link.py").symlink_to("../outside/x.py")
    walked = _run("fix", ".", cwd=tmp_path / "tree")
    assert "link.py: skipped: a symlink to a file outside the paths given" in walked.stderr.decode()
    named = _run("fix", "link.py", cwd=tmp_path / "tree")
    assert named.returncode == 2
    assert "link.py: a symlink to" in named.stderr.decode()
    assert "outside the paths given" in named.stderr.decode()
    assert (tmp_path / "outside" / "x.py").read_text() == SOURCE


def test_fix_writes_through_a_symlink_inside_the_tree_and_keeps_the_link(
    tmp_path: Path, cli: Cli
) -> None:
    write_tree(tmp_path, {"pkg/real.py": SOURCE})
    (tmp_path / "alias.py").symlink_to("pkg/real.py")
    (tmp_path / "zlink.py").symlink_to("pkg/real.py")
    result = cli("fix", "--format", "json", ".")
    report = json.loads(result.stdout)
    assert report["errors"] == []
    assert (tmp_path / "alias.py").is_symlink() and (tmp_path / "zlink.py").is_symlink()
    assert (tmp_path / "pkg" / "real.py").read_text() == FIXED_SOURCE
    # Checked once, under the name the walk met it by first.
    assert cli("check", "--format", "json", ".").exit_code == 0
    write_tree(tmp_path, {"pkg/real.py": SOURCE})
    paths = {d["path"] for d in cli.json("check", ".")["diagnostics"]}
    assert paths == {"pkg/real.py"}


def test_fix_refuses_a_hard_linked_file_instead_of_splitting_the_links(tmp_path: Path) -> None:
    write_tree(tmp_path, {"tree/a.py": SOURCE})
    os.link(tmp_path / "tree" / "a.py", tmp_path / "other.py")
    report = _report(_run("fix", "--format", "json", ".", cwd=tmp_path / "tree"))
    (message,) = _messages(report)["a.py"]
    assert message == ("fix not written: it has 2 hard links, and replacing it would split them")
    assert os.stat(tmp_path / "tree" / "a.py").st_ino == os.stat(tmp_path / "other.py").st_ino
    assert (tmp_path / "other.py").read_text() == SOURCE


def test_a_hard_link_inside_the_tree_is_checked_once(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    os.link(tmp_path / "a.py", tmp_path / "b.py")
    paths = [d["path"] for d in cli.json("check", ".")["diagnostics"]]
    assert paths == ["a.py", "a.py"]  # CM101 and CM102, once


def test_fix_keeps_mode_and_refuses_read_only_files_unless_forced(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"ro.py": SOURCE, "rw.py": SOURCE})
    os.chmod(tmp_path / "ro.py", 0o444)
    os.chmod(tmp_path / "rw.py", 0o640)
    report = cli.json("fix", ".")
    assert _messages(report) == {
        "ro.py": ["fix not written: it is read-only (mode 0444); --force-write rewrites it"]
    }
    assert (tmp_path / "ro.py").read_text() == SOURCE
    assert stat.S_IMODE(os.stat(tmp_path / "rw.py").st_mode) == 0o640
    assert (tmp_path / "rw.py").read_text() == FIXED_SOURCE
    forced = cli.json("fix", "--force-write", ".")
    assert forced["errors"] == []
    assert (tmp_path / "ro.py").read_text() == FIXED_SOURCE
    assert stat.S_IMODE(os.stat(tmp_path / "ro.py").st_mode) == 0o444


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to chown")
def test_fix_keeps_another_users_ownership(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"theirs.py": SOURCE})
    os.chown(tmp_path / "theirs.py", 65534, 65534)
    assert cli.json("fix", ".")["errors"] == []
    info = os.stat(tmp_path / "theirs.py")
    assert (info.st_uid, info.st_gid) == (65534, 65534)
    assert (tmp_path / "theirs.py").read_text() == FIXED_SOURCE


def test_fix_refuses_a_file_whose_owner_it_cannot_keep(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # As an ordinary user (uid 4242, not the file's owner) a rename would make the file ours.
    write_tree(tmp_path, {"theirs.py": SOURCE})
    monkeypatch.setattr(os, "geteuid", lambda: 4242)
    report = cli.json("fix", "theirs.py")
    (message,) = _messages(report)["theirs.py"]
    assert message.startswith("fix not written: it belongs to another user (uid ")
    assert (tmp_path / "theirs.py").read_text() == SOURCE


def test_a_folder_swapped_for_a_symlink_after_the_walk_is_not_written(tmp_path: Path) -> None:
    write_tree(tmp_path, {"tree/pkg/a.py": SOURCE, "outside/a.py": SOURCE})
    real = str(tmp_path / "tree" / "pkg" / "a.py")
    data = (tmp_path / "tree" / "pkg" / "a.py").read_bytes()
    os.rename(tmp_path / "tree" / "pkg", tmp_path / "tree" / "pkg-moved")
    (tmp_path / "tree" / "pkg").symlink_to(tmp_path / "outside")
    with pytest.raises(atomic.WriteRefused, match="reached through a symlink"):
        atomic.replace_file(real, data, FIXED_SOURCE.encode())
    assert (tmp_path / "outside" / "a.py").read_text() == SOURCE


# A second writer -----------------------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import os, random, sys, time
    folder, count = sys.argv[1], int(sys.argv[2])
    log = open(os.path.join(folder, "..", "appended.log"), "w")
    n = 0
    while True:  # until terminated; an append is logged once it is made
        name = os.path.join(folder, f"m{random.randrange(count)}.py")
        with open(name, "a") as handle:
            handle.write(f"# saved {n}\\n")
        log.write(f"{name} {n}\\n")
        log.flush()
        n += 1
        time.sleep(0.001)
    """
)


def test_an_edit_saved_while_fix_runs_is_never_lost(tmp_path: Path) -> None:
    count = 120
    tree = tmp_path / "tree"
    write_tree(tree, {f"m{i}.py": SOURCE for i in range(count)})
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tree), str(count)])
    try:
        fixing = _run("fix", "--no-cache", "--format", "json", ".", cwd=tree)
        assert fixing.returncode in (0, 1), fixing.stderr.decode()
        for path, messages in _messages(json.loads(fixing.stdout)).items():
            assert all("changed on disk" in m for m in messages), (path, messages)
    finally:
        writer.terminate()
        writer.wait(timeout=HANG_LIMIT)
    saved = [line.split() for line in (tmp_path / "appended.log").read_text().splitlines()]
    assert saved, "the writer wrote nothing"
    for name, n in saved:
        assert f"# saved {n}\n" in Path(name).read_text(), f"edit {n} to {name} was lost"
    for i in range(count):
        text = (tree / f"m{i}.py").read_text()
        assert text.startswith(HEAD) and (CALL in text or FIXED in text)


def test_an_edit_saved_after_the_fsync_and_before_the_rename_is_kept(
    tmp_path: Path, cli: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real second process saves the file at the worst moment: after the fixed bytes are
    # written and fsynced, before the rename.
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    fsync = os.fsync
    saved: list[int] = []

    def fsync_then_edit(fd: int) -> None:
        fsync(fd)
        if not saved:
            edit = f"open({str(target)!r}, 'a').write('# saved meanwhile\\n')"
            saved.append(subprocess.run([sys.executable, "-c", edit], check=True).returncode)

    monkeypatch.setattr(os, "fsync", fsync_then_edit)
    report = cli.json("fix", "--no-cache", "a.py")
    assert saved == [0]
    assert _messages(report) == {
        "a.py": ["fix not written: the file changed on disk while it was being fixed"]
    }
    assert target.read_text() == SOURCE + "# saved meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


APPEND = "import sys; open(sys.argv[1], 'a').write('# saved meanwhile\\n')"


@pytest.mark.skipif(not atomic._LEASES, reason="file leases are a Linux facility")
def test_a_program_opening_the_file_between_the_last_look_and_the_rename_keeps_its_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A real second process opens the file for writing after the content was checked and before
    # the rename: the lease breaks, the opener waits, and what it saves is put back.
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    before_rename = atomic._Watch.before_rename
    writers: list[subprocess.Popen[bytes]] = []

    def open_meanwhile(watch: atomic._Watch) -> None:
        before_rename(watch)
        if writers:
            return  # the swap that puts the edit back
        writers.append(subprocess.Popen([sys.executable, "-c", APPEND, str(target)]))
        deadline = time.monotonic() + HANG_LIMIT
        import fcntl

        while fcntl.fcntl(watch.fd, fcntl.F_GETLEASE) == fcntl.F_RDLCK:  # until it opens
            assert time.monotonic() < deadline, "the writer never opened the file"
            time.sleep(0.001)

    monkeypatch.setattr(atomic._Watch, "before_rename", open_meanwhile)
    with pytest.raises(atomic.WriteRefused, match="changed on disk .* saved version was kept"):
        atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())
    assert writers[0].wait(timeout=HANG_LIMIT) == 0
    assert len(writers) == 1
    assert target.read_text() == SOURCE + "# saved meanwhile\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


@pytest.mark.skipif(not atomic._LEASES, reason="file leases are a Linux facility")
def test_a_file_another_program_holds_open_for_writing_is_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic, "LEASE_WAIT", 0.05)
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    with open(target, "a"), pytest.raises(atomic.WriteRefused, match="open for writing"):
        atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())
    assert target.read_text() == SOURCE
    atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())  # once closed
    assert target.read_text() == FIXED_SOURCE


def _edit_the_replaced_file(
    monkeypatch: pytest.MonkeyPatch, target: Path, *, then_edit_the_new_one: bool = False
) -> None:
    """Without leases: write into the old file through a handle opened before the rename."""
    monkeypatch.setattr(atomic, "_LEASES", False)
    replace = atomic._Folder.replace
    done: list[bool] = []

    def replace_while_edited(folder: atomic._Folder, source: str, name: str) -> None:
        if done:
            return replace(folder, source, name)
        with open(target, "a") as old:
            replace(folder, source, name)
            old.write("# saved into the old file\n")
        if then_edit_the_new_one:
            with open(target, "a") as new:
                new.write("# saved into the new file\n")
        done.append(True)

    monkeypatch.setattr(atomic._Folder, "replace", replace_while_edited)


def test_without_leases_an_edit_written_just_after_the_rename_is_put_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    _edit_the_replaced_file(monkeypatch, target)
    with pytest.raises(atomic.WriteRefused, match="saved version was kept"):
        atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())
    assert target.read_text() == SOURCE + "# saved into the old file\n"
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]


def test_edits_to_both_the_replaced_and_the_fixed_file_are_both_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    earlier = tmp_path / f"a.py{atomic.SAVED_SUFFIX}"
    earlier.write_text("# kept from an earlier run\n")  # never overwritten
    _edit_the_replaced_file(monkeypatch, target, then_edit_the_new_one=True)
    with pytest.raises(atomic.WriteRefused, match=r"edited on disk twice.*a\.py\.cm-saved-2"):
        atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())
    assert target.read_text() == FIXED_SOURCE + "# saved into the new file\n"
    saved = tmp_path / f"{earlier.name}-2"
    assert saved.read_text() == SOURCE + "# saved into the old file\n"
    assert earlier.read_text() == "# kept from an earlier run\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py", earlier.name, saved.name]


# Encodings -----------------------------------------------------------------------------------


def _coded(encoding: str, comment: bytes) -> bytes:
    cookie = f"# -*- coding: {encoding} -*-\n".encode()
    return cookie + HEAD.encode() + b"# " + comment + b"\n" + CALL.encode() + b"\n"


LOSSY = {
    # cp932 reads 0x87 0x90 and 0x81 0xe0 as the same character and writes back the second.
    "cp932.py": _coded("cp932", b"\x87\x90"),
    # big5 reads 0xa2 0xcc as U+5341, which it writes back as 0xa4 0x51.
    "big5.py": _coded("big5", b"\xa2\xcc"),
    "utf7.py": _coded("utf-7", b"+AKM-1"),  # a pound sign, in a codec with a shift state
}


def test_encodings_that_do_not_round_trip_are_reported_not_rewritten(
    tmp_path: Path, cli: Cli
) -> None:
    write_tree(tmp_path, LOSSY)
    assert cli.json("check", ".")["errors"] == []  # reading them is fine
    report = cli.json("fix", ".")
    messages = _messages(report)
    assert set(messages) == set(LOSSY)
    assert (
        "cp932 does not give back the file's own bytes (line 4 would change)"
        in messages["cp932.py"][0]
    )
    assert "utf-7 keeps a shift state" in messages["utf7.py"][0]
    for name, data in LOSSY.items():
        assert (tmp_path / name).read_bytes() == data, name
    diff = cli("fix", "--diff", ".")
    assert diff.stdout == "" or "cp932" not in diff.stdout


@pytest.mark.parametrize("name", sorted(LOSSY))
def test_fix_from_stdin_prints_lossy_input_back_unchanged(tmp_path: Path, name: str) -> None:
    result = _run("fix", "--stdin-filename", name, "-", cwd=tmp_path, stdin=LOSSY[name])
    assert result.stdout == LOSSY[name]
    assert result.returncode == 1
    assert "not fixed:" in result.stderr.decode()


def test_a_latin1_file_still_round_trips_and_is_fixed(tmp_path: Path, cli: Cli) -> None:
    text = "# -*- coding: latin-1 -*-\n" + HEAD + "# caf\u00e9\n" + CALL + "\n"
    (tmp_path / "l.py").write_bytes(text.encode("latin-1"))
    assert cli.json("fix", ".")["errors"] == []
    assert (tmp_path / "l.py").read_bytes() == text.replace(CALL, FIXED).encode("latin-1")


# Only regular files, each once, no loops ------------------------------------------------------


def test_a_fifo_and_a_link_to_dev_zero_found_by_the_walk_are_skipped(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    for mode in ("check", "fix"):
        result = _run(mode, "--format", "json", ".", cwd=tmp_path)
        stderr = result.stderr.decode()
        assert "fifo.py: skipped: not a regular file (a FIFO)" in stderr
        assert "zero.py: skipped: a symlink to a character device (/dev/zero)" in stderr
        assert _report(result)["errors"] == []
    assert stat.S_ISFIFO(os.lstat(tmp_path / "fifo.py").st_mode)
    assert os.readlink(tmp_path / "zero.py") == "/dev/zero"


@pytest.mark.parametrize("name", ["fifo.py", "zero.py"])
@pytest.mark.parametrize("mode", ["check", "fix"])
def test_a_fifo_or_device_named_on_the_command_line_is_an_error(
    tmp_path: Path, name: str, mode: str
) -> None:
    os.mkfifo(tmp_path / "fifo.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    result = _run(mode, name, cwd=tmp_path)
    assert result.returncode == 2
    what = "a FIFO" if name == "fifo.py" else "a character device"
    assert f"{name}: not a regular file ({what}); only regular files are read" in (
        result.stderr.decode()
    )


def test_a_file_swapped_for_a_fifo_after_the_walk_is_not_read(tmp_path: Path) -> None:
    from claude_migrate.core.source import NotRegularFile, read_regular

    os.mkfifo(tmp_path / "late.py")
    with pytest.raises(NotRegularFile):
        read_regular(tmp_path / "late.py")  # returns at once: the open does not block


def test_symlink_loops_finish_quickly_and_report_each_file_once(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": SOURCE, "sub/b.py": SOURCE, "sub/deeper/c.py": SOURCE})
    (tmp_path / "self1").symlink_to(".")
    (tmp_path / "self2").symlink_to(".")
    (tmp_path / "sub" / "deeper" / "up").symlink_to("../..")
    (tmp_path / "sub" / "loop.py").symlink_to("loop.py")  # ELOOP
    started = time.monotonic()
    result = _run("check", "--format", "json", ".", cwd=tmp_path)
    assert time.monotonic() - started < HANG_LIMIT / 2
    paths = [d["path"] for d in _report(result)["diagnostics"]]
    assert sorted(paths) == sorted(["a.py", "sub/b.py", "sub/deeper/c.py"] * 2)
    assert "sub/loop.py: skipped: a symlink that leads nowhere" in result.stderr.decode()


def test_a_folder_linked_from_one_the_walk_skips_is_walked_at_the_links_name(
    tmp_path: Path, cli: Cli
) -> None:
    # `pkg -> .venv/pkg`: Python imports `pkg` through the link, and the walk never enters the
    # real folder at its own name (an environment's name), so it is walked at the link's name;
    # once, and fixed through the link. A linked folder the walk enters anyway is not walked
    # again, and a link into a real environment (`pyvenv.cfg` beside `bin/`) stays skipped.
    write_tree(
        tmp_path,
        {
            ".venv/pkg/agent.py": SOURCE,
            "src/app.py": SOURCE,
            "env/pyvenv.cfg": "home = /usr/bin\n",
            "env/bin/python": "",
            "env/tool.py": SOURCE,
        },
    )
    (tmp_path / "pkg").symlink_to(".venv/pkg")
    (tmp_path / "also").symlink_to(".venv/pkg")
    (tmp_path / "app").symlink_to("src")
    (tmp_path / "tools").symlink_to("env")
    write_tree(tmp_path, {".git/hooks/pre-commit.py": SOURCE})
    (tmp_path / "hooks").symlink_to(".git/hooks")
    paths = sorted({d["path"] for d in cli.json("check", ".")["diagnostics"]})
    assert paths == ["also/agent.py", "src/app.py"], paths
    cli("fix", ".")
    assert (tmp_path / "pkg").is_symlink() and (tmp_path / "also").is_symlink()
    assert (tmp_path / ".venv" / "pkg" / "agent.py").read_text() == FIXED_SOURCE


def test_the_same_folder_given_twice_or_nested_is_walked_once(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"src/a.py": SOURCE, "src/pkg/b.py": SOURCE})
    paths = [d["path"] for d in cli.json("check", "src", "src/pkg", "src")["diagnostics"]]
    assert sorted(paths) == sorted(["src/a.py", "src/pkg/b.py"] * 2)


# Names at the limit, and what a killed run leaves -------------------------------------------


def test_a_file_with_a_240_byte_name_can_be_fixed(tmp_path: Path, cli: Cli) -> None:
    name = "\u00e9" * 123 + ".py"  # 249 bytes in UTF-8
    assert len(os.fsencode(name)) >= 240
    write_tree(tmp_path, {name: SOURCE})
    report = cli.json("fix", ".")
    assert report["errors"] == []
    assert (tmp_path / name).read_text() == FIXED_SOURCE
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


KILLED_WRITE = textwrap.dedent(
    """
    import os, signal, sys
    from claude_migrate.core import atomic
    path = sys.argv[1]
    data = open(path, "rb").read()

    def killed(*args, **kwargs):
        os.kill(os.getpid(), signal.SIGKILL)

    os.replace = killed  # SIGKILL at the moment of the rename
    atomic.replace_file(path, data, data.replace(b"0.9", b"0.0"))
    """
)


def test_a_later_fix_removes_temporary_files_a_killed_run_left(tmp_path: Path, cli: Cli) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WRITE, str(tmp_path / "a.py")], env=env(), timeout=60
    )
    assert killed.returncode == -signal.SIGKILL
    (left,) = [p for p in tmp_path.iterdir() if p.name.endswith(atomic.TEMP_SUFFIX)]
    assert atomic.is_temp_name(left.name)
    fresh = tmp_path / atomic.temp_name("b.py")  # another run's, being written right now
    fresh.write_text("x")
    theirs = tmp_path / ".notes.cm-tmp"  # not our name shape
    theirs.write_text("mine")
    linked = tmp_path / atomic.temp_name("c.py")  # our shape, but a symlink: not ours
    linked.symlink_to("a.py")
    for path in (left, theirs):
        os.utime(path, (OLD, OLD))
    os.utime(linked, (OLD, OLD), follow_symlinks=False)
    check = cli("check", ".")
    assert left.exists(), "check never deletes anything"
    assert check.exit_code == 1
    fixed = cli("fix", ".")
    assert f"removed {left.name}, left by an interrupted fix" in fixed.stderr
    assert not left.exists()
    assert fresh.exists() and theirs.exists() and linked.is_symlink()
    assert (tmp_path / "a.py").read_text() == FIXED_SOURCE


def test_a_file_git_tracks_is_never_removed_as_a_leftover_temporary(
    tmp_path: Path, cli: Cli
) -> None:
    # A pull request can commit a file of our temporary files' name shape: it is the
    # repository's, however old, and a fix never deletes it.
    write_tree(tmp_path, {"a.py": SOURCE})
    committed = tmp_path / atomic.temp_name("a.py")
    committed.write_text("kept\n")
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    os.utime(committed, (OLD, OLD))
    fixed = cli("fix", ".")
    assert committed.read_text() == "kept\n", fixed.stderr
    assert (tmp_path / "a.py").read_text() == FIXED_SOURCE


# The cache deletes only what it created ------------------------------------------------------


def _age(root: Path) -> None:
    for path in root.rglob("*"):
        os.utime(path, (OLD, OLD), follow_symlinks=False)


def _foreign_home(root: Path) -> dict[str, bytes]:
    files = {
        "Documents/thesis.tex": b"\\documentclass{article}",
        "ab/cd/old.txt": b"two levels down",
        "0.1-" + "0" * 20 + "/aa/" + "aa" + "0" * 38 + ".json": b"{}",
    }
    write_tree(root, files)
    (root / "empty" / "sub").mkdir(parents=True)
    _age(root)
    return files


def test_a_cache_dir_pointing_at_a_foreign_folder_never_deletes_its_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    files = _foreign_home(home)
    write_tree(tmp_path, {"work/a.py": SOURCE})
    for _ in range(2):
        result = _run("check", "--cache-dir", str(home), "a.py", cwd=tmp_path / "work")
        assert result.returncode == 1, result.stderr.decode()
    for name, data in files.items():
        assert (home / name).read_bytes() == data
    assert (home / "empty" / "sub").is_dir()
    # The cache went to a subfolder of its own, marked as the tool's.
    assert (home / "claude-migrate" / MARKER).is_file()
    assert not (home / MARKER).exists()


def test_cache_dir_dot_inside_a_repository_keeps_its_docs(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": SOURCE, "docs/index.md": "# docs"})
    (tmp_path / "docs" / "img").mkdir()
    _age(tmp_path)
    result = subprocess.run(
        command("check", "a.py"), cwd=tmp_path, capture_output=True, timeout=HANG_LIMIT,
        env={**env(), "CLAUDE_MIGRATE_CACHE_DIR": "."},
    )  # fmt: skip
    assert result.returncode == 1, result.stderr.decode()
    assert (tmp_path / "docs" / "index.md").read_text() == "# docs"
    assert (tmp_path / "docs" / "img").is_dir()


def test_a_cache_folder_whose_subfolder_is_taken_too_is_not_used(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write_tree(home, {"x.txt": "x", "claude-migrate/y.txt": "y"})
    cache = ResultCache(home)
    assert not cache.usable
    assert "results are not cached" in (cache.problem or "")
    write_tree(tmp_path, {"work/a.py": SOURCE})
    result = _run("check", "--cache-dir", str(home), "a.py", cwd=tmp_path / "work")
    assert result.returncode == 1
    assert "holds files that are not claude-migrate's" in result.stderr.decode()
    assert sorted(p.relative_to(home).as_posix() for p in home.rglob("*")) == [
        "claude-migrate", "claude-migrate/y.txt", "x.txt",
    ]  # fmt: skip


def test_prune_deletes_only_entries_recognised_by_name_and_shape(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    cache = ResultCache(folder, max_age=100.0)
    key = "ab" + "1" * 38
    cache.store(key, cache_module.FileResult(path="x.py"))
    build = folder / build_id()
    other = folder / ("0.0.9-" + "f" * 20)
    strangers = {
        build / "ab" / "notes.txt": b"mine",
        build / "ab" / ("cd" + "2" * 38 + ".json"): b"{}",  # the wrong shard for its name
        build / "zz" / ("zz" + "3" * 38 + ".json"): b"{}",  # not a shard name
        other / "ef" / "thesis.tex": b"mine",
        folder / "Documents" / "ab" / ("ab" + "4" * 38 + ".json"): b"{}",  # not a build name
    }
    write_tree(tmp_path, {p.relative_to(tmp_path).as_posix(): d for p, d in strangers.items()})
    old_entry = other / "ef" / ("ef" + "5" * 38 + ".json")
    old_entry.write_text("{}")
    _age(folder)
    assert cache.prune() == 2  # this build's entry and the other build's
    assert not (build / "ab" / f"{key}.json").exists() and not old_entry.exists()
    for path, data in strangers.items():
        assert path.read_bytes() == data
    (folder / MARKER).unlink()
    write_tree(folder, {f"{build.name}/ab/{key}.json": "{}"})
    _age(folder)
    assert cache.prune() == 0  # no marker: never cleaned
    assert (build / "ab" / f"{key}.json").exists()


BAD_FIELDS = [
    ("line", "X"),
    ("line", True),
    ("line", -3),
    ("column", 1.5),
    ("message", None),
    ("fix", {"applicability": "always", "description": "d", "edits": []}),
    ("fix", {"applicability": "safe", "description": "d", "edits": [[5, 1, "x"]]}),
    ("fix", {"applicability": "safe", "description": "d", "edits": [["a", 1, "x"]]}),
    ("fix", "nope"),
    ("fingerprint", ["a"]),
    ("unknown", 1),
]


@pytest.mark.parametrize(("field", "value"), BAD_FIELDS, ids=[f"{f}={v!r}" for f, v in BAD_FIELDS])
def test_a_cache_entry_with_a_wrong_field_type_is_a_miss_and_rewritten(
    tmp_path: Path, cli: Cli, field: str, value: object
) -> None:
    write_tree(tmp_path, {"a.py": SOURCE})
    folder = tmp_path / "cache"
    cold = cli.json("check", "--cache-dir", str(folder), ".")
    # The file's result entry (the project phase keeps its own entries beside it).
    secret = read_key(folder)
    assert secret is not None

    def payload(entry: Path) -> dict[str, Any]:
        data = unseal(secret, entry.stem, entry.read_bytes())
        assert data is not None
        return cast(dict[str, Any], json.loads(data))

    (entry,) = [e for e in (folder / build_id()).rglob("*.json") if "result" in payload(e)]
    stored = payload(entry)
    stored["result"]["diagnostics"][0][field] = value
    # Sealed with the folder's own key: the shape check alone must turn it away.
    entry.write_bytes(seal(secret, entry.stem, json.dumps(stored).encode()))
    assert cli.json("check", "--cache-dir", str(folder), ".") == cold
    assert payload(entry)["result"]["diagnostics"][0].get(field) != value
    entry.write_bytes(seal(secret, entry.stem, json.dumps(stored).encode()))
    for args in (
        ("check", "--write-baseline", "b.json"),
        ("fix", "--report", "r.json", "--diff"),
        ("check", "--format", "sarif"),
    ):
        result = cli(*args, "--cache-dir", str(folder), ".")
        assert result.exit_code in (0, 1), result.output


@pytest.mark.parametrize(
    "result",
    [[], {"diagnostics": "x"}, {"diagnostics": [], "errors": [{"message": 1}], "applied": []}],
)
def test_a_cache_entry_of_the_wrong_shape_is_a_miss(tmp_path: Path, result: object) -> None:
    cache = ResultCache(tmp_path / "cache")
    key = "ab" + "0" * 38
    cache.store(key, cache_module.FileResult(path="x.py"))
    entry = tmp_path / "cache" / build_id() / "ab" / f"{key}.json"
    entry.write_text(json.dumps({"format": cache_module.FORMAT, "result": result}))
    assert cache.load(key, "x.py") is None


def test_replace_file_works_by_path_where_folders_cannot_be_held_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows has no `dir_fd`: the same checks run, each step by path.
    monkeypatch.setattr(atomic, "_BY_HANDLE", False)
    target = tmp_path / "a.py"
    target.write_text(SOURCE)
    os.chmod(target, 0o640)
    atomic.replace_file(str(target), target.read_bytes(), FIXED_SOURCE.encode())
    assert target.read_text() == FIXED_SOURCE
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o640
    with pytest.raises(atomic.WriteRefused, match="changed on disk"):
        atomic.replace_file(str(target), SOURCE.encode(), b"x = 1\n")
    assert [p.name for p in tmp_path.iterdir()] == ["a.py"]
