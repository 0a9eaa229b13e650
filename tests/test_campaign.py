"""Campaigns: the all-repos fixer over real local repositories, and the campaign report.

The all-repos test makes three repositories (clean, fixable, needing a person), each with a bare
remote reached by a `file://` URL, clones them with the real `all-repos-clone`, runs the fixer
with all-repos' `merge_to_master` push (fast-forward), and reads what landed in each remote.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import stat
import struct
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from claude_migrate.all_repos import commit_message, web_url
from claude_migrate.cli import main
from claude_migrate.report import campaign

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
all_repos = pytest.importorskip("all_repos")

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
}  # fmt: skip

HEAD = "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
STREAMED = (
    "def ask(q):\n"
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-6", max_tokens=100, temperature={t},{extra}\n'
    '        messages=[{{"role": "user", "content": q}}],\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)
REPOS = {
    "clean": {"app.py": HEAD + STREAMED.format(t="0.0", extra="")},
    "fixable": {
        "app.py": HEAD + STREAMED.format(t="0.9", extra=""),
        "requirements.txt": "anthropic==0.28.0\n",
    },
    "person": {
        "app.py": HEAD + STREAMED.format(t="0.7", extra=' stop_sequences=["END"],'),
    },
}
CAMPAIGN_POLICY = "[temperature]\nmax = 0.2\nfix-to = 0.0\n"


def _git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env={**os.environ, **GIT_ENV},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return done.stdout


def _make_repos(root: Path) -> dict[str, str]:
    urls = {}
    for name, files in REPOS.items():
        work = root / "src" / name
        work.mkdir(parents=True)
        _git(work, "init", "-q", "-b", "master")
        for path, text in files.items():
            (work / path).write_text(text)
        _git(work, "add", ".")
        _git(work, "commit", "-qm", "initial")
        remote = root / "remotes" / f"{name}.git"
        remote.parent.mkdir(exist_ok=True)
        _git(root, "clone", "-q", "--bare", str(work), str(remote))
        urls[name] = remote.as_uri()
    return urls


def _all_repos_config(root: Path, urls: dict[str, str]) -> Path:
    (root / "repos.json").write_text(json.dumps(urls))
    config = root / "all-repos.json"
    config.write_text(
        json.dumps(
            {
                "output_dir": "output",
                "source": "all_repos.source.json_file",
                "source_settings": {"filename": str(root / "repos.json")},
                "push": "all_repos.push.merge_to_master",
                "push_settings": {"fast_forward": True},
            }
        )
    )
    config.chmod(stat.S_IRUSR | stat.S_IWUSR)  # all-repos refuses a config others can read
    return config


def _run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], cwd=root, env={**os.environ, **GIT_ENV},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def cloned(tmp_path: Path) -> tuple[Path, Path]:
    urls = _make_repos(tmp_path)
    config = _all_repos_config(tmp_path, urls)
    clone = _run(tmp_path, "-m", "all_repos.clone", "-C", str(config))
    assert clone.returncode == 0, clone.stderr
    (tmp_path / "campaign.toml").write_text(CAMPAIGN_POLICY)
    return tmp_path, config


def _remote_log(root: Path, name: str) -> list[str]:
    out = _git(root / "remotes" / f"{name}.git", "log", "--format=%B%x00", "master")
    return [message.strip() for message in out.split("\x00") if message.strip()]


def _remote_file(root: Path, name: str, path: str) -> str:
    return _git(root / "remotes" / f"{name}.git", "show", f"master:{path}")


def test_campaign_commits_fixes_per_repository_and_reports_what_is_left(
    cloned: tuple[Path, Path],
) -> None:
    root, config = cloned
    done = _run(
        root, "-m", "claude_migrate.all_repos", "-C", str(config),
        "--policy", str(root / "campaign.toml"), "--results", str(root / "results"),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr

    # clean: nothing to change, nothing pushed.
    assert _remote_log(root, "clean") == ["initial"]
    # fixable: one commit on top, listing the rule; the fix is in the remote.
    log = _remote_log(root, "fixable")
    assert len(log) == 2 and log[1] == "initial"
    assert log[0].startswith("Migrate Claude API calls with claude-migrate")
    assert "- CM101 temperature: 1" in log[0]
    assert "Nothing is left for a person." in log[0]
    assert "temperature=0.0" in _remote_file(root, "fixable", "app.py")
    # the campaign policy is layered under the repository's own (default) policy: CM201 applies.
    assert "- CM201 sdk-pins: 1" in log[0]
    # needs a person: the safe fix still lands; the message says what is left and why.
    log = _remote_log(root, "person")
    assert len(log) == 2
    assert "- CM101 temperature: 1" in log[0]
    assert "Left for a person (1):" in log[0]
    assert "app.py:8 CM103 stop-sequences" in log[0]
    assert "unsafe" in log[0]
    app = _remote_file(root, "person", "app.py")
    assert "temperature=0.0" in app and 'stop_sequences=["END"]' in app

    results = root / "results"
    assert sorted(p.name for p in results.glob("*.json")) == [
        "clean.json", "fixable.json", "person.json",
    ]  # fmt: skip
    loaded = campaign.load([results])
    by_name = {repo.name: repo for repo in loaded.repos}
    assert by_name["clean"].status == "clean"
    assert by_name["fixable"].status == "fixed"
    assert by_name["person"].status == "needs a person"
    markdown = (results / "campaign.md").read_text()
    assert "1 needs a person, 1 fixed, 1 clean" in markdown
    assert (results / "campaign.html").read_text().startswith("<!DOCTYPE html>")


def test_dry_run_commits_nothing_to_the_remotes(cloned: tuple[Path, Path]) -> None:
    root, config = cloned
    done = _run(
        root, "-m", "claude_migrate.all_repos", "-C", str(config), "--dry-run",
        "--policy", str(root / "campaign.toml"), "--results", str(root / "results"),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for name in REPOS:
        assert _remote_log(root, name) == ["initial"]
    fixable = campaign.read_result(root / "results" / "fixable.json")
    assert fixable.status == "fixes waiting" and fixable.total_fixed == 2
    facts = dict(campaign.header(campaign.load([root / "results"])))
    assert facts["Dry run"] == "yes: nothing was pushed"
    assert facts["Policy"] == f"{root / 'campaign.toml'}, under each repository's own policy"
    assert facts["Date"].endswith(" UTC (the campaign's start)")
    from claude_migrate import __version__

    assert facts["claude-migrate"] == __version__
    assert "committed, not pushed (--dry-run)" in facts["Pull requests"]


def test_repos_and_limit_choose_the_repositories(cloned: tuple[Path, Path]) -> None:
    root, config = cloned
    only = str(root / "output" / "person")
    done = _run(
        root, "-m", "claude_migrate.all_repos", "-C", str(config), "--repos", only,
        "--policy", str(root / "campaign.toml"), "--results", str(root / "results"),
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert [p.stem for p in (root / "results").glob("*.json")] == ["person"]
    assert _remote_log(root, "fixable") == ["initial"]
    assert len(_remote_log(root, "person")) == 2


def test_override_ignores_the_repositorys_own_policy(cloned: tuple[Path, Path]) -> None:
    root, config = cloned
    # The repository's own policy allows temperature 1.0; layered, it wins; with --override,
    # the campaign's policy decides alone.
    work = root / "src" / "fixable"
    (work / "claude-migrate.toml").write_text("[temperature]\nmax = 1.0\n")
    _git(work, "add", ".")
    _git(work, "commit", "-qm", "own policy")
    _git(work, "push", "-q", str(root / "remotes" / "fixable.git"), "master")
    assert _run(root, "-m", "all_repos.clone", "-C", str(config)).returncode == 0
    layered = _run(
        root, "-m", "claude_migrate.all_repos", "-C", str(config), "--dry-run",
        "--policy", str(root / "campaign.toml"), "--results", str(root / "layered"),
    )  # fmt: skip
    assert layered.returncode == 0, layered.stderr
    assert "CM101" not in campaign.read_result(root / "layered" / "fixable.json").fixed
    override = _run(
        root, "-m", "claude_migrate.all_repos", "-C", str(config), "--dry-run", "--override",
        "--policy", str(root / "campaign.toml"), "--results", str(root / "override"),
    )  # fmt: skip
    assert override.returncode == 0, override.stderr
    assert campaign.read_result(root / "override" / "fixable.json").fixed["CM101"] == 1


# The campaign report ------------------------------------------------------------------------


def _report(name: str, fixed: list[str], left: list[tuple[str, int, str]], url: str = "") -> dict:
    return {
        "version": 1,
        "dry_run": False,
        "summary": {"files": 3},
        "changed": [
            {"path": "app.py", "fixes": [{"code": code, "rule": f"rule-{code}"} for code in fixed]}
        ]
        if fixed
        else [],
        "left": [
            {
                "path": path,
                "line": line,
                "code": code,
                "rule": f"rule-{code}",
                "message": "m <x>",
                "reason": "no-fix-exists",
                "why": "no automatic fix exists",
            }
            for path, line, code in left
        ],  # fmt: skip
        "errors": [],
        "repository": {"name": name, "url": url or None},
    }


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def test_report_totals_match_the_inputs_and_html_has_no_external_references(
    tmp_path: Path,
) -> None:
    inputs = {
        "a": _report("a", ["CM101", "CM101", "CM302"], [("x.py", 3, "CM104")], "https://example.org/o/a"),
        "b": _report("b", ["CM101"], [("y.py", 9, "CM104"), ("z.py", 1, "CM103")]),
        "c": _report("c", [], []),
    }  # fmt: skip
    for name, data in inputs.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    result = CliRunner().invoke(
        main, ["report", str(tmp_path), "--html", str(tmp_path / "out.html")]
    )
    assert result.exit_code == 0, result.output
    loaded = campaign.load([tmp_path])
    totals = {t.code: (t.found, t.fixed, t.left) for t in loaded.rules()}
    assert totals == {
        "CM101": (3, 3, 0),
        "CM103": (1, 0, 1),
        "CM104": (2, 0, 2),
        "CM302": (1, 1, 0),
    }
    assert [r.name for r in loaded.by_left()] == ["b", "a", "c"]
    assert "| CM104 rule-CM104 | 2 | 0 | 2 | 2 no fix | 2 |" in result.output
    assert "[x.py:3](https://example.org/o/a/blob/HEAD/x.py#L3)" in result.output
    assert "`y.py:9`" in result.output  # no URL known: no link

    page = (tmp_path / "out.html").read_text()
    parser = _Tags()
    parser.feed(page)
    parser.close()
    tags = parser.tags
    assert not [t for t, attrs in tags if t in ("script", "link", "img", "iframe")]
    assert not [a for _, a in tags if "src" in a]
    hrefs = [a["href"] for t, a in tags if t == "a"]
    assert hrefs and all(h.startswith("https://example.org/o/a") for h in hrefs)
    rects = [a for t, a in tags if t == "rect"]
    assert len(rects) == 8  # two stacked bars per rule
    assert "m &lt;x&gt;" in page and "m <x>" not in page


def test_report_names_the_file_and_key_of_a_malformed_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(
        json.dumps({"changed": [], "left": [{"line": "x"}], "errors": [], "summary": {}})
    )
    result = CliRunner().invoke(main, ["report", str(bad)])
    assert result.exit_code == 2
    assert "bad.json" in result.stderr and "left[0]" in result.stderr
    (tmp_path / "deep.json").write_text("[" * 100_000)
    result = CliRunner().invoke(main, ["report", str(tmp_path / "deep.json")])
    assert result.exit_code == 2 and "not a JSON document" in result.stderr


def test_commit_message_lists_fixes_per_rule_and_what_is_left() -> None:
    message = commit_message(_report("a", ["CM101", "CM101", "CM302"], [("x.py", 3, "CM104")]))
    assert message.splitlines()[0] == "Migrate Claude API calls with claude-migrate"
    assert "Fixed 3 findings in 1 file:" in message
    assert "- CM101 rule-CM101: 2" in message and "- CM302 rule-CM302: 1" in message
    # The message is the pull request's body (Markdown): the finding's text is escaped.
    assert "- x.py:3 CM104 rule-CM104: m \\<x> (no automatic fix exists)" in message


@pytest.mark.parametrize(
    ("remote", "url"),
    [
        ("git@github.com:acme/chat.git", "https://github.com/acme/chat"),
        ("https://gitlab.example.com/acme/chat.git", "https://gitlab.example.com/acme/chat"),
        ("https://token@github.com/acme/chat", "https://github.com/acme/chat"),
        ("file:///srv/git/chat.git", None),
    ],
)
def test_web_url_of_a_remote(remote: str, url: str | None) -> None:
    assert web_url(remote) == url


def _campaign_reports(tmp_path: Path) -> Path:
    out = tmp_path / "results"
    out.mkdir()
    run = {
        "date": "2026-11-30T09:15:00+00:00",
        "policy": "api-2026-10-21",
        "override": False,
        "push": "all_repos.push.github_pull_request",
        "dry_run": False,
    }
    reports = {
        "a": (_report("a", ["CM101"], [("x.py", 3, "CM104")]), "pushed"),
        "b": (_report("b", ["CM101", "CM102"], [("y.py", 9, "CM104")]), "pushed"),
        "c": (_report("c", [], []), "clean"),
    }
    for name, (report, status) in reports.items():
        report["campaign"] = run
        report["tool"] = {"name": "claude-migrate", "version": "9.8.7"}
        report["repository"]["status"] = status
        (out / f"{name}.json").write_text(json.dumps(report))
    return out


def test_the_report_header_says_when_what_policy_which_version_dry_run_and_prs(
    tmp_path: Path,
) -> None:
    markdown = campaign.render_markdown(campaign.load([_campaign_reports(tmp_path)]))
    head = markdown.split("## Per rule")[0]
    assert "- **Date**: 2026-11-30 09:15:00 UTC (the campaign's start)" in head
    assert "- **Policy**: api-2026-10-21, under each repository's own policy" in head
    assert "- **claude-migrate**: 9.8.7" in head
    assert "- **Dry run**: no" in head
    assert (
        "- **Pull requests**: 2 pull requests opened; 1 nothing to push "
        "(push: all\\_repos.push.github\\_pull\\_request)"
    ) in head
    assert (
        "3 repositories: 2 need a person, 1 clean. 3 findings fixed, 2 left for a person." in head
    )


def test_the_header_counts_one_repository_in_the_singular(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_text(json.dumps(_report("a", ["CM101"], [("x.py", 3, "CM104")])))
    now = dt.datetime(2026, 12, 1, 8, 0, tzinfo=dt.timezone.utc)
    markdown = campaign.render_markdown(campaign.load([path]), now=now)
    assert "1 repository: 1 needs a person. 1 finding fixed, 1 left for a person." in markdown
    assert "2026-12-01 08:00 UTC (this report; the results do not say when" in markdown
    assert "- **Policy**: not recorded in the results" in markdown


def test_markdown_escapes_without_entities(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    report = _report("a", [], [("x.py", 3, "CM104")])
    report["left"][0]["message"] = "model 'a' -> 'b' & <c>"
    path.write_text(json.dumps(report))
    markdown = campaign.render_markdown(campaign.load([path]))
    assert "&gt;" not in markdown and "&lt;" not in markdown and "&amp;" not in markdown
    assert "model 'a' -> 'b' \\& \\<c>" in markdown


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (apt-get install chromium)")
def test_chromium_shows_the_campaign_report_header(tmp_path: Path) -> None:
    page = tmp_path / "campaign.html"
    page.write_text(campaign.render_html(campaign.load([_campaign_reports(tmp_path)])))
    assert CHROMIUM is not None
    dom = subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout  # fmt: skip
    text = " ".join(re.sub(r"<[^>]+>", " ", dom).split()).replace(" ,", ",").replace(" .", ".")
    for fact in (
        "Date 2026-11-30 09:15:00 UTC (the campaign's start)",
        "Policy api-2026-10-21, under each repository's own policy",
        "claude-migrate 9.8.7",
        "Dry run no",
        "Pull requests 2 pull requests opened; 1 nothing to push",
        "3 repositories: 2 need a person, 1 clean.",
    ):
        assert fact in text, fact
    shot = tmp_path / "header.png"
    subprocess.run(
        [
            CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            f"--screenshot={shot}", "--window-size=1000,420", page.as_uri(),
        ],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1000, 420)
    # The header's text makes the top of the picture far from blank: more than one colour.
    assert len(data) > 15_000
