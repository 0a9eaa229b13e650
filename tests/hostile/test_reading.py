"""Hostile spellings: a file Python reads as a Claude call is checked as one, however it is saved.

A pull request must not turn the gate green by spelling a name so a byte search misses it while
Python (or Jupyter) still runs it: a coding cookie, an identifier in a compatibility form, a JSON
escape in a notebook, a notebook's metadata naming another language than the kernel it starts,
or its own `.gitignore` naming a file git tracks. Each case is checked against the plain spelling.
"""

from __future__ import annotations

import ast
import base64
import json
import subprocess
from pathlib import Path

import pytest
from helpers import write_tree
from test_inputs import run_cm

BODY = (
    "import anthropic\n"
    "client = anthropic.Anthropic()\n"
    "r = client.messages.create(model='claude-2.1', max_tokens=100, temperature=0.9,"
    " messages=[])\n"
)
CODES = ["CM101", "CM104", "CM302"]


def _codes(root: Path, *args: str) -> tuple[int, list[str], str]:
    proc = run_cm("check", "--no-cache", "--format", "json", *args, cwd=root)
    report = json.loads(proc.stdout)
    codes = sorted(d["code"] for d in report["diagnostics"])
    return proc.returncode, codes, proc.stderr.decode("utf-8", "replace")


def _utf7_everywhere(text: str) -> bytes:
    """Spell every line in UTF-7's base64 form: valid UTF-7, with no name left readable."""
    lines = []
    for line in text.splitlines():
        encoded = base64.b64encode(line.encode("utf-16-be")).decode().rstrip("=")
        lines.append(f"+{encoded}-")
    return ("# -*- coding: utf-7 -*-\n" + "\n".join(lines) + "\n").encode("ascii")


def test_a_file_saved_as_utf7_by_its_cookie_is_checked_as_python_decodes_it(
    tmp_path: Path,
) -> None:
    data = _utf7_everywhere(BODY)
    assert b"anthropic" not in data and b"claude" not in data
    write_tree(tmp_path, {"app.py": data})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


def test_a_cookie_after_a_long_first_line_is_honoured(tmp_path: Path) -> None:
    # PEP 263 puts no length on lines 1 and 2: a first comment line of any length, or a cookie
    # line padded out, still declares the encoding Python decodes the file with.
    data = _utf7_everywhere(BODY)
    write_tree(
        tmp_path,
        {
            "padded_first.py": b"#" + b"x" * 2000 + b"\n" + data,
            "padded_cookie.py": data.replace(b"# -*-", b"#" + b" " * 2000 + b"-*-", 1),
        },
    )
    for name in ("padded_first.py", "padded_cookie.py"):
        assert compile((tmp_path / name).read_bytes(), name, "exec")
        status, codes, _ = _codes(tmp_path, name)
        assert (status, codes) == (1, CODES), name


def test_a_carriage_return_ends_a_line_before_the_cookie_as_python_ends_it(
    tmp_path: Path,
) -> None:
    # CPython's tokenizer ends a line at a lone CR as well as at LF, so a cookie after
    # `#x\n#y\r` is on line 3 and the file is UTF-8; `tokenize.detect_encoding` splits at LF only
    # and would read it as UTF-7, where `+AAo-` is a newline that opens a string around the call.
    data = b'#x\n#y\r# coding: utf-7\n# +AAo-_ = """\n' + BODY.encode() + b'# +AAo-"""\n'
    tree = ast.parse(data)
    assert [type(node).__name__ for node in tree.body] == ["Import", "Assign", "Assign"]
    write_tree(tmp_path, {"app.py": data})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


def test_a_noqa_python_reads_on_the_line_after_the_call_silences_nothing(
    tmp_path: Path,
) -> None:
    # A lone CR ends a line for Python and for the findings' line numbers; a comment read with
    # lines split at LF only would be one line higher for every CR above it, so a bare noqa
    # comment on its own line below the call would sit on the call's line.
    lines = BODY.splitlines()
    data = f"{lines[0]}  # a\r# b\n{lines[1]}\n{lines[2]}\n# noqa\n".encode()
    tree = ast.parse(data)
    assert tree.body[-1].lineno == 4
    write_tree(tmp_path, {"app.py": data})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)
    # The same noqa on the call's own line, after a CR above it, still silences it.
    write_tree(tmp_path, {"app.py": data.replace(b"[])\n# noqa", b"[])  # noqa")})
    assert _codes(tmp_path, ".")[:2] == (0, [])


