"""Work the project phase and the file reading do per file, counted (never timed).

Each test pins a cost that used to grow with the input beyond what the answer needs: a text
tokenized although none of its identifiers can change, a folder's roots found again for every
file in it, every name a module imports compared with every module its file may read.
"""

from __future__ import annotations

import tokenize
from pathlib import Path

import pytest
from helpers import write_tree

from claude_migrate.core import source
from claude_migrate.core.source import python_identifiers
from claude_migrate.project import phase


def _count_tokenizing(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls = [0]
    real = tokenize.generate_tokens

    def counted(readline):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(readline)

    monkeypatch.setattr(source.tokenize, "generate_tokens", counted)
    return calls


def test_a_text_whose_only_non_ascii_characters_are_no_word_characters_is_not_tokenized(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `…` and `™` change under NFKC, but no identifier can hold them.
    text = 'def ask():\n    """Ask Claude… (Anthropic™)."""\n    return 1\n'
    calls = _count_tokenizing(monkeypatch)
    assert python_identifiers(text) is text
    assert calls == [0]


def test_a_fullwidth_identifier_is_still_normalised_beside_such_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = 'import \uff41nthropic\n"""Ask Claude…"""\nname = "\uff41"\n'
    calls = _count_tokenizing(monkeypatch)
    assert python_identifiers(text) == 'import anthropic\n"""Ask Claude…"""\nname = "\uff41"\n'
    assert calls == [1]


def test_the_roots_of_a_folder_are_found_once_for_all_its_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = {"pyproject.toml": "", "app/__init__.py": "", "app/deep/__init__.py": ""}
    files.update({f"app/deep/m{i}.py": "" for i in range(40)})
    write_tree(tmp_path, files)
    asked: list[Path] = []
    real = phase._is_package

    def counted(folder: Path) -> bool:
        asked.append(folder)
        return real(folder)

    monkeypatch.setattr(phase, "_is_package", counted)
    phase._roots_above.cache_clear()
    roots = phase.import_roots([tmp_path / f"app/deep/m{i}.py" for i in range(40)])
    asked.clear()
    names = [phase.module_name(tmp_path / f"app/deep/m{i}.py", roots) for i in range(40)]
    assert names == [(f"app.deep.m{i}", False) for i in range(40)]
    # One walk up from `app/deep`, not one per file.
    assert len(asked) <= 3


@pytest.mark.parametrize(
    ("name", "prefixes"),
    [
        ("a", ["a"]),
        ("a.b.c", ["a", "a.b", "a.b.c"]),
        (".a", ["", ".a"]),
        ("a..b", ["a", "a.", "a..b"]),
    ],
)
def test_a_module_is_read_whole_through_each_name_that_is_it_or_a_package_of_it(
    name: str, prefixes: list[str]
) -> None:
    # Exactly the names `n` with `name == n` or `name.startswith(n + ".")`.
    assert phase._dotted_prefixes(name) == prefixes
    spelled = {name[:i] for i in range(len(name) + 1)} | {name + ".x", "zz"}
    expected = {n for n in spelled if n == name or name.startswith(n + ".")}
    assert expected == set(prefixes)
