"""Jupyter notebooks checked and fixed like any module, reported by cell, written byte for byte.

The fixtures under fixtures/notebooks/ have the shapes of public cookbook notebooks: a client
cell and several call cells, magics, a `%%capture` cell, image outputs, CRLF JSON, sources as
one string. Each `<case>.fixed.ipynb` is the golden of `fix` (safe fixes), byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from helpers import FIXTURES, Cli, write_tree

from claude_migrate.api import collect_jobs, execute
from claude_migrate.core.job import Options
from claude_migrate.policy.config import PolicyLoader

NOTEBOOKS = FIXTURES / "notebooks"
CASES = ["cookbook", "crlf", "one_string", "shared_constants", "helpers", "bedrock_cells"]

# (cell, line within the cell, column, code) of every finding in the fixtures.
EXPECTED = {
    "cookbook": {
        (5, 1, 12, "CM104"),
        (5, 3, 5, "CM102"),
        (5, 4, 5, "CM101"),
        (6, 2, 9, "CM104"),
        (6, 3, 34, "CM101"),
        (10, 13, 9, "CM101"),
    },
    "crlf": {(3, 4, 3, "CM101")},
    "one_string": {(3, 3, 32, "CM102"), (3, 3, 49, "CM101")},
    # A constant read by the calls of two cells: a finding at each call (a notebook's cells run
    # one at a time), whose fix edits the constant once; a spread dict's entry: at each call's
    # `**DEFAULTS`, the entry a related place, and the fix edits the entry once.
    "shared_constants": {
        (8, 1, 32, "CM102"),
        (8, 2, 33, "CM102"),
        (5, 2, 5, "CM302"),
        (5, 3, 5, "CM102"),
        (5, 4, 5, "CM101"),
        (6, 2, 5, "CM302"),
        (6, 3, 5, "CM102"),
    },
    # Values reaching a call through the helpers and the class of earlier cells: a literal
    # passed through two functions' parameters, a parameter's literal, a constructor's default.
    "helpers": {
        (4, 1, 28, "CM302"),
        (5, 2, 50, "CM101"),
        (5, 2, 67, "CM102"),
        (6, 2, 30, "CM302"),
        (6, 6, 16, "CM104"),
    },
    # Names every cell binds again (`payload`, `model_id`): each call reads the assignment of
    # its own cell or the one before (a `model_kwargs` dict too); the other vendor's cell is no
    # Claude call. A body a `lambda` returns is read as a helper's.
    "bedrock_cells": {
        (3, 4, 9, "CM102"),
        (3, 5, 9, "CM101"),
        (4, 2, 9, "CM301"),
        (4, 2, 44, "CM302"),
        (6, 4, 5, "CM101"),
        (7, 2, 9, "CM104"),
        (8, 4, 8, "CM104"),
    },
}
# The cells a safe `fix` rewrites.
FIXED_CELLS = {
    "cookbook": {5, 6, 10},
    "crlf": {3},
    "one_string": {3},
    "shared_constants": {3},
    "helpers": {5},
    "bedrock_cells": {3, 6},
}

CLIENT = "import anthropic\nclient = anthropic.Anthropic()\n"
CALL = (
    'client.messages.create(model="claude-sonnet-4-6", max_tokens=100, temperature=0.9, '
    "stream=True, messages=[])\n"
)


def notebook(*sources: str, cell_type: str = "code", language: str = "python") -> str:
    """Return notebook JSON with one code cell per source (a markdown cell first)."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# title"]}]
    for source in sources:
        cells.append(
            {
                "cell_type": cell_type,
                "execution_count": None,
                "metadata": {},
                "outputs": [],
                "source": source.splitlines(keepends=True),
            }
        )
    meta = {"kernelspec": {"language": language, "name": "k", "display_name": "K"}}
    return (
        json.dumps({"cells": cells, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1)
        + "\n"
    )


def _copy(case: str, folder: Path) -> Path:
    target = folder / f"{case}.ipynb"
    shutil.copyfile(NOTEBOOKS / f"{case}.ipynb", target)
    return target


def _findings(run) -> set[tuple[int | None, int, int, str]]:  # type: ignore[no-untyped-def]
    return {(d.cell, d.line, d.column, d.code) for d in run.diagnostics}


def _run(path: Path, fix: bool = False, unsafe: bool = False):  # type: ignore[no-untyped-def]
    jobs = collect_jobs([path], PolicyLoader())
    return execute(jobs, Options(fix=fix, unsafe=unsafe), workers=1)


# Positions ------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_check_reports_every_finding_at_its_cell_and_line(case: str) -> None:
    run = _run(NOTEBOOKS / f"{case}.ipynb")
    assert not run.errors, run.errors
    assert _findings(run) == EXPECTED[case]


def test_text_output_names_the_cell_before_line_and_column(tmp_path: Path) -> None:
    _copy("cookbook", tmp_path)
    result = Cli(tmp_path)("check", "--no-cache", "cookbook.ipynb")
    assert result.exit_code == 1
    assert "cookbook.ipynb:cell 5:4:5: CM101 [*] temperature 0.9 is above" in result.stdout
    assert "cookbook.ipynb:cell 10:13:9: CM101" in result.stdout


def test_json_output_adds_the_cell_and_counts_lines_within_it(tmp_path: Path) -> None:
    _copy("crlf", tmp_path)
    data = Cli(tmp_path).json("check", "--no-cache", "crlf.ipynb")
    (entry,) = data["diagnostics"]
    assert (entry["cell"], entry["line"], entry["column"], entry["code"]) == (3, 4, 3, "CM101")
    assert entry["end_line"] == 4


def test_a_constant_read_by_calls_of_two_cells_is_reported_at_each_call(
    tmp_path: Path,
) -> None:
    # A notebook's cells run one at a time, often out of order: each call keeps its finding in
    # the cell that sends the request, and every fix edits the constant (once, in its cell).
    _copy("shared_constants", tmp_path)
    data = Cli(tmp_path).json("check", "--no-cache", "shared_constants.ipynb")
    found = {(d["cell"], d["line"], d["code"]): d for d in data["diagnostics"]}
    for cell in (5, 6):
        model = found[(cell, 2, "CM302")]
        assert "(from MODEL)" in model["message"]
        assert model["fix"]["description"].endswith("in MODEL (used by 2 Claude calls)")
        assert "related" not in model
    assert "related" not in found[(5, 4, "CM101")]
    for line in (1, 2):
        spread = found[(8, line, "CM102")]
        assert spread["fix"] is not None
        assert [r["message"] for r in spread["related"]] == [
            "the max_tokens is written here, in DEFAULTS (cell 3)"
        ]
        assert [(r["cell"], r["line"]) for r in spread["related"]] == [(3, 4)]


def test_sarif_places_a_related_cell_line_at_its_notebook_file_line(tmp_path: Path) -> None:
    # A related place inside the notebook is a line of a cell: code scanning shows it at the
    # line of the .ipynb file that holds it, with that line's code, like the finding itself.
    _copy("shared_constants", tmp_path)
    result = Cli(tmp_path)("check", "--no-cache", "--format", "sarif", "shared_constants.ipynb")
    results = json.loads(result.stdout)["runs"][0]["results"]
    related = [r for found in results for r in found.get("relatedLocations", [])]
    assert related
    lines = (tmp_path / "shared_constants.ipynb").read_text(encoding="utf-8").splitlines()
    for place in related:
        region = place["physicalLocation"]["region"]
        assert region["snippet"]["text"].startswith("DEFAULTS = {")
        assert "DEFAULTS = {" in lines[region["startLine"] - 1]


def test_python_files_keep_the_json_contract_without_a_cell(tmp_path: Path) -> None:
    write_tree(tmp_path, {"a.py": CLIENT + CALL})
    data = Cli(tmp_path).json("check", "--no-cache", "a.py")
    assert data["diagnostics"] and all("cell" not in d for d in data["diagnostics"])


def test_sarif_names_the_notebook_puts_the_cell_in_the_message_and_a_snippet(
    tmp_path: Path,
) -> None:
    _copy("crlf", tmp_path)
    result = Cli(tmp_path)("check", "--no-cache", "--format", "sarif", "crlf.ipynb")
    (found,) = json.loads(result.stdout)["runs"][0]["results"]
    location = found["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "crlf.ipynb"
    assert found["message"]["text"].startswith("cell 3, line 4, column 3: temperature 0.8")
    assert location["region"]["snippet"]["text"] == "  temperature=0.8,"
    lines = (tmp_path / "crlf.ipynb").read_bytes().decode("utf-8").split("\r\n")
    assert "temperature=0.8" in lines[location["region"]["startLine"] - 1]


def test_github_annotations_name_the_cell_on_the_line_that_holds_the_code(tmp_path: Path) -> None:
    _copy("cookbook", tmp_path)
    result = Cli(tmp_path)("check", "--no-cache", "--format", "github", "cookbook.ipynb")
    (line,) = [x for x in result.stdout.splitlines() if "(CM101) cell 10" in x]
    assert "cell 10, line 13, column 9: CM101 temperature 0.5" in line
    file_line = int(line.split("line=")[1].split(",")[0])
    text = (tmp_path / "cookbook.ipynb").read_text(encoding="utf-8").splitlines()
    assert "temperature=0.5" in text[file_line - 1]


def test_junit_and_concise_name_the_cell(tmp_path: Path) -> None:
    _copy("one_string", tmp_path)
    junit = Cli(tmp_path)("check", "--no-cache", "--format", "junit", "one_string.ipynb")
    assert "one_string.ipynb:cell 3:3:49: CM101" in junit.stdout
    concise = Cli(tmp_path)("check", "--no-cache", "--format", "concise", "one_string.ipynb")
    assert "one_string.ipynb:cell 3:3:32: CM102" in concise.stdout


def test_source_view_shows_the_cell_line_under_a_finding(tmp_path: Path) -> None:
    from claude_migrate.report import Run
    from claude_migrate.report.text import render_rich

    run = _run(_copy("crlf", tmp_path))
    text = render_rich(Run(results=run.results, show_source=True, cwd=Path.cwd()))
    assert "cell 3:4:3" in text
    assert "     4 |   temperature=0.8," in text
    assert "^^^^^^^^^^^^^^^" in text


# Fixes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES)
def test_fix_produces_the_golden_byte_for_byte_and_settles(case: str, tmp_path: Path) -> None:
    path = _copy(case, tmp_path)
    cli = Cli(tmp_path)
    cli("fix", "--no-cache", path.name)
    golden = (NOTEBOOKS / f"{case}.fixed.ipynb").read_bytes()
    assert path.read_bytes() == golden
    again = cli("fix", "--no-cache", path.name)
    assert "Fixed 0," in again.stdout
    assert path.read_bytes() == golden


@pytest.mark.parametrize("case", CASES)
def test_fix_changes_nothing_but_the_fixed_cells_sources(case: str, tmp_path: Path) -> None:
    path = _copy(case, tmp_path)
    _run(path, fix=True)
    before = json.loads((NOTEBOOKS / f"{case}.ipynb").read_text(encoding="utf-8"))
    after = json.loads(path.read_text(encoding="utf-8"))
    changed = {
        number
        for number, (old, new) in enumerate(zip(before["cells"], after["cells"], strict=True), 1)
        if old["source"] != new["source"]
    }
    assert changed == FIXED_CELLS[case]
    for number in changed:
        old, new = before["cells"][number - 1], after["cells"][number - 1]
        assert type(old["source"]) is type(new["source"])  # list stays list, string stays string
        old["source"] = new["source"] = None
    assert after == before


@pytest.mark.parametrize("case", CASES)
def test_fixtures_and_goldens_are_valid_notebooks(case: str) -> None:
    for name in (f"{case}.ipynb", f"{case}.fixed.ipynb"):
        nbformat.validate(
            nbformat.reads((NOTEBOOKS / name).read_text(encoding="utf-8"), as_version=4)
        )


def test_unsafe_fix_inserts_lines_in_the_list_layout_and_stays_a_valid_notebook(
    tmp_path: Path,
) -> None:
    path = _copy("cookbook", tmp_path)
    run = _run(path, fix=True, unsafe=True)
    assert not run.diagnostics and not run.errors
    text = path.read_text(encoding="utf-8")
    nb = nbformat.reads(text, as_version=4)
    nbformat.validate(nb)
    cell = nb.cells[4].source
    assert cell.startswith("with client.messages.stream(\n")
    assert "    response = stream_1.get_final_message()\n" in cell
    # New lines are written like their neighbours: one JSON string per line, same indentation.
    assert '\n    "    response = stream_1.get_final_message()\\n",\n' in text
    # IPython lines of the fixed cells are back as they were.
    assert nb.cells[5].source.startswith("%%capture\nwith client.messages.stream(")


def test_fix_diff_shows_each_changed_cell_under_a_header_naming_it(tmp_path: Path) -> None:
    path = _copy("cookbook", tmp_path)
    before = path.read_bytes()
    result = Cli(tmp_path)("fix", "--no-cache", "--diff", "cookbook.ipynb")
    assert result.exit_code == 1
    out = result.stdout
    assert "--- a/cookbook.ipynb:cell 5\n+++ b/cookbook.ipynb:cell 5\n" in out
    assert (
        "-    max_tokens=4096,\n-    temperature=0.9,\n"
        "+    max_tokens=1024,\n+    temperature=0.0,\n" in out
    )
    assert "cookbook.ipynb:cell 10" in out and "cell 9" not in out
    assert '\\"' not in out  # the code, not its JSON escaping
    assert path.read_bytes() == before


def test_fix_from_stdin_prints_the_fixed_notebook(tmp_path: Path) -> None:
    source = (NOTEBOOKS / "crlf.ipynb").read_bytes().decode("utf-8")
    result = Cli(tmp_path)("fix", "--no-cache", "-", "--stdin-filename", "crlf.ipynb", input=source)
    assert result.stdout_bytes == (NOTEBOOKS / "crlf.fixed.ipynb").read_bytes()


def test_a_fix_whose_json_would_not_read_back_is_never_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from claude_migrate.notebook import document

    path = _copy("crlf", tmp_path)
    before = path.read_bytes()
    monkeypatch.setattr(document, "_encode", lambda nb, cell, new: '["broken')
    run = _run(path, fix=True)
    assert path.read_bytes() == before
    (error,) = run.errors
    assert "fix not written: the fixed notebook is not valid JSON" in error.message
    assert {d.code for d in run.diagnostics} == {"CM101"}


def test_a_fix_that_would_break_a_cell_on_its_own_is_refused(tmp_path: Path) -> None:
    from claude_migrate.notebook.document import load
    from claude_migrate.notebook.module import CellModule

    module = CellModule.build(load(notebook(CLIENT, CALL)))
    broken = module.text.replace("client.messages.create(", "client.messages.create((", 1)
    assert not module.parts_compile(broken)
    assert module.split(module.text) is not None
    # Removing a boundary between cells cannot be split back: the fix is refused.
    assert module.split(module.text.replace(f"#{module.boundary} cell 2\n", "", 1)) is None


# Cells as one module, and what is masked ------------------------------------------------------


def test_a_client_made_in_one_cell_is_the_client_of_a_call_in_a_later_cell(tmp_path: Path) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, "x = 1\n", "%time y = 2\n", CALL)})
    run = _run(tmp_path / "nb.ipynb")
    assert _findings(run) == {(5, 1, 67, "CM101")}


