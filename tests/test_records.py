"""The project phase's per-call records, and their comparison with the LibCST call sites."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from claude_migrate.engine.record_check import compare
from claude_migrate.project import phase
from claude_migrate.project.records import CallRecord, Place, records, with_places

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

# Fixture trees where both sides find the same call sites with the same values, today.
# (`project-branch-attributes` and `project-shared-settings` left it: the records read a
# parameter assigned on one path as what callers pass too, and a settings object's field the
# resolver reads at its definition.)
AGREEING = (
    "cache-key",
    "project-caches",
    "project-dispatch",
    "project-imports",
    "project-legacy-client",
    "project-modules",
    "project-params-pervalue",
    "project-properties",
    "project-scripts",
    "project-switch",
    "targets-langchain-bedrock",
    "targets-langchain-init",
    "verified-migration",
)


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return tmp_path


def _records(tree: Path, name: str) -> list[CallRecord]:
    files = [(p.resolve(), p.read_bytes()) for p in sorted(tree.rglob("*.py"))]
    project = phase.build(files, tree.resolve())
    path = (tree / name).resolve()
    module = project.files[str(path)]
    return with_places(records(project, module), path.read_bytes())


def _values(record: CallRecord, parameter: str) -> tuple[list[object], bool]:
    found = record.params[parameter]
    return found.values, found.complete


@pytest.mark.parametrize("name", AGREEING)
def test_records_equal_the_libcst_call_sites_on_agreeing_fixtures(name: str) -> None:
    tree = FIXTURES / name
    found = compare([tree], tree)
    assert [str(d) for d in found.differences] == []
    assert found.sites > 0
    assert found.agreeing == found.parameters > 0


def test_a_record_holds_position_target_values_and_places(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/settings.py": 'MODEL = "claude-3-opus-20240229"\nTOKENS = 1024\n',
            "app/chat.py": """\
                import anthropic
                from app.settings import MODEL, TOKENS

                client = anthropic.Anthropic()


                def ask(prompt, fast):
                    return client.messages.create(
                        model=MODEL,
                        max_tokens=TOKENS,
                        temperature=0.2 if fast else 0.9,
                        top_p=0.5,
                        messages=[{"role": "user", "content": prompt}],
                    )
            """,
        },
    )
    [record] = _records(tree, "app/chat.py")
    assert (record.path, record.line, record.column) == ("app/chat.py", 8, 11)
    assert (record.target, record.family, record.function) == (
        "sdk:messages.create",
        "sdk",
        "ask",
    )
    assert _values(record, "model") == (["claude-3-opus-20240229"], True)
    assert _values(record, "max_tokens") == ([1024], True)
    assert _values(record, "temperature") == ([0.2, 0.9], True)
    assert record.params["top_p"].known == ((0.5, Place("app/chat.py", 12, 14)),)
    assert "stream" not in record.params and not record.opaque


def test_unknowns_stay_unknown(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import os
                import anthropic
                from anthropic import NOT_GIVEN

                client = anthropic.Anthropic()


                class Agent:
                    def __init__(self, temperature=0.9):
                        self.temperature = temperature

                    def run(self, extra, model=None):
                        params = {"max_tokens": 100, "top_k": 5}
                        params.update(extra)
                        return client.messages.create(
                            model=model or os.environ["MODEL"],
                            temperature=self.temperature,
                            stop_sequences=NOT_GIVEN,
                            messages=[],
                            **params,
                        )


                def go():
                    Agent().run({})
            """,
        },
    )
    [record] = _records(tree, "chat.py")
    # A caller relies on `model=None`, falsy: the environment's value is sent.
    assert _values(record, "model") == ([], False)
    # `self.temperature` is set once, in `__init__`, from a parameter: its default the caller
    # relies on, beside what other callers pass.
    assert _values(record, "temperature") == ([0.9], False)
    # The SDK's sentinel leaves the parameter out.
    assert "stop_sequences" not in record.params
    # A dict updated with another whose keys are unknown (`update(extra)`): its entries are
    # passed, with values that may be written over.
    assert _values(record, "max_tokens") == ([], False) and _values(record, "top_k") == ([], False)
    assert record.opaque


