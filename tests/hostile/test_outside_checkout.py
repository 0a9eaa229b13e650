"""What lies outside a checkout never reaches its findings.

CI places a pull request's checkout inside folders that hold other things (a runner's work
folder, a monorepo of checkouts, a home folder). The `anthropic` requirements that decide
whether a sampling argument is gone (CM107) are read from the checked file's folder upwards:
inside a git work tree the walk ends at its top, and a dependency file linked from outside
the work tree is not read, so no pin written outside the checkout reaches a finding or its
message. Those files are read in the run's own process: one no parser can read, or a setup.py
too large to parse there, proves no floor and costs the Python file none of its findings.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from helpers import Cli, write_tree

APP = (
    "import anthropic\n"
    "\n"
    "client = anthropic.Anthropic()\n"
    "r = client.messages.create(model='claude-sonnet-4-6', max_tokens=9, temperature=0.9)\n"
)


def _git_init(folder: Path) -> None:
    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)


def _codes(root: Path) -> list[tuple[str, str]]:
    data = Cli(root).json("check", "--no-cache", "--select", "CM101,CM107", ".")
    assert data["errors"] == []
    return [(d["code"], d["message"]) for d in data["diagnostics"]]


def test_a_requirements_file_above_the_work_tree_decides_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic>=1.2  # another project\n"})
    repo = write_tree(tmp_path / "ci" / "checkout", {"app.py": APP})
    _git_init(repo)
    got = _codes(repo)
    assert [code for code, _ in got] == ["CM101"]
    assert not any("requirements.txt" in message for _, message in got)


def test_the_top_of_the_work_tree_still_decides_for_its_subfolders(tmp_path: Path) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic==0.39.0\n"})
    repo = write_tree(
        tmp_path / "checkout", {"requirements.txt": "anthropic>=1.2\n", "svc/app.py": APP}
    )
    _git_init(repo)
    assert [code for code, _ in _codes(repo)] == ["CM107"]


def test_a_requirements_file_linked_from_outside_the_work_tree_is_not_read(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"home/private.txt": "anthropic>=1.2  # private index token here\n"})
    repo = write_tree(tmp_path / "checkout", {"app.py": APP})
    _git_init(repo)
    os.symlink(tmp_path / "home" / "private.txt", repo / "requirements.txt")
    got = _codes(repo)
    assert [code for code, _ in got] == ["CM101"]


def test_a_requirements_file_linked_inside_the_work_tree_is_read(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "checkout", {"deps/base.txt": "anthropic>=1.2\n", "app.py": APP})
    _git_init(repo)
    os.symlink(repo / "deps" / "base.txt", repo / "requirements.txt")
    assert [code for code, _ in _codes(repo)] == ["CM107"]


def test_outside_any_work_tree_the_nearest_folder_above_decides(tmp_path: Path) -> None:
    write_tree(tmp_path, {"requirements.txt": "anthropic>=1.2\n", "pkg/svc/app.py": APP})
    assert [code for code, _ in _codes(tmp_path / "pkg")] == ["CM107"]


def test_a_dependency_file_no_parser_can_read_leaves_the_python_file_its_findings(
    tmp_path: Path,
) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    repo = write_tree(
        tmp_path,
        {
            "pyproject.toml": f'[project]\ndependencies = ["anthropic>=1.2"]\nx = {deep}\n',
            "app.py": APP,
        },
    )
    _git_init(repo)
    data = Cli(repo).json("check", "--no-cache", "--select", "CM101,CM107", "app.py")
    assert data["errors"] == []
    assert [d["code"] for d in data["diagnostics"]] == ["CM101"]


def test_a_setup_py_too_large_to_parse_in_process_proves_no_floor(tmp_path: Path) -> None:
    # Its `ast` would be built in the run's own process, where no memory limit holds.
    padding = "# " + "x" * 1000 + "\n"
    setup = "setup(install_requires=['anthropic>=1.2'])\n" + padding * 600
    repo = write_tree(tmp_path, {"setup.py": setup, "app.py": APP})
    _git_init(repo)
    assert [code for code, _ in _codes(repo)] == ["CM101"]


def test_a_dependency_file_too_large_to_parse_in_process_proves_no_floor(tmp_path: Path) -> None:
    # Read for the pin of every Python file below it, in the run's own process: a 60 MB lock
    # file took minutes and gigabytes there, and cost each such file its findings.
    padding = "# " + "x" * 1000 + "\n"
    for lines, expected in ((4300, ["CM101"]), (100, ["CM107"])):
        requirements = "anthropic>=1.2\n" + padding * lines
        repo = write_tree(tmp_path / str(lines), {"requirements.txt": requirements, "app.py": APP})
        _git_init(repo)
        assert [code for code, _ in _codes(repo)] == expected