def test_ipython_syntax_is_masked_and_never_misparsed(tmp_path: Path) -> None:
    cell = (
        "%pip install anthropic\n"
        "% pip install rich\n"
        "!ls -la \\\n"
        "   data\n"
        "files = !ls\n"
        "t = %timeit -o sum(range(3))\n"
        "client?\n"
        "?client\n"
        "client.messages.create??\n"
        "pip install pandas\n"
        "cd ..\n"
        "if True:\n"
        "    %time z = 1\n" + CALL
    )
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, cell)})
    run = _run(tmp_path / "nb.ipynb")
    assert not run.errors, run.errors
    assert _findings(run) == {(3, 14, 67, "CM101")}


def test_lines_inside_strings_and_brackets_are_python_not_magics() -> None:
    from claude_migrate.notebook.ipython import mask_cell

    cell = 'PROMPT = """\n!important\n%d items\nWhat is it?\n"""\nx = [\n    1,\n]\nls = 3\nls -1\n'
    masked = mask_cell(cell, "\ue000")
    assert masked.text == cell and masked.masked == []


def test_masked_lines_keep_line_numbers_and_come_back_exactly() -> None:
    from claude_migrate.notebook.ipython import mask_cell, unmask

    cell = "%matplotlib inline\nx = 1\n  !echo hi  \nclient?\n"
    masked = mask_cell(cell, "\ue001")
    assert masked.text.count("\n") == cell.count("\n")
    assert masked.text.splitlines()[1] == "x = 1"
    assert [n for n, _ in masked.masked] == [0, 2, 3]
    assert unmask(masked.text, masked.masked, "\ue001") == cell


