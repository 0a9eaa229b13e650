"""The project phase's fixed point reads again only the calls whose inputs changed.

Reading every call every round is the reference: the worklist must give the same views, byte
for byte (their facts, in their order, and their digests), on every fixture tree and on the
shapes whose facts need more than one round or more than one solve.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, write_tree

from claude_migrate.core.source import read_regular
from claude_migrate.project import phase
from claude_migrate.project.phase import Project

TREES = sorted(path for path in FIXTURES.iterdir() if path.is_dir() and any(path.rglob("*.py")))


def _views(tree: Path, incremental: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """Return a tree's views as JSON, and how many calls the fixed point read."""
    monkeypatch.setattr(Project, "incremental", incremental)
    read = 0
    scan = Project._scan_call

    def counted(self: Project, module: str, function: str | None, call: list[Any]) -> None:
        nonlocal read
        read += 1
        scan(self, module, function, call)

    monkeypatch.setattr(Project, "_scan_call", counted)
    paths = sorted(str(path) for path in tree.rglob("*.py"))
    project = phase.build([(Path(p), read_regular(p)) for p in paths], tree)
    views = {}
    for path in paths:
        view = project.view(path)
        views[path] = None if view is None else [view.module, view.modules, view.digest]
    monkeypatch.undo()
    return json.dumps(views, default=str), read


@pytest.mark.parametrize("tree", TREES, ids=[tree.name for tree in TREES])
def test_the_worklist_gives_the_views_of_reading_every_call(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reference, every = _views(tree, False, monkeypatch)
    found, read = _views(tree, True, monkeypatch)
    assert found == reference
    assert read <= every


# A chain of wrappers written so that the first module read calls a wrapper whose facts are
# found later in the round (read again in the next), a module summarised at the end of a round
# (a constant found missing by a module-level call, then found), and a module joining in a
# second solve (it names no Claude, and calls a wrapper of the others).
CHAIN = {
    "app/__init__.py": "",
    "app/a_first.py": (
        "import anthropic\nfrom app.m_middle import outer\n\n"
        "client = anthropic.Anthropic()\n\n\ndef go():\n    return outer('hi', 0.9)\n"
    ),
    "app/m_middle.py": (
        "import anthropic\nfrom app.z_last import inner\n\n\n"
        "def outer(prompt, temperature):\n    return inner(prompt, temperature)\n"
    ),
    "app/z_last.py": (
        "import anthropic\nfrom app.settings import MODEL\n\nclient = anthropic.Anthropic()\n\n\n"
        "def inner(prompt, temperature):\n"
        "    return client.messages.create(model=MODEL, max_tokens=64, temperature=temperature,\n"
        "        messages=[{'role': 'user', 'content': prompt}])\n"
    ),
    "app/settings.py": "MODEL = 'claude-3-opus-20240229'\n",
    "app/limits.py": "LIMIT = 4096\n",
    "app/script.py": (
        "import anthropic\nfrom app.limits import LIMIT\n\n"
        "anthropic.Anthropic().messages.create(model='claude-sonnet-4-6', max_tokens=LIMIT,\n"
        "    messages=[])\n"
    ),
    "app/user.py": (
        "from app.a_first import go\nfrom app.m_middle import outer\n\nouter('x', 1.0)\n"
    ),
}


def test_facts_found_late_reach_the_calls_read_before_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_tree(tmp_path, CHAIN)
    reference, every = _views(tmp_path, False, monkeypatch)
    found, read = _views(tmp_path, True, monkeypatch)
    assert found == reference
    # The calls whose inputs did not move are not read again.
    assert read < every
    views = json.loads(found)
    first = views[str(tmp_path / "app/a_first.py")][1]
    # `go` passes its 0.9 to `outer`, which reaches the Claude call through `inner`.
    assert first["app.m_middle"]["functions"]["outer"]["reaches"]["temperature"] == [
        ["temperature", "sdk:messages.create", "app/z_last.py", 8]
    ]
    # The settings constant is known as read by the Claude call of another module.
    settings = views[str(tmp_path / "app/settings.py")][1]["app.settings"]
    assert settings["read_by"]["MODEL"] == [["model", "sdk:messages.create", "app/z_last.py", 8]]
    # A module-level call reads a constant of a module before anything summarised it.
    limits = views[str(tmp_path / "app/limits.py")][1]["app.limits"]
    assert limits["read_by"]["LIMIT"] == [["max_tokens", "sdk:messages.create", "app/script.py", 4]]


def test_facts_are_written_only_where_the_worklist_sees_it() -> None:
    """A fact written behind the worklist's back leaves the calls that read it stale: every
    write goes through `Project._entry` (a table's entry) and `Project._touch` (a change)."""
    tree = ast.parse(Path(phase.__file__).read_text(encoding="utf-8"))
    writes = ("setdefault", "add", "update", "append", "extend", "pop", "clear", "discard")

    def is_fact_table(node: ast.expr) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "facts"
            and isinstance(node.value.value, ast.Name)
            and node.value.value.id == "self"
        )

    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in writes
            and is_fact_table(node.func.value)
        ):
            found.append(node.lineno)
        targets = node.targets if isinstance(node, ast.Assign) else []
        for target in targets:
            if isinstance(target, ast.Subscript) and is_fact_table(target.value):
                found.append(target.lineno)
    assert found == []


