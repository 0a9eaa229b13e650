"""Files CPython's parser settles are decided in the run's main process, with the same result.

A file whose markers no enabled rule confirms and that compiles, or one without a candidate site
(the ast triage), needs no LibCST: `engine.run` settles it before any worker starts, reading the
triage's sites from the project phase's parse when the phase parsed the same text. These tests
hold it to the result `engine.process` gives the file on its own, and check that a run where
every file is settled that way starts no worker.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate.core.job import Job, Options
from claude_migrate.engine import runner as engine
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.project.triage import Sites, read_sites

# Builds and documents a client, calls nothing: no candidate site (the triage rejects it).
NO_CANDIDATE = '''"""Our Anthropic client: callers use `client.messages.create(...)`."""
import anthropic


def make_client() -> anthropic.Anthropic:
    return anthropic.Anthropic(max_retries=3)
'''
# Names Claude and passes no parameter any rule reads: the prefilter's SYNTAX_ONLY.
MARKER_ONLY = 'MODEL_FAMILY = "claude"\n'
BROKEN = 'MODEL_FAMILY = "claude"\ndef (:\n'
CALLS = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    'client.messages.create(model="claude-sonnet-4-5", max_tokens=10, temperature=0.9,'
    " messages=[])\n"
)


def _jobs(root: Path) -> list[Job]:
    loader = PolicyLoader(cwd=root)
    return [
        Job(str(path), path.name, "python", loader.for_path(path).settings_for(path))
        for path in sorted(root.glob("*.py"))
    ]


def _outcome(results: list[engine.FileResult]) -> list[tuple[str, list[str], list[str]]]:
    return [
        (
            r.path,
            [f"{d.code}:{d.line}:{d.column}" for d in r.diagnostics],
            [e.message for e in r.errors],
        )
        for r in results
    ]


def _no_pool(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    started: list[int] = []
    real = engine.run_in_workers

    def counting(func, items, *args, **kwargs):  # type: ignore[no-untyped-def]
        started.append(len(items))
        return real(func, items, *args, **kwargs)

    monkeypatch.setattr(engine, "run_in_workers", counting)
    return started


def test_a_run_whose_files_cpython_settles_starts_no_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"client_{i}.py": NO_CANDIDATE for i in range(10)}
    files.update({f"names_{i}.py": MARKER_ONLY for i in range(10)})
    root = write_tree(tmp_path, files)
    started = _no_pool(monkeypatch)
    results = engine.run(_jobs(root), Options(), workers=2)
    assert sum(started) == 0, "a worker was started for files that need no LibCST"
    assert len(results) == 20
    alone = [engine.process(job, Options()) for job in _jobs(root)]
    assert _outcome(results) == _outcome(alone)
    assert not any(r.parsed for r in results)


def test_files_that_need_libcst_still_go_to_workers_with_the_same_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {f"calls_{i}.py": CALLS for i in range(14)}
    files.update({f"client_{i}.py": NO_CANDIDATE for i in range(6)})
    files["broken.py"] = BROKEN
    root = write_tree(tmp_path, files)
    started = _no_pool(monkeypatch)
    results = engine.run(_jobs(root), Options(), workers=2)
    # The 14 calling files and the one Python cannot parse (LibCST words its error).
    assert sum(started) == 15
    alone = [engine.process(job, Options()) for job in _jobs(root)]
    assert _outcome(results) == _outcome(alone)
    broken = next(r for r in results if r.path == "broken.py")
    assert [(e.code, e.line) for e in broken.errors] == [("CM001", 2)]
    assert all(r.diagnostics for r in results if r.path.startswith("calls_"))


def test_a_coding_cookie_keeps_the_phase_reading_from_deciding(tmp_path: Path) -> None:
    # UTF-8 bytes read as Latin-1 by their cookie: the project phase (UTF-8) and the file phase
    # (the cookie) see different texts, so the phase's sites are not used for the file.
    text = "# -*- coding: latin-1 -*-\n# caf\u00e9\n" + CALLS
    root = tmp_path / "tree"
    root.mkdir()
    (root / "cookie.py").write_bytes(text.encode("utf-8"))
    (root / "other.py").write_text(CALLS, encoding="utf-8")
    results = engine.run(_jobs(root), Options(), workers=1)
    alone = [engine.process(job, Options()) for job in _jobs(root)]
    assert _outcome(results) == _outcome(alone)
    assert results[0].diagnostics


def test_sites_survive_their_json_form() -> None:
    for source in (
        NO_CANDIDATE,
        CALLS,
        MARKER_ONLY,
        "import hashlib\nkey = hashlib.sha256(b'prompt').hexdigest()\ncache = {}\ncache[key] = 1\n",
    ):
        sites = read_sites(ast.parse(source), source)
        assert Sites.from_json(json.loads(json.dumps(sites.to_json()))) == sites


@pytest.mark.parametrize(
    "stored",
    [
        None,
        [],
        "sites",
        [[]] * 8,
        [["a"], ["b"], [], [], [["x"]], [], [], None],
        [[1], [], [], [], [], [], [], None],
        [[], [], [], [], [], [], [], "yes"],
        {"attr_calls": []},
    ],
    ids=repr,
)
def test_a_malformed_stored_reading_is_refused(stored: object) -> None:
    assert Sites.from_json(stored) is None


# CPython's parser in the main process: pathological shapes end in an exception, never a crash.
SHAPES = {
    "100k not": "x = " + "not " * 100_000 + "y\n",
    "100k terms": "x = " + "+".join(["a"] * 100_000) + "\n",
    "5,000 parentheses": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
    "50k conditionals": "x = " + "a if b else " * 50_000 + "a\n",
    "50k lambdas": "x = " + "lambda: " * 50_000 + "1\n",
    "50k subscripts": "x = a" + "[0]" * 50_000 + "\n",
}
SETTLE = """
import sys
from pathlib import Path
from claude_migrate.engine import runner as engine
from claude_migrate.policy.config import PolicyLoader
path = Path(sys.argv[1])
settings = PolicyLoader(cwd=path.parent).for_path(path).settings_for(path)
job = engine.Job(str(path), path.name, "python", settings)
data = path.read_bytes()
settled = engine.settle_without_libcst(job, data, engine._verdict(job, data))
print("settled" if isinstance(settled, engine.FileResult) else f"to LibCST ({settled})")
"""


@pytest.mark.parametrize("shape", list(SHAPES), ids=list(SHAPES))
@pytest.mark.parametrize("head", ["MODEL = 'claude'\n", CALLS], ids=["marker only", "calls"])
def test_cpython_answers_pathological_files_in_the_main_process(
    tmp_path: Path, shape: str, head: str
) -> None:
    path = tmp_path / "deep.py"
    path.write_text(head + SHAPES[shape], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-I", "-c", SETTLE, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr[-2000:]
    # None of these parses: each goes on to a worker, where LibCST words its CM001.
    assert done.stdout.strip() == "to LibCST (False)", done.stdout


def test_each_file_is_decoded_as_python_reads_it_once_per_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project phase's scans and the prefilter read the same bytes as Python reads them
    # (the cookie, NFKC identifiers): computed once for a file that names nothing of Claude's
    # (nearly every file of a tree), not once per reader.
    from claude_migrate.api import collect_jobs
    from claude_migrate.core import source
    from claude_migrate.policy.config import PolicyLoader
    from claude_migrate.project import phase

    files = {f"client_{i}.py": NO_CANDIDATE for i in range(4)}
    files.update({f"calls_{i}.py": CALLS for i in range(3)})
    plain = "import os\nprint(os.sep)\n"
    files.update({f"plain_{i}.py": plain for i in range(600)})
    files["latin.py"] = "# -*- coding: latin-1 -*-\n# caf\u00e9\n" + CALLS
    root = tmp_path / "tree"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_bytes(text.encode("latin-1" if name == "latin.py" else "utf-8"))
    decoded: list[bytes] = []

    def counting(data: bytes) -> bytes:
        decoded.append(data)
        return source.as_python_reads(data)

    monkeypatch.setattr(phase, "as_python_reads", counting)
    monkeypatch.setattr(engine, "as_python_reads", counting)
    jobs = collect_jobs([root], PolicyLoader(cwd=root))
    results = engine.run(jobs, Options(), workers=1)
    assert len(results) == len(files)
    found = {Path(r.path).name for r in results if r.diagnostics}
    assert found == {name for name in files if name.startswith(("calls_", "latin"))}
    assert decoded.count(plain.encode()) == 600