def test_a_cell_magic_that_is_not_python_skips_the_cell(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "nb.ipynb": notebook(
                CLIENT,
                "%%bash\n" + CALL,
                "%%writefile x.py\n" + CALL,
                "%%script bash\n" + CALL,
                "%%script --out python bash\n" + CALL,
                "%%script python2\n" + CALL,
            )
        },
    )
    run = _run(tmp_path / "nb.ipynb")
    assert not run.diagnostics and not run.errors


@pytest.mark.xfail(
    strict=True,
    reason="a `%%writefile NAME.py` cell writes a Python module the notebook may then run "
    "(`%run NAME.py`, `import NAME`); its body is skipped like any non-Python cell, not checked "
    "as the module it writes",
)
def test_a_writefile_cell_writing_a_python_module_is_checked_as_that_module(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook("%%writefile agent.py\n" + CLIENT + CALL)})
    run = _run(tmp_path / "nb.ipynb")
    assert {code for *_, code in _findings(run)} >= {"CM101"}


@pytest.mark.parametrize(
    "magic",
    [
        "%%time",
        "%%timeit -n1",
        "%%capture out",
        "%%script python3",
        "%%script --bg --out proc /usr/bin/python3.12",
    ],
)
def test_a_python_cell_magic_keeps_its_body_checked(magic: str, tmp_path: Path) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, f"{magic}\n" + CALL)})
    run = _run(tmp_path / "nb.ipynb")
    assert _findings(run) == {(3, 2, 67, "CM101")}


