"""Project-wide resolution: clients, values and wrappers that cross modules.

Every `fixtures/project-<shape>/` folder is a small project: its files mark each expected
finding with `# expect: CODE` and `<file>.fixed.py` is the golden of `fix --unsafe-fixes` for a
file the fix changes. Each is copied (without its goldens) and run through the CLI.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import FIXTURES, Cli, marked_tree, write_tree

from claude_migrate.project import phase

PROJECTS = sorted(p for p in FIXTURES.iterdir() if p.is_dir() and p.name.startswith("project-"))


def _copy(project: Path, into: Path) -> Path:
    shutil.copytree(project, into, ignore=shutil.ignore_patterns("*.fixed.py"))
    return into


def _found(cli: Cli, *args: str) -> set[tuple[str, int, str]]:
    result = cli("check", "--no-cache", "--format", "json", *args)
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    assert not data["errors"], data["errors"]
    return {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_project_reports_exactly_the_marked_lines(project: Path, tmp_path: Path) -> None:
    work = _copy(project, tmp_path / project.name)
    assert _found(Cli(work), ".") == marked_tree(work)


@pytest.mark.parametrize("project", PROJECTS, ids=lambda p: p.name)
def test_project_fix_matches_goldens_and_settles(project: Path, tmp_path: Path) -> None:
    work = _copy(project, tmp_path / project.name)
    cli = Cli(work)
    assert cli("fix", "--unsafe-fixes", "--no-cache", ".").exit_code in (0, 1)
    for path in sorted(work.rglob("*.py")):
        relative = path.relative_to(work)
        golden = project / relative.with_name(relative.stem + ".fixed.py")
        expected = golden if golden.is_file() else project / relative
        assert path.read_text(encoding="utf-8") == expected.read_text(encoding="utf-8"), relative
    again = cli("fix", "--unsafe-fixes", "--no-cache", ".")
    assert "Fixed 0," in again.stdout, again.stdout


def test_the_measuring_switch_turns_the_project_phase_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bench/run.py reports the phase's share by running with CLAUDE_MIGRATE_PROJECT=0: the
    # switch must really leave each file alone, or that row measures nothing.
    work = _copy(FIXTURES / "project-imports", tmp_path / "project-imports")
    with_phase = _found(Cli(work), ".")
    monkeypatch.setenv("CLAUDE_MIGRATE_PROJECT", "0")
    alone = _found(Cli(work), ".")
    assert alone < with_phase


LLM = """\
import anthropic

client = anthropic.Anthropic()


def ask(prompt, temperature=0.0):
    return client.messages.create(
        model="claude-sonnet-4-6",
        max_tokens=256,
        temperature=temperature,
        messages=[{"role": "user", "content": prompt}],
    )
"""
SERVICE = """\
from app.llm import ask


def answer(question):
    return ask(question, temperature=0.9)
