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
