"""Every folder under fixtures/sdk-pins/ is a CM201 case: a small project of dependency files.

A file's expected findings are marked in the file where its format allows comments:
`# expect: CODE` on the line where the finding starts, `# expect^N: CODE` for the line N above
(a requirement continued over several lines can only carry a comment on its last one). Formats
without comments (or where a comment would change a value, as in `setup.cfg`) use a sidecar
`<file>.expect` with one `LINE CODE` per line. `<file>.fixed` is the golden output of `fix`; no
golden means `fix` must leave the file as it is. A case's `claude-migrate.toml` is its policy.

For every case: exactly the expected findings (CM201 and CM001, by file and line); `fix` output
equals the goldens byte for byte; every fixed file still parses (tomllib, json, configparser,
packaging, LibCST) and reads with no new problem; nothing fixable is left; a second `fix`
changes nothing.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import sys
from pathlib import Path

import libcst as cst
import pytest
from helpers import FIXTURES, snapshot
from packaging.requirements import Requirement

from claude_migrate.api import collect_jobs, execute
from claude_migrate.core.job import Options
from claude_migrate.discovery.collect import kind_of
from claude_migrate.manifests import format_of, read_text
from claude_migrate.manifests.requirement import alternatives
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.report import Run

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES = FIXTURES / "sdk-pins"
EXPECT = re.compile(r"#\s*expect(?:\^(?P<up>\d+))?:\s*(?P<codes>[A-Z0-9, ]+)")
SIDECARS = (".fixed", ".expect")


def cases() -> list[Path]:
    return sorted(p for p in CASES.iterdir() if p.is_dir())


def checked_files(root: Path) -> list[Path]:
    """Return the files of a case the tool reads (manifests and Python files), sidecars excluded."""
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and not p.name.endswith(SIDECARS) and kind_of(p) is not None
    )


def expected(root: Path) -> set[tuple[str, int, str]]:
    found: set[tuple[str, int, str]] = set()
    for path in checked_files(root):
        rel = path.relative_to(root).as_posix()
        sidecar = path.with_name(path.name + ".expect")
        if sidecar.is_file():
            for row in sidecar.read_text(encoding="utf-8").splitlines():
                if row.strip() and not row.startswith("#"):
                    line, code = row.split()
                    found.add((rel, int(line), code))
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = EXPECT.search(line)
            if match:
                target = number - int(match.group("up") or 0)
                for code in re.split(r"[,\s]+", match.group("codes").strip()):
                    if code:
                        found.add((rel, target, code))
    return found


def run_case(root: Path, fix: bool) -> Run:
    jobs = collect_jobs([root], PolicyLoader(), ["CM201"])
    return execute(jobs, Options(fix=fix), workers=1)


def _rel(display: str, root: Path) -> str:
    return Path(os.path.abspath(display)).relative_to(root.resolve()).as_posix()


def findings(run: Run, root: Path) -> set[tuple[str, int, str]]:
    found = {(_rel(d.path, root), d.line, d.code) for d in run.diagnostics}
    found |= {(_rel(e.path, root), e.line or 0, e.code) for e in run.errors}
    return found


def assert_still_parses(path: Path, original_problems: set[str]) -> None:
    """Assert a fixed file is valid for its format's own parser, and every requirement in it too."""
    text = path.read_bytes().decode("utf-8-sig")
    fmt = format_of(path)
    if path.name == "setup.py":
        cst.parse_module(text)
        return  # its requirement strings are re-read below through the CLI's second run
    if fmt in ("pyproject", "pipfile", "toml-lock"):
        tomllib.loads(text)
    elif fmt == "pipfile-lock":
        json.loads(text)
    elif fmt == "setup-cfg":
        configparser.RawConfigParser().read_string(text)
    pins, problems = read_text(fmt or "", text, path.name)
    assert {p.message for p in problems} <= original_problems, problems
    for pin in pins:
        raw = text[pin.start : pin.end]
        if fmt == "requirements" or fmt == "setup-cfg":
            Requirement(re.sub(r"\\\r?\n", "", raw))
        elif fmt == "pyproject" and raw[:1] in "\"'":
            Requirement(tomllib.loads(f"x = {raw}")["x"])
        if pin.syntax != "locked":
            alternatives(pin.spec, pin.syntax)


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_case_reports_exactly_the_marked_lines(case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(case)
    found = findings(run_case(case, fix=False), case)
    assert found == expected(case)


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_case_fix_matches_goldens_parses_and_settles(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / case.name
    shutil.copytree(case, work)
    monkeypatch.chdir(work)
    before = {
        p: {
            x.message
            for x in read_text(format_of(p) or "", p.read_bytes().decode("utf-8-sig"), p.name)[1]
        }
        for p in checked_files(work)
        if format_of(p)
    }
    first = run_case(work, fix=True)
    assert all(d.fix is None for d in first.diagnostics), "a fixable finding was left"
    for path in checked_files(work):
        golden = case / (path.relative_to(work).as_posix() + ".fixed")
        original = (case / path.relative_to(work)).read_bytes()
        if golden.is_file():
            assert path.read_bytes() == golden.read_bytes(), f"{path.name} differs from its golden"
        else:
            assert path.read_bytes() == original, f"{path.name} has no golden and must not change"
        assert_still_parses(path, before.get(path, set()))
    fixed = snapshot(work)
    second = run_case(work, fix=True)
    assert snapshot(work) == fixed, "a second fix changed a file"
    assert second.fixed == 0