def test_markdown_and_raw_cells_are_counted_but_not_checked(tmp_path: Path) -> None:
    nb = json.loads(notebook(CLIENT, CALL))
    nb["cells"].insert(1, {"cell_type": "raw", "metadata": {}, "source": [CALL]})
    nb["cells"].insert(1, {"cell_type": "markdown", "metadata": {}, "source": [CALL]})
    write_tree(tmp_path, {"nb.ipynb": json.dumps(nb)})
    run = _run(tmp_path / "nb.ipynb")
    assert _findings(run) == {(5, 1, 67, "CM101")}


def test_noqa_in_a_cell_suppresses_the_finding_on_its_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, CALL.rstrip("\n") + "  # noqa: CM101\n")})
    assert not _run(tmp_path / "nb.ipynb").diagnostics


def test_skip_file_in_the_first_code_cell_skips_the_notebook(tmp_path: Path) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook("# claude-migrate: skip-file\n" + CLIENT, CALL)})
    assert not _run(tmp_path / "nb.ipynb").diagnostics


# Errors ---------------------------------------------------------------------------------------


def test_invalid_notebook_json_is_cm001_at_the_json_error_line(tmp_path: Path) -> None:
    text = notebook(CLIENT, CALL)
    lines = text.splitlines(keepends=True)
    lines[5] = lines[5].rstrip("\n").rstrip(",") + " oops,\n"
    write_tree(tmp_path, {"bad.ipynb": "".join(lines)})
    result = Cli(tmp_path)("check", "--no-cache", "bad.ipynb")
    assert result.exit_code == 1
    assert "bad.ipynb:6:" in result.stdout and "CM001 invalid notebook JSON" in result.stdout


def test_a_cell_that_does_not_compile_is_cm001_in_that_cell_and_the_others_are_checked(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, "def broken(:\n    pass\n", CALL)})
    run = _run(tmp_path / "nb.ipynb")
    (error,) = run.errors
    assert (error.cell, error.line, error.code) == (3, 1, "CM001")
    assert _findings(run) == {(4, 1, 67, "CM101")}


def test_a_cell_in_python_3_12_f_string_syntax_is_read_and_fixed(tmp_path: Path) -> None:
    """`f"{row["name"]}"` is valid from Python 3.12 (PEP 701), whatever Python runs the tool;
    an unclosed bracket next to it is still a CM001."""
    newer = 'row = {"name": "x"}\nprint(f"{row["name"]}")\n' + CALL
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, newer, "x = (\n")})
    run = _run(tmp_path / "nb.ipynb")
    assert [(e.cell, e.code) for e in run.errors] == [(4, "CM001")]
    assert _findings(run) == {(3, 3, 67, "CM101")}
    fixed = _run(tmp_path / "nb.ipynb", fix=True)
    assert _findings(fixed) == set()
    cells = json.loads((tmp_path / "nb.ipynb").read_text())["cells"]
    assert "".join(cells[2]["source"]) == newer.replace("temperature=0.9", "temperature=0.0")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"nbformat": 3, "worksheets": [], "anthropic": 1}',
            "unsupported notebook format: nbformat 3",
        ),
        ('["anthropic"]', "the JSON is not an object"),
        (
            '{"nbformat": 4, "cells": [{"cell_type": "code", "source": 3}], "anthropic": 1}',
            "cell 1: `source`",
        ),
        ('{"nbformat": 4, "cells": {}, "anthropic": 1}', "`cells` is missing or not a list"),
        (b'{"nbformat": 4, "cells": [], "anthropic": "\xff"}', "notebook is not UTF-8"),
    ],
)
def test_json_that_is_not_a_notebook_is_cm001(text: str, message: str, tmp_path: Path) -> None:
    write_tree(tmp_path, {"x.ipynb": text})
    run = _run(tmp_path / "x.ipynb")
    assert [e.code for e in run.errors] == ["CM001"]
    assert message in run.errors[0].message