"""


def test_changing_a_wrapper_in_one_module_rechecks_its_callers_with_a_warm_cache(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/llm.py": LLM,
            "app/service.py": SERVICE,
        },
    )
    cli = Cli(root)
    cache = str(tmp_path / "cache")

    def found() -> set[tuple[str, int, str]]:
        result = cli("check", "--cache-dir", cache, "--format", "json", "--select", "CM101", ".")
        return {(d["path"], d["line"], d["code"]) for d in json.loads(result.stdout)["diagnostics"]}

    assert found() == {("app/service.py", 5, "CM101")}
    assert found() == {("app/service.py", 5, "CM101")}  # warm
    # The wrapper stops passing its temperature on: the caller's bytes did not change, but its
    # finding goes.
    (root / "app/llm.py").write_text(LLM.replace("        temperature=temperature,\n", ""))
    assert found() == set()
    (root / "app/llm.py").write_text(LLM)
    assert found() == {("app/service.py", 5, "CM101")}
    # The other way: a caller starts relying on the wrapper's default (now above the maximum):
    # the wrapper's own file is reported though its bytes are those the cache saw... first
    # with the default nobody relies on, then relied on.
    (root / "app/llm.py").write_text(LLM.replace("temperature=0.0):", "temperature=0.7):"))
    assert found() == {("app/service.py", 5, "CM101")}
    (root / "app/service.py").write_text(SERVICE.replace(", temperature=0.9", ""))
    assert found() == {("app/llm.py", 6, "CM101")}


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, timeout=60)


def test_a_run_on_staged_files_resolves_through_modules_not_given_and_reports_only_them(
    tmp_path: Path,
) -> None:
    repo = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/llm.py": LLM.replace("temperature=0.0):", "temperature=0.7):"),
            "app/service.py": SERVICE,
            "app/other.py": "from app.llm import ask\n\nask('x')\n",
        },
    )
    _git(repo, "init", "-q")
    _git(repo, "add", "app/service.py")  # what a pre-commit hook is given: the staged files
    found = _found(Cli(repo), "--force-exclude", "app/service.py")
    # app/llm.py (not staged, not given) is read to prove `ask` reaches Claude; its own finding
    # (the default app/other.py relies on) is not reported on this run.
    assert found == {("app/service.py", 5, "CM101")}


def test_json_and_sarif_carry_the_hop_to_the_claude_call(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/llm.py": LLM,
            "app/service.py": SERVICE,
        },
    )
    cli = Cli(root)
    data = json.loads(
        cli("check", "--no-cache", "--format", "json", "--select", "CM101", ".").stdout
    )
    (finding,) = data["diagnostics"]
    assert finding["message"] == (
        "temperature 0.9 passed to ask() reaches a Claude call at app/llm.py:7 "
        "and is above the policy maximum 0.2"
    )
    assert finding["related"] == [
        {"path": "app/llm.py", "line": 7, "message": "the Claude call ask() passes temperature to"}
    ]
    sarif = json.loads(
        cli("check", "--no-cache", "--format", "sarif", "--select", "CM101", ".").stdout
    )
    (result,) = sarif["runs"][0]["results"]
    (related,) = result["relatedLocations"]
    assert related["physicalLocation"]["artifactLocation"]["uri"] == "app/llm.py"
    assert related["physicalLocation"]["region"]["startLine"] == 7
    text = cli("check", "--no-cache", "--select", "CM101", ".").stdout
    assert "    app/llm.py:7: the Claude call ask() passes temperature to" in text


CALL_SITES = """\
[[call-sites]]
function = "acme_llm.client.chat"
model = "model_name"
temperature = "temp"
"""


def test_declared_call_sites_are_checked_like_claude_calls(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "claude-migrate.toml": CALL_SITES,
            # No Claude name in the file: the declaration alone makes it worth reading.
            "app.py": (
                "from acme_llm.client import chat\n\n"
                "chat('hi', temp=0.9)\nchat('hi', temp=0.1, other=5)\n"
            ),
        },
    )
    cli = Cli(root)
    data = json.loads(cli("check", "--no-cache", "--format", "json", ".").stdout)
    assert [(d["line"], d["code"], d["message"]) for d in data["diagnostics"]] == [
        (
            3,
            "CM101",
            "temperature 0.9 passed to chat(), a Claude call site the policy declares, "
            "and is above the policy maximum 0.2",
        )
    ]
    listed = cli("rules").stdout
    assert "acme_llm.client.chat: model = model_name, temperature = temp" in listed


@pytest.mark.parametrize(
    ("entry", "key", "line"),
    [
        ('function = "chat"\ntemperature = "temp"\n', "call-sites[0].function", 2),
        ('function = "acme.chat"\ntemprature = "temp"\n', "call-sites[0].temprature", 3),
        ('function = "acme.chat"\ntemperature = "not a name"\n', "call-sites[0].temperature", 3),
        ('function = "acme.chat"\n', "call-sites[0]", 2),
    ],
)
def test_a_malformed_call_site_exits_2_naming_file_line_and_key(
    tmp_path: Path, entry: str, key: str, line: int
) -> None:
    root = write_tree(
        tmp_path / "repo", {"claude-migrate.toml": "[[call-sites]]\n" + entry, "a.py": ""}
    )
    result = Cli(root)("check", "--no-cache", ".")
    assert result.exit_code == 2
    assert f"claude-migrate.toml:{line}: `{key}`" in result.stderr


SWITCHING_CLIENT = """\
import anthropic
import openai


