"""Code a pull request commits in a form the tool cannot read, which Python imports all the same.

An extension module, bytecode without its source (or run instead of it), a wheel, an egg or a
zip of modules: a trusted gate reports each as CM003 (`core/compiled.py` decides, from a
few bytes, whether Python would run it in place of source), and a plain run does not look.
Bytecode is made with `py_compile` (never run); an extension module is stood for by bytes
holding its initialisation function's name, which is all the tool reads of it.
"""

from __future__ import annotations

import io
import json
import py_compile
import zipfile
from pathlib import Path

import pytest
from helpers import write_tree
from test_trusted_gate import POLICY, VIOLATION, _check, _git

from claude_migrate.core.compiled import classify, reason

EXTENSION = b"\x7fELF" + b"\0" * 64 + b"PyInit_chat\0" + b"\0" * 64
LIBRARY = b"\x7fELF" + b"\0" * 64 + b"deflateInit2_\0" + b"\0" * 64


def _bytecode(path: Path, mode: py_compile.PycInvalidationMode, source: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    py_compile.compile(str(source), cfile=str(path), doraise=True, invalidation_mode=mode)
    return path


def _zip(path: Path, names: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "x = 1\n")
    path.write_bytes(buffer.getvalue())
    return path


def test_bytecode_without_its_source_is_reported_and_with_it_is_not(tmp_path: Path) -> None:
    source = tmp_path / "elsewhere" / "chat.py"
    write_tree(source.parent, {"chat.py": VIOLATION})
    alone = _bytecode(tmp_path / "a" / "chat.pyc", py_compile.PycInvalidationMode.TIMESTAMP, source)
    assert classify(alone) == "compiled"
    assert "Python imports as `chat`" in (reason(alone) or "")
    # Python's file finder takes `chat.py` (or a package `chat/`) before `chat.pyc`.
    beside = _bytecode(
        tmp_path / "b" / "chat.pyc", py_compile.PycInvalidationMode.TIMESTAMP, source
    )
    write_tree(tmp_path / "b", {"chat.py": "", "pkg/__init__.py": ""})
    package = beside.with_name("pkg.pyc")
    package.write_bytes(beside.read_bytes())
    assert reason(beside) is None and reason(package) is None
    # Not bytecode at all (no header): Python refuses to import it.
    junk = tmp_path / "c" / "chat.pyc"
    write_tree(junk.parent, {"chat.pyc": "print('hi')\n"})
    assert reason(junk) is None


def test_an_extension_module_is_reported_before_the_source_beside_it(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "chat.cpython-312-x86_64-linux-gnu.so": EXTENSION, "chat.py": "",
            "fast.abi3.so": EXTENSION, "win.cp312-win_amd64.pyd": EXTENSION,
            "libz.so": LIBRARY, "libz.so.1": EXTENSION, "my-lib.so": EXTENSION,
        },
    )  # fmt: skip
    so = tmp_path / "chat.cpython-312-x86_64-linux-gnu.so"
    assert "imports as `chat` (before the source beside it)" in (reason(so) or "")
    assert reason(tmp_path / "fast.abi3.so") and reason(tmp_path / "win.cp312-win_amd64.pyd")
    # A shared library exporting no `PyInit_` function is not a module; neither is a name
    # Python cannot import (`libz.so.1`, `my-lib`).
    assert reason(tmp_path / "libz.so") is None
    assert classify(tmp_path / "libz.so.1") is None
    assert reason(tmp_path / "my-lib.so") is None


