"""What users read speaks of the product and cites public sources.

Rule pages (printed by `explain`), the deprecation catalogue, the presets, fixtures, the README
and the bench notes ship with the project. They say what the tool does and where a fact comes
from (a URL, an SDK file and version, a changelog entry), never how the code came to be written.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claude_migrate.core.resources import rules_dir
from claude_migrate.policy import deprecations

ROOT = Path(__file__).resolve().parents[1]

# Wording about the making of the code, not about the product.
PROCESS_WORDS = re.compile(
    r"the project's issue|\bissue \d|\bissue #?\d+ (?:names|says|lists)|\[issue\]|"
    r"the issue's|written on a machine|from this machine|this machine|left to the lead|"
    r"\bbranch `|\bother engineers\b|\bthis session\b|\ba session\b",
    re.IGNORECASE,
)


def shipped_files() -> list[Path]:
    """Return every text file users read: rules, fixtures, README, docs, bench notes, source."""
    docs = (
        "README.md", "ARCHITECTURE.md", "CONTRIBUTING.md", "CHANGELOG.md", "bench/README.md",
        "action.yml", "mkdocs.yml", ".pre-commit-hooks.yaml",
    )  # fmt: skip
    found = [ROOT / name for name in docs]
    found += sorted(p for p in (ROOT / "docs").rglob("*") if p.suffix in {".md", ".py"})
    found += sorted((ROOT / "bench").glob("*.py"))
    for folder in (rules_dir(), ROOT / "fixtures", ROOT / "src" / "claude_migrate"):
        found += sorted(
            p for p in folder.rglob("*") if p.suffix in {".md", ".toml", ".py", ".txt", ".cfg"}
        )
    return [p for p in found if p.is_file()]


def test_shipped_text_never_speaks_of_how_it_was_made() -> None:
    files = shipped_files()
    assert len(files) > 50  # the scan really covers the tree
    hits = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in files
        for number, line in enumerate(
            path.read_text(encoding="utf-8", errors="replace").splitlines(), 1
        )
        if PROCESS_WORDS.search(line)
    ]
    assert hits == []


def test_the_scan_recognises_the_wording_it_forbids() -> None:
    assert PROCESS_WORDS.search('source = "[issue]"')
    assert PROCESS_WORDS.search("removed (the project's issue 9).")
    assert not PROCESS_WORDS.search("requests.Session() keeps headers")


@pytest.mark.parametrize("tag", ["[page]", "[changelog]", "[versions]", "[sdk]", "[bedrock]"])
def test_each_source_tag_of_the_catalogue_is_defined_with_a_public_source(tag: str) -> None:
    header = (rules_dir() / "deprecations.toml").read_text(encoding="utf-8").split("schema = 1")[0]
    definition = header[header.index(f"#   {tag}") :]
    definition = definition[
        : definition.index("\n#   [", 1) if "\n#   [" in definition[1:] else None
    ]
    assert re.search(r"https://\S+|anthropic/\S+\.py", definition), definition


def test_every_catalogue_entry_names_a_defined_public_source() -> None:
    catalogue = deprecations.load()
    tags = {"[page]", "[changelog]", "[versions]", "[sdk]", "[bedrock]"}
    for model in catalogue.models:
        assert model.source.split(" ")[0] in tags, (model.id, model.source)