def test_hostile_deeply_nested_json_is_cm001_not_a_crash(tmp_path: Path) -> None:
    text = '{"nbformat": 4, "anthropic": ' + "[" * 100000 + "]" * 100000 + ', "cells": []}'
    write_tree(tmp_path, {"deep.ipynb": text})
    run = _run(tmp_path / "deep.ipynb")
    assert run.errors and "nested too deeply" in run.errors[0].message


# Which notebooks are checked ------------------------------------------------------------------


def test_discovery_finds_notebooks_and_respects_gitignore_and_exclude(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    nb = notebook(CLIENT, CALL)
    write_tree(
        tmp_path,
        {
            ".gitignore": "scratch/\n",
            "claude-migrate.toml": 'exclude = ["legacy/**"]\n',
            "nb/a.ipynb": nb,
            "scratch/b.ipynb": nb,
            "legacy/c.ipynb": nb,
            ".ipynb_checkpoints/a-checkpoint.ipynb": nb,
        },
    )
    data = Cli(tmp_path).json("check", "--no-cache", ".")
    # Jupyter's autosave copies (.ipynb_checkpoints) are not the notebook: never checked.
    assert {d["path"] for d in data["diagnostics"]} == {"nb/a.ipynb"}
    excluded = Cli(tmp_path)("check", "--no-cache", "--force-exclude", "legacy/c.ipynb")
    assert excluded.exit_code == 0 and "CM101" not in excluded.stdout


def test_a_named_notebook_in_another_language_warns_and_check_exits_2(tmp_path: Path) -> None:
    write_tree(tmp_path, {"r.ipynb": notebook(CLIENT, CALL, language="R")})
    result = Cli(tmp_path)("check", "--no-cache", "r.ipynb")
    assert result.exit_code == 2
    assert (
        "warning: r.ipynb: not checked: its kernel's language is 'R', not Python" in result.stderr
    )
    assert "none of the named paths can be checked" in result.stderr


def test_a_coconut_notebook_whose_cells_are_python_is_checked(tmp_path: Path) -> None:
    write_tree(tmp_path, {"c.ipynb": notebook(CLIENT, CALL, language="coconut")})
    result = Cli(tmp_path)("check", "--no-cache", "c.ipynb")
    assert result.exit_code == 1
    assert "c.ipynb:cell 3:1:" in result.stdout and "CM101" in result.stdout


def test_a_coconut_notebook_with_coconut_syntax_has_its_python_cells_checked(
    tmp_path: Path,
) -> None:
    pipeline = "range(10) |> map$(x -> x * 2) |> list\n"
    write_tree(tmp_path, {"c.ipynb": notebook(CLIENT, CALL, pipeline, language="coconut")})
    result = Cli(tmp_path)("check", "--no-cache", "c.ipynb")
    assert result.exit_code == 1
    assert "c.ipynb:cell 3:1:" in result.stdout and "CM101" in result.stdout
    assert "CM001" not in result.stdout, "the Coconut cell is Coconut, not a syntax error"


def test_a_named_file_of_unknown_kind_warns_and_strict_paths_exits_2(tmp_path: Path) -> None:
    write_tree(tmp_path, {"notes.txt": "anthropic\n", "nb.ipynb": notebook(CLIENT)})
    cli = Cli(tmp_path)
    lenient = cli("check", "--no-cache", "notes.txt", "nb.ipynb")
    assert lenient.exit_code == 0
    assert (
        "warning: notes.txt: not checked: not a Python, notebook, dependency or configuration file"
        in lenient.stderr
    )
    assert "1 named path not checked" in lenient.stdout
    strict = cli("check", "--no-cache", "--strict-paths", "notes.txt", "nb.ipynb")
    assert strict.exit_code == 2
    assert "cannot be checked (--strict-paths)" in strict.stderr


def test_zero_files_checked_with_named_paths_always_says_why(tmp_path: Path) -> None:
    write_tree(tmp_path, {"empty/README.md": "nothing\n", "notes.txt": "x\n"})
    cli = Cli(tmp_path)
    folder = cli("check", "--no-cache", "empty")
    assert folder.exit_code == 0
    assert (
        "warning: empty: not checked: no Python, notebook, dependency or configuration file"
        in folder.stderr
    )
    file = cli("fix", "--no-cache", "notes.txt")
    assert "warning: notes.txt: not checked" in file.stderr


def test_a_found_notebook_in_another_language_is_noted_in_verbose_output(tmp_path: Path) -> None:
    write_tree(tmp_path, {"nbs/r.ipynb": notebook(CLIENT, CALL, language="R")})
    cli = Cli(tmp_path)
    quiet = cli("check", "--no-cache", "nbs")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert "1 notebook in another language not checked (--verbose names them)" in quiet.stdout
    verbose = cli("check", "--no-cache", "-v", "nbs")
    assert "note: nbs/r.ipynb: not checked: its kernel's language is 'R'" in verbose.stderr


# Cache and baseline ---------------------------------------------------------------------------


def test_cached_results_keep_the_cells(tmp_path: Path) -> None:
    _copy("cookbook", tmp_path)
    cli = Cli(tmp_path)
    cold = cli.json("check", "--cache-dir", "cache", "cookbook.ipynb")
    warm = cli.json("check", "--cache-dir", "cache", "cookbook.ipynb")
    assert cold["diagnostics"] == warm["diagnostics"]
    assert {d["cell"] for d in warm["diagnostics"]} == {5, 6, 10}
    assert any((tmp_path / "cache").rglob("*.json"))


def test_a_baseline_records_notebook_findings_and_hides_them(tmp_path: Path) -> None:
    _copy("cookbook", tmp_path)
    cli = Cli(tmp_path)
    cli("check", "--no-cache", "--write-baseline", "baseline.json", "cookbook.ipynb")
    clean = cli("check", "--no-cache", "--baseline", "baseline.json", "cookbook.ipynb")
    assert clean.exit_code == 0, clean.output
    assert "6 baselined findings hidden" in clean.stdout


def test_messages_that_name_other_lines_name_them_within_their_cells(tmp_path: Path) -> None:
    cells = (
        "from anthropic import HUMAN_PROMPT, AI_PROMPT\n",
        "x = 1\n",
        'prompt = f"{HUMAN_PROMPT} hi{AI_PROMPT}"\n',
    )
    write_tree(tmp_path, {"nb.ipynb": notebook(*cells)})
    (found,) = [d for d in _run(tmp_path / "nb.ipynb").diagnostics if d.code == "CM301"]
    assert (found.cell, found.line) == (2, 1)
    assert "still used on line 1 (cell 4)" in found.message


_PIECES = ["%time x", "!ls \\", "  data", "x = 1", "  y?", "'''", '"a?"', "pip install x", "(", ")"]


@pytest.mark.parametrize("seed", range(40))
def test_masking_any_cell_keeps_its_lines_and_unmasks_to_the_original(seed: int) -> None:
    import random

    from claude_migrate.notebook.ipython import mask_cell, unmask

    chooser = random.Random(seed)
    cell = "\n".join(chooser.choice(_PIECES) for _ in range(chooser.randint(1, 12)))
    cell += chooser.choice(["", "\n", "\r\n"])
    masked = mask_cell(cell, "\ue005")
    assert masked.skip_reason is None  # no piece is a cell magic
    assert masked.text.count("\n") == cell.count("\n")
    assert unmask(masked.text, masked.masked, "\ue005") == cell


def test_notebook_sarif_is_valid_sarif(tmp_path: Path) -> None:
    import jsonschema

    _copy("cookbook", tmp_path)
    write_tree(tmp_path, {"bad.ipynb": '{"nbformat": 4, "anthropic": [}\n'})
    result = Cli(tmp_path)("check", "--no-cache", "--format", "sarif", ".")
    document = json.loads(result.stdout)
    schema_path = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    results = document["runs"][0]["results"]
    (error,) = [r for r in results if r["ruleId"] == "CM001"]
    assert error["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    assert len(results) == 7


def test_top_level_await_in_a_cell_is_checked_and_fixed(tmp_path: Path) -> None:
    cell = CALL.replace("client.messages.create", "reply = await client.messages.create")
    write_tree(
        tmp_path, {"nb.ipynb": notebook(CLIENT.replace("Anthropic()", "AsyncAnthropic()"), cell)}
    )
    run = _run(tmp_path / "nb.ipynb", fix=True)
    assert not run.diagnostics and not run.errors
    fixed = json.loads((tmp_path / "nb.ipynb").read_text(encoding="utf-8"))
    assert "temperature=0.0" in "".join(fixed["cells"][2]["source"])


def test_crlf_inside_cell_sources_is_kept_and_lines_count_as_jupyter_shows(tmp_path: Path) -> None:
    text = notebook((CLIENT + "x = 1\n" + CALL).replace("\n", "\r\n"))
    write_tree(tmp_path, {"nb.ipynb": text})
    assert _findings(_run(tmp_path / "nb.ipynb")) == {(2, 4, 67, "CM101")}
    _run(tmp_path / "nb.ipynb", fix=True)
    fixed = json.loads((tmp_path / "nb.ipynb").read_text(encoding="utf-8"))
    source = fixed["cells"][1]["source"]
    assert source[3].endswith("temperature=0.0, stream=True, messages=[])\r\n")
    assert all(line.endswith("\r\n") for line in source)


def _kernel(text: str, kernelspec: dict, language_info: dict | None = None) -> str:
    data = json.loads(text)
    data["metadata"] = {"kernelspec": kernelspec}
    if language_info is not None:
        data["metadata"]["language_info"] = language_info
    return json.dumps(data, indent=1) + "\n"


COCONUT_ONLY = "range(3) |> map$(x -> x * 2) |> list |> print\n"


def test_a_coconut_notebook_is_checked_and_its_coconut_cells_are_left_out(
    tmp_path: Path,
) -> None:
    nb = _kernel(
        notebook(CLIENT, COCONUT_ONLY, CALL),
        {"language": "coconut", "name": "coconut", "display_name": "Coconut"},
        {"name": "coconut", "codemirror_mode": {"name": "python", "version": 3}},
    )
    write_tree(tmp_path, {"nb.ipynb": nb})
    run = _run(tmp_path / "nb.ipynb")
    assert run.errors == [], "a Coconut cell is Coconut, not a syntax error"
    assert (4, 1, 67, "CM101") in _findings(run)
    result = Cli(tmp_path)("check", "--no-cache", "nb.ipynb")
    assert "not checked" not in result.stderr


def test_a_kernel_that_edits_its_cells_as_python_is_checked(tmp_path: Path) -> None:
    nb = _kernel(
        notebook(CLIENT, CALL),
        {"language": "sage", "name": "sagemath", "display_name": "SageMath"},
        {"name": "sage", "codemirror_mode": {"name": "ipython", "version": 3}},
    )
    write_tree(tmp_path, {"nb.ipynb": nb})
    assert (3, 1, 67, "CM101") in _findings(_run(tmp_path / "nb.ipynb"))


def test_a_kernel_in_another_language_is_still_passed_over(tmp_path: Path) -> None:
    nb = _kernel(
        notebook(CLIENT, CALL),
        {"language": "R", "name": "ir", "display_name": "R"},
        {"name": "R", "codemirror_mode": "r"},
    )
    write_tree(tmp_path, {"nb.ipynb": nb})
    result = Cli(tmp_path)("check", "--no-cache", "nb.ipynb")
    assert result.exit_code == 2
    assert "its kernel's language is 'R', not Python" in result.stderr


# The project around a notebook --------------------------------------------------------------


WRAPPER = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def ask(prompt, temperature=0.0):\n"
    "    return client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=100, temperature=temperature,\n'
    '        messages=[{"role": "user", "content": prompt}], stream=True,\n'
    "    )\n"
)


def test_a_notebook_calling_a_wrapper_beside_it_is_checked_through_that_wrapper(
    tmp_path: Path,
) -> None:
    # The notebook never names Claude: the module beside it (the kernel's working folder, first
    # on `sys.path`) makes the call, with the temperature the notebook passes.
    write_tree(
        tmp_path,
        {
            "helpers.py": WRAPPER,
            "nb.ipynb": notebook("from helpers import ask\n", 'ask("hi", temperature=0.9)\n'),
        },
    )
    data = Cli(tmp_path).json("check", "--no-cache", ".")
    found = {(d["path"], d.get("cell"), d["line"], d["code"]) for d in data["diagnostics"]}
    assert found == {("nb.ipynb", 3, 1, "CM101")}
    message = next(d["message"] for d in data["diagnostics"])
    assert "passed to ask() reaches a Claude call at helpers.py:7" in message


def test_a_notebook_with_a_broken_cell_that_never_names_claude_is_not_parsed(
    tmp_path: Path,
) -> None:
    # As a Python file that does not parse: the phase's view does not make it worth a parse.
    write_tree(
        tmp_path,
        {
            "helpers.py": WRAPPER,
            "nb.ipynb": notebook("from helpers import ask\n", "def broken(:\n"),
        },
    )
    data = Cli(tmp_path).json("check", "--no-cache", ".")
    assert data["diagnostics"] == [] and data["errors"] == []


def test_a_default_read_by_two_calls_of_one_cell_is_one_finding(tmp_path: Path) -> None:
    helper = (
        "def ask(prompt, model='claude-sonnet-4-6', max_tokens=100):\n"
        "    return client.messages.create(\n"
        "        model=model, max_tokens=max_tokens, messages=[], stream=True\n"
        "    )\n"
    )
    both = (
        "def long(text, max_tokens=2000):\n"
        "    parts = [ask(chunk, max_tokens=max_tokens) for chunk in text]\n"
        "    return client.messages.create(\n"
        "        model='claude-sonnet-4-6', max_tokens=max_tokens, messages=[], stream=True\n"
        "    )\n"
    )
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, helper, both, "long('abc')\n")})
    run = _run(tmp_path / "nb.ipynb")
    assert _findings(run) == {(4, 1, 27, "CM102")}
    (finding,) = run.diagnostics
    assert "passed to ask() reaches a Claude call at " in finding.message
    assert finding.message.count("nb.ipynb:cell 3:2") == 1


