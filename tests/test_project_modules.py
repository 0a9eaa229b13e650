"""Where the project phase finds a module's file, and where it finds none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate.project.phase import Project, import_roots, project_folders


def _project(root: Path) -> Project:
    paths = [root / "pkg" / "__init__.py"]
    return Project(import_roots(paths), root, project_folders(paths))


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "pkg/__init__.py": "",
            "pkg/mod.py": "class Client: ...\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/deep.py": "",
        },
    )


def test_module_path_finds_packages_and_modules_at_any_depth(tree: Path) -> None:
    project = _project(tree)
    assert project.module_path("pkg") == tree / "pkg" / "__init__.py"
    assert project.module_path("pkg.mod") == tree / "pkg" / "mod.py"
    assert project.module_path("pkg.sub") == tree / "pkg" / "sub" / "__init__.py"
    assert project.module_path("pkg.sub.deep") == tree / "pkg" / "sub" / "deep.py"


def test_module_path_finds_no_file_for_a_module_attribute_or_a_missing_folder(tree: Path) -> None:
    project = _project(tree)
    assert project.module_path("pkg.mod.Client") is None
    assert project.module_path("pkg.sub.deep.helper.inner") is None
    assert project.module_path("pkg.missing.module") is None
    assert project.module_path("elsewhere.module") is None
    # A name asked for again is answered the same way.
    assert project.module_path("pkg.mod.Client") is None
    assert project.module_path("pkg.mod") == tree / "pkg" / "mod.py"


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symlinks")
def test_module_path_follows_a_folder_symlinked_inside_the_project(tree: Path) -> None:
    (tree / "pkg" / "linked").symlink_to(tree / "pkg" / "sub", target_is_directory=True)
    project = _project(tree)
    assert project.module_path("pkg.linked.deep") == tree / "pkg" / "linked" / "deep.py"
