"""The ast triage never changes a result, and spares LibCST the files without a candidate site.

A file the triage passes takes the same path as without it, so equivalence comes down to this:
whenever the triage rejects a file under some selection of rules, the run without the triage
(`CLAUDE_MIGRATE_TRIAGE=0`) reports nothing for it either. That is checked for every fixture and
example under the harness's selection, all rules, and each rule alone, and for generated modules
that call Claude through aliases, wrappers and imported clients (hypothesis).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import FIXTURES, REPO, Cli, write_tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from claude_migrate.checks import CHECKS_BY_CODE, CHECKS_BY_NAME
from claude_migrate.core.diagnostics import FileResult
from claude_migrate.core.job import Job, Options
from claude_migrate.core.settings import FileSettings
from claude_migrate.engine import runner as engine
from claude_migrate.engine.runner import PARSE, prefilter, triaged_out
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.project.triage import SWITCH, Wanted, has_candidate

PYTHON_CODES = sorted(
    code
    for code, check in CHECKS_BY_CODE.items()
    if "python" in check.kinds and not check.file_names
)


def _settings(path: Path, select: list[str] | None) -> FileSettings:
    config = path.with_suffix(".toml")
    loader = PolicyLoader(config if config.is_file() else None)
    return loader.for_path(path).settings_for(path, select)


def _job(path: Path, select: list[str] | None) -> Job:
    return Job(str(path), path.name, "python", _settings(path, select))


def _untriaged(job: Job, monkeypatch: pytest.MonkeyPatch, fix: bool = False) -> FileResult:
    with monkeypatch.context() as patch:
        patch.setenv(SWITCH, "0")
        return engine.process(job, Options(fix=fix, unsafe=True, write=False, keep_text=True))


def _rejected(job: Job) -> bool:
    """Return whether the triage keeps LibCST off this file (which the prefilter lets through)."""
    data = Path(job.path).read_bytes()
    if prefilter(data, job.settings, job.kind, job.path) != PARSE:
        return False
    return triaged_out(job, data.decode("utf-8", "surrogateescape"), data)


def _selections(path: Path) -> Iterator[list[str] | None]:
    yield None
    folder = path.relative_to(REPO).parts[1] if path.is_relative_to(FIXTURES) else ""
    if folder in CHECKS_BY_NAME:
        yield [CHECKS_BY_NAME[folder].code]
    for code in PYTHON_CODES:
        yield [code]


def suite_files() -> list[Path]:
    """Every Python module of the fixture suites and the examples."""
    roots = (FIXTURES, REPO / "examples")
    return sorted(
        p for root in roots for p in root.rglob("*.py") if not p.name.endswith(".fixed.py")
    )


@pytest.mark.parametrize("case", suite_files(), ids=lambda p: p.relative_to(REPO).as_posix())
def test_triage_changes_no_result_of_any_suite_file(
    case: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for select in _selections(case):
        job = _job(case, select)
        if not _rejected(job):
            continue  # the triage passes it on: the same path as without the triage
        result = _untriaged(job, monkeypatch, fix=True)
        assert (result.diagnostics, result.errors, result.fixed_text) == ([], [], None), select
        with monkeypatch.context() as patch:
            patch.delenv(SWITCH, raising=False)
            kept = engine.process(job, Options())
        assert not kept.parsed and not kept.diagnostics and not kept.errors


def test_the_triage_rejects_suite_files_the_prefilter_lets_through() -> None:
    # The equivalence above is not vacuous: the triage does keep LibCST off suite files, under
    # all rules too. (Computed here, not collected from that test: under `pytest -n` its cases
    # run in other processes.)
    found = [
        (case.name, select)
        for case in suite_files()
        for select in _selections(case)
        if _rejected(_job(case, select))
    ]
    assert {"clients_not_called.py", "hashing_without_cache.py"} <= {name for name, _ in found}
    assert any(select is None for _, select in found)


# Whole trees, through the command line: the project phase, the cache and the pool included.

TREES = sorted(
    [
        *(p for p in FIXTURES.iterdir() if p.is_dir() and p.name.startswith("project-")),
        FIXTURES / "demo",
        REPO / "examples" / "support-desk",
    ]
)


def _tree_outputs(work: Path, monkeypatch: pytest.MonkeyPatch, triage: bool) -> list[str]:
    with monkeypatch.context() as patch:
        patch.setenv(SWITCH, "1" if triage else "0")
        # What a fix writes follows from the findings (the single-file test runs fixes too).
        result = Cli(work)("check", "--no-cache", "--format", "json", ".")
        assert result.exit_code in (0, 1), result.output
        return [result.stdout]


@pytest.mark.parametrize("tree", TREES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_triage_changes_no_output_of_a_whole_tree(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    work = tmp_path / tree.name
    shutil.copytree(tree, work, ignore=shutil.ignore_patterns("*.fixed.py"))
    assert _tree_outputs(work, monkeypatch, True) == _tree_outputs(work, monkeypatch, False)


# Which shapes are candidates --------------------------------------------------------------------

SITES = Wanted(callees=frozenset({"create", "completion", "post", "Anthropic"}))


def _candidate(text: str, wanted: Wanted = SITES, exported: frozenset[str] = frozenset()) -> bool:
    return has_candidate(ast.parse(text), text, wanted, exported)


@pytest.mark.parametrize(
    "text",
    [
        "import anthropic\nanthropic.Anthropic().messages.create()\n",
        "from litellm import completion as ask\nask(model='claude-3-haiku')\n",
        "import x\nmake = x.messages.create\nalias = make\nalias(model='m')\n",
        "import x\ndef factory():\n    return x.messages.create\nrun = factory()\nrun()\n",
        "import x\nwith x.post as p:\n    p()\n",
        "import x\ndef f(send=x.post):\n    send()\n",
        "import x\nfor go in [x.create]:\n    go()\n",
    ],
)
def test_a_call_reaching_a_wanted_callee_through_aliases_is_a_candidate(text: str) -> None:
    assert _candidate(text)


@pytest.mark.parametrize(
    "text",
    [
        '"""Anthropic clients, documented: call client.messages.create() yourself."""\n',
        "import anthropic\nclient = anthropic.Anthropic\n",
        "import anthropic\nclass Claude(anthropic.Client):\n    def ask(self):\n        pass\n",
        "import anthropic\nprint(anthropic.__version__)\nlen([])\n",
    ],
)
def test_a_module_that_defines_or_documents_clients_is_not_a_candidate(text: str) -> None:
    assert not _candidate(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # The value is an attribute of the name, not the name: no alias of `post`.
        ("def f(post):\n    return post.headers\nf(1)\n", False),
        ("import enum\nclass create(enum.Enum):\n    A = 1\npick = create.A\npick()\n", False),
        # The name itself, or a dunder that may give it back, or its own sources: an alias.
        ("def f(post):\n    return post.url or post\nf(1)\n", True),
        ("from requests import post\nsend = post.__wrapped__\nsend()\n", True),
        ("import x\nholder = x.messages\nmake = holder.create\nmake()\n", True),
        ("import x\nimport types\nh = types.SimpleNamespace(f=x.create)\ng = h.f\ng()\n", True),
    ],
)
def test_a_name_read_only_as_a_receiver_is_followed_but_is_no_alias(
    text: str, expected: bool
) -> None:
    assert _candidate(text) is expected


def test_a_call_of_a_name_the_project_exports_is_a_candidate() -> None:
    text = "from app.llm import ask as question\nquestion('hi')\n"
    assert not _candidate(text)
    assert _candidate(text, exported=frozenset({"ask"}))


@pytest.mark.parametrize("name", ["LLM", "Claude", "call"])
def test_a_project_name_a_library_callee_shares_is_a_candidate_without_the_library(
    name: str,
) -> None:
    # `LLM` is also crewai's class, wanted only in a file that names crewai: a wrapper class of
    # the project's own by that name is a site wherever it is called.
    wanted = Wanted(callees=frozenset({name}), only_with=((name, "some_library"),))
    text = f"from app.llm import {name}\n{name}(options).run('hi')\n"
    assert not _candidate(text, wanted)
    assert _candidate(text, wanted, exported=frozenset({name}))


def test_keywords_and_texts_make_candidates() -> None:
    assert _candidate("f(default_headers={})\n", Wanted(keywords=frozenset({"default_headers"})))
    assert _candidate("x = HUMAN_PROMPT\n", Wanted(texts=("HUMAN_PROMPT",)))
    assert not _candidate("f(headers={})\n", Wanted(keywords=frozenset({"default_headers"})))


def _models(dated: bool) -> list[str]:
    from claude_migrate.policy import deprecations

    return [m.id for m in deprecations.load(None).models if (m.retires is not None) == dated]


def _model_data(retired: str, current: str) -> list[str]:
    """Modules whose only Claude text is data: a model id in one shape or another."""
    return [
        f"MODELS = {{{retired!r}: 1, 'x': 2}}\n",
        f"def pick(flag):\n    return {retired!r} if flag else None\n",
        f"ROUTED = 'bedrock/{retired}'\n",
        f"NAMES = [{current!r}, 'answers/{retired}.jsonl', 'openrouter/anthropic/{retired}']\n",
        f"LABEL = f'{retired[:4]}{{1}}{retired[4:]}'\n",
        f"JOINED = {retired[:4]!r} {retired[4:]!r}\n",
        f'def doc():\n    """Moved off {retired}."""\n    {retired!r}\n',
    ]


def test_a_literal_is_a_retired_model_candidate_only_if_it_spells_a_dated_model() -> None:
    wanted = CHECKS_BY_CODE["CM302"].wanted(_settings(REPO / "x.py", ["CM302"]))
    assert wanted is not None
    retired, current = _models(dated=True)[0], _models(dated=False)[0]
    found = [_candidate(text, wanted) for text in _model_data(retired, current)]
    # A literal holding a dated id as a whole is a candidate (as a key, a value, a platform
    # spelling, even a statement of its own); a current id, a path, another router's prefix
    # and an f-string are not. An implicit concatenation is one string to `ast` (a
    # candidate the rule then reads as no mention: the triage may over-approximate).
    assert found == [True, True, True, False, False, True, True]


def test_model_data_the_triage_rejects_has_no_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    retired, current = _models(dated=True)[0], _models(dated=False)[0]
    rejected = 0
    for number, text in enumerate(_model_data(retired, current)):
        path = write_tree(tmp_path, {f"m{number}.py": text}) / f"m{number}.py"
        for select in (None, ["CM302"]):
            job = _job(path, select)
            if _rejected(job):
                rejected += 1
                result = _untriaged(job, monkeypatch, fix=True)
                assert (result.diagnostics, result.errors, result.fixed_text) == ([], [], None)
    assert rejected >= 2  # the current id, the path and the router's prefix, both selections


DIGEST_CACHE = """import hashlib
import redis
store = redis.Redis()
def answer(prompt):
    key = hashlib.sha256(prompt.encode()).hexdigest()
    return store.get(key)