def test_a_request_dict_bound_again_in_a_later_cell_is_read_as_written_before_each_call(
    tmp_path: Path,
) -> None:
    bedrock = 'import boto3\nbedrock = boto3.client("bedrock-runtime")\n'

    def request(temperature: str) -> str:
        return (
            "request = {\n"
            '    "messages": [],\n'
            f'    "inferenceConfig": {{"temperature": {temperature}, "maxTokens": 300}},\n'
            "}\n"
        )

    send = (
        "try:\n"
        "    reply = bedrock.converse_stream(\n"
        '        modelId="anthropic.claude-haiku-4-5-20251001-v1:0",\n'
        '        messages=request["messages"],\n'
        '        inferenceConfig=request["inferenceConfig"],\n'
        "    )\n"
        "except Exception as error:\n"
        "    print(error)\n"
    )
    cells = (bedrock, request("0.6"), send, request("0.1"), send)
    write_tree(tmp_path, {"nb.ipynb": notebook(*cells)})
    run = _run(tmp_path / "nb.ipynb")
    assert _findings(run) == {(3, 3, 25, "CM101")}


# IPython's cleanup of a cell (`IPython/core/inputtransformer2.py`, `cleanup_transforms`): each
# cell and what IPython 8.12 runs, computed with `TransformerManager().cleanup_transforms`.
_CLEANED = [
    ("    x = 1\n    y = 2\n", "x = 1\ny = 2\n"),
    ("\n  x = 1\n\n  y = 2\n z\n", "\nx = 1\n\ny = 2\n z\n"),  # blank lines first stay here
    (">>> x = 1\n... y\n>>> z\n", "x = 1\ny\nz\n"),
    ("x = (\n... , 1)\n", "x = (\n, 1)\n"),  # a second line's `... ` is a prompt
    ("In [1]: x = 1\n   ...: y\n", "x = 1\ny\n"),
    ("In[1]: x\n", "In[1]: x\n"),  # an annotated assignment, not a prompt
    ("[ins] In [3]: a\n", "a\n"),
    ("    >>> a = 1\n    ... b\n", "a = 1\nb\n"),
    (">>>\n", "\n"),
    ("x\n    ...: y\n", "x\ny\n"),
    ("x = 1\n", "x = 1\n"),
]