@pytest.mark.parametrize(
    ("mode", "reported"),
    [
        (py_compile.PycInvalidationMode.UNCHECKED_HASH, "without checking the source"),
        (py_compile.PycInvalidationMode.CHECKED_HASH, "records the source's hash"),
        (py_compile.PycInvalidationMode.TIMESTAMP, "records the source's time and size"),
    ],
)
def test_a_cached_bytecode_file_python_runs_instead_of_its_source_is_reported(
    tmp_path: Path, mode: py_compile.PycInvalidationMode, reported: str
) -> None:
    # The pull request's `chat.py` is clean; the bytecode beside it, compiled from the
    # violating text, carries a header Python accepts for the clean source.
    write_tree(tmp_path, {"pkg/chat.py": VIOLATION.replace("0.9", "0.0"), "bad/chat.py": VIOLATION})
    clean = tmp_path / "pkg" / "chat.py"
    cached = tmp_path / "pkg" / "__pycache__" / "chat.cpython-312.pyc"
    _bytecode(cached, mode, tmp_path / "bad" / "chat.py")
    data = bytearray(cached.read_bytes())
    if mode is py_compile.PycInvalidationMode.CHECKED_HASH:
        from importlib.util import source_hash

        data[8:16] = source_hash(clean.read_bytes())
    elif mode is py_compile.PycInvalidationMode.TIMESTAMP:
        info = clean.stat()
        data[8:12] = (int(info.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
        data[12:16] = (info.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cached.write_bytes(bytes(data))
    assert reported in (reason(cached) or "")
    # A stale header (another time, size or hash): Python compiles the source instead.
    if mode is not py_compile.PycInvalidationMode.UNCHECKED_HASH:
        data[8:16] = b"\x01" * 8
        cached.write_bytes(bytes(data))
        assert reason(cached) is None
    # Without its source, Python never reads a `__pycache__` file.
    clean.unlink()
    assert reason(cached) is None


def test_archives_of_modules_are_reported_and_data_archives_are_not(tmp_path: Path) -> None:
    wheel = _zip(tmp_path / "vendor" / "chat-1.0-py3-none-any.whl", ["chat/__init__.py"])
    modules = _zip(tmp_path / "libs.zip", ["README", "chat/client.py"])
    data = _zip(tmp_path / "data.zip", ["rows.csv", "notes.txt"])
    junk = tmp_path / "junk.zip"
    junk.write_bytes(b"PK\x05\x06" + b"\xff" * 40)
    assert "an archive of Python code" in (reason(wheel) or "")
    assert "chat/client.py" in (reason(modules) or "")
    assert reason(data) is None and reason(junk) is None


def _tree(root: Path) -> Path:
    source = root / "elsewhere" / "chat.py"
    write_tree(source.parent, {"chat.py": VIOLATION})
    project = root / "project"
    write_tree(project, {"pkg/__init__.py": "", "pkg/app.py": "from pkg import chat\n"})
    _bytecode(project / "pkg" / "chat.pyc", py_compile.PycInvalidationMode.TIMESTAMP, source)
    write_tree(project, {"pkg/fast.abi3.so": EXTENSION, "data/rows.zip": b""})
    return project


def test_the_trusted_gate_reports_each_compiled_module_and_a_plain_run_does_not(
    tmp_path: Path,
) -> None:
    project = _tree(tmp_path)
    policy = tmp_path / "ci" / "policy.toml"
    write_tree(policy.parent, {"policy.toml": POLICY})
    plain = _check(project, "--no-cache", ".")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    assert "CM003" not in plain.stdout
    gate = _check(project, "--no-cache", "--trusted-config", str(policy), "--format", "json", ".")
    assert gate.returncode == 1, gate.stdout + gate.stderr
    found = {(d["path"], d["code"], d["line"]) for d in json.loads(gate.stdout)["diagnostics"]}
    assert found == {("pkg/chat.pyc", "CM003", 1), ("pkg/fast.abi3.so", "CM003", 1)}
    text = _check(project, "--no-cache", "--trusted-config", str(policy), ".")
    assert "pkg/chat.pyc:1:1: CM003 bytecode with no source beside it" in text.stdout
    # The trusted policy decides, as for every rule.
    (policy.parent / "off.toml").write_text('ignore = ["CM003"]\n' + POLICY)
    off = _check(project, "--no-cache", "--trusted-config", str(policy.parent / "off.toml"), ".")
    assert off.returncode == 0, off.stdout + off.stderr


def test_a_baseline_accepts_a_committed_binary_as_it_is_never_a_replacement(
    tmp_path: Path,
) -> None:
    project = _tree(tmp_path)
    (project / "pkg" / "chat.pyc").unlink()
    policy = tmp_path / "ci" / "policy.toml"
    write_tree(policy.parent, {"policy.toml": POLICY})
    # Recorded on the base branch by naming the rule (a plain run does not look otherwise),
    # and read by the gate from a copy outside the checkout.
    inside = project / "baseline.json"
    recorded = _check(
        project, "--no-cache", "--config", str(policy), "--extend-select", "CM003",
        "--write-baseline", str(inside), ".",
    )  # fmt: skip
    assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert "CM003" in inside.read_text()
    baseline = tmp_path / "ci" / "baseline.json"
    baseline.write_text(inside.read_text())
    inside.unlink()
    gate = ["--no-cache", "--trusted-config", str(policy), "--baseline", str(baseline), "."]
    accepted = _check(project, *gate)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    (project / "pkg" / "fast.abi3.so").write_bytes(EXTENSION + b"PyInit_other\0")
    replaced = _check(project, *gate)
    assert replaced.returncode == 1, replaced.stdout + replaced.stderr
    assert "pkg/fast.abi3.so:1:1: CM003" in replaced.stdout


def test_bytecode_the_job_wrote_in_an_ignored_cache_folder_is_not_the_pull_requests(
    tmp_path: Path,
) -> None:
    # A `__pycache__` git ignores and does not track holds what the CI job's own steps
    # compiled from the checked source; one the pull request commits is read.
    project = tmp_path / "project"
    write_tree(project, {".gitignore": "__pycache__/\n", "pkg/chat.py": VIOLATION})
    _git(project, "init", "-q", "-b", "main")
    _git(project, "add", "-A")
    _git(project, "commit", "-qm", "base")
    source = project / "pkg" / "chat.py"
    mode = py_compile.PycInvalidationMode.UNCHECKED_HASH
    _bytecode(project / "pkg" / "__pycache__" / "chat.cpython-312.pyc", mode, source)
    policy = tmp_path / "ci" / "policy.toml"
    write_tree(policy.parent, {"policy.toml": POLICY})
    gate = ["--no-cache", "--trusted-config", str(policy), "--format", "json", "."]
    codes = [d["code"] for d in json.loads(_check(project, *gate).stdout)["diagnostics"]]
    assert codes == ["CM101"]
    _git(project, "add", "-f", "pkg/__pycache__/chat.cpython-312.pyc")
    _git(project, "commit", "-qm", "pull request")
    found = json.loads(_check(project, *gate).stdout)["diagnostics"]
    assert [(d["path"], d["code"]) for d in found] == [
        ("pkg/__pycache__/chat.cpython-312.pyc", "CM003"),
        ("pkg/chat.py", "CM101"),
    ]