def test_a_fullwidth_identifier_is_the_name_python_binds(tmp_path: Path) -> None:
    source = BODY.replace("anthropic", "\uff41nthropic").replace("client", "\uff43lient")
    write_tree(tmp_path, {"app.py": source})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


def test_fix_never_rewrites_a_file_whose_identifiers_it_normalised(tmp_path: Path) -> None:
    source = BODY.replace("anthropic", "\uff41nthropic")
    write_tree(tmp_path, {"app.py": source})
    proc = run_cm("fix", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    assert (tmp_path / "app.py").read_text(encoding="utf-8") == source
    report = json.loads(proc.stdout)
    assert any("NFKC" in e["message"] for e in report["errors"]), report


def test_a_fullwidth_name_in_a_string_is_not_normalised(tmp_path: Path) -> None:
    # Python normalises identifiers only: a model name written with a fullwidth letter is
    # another (unknown) model, not a retired one.
    write_tree(tmp_path, {"app.py": BODY.replace("'claude-2.1'", "'\uff43laude-2.1'")})
    _, codes, _ = _codes(tmp_path, ".")
    assert "CM302" not in codes
    assert "CM101" in codes


def _notebook(cells: list[str], kernelspec: dict[str, str]) -> dict[str, object]:
    return {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": cell}
            for cell in cells
        ],
        "metadata": {"kernelspec": kernelspec},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip


PYTHON3 = {"name": "python3", "display_name": "Python 3", "language": "python"}


def test_a_notebook_spelling_names_with_json_escapes_is_checked(tmp_path: Path) -> None:
    # Every character of the cell written as a JSON escape: no name is left for a byte search.
    escaped = "".join(f"\\u{ord(c):04x}" for c in BODY)
    text = json.dumps(_notebook(["CELL"], PYTHON3)).replace('"CELL"', f'"{escaped}"')
    assert json.loads(text)["cells"][0]["source"] == BODY
    assert "anthropic" not in text and "temperature" not in text
    write_tree(tmp_path, {"nb.ipynb": text})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


def test_a_notebook_with_a_fullwidth_identifier_is_checked(tmp_path: Path) -> None:
    cells = [BODY.replace("anthropic", "\uff41nthropic")]
    write_tree(tmp_path, {"nb.ipynb": json.dumps(_notebook(cells, PYTHON3), ensure_ascii=False)})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


def test_a_python_kernel_whose_metadata_says_r_is_checked_as_python_and_said_so(
    tmp_path: Path,
) -> None:
    spec = {"name": "python3", "display_name": "R", "language": "R"}
    write_tree(tmp_path, {"nb.ipynb": json.dumps(_notebook([BODY], spec))})
    for args in ((".",), ("nb.ipynb",)):
        status, codes, err = _codes(tmp_path, *args)
        assert (status, codes) == (1, CODES), err
        assert "nb.ipynb: checked as Python" in err and "'R'" in err, err


def test_a_notebook_of_an_r_kernel_is_still_not_checked(tmp_path: Path) -> None:
    spec = {"name": "ir", "display_name": "R", "language": "R"}
    write_tree(tmp_path, {"nb.ipynb": json.dumps(_notebook([BODY], spec))})
    proc = run_cm("check", "--no-cache", "--verbose", ".", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert b"nb.ipynb: not checked: its kernel's language is 'R'" in proc.stderr


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *args],
        cwd=root, check=True, capture_output=True,
    )  # fmt: skip