@pytest.mark.parametrize(("cell", "cleaned"), _CLEANED)
def test_a_cell_is_read_as_ipython_cleans_it_and_its_prefixes_come_back(
    cell: str, cleaned: str
) -> None:
    from claude_migrate.notebook.ipython import put_prompts_back, strip_prompts

    stripped = strip_prompts(cell)
    assert stripped.text == cleaned
    assert stripped.prefixes is not None
    assert put_prompts_back(stripped.text, stripped.prefixes) == cell


@pytest.mark.parametrize(
    "prefix",
    ["    ", "\t", ">>> ", "In [7]: ", "  >>> "],
    ids=["spaces", "tab", "py", "ip", "both"],
)
def test_an_indented_or_prompted_cell_is_checked_and_fixed_as_ipython_runs_it(
    prefix: str, tmp_path: Path
) -> None:
    """IPython takes a cell's common indentation and its pasted prompts off before running it: such
    a cell is no syntax error, its findings are placed on its own columns, and a fix keeps them."""
    rest = "   ...: " if prefix.startswith("In") else prefix
    lines = (CLIENT + CALL).splitlines(keepends=True)
    cell = prefix + lines[0] + "".join(rest + line for line in lines[1:])
    write_tree(tmp_path, {"nb.ipynb": notebook("x = 1\n", cell)})
    run = _run(tmp_path / "nb.ipynb")
    assert not run.errors, run.errors
    assert _findings(run) == {(3, 3, 67 + len(rest), "CM101")}
    run = _run(tmp_path / "nb.ipynb", fix=True)
    assert not run.errors and not run.diagnostics
    fixed = "".join(json.loads((tmp_path / "nb.ipynb").read_text("utf-8"))["cells"][2]["source"])
    assert fixed == cell.replace("temperature=0.9", "temperature=0.0")