def test_relied_on_defaults_and_spread_dicts(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic

                client = anthropic.Anthropic()
                BASE = {"model": "claude-sonnet-4-6", "max_tokens": 512}


                def ask(prompt, temperature=0.7):
                    return client.messages.create(temperature=temperature, messages=[], **BASE)


                def main():
                    return ask("hi")
            """,
        },
    )
    [record] = _records(tree, "chat.py")
    # The default a call relies on, and what other callers pass (unknown here).
    assert _values(record, "temperature") == ([0.7], False)
    assert _values(record, "model") == (["claude-sonnet-4-6"], True)
    assert _values(record, "max_tokens") == ([512], True)


def test_a_by_model_call_without_a_proven_claude_model_is_marked(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "routes.py": """\
                import litellm


                def complete(model, prompt):
                    return litellm.completion(model=model, messages=[])


                def main():
                    return complete("anthropic/claude-sonnet-4-6", "hi")
            """,
        },
    )
    [record] = _records(tree, "routes.py")
    assert record.target == "litellm:completion" and record.unproven


def test_an_object_attribute_is_what_its_constructor_was_given(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/config.py": """\
                from dataclasses import dataclass


                @dataclass
                class Settings:
                    model: str = "claude-3-opus-20240229"
                    temperature: float = 0.9
                    max_tokens: int = 1024
                    top_k: int = 5


                class Options:
                    def __init__(self, top_p=0.5, stop=None):
                        self.top_p = top_p
                        self.stop = stop

                    def loosen(self):
                        self.stop = None


                settings = Settings(temperature=0.7)
                options = Options(0.8, stop=["END"])
                other = Settings()
                other.top_k = 50
            """,
            "app/chat.py": """\
                import anthropic
                from app.config import options, settings

                client = anthropic.Anthropic()


                def ask(text):
                    return client.messages.create(
                        model=settings.model,
                        temperature=settings.temperature,
                        max_tokens=settings.max_tokens,
                        top_k=settings.top_k,
                        top_p=options.top_p,
                        stop_sequences=options.stop,
                        messages=[],
                    )
            """,
        },
    )
    [record] = _records(tree, "app/chat.py")
    # Given to the constructor, not the class's default.
    assert _values(record, "temperature") == ([0.7], True)
    assert _values(record, "top_p") == ([0.8], True)
    # Not given: the field's default.
    assert _values(record, "model") == (["claude-3-opus-20240229"], True)
    assert _values(record, "max_tokens") == ([1024], True)
    # Set on another object of the class (`other.top_k = 50`): not on this one, which no
    # file hands on.
    assert _values(record, "top_k") == ([5], True)
    # Set by another method.
    assert _values(record, "stop_sequences") == ([], False)


def test_self_attributes_are_what_the_class_writes_once(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic


                class Agent:
                    model = "claude-sonnet-4-6"

                    def __init__(self, max_tokens=4096, top_k=None):
                        self.client = anthropic.Anthropic()
                        self.max_tokens = max_tokens
                        self.temperature = 0.3
                        self.top_k = top_k or 10

                    def ask(self):
                        return self.client.messages.create(
                            model=self.model,
                            max_tokens=self.max_tokens,
                            temperature=self.temperature,
                            top_k=self.top_k,
                            messages=[],
                        )


                class Cold(Agent):
                    def __init__(self):
                        super().__init__()
                        self.temperature = 0.0


                def main():
                    return Agent().ask()
            """,
        },
    )
    [record] = _records(tree, "chat.py")
    assert _values(record, "model") == (["claude-sonnet-4-6"], True)
    # A parameter: its relied-on default, beside what other callers pass.
    assert _values(record, "max_tokens") == ([4096], False)
    # A subclass writes it too: which class the instance is, is not known.
    assert _values(record, "temperature") == ([], False)
    assert _values(record, "top_k") == ([10], False)


