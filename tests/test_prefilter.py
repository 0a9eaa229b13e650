"""The text prefilter never drops a file with a finding, and spares LibCST every other file.

Every fixture is read the way the fixture harnesses read it (`# expect: CODE` markers,
`# expect^N: CODE`, or a `<file>.expect` sidecar of `LINE CODE` rows), found by walking all of
`fixtures/`, so cases added later (new rules, new client families, dependency files) are covered
without touching this module.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from helpers import FIXTURES, marked_lines, run_subprocess, write_tree

from claude_migrate.api import collect_jobs, execute
from claude_migrate.checks import CHECKS_BY_CODE, CHECKS_BY_NAME
from claude_migrate.core.job import Options
from claude_migrate.core.settings import FileSettings
from claude_migrate.discovery.collect import kind_of
from claude_migrate.engine import runner as engine
from claude_migrate.engine.runner import PARSE, SKIP, prefilter
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.project.phase import attach_project

# `helpers.marked_lines` reads `# expect: CODE`; dependency files also say `# expect^N: CODE`
# (the line N above) where a comment cannot stand on the finding's own line.
EXPECT_ABOVE = re.compile(r"#\s*expect\^\d+:\s*([A-Z0-9, ]+)")
SIDECARS = (".fixed", ".expect")


def fixture_files() -> list[Path]:
    return sorted(
        p
        for p in FIXTURES.rglob("*")
        if p.is_file()
        and ".fixed." not in p.name
        and not p.name.endswith(SIDECARS)
        and kind_of(p) is not None
    )


def expected_codes(path: Path) -> set[str]:
    codes: set[str] = set()
    sidecar = path.with_name(path.name + ".expect")
    if sidecar.is_file():
        for row in sidecar.read_text(encoding="utf-8").splitlines():
            if row.strip() and not row.startswith("#"):
                codes.add(row.split()[1])
        return codes
    codes.update(code for _, code in marked_lines(path))
    for line in path.read_text(encoding="utf-8").splitlines():
        match = EXPECT_ABOVE.search(line)
        if match:
            codes.update(c for c in re.split(r"[,\s]+", match.group(1).strip()) if c)
    return codes


def with_findings() -> list[Path]:
    return [p for p in fixture_files() if expected_codes(p)]


def _loader(path: Path) -> PolicyLoader:
    """The fixture harness's policy: `<case>.toml` beside a Python case, else the nearest."""
    config = path.with_suffix(".toml")
    use = path.suffix == ".py" and config.is_file()
    return PolicyLoader(config if use else None)


def harness_selection(path: Path) -> list[str] | None:
    """The rules the fixture harness runs a case with: its folder's rule, or all of them."""
    folder = path.relative_to(FIXTURES).parts[0]
    return [CHECKS_BY_NAME[folder].code] if folder in CHECKS_BY_NAME else None


def settings(path: Path, select: list[str] | None) -> FileSettings:
    return _loader(path).for_path(path).settings_for(path, select)


def test_the_fixtures_hold_findings_to_test_against() -> None:
    assert len(with_findings()) >= 10