def test_a_cell_ipython_still_cannot_run_is_cm001_on_its_own_column(tmp_path: Path) -> None:
    write_tree(tmp_path, {"nb.ipynb": notebook("    x = 1\n   y = 2\n", CLIENT + CALL)})
    run = _run(tmp_path / "nb.ipynb")
    (error,) = run.errors
    assert (error.cell, error.line, error.code) == (2, 2, "CM001")
    assert _findings(run) == {(3, 3, 67, "CM101")}


def test_a_prompt_after_a_form_feed_is_read_and_only_that_cell_is_not_rewritten(
    tmp_path: Path,
) -> None:
    """IPython splits a cell at a form feed too (`str.splitlines`), Python does not: the prompt it
    takes off there is no line's prefix, so that cell is checked but never written back."""
    odd = ">>> import anthropic\n>>> client = anthropic.Anthropic(\x0c>>> )\n>>> " + CALL
    write_tree(tmp_path, {"nb.ipynb": notebook(odd, CLIENT + CALL)})
    run = _run(tmp_path / "nb.ipynb")
    assert not run.errors, run.errors
    assert {(c, line, code) for c, line, _, code in _findings(run)} == {
        (2, 3, "CM101"),
        (3, 3, "CM101"),
    }
    _run(tmp_path / "nb.ipynb", fix=True)
    cells = json.loads((tmp_path / "nb.ipynb").read_text("utf-8"))["cells"]
    assert "".join(cells[1]["source"]) == odd
    assert "temperature=0.0" in "".join(cells[2]["source"])


def test_a_fix_is_written_beside_a_cell_jupyter_split_at_a_form_feed(tmp_path: Path) -> None:
    """Jupyter writes a source list split as `str.splitlines` splits (a form feed ends an
    element); an unchanged cell stays as written, so a fix in another cell is still written."""
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT + "page = 'a\x0cb'\n", CALL)})
    run = _run(tmp_path / "nb.ipynb", fix=True)
    assert not run.errors and not run.diagnostics
    cells = json.loads((tmp_path / "nb.ipynb").read_text("utf-8"))["cells"]
    assert "temperature=0.0" in "".join(cells[2]["source"])


@pytest.mark.parametrize(
    ("line", "runs"),
    [
        ("/print 'x'\n", "print('x')"),
        ("/f\n", "f()"),
        ("/f a  b\n", "f(a, b)"),
        (",f a  b\n", 'f("a", "b")'),
        (",f\n", 'f("")'),
        (";f   a  b  \n", 'f("  a  b")'),
        ("  /f a\n", "  f(a)"),
    ],
)
def test_an_autocall_line_is_read_as_the_call_ipython_runs(line: str, runs: str) -> None:
    """IPython's `/`, `,` and `;` escapes (`EscapedCommand` in
    `IPython/core/inputtransformer2.py`, whose output for each line here was taken from
    IPython 8.12's `TransformerManager.transform_cell`) are calls, not syntax errors; the line
    comes back exactly."""
    from claude_migrate.notebook.ipython import mask_cell, unmask

    cell = "x = 1\n" + line
    masked = mask_cell(cell, "\ue006")
    assert masked.text.splitlines()[1] == f"{runs}  #\ue006" + "0"
    assert unmask(masked.text, masked.masked, "\ue006") == cell


def test_a_claude_call_behind_an_autocall_escape_is_seen_and_not_rewritten(
    tmp_path: Path,
) -> None:
    """A call written with IPython's `/` escape is still a Claude call: its findings are
    reported (the cell is no CM001), and no fix rewrites the escaped line, which has no
    IPython spelling once changed."""
    cell = "/client.messages.create model='claude-3-opus-20240229'\nprint(1)\n"
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, cell)})
    run = _run(tmp_path / "nb.ipynb")
    assert not run.errors, run.errors
    assert {(c, line, code) for c, line, _, code in _findings(run)} == {
        (3, 1, "CM104"),
        (3, 1, "CM302"),
    }
    before = (tmp_path / "nb.ipynb").read_bytes()
    _run(tmp_path / "nb.ipynb", fix=True, unsafe=True)
    assert (tmp_path / "nb.ipynb").read_bytes() == before


def test_an_autocall_continued_by_a_backslash_stays_a_syntax_error(tmp_path: Path) -> None:
    """A continued autocall is not read (IPython joins the lines first): the cell stays CM001
    rather than hiding whatever the joined call holds."""
    write_tree(tmp_path, {"nb.ipynb": notebook(CLIENT, "/client.messages.create \\\n  x\n")})
    run = _run(tmp_path / "nb.ipynb")
    assert [(e.cell, e.code) for e in run.errors] == [(3, "CM001")]
