"""Hostile input sized to exhaust the tool: every cost stays linear and every input is capped.

Each case builds the shape that grew without bound (a name rebound from itself hundreds of
times, thousands of declared call sites, a huge file, a language-server document that never
ends, a report that is a FIFO) and asserts the run ends quickly with the answer or a clear
message.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import select
import struct
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import SRC, write_tree
from operations import calls_made, python_calls
from test_inputs import CALL


def _rebinding(count: int, indent: str = "") -> str:
    """A name rebound from itself `count` times, each binding read by a call."""
    lines = [f"{indent}client = anthropic.Anthropic()"]
    for i in range(count):
        lines.append(f"{indent}client = client.with_options(timeout={i + 1})")
        lines.append(
            f"{indent}r{i} = client.messages.create(model='claude-sonnet-4-5', max_tokens=100,"
            f" temperature=0.{i % 9}, messages=[])"
        )
    head = "import anthropic\n" + ("def main():\n" if indent else "")
    return head + "\n".join(lines) + "\n"


def _checked_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, files: dict[str, str]
) -> tuple[dict[str, Any], int]:
    """Check a tree in this process; return the JSON report and the Python calls it took."""
    from claude_migrate import api

    tree = tmp_path / name
    write_tree(tree, files)
    monkeypatch.chdir(tree)
    request = api.Request(paths=(Path("."),), no_cache=True, jobs=1, output_format="json")
    outcome, calls = python_calls(lambda: api.check(request))
    assert outcome.exit_status in (0, 1), outcome.messages
    return json.loads(outcome.report), calls


def _rebinding_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int, indent: str = ""
) -> int:
    report, calls = _checked_in_process(
        tmp_path, monkeypatch, f"r{count}{len(indent)}", {"app.py": _rebinding(count, indent)}
    )
    assert report["errors"] == [], report["errors"]
    assert len(report["diagnostics"]) == count  # the retired model of each call
    return calls


@pytest.mark.parametrize("indent", ["", "    "], ids=["module", "function"])
def test_a_name_rebound_from_itself_hundreds_of_times_is_checked_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, indent: str
) -> None:
    """`client = client.with_options(...)` 400 times, each binding read by a call: what the
    name's bindings decide is kept once they are resolved (the LibCST symbol table's
    `_binding_symbols`; the project phase's module names and locals), not gone over again at
    every use. Measured: four times the bindings take 2.9 times the Python calls (100 and 400
    bindings, module and function alike; before: 8.1 and 3.7 times, the work of the uses
    growing as n * n); anything growing faster than linearly fails here."""
    small = _rebinding_work(tmp_path, monkeypatch, 100, indent)
    large = _rebinding_work(tmp_path, monkeypatch, 400, indent)
    assert large < 4 * small, (small, large)


def _linear(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    shape: Callable[[int], str],
    sizes: tuple[int, int],
) -> tuple[list[dict[str, Any]], int, int]:
    """Check `shape` at two sizes; return the larger's findings and the Python calls of each."""
    calls = []
    for size in sizes:
        report, work = _checked_in_process(
            tmp_path, monkeypatch, f"{shape.__name__}{size}", {"app.py": shape(size)}
        )
        assert report["errors"] == [], report["errors"]
        calls.append(work)
    return report["diagnostics"], calls[0], calls[1]


def _names_each_rebinding_the_last(count: int) -> str:
    lines = ["import anthropic", "c0 = anthropic.Anthropic()"]
    lines += [f"c{i} = c{i - 1}" for i in range(1, count)]
    lines.append(
        f"c{count - 1}.messages.create(model='claude-sonnet-4-5', max_tokens=9, messages=[])"
    )
    return "\n".join(lines) + "\n"


def _chained_classes(count: int) -> str:
    lines = [
        "import anthropic",
        "class C0:",
        "    client = anthropic.Anthropic()",
        "    def ask(self):",
        "        return self.client.messages.create(model=MODEL, max_tokens=9, messages=[])",
    ]
    lines += [f"class C{i}(C{i - 1}):\n    pass" for i in range(1, count)]
    lines += ["MODEL = 'claude-sonnet-4-5'", f"C{count - 1}().ask()"]
    return "\n".join(lines) + "\n"