def test_a_tracked_file_its_gitignore_names_is_checked_with_a_warning(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": BODY, "gen/tracked.py": BODY})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "app.py", "gen/tracked.py")
    _git(tmp_path, "commit", "-qm", "start")
    # The pull request's own ignore file names both, and a new untracked file beside them.
    write_tree(tmp_path, {".gitignore": "app.py\ngen/\n", "gen/untracked.py": BODY})
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    report = json.loads(proc.stdout)
    paths = sorted({d["path"] for d in report["diagnostics"]})
    assert paths == ["app.py", "gen/tracked.py"], paths
    err = proc.stderr.decode()
    for name in ("app.py", "gen/tracked.py"):
        assert f"{name}: checked though an ignore file names it" in err, err
    assert "untracked.py" not in err


def test_a_tracked_file_in_a_folder_marked_as_a_cache_or_environment_is_checked(
    tmp_path: Path,
) -> None:
    # Python imports `app` and `node_modules.helper` whatever marker files sit beside them: a
    # committed `CACHEDIR.TAG`, `pyvenv.cfg` with a `bin/`, `conda-meta` or a folder name the walk
    # skips must not hide the files git tracks there.
    tag = "Signature: 8a477f597d28d172789f06886806bc55\n"
    write_tree(
        tmp_path,
        {
            "main.py": "import app.agent\n",
            "app/agent.py": BODY,
            "app/CACHEDIR.TAG": tag,
            "node_modules/helper.py": BODY,
            # Other languages' packages a project commits: only Python files are read there.
            "node_modules/pkg/models.json": '{"model": "claude-2.1"}\n',
            "venv/pkg/tool.py": BODY,
            "lib/pyvenv.cfg": "home = /usr/bin\n",
            "lib/bin/x": "",
            "lib/run.py": BODY,
            "env2/conda-meta/history": "",
            "env2/run.py": BODY,
            "env2/settings.yaml": "model: claude-2.1\n",
        },
    )
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "start")
    # Untracked files there are still left alone, as are the tool's own untracked caches.
    write_tree(
        tmp_path,
        {
            "app/untracked.py": BODY,
            "node_modules/untracked.py": BODY,
            "cache/CACHEDIR.TAG": tag,
            "cache/entry.py": BODY,
            ".venv/lib/site.py": BODY,
        },
    )
    proc = run_cm("check", "--no-cache", "--format", "json", ".", cwd=tmp_path)
    report = json.loads(proc.stdout)
    paths = sorted({d["path"] for d in report["diagnostics"]})
    tracked = [
        "app/agent.py",
        "env2/run.py",
        "env2/settings.yaml",
        "lib/run.py",
        "node_modules/helper.py",
        "venv/pkg/tool.py",
    ]
    assert paths == tracked, paths
    err = proc.stderr.decode()
    for name in tracked:
        assert f"{name}: checked though its folder's name or a marker file" in err, err
    assert "untracked" not in err and "entry.py" not in err


def _utf7(text: str) -> str:
    return "+" + base64.b64encode(text.encode("utf-16-be")).decode().rstrip("=") + "-"


def test_a_skip_file_line_python_reads_inside_a_string_skips_nothing(tmp_path: Path) -> None:
    # The bytes spell `# claude-migrate: skip-file` as a leading comment; Python, decoding the
    # file by its UTF-7 cookie, reads that line inside a string (the comment above it holds a
    # newline and the string's opening quotes in UTF-7's base64 form).
    data = (
        "# -*- coding: utf-7 -*-\n"
        f"#{_utf7(chr(10) + 'x = ' + chr(34) * 3)}\n"
        "# claude-migrate: skip-file\n"
        f"{_utf7(chr(34) * 3)}\n"
    ).encode("ascii") + _utf7_everywhere(BODY).split(b"\n", 1)[1]
    text = data.decode("utf-7")
    assert "\n# claude-migrate: skip-file\n" in data.decode("ascii")
    assert "x = " + '"' * 3 + "\n# claude-migrate: skip-file\n" in text
    write_tree(tmp_path, {"app.py": data})
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "app.py"], cwd=tmp_path, check=True)
    assert _codes(tmp_path, ".")[:2] == (1, CODES)
    proc = run_cm(
        "check", "--no-cache", "--format", "json", "--stdin-filename", "app.py",
        cwd=tmp_path, input=data,
    )  # fmt: skip
    assert sorted(d["code"] for d in json.loads(proc.stdout)["diagnostics"]) == CODES


