"""Hostile input sized to exhaust the tool: every cost stays linear and every input is capped.

Each case builds the shape that grew without bound (a name rebound from itself hundreds of
times, thousands of declared call sites, a huge file, a language-server document that never
ends, a report that is a FIFO) and asserts the run ends quickly with the answer or a clear
message.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from helpers import write_tree
from test_inputs import run_cm


def _rebinding(count: int) -> str:
    lines = ["import anthropic", "client = anthropic.Anthropic()"]
    for i in range(count):
        lines.append(f"client = client.with_options(timeout={i + 1})")
        lines.append(
            f"r{i} = client.messages.create(model='claude-sonnet-4-5', max_tokens=100,"
            f" temperature=0.{i % 9}, messages=[])"
        )
    return "\n".join(lines) + "\n"


def test_a_name_rebound_from_itself_400_times_is_checked_in_linear_time(tmp_path: Path) -> None:
    source = _rebinding(400)
    assert len(source) > 50_000
    write_tree(tmp_path, {"app.py": source})
    started = time.monotonic()
    proc = run_cm(
        "check", "--no-cache", "--file-timeout", "20", "--format", "json", ".", cwd=tmp_path
    )
    elapsed = time.monotonic() - started
    report = json.loads(proc.stdout)
    assert proc.returncode in (0, 1), proc.stderr
    assert not [e for e in report.get("errors", [])], report
    assert elapsed < 20, elapsed


def test_8000_declared_call_sites_load_without_rescanning_the_policy_per_entry(
    tmp_path: Path,
) -> None:
    entries = "".join(
        f'[[call-sites]]\nfunction = "acme.ask{i}"\nmodel = "model_name"\n\n' for i in range(8000)
    )
    write_tree(
        tmp_path,
        {
            "claude-migrate.toml": entries,
            "app.py": "from acme import ask7999\nask7999(model_name='claude-2.1')\n",
        },
    )
    started = time.monotonic()
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    elapsed = time.monotonic() - started
    assert proc.returncode == 1, proc.stderr
    codes = [d["code"] for d in json.loads(proc.stdout)["diagnostics"]]
    assert codes == ["CM302"], codes
    assert elapsed < 12, elapsed
