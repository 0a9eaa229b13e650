"""What the package ships: metadata, the licence, an sdist whose own tests run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from importlib import metadata
from pathlib import Path

import pytest

from claude_migrate import project_url

ROOT = Path(__file__).resolve().parent.parent

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_metadata_names_licence_authors_keywords_and_classifiers() -> None:
    project = PYPROJECT["project"]
    assert project["license"] == "MIT"
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8").splitlines()[0]
    assert project["authors"] and project["keywords"]
    classifiers = project["classifiers"]
    assert "Programming Language :: Python :: 3.10" in classifiers
    # Every supported Python is claimed, and only those.
    minimum = tuple(int(p) for p in project["requires-python"].lstrip(">=").split("."))
    version = re.compile(r"Programming Language :: Python :: 3\.\d+")
    claimed = [c for c in classifiers if version.fullmatch(c)]
    assert all(tuple(int(p) for p in c.rsplit(" ", 1)[1].split(".")) >= minimum for c in claimed)


def test_sarif_links_the_project_only_when_the_metadata_has_a_home_page() -> None:
    urls = PYPROJECT["project"].get("urls", {})
    installed = metadata.metadata("claude-migrate").get_all("Project-URL") or []
    if not urls:
        assert installed == [] and project_url() is None
    else:  # pragma: no cover - once the project has a public home
        assert project_url() == (urls.get("Homepage") or next(iter(urls.values())))


def test_long_description_has_no_relative_links_or_placeholders() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(([^)]+)\)", readme) + re.findall(r'(?:href|src)="([^"]+)"', readme)
    assert all(re.match(r"https?://|#", link) for link in links), links
    assert "<this repository" not in readme


def test_sdk_facing_tests_run_against_the_pinned_anthropic() -> None:
    extra = PYPROJECT["project"]["optional-dependencies"]["test"]
    pins = [r for r in extra if r.startswith("anthropic")]
    assert len(pins) == 1 and re.fullmatch(r"anthropic==[\d.]+", pins[0]), pins
    assert metadata.version("anthropic") == pins[0].split("==")[1], (
        "the installed anthropic is not the test extra's pin: `pip install -e '.[test]'`"
    )


def _tracked_files() -> list[str] | None:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None  # not a git checkout (an unpacked sdist): nothing to compare with
    return [name for name in out.decode().split("\0") if name]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "hatchling", "build", "-t", "sdist", "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=300,
    )
    (archive,) = out.glob("*.tar.gz")
    return archive


def test_sdist_holds_every_tracked_file(sdist: Path) -> None:
    tracked = _tracked_files()
    if tracked is None:
        pytest.skip("not a git checkout")
    with tarfile.open(sdist) as archive:
        shipped = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    missing = sorted(n for n in tracked if n not in shipped and os.path.exists(ROOT / n))
    assert missing == []


def test_sdist_tests_collect_and_a_smoke_test_passes_from_it(sdist: Path, tmp_path: Path) -> None:
    with tarfile.open(sdist) as archive:
        # The "data" filter where this Python has it (3.12+, and security releases before).
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        archive.extractall(tmp_path, **safe)  # type: ignore[arg-type]
    (unpacked,) = tmp_path.iterdir()
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    # The hooks file the pre-commit tests read at import time, the README and CI script the
    # first-run tests read, the example: a missing one fails here, at collection or run.
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "tests/test_pre_commit.py", "tests/test_first_run.py", "tests/test_examples.py",
         "-k", "not real_pre_commit"],
        cwd=unpacked, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert re.search(r"\d+ passed", result.stdout)