def _hook_siblings(count: int) -> str:
    """A base class's Bedrock call whose body an abstract hook builds, overridden by `count`
    sibling subclasses, each by a chain of constructors handing the model id up."""
    lines = [
        "import json, boto3",
        "class Base:",
        "    def __init__(self, model_id):",
        "        self.model_id = model_id",
        "    def _body(self, turns): ...",
        "    def ask(self, turns):",
        "        return boto3.client('bedrock-runtime').invoke_model(",
        "            modelId=self.model_id, body=json.dumps(self._body(turns)))",
    ]
    for i in range(count):
        lines += [
            f"class S{i}({'Base' if i == 0 else f'S{i - 1}'}):",
            "    def __init__(self, model_id=None):",
            "        if not model_id:",
            f"            model_id = 'anthropic.claude-v{i}'",
            "        super().__init__(model_id)",
            "    def _body(self, turns):",
            f"        return {{'anthropic_version': 'bedrock-2023-05-31', 'max_tokens': {i}}}",
        ]
    lines.append(f"S{count - 1}().ask([])")
    return "\n".join(lines) + "\n"


def _big_dict(count: int) -> str:
    entries = "".join(f"    'k{i}': 'claude-sonnet-4-{i % 2 + 5}',\n" for i in range(count))
    return (
        "import anthropic\nclient = anthropic.Anthropic()\nMODELS = {\n" + entries + "}\n"
        "client.messages.create(model=MODELS['k1'], max_tokens=9, messages=[])\n"
    )


def _nested_calls(depth: int) -> str:
    argument = "MODEL"
    for _ in range(depth):
        argument = f"pick({argument})"
    return (
        "import anthropic\nclient = anthropic.Anthropic()\nMODEL = 'claude-sonnet-4-5'\n"
        "def pick(model):\n    return model\n"
        f"client.messages.create(model={argument}, max_tokens=9, messages=[])\n"
    )


def test_5000_names_each_rebinding_the_last_are_checked_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`c1 = c0`, `c2 = c1`, ... 5,000 times, the last one called: each name is resolved
    once, and the chain is followed to the depth limit only (measured: 300,767 and 893,993
    Python calls for 1,250 and 5,000 names). The client is past the limit: unknown, so the
    model is a data mention, never a guess."""
    found, small, large = _linear(
        tmp_path, monkeypatch, _names_each_rebinding_the_last, (1250, 5000)
    )
    assert [d["code"] for d in found] == ["CM302"], found
    assert large < 5 * small, (small, large)


def test_2000_chained_classes_end_at_the_depth_limit_without_a_recursion_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`class C1(C0)`, `class C2(C1)`, ... 2,000 times: the method resolution order is followed
    to the depth limit, and an order is as long as that limit at most (before: a RecursionError
    out of the project phase ended the whole run from about 1,000 classes, and each class's order
    copied all of its bases', n * n * n steps in all). Measured: 306,026 and 1,168,313 Python
    calls for 500 and 2,000 classes."""
    found, small, large = _linear(tmp_path, monkeypatch, _chained_classes, (500, 2000))
    assert found, "the module's own Claude call is still read"
    assert large < 5 * small, (small, large)


def _chained_constructors(count: int) -> str:
    lines = [
        "import anthropic",
        "class C0:",
        "    def __init__(self, model='claude-sonnet-4-5', **kwargs):",
        "        self.model = model",
        "        self.client = anthropic.Anthropic()",
        "    def ask(self):",
        "        return self.client.messages.create(model=self.model, max_tokens=9, messages=[])",
    ]
    lines += [
        f"class C{i}(C{i - 1}):\n    def __init__(self, **kwargs):\n"
        "        super().__init__(**kwargs)"
        for i in range(1, count)
    ]
    lines.append(f"C{count - 1}().ask()")
    return "\n".join(lines) + "\n"


def test_a_chain_of_classes_each_with_its_own_constructor_is_read_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`class C1(C0)` ... 600 times, each `__init__` handing its keywords to `super()`: the
    methods each class inherits were found by going over every function of the module for
    each class of its method resolution order, n * n steps of built-in calls (2,000 classes
    took 108 s). The module's methods are now grouped by class once. Measured: 1,016,143 and
    3,530,051 calls for 150 and 600 classes (before: 2,043,790 and 21,138,848)."""
    from claude_migrate import api

    work = []
    for size in (150, 600):
        tree = tmp_path / f"c{size}"
        write_tree(tree, {"app.py": _chained_constructors(size)})
        monkeypatch.chdir(tree)
        request = api.Request(paths=(Path("."),), no_cache=True, jobs=1, output_format="json")
        outcome, calls = calls_made(functools.partial(api.check, request))
        assert outcome.exit_status == 1, outcome.messages
        assert json.loads(outcome.report)["diagnostics"], "the module's Claude call is read"
        work.append(calls)
    assert work[1] < 5 * work[0], work


def test_hundreds_of_subclasses_overriding_a_base_class_hook_are_read_in_bounded_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A base class's call reading an abstract hook, overridden by a chain of 300 subclasses
    whose constructors each hand a value up: the overrides looked at are as many as the member
    bound, the constructors followed as many as the path bound; several overrides leave the
    body unknown, nothing is reported as certain and the work stays linear."""
    found, small, large = _linear(tmp_path, monkeypatch, _hook_siblings, (100, 300))
    assert all(d["code"] != "CM102" for d in found), found
    assert large < 5 * small, (small, large)


