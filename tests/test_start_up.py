"""A check of Python files loads only what it uses; the rest is imported by the run that needs it.

Importing is most of a pre-commit hook's time on one file (bench/README.md, the "one file"
row), and every worker process pays it again. These tests run a real check in a fresh
interpreter and read `sys.modules` afterwards: no timing, so nothing here can be flaky.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import SRC, write_tree

# Imported only where needed: dependency files (packaging's requirement parser), folders walked
# with `.gitignore` files or policy globs (pathspec), worker processes, file writes, diffs,
# baselines, shards, fix reports and the commands other than `check`/`fix`.
DEFERRED = (
    "packaging.requirements",
    "packaging.specifiers",
    "packaging.utils",
    "pathspec",
    "multiprocessing",
    "tempfile",
    "difflib",
    "claude_migrate.manifests.requirement",
    "claude_migrate.engine.baseline",
    "claude_migrate.discovery.shard",
    "claude_migrate.report.fixes",
    "claude_migrate.policy.catalogue",
    "claude_migrate.policy.view",
    "claude_migrate.policy.starter",
)

RUN = """
import json, sys
from claude_migrate.cli import main
try:
    main(["check", "--no-cache", "--quiet", sys.argv[1]])
except SystemExit as stop:
    code = stop.code
print(json.dumps({"code": code, "modules": sorted(sys.modules)}))
"""

CLAUDE = """\
import anthropic

client = anthropic.Anthropic()
reply = client.messages.create(
    model="claude-sonnet-4-5", max_tokens=512, temperature=0.9, messages=[]
)
"""


def loaded_by_check(folder: Path, name: str) -> tuple[int, set[str]]:
    """Return the exit code of `check NAME` in a fresh interpreter, and every module it loaded."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    done = subprocess.run(
        [sys.executable, "-c", RUN, name],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    answer = json.loads(done.stdout.splitlines()[-1])
    return answer["code"], set(answer["modules"])


def deferred_in(modules: set[str]) -> list[str]:
    """Return the modules (or submodules) of `DEFERRED` among `modules`."""
    return sorted(m for m in modules if any(m == d or m.startswith(d + ".") for d in DEFERRED))


def test_checking_a_claude_file_loads_none_of_the_deferred_modules(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": CLAUDE})
    code, modules = loaded_by_check(tmp_path, "app.py")
    assert code == 1  # CM101 found: the rules really ran over the file...
    assert "libcst" in modules  # ...on its LibCST tree
    assert deferred_in(modules) == []


def test_checking_a_dependency_file_loads_the_requirement_parser(tmp_path: Path) -> None:
    # The other side of the test above: the deferred modules still load when they are needed.
    write_tree(tmp_path, {"requirements.txt": "anthropic==0.20.0\n"})
    code, modules = loaded_by_check(tmp_path, "requirements.txt")
    assert code == 1  # CM201: 0.20.0 is below the default minimum
    assert {"claude_migrate.manifests.requirement", "packaging.requirements"} <= modules