"""
DIGEST_ONLY = """import hashlib
def checksum(path, cache_dir):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()
def message_id(prompt):
    return hashlib.md5(prompt.encode()).hexdigest()
def short_id(prompt):
    digest = hashlib.sha1(prompt.encode()).hexdigest()
    return digest[:16] if "x" not in prompt else digest[-8:]
"""


def test_a_digest_that_may_key_a_cache_is_a_candidate_of_the_cache_key_rule() -> None:
    wanted = Wanted(cache_digests=True)
    assert _candidate(DIGEST_CACHE, wanted)
    # Returned to a caller that keys a cache with it.
    caller = DIGEST_ONLY + "def lookup(cache, p):\n    return cache.get(message_id(p))\n"
    assert _candidate(caller, wanted)


def test_a_hashing_module_that_keys_no_cache_is_decided_without_libcst() -> None:
    assert not _candidate(DIGEST_ONLY, Wanted(cache_digests=True))


# The pre-commit promise -------------------------------------------------------------------------

NO_CANDIDATE = '''"""A thin wrapper around the Anthropic client: it builds one, callers use it."""
import anthropic


def make_client() -> anthropic.Anthropic:
    return anthropic.Anthropic(max_retries=3)
'''


def test_a_file_without_a_candidate_never_imports_libcst(tmp_path: Path) -> None:
    path = write_tree(tmp_path, {"client.py": NO_CANDIDATE}) / "client.py"
    script = (
        "import sys\n"
        "from claude_migrate.cli import main\n"
        "try:\n"
        f"    main(['check', '--no-cache', {str(path)!r}])\n"
        "except SystemExit as stop:\n"
        "    code = stop.code\n"
        # `lazy.lazy_import` puts a module object in sys.modules; loading it imports submodules.
        "print(code, any(name.startswith('libcst.') for name in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr


def test_the_switch_turns_the_triage_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_tree(tmp_path, {"client.py": NO_CANDIDATE}) / "client.py"
    job = _job(path, None)
    assert engine.process(job, Options()).parsed is False
    assert _untriaged(job, monkeypatch).parsed is True


# Generated modules --------------------------------------------------------------------------------

NAMES = st.sampled_from(
    ["client", "c", "create", "ask", "chat", "post", "completion", "stream", "key", "cache", "run"]
)
MODEL = st.sampled_from(
    ["claude-3-haiku-20240307", "claude-2.1", "claude-sonnet-4-5", "gpt-4o", "anthropic.claude-v2"]
)
NUMBER = st.sampled_from(["0.5", "1.7", "4096", "999999", "x"])


@st.composite
def statement(draw: st.DrawFn) -> str:
    a, b = draw(NAMES), draw(NAMES)
    model, n = draw(MODEL), draw(NUMBER)
    params = f'model="{model}", temperature={n}, max_tokens={draw(NUMBER)}, messages=[]'
    return draw(
        st.sampled_from(
            [
                f"{a} = anthropic.Anthropic()",
                f"{a} = Anthropic(default_headers={{'anthropic-version': '2023-01-01'}})",
                f"{a} = {b}.with_options(default_headers={{'anthropic-version': '2023-01-01'}})",
                f"{a} = {b}.copy(default_headers={{'anthropic-version': '2023-01-01'}})",
                f"{a} = {b}(default_headers={{'anthropic-version': '2023-01-01'}})",
                f"{a} = {b}.__class__(default_headers={{'anthropic-version': '2023-01-01'}})",
                f"{a} = anthropic.AsyncAnthropicBedrock",
                f"from anthropic import AnthropicVertex as {a}",
                "super().__init__(default_headers={'anthropic-version': '2023-01-01'})",
                f"{a} = {b}.messages.create",
                f"{a} = {b}.messages",
                f"{a} = {b}",
                f"{a}({params})",
                f"{a}.create({params})",
                f"{a}.messages.stream({params})",
                f"{a}.completions.create(prompt=HUMAN_PROMPT, max_tokens_to_sample={n})",
                f"{a}.count_tokens('hi')",
                f"{a} = boto3.client('bedrock-runtime')",
                f"{a}.invoke_model(modelId='{model}', body=json.dumps({{'temperature': {n}}}))",
                f"{a}.converse(modelId='{model}', inferenceConfig={{'temperature': {n}}})",
                f"litellm.completion({params})",
                f"{a} = ChatAnthropic({params})",
                f"requests.post('https://api.anthropic.com/v1/messages', json={{{params!r}: 1}})",
                f"{a} = hashlib.sha256({b}.encode()).hexdigest()",
                f"{a}[{b}] = 1",
                f"{a}.set(hashlib.md5(prompt).hexdigest(), 1)",
                f"{a} = redis.Redis()",
                f"{a} = OpenAI(base_url='https://api.anthropic.com/v1')",
                f"{a}.chat.completions.create({params})",
                f"{a} = instructor.from_anthropic({b})",
                f"{a} = dspy.LM(model='anthropic/{model}', temperature={n})",
                f"{a} = Agent(model='anthropic:{model}', model_settings={{'temperature': {n}}})",
                f"{a}_cache = {{}}",
                f"print('{model}', {a})",
                f"return {a}",
                "pass",
            ]
        )
    )


@st.composite
def module(draw: st.DrawFn) -> str:
    head = draw(
        st.lists(
            st.sampled_from(
                [
                    "import anthropic",
                    "from anthropic import Anthropic, HUMAN_PROMPT",
                    "from anthropic import Anthropic as make",
                    "import boto3, json, hashlib, redis, requests, litellm",
                    "from litellm import completion as ask",
                    "from requests import post as chat",
                    "from langchain_anthropic import ChatAnthropic",
                    "from app.llm import ask",
                    "import dspy, instructor",
                    "from openai import OpenAI",
                    "from pydantic_ai import Agent",
                ]
            ),
            max_size=4,
        )
    )
    lines = [*head]
    for _ in range(draw(st.integers(1, 4))):
        body = draw(st.lists(statement(), min_size=1, max_size=5))
        if draw(st.booleans()):
            name = draw(NAMES)
            lines.append(f"def {name}(prompt, messages, cache):")
            lines.extend("    " + s for s in body)
        else:
            lines.extend(s for s in body if not s.startswith("return"))
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=module(), code=st.sampled_from([None, *PYTHON_CODES]))
def test_triage_changes_no_result_of_generated_modules(text: str, code: str | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mod.py"
        path.write_text(text, encoding="utf-8")
        job = _job(path, None if code is None else [code])
        with_triage = engine.process(job, Options())
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv(SWITCH, "0")
            without = engine.process(job, Options())
    assert (with_triage.diagnostics, with_triage.errors) == (without.diagnostics, without.errors)


# default_headers= counts only where its callee may be an SDK client class or instance ----------

HEADERS = "{'anthropic-version': '2023-01-01'}"
NOT_A_CLIENT = f"""import anthropic
from ._platform import copy_platform_client