def _model_tables(count: int) -> dict[str, str]:
    """`count` modules each holding a model table another module reads, every file holding a
    character beyond ASCII (a file Python reads through its decoder)."""
    files = {}
    for i in range(count):
        files[f"conf{i}.py"] = f'# é\nMODELS_{i} = {{"a": "claude-3-haiku-20240307", "b": "x"}}\n'
        files[f"app{i}.py"] = (
            f"# é\nimport anthropic\nfrom conf{i} import MODELS_{i}\n\n"
            "client = anthropic.Anthropic()\n"
            f'client.messages.create(model=MODELS_{i}["a"], max_tokens=5, messages=[],'
            " stream=True)\n"
        )
    return files


def test_many_model_tables_read_each_file_of_the_run_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a file of the run may change a module's model table was asked of every file,
    for every table, each file's text read as Python reads it each time: a thousand tables
    over two thousand files were two million reads. The run's words are now indexed once.
    Measured (reads of a file's text): 3,280 and 51,520 for 40 and 160 tables; now 160 and 640."""
    from claude_migrate import api
    from claude_migrate.project import phase

    reads = 0
    original = phase.as_python_reads

    def counted(data: bytes) -> bytes:
        nonlocal reads
        reads += 1
        return original(data)

    monkeypatch.setattr(phase, "as_python_reads", counted)
    work = []
    for size in (40, 160):
        tree = write_tree(tmp_path / f"t{size}", _model_tables(size))
        monkeypatch.chdir(tree)
        reads = 0
        request = api.Request(paths=(Path("."),), no_cache=True, jobs=1, output_format="json")
        outcome = api.check(request)
        found = json.loads(outcome.report)["diagnostics"]
        # Each table's retired model, read by its call: no table was given up on.
        assert len([d for d in found if d["code"] == "CM302"]) == 2 * size, found
        work.append(reads)
    assert work[1] < 5 * work[0], work


@pytest.mark.parametrize("name", ["MODELS", "MODÈLES"])
def test_a_model_table_another_file_changes_is_not_read_whatever_its_name_spells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """The index of the run's words holds ASCII names; a name beyond ASCII is still looked
    for in every file as Python reads it: a file changing the table keeps it unread."""
    files = {
        "conf.py": f'{name} = {{"a": "claude-3-haiku-20240307", "b": "x"}}\n',
        "app.py": (
            f"# é\nimport anthropic\nfrom conf import {name}\n\n"
            "client = anthropic.Anthropic()\n"
            f'client.messages.create(model={name}["a"], max_tokens=5, messages=[], stream=True)\n'
        ),
    }
    report, _ = _checked_in_process(tmp_path, monkeypatch, "alone", files)
    assert ("app.py", "CM302") in [(d["path"], d["code"]) for d in report["diagnostics"]]
    files["plugin.py"] = f'# é\nfrom conf import {name}\n\n{name}["a"] = "claude-sonnet-4-6"\n'
    report, _ = _checked_in_process(tmp_path, monkeypatch, "changed", files)
    assert ("app.py", "CM302") not in [(d["path"], d["code"]) for d in report["diagnostics"]]


def test_a_dict_of_10000_entries_is_checked_in_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A model table of 10,000 entries, one read by a call: one finding per retired entry, each
    entry read once (measured: 387,995 and 1,533,363 Python calls for 2,500 and 10,000)."""
    found, small, large = _linear(tmp_path, monkeypatch, _big_dict, (2500, 10000))
    retired = [d for d in found if d["code"] == "CM302"]
    assert len(retired) == 5000, len(retired)  # every `claude-sonnet-4-5` entry
    assert large < 5 * small, (small, large)


def test_calls_nested_150_deep_are_followed_to_the_depth_limit_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pick(pick(...(MODEL)))` 150 deep (CPython's parser allows 200 open brackets): the
    argument's value is followed to the depth limit, then unknown: three times the depth is
    not three times the analysis (measured: 17,898 and 21,185 Python calls for 50 and 150)."""
    found, small, large = _linear(tmp_path, monkeypatch, _nested_calls, (50, 150))
    assert "CM104" in {d["code"] for d in found}, found  # the call itself is still read
    assert large < 3 * small, (small, large)


def test_calls_nested_1000_deep_are_a_file_error_not_a_crash(tmp_path: Path) -> None:
    """Deeper than any parser takes (LibCST's native parser aborts on it): the file gets a CM001
    entry in CPython's words, with its line; the run goes on and ends normally."""
    write_tree(tmp_path, {"deep.py": _nested_calls(1000), "ok.py": CALL})
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-m", "claude_migrate", "check", "--no-cache", "--format", "json",
         "--file-memory", "300", "."],
        cwd=tmp_path, env=env, capture_output=True, timeout=300,
    )  # fmt: skip
    report = json.loads(proc.stdout)
    assert [(e["path"], e["code"]) for e in report["errors"]] == [("deep.py", "CM001")], report
    assert "too many nested parentheses" in report["errors"][0]["message"], report["errors"]
    assert {d["path"] for d in report["diagnostics"]} == {"ok.py"}, report["diagnostics"]
    assert b"Traceback" not in proc.stderr, proc.stderr[-2000:]