def test_an_item_given_under_a_condition_may_be_unset(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic

                client = anthropic.Anthropic()


                def request(creative, budget):
                    kwargs = {"model": "claude-sonnet-4-6", "max_tokens": 512}
                    if creative:
                        kwargs["temperature"] = 1.0
                        kwargs["max_tokens"] = 2048
                    if budget:
                        kwargs.update(top_k=5)
                    kwargs["top_p"] = 0.9
                    return kwargs


                def ask(creative, budget):
                    return client.messages.create(messages=[], **request(creative, budget))
            """,
        },
    )
    [record] = _records(tree, "chat.py")
    # Set on one path only: the value, or not passed at all.
    assert _values(record, "temperature") == ([1.0], False)
    assert _values(record, "top_k") == ([5], False)
    # Written over on one path: either value; set on every path: that value.
    assert _values(record, "max_tokens") == ([512, 2048], True)
    assert _values(record, "top_p") == ([0.9], True)
    assert _values(record, "model") == (["claude-sonnet-4-6"], True)


def test_clients_bound_by_with_are_read(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic
                import httpx

                client = anthropic.Anthropic()


                def ask():
                    with anthropic.Anthropic() as claude:
                        return claude.messages.create(model="claude-haiku-4-5", max_tokens=10)


                async def ask_later():
                    async with anthropic.AsyncAnthropic() as claude:
                        return await claude.messages.create(
                            model="claude-sonnet-4-6", max_tokens=20, messages=[]
                        )


                def other():
                    # The name is bound to another object here, not the module's client.
                    with httpx.Client() as client:
                        return client.messages.create(model="claude-sonnet-4-6", max_tokens=30)
            """,
        },
    )
    found = _records(tree, "chat.py")
    assert [(r.line, r.target) for r in found] == [
        (9, "sdk:messages.create"),
        (14, "sdk:messages.create"),
    ]
    assert [_values(r, "max_tokens") for r in found] == [([10], True), ([20], True)]


def test_clients_typed_by_optional_and_string_annotations_are_read(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                from typing import Optional, Union

                import anthropic
                from anthropic import Anthropic
                from openai import OpenAI


                def optional(client: Optional[Anthropic], text):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=1)


                def union(client: Union[None, anthropic.Anthropic], text):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=2)


                def pipe(client: Anthropic | None = None):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=3)


                def forward(client: "anthropic.Anthropic"):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=4)


                def quoted_optional(client: "Optional[Anthropic]"):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=5)


                def either(client: Union[OpenAI, Anthropic]):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=6)


                def broken(client: "Anthropic["):
                    return client.messages.create(model="claude-haiku-4-5", max_tokens=7)
            """,
        },
    )
    found = _records(tree, "chat.py")
    assert [_values(r, "max_tokens")[0] for r in found] == [[1], [2], [3], [4], [5]]


def test_a_conditional_on_a_parameter_is_not_read(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic


                class Tuned:
                    def __init__(self, temperature=None, max_tokens=None):
                        self.temperature = 0.95 if temperature is None else temperature
                        self.max_tokens = max_tokens if max_tokens is not None else 4096

                    def run(self):
                        return anthropic.Anthropic().messages.create(
                            model="claude-sonnet-4-6",
                            temperature=self.temperature,
                            max_tokens=self.max_tokens,
                            messages=[],
                        )


                def main():
                    Tuned(max_tokens=None, temperature=0.2).run()
            """,
        },
    )
    [record] = _records(tree, "chat.py")
    # Which branch a caller's value takes depends on the test, which is not kept: a
    # fallback every caller skips is never sent, and a default of None is not a value sent.
    assert _values(record, "temperature") == ([], False)
    assert _values(record, "max_tokens") == ([], False)