class Client(anthropic.Anthropic):
    def __init__(self, **kwargs):
        super().__init__(default_headers={HEADERS}, **kwargs)

    def copy(self, **kwargs):
        return self.__class__(default_headers={HEADERS}, **kwargs)

    def clone(self, **kwargs):
        return copy_platform_client(self, default_headers={HEADERS}, **kwargs)
"""
# Each may make CM105's `sdk_clients` read the headers: the triage must keep the module. The
# last is kept because its callee is no name (the rule does not resolve it: no finding).
CLIENT_CALLS = [
    (f"client = anthropic.Anthropic(default_headers={HEADERS})", True),
    (f"make = anthropic.AnthropicBedrock\nclient = make(default_headers={HEADERS})", True),
    (
        f"from anthropic import AsyncAnthropic as make\nclient = make(default_headers={HEADERS})",
        True,
    ),
    (f"fast = anthropic.Anthropic().with_options(default_headers={HEADERS})", True),
    (f"other = anthropic.Anthropic().copy(default_headers={HEADERS})", True),
    (f"clients = [anthropic.Anthropic]\nclient = clients[0](default_headers={HEADERS})", False),
]


def test_default_headers_passed_to_no_client_leave_the_module_to_the_triage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_tree(tmp_path, {"client.py": NOT_A_CLIENT}) / "client.py"
    job = _job(path, ["CM105"])
    assert _rejected(job)
    assert _untriaged(job, monkeypatch).diagnostics == []


@pytest.mark.parametrize(("line", "reported"), CLIENT_CALLS)
def test_default_headers_on_a_client_keep_the_module_for_libcst(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, reported: bool
) -> None:
    path = write_tree(tmp_path, {"client.py": f"import anthropic\n{line}\n"}) / "client.py"
    job = _job(path, ["CM105"])
    assert not _rejected(job)
    with_triage = engine.process(job, Options())
    assert with_triage.diagnostics == _untriaged(job, monkeypatch).diagnostics
    assert [d.code for d in with_triage.diagnostics] == (["CM105"] if reported else [])


_EVERY_SHAPE = """
import a.b as c
from .m import (x as y, z)
type_ = {**extra, "k": v.attr}
def f(p, /, q=1, *args, r, s=2, **kw) -> ret.Type:
    global g
    if p: return q.method()
    for i in range(3):
        try: return (yield i)
        except (E, F) as err: return err.args
        finally: pass
    else: return lambda t: t.u
    while w: return [n async for n in m if n.ok]
    with ctx() as (h, j): return {k: v for k, v in d.items()}
    match subject:
        case {"key": K.V, **rest}: return rest
        case Point(x=0, y=Y.Z) | [1, *others]: return others
        case None: return not_there
    async def inner(): return await aw.it
    class Inner:
        def m(self): return self.x
    return f"{fmt!r:{width.spec}}" if a < b in c else -n + m @ o
