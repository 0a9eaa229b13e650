"""Hostile inputs to `report` and `report --merge`: read safely, checked, and rendered escaped.

A campaign's results files and a sharded run's outputs come from many machines and trees. Every
one is a regular file within a size cap (a FIFO never blocks the command), its places are
checked (a SARIF line of 1 or more, a URI that names a local file), and what the trees put in
file names and messages renders as text in Markdown, HTML and commit messages: no raw HTML, no
`javascript:` link.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from test_inputs import assert_config_error, run_cm

from claude_migrate.all_repos import commit_message

HOSTILE_PATH = "a`<img src=x onerror=alert(1)>`[x](javascript:alert(1)).py"
HOSTILE_MESSAGE = "model '<script>alert(1)</script>' [click](javascript:alert(2)) | *bold*"


def _fix_report(name: str, url: str | None = "https://example.org/o/r") -> dict[str, object]:
    return {
        "version": 1,
        "dry_run": False,
        "summary": {"files": 1},
        "changed": [{"path": HOSTILE_PATH, "fixes": [{"code": "CM101", "rule": "temperature"}]}],
        "left": [
            {"path": HOSTILE_PATH, "line": 3, "code": "CM302", "rule": "retired-models",
             "message": HOSTILE_MESSAGE, "reason": "no-fix-exists", "why": "<b>why</b>"}
        ],
        "errors": [{"path": HOSTILE_PATH, "line": 0, "code": "CM001", "message": HOSTILE_MESSAGE}],
        "repository": {"name": f"{name}<i>", "url": url},
    }  # fmt: skip


@pytest.mark.parametrize("merge", [False, True], ids=["report", "report --merge"])
def test_a_fifo_given_to_report_is_an_error_not_a_hang(tmp_path: Path, merge: bool) -> None:
    os.mkfifo(tmp_path / "results.json")
    args = ["report", *(["--merge"] if merge else []), "results.json"]
    proc = run_cm(*args, cwd=tmp_path, timeout=30)
    assert_config_error(proc, "results.json", "not a regular file")


@pytest.mark.parametrize("merge", [False, True], ids=["report", "report --merge"])
def test_a_results_file_over_the_size_cap_is_refused_unread(tmp_path: Path, merge: bool) -> None:
    with open(tmp_path / "results.json", "wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # sparse: nothing is written to disk
    args = ["report", *(["--merge"] if merge else []), "results.json"]
    proc = run_cm(*args, cwd=tmp_path, timeout=30)
    assert_config_error(proc, "results.json", "larger than")


def _sarif(uri: str, line: int) -> dict[str, object]:
    return {
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "claude-migrate"}},
            "results": [{
                "ruleId": "CM101",
                "message": {"text": "m"},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri}, "region": {"startLine": line}
                }}],
            }],
        }],
    }  # fmt: skip


@pytest.mark.parametrize(
    ("uri", "line", "key"),
    [
        ("app.py", -3, "startLine"),
        ("app.py", 0, "startLine"),
        ("javascript:alert(1)", 1, "artifactLocation.uri"),
        ("https://example.org/x.py", 1, "artifactLocation.uri"),
    ],
    ids=["negative-line", "line-zero", "javascript-uri", "web-uri"],
)
def test_merge_refuses_sarif_whose_places_are_not_in_the_tree(
    tmp_path: Path, uri: str, line: int, key: str
) -> None:
    (tmp_path / "a.sarif").write_text(json.dumps(_sarif("ok.py", 1)))
    (tmp_path / "b.sarif").write_text(json.dumps(_sarif(uri, line)))
    proc = run_cm("report", "--merge", "a.sarif", "b.sarif", cwd=tmp_path)
    assert_config_error(proc, "b.sarif", key)


def test_merge_keeps_relative_and_file_uris(tmp_path: Path) -> None:
    (tmp_path / "a.sarif").write_text(json.dumps(_sarif("src/ok.py", 2)))
    (tmp_path / "b.sarif").write_text(json.dumps(_sarif("file:///work/x.py", 1)))
    proc = run_cm("report", "--merge", "a.sarif", "b.sarif", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(json.loads(proc.stdout)["runs"][0]["results"]) == 2


@pytest.mark.parametrize(
    ("change", "key"),
    [({"line": -1}, "line"), ({"path": "javascript:alert(1)"}, "path"), ({"column": -2}, "column")],
    ids=["negative-line", "javascript-path", "negative-column"],
)
def test_merge_refuses_json_findings_out_of_shape(
    tmp_path: Path, change: dict[str, object], key: str
) -> None:
    finding = {"path": "app.py", "line": 3, "column": 5, "code": "CM101", "message": "m"}
    for name, extra in (("a.json", {}), ("b.json", change)):
        document = {"version": 1, "diagnostics": [{**finding, **extra}], "errors": [],
                    "summary": {"diagnostics": 1}}  # fmt: skip
        (tmp_path / name).write_text(json.dumps(document))
    proc = run_cm("report", "--merge", "a.json", "b.json", cwd=tmp_path)
    assert_config_error(proc, "b.json", f"diagnostics[0].{key}")


def _links(markdown: str) -> list[str]:
    return re.findall(r"\]\(([^)]*)\)", markdown.replace("\\]", "").replace("\\[", ""))


def test_campaign_markdown_and_html_render_hostile_names_as_text(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(_fix_report("a")))
    (tmp_path / "b.json").write_text(json.dumps(_fix_report("b", "javascript:alert(3)")))
    proc = run_cm(
        "report", "--markdown", "out.md", "--html", "out.html", "a.json", "b.json", cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    markdown = (tmp_path / "out.md").read_text()
    assert "<" not in markdown.replace("\\<", ""), markdown  # every `<` escaped: no tag
    assert "&lt;" not in markdown and "&amp;" not in markdown  # and no entity to read past
    assert "javascript:" not in "".join(_links(markdown)), _links(markdown)
    assert all(link.startswith("https://example.org/") for link in _links(markdown))
    assert "\\[x\\](javascript:alert(1))" in markdown  # shown, not linked
    page = (tmp_path / "out.html").read_text()
    assert "javascript:" not in "".join(re.findall(r'href="([^"]*)"', page))
    assert "<script>" not in page and "<img" not in page


def test_campaign_commit_messages_escape_names_and_messages() -> None:
    message = commit_message(_fix_report("a"))
    # Markdown (a pull request's body): every `<` escaped, so none opens a tag; no entities.
    assert not re.search(r"(?<!\\)<", message), message
    assert "\\<script>" in message and "&lt;" not in message
    assert "[click](javascript:" not in message
    assert "\\[click\\](javascript:alert(2))" in message


def test_a_file_name_with_terminal_controls_is_printed_escaped(tmp_path: Path) -> None:
    name = "\x1b[2K\rquiet.py"
    (tmp_path / name).write_text(
        "import anthropic\nanthropic.Anthropic().messages.create(model='claude-sonnet-4-6',"
        " max_tokens=1, temperature=0.9, messages=[], stream=True)\n",
        encoding="utf-8",
    )
    for output_format in ("text", "concise"):
        proc = run_cm("check", "--no-cache", "--format", output_format, ".", cwd=tmp_path)
        assert proc.returncode == 1
        assert b"CM101" in proc.stdout
        assert b"\x1b" not in proc.stdout and b"\r" not in proc.stdout
        assert b"\\x1b[2K\\x0dquiet.py:2:" in proc.stdout
    (tmp_path / "\x1b[2Kgone.py").symlink_to("/nonexistent/target.py")
    warned = run_cm("check", "--no-cache", ".", cwd=tmp_path)
    assert b"\x1b" not in warned.stderr and b"\\x1b[2Kgone.py" in warned.stderr, warned.stderr