def test_a_dict_the_function_changes_before_the_call_is_read(tmp_path: Path) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic

                client = anthropic.Anthropic()
                BASE = {"model": "claude-sonnet-4-6", "max_tokens": 256}


                def before(creative):
                    params = {"model": "claude-sonnet-4-6", "max_tokens": 1}
                    params.update(top_k=5)
                    if creative:
                        params["temperature"] = 1.0
                    return client.messages.create(messages=[], **params)


                def after():
                    params = {"model": "claude-sonnet-4-6", "max_tokens": 2}
                    reply = client.messages.create(messages=[], **params)
                    params["temperature"] = 1.0
                    return reply


                def in_a_loop(prompts):
                    params = {"model": "claude-sonnet-4-6", "max_tokens": 3}
                    for prompt in prompts:
                        client.messages.create(messages=[], **params)
                        params["max_tokens"] = 4


                def merged(settings):
                    params = {**BASE, **settings}
                    params["top_k"] = 5
                    return client.messages.create(messages=[], **params)


                def deleted():
                    params = {"model": "claude-sonnet-4-6", "max_tokens": 5, "temperature": 0.5}
                    del params["temperature"]
                    return client.messages.create(messages=[], **params)
            """,
        },
    )
    before, after, loop, merged, deleted = _records(tree, "chat.py")
    assert _values(before, "max_tokens") == ([1], True)
    assert _values(before, "top_k") == ([5], True)
    assert _values(before, "temperature") == ([1.0], False)  # or not passed
    # A change after the call leaves the dict unknown there; after it in a loop, the next
    # pass sends it.
    assert "max_tokens" not in after.params and "temperature" not in after.params
    assert _values(loop, "max_tokens") == ([3, 4], True)
    # A key of one spread dict beside another whose keys are unknown: either one's.
    assert _values(merged, "model") == (["claude-sonnet-4-6"], False)
    # A key deleted is not sent.
    assert "temperature" not in deleted.params and _values(deleted, "max_tokens") == ([5], True)


def test_a_dict_of_clients_is_claude_only_through_what_the_other_vendor_lacks(
    tmp_path: Path,
) -> None:
    tree = _tree(
        tmp_path,
        {
            "chat.py": """\
                import anthropic
                from openai import OpenAI


                class Echo:
                    class messages:
                        @staticmethod
                        def create(**request):
                            return request


                def pick(name):
                    clients = {"claude": anthropic.Anthropic(), "gpt": OpenAI()}
                    clients[name].messages.create(model="claude-haiku-4-5", max_tokens=1)
                    clients[name].chat.completions.create(model="gpt-4o", max_tokens=2)


                def stand_in(name):
                    clients = {"claude": anthropic.Anthropic(), "echo": Echo()}
                    clients[name].messages.create(model="claude-haiku-4-5", max_tokens=3)
            """,
        },
    )
    # The OpenAI client has no `messages` (openai-python `src/openai/_client.py`): a call
    # through it runs on the Claude client; through `chat`, on the other; a local class with
    # the same shape may be the one called.
    assert [_values(r, "max_tokens")[0] for r in _records(tree, "chat.py")] == [[1]]


FLOWS = """\
    import anthropic

    client = anthropic.Anthropic()


    def branches(flag):
        if flag:
            t = 1.5
            print(t)
        else:
            t = 0.0
            client.messages.create(model="m", max_tokens=1, temperature=t, messages=[])
        client.messages.create(model="m", max_tokens=2, temperature=t, messages=[])
        t = 0.7
        client.messages.create(model="m", max_tokens=3, temperature=t, messages=[])


    def loop(items):
        t = 0.1
        for item in items:
            client.messages.create(model="m", max_tokens=4, temperature=t, messages=[])
            t = 0.2
            if item:
                t = 0.3
                break
            t = 0.4
        client.messages.create(model="m", max_tokens=5, temperature=t, messages=[])


    def guarded(risky):
        t = 0.1
        try:
            if risky:
                t = 0.2
                risky()
                t = 0.3
        except ValueError:
            client.messages.create(model="m", max_tokens=6, temperature=t, messages=[])
            return None
        return client.messages.create(model="m", max_tokens=7, temperature=t, messages=[])


    def parameter(t=None, kind=""):
        if t is None:
            t = 0.5
        match kind:
            case "cold":
                k = 1
            case _:
                k = 40
        return client.messages.create(model="m", max_tokens=8, temperature=t, top_k=k, messages=[])


    def shared(flag):
        global t
        t = 0.1
        if flag:
            t = 0.2
        return client.messages.create(model="m", max_tokens=9, temperature=t, messages=[])


    def walrus(flag):
        t = 0.1
        if flag and (t := 0.9):
            pass
        t2 = 1
        t2 = 2
        return client.messages.create(model="m", max_tokens=10, temperature=t, top_k=t2)
