"""Byte offsets of UTF-8 text (tree-sitter's) map to the text's character offsets."""

from __future__ import annotations

import random

import pytest

from claude_migrate.core import offsets
from claude_migrate.core.offsets import CharOffsets
from claude_migrate.manifests.toml_spans import TomlDocument

CHARACTERS = ["a", "\n", "é", "中", "😀", "=", '"', "\udc80"]


@pytest.mark.parametrize("seed", range(20))
def test_every_character_start_maps_to_its_index(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(CHARACTERS) for _ in range(rng.randint(0, 200)))
    located = CharOffsets(text)
    byte = 0
    for index, character in enumerate(text):
        assert located(byte) == index
        byte += len(character.encode("utf-8", "surrogatepass"))
    assert located(byte) == len(text)


def test_toml_values_after_non_ascii_text_are_located_in_the_text() -> None:
    text = '# café\nname = "Zoë"\n[package]\nmodel = "claude-2.1"  # 中文\nnote = "😀 ok"\n'
    document = TomlDocument(text)
    for path in (("name",), ("package", "model"), ("package", "note")):
        located = document.get(*path)
        assert located is not None and located.inner_start is not None
        value = located.value
        assert text[located.inner_start : located.inner_start + len(value)] == value


def test_a_lock_file_builds_its_offsets_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A poetry.lock of 1 MB with non-ASCII descriptions took minutes when each value's offset
    decoded the bytes before it; the map is built once per document."""
    built = []
    original = offsets.CharOffsets.__init__

    def counted(self: CharOffsets, text: str) -> None:
        built.append(len(text))
        original(self, text)

    monkeypatch.setattr(offsets.CharOffsets, "__init__", counted)
    packages = "".join(
        f'[[package]]\nname = "p{i}"\nversion = "1.{i}"\ndescription = "Café nº{i} — ok"\n\n'
        for i in range(2000)
    )
    document = TomlDocument(packages)
    assert len(built) == 1
    last = document.get("package", 1999, "description")
    assert last is not None and last.inner_start is not None
    assert packages[last.inner_start :].startswith("Café nº1999")