@pytest.mark.parametrize("case", with_findings(), ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_every_fixture_with_a_finding_is_parsed(case: Path) -> None:
    data = case.read_bytes()
    kind = kind_of(case)
    assert kind is not None
    # Under the harness's own selection, and under each expected rule alone: the rule that
    # reports the finding must by itself let the file through to the parse.
    plain = prefilter(data, settings(case, harness_selection(case)), kind, str(case))
    project = _project_verdict(case)
    if plain != PARSE and project == PARSE:
        return  # a module that never names Claude, parsed for what the project phase found
    assert plain == PARSE
    for code in expected_codes(case) & set(CHECKS_BY_CODE):
        # A value passed to a project wrapper under a name of its own (`budget=4096`) has no
        # marker of the rule: the project phase lets the file through.
        verdict = prefilter(data, settings(case, [code]), kind, str(case))
        assert verdict == PARSE or project == PARSE, code


def _project_verdict(case: Path) -> int | None:
    """Return the engine's verdict for a file of a `project-*` fixture, with its project view.

    Such a file may call a wrapper of another module and never name Claude itself: the project
    phase, not the text prefilter, is what lets it through. None for any other fixture.
    """
    folder = case.relative_to(FIXTURES).parts[0]
    if not folder.startswith("project-"):
        return None
    root = FIXTURES / folder
    files = sorted(p for p in root.rglob("*.py") if ".fixed." not in p.name)
    jobs = attach_project(collect_jobs(files, _loader(case), None))
    (job,) = [j for j in jobs if Path(j.path) == case]
    return engine._verdict(job, case.read_bytes())


def _results(path: Path, select: list[str] | None, fix: bool) -> list[tuple[object, ...]]:
    jobs = collect_jobs([path], _loader(path), select)
    run = execute(jobs, Options(fix=fix, unsafe=True, write=False, keep_text=True), workers=1)
    return [(r.path, r.diagnostics, r.errors, r.fixed_text) for r in run.results]


@pytest.mark.parametrize("case", fixture_files(), ids=lambda p: p.relative_to(FIXTURES).as_posix())
def test_prefilter_changes_no_result_of_any_fixture(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = []
    for fix in (False, True):
        for select in {None: None, "own": harness_selection(case)}.values():
            runs.append(_results(case, select, fix))
    monkeypatch.setattr(engine, "prefilter", lambda data, settings, kind, path="": PARSE)
    unfiltered = []
    for fix in (False, True):
        for select in {None: None, "own": harness_selection(case)}.values():
            unfiltered.append(_results(case, select, fix))
    assert runs == unfiltered


# The two stages on files made for them ----------------------------------------------------------

CALL = """import anthropic

client = anthropic.Anthropic()
client.messages.create(model="claude-sonnet-4-5", messages=[]{extra})
"""


def _parsed(tmp_path: Path, text: str, select: list[str] | None) -> tuple[bool, object]:
    path = write_tree(tmp_path, {"app.py": text}) / "app.py"
    run = execute(collect_jobs([path], PolicyLoader(), select), Options(), workers=1)
    (result,) = run.results
    return result.parsed, [(d.code, d.line) for d in run.diagnostics] + [
        (e.code, e.line) for e in run.errors
    ]


def test_a_file_without_any_marker_is_not_parsed(tmp_path: Path) -> None:
    assert _parsed(tmp_path, "import openai\nopenai.chat(temperature=0.9)\n", None) == (False, [])


def test_a_claude_file_without_a_parameter_the_policy_reads_is_not_parsed(tmp_path: Path) -> None:
    assert _parsed(tmp_path, CALL.format(extra=""), ["CM101", "CM102"]) == (False, [])


def test_the_same_file_with_the_parameter_is_parsed_and_reported(tmp_path: Path) -> None:
    parsed, found = _parsed(
        tmp_path, CALL.format(extra=", temperature=0.9, max_tokens=9"), ["CM101"]
    )
    assert parsed and found == [("CM101", 4)]


def test_a_broken_claude_file_is_reported_even_when_no_parameter_is_named(tmp_path: Path) -> None:
    parsed, found = _parsed(tmp_path, "import anthropic\ndef f(:\n", ["CM101"])
    assert not parsed and found == [("CM001", 2)]


def test_a_broken_file_without_markers_is_skipped(tmp_path: Path) -> None:
    assert _parsed(tmp_path, "def f(:\n", None) == (False, [])


HASHING = "import hashlib\nkey = hashlib.sha256(b'x').hexdigest()\n"


def test_a_broken_file_that_only_hashes_is_skipped_like_one_without_markers(
    tmp_path: Path,
) -> None:
    # `digest(` is CM106's marker, but no cache word confirms it: no rule can report here, and
    # a file that does not name Claude is not compiled just to report its syntax.
    data = (HASHING + "def f(:\n").encode()
    assert prefilter(data, settings(tmp_path / "x.py", None), "python") == SKIP
    assert _parsed(tmp_path, HASHING + "def f(:\n", None) == (False, [])


def test_a_broken_claude_file_that_hashes_is_still_reported(tmp_path: Path) -> None:
    parsed, found = _parsed(tmp_path, "import anthropic\n" + HASHING + "def f(:\n", None)
    assert not parsed and found == [("CM001", 4)]


def test_a_policy_without_rules_for_a_kind_skips_every_file(tmp_path: Path) -> None:
    data = CALL.format(extra=", temperature=0.9").encode()
    assert prefilter(data, settings(tmp_path / "x.py", ["CM001"]), "python") == SKIP


def test_checking_a_file_without_claude_never_imports_libcst(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"plain.py": "import os\nprint(os.getcwd())\n"})
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")  # `python -X importtime`
    result = run_subprocess("check", "plain.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "claude_migrate.engine.runner" in result.stderr  # the import log is there...
    assert "libcst" not in result.stderr  # ...and LibCST is not in it


def test_checking_a_claude_file_imports_libcst(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, {"app.py": CALL.format(extra=", temperature=0.9")})
    monkeypatch.setenv("PYTHONPROFILEIMPORTTIME", "1")
    result = run_subprocess("check", "--no-cache", "app.py", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert "libcst" in result.stderr


def test_policy_is_built_once_per_config_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {
        f"pkg{i}/sub{j}/m{k}.py": "x = 1\n" for i in range(4) for j in range(3) for k in range(3)
    }
    files["claude-migrate.toml"] = "[temperature]\nmax = 0.5\n"
    files["pkg3/claude-migrate.toml"] = "[temperature]\nmax = 0.7\n"
    write_tree(tmp_path, files)
    built: list[str] = []
    original = PolicyLoader._build

    def counting(self: PolicyLoader, raw, *rest):  # type: ignore[no-untyped-def]
        built.append(raw.path)
        return original(self, raw, *rest)

    monkeypatch.setattr(PolicyLoader, "_build", counting)
    loader = PolicyLoader(cwd=tmp_path)
    jobs = collect_jobs([tmp_path], loader)
    assert len(jobs) == 36
    assert len(built) == 2
    assert len({id(job.settings) for job in jobs}) == 2  # and settings shared, not rebuilt


def test_lazy_libcst_is_the_real_module_once_used() -> None:
    import libcst

    from claude_migrate.analysis import calls

    assert calls.cst is libcst or sys.modules["libcst"] is calls.cst
    assert calls.cst.Name is libcst.Name


def test_a_large_run_naming_claude_nowhere_spares_the_prefilter_a_second_look(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The project phase looks at every file of a large run for a Claude name before anything
    # else; when none holds one, the prefilter is told so and looks only for the other markers
    # (CM106's `digest(`), with the same verdicts as a run without the phase.
    from claude_migrate.project import phase

    files = {
        f"pkg/m{i}.py": f"import hashlib\nX = hashlib.sha256(b'{i}').hexdigest()\n"
        for i in range(phase.DISK_READ_FILES + 1)
    }
    files["pkg/broken.py"] = HASHING + "def f(:\n"
    files["pkg/cache.py"] = (FIXTURES / "demo" / "app" / "cache.py").read_text(encoding="utf-8")
    root = write_tree(tmp_path, files)
    told: dict[str, bool] = {}
    real = engine.prefilter

    def spy(
        data: bytes, settings: FileSettings, kind: str, path: str = "", unnamed: bool = False
    ) -> int:
        told[path] = told.get(path, False) or unnamed  # a file parsed is asked again, untold
        return real(data, settings, kind, path, unnamed=unnamed)

    monkeypatch.setattr(engine, "prefilter", spy)

    def found() -> list[tuple[str, str, int]]:
        run = execute(collect_jobs([root], PolicyLoader(), None), Options(), workers=1)
        return sorted((d.path, d.code, d.line) for d in [*run.diagnostics, *run.errors])

    with_phase = found()
    python = {str(root / name) for name in files}
    assert python <= set(told) and all(told[path] for path in python)
    told.clear()
    monkeypatch.setenv("CLAUDE_MIGRATE_PROJECT", "0")
    assert found() == with_phase
    assert python <= set(told) and not any(told.values())