"""


def test_a_local_holds_what_the_assignments_reaching_the_call_give(tmp_path: Path) -> None:
    tree = _tree(tmp_path, {"chat.py": textwrap.dedent(FLOWS)})
    by_tokens = {r.params["max_tokens"].values[0]: r for r in _records(tree, "chat.py")}

    def temperature(tokens: int) -> tuple[list[object], bool]:
        return _values(by_tokens[tokens], "temperature")

    # The branch the call is in; both branches after the `if`; written over on every path.
    assert temperature(1) == ([0.0], True)
    assert temperature(2) == ([1.5, 0.0], True)
    assert temperature(3) == ([0.7], True)
    # A loop's body runs again with what the last pass left; `break` leads out of it.
    assert sorted(temperature(4)[0]) == [0.1, 0.4] and temperature(4)[1]
    assert sorted(temperature(5)[0]) == [0.1, 0.3, 0.4] and temperature(5)[1]
    # A handler sees every state its `try` body passed; the rest, its end.
    assert sorted(temperature(6)[0]) == [0.1, 0.2, 0.3] and temperature(6)[1]
    assert sorted(temperature(7)[0]) == [0.1, 0.3] and temperature(7)[1]
    # A parameter not assigned on a path holds what callers pass: not known here.
    assert temperature(8) == ([0.5], False)
    assert sorted(_values(by_tokens[8], "top_k")[0]) == [1, 40]
    # A global is not followed: any function may set it.
    assert temperature(9) == ([], False)
    # A walrus may run or not; a name assigned twice in a row is its last value.
    assert sorted(temperature(10)[0]) == [0.1, 0.9] and temperature(10)[1]
    assert _values(by_tokens[10], "top_k") == ([2], True)


# Known disagreements: each names a fixture call where the records and the LibCST resolver
# differ today, and why. Strict: when one is resolved, the test says so.
KNOWN = [
    # Flow-sensitive locals, once a disagreement: a value written in the other branch.
    pytest.param("project-valuesets", "app/answers.py", 56),
    pytest.param(
        "project-batches",
        "app/grading.py",
        11,
        marks=pytest.mark.xfail(
            strict=True,
            reason="Message Batches: the phase does not read each request's `params`",
        ),
    ),
    pytest.param(
        "api-version",
        "raw_http.py",
        20,
        marks=pytest.mark.xfail(
            strict=True,
            reason="a raw HTTP request's record does not hold what its body and headers pass "
            "through module constants (`json=BODY`, `headers=GOOD`), which the LibCST side reads",
        ),
    ),
    pytest.param(
        "precision",
        "unknowns.py",
        24,
        marks=pytest.mark.xfail(
            strict=True,
            reason="an item set under a condition: the records read it as its value or not "
            "passed ({0.9} + unknown), the resolver as not passed",
        ),
    ),
    pytest.param(
        "temperature",
        "dict_methods.py",
        30,
        marks=pytest.mark.xfail(
            strict=True,
            reason="a dict the calling function changes (`setdefault` over a key it has) is "
            "not read by the records; the resolver reads its changes in order",
        ),
    ),
    pytest.param(
        "project-attribute-tables",
        "app/agents.py",
        27,
        marks=pytest.mark.xfail(
            strict=True,
            reason="`self.model` is set in `__init__` and again by another method: unknown "
            "in the records; the resolver reads the table's values on both paths",
        ),
    ),
    pytest.param(
        "project-clients",
        "app/pool.py",
        40,
        marks=pytest.mark.xfail(
            strict=True,
            reason="a dict of a Claude and an OpenAI client called through `messages`: the "
            "phase applies the provider-switch rule (the OpenAI client has no `messages`), the "
            "resolver reads another vendor's client only from a constructor call",
        ),
    ),
    pytest.param(
        "project-defaults",
        "app/assistant.py",
        14,
        marks=pytest.mark.xfail(
            strict=True,
            reason="`self.max_tokens` set from a parameter whose default a caller relies on: "
            "the resolver takes the default as all it holds, the records as one value beside "
            "what other callers may pass",
        ),
    ),
]


@pytest.mark.parametrize(("tree", "path", "line"), KNOWN)
def test_known_disagreements(tree: str, path: str, line: int) -> None:
    found = compare([FIXTURES / tree], FIXTURES / tree)
    at = [str(d) for d in found.differences if d.path == path and d.line == line]
    assert at == []


def test_the_script_prints_a_summary_and_refuses_a_missing_tree(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "compare_records.py"
    done = subprocess.run(
        [sys.executable, str(script), str(FIXTURES / "project-imports")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "sites matched 4, records only 0, libcst only 0" in done.stdout
    missing = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "absent")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and "not a folder" in missing.stderr
