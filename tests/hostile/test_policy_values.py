"""Hostile policy values: every malformed value is a clear exit 2 naming file, key and expectation.

A NUL byte or a name longer than the file system takes in a path (`extend`, a rule's
`catalogue`, `--base-config`), a keyword where a parameter name belongs: each would reach a
system call or a code path that raises. The message names what was wrong; no traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers import write_tree
from test_inputs import CALL, assert_config_error, run_cm

LONG = "x" * 5000
LONG_PART = "d/" + "y" * 300 + ".toml"


@pytest.mark.parametrize(
    ("policy", "key", "expected"),
    [
        ('extend = "base\\u0000.toml"\n', "extend", "without NUL bytes"),
        (f'extend = "{LONG}"\n', "extend", "at most 4096 bytes"),
        (f'extend = "{LONG_PART}"\n', "extend", "at most 255 bytes"),
        ('[retired-models]\ncatalogue = "x\\u0000.toml"\n', "retired-models.catalogue", "NUL"),
        (f'[retired-models]\ncatalogue = "{LONG}"\n', "retired-models.catalogue", "4096"),
        (f'[retired-models]\ncatalogue = "{LONG_PART}"\n', "retired-models.catalogue", "255"),
        (
            '[[call-sites]]\nfunction = "acme.chat"\ntemperature = "class"\n',
            "call-sites[0].temperature",
            "not a keyword",
        ),
        (
            '[[call-sites]]\nfunction = "acme.class.chat"\nmodel = "m"\n',
            "call-sites[0].function",
            "import path",
        ),
    ],
    ids=[
        "extend-nul", "extend-long", "extend-long-name", "catalogue-nul", "catalogue-long",
        "catalogue-long-name", "call-site-keyword-parameter", "call-site-keyword-module",
    ],
)  # fmt: skip
def test_a_malformed_policy_value_exits_2_naming_file_key_and_expectation(
    tmp_path: Path, policy: str, key: str, expected: str
) -> None:
    write_tree(tmp_path, {"claude-migrate.toml": policy, "app.py": CALL})
    proc = run_cm("check", "--no-cache", ".", cwd=tmp_path)
    err = assert_config_error(proc, "claude-migrate.toml", f"`{key}`", expected)
    assert len(err) < 1000, err  # a long value is cut in the message


@pytest.mark.parametrize(
    ("value", "expected"),
    [(LONG, "at most 4096 bytes"), ("y" * 300, "at most 255 bytes"), (LONG_PART, "255")],
    ids=["long", "long-name", "long-part"],
)
def test_a_base_config_the_file_system_cannot_name_exits_2(
    tmp_path: Path, value: str, expected: str
) -> None:
    write_tree(tmp_path, {"app.py": CALL})
    proc = run_cm("check", "--no-cache", "--base-config", value, ".", cwd=tmp_path)
    assert_config_error(proc, "--base-config", expected)


def test_cache_shard_folders_swapped_for_symlinks_are_not_written_through(
    tmp_path: Path,
) -> None:
    tree = write_tree(tmp_path / "tree", {"app.py": CALL})
    cache = tmp_path / "cache"
    outside = tmp_path / "outside"
    outside.mkdir()
    first = run_cm("check", "--cache-dir", str(cache), ".", cwd=tree)
    assert first.returncode == 1, first.stderr
    (build,) = [p for p in cache.iterdir() if p.is_dir()]
    for shard in list(build.iterdir()):
        for entry in shard.iterdir():
            entry.unlink()
        shard.rmdir()
    for i in range(256):
        os.symlink(outside, build / f"{i:02x}", target_is_directory=True)
    (tree / "app.py").write_text(CALL + "# changed\n")
    again = run_cm("check", "--cache-dir", str(cache), ".", cwd=tree)
    assert again.returncode == 1, again.stderr
    assert list(outside.iterdir()) == []


# A policy found in a repository names files of that repository only -------------------------

SECRET = 'api_key = "sk-secret-value"\n[database]\npassword = "hunter2"\n'


def _git_init(folder: Path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(folder)], check=True, capture_output=True)


@pytest.mark.parametrize(
    ("policy", "key"),
    [
        ('extend = "../secret.toml"\n', "extend"),
        ('extend = "{secret}"\n', "extend"),
        ('extend = "link.toml"\n', "extend"),
        ('extend = "base.toml"\n', "extend"),
        ('[retired-models]\ncatalogue = "../secret.toml"\n', "retired-models.catalogue"),
        (
            '[[overrides]]\npaths = ["*.py"]\n[overrides.retired-models]\n'
            'catalogue = "../secret.toml"\n',
            "overrides[0].retired-models.catalogue",
        ),
    ],
    ids=["relative", "absolute", "symlink", "through-a-base", "catalogue", "override-catalogue"],
)
def test_a_policy_in_a_repository_reads_no_file_outside_it(
    tmp_path: Path, policy: str, key: str
) -> None:
    # A pull request's policy could name any TOML file the CI machine holds: its keys (and a
    # value of the wrong type) would be echoed into a public log, and its existence probed.
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET)
    repo = tmp_path / "repo"
    write_tree(
        repo,
        {
            "claude-migrate.toml": policy.replace("{secret}", str(secret)),
            "base.toml": 'extend = "../secret.toml"\n',
            "app.py": CALL,
        },
    )
    (repo / "link.toml").symlink_to(secret)
    _git_init(repo)
    proc = run_cm("check", "--no-cache", ".", cwd=repo)
    err = assert_config_error(proc, f"`{key}`", "outside the repository")
    assert "api_key" not in err and "database" not in err and "sk-secret" not in err, err


@pytest.mark.parametrize(
    "name", ["claude-migrate.toml", "pyproject.toml", "pkg/claude-migrate.toml"]
)
@pytest.mark.parametrize("in_git", [True, False], ids=["repository", "unpacked-archive"])
def test_a_policy_file_linked_out_of_the_tree_is_not_read(
    tmp_path: Path, name: str, in_git: bool
) -> None:
    # The policy file itself committed as a symbolic link: the same file it could not extend.
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET + '[tool.claude-migrate]\nselect = ["sk-secret-selected"]\n')
    repo = tmp_path / "repo"
    write_tree(repo, {"app.py": CALL, "pkg/app.py": CALL})
    (repo / name).symlink_to(secret)
    if in_git:
        _git_init(repo)
    proc = run_cm("check", "--no-cache", ".", cwd=repo)
    err = assert_config_error(proc, name, "a symbolic link to a file outside the repository")
    assert "api_key" not in err and "database" not in err and "sk-secret" not in err, err


def test_a_policy_file_linked_inside_the_tree_is_read(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    write_tree(repo, {"app.py": CALL, "ci/policy.toml": "[temperature]\nmax = 1.0\n"})
    (repo / "claude-migrate.toml").symlink_to("ci/policy.toml")
    _git_init(repo)
    assert run_cm("check", "--no-cache", ".", cwd=repo).returncode in (0, 1)


def test_a_policy_names_any_file_of_its_repository_and_a_given_policy_any_file(
    tmp_path: Path,
) -> None:
    shared = 'extend = "strict"\n[temperature]\nmax = 0.2\n'
    repo = tmp_path / "repo"
    write_tree(
        repo,
        {
            "shared/base.toml": shared,
            "pkg/claude-migrate.toml": 'extend = "../shared/base.toml"\n',
            "pkg/app.py": CALL,
        },
    )
    _git_init(repo)
    assert run_cm("check", "--no-cache", ".", cwd=repo).returncode in (0, 1)
    # A policy the command line names is the user's: it may extend a file anywhere.
    outside = tmp_path / "org.toml"
    outside.write_text(shared)
    given = tmp_path / "given.toml"
    given.write_text(f'extend = "{outside}"\n')
    proc = run_cm("check", "--no-cache", "--config", str(given), ".", cwd=repo)
    assert proc.returncode in (0, 1), proc.stderr


@pytest.mark.parametrize(
    ("policy", "key"),
    [
        ('extend = "{secret}"\n', "extend"),
        ('extend = "../secret.toml"\n', "extend"),
        ('[retired-models]\ncatalogue = "{secret}"\n', "retired-models.catalogue"),
    ],
    ids=["absolute", "relative", "catalogue"],
)
def test_a_policy_outside_any_work_tree_reads_no_file_outside_the_paths_given(
    tmp_path: Path, policy: str, key: str
) -> None:
    # A checkout unpacked from an archive has no `.git`: the path given is its boundary.
    secret = tmp_path / "secret.toml"
    secret.write_text(SECRET)
    checkout = write_tree(
        tmp_path / "checkout",
        {"claude-migrate.toml": policy.replace("{secret}", str(secret)), "app.py": CALL},
    )
    for given, cwd in ((".", checkout), (str(checkout), tmp_path), ("app.py", checkout)):
        proc = run_cm("check", "--no-cache", given, cwd=cwd)
        err = assert_config_error(proc, f"`{key}`", "outside")
        assert "api_key" not in err and "database" not in err, err


def test_a_policy_above_the_paths_given_outside_git_names_any_file(tmp_path: Path) -> None:
    # Not part of what is checked (`check pkg` under a project's root policy): as before.
    write_tree(tmp_path / "shared", {"base.toml": "[temperature]\nmax = 0.95\n"})
    project = write_tree(
        tmp_path / "project",
        {"claude-migrate.toml": 'extend = "../shared/base.toml"\n', "pkg/app.py": CALL},
    )
    proc = run_cm("check", "--no-cache", "--select", "CM101", "pkg", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
