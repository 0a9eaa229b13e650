"""A migration that keeps a project installing and its tests passing (fixtures/verified-migration).

The tree's tests mock the client (`mock.patch.object` on `messages.create`, a fake class with
only `create`), prefill by `append`, stop on the closing tag of the prefill, use a legacy
LangChain class, and keep a generated requirements file beside its input and a poetry table.
`fix --unsafe-fixes` runs over a copy through the real command line, then the tree's own tests
run with pytest, as the project's CI would.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, marked_tree, run_subprocess, run_tree_tests
from packaging.version import Version

from claude_migrate.policy import releases

TREE = FIXTURES / "verified-migration"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    copy = tmp_path / "verified-migration"
    shutil.copytree(TREE, copy)
    return copy


def test_check_reports_exactly_the_marked_lines(tree: Path) -> None:
    done = run_subprocess("check", "--no-cache", "--format", "json", ".", cwd=tree)
    assert done.returncode == 1, done.stderr
    payload = json.loads(done.stdout)
    assert payload["errors"] == []
    found = {(d["path"], d["line"], d["code"]) for d in payload["diagnostics"]}
    assert found == marked_tree(tree, (".py", ".txt", ".in", ".toml"))


def test_the_trees_tests_pass_before_and_after_fix_unsafe_fixes(tree: Path) -> None:
    before = run_tree_tests(tree)
    assert before.returncode == 0, before.stdout + before.stderr
    done = run_subprocess(
        "fix", "--unsafe-fixes", "--no-cache", "--report", "report.json", ".", cwd=tree
    )
    assert done.returncode == 1, done.stderr  # what no fix may change remains
    after = run_tree_tests(tree)
    assert after.returncode == 0, after.stdout + after.stderr
    assert "3 passed" in after.stdout
    # The rewrite the tests can follow was made; the others were refused.
    summary = (tree / "app" / "summary.py").read_text(encoding="utf-8")
    assert "with client.messages.stream(" in summary and "stream.get_final_message()" in summary
    assert "client.messages.create(" in (tree / "app" / "classifier.py").read_text()
    for name in ("app/tagger.py", "requirements.txt"):
        assert (tree / name).read_bytes() == (TREE / name).read_bytes(), name


def _messages(tree: Path) -> dict[tuple[str, str], str]:
    done = run_subprocess("check", "--no-cache", "--format", "json", ".", cwd=tree)
    return {(d["path"], d["code"]): d["message"] for d in json.loads(done.stdout)["diagnostics"]}


def test_refusals_name_the_test_the_prefill_and_the_command(tree: Path) -> None:
    messages = _messages(tree)
    assert (
        "tests/test_classifier.py:9, mock.patch.object on messages.create"
        in (messages[("app/classifier.py", "CM104")])
    )
    assert (
        "tests/test_tagger.py:6, fake class FakeMessages has create and no stream"
        in (messages[("app/tagger.py", "CM104")])
    )
    assert (
        "may end in a prefilled assistant turn (the assistant turn added on line 10)"
        in (messages[("app/tagger.py", "CM302")])
    )
    assert (
        "'</category>' closes what the request's prefilled assistant turn opens"
        in (messages[("app/tagger.py", "CM103")])
    )
    assert "langchain_anthropic.ChatAnthropic" in messages[("app/legacy_chain.py", "CM301")]
    assert "never served it" in messages[("app/legacy_chain.py", "CM302")]
    assert (
        "`uv pip compile requirements.in -o requirements.txt`"
        in (messages[("requirements.txt", "CM201")])
    )


_PIN = re.compile(r"anthropic\s*(?:=\s*\")?(?P<op>\^|~=|==|>=|~)?\s*(?P<version>\d+(?:\.\d+)+)")


def test_every_pin_the_fix_writes_is_a_published_release(tree: Path) -> None:
    run_subprocess("fix", "--unsafe-fixes", "--no-cache", ".", cwd=tree)
    known = releases.for_package("anthropic")
    assert known is not None
    written = []
    for name in ("pyproject.toml", "requirements.in"):
        for line in (tree / name).read_text(encoding="utf-8").splitlines():
            match = _PIN.search(line)
            if match and line not in (TREE / name).read_text(encoding="utf-8").splitlines():
                written.append(Version(match.group("version")))
    assert written == [Version("0.33.0"), Version("0.33.0")]
    assert all(known.published(v) for v in written)


def test_the_fix_report_lists_each_file_with_what_changed_and_what_was_refused(
    tree: Path,
) -> None:
    run_subprocess("fix", "--unsafe-fixes", "--no-cache", "--report", "report.json", ".", cwd=tree)
    report = json.loads((tree / "report.json").read_text(encoding="utf-8"))
    files = {f["path"]: f for f in report["files"]}
    assert sorted(files) == [
        "app/classifier.py",
        "app/legacy_chain.py",
        "app/summary.py",
        "app/tagger.py",
        "pyproject.toml",
        "requirements.in",
        "requirements.txt",
    ]
    classifier = files["app/classifier.py"]
    assert [c["code"] for c in classifier["changed"]] == ["CM101"]
    assert [r["code"] for r in classifier["refused"]] == ["CM104"]
    assert "tests/test_classifier.py:9" in classifier["refused"][0]["why"]
    assert files["app/summary.py"]["refused"] == []
    assert sorted(c["code"] for c in files["app/summary.py"]["changed"]) == ["CM102", "CM104"]
    tagger = files["app/tagger.py"]
    assert tagger["changed"] == []
    assert sorted(r["code"] for r in tagger["refused"]) == ["CM103", "CM104", "CM302"]
    assert all(r["why"] for r in tagger["refused"])