class Assistant:
    def __init__(self, provider):
        self.provider = provider
        self.claude = anthropic.Anthropic()
        self.gpt = openai.OpenAI()

    def reply(self, prompt, temperature=0.0):
        if self.provider == "openai":
            return self.gpt.chat.completions.create(
                model="gpt-4o", temperature=temperature, messages=[]
            )
        with self.claude.messages.stream(
            model="claude-sonnet-4-6", max_tokens=100, temperature=temperature, messages=[]
        ) as stream:
            return stream.get_final_message()
"""


@pytest.mark.xfail(
    strict=True,
    reason="a provider held in an instance attribute (`self.provider`, set in __init__ from "
    "the constructor's literal) is not read as a test that rules the Claude branch out",
)
def test_an_instance_made_for_another_provider_does_not_reach_the_claude_branch(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/llm.py": SWITCHING_CLIENT,
            "app/use.py": (
                'from app.llm import Assistant\n\nAssistant("openai").reply("x", temperature=1.5)\n'
            ),
        },
    )
    assert _found(Cli(root), "--select", "CM101", ".") == set()


REQUEST_BUILDER = """from anthropic import Anthropic


class ClaudeModel:
    def __init__(self, model_id):
        self.model_id = model_id
        self.client = Anthropic()

    def prepare(self, prompt, temperature=None):
        req = {"model": self.model_id, "max_tokens": 100, "messages": [prompt]}
        if temperature is not None:
            req["temperature"] = temperature
        return req

    def invoke(self, prompt):
        with self.client.messages.stream(**self.prepare(prompt)) as stream:
            return stream.get_final_text()
"""


@pytest.mark.xfail(
    strict=True,
    reason="a value passed to a method that only builds and returns the request (sent by "
    "another method of the class) is read as a Claude call's even where the caller only "
    "inspects the request it gets back and nothing is sent",
)
def test_a_request_built_and_only_inspected_sends_nothing(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/models.py": REQUEST_BUILDER,
            "app/inspect.py": (
                "from app.models import ClaudeModel\n\n"
                'req = ClaudeModel("claude-sonnet-4-6").prepare("hi", temperature=0.7)\n'
                'print(req["temperature"])\n'
            ),
        },
    )
    assert _found(Cli(root), "--select", "CM101", ".") == set()


AGENT_TABLE_AGENTS = """from anthropic import Anthropic


class ClaudeAgent:
    def __init__(self, key):
        self.client = Anthropic(api_key=key)

    def chat(self, prompt, max_tokens=1024):
        with self.client.messages.stream(
            model="claude-sonnet-4-6", max_tokens=max_tokens, messages=[prompt]
        ) as stream:
            return stream.get_final_text()


class EchoAgent:
    def chat(self, prompt, max_tokens=1024):
        return prompt
"""

AGENT_TABLE_ORCHESTRATOR = """class Orchestrator:
    def __init__(self, agents, primary="claude"):
        self.agents = agents
        self.primary = primary

    def run(self, prompt):
        return self.agents["claude"].chat(prompt, max_tokens=4096)
