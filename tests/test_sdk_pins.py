"""CM201's decision and fix on constraints, and how the rule sits in the engine and the policy."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import write_tree

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib
from hypothesis import example, given, settings
from hypothesis import strategies as st
from packaging.specifiers import SpecifierSet
from packaging.version import Version

from claude_migrate.analysis.edits import apply_edits
from claude_migrate.api import collect_jobs, execute
from claude_migrate.core.job import Job, Options
from claude_migrate.discovery.collect import kind_of
from claude_migrate.engine.runner import passes_prefilter, process
from claude_migrate.manifests import format_of
from claude_migrate.manifests.requirement import (
    PEP440,
    POETRY,
    alternatives,
    constraint_admits_below,
    raise_constraint,
)
from claude_migrate.policy.config import PolicyLoader

MIN = "0.32.1"


# The decision ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "syntax"),
    [
        ("==0.28.0", PEP440),
        (">=0.20,<0.30", PEP440),
        ("~=0.25.0", PEP440),
        ("<1.0", PEP440),
        ("!=0.31.0", PEP440),
        (">0.32.0", PEP440),
        ("==0.32.*", PEP440),
        (">=0.32.1rc1", PEP440),
        ("^0.18.0", POETRY),
        ("~0.32", POETRY),
        ("0.28.0", POETRY),
        (">=0.20 <0.30", POETRY),
        ("^0.40 || ^0.20", POETRY),
    ],
)
def test_constraint_admitting_an_older_version_is_reported(spec: str, syntax: str) -> None:
    assert constraint_admits_below(spec, syntax, Version(MIN))


@pytest.mark.parametrize(
    ("spec", "syntax"),
    [
        ("", PEP440),
        (">=0.32.1", PEP440),
        ("==0.32.1", PEP440),
        ("~=0.32.1", PEP440),
        (">=0.33,<1", PEP440),
        ("==0.40.*", PEP440),
        ("*", POETRY),
        ("^0.32.1", POETRY),
        ("^0.33", POETRY),
        ("0.32.1", POETRY),
        ("^0.33 || ^1.0", POETRY),
    ],
)
def test_bare_or_satisfying_constraint_is_fine(spec: str, syntax: str) -> None:
    assert not constraint_admits_below(spec, syntax, Version(MIN))


@pytest.mark.parametrize(
    ("spec", "syntax", "raised"),
    [
        ("==0.28.0", PEP440, "==0.32.1"),
        (">=0.20,<0.30", PEP440, ">=0.32.1"),
        (">=0.20,<1.0", PEP440, ">=0.32.1,<1.0"),
        (">=0.20, <1.0", PEP440, ">=0.32.1, <1.0"),
        (" >= 0.20 , < 0.30 ", PEP440, " >= 0.32.1 "),
        ("~=0.25.0", PEP440, "~=0.32.1"),
        ("<1.0", PEP440, ">=0.32.1,<1.0"),
        ("<0.30", PEP440, ">=0.32.1"),
        ("!=0.28.0,>=0.20", PEP440, "!=0.28.0,>=0.32.1"),
        ("!=0.32.1,>=0.20", PEP440, ">=0.32.1"),
        (">0.20", PEP440, ">=0.32.1"),
        (">=0.20,>=0.25", PEP440, ">=0.32.1"),
        ("==0.28.*", PEP440, "~=0.32.1"),
        ("^0.18.0", POETRY, "^0.32.1"),
        ("~0.25", POETRY, "~0.32.1"),
        ("0.28.0", POETRY, "0.32.1"),
        ("=0.28.0", POETRY, "=0.32.1"),
        (">=0.20 <0.30", POETRY, ">=0.32.1"),
        (">=0.20,<2", POETRY, ">=0.32.1,<2"),
        ("<1", POETRY, ">=0.32.1, <1"),
    ],
)
def test_fix_raises_to_the_minimum_keeping_the_style(spec: str, syntax: str, raised: str) -> None:
    assert raise_constraint(spec, syntax, MIN) == raised


@pytest.mark.parametrize(
    ("spec", "raised"),
    [
        ("^0.20 || ^0.40", "^0.32.1 || ^0.40"),
        ("^0.20||^0.40", "^0.32.1||^0.40"),
        (">=0.10 || ^0.40", ">=0.32.1 || ^0.40"),
        ("0.20.0 | 0.40.0", "0.32.1 | 0.40.0"),
        ("^0.20 || >=0.10,<0.25", "^0.32.1 || >=0.32.1"),
    ],
)
def test_poetry_union_is_raised_alternative_by_alternative(spec: str, raised: str) -> None:
    assert constraint_admits_below(spec, POETRY, Version(MIN))
    assert raise_constraint(spec, POETRY, MIN) == raised
    assert not constraint_admits_below(raised, POETRY, Version(MIN))


def test_poetry_union_with_an_alternative_admitting_anything_gets_no_fix() -> None:
    assert constraint_admits_below("* || ^0.20", POETRY, Version(MIN))
    assert raise_constraint("* || ^0.20", POETRY, MIN) is None


# Properties over generated constraints --------------------------------------------------------

small_versions = st.lists(st.integers(0, 4), min_size=1, max_size=3).map(
    lambda parts: ".".join(map(str, parts))
)
ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "~="])


@st.composite
def pep440_specs(draw: st.DrawFn) -> str:
    clauses = []
    for _ in range(draw(st.integers(1, 3))):
        op = draw(ops)
        version = draw(small_versions)
        if op == "~=" and "." not in version:
            version += ".0"
        clauses.append(op + version)
    return ",".join(clauses)


GRID = [
    Version(".".join(map(str, parts)))
    for parts in (
        [(a,) for a in range(6)]
        + [(a, b) for a in range(6) for b in range(6)]
        + [(a, b, c) for a in range(6) for b in range(6) for c in range(6)]
    )
]


@settings(max_examples=300, deadline=None)
@given(spec=pep440_specs(), minimum=small_versions)
# A witness only a fourth component gives (4.4.4.0.1), and a spec that admits nothing below.
@example(spec=">4.4.4,<4.4.5", minimum="5")
@example(spec=">=3", minimum="2")
def test_decision_agrees_with_brute_force_over_small_versions(spec: str, minimum: str) -> None:
    floor = Version(minimum)
    specifiers = SpecifierSet(spec)
    witnessed = any(v < floor and specifiers.contains(v, prereleases=True) for v in GRID)
    decided = constraint_admits_below(spec, PEP440, floor)
    if witnessed:
        assert decided, f"{spec} admits a version below {minimum}"
    elif decided:
        # No false positives: a reported spec has a witness, if not on the grid then among the
        # versions next to its own bounds (a fourth component, pre-, post- and dev-releases).
        near = _versions_near([c.version for c in specifiers] + [minimum])
        assert any(v < floor and specifiers.contains(v, prereleases=True) for v in near), (
            f"{spec} is reported as admitting a version below {minimum}, but admits none"
        )


def _versions_near(bounds: list[str]) -> list[Version]:
    """Return versions just around each bound, where a witness the grid misses would be."""
    found = []
    for bound in bounds:
        base = Version(bound).base_version
        for text in (
            base,
            f"{base}.0.1",
            f"{base}.1",
            f"{base}.post1",
            f"{base}.dev0",
            f"{base}a1",
            f"{base}.0.0.1",
        ):
            found.append(Version(text))
        parts = [int(p) for p in base.split(".")]
        for i, part in enumerate(parts):
            if part:
                lower = [*parts[:i], part - 1]
                found += [
                    Version(".".join(map(str, lower))),
                    Version(".".join(map(str, lower)) + ".9"),
                ]
    return found


@settings(max_examples=300, deadline=None)
@given(spec=pep440_specs(), minimum=small_versions)
def test_raised_constraint_admits_the_minimum_and_nothing_below(spec: str, minimum: str) -> None:
    floor = Version(minimum)
    if not constraint_admits_below(spec, PEP440, floor):
        return
    raised = raise_constraint(spec, PEP440, minimum)
    assert raised is not None, f"no fix for {spec}"
    (specifiers,) = alternatives(raised, PEP440)
    assert specifiers.contains(floor, prereleases=True)
    assert not any(v < floor and specifiers.contains(v, prereleases=True) for v in GRID)
    assert not constraint_admits_below(raised, PEP440, floor)


# Files, kinds and the prefilter ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "requirements.txt",
        "requirements-dev.txt",
        "dev-requirements.txt",
        "requirements/base.txt",
        "requirements.in",
        "dev.in",
        "constraints.txt",
        "constraints-py310.txt",
        "pyproject.toml",
        "setup.cfg",
        "Pipfile",
        "Pipfile.lock",
        "poetry.lock",
        "uv.lock",
        "pdm.lock",
    ],
)
def test_discovery_classifies_dependency_files_as_manifests(name: str) -> None:
    assert kind_of(Path("project") / name) == "manifest"


@pytest.mark.parametrize(
    "name", ["MANIFEST.in", "Makefile.in", "config.h.in", "notes.txt", "setup.py"]
)
def test_other_files_are_not_manifests(name: str) -> None:
    assert format_of(name) is None


def _job(root: Path, name: str, select: list[str] | None = None) -> Job:
    (job,) = collect_jobs([root / name], PolicyLoader(), select)
    return job


def test_manifest_passes_prefilter_only_when_it_names_a_package_of_the_minimums(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path, {"a/requirements.txt": "requests==1.0\n", "b/requirements.txt": "BOTO3<1\n"}
    )
    for folder, passes in (("a", False), ("b", True)):
        job = _job(tmp_path, f"{folder}/requirements.txt")
        data = Path(job.path).read_bytes()
        assert passes_prefilter(data, job.settings, job.kind, job.path) is passes


def test_prefilter_matches_every_spelling_of_a_package_name(tmp_path: Path) -> None:
    policy = '[sdk-pins.minimums]\nlangchain-anthropic = "0.2.0"\n'
    spellings = ["Langchain_Anthropic==0.1", "langchain.anthropic==0.1", "LANGCHAIN-ANTHROPIC==0.1"]
    for index, line in enumerate(spellings):
        write_tree(
            tmp_path / str(index), {"claude-migrate.toml": policy, "requirements.txt": line + "\n"}
        )
        job = _job(tmp_path / str(index), "requirements.txt")
        assert passes_prefilter(Path(job.path).read_bytes(), job.settings, job.kind, job.path)
        result = process(job, Options())
        assert [d.code for d in result.diagnostics] == ["CM201"], line


def test_python_file_mentioning_only_boto3_is_never_parsed(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": 'import boto3\nREQUIRES = ["boto3==1.0"]\n'})
    job = _job(tmp_path, "app.py")
    assert not passes_prefilter(Path(job.path).read_bytes(), job.settings, job.kind, job.path)
    assert not process(job, Options()).parsed


def test_setup_py_mentioning_only_boto3_is_checked_for_pins(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"setup.py": 'from setuptools import setup\nsetup(install_requires=["boto3==1.0"])\n'},
    )
    job = _job(tmp_path, "setup.py")
    assert job.kind == "python"
    result = process(job, Options())
    assert result.parsed
    assert [(d.code, d.line, d.column) for d in result.diagnostics] == [("CM201", 2, 25)]


def test_setup_py_still_gets_the_python_rules(tmp_path: Path) -> None:
    source = (
        "import anthropic\nfrom setuptools import setup\n"
        'client = anthropic.Anthropic()\nclient.messages.stream(model="m", max_tokens=10, '
        "messages=[], temperature=0.9)\n"
        'setup(install_requires=["anthropic==0.28.0"])\n'
    )
    write_tree(tmp_path, {"setup.py": source})
    result = process(_job(tmp_path, "setup.py"), Options())
    assert sorted(d.code for d in result.diagnostics) == ["CM101", "CM201"]


def test_malformed_requirement_is_a_cm001_for_its_line_and_the_rest_is_checked(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic==0.28.0\nanthropic>=>1\nboto3==1.0\n"})
    result = process(_job(tmp_path, "requirements.txt"), Options())
    assert [(e.code, e.line, e.column) for e in result.errors] == [("CM001", 2, 1)]
    assert "anthropic>=>1" in result.errors[0].message
    assert [d.line for d in result.diagnostics] == [1, 3]


def test_invalid_toml_is_a_cm001_naming_the_line(tmp_path: Path) -> None:
    # (A broken pyproject.toml is already a policy error, exit 2, since the policy loader reads it.)
    write_tree(tmp_path, {"Pipfile": '[packages]\nanthropic = ["==0.1"\nboto3 = "*"\n'})
    result = process(_job(tmp_path, "Pipfile"), Options())
    assert [(e.code, e.line) for e in result.errors] == [("CM001", 3)]
    assert result.errors[0].message.startswith("invalid TOML")


def test_noqa_comment_silences_a_pin(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {"requirements.txt": "anthropic==0.28.0  # noqa: CM201\nboto3==1.0  # noqa: CM101\n"},
    )
    result = process(_job(tmp_path, "requirements.txt"), Options())
    assert [d.line for d in result.diagnostics] == [2]


def test_fix_diff_mode_writes_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic==0.28.0\n"})
    job = _job(tmp_path, "requirements.txt")
    result = process(job, Options(fix=True, write=False, keep_text=True))
    assert result.fixed_text == "anthropic==0.33.0\n"
    assert (tmp_path / "requirements.txt").read_text() == "anthropic==0.28.0\n"


def test_fix_keeps_bom_and_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "requirements.txt"
    path.write_bytes(b"\xef\xbb\xbfanthropic==0.28.0\r\n")
    path.chmod(0o640)
    process(_job(tmp_path, "requirements.txt"), Options(fix=True))
    assert path.read_bytes() == b"\xef\xbb\xbfanthropic==0.33.0\r\n"
    assert path.stat().st_mode & 0o777 == 0o640


def test_unlisted_package_and_disabled_rule_report_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic==0.1\n"})
    run = execute(collect_jobs([tmp_path], PolicyLoader(), ["CM101"]), Options(), workers=1)
    assert run.diagnostics == [] and run.errors == []


@pytest.mark.parametrize(
    ("name", "text", "path", "value"),
    [
        (
            "Pipfile",
            '[packages]\nanthropic = "\\u003d=0.28.0"\n',
            ("packages", "anthropic"),
            "==0.33.0",
        ),
        (
            "pyproject.toml",
            '[project]\nname = "x"\n'
            'dependencies = ["anthropic\\u003e=0.20 ; python_version>\\"3.8\\""]\n',
            ("project", "dependencies", 0),
            'anthropic>=0.33.0 ; python_version>"3.8"',
        ),
        (
            "pyproject.toml",
            '[tool.poetry.dependencies]\nanthropic = { version = "\\u005e0.20" }\n',
            ("tool", "poetry", "dependencies", "anthropic", "version"),
            "^0.33.0",
        ),
    ],
)
def test_escaped_toml_string_is_written_anew_with_the_raised_constraint(
    tmp_path: Path, name: str, text: str, path: tuple[str | int, ...], value: str
) -> None:
    write_tree(tmp_path, {name: text})
    result = process(_job(tmp_path, name), Options())
    [diagnostic] = result.diagnostics
    assert diagnostic.fix is not None
    fixed: object = tomllib.loads(apply_edits(text, diagnostic.fix.edits))
    for part in path:
        fixed = fixed[part]  # type: ignore[index]
    assert fixed == value


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("anthropic>=0.20,\\\n<0.30\n", "anthropic>=0.33.0\n"),
        ("anthropic>=0.20,\\\n<1.0  # floor\n", "anthropic>=0.33.0,<1.0  # floor\n"),
        (
            "anthropic==\\\n0.28.0 ; python_version>'3.8'\n",
            "anthropic==0.33.0 ; python_version>'3.8'\n",
        ),
        ("anthropic>=0.20,<1.0 \\\n  --hash=sha256:00\n", None),
    ],
)
def test_specifier_split_by_a_continuation_is_raised_on_one_line(
    tmp_path: Path, text: str, fixed: str | None
) -> None:
    write_tree(tmp_path, {"requirements.txt": text})
    result = process(_job(tmp_path, "requirements.txt"), Options())
    [diagnostic] = result.diagnostics
    if fixed is None:
        assert diagnostic.fix is None  # a hash-pinned file is regenerated, never edited
        return
    assert diagnostic.fix is not None
    assert apply_edits(text, diagnostic.fix.edits) == fixed


def test_empty_minimums_table_turns_the_rule_off(tmp_path: Path) -> None:
    policy = "[sdk-pins]\nminimums = {}\n"
    write_tree(tmp_path, {"claude-migrate.toml": policy, "requirements.txt": "anthropic==0.1\n"})
    run = execute(collect_jobs([tmp_path], PolicyLoader(), None), Options(), workers=1)
    assert run.diagnostics == []