def _declared_call_sites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, count: int
) -> tuple[dict[str, Any], int]:
    entries = "".join(
        f'[[call-sites]]\nfunction = "acme.ask{i}"\nmodel = "model_name"\n\n' for i in range(count)
    )
    last = f"ask{count - 1}"
    files = {
        "claude-migrate.toml": entries,
        "app.py": f"from acme import {last}\n{last}(model_name='claude-2.1')\n",
    }
    return _checked_in_process(tmp_path, monkeypatch, f"s{count}", files)


def test_8000_declared_call_sites_load_without_rescanning_the_policy_per_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight times the entries, about seven times the work (measured: 1,000 and 8,000 entries
    take 90,416 and 637,090 Python calls); a rescan per entry would be sixty-four times."""
    small_report, small = _declared_call_sites(tmp_path, monkeypatch, 1000)
    report, large = _declared_call_sites(tmp_path, monkeypatch, 8000)
    for found in (small_report, report):
        assert [d["code"] for d in found["diagnostics"]] == ["CM302"], found["diagnostics"]
    assert large < 12 * small, (small, large)


# The language server -------------------------------------------------------------------------


def _frame(message: dict[str, object], short: int = 0) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) + short) + body


def _session(root: Path, *frames: bytes, wait_for: bytes, end: bool = False) -> tuple[bytes, str]:
    """Run the server, send `frames`, return what it wrote once `wait_for` came (and stderr)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_migrate", "server"],
        cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    start = _frame(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}}
    ) + _frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})  # fmt: skip
    out = b""
    try:
        proc.stdin.write(start + b"".join(frames))
        proc.stdin.flush()
        if end:
            proc.stdin.close()
        deadline = time.monotonic() + 60
        while wait_for not in out and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 1)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
    finally:
        if not proc.stdin.closed:
            proc.stdin.close()
        try:
            proc.wait(30)
        finally:
            if proc.poll() is None:
                proc.kill()
    return out, proc.stderr.read().decode("utf-8", "replace")


def _did_open(root: Path, name: str, text: str) -> bytes:
    return _frame(
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": (root / name).as_uri(), "languageId": "python",
                                     "version": 1, "text": text}}}
    )  # fmt: skip


def test_the_server_resynchronises_after_a_body_shorter_than_its_length(tmp_path: Path) -> None:
    broken = _frame({"jsonrpc": "2.0", "method": "$/anything", "params": {}}, short=40)
    out, err = _session(tmp_path, broken, _did_open(tmp_path, "app.py", CALL), wait_for=b"CM101")
    assert b"publishDiagnostics" in out and b"CM101" in out, (out[-500:], err[-2000:])
    assert "shorter than its Content-Length" in err, err[-2000:]
    assert "Traceback" not in err, err[-2000:]


def test_the_server_exits_cleanly_when_the_input_ends_inside_a_message(tmp_path: Path) -> None:
    cut = _frame({"jsonrpc": "2.0", "method": "$/anything", "params": {}}, short=10_000)
    _, err = _session(tmp_path, cut, wait_for=b"never", end=True)
    assert "the input ended inside a message" in err, err[-2000:]
    assert "Traceback" not in err, err[-2000:]


def test_the_server_drops_an_oversized_message_without_reading_it_whole(tmp_path: Path) -> None:
    declared = b"Content-Length: 999999999999\r\n\r\n" + b"x" * 100_000
    # The oversized frame is read past; the stream then ends and the server stops.
    _, err = _session(tmp_path, declared, wait_for=b"never", end=True)
    assert "over the limit" in err, err[-2000:]
    assert "Traceback" not in err, err[-2000:]