"""


def test_the_agent_a_literal_key_selects_in_a_handed_table_is_read(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/agents.py": AGENT_TABLE_AGENTS,
            "app/orchestrator.py": AGENT_TABLE_ORCHESTRATOR,
            "app/main.py": (
                "from app.agents import ClaudeAgent, EchoAgent\n"
                "from app.orchestrator import Orchestrator\n\n"
                'agents = {"claude": ClaudeAgent("k"), "echo": EchoAgent()}\n'
                'Orchestrator(agents).run("hi")\n'
            ),
        },
    )
    assert _found(Cli(root), "--select", "CM102", ".") == {("app/orchestrator.py", 7, "CM102")}


@pytest.mark.xfail(
    strict=True,
    reason="a table of agents handed on through a second constructor (`Team(agents)` keeps "
    "`self.agents` and makes `Router(self.agents)`) is not read: the phase records a handed "
    "table only from a dict literal, and a file handing the kept dict on may change it",
)
def test_a_table_handed_on_through_a_second_constructor_is_read(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "app/__init__.py": "",
            "app/agents.py": AGENT_TABLE_AGENTS,
            "app/router.py": AGENT_TABLE_ORCHESTRATOR.replace("Orchestrator", "Router"),
            "app/team.py": (
                "from app.router import Router\n\n\n"
                "class Team:\n"
                "    def __init__(self, agents):\n"
                "        self.agents = agents\n"
                "        self.router = Router(self.agents)\n"
            ),
            "app/main.py": (
                "from app.agents import ClaudeAgent, EchoAgent\n"
                "from app.team import Team\n\n"
                'Team({"claude": ClaudeAgent("k"), "echo": EchoAgent()}).router.run("hi")\n'
            ),
        },
    )
    assert _found(Cli(root), "--select", "CM102", ".") == {("app/router.py", 7, "CM102")}


def _results_by_name(root: Path) -> dict[str, Any]:
    """Check a tree in this process (one worker); return each file's result by its name."""
    from claude_migrate.api import collect_jobs, execute
    from claude_migrate.core.job import Options
    from claude_migrate.policy.config import PolicyLoader

    done = execute(collect_jobs([root], PolicyLoader(cwd=root)), Options(), workers=1)
    return {Path(r.path).name: r for r in done.results}


def test_a_module_calling_only_its_own_method_of_a_wrapper_s_name_is_not_parsed(
    tmp_path: Path,
) -> None:
    """A module importing a class that wraps Claude, whose calls all go elsewhere (its own
    class's method of the same name), has nothing the project adds to its findings: LibCST
    parses it only for markers of its own. A module calling the wrapper is parsed and keeps its
    finding."""
    root = tmp_path / "proj"
    write_tree(
        root,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "app/__init__.py": "",
            "app/llm.py": (
                "import anthropic\n\n"
                "class Chat:\n"
                "    def __init__(self):\n"
                "        self.client = anthropic.Anthropic()\n\n"
                "    def ask(self, prompt, max_tokens=1024):\n"
                "        with self.client.messages.stream(\n"
                "            model='claude-sonnet-4-6', max_tokens=max_tokens,\n"
                "            messages=[{'role': 'user', 'content': prompt}],\n"
                "        ) as s:\n"
                "            return s.get_final_text()\n"
            ),
            "app/caller.py": "from app.llm import Chat\n\nChat().ask('hi', max_tokens=90000)\n",
            "app/echo.py": (
                "from app.llm import Chat\n\n"
                "class Echo:\n"
                "    def ask(self, prompt, max_tokens=10):\n"
                "        return prompt[:max_tokens]\n\n"
                "def both(chat: Chat):\n"
                "    return chat, Echo().ask('hi', max_tokens=90000)\n"
            ),
        },
    )
    by_name = _results_by_name(root)
    assert [d.code for d in by_name["caller.py"].diagnostics] == ["CM102"]
    assert by_name["caller.py"].parsed
    assert not by_name["echo.py"].diagnostics
    assert not by_name["echo.py"].parsed