"""


def test_the_scans_lean_walk_reaches_every_name_attribute_and_return() -> None:
    """`_nodes` and `_returns` skip identifiers, contexts and operators, nothing the scans read."""
    from claude_migrate.project.triage import _nodes, _returns

    tree = ast.parse(_EVERY_SHAPE)
    wanted = (ast.Name, ast.Attribute, ast.Return, ast.Call, ast.Constant, ast.keyword)
    reached = {id(n) for n in _nodes(tree) if isinstance(n, wanted)}
    assert reached == {id(n) for n in ast.walk(tree) if isinstance(n, wanted)}
    function = tree.body[3]
    returns = {id(n) for n in ast.walk(function) if isinstance(n, ast.Return)}
    assert len(returns) == 12
    assert {id(r) for r in _returns(function)} == returns


def test_a_library_class_re_exported_under_its_own_name_makes_no_file_a_candidate(
    tmp_path: Path,
) -> None:
    # `pkg` re-exports the SDK's client under the SDK's own name: a file making a client from
    # it and calling nothing holds no site, and is not parsed for one; under another name the
    # file calling it is what the view alone can tell (`test_module_resolution`'s shapes).
    from claude_migrate.api import collect_jobs, execute

    root = write_tree(
        tmp_path,
        {
            "pyproject.toml": "[project]\nname = 'app'\n",
            "pkg/__init__.py": "from anthropic import Anthropic\n",
            "maker.py": "from pkg import Anthropic\n\nclient = Anthropic()\n",
        },
    )
    run = execute(collect_jobs([root], PolicyLoader(), None), Options(), workers=1)
    parsed = {Path(r.path).name for r in run.results if r.parsed}
    assert "maker.py" not in parsed
    assert not run.diagnostics