def test_the_server_does_not_check_a_document_over_its_size_cap(tmp_path: Path) -> None:
    text = CALL + ("# " + "x" * 98 + "\n") * 90_000  # 9 MB: over the 8 MiB cap
    out, err = _session(tmp_path, _did_open(tmp_path, "big.py", text), wait_for=b"too large")
    assert b"too large to check in the editor" in out, (out[-500:], err[-2000:])


# The main process's own work -----------------------------------------------------------------

# The main process's peak resident size, from its own memory map's high-water mark (VmHWM):
# `getrusage`'s ru_maxrss would keep the peak of the process that forked it (Linux keeps it
# across exec), here the test runner's.
MAIN_RSS = """
import sys
from claude_migrate.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print("maxrss-kib", peak, file=sys.stderr)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_a_huge_file_costs_the_main_process_little_memory(tmp_path: Path) -> None:
    line = (
        "r = client.messages.create(model='claude-sonnet-4-5', max_tokens=100,"
        " temperature=0.9, messages=[])\n"
    )
    source = "import anthropic\nclient = anthropic.Anthropic()\n" + line * (8_000_000 // len(line))
    write_tree(tmp_path, {"app.py": source})
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, "-c", MAIN_RSS, "check", "--no-cache", "--format", "json",
         "--file-memory", "300", "--file-timeout", "60", "."],
        cwd=tmp_path, env=env, capture_output=True, timeout=180,
    )  # fmt: skip
    err = proc.stderr.decode()
    rss_mib = int(err.rsplit("maxrss-kib", 1)[1].split()[0]) // 1024
    # The worker checking the file has its own limit (and may reach it: CM001); the main
    # process never parses it (before: about 1 GiB for this file, 2.5 GiB for 20 MB).
    assert rss_mib < 300, (rss_mib, err[-2000:])
    report = json.loads(proc.stdout)
    assert report["diagnostics"] or report["errors"], report["summary"]


def test_a_file_checked_in_the_main_process_is_held_to_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from claude_migrate.engine import runner
    from claude_migrate.engine.pool import Limits
    from claude_migrate.policy.config import PolicyLoader

    write_tree(tmp_path, {"slow.py": CALL})
    settings = (
        PolicyLoader(cwd=tmp_path).for_path(tmp_path / "slow.py").settings_for(tmp_path / "slow.py")
    )
    job = runner.Job(str(tmp_path / "slow.py"), "slow.py", "python", settings)

    def forever(*args: object, **kwargs: object) -> object:
        time.sleep(60)  # stands for analysis that never ends
        raise AssertionError("not interrupted")

    monkeypatch.setattr(runner, "process", forever)
    monkeypatch.setattr(runner, "settle_without_libcst", lambda *args: False)
    started = time.monotonic()
    (result,) = runner.run([job], runner.Options(limits=Limits(1.0, None)), workers=1)
    assert time.monotonic() - started < 10
    assert [e.message for e in result.errors] == [
        "took longer than the per-file time limit of 1 s (--file-timeout)"
    ]


def test_the_project_phase_gives_up_a_module_over_the_time_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from claude_migrate.project import phase

    def forever(*args: object, **kwargs: object) -> object:
        time.sleep(60)
        raise AssertionError("not interrupted")

    monkeypatch.setattr(phase, "_parse_module", forever)
    project = phase.Project([tmp_path], tmp_path)
    project.seconds = 1.0
    started = time.monotonic()
    assert project._summary(CALL, "app", False) is None
    assert time.monotonic() - started < 10
    # Too large to parse in this process at all: not read, whatever the time.
    assert phase._read_module("x = 1\n" * 200_000, "big", False) == (None, None)


def test_the_project_phase_and_the_engine_share_the_in_process_size_bound() -> None:
    from claude_migrate.engine import hazard
    from claude_migrate.project import phase

    assert phase.MAX_IN_PROCESS_BYTES == hazard.MAX_IN_PROCESS_BYTES


def _retired_calls(count: int) -> str:
    """`count` calls each sending a retired model, with a line of comments each."""
    lines = ["import anthropic", "client = anthropic.Anthropic()"]
    for i in range(count):
        lines.append(f"# question {i}: claude-3-opus is the one we tested")
        lines.append(
            f"r{i} = client.messages.create(model='claude-3-opus-20240229', max_tokens=9,"
            " stream=True, messages=[])"
        )
    return "\n".join(lines) + "\n"


def test_retired_models_in_many_calls_read_the_comments_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each CM302 fix renames the model in the comments beside it: the file is tokenized once
    for all of them, not once per call (a 14,000-line test module took over a minute)."""
    from claude_migrate.analysis import context

    tokenized = []
    original = context.python_comments

    def counted(text: str, lines: Any = None) -> Any:
        tokenized.append(len(text))
        return original(text, lines)

    monkeypatch.setattr(context, "python_comments", counted)
    found, small, large = _linear(tmp_path, monkeypatch, _retired_calls, (20, 80))
    assert [d["code"] for d in found].count("CM302") == 80, found
    assert len(tokenized) == 2, tokenized  # one per file checked: the two sizes
    assert large < 5 * small, (small, large)