# Where facts are read without telling the worklist: after the fixed point (deriving what
# files are told), or by the fixed point itself between rounds.
READ_AFTER = {
    "_function_entry",
    "_callers_agree",
    "_claude_by_callers",
    "_inherit_functions",
    "_derive",
    "_constant_reads_of_file",
    "_derive_classes",
    "_defaults_read",
    "_defaults_outside",
    "_given_defaults",
    "_reach_notes",
    # What files are told of handed tables and of entries a later spread may replace.
    "_handed_objects",
    "_handed_tables",
    "_spread_kept",
    "_kept_reads",
    "_condition_sent",
    "_sent_by_some_call",
    "solve",
}


def test_facts_read_while_calls_are_read_are_told_to_the_worklist() -> None:
    """A call that reads a fact must say so (`Project._read`): else it is not read again when
    the fact changes. Each function that looks a fact up must call `_read`, or be one of those
    that run after the fixed point."""
    tree = ast.parse(Path(phase.__file__).read_text(encoding="utf-8"))
    project = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Project")
    unsaid = []
    for function in project.body:
        if not isinstance(function, ast.FunctionDef) or function.name in READ_AFTER:
            continue
        looks_up = tells = False
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and isinstance(node.func.value, ast.Attribute)
                and isinstance(node.func.value.value, ast.Attribute)
                and node.func.value.value.attr == "facts"
            ):
                looks_up = True
            if isinstance(node, ast.Compare) and any(
                isinstance(c, ast.Attribute)
                and isinstance(c.value, ast.Attribute)
                and c.value.attr == "facts"
                for c in node.comparators
            ):
                looks_up = True
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_read"
            ):
                tells = True
        if looks_up and not tells:
            unsaid.append(function.name)
    assert unsaid == []


GIVING = """\
import anthropic

client = anthropic.Anthropic()


def {name}(prompt, model):
    return client.messages.create(
        model=model, max_tokens=64, messages=[{{"role": "user", "content": prompt}}]
    )
"""