def test_a_skip_file_line_after_a_bom_or_decoded_by_its_cookie_skips_the_file(
    tmp_path: Path,
) -> None:
    skip = "# claude-migrate: skip-file\n"
    write_tree(
        tmp_path,
        {
            "bom.py": b"\xef\xbb\xbf" + (skip + BODY).encode("utf-8"),
            "utf7.py": _utf7_everywhere(skip + BODY),
        },
    )
    assert _codes(tmp_path, ".")[:2] == (0, [])


def test_a_script_python_runs_by_its_shebang_is_checked(tmp_path: Path) -> None:
    write_tree(tmp_path, {"bin/run": "#!/usr/bin/env python3\n" + BODY})
    (tmp_path / "bin/run").chmod(0o755)
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)
    assert _codes(tmp_path, "bin/run")[:2] == (1, CODES)
    # Not a script: another interpreter's, a suffix, a link (never read through).
    write_tree(tmp_path, {"bin/run": "#!/bin/sh\n" + BODY, "bin/run.sh": "#!/usr/bin/python3\n"})
    (tmp_path / "bin/link").symlink_to("run.sh")
    assert _codes(tmp_path, ".")[:2] == (0, [])
    write_tree(tmp_path, {"bin/run": "#!/usr/bin/python3.12 -u\n" + BODY})
    fixed = run_cm("fix", "--no-cache", ".", cwd=tmp_path)
    assert fixed.returncode == 1, fixed.stderr
    assert "temperature=0.0" in (tmp_path / "bin/run").read_text()
    assert (tmp_path / "bin/run").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize(
    "shebang",
    [
        "#!/usr/bin/env -S uv run --script",
        "#!/usr/bin/env -S uv run --quiet --script",
        "#!/usr/bin/env -S PYTHONUTF8=1 python3 -u",
    ],
)
def test_a_script_uv_or_env_with_variables_runs_as_python_is_checked(
    tmp_path: Path, shebang: str
) -> None:
    write_tree(tmp_path, {"tools/agent": f"{shebang}\n" + BODY})
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, CODES)


PYPROJECT = '[project]\nname = "app"\nversion = "1"\ndependencies = [{}]\n'


def test_a_noqa_inside_a_toml_string_silences_nothing(tmp_path: Path) -> None:
    # A `#` inside a TOML string is text (https://toml.io/en/v1.0.0#comment): a requirement
    # whose marker compares with a string holding a noqa comment, on the pinned line, hides nothing.
    marker = "\"foo; platform_release == '# noqa: CM201'\""
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT.format(f'"anthropic==0.20.0", {marker}'),
            "app.toml": 'm = { model = "claude-2.1", note = "# noqa: CM302" }\n',
            "lock/pyproject.toml": PYPROJECT.format(
                '\n  """anthropic==0.20.0""", """# noqa: CM201""",\n'
            ),
        },
    )
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "add", "-A"], cwd=tmp_path, check=True)
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, ["CM201", "CM201", "CM302"])


def test_a_toml_comment_after_strings_still_silences(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "pyproject.toml": PYPROJECT.replace(
                "dependencies", 'description = """a # b\n"""\ndependencies'
            ).format('\n  "anthropic==0.20.0",  # noqa: CM201\n'),
            "app.toml": "note = '''\n# '''\nmodel = \"claude-2.1\" # noqa: CM302\n",
        },
    )
    assert _codes(tmp_path, ".")[:2] == (0, [])


def test_a_noqa_in_a_requirements_marker_string_silences_nothing(tmp_path: Path) -> None:
    # pip and setuptools keep a `#` with no white space before it, or inside the marker's
    # quotes, as part of the requirement: it is no comment, and what it spells is no directive.
    hidden = "anthropic==0.20.0; platform_release != '#noqa: CM201'\n"
    spaced = 'anthropic==0.20.0; platform_release != " # noqa: CM201"\n'
    write_tree(
        tmp_path,
        {
            "requirements.txt": hidden,
            "setup.cfg": "[metadata]\nname = app\n\n[options]\ninstall_requires =\n    " + spaced,
            "requirements-dev.txt": "anthropic==0.20.0  # noqa: CM201\n",
        },
    )
    status, codes, _ = _codes(tmp_path, ".")
    assert (status, codes) == (1, ["CM201", "CM201"])