def _calls_sharing_a_constant(count: int) -> str:
    """`count` calls each reading a retired MODEL through an expression."""
    lines = ["import anthropic", "client = anthropic.Anthropic()"]
    lines.append("MODEL = 'claude-3-opus-20240229'")
    for i in range(count):
        lines.append(f"def f{i}(p):")
        lines.append(
            f"    return client.messages.create(model=MODEL if p else 'claude-2.1',"
            f" max_tokens={4096 + i}, temperature=0.9, stream=True, messages=[])"
        )
    return "\n".join(lines) + "\n"


def test_fixes_of_many_calls_reading_one_constant_are_linear_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each call's fix asks which other calls read the constant: found once per file, not once
    per call (a file of 1,000 such calls ran past the per-file time limit)."""
    # A first, small run builds what every run shares (the catalogue, the facts): not counted.
    _checked_in_process(tmp_path, monkeypatch, "warm", {"app.py": _calls_sharing_a_constant(5)})
    found, small, large = _linear(tmp_path, monkeypatch, _calls_sharing_a_constant, (40, 160))
    assert [d["code"] for d in found].count("CM302") == 161, found  # MODEL once, each literal
    # Four times the calls: 3.9 times the work (6.4 when each fix walked every call).
    assert large < 5 * small, (small, large)


def test_choosing_among_thousands_of_fixes_is_linear_work() -> None:
    from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, Fix
    from claude_migrate.engine.fixer import select_fixes

    def work(count: int) -> int:
        diagnostics = [
            Diagnostic(
                "x.py", 1, 1, 1, 2, "CM1", "r", "m",
                Fix(Applicability.SAFE, "f", (Edit(10 * i, 10 * i + 4, "x"),)),
            )
            for i in range(count)
        ]  # fmt: skip
        (applied, _), calls = python_calls(lambda: select_fixes(diagnostics, unsafe=False))
        assert len(applied) == count
        return calls

    small, large = work(500), work(2000)
    assert large < 5 * small, (small, large)


LONG = 400_000
# A long line in each kind of file whose reader once matched it with a pattern that retried a
# run from each of its characters (quadratic: minutes for this line, past the per-file time
# limit, which then replaced the file's findings with a CM001). Each must be read in moments.
LONG_LINES = {
    "blank run in requirements.txt": ("requirements.txt", "anthropic==0.20.0\n" + "\t" * LONG),
    "key without a value in an .ini file": ("app.ini", "[a]\nmodel = claude-2.1\nk" + " " * LONG),
    "unreadable JSON naming a model": ("app.json", '{"model": "claude-2.1", "x": "' + "a" * LONG),
    "unreadable YAML naming a model": ("app.yaml", "model: claude-2.1\nx: " + "a:" * LONG),
}


@pytest.mark.parametrize("name", sorted(LONG_LINES))
def test_a_long_line_is_read_in_linear_time_and_keeps_the_findings(
    tmp_path: Path, name: str
) -> None:
    from test_inputs import run_cm

    file, text = LONG_LINES[name]
    write_tree(tmp_path, {file: text + "\n"})
    proc = run_cm("check", "--no-cache", "--format", "json", "--file-timeout", "20", file,
                  cwd=tmp_path)  # fmt: skip
    report = json.loads(proc.stdout)
    errors = [e["message"] for e in report["errors"]]
    assert not any("time limit" in m for m in errors), errors
    if file.endswith((".json", ".yaml")):
        assert [m.split(":")[0] for m in errors] == [f"invalid {file[4:].upper()}"], errors
    else:
        assert (errors, [d["code"] for d in report["diagnostics"]]) == (
            [],
            ["CM201" if file == "requirements.txt" else "CM302"],
        )


def test_a_long_line_of_attribute_shapes_does_not_stall_the_project_phase(tmp_path: Path) -> None:
    """The project phase finds which attributes the run's files write (`config.model = m`) in
    one pass over each file; a line of many `a.b:` (an annotation that never reaches `=`) or
    many `setattr(` once made that pass read to the line's end from each of them: minutes for
    this file, in the main process, which has no per-file limit. So may the shapes a parse
    confirms (`settings.model, n = m, 1`), found by patterns of their own."""
    from test_inputs import run_cm

    config = "class Settings:\n    model = 'claude-3-opus-20240229'\n\n\nsettings = Settings()\n"
    app = (
        "import anthropic\n\nfrom config import settings\n\nclient = anthropic.Anthropic()\n"
        "client.messages.create(model=settings.model, max_tokens=100, messages=[], stream=True)\n"
    )
    hostile = "x = 1  # " + "a.b:" * 100_000 + "\ny = 2  # " + "setattr(" * 50_000 + "\n"
    # The shapes the dot scan cannot read (`for a.b in`, target lists, `del`, `vars(`), each
    # repeated along a line that never completes it.
    for shape in ("for ", "for a.b", "del ", "del a.b", "a.b,", "(", "*", "vars(", ".b)", "as "):
        hostile += shape * 50_000 + "\n"
    write_tree(tmp_path, {"config.py": config, "app.py": app, "noise.py": hostile})
    # Whether any file writes `settings.model` is asked: the class's default is what is sent.
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path, timeout=60)
    report = json.loads(proc.stdout)
    assert [(d["path"], d["code"]) for d in report["diagnostics"]] == [("config.py", "CM302")]


def test_a_gitignore_line_of_many_stars_matches_a_long_name_in_bounded_time(
    tmp_path: Path,
) -> None:
    """`*a*a*...*ab` as a backtracking regex tries every way to place each `a` in a 240-letter
    name (minutes at five stars, for each file; git's own matcher too). Each star but the last
    takes the first place its piece fits, so the answer is the same and comes at once, in a
    `.gitignore` the pull request writes and in a policy's `exclude` alike."""
    from test_inputs import run_cm

    from claude_migrate.core.gitignore import gitignore_spec, matches

    pattern = "*a" * 120 + "b"
    long_name = "a" * 240
    write_tree(
        tmp_path,
        {
            ".gitignore": pattern + "\n",
            f"{long_name}.py": CALL,
            f"{long_name}b": "ignored\n",
            "claude-migrate.toml": f'exclude = ["{pattern}"]\n',
        },
    )
    started = time.perf_counter()
    for line in (pattern, "*[!b]" * 60 + "b", "*[ab]?" * 60 + "b"):
        spec = gitignore_spec([line])
        assert not matches(spec, f"{long_name}.py") and matches(spec, f"{long_name}b")
    assert time.perf_counter() - started < 1
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path, timeout=60)
    report = json.loads(proc.stdout)
    assert not report["errors"] and report["diagnostics"], report
    assert {d["path"] for d in report["diagnostics"]} == {f"{long_name}.py"}