def test_a_file_joins_when_it_imports_a_giving_module_and_spells_a_given_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The growth loop's test, decided with as few modules' facts derived as it needs: a file
    # importing a module that gives something joins when it spells a name that module gives,
    # or one any other module gives (the test reads the union), or star-imports; a file that
    # imports it and spells no given name stays out.
    tree = write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/llm.py": GIVING.format(name="ask"),
            "app/other.py": GIVING.format(name="summarise"),
            "app/own.py": "from app.llm import ask\n\nask('hi', input())\n",
            "app/union.py": "from app import llm\n\nsummarise = print\nllm\n",
            "app/star.py": "from app.llm import *\n",
            "app/plain.py": "from app import llm\n\nprint(llm)\n",
            "app/unrelated.py": "import os\n\nprint(os)\n",
        },
    )
    derived: list[str] = []
    original = phase.Project._derive

    def counting(self: phase.Project, module: str) -> dict[str, Any]:
        derived.append(module)
        return original(self, module)

    monkeypatch.setattr(phase.Project, "_derive", counting)
    files = [(path, path.read_bytes()) for path in sorted((tree / "app").glob("*.py"))]
    project = phase.build(files, tree)
    joined = {module for module in project.summaries if module in project.followed}
    assert {"app.own", "app.union", "app.star"} <= joined
    assert "app.plain" not in project.summaries
    assert "app.unrelated" not in project.summaries
    # Each module's facts were derived at most once per growth step (two steps here).
    assert max(derived.count(module) for module in set(derived)) <= 2


def test_a_settings_class_or_a_longer_name_does_not_make_a_file_join(tmp_path: Path) -> None:
    # A class holding only constants (`Usage.model` read as a value) says what a value is at a
    # call that is already a Claude call, as a module constant does: a file importing it only
    # to use it elsewhere does not join, nor is it parsed for the project's sake. A given name
    # is spelled as a whole word: `AskUsage` does not spell `Ask`.
    tree = write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "app/__init__.py": "",
            "app/llm.py": (
                "import anthropic\nfrom pydantic import BaseModel\n\n\n"
                "class Usage(BaseModel):\n    model: str | None = None\n    tokens: int = 0\n\n\n"
                "class Ask:\n    def __init__(self):\n        self.client = anthropic.Anthropic()\n"
            ),
            "app/report.py": "from app.llm import Usage\n\nprint(Usage(model='x').tokens)\n",
            "app/longer.py": "from app import llm\n\nAskUsage = llm\n",
            "app/uses.py": "from app.llm import Ask\n\nAsk().client\n",
        },
    )
    files = [(path, path.read_bytes()) for path in sorted((tree / "app").glob("*.py"))]
    project = phase.build(files, tree)
    assert project.derived("app.llm")["classes"]["Usage"] == {"constants": {"model": None}}
    assert "app.uses" in project.summaries
    assert "app.report" not in project.summaries
    assert "app.longer" not in project.summaries


def test_defaults_no_call_replaces_are_kept_only_where_a_dict_takes_them(tmp_path: Path) -> None:
    # `extra=None` that no call replaces matters to a function that merges it into a request
    # (`params.update(extra)`): in any other function's view the fact only made its callers'
    # files look like Claude callers, and doubled a cold run on the anthropic SDK's source.
    write_tree(
        tmp_path,
        {
            "util.py": "def fmt(text, extra=None):\n    return text + (extra or '')\n",
            "app.py": (
                "import anthropic\nfrom util import fmt\nclient = anthropic.Anthropic()\n"
                "def ask(prompt, extra=None):\n"
                "    params = {'model': 'claude-sonnet-4-6', 'max_tokens': 64,"
                " 'messages': [{'role': 'user', 'content': fmt(prompt)}]}\n"
                "    if extra:\n        params.update(extra)\n"
                "    return client.messages.create(**params)\n"
                "ask('hi')\n"
            ),
        },
    )
    paths = sorted(str(path) for path in tmp_path.rglob("*.py"))
    project = phase.build([(Path(p), read_regular(p)) for p in paths], tmp_path)
    app = project.view(str(tmp_path / "app.py"))
    assert app is not None
    assert app.modules["app"]["functions"]["ask"] == {"unpassed": ["extra"]}
    assert "util" not in app.modules
    assert project.view(str(tmp_path / "util.py")) is None