def test_a_module_calling_only_factories_and_helpers_of_claude_code_is_not_parsed(
    tmp_path: Path,
) -> None:
    """A module that gets a client from a factory, calls a helper method of a class holding
    one, and hands a client to a function sending a request of its own gives no request a
    value: no call of it is a site (a factory's client makes requests through a Claude method,
    a wanted callee of its own). The triage rejects it even where the phase forces the module
    (every rule then counts, and the names the project exports). A module calling a wrapper
    is a candidate, parsed, and keeps its finding."""
    from claude_migrate.core.job import Job
    from claude_migrate.engine.runner import triaged_out
    from claude_migrate.policy.config import PolicyLoader

    root = tmp_path / "proj"
    write_tree(
        root,
        {
            "pyproject.toml": "[project]\nname = 'x'\n",
            "app/__init__.py": "",
            "app/llm.py": (
                "import anthropic\n\n"
                "def make_client():\n"
                "    return anthropic.Anthropic(max_retries=5)\n\n"
                "def ping(client):\n"
                "    with client.messages.stream(\n"
                "        model='claude-sonnet-4-6', max_tokens=16,\n"
                "        messages=[{'role': 'user', 'content': 'ping'}],\n"
                "    ) as s:\n"
                "        return s.get_final_text()\n\n"
                "class Pool:\n"
                "    def __init__(self):\n"
                "        self.client = make_client()\n\n"
                "    def copy(self):\n"
                "        return Pool()\n\n"
                "class Chat:\n"
                "    def __init__(self):\n"
                "        self.client = make_client()\n\n"
                "    def ask(self, prompt, temperature=0.2):\n"
                "        with self.client.messages.stream(\n"
                "            model='claude-sonnet-4-6', max_tokens=512, temperature=temperature,\n"
                "            messages=[{'role': 'user', 'content': prompt}],\n"
                "        ) as s:\n"
                "            return s.get_final_text()\n"
            ),
            "app/caller.py": "from app.llm import Chat\n\nChat().ask('hi', temperature=0.9)\n",
            "app/health.py": (
                "from app.llm import Pool, make_client, ping\n\n"
                "def check():\n"
                "    spare = Pool().copy()\n"
                "    return spare, ping(make_client())\n"
            ),
        },
    )
    paths = sorted(root.rglob("*.py"))
    built = phase.build([(path, path.read_bytes()) for path in paths], root)
    loader = PolicyLoader(cwd=root)

    def rejected(name: str) -> bool:
        path = root / "app" / name
        view = built.view(str(path))
        assert view is not None
        # As the phase forces a module calling Claude code (`ProjectView.relevant`): every
        # rule's candidates count, and the names the project exports.
        job = Job(str(path), name, "python", loader.for_path(path).settings_for(path))
        job = dataclasses.replace(job, project=dataclasses.replace(view, relevant=True))
        return triaged_out(job, path.read_text(encoding="utf-8"))

    assert rejected("health.py")
    assert not rejected("caller.py")
    by_name = _results_by_name(root)
    assert [d.code for d in by_name["caller.py"].diagnostics] == ["CM101"]
    assert by_name["caller.py"].parsed
    assert not by_name["health.py"].diagnostics
    assert not by_name["health.py"].parsed


@pytest.mark.parametrize(
    "install",
    [
        '    team.agents["claude"] = EchoAgent()\n',
        # The same dict under another name.
        '    roster = team.agents\n    roster["claude"] = EchoAgent()\n',
        # Handed to code that changes it.
        '    swap(team.agents)\n\n\ndef swap(table):\n    table["claude"] = EchoAgent()\n',
    ],
)
def test_a_handed_table_another_module_changes_is_not_read(tmp_path: Path, install: str) -> None:
    # A plugin replaces the Claude agent in the table an orchestrator was handed: which agent
    # answers `self.agents[name]`, or `self.agents["claude"]`, is no longer known.
    root = _copy(FIXTURES / "project-agent-tables", tmp_path / "repo")
    before = _found(Cli(root), "--select", "CM101,CM102", ".")
    assert {("app/orchestrator.py", 14, "CM102"), ("app/orchestrator.py", 18, "CM101")} <= before
    plugin = f"from app.agents import EchoAgent\n\n\ndef install(team):\n{install}"
    write_tree(root, {"app/plugins.py": plugin})
    assert _found(Cli(root), "--select", "CM101,CM102", ".") == set()


def test_a_handed_table_another_module_only_reads_is_still_read(tmp_path: Path) -> None:
    root = _copy(FIXTURES / "project-agent-tables", tmp_path / "repo")
    plugin = (
        "def report(team):\n"
        '    return sorted(team.agents), team.agents["echo"].chat("x"), len(team.agents)\n'
    )
    write_tree(root, {"app/plugins.py": plugin})
    found = _found(Cli(root), "--select", "CM101,CM102", ".")
    assert {("app/orchestrator.py", 14, "CM102"), ("app/orchestrator.py", 18, "CM101")} <= found