def test_a_gitignore_line_of_many_globstars_matches_a_deep_path_in_bounded_time(
    tmp_path: Path,
) -> None:
    """`**/a/**/a/.../**/b` tries every way to place each `a` among a deep path's folders (over a
    minute per folder on the way at six `**`); each `**/` but the last takes the first folders
    that fit, with the same answer."""
    from test_inputs import run_cm

    from claude_migrate.core.gitignore import gitignore_spec, matches

    pattern = "/".join(["**", "a"] * 8) + "/b"
    deep = "/".join(["a"] * 100)
    write_tree(tmp_path, {".gitignore": pattern + "\n", f"{deep}/x.py": CALL, f"{deep}/b": ""})
    started = time.perf_counter()
    for line in (pattern, "/".join(["**", "[ab]"] * 8) + "/b", "/".join(["**", "a*"] * 8) + "/b"):
        spec = gitignore_spec([line])
        assert not matches(spec, f"{deep}/x.py") and matches(spec, f"{deep}/b")
    assert time.perf_counter() - started < 1
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path, timeout=60)
    report = json.loads(proc.stdout)
    assert not report["errors"] and report["diagnostics"], report
    assert {d["path"] for d in report["diagnostics"]} == {f"{deep}/x.py"}


def _anchor_chain(depth: int) -> str:
    """Return YAML whose anchors each name the one before nine times: 9**depth values unrolled."""
    lines = ["model: claude-2", "a0: &a0 {temperature: 0.7}"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, depth + 1)]
    return "\n".join(lines) + "\n"


