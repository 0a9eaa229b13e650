"""The documentation site: built with `mkdocs build --strict`, its generated pages, the policy's
JSON schema, what it says about installing, and the pages as headless Chromium renders them."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest
from helpers import REPO

from claude_migrate import __version__
from claude_migrate.checks import ALL_CHECKS
from claude_migrate.policy.config import preset_names
from claude_migrate.policy.reference import json_schema, options_markdown

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (Debian: apt-get install chromium)"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs", reason="the site needs the docs extra (pip install '.[docs]')")
    pytest.importorskip("material", reason="the site needs mkdocs-material (the docs extra)")
    out = tmp_path_factory.mktemp("site")
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    assert "WARNING" not in completed.stderr, completed.stderr
    return out


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_the_site_builds_strict_with_every_page(site: Path) -> None:
    for page in (
        "index.html", "getting-started.html", "usage.html", "policy/index.html",
        "policy/options.html", "rules/index.html", "recognised-calls.html", "baseline.html",
        "integrations/pre-commit.html", "integrations/ci.html", "integrations/editors.html",
        "integrations/campaigns.html", "output.html", "guarantees.html", "performance.html",
        "release.html", "changelog.html",
    ):  # fmt: skip
        assert (site / page).is_file(), page


def test_every_rule_has_a_page_generated_from_its_markdown(site: Path) -> None:
    from claude_migrate.policy.catalogue import all_rules

    for rule in all_rules():
        html = (site / "rules" / f"{rule.code}.html").read_text(encoding="utf-8")
        first_section = (rule.page() or "").split("\n## ", 2)[1].split("\n", 1)[0]
        assert f"{rule.code} {rule.name}" in _text(html)
        assert first_section.strip() in _text(html), rule.code
    index = (site / "rules" / "index.html").read_text(encoding="utf-8")
    assert 'href="CM101.html"' in index


def test_the_options_page_names_every_declared_option(site: Path) -> None:
    page = _text((site / "policy" / "options.html").read_text(encoding="utf-8"))
    for check in ALL_CHECKS:
        for key, option in check.options.items():
            assert f"[{check.name}]" in page
            assert key in page and option.description.split(":")[0] in page, (check.code, key)
    assert json.loads((site / "policy" / "claude-migrate.schema.json").read_text()) == (
        json_schema()
    )


def test_the_options_page_is_generated_not_written() -> None:
    assert not (REPO / "docs" / "policy" / "options.md").exists()
    assert "| `warn-days` | an integer between 0 and 36500 | `90` |" in options_markdown()


# The schema --------------------------------------------------------------------------------


def _validator() -> object:
    jsonschema = pytest.importorskip("jsonschema")
    return jsonschema.Draft202012Validator(
        json_schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


def _jsonable(value: object) -> object:
    return json.loads(json.dumps(value, default=str))


@pytest.mark.parametrize("preset", preset_names())
def test_the_schema_accepts_every_shipped_preset(preset: str) -> None:
    data = tomllib.loads((REPO / "rules" / f"{preset}.toml").read_text(encoding="utf-8"))
    errors = list(_validator().iter_errors(_jsonable(data)))  # type: ignore[attr-defined]
    assert errors == []


def test_the_schema_accepts_the_examples_policy() -> None:
    for path in REPO.glob("examples/*/claude-migrate.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert list(_validator().iter_errors(_jsonable(data))) == [], path  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "policy",
    [
        "[temperature]\nmax = 3.0\n",  # out of range
        "[temperature]\nmaximum = 0.2\n",  # misspelt key
        '[stop-sequences]\nmode = "sometimes"\n',
        'select = ["XY1"]\n',
        '[severity]\nCM101 = "fatal"\n',
        "[[overrides]]\ntemperature = { max = 0.5 }\n",  # no paths
        '[[call-sites]]\nfunction = "chat"\nmodel = "m"\n',  # not an import path
    ],
)
def test_the_schema_rejects_what_the_loader_rejects(policy: str, tmp_path: Path) -> None:
    from claude_migrate.core.errors import ConfigError
    from claude_migrate.policy.config import PolicyLoader

    errors = list(_validator().iter_errors(tomllib.loads(policy)))  # type: ignore[attr-defined]
    assert errors, policy
    path = tmp_path / "claude-migrate.toml"
    path.write_text(policy, encoding="utf-8")
    with pytest.raises(ConfigError):
        PolicyLoader(path)


# What the docs say about installing ---------------------------------------------------------


def _doc_texts() -> dict[str, str]:
    paths = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    paths += [REPO / "action.yml", REPO / ".pre-commit-hooks.yaml", REPO / "CHANGELOG.md"]
    return {str(p.relative_to(REPO)): p.read_text(encoding="utf-8") for p in paths}


INDEX_INSTALL = re.compile(
    r"(pip|pipx|uv pip|uv tool) install +(-\w+ +)*['\"]?claude-migrate(\[\w+\])?(?!\[)['\"]?(?! *@)"
)


def test_no_text_installs_from_a_package_index_that_does_not_publish_it() -> None:
    hits = [
        f"{name}: {m.group(0)}"
        for name, text in _doc_texts().items()
        for m in INDEX_INSTALL.finditer(text)
    ]
    assert hits == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("pip install claude-migrate", True),
        ("pipx install 'claude-migrate[lsp]'", True),
        ("python3 -m pip install -U claude-migrate", True),
        ("pip install 'claude-migrate[lsp] @ git+https://example.invalid/x@v1.0.0'", False),
        ("pipx inject claude-migrate pygls", False),
    ],
)
def test_the_install_scan_tells_an_index_from_a_git_url(text: str, found: bool) -> None:
    assert bool(INDEX_INSTALL.search(text)) is found


def test_no_text_pins_a_branch() -> None:
    for name, text in _doc_texts().items():
        assert "rev: main" not in text, name
        assert not re.search(r"claude-migrate@(main|master)\b", text), name


def test_the_language_server_names_pygls_not_an_index(tmp_path: Path) -> None:
    cli = (REPO / "src" / "claude_migrate" / "cli.py").read_text(encoding="utf-8")
    assert "pip install 'claude-migrate[lsp]'" not in cli
    assert "pipx inject claude-migrate" in cli


# Versions ---------------------------------------------------------------------------------


def test_the_version_is_the_same_in_pyproject_and_the_package() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == __version__


def test_the_changelog_has_an_unreleased_section_over_the_current_version() -> None:
    headings = re.findall(r"^## (.+)$", (REPO / "CHANGELOG.md").read_text(), re.M)
    assert headings[0] == "Unreleased"
    assert headings[1] == __version__


# Rendered by a browser ---------------------------------------------------------------------


def _dump_dom(page: Path) -> str:
    assert CHROMIUM is not None
    completed = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr
    return completed.stdout


@needs_chromium
def test_chromium_renders_the_home_page_with_its_navigation(site: Path) -> None:
    dom = _dump_dom(site / "index.html")
    text = _text(dom)
    assert "A migration linter and codemod for Python codebases that call Claude" in text
    for title in ("Getting started", "Rules", "GitHub Actions and other CI", "Guarantees"):
        assert title in text, title
    assert 'href="getting-started.html"' in dom


@needs_chromium
def test_chromium_renders_a_rule_page(site: Path, tmp_path: Path) -> None:
    dom = _dump_dom(site / "rules" / "CM101.html")
    text = _text(dom)
    assert "CM101 temperature" in text
    assert "Fix safety" in text or "fix safety" in text.lower()
    shot = tmp_path / "CM101.png"
    subprocess.run(
        [
            str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={shot}", "--window-size=1200,900",
            (site / "rules" / "CM101.html").as_uri(),
        ],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