def test_yaml_anchors_naming_anchors_are_read_once_each() -> None:
    from claude_migrate.configs.scalars import yaml_entry_keys
    from claude_migrate.core.source import SourceText

    small, small_calls = python_calls(lambda: yaml_entry_keys(SourceText(_anchor_chain(4))))
    large, large_calls = python_calls(lambda: yaml_entry_keys(SourceText(_anchor_chain(8))))
    # Twice the lines, about twice the work: unrolled, the larger is 9**4 times the smaller.
    assert large_calls < 4 * small_calls, (small_calls, large_calls)
    top = {"model", "temperature", *(f"a{i}" for i in range(9))}  # with a0's own keys
    assert large[(0, 7)] == frozenset(top)
    assert large[(1, 22)] == frozenset({"temperature"})
    assert small[(1, 22)] == frozenset({"temperature"})


def test_a_yaml_anchor_bomb_keeps_the_files_findings(tmp_path: Path) -> None:
    write_tree(tmp_path, {"models.yaml": _anchor_chain(12)})
    done = subprocess.run(
        [sys.executable, "-m", "claude_migrate", "check", "--no-cache", "--format", "json", "."],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )  # fmt: skip
    report = json.loads(done.stdout)
    assert report["errors"] == []
    assert [(d["code"], d["line"]) for d in report["diagnostics"]] == [("CM302", 1)]


def _index_of(*names: bytes) -> bytes:
    """A version 2 git index listing `names` (null stat data and object names)."""
    entries = b""
    for name in names:
        entry = b"\0" * 24 + struct.pack(">I", 0o100644) + b"\0" * 32
        entry += struct.pack(">H", min(len(name), 0xFFF)) + name
        entries += entry + b"\0" * (8 - len(entry) % 8)
    data = b"DIRC" + struct.pack(">II", 2, len(names)) + entries
    return data + hashlib.sha1(data).digest()


def test_a_tracked_name_of_thousands_of_folders_costs_memory_linear_in_its_length(
    tmp_path: Path,
) -> None:
    """A tree bringing its own `.git` (an archive, a CI artifact) lists in its index a name of
    8,000 folders (16 KB). Which folders hold a tracked file was the set of every name's
    folder prefixes, 8,000 strings of up to 16 KB: 64 MB for this name, 10^10 bytes for one of
    100,000 parts. Now the names are kept in order and a folder is looked up among them."""
    from claude_migrate.discovery.collect import _GitIgnores

    tree = tmp_path / "unpacked"
    write_tree(tree, {"app.py": CALL, "a/x.py": CALL, "b/y.py": CALL})
    (tree / ".git").mkdir()
    (tree / ".git" / "index").write_bytes(_index_of(b"a/x.py", b"a/" * 8000 + b"deep.py"))
    ignores = _GitIgnores()
    tracemalloc.start()
    try:
        held = [ignores.tracked(tree / name, True) for name in ("a", "a/a/a", "b", "a/x.py")]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert held == [True, True, False, False]
    assert ignores.tracked(tree / "a" / "x.py", False)
    assert not ignores.tracked(tree / "b" / "y.py", False)
    assert peak < 4_000_000, peak


def test_a_test_file_naming_a_module_by_hundreds_of_parts_is_read_in_linear_memory(
    tmp_path: Path,
) -> None:
    """A test file patching `p0.p1. ... .p299.chat.MODEL` and importing 50 names from a module
    of 300 parts. Each run of a dotted name's parts was kept as a name the test may use for a
    module: 45,000 strings for the patch target, again for each name imported (a target of
    3,000 parts did not finish in a minute). Runs of up to eight parts name the same modules,
    as a module's names are every tail of its path."""
    from claude_migrate.analysis import doubles

    dotted = ".".join(f"p{i}" for i in range(300))
    imported = ", ".join(f"a{i}" for i in range(50))
    test = f"""from unittest.mock import patch
from {dotted} import {imported}

def test_ask():
    with patch("{dotted}.chat.MODEL", "claude-2.1"):
        pass
"""
    write_tree(tmp_path, {
        "pyproject.toml": "", "chat.py": "MODEL = 1\n", "tests/test_chat.py": test,
        "other.py": "", "tests/test_other.py": "import x.other\n",
    })  # fmt: skip
    doubles.forget()
    tracemalloc.start()
    try:
        found = doubles.importing_tests(str(tmp_path / "chat.py"))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        doubles.forget()
    assert found == [str(tmp_path / "tests" / "test_chat.py")]
    assert doubles.importing_tests(str(tmp_path / "other.py")) == [
        str(tmp_path / "tests" / "test_other.py")
    ]
    assert peak < 5_000_000, peak
