"""Project-wide resolution of the remaining shapes: options objects, helper-built kwargs.

The fixture projects (`fixtures/project-options/`, ...) run through the CLI in
`test_project.py`; these small trees pin single behaviours, in-process.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

from claude_migrate.analysis.option_fields import split_path

POLICY = 'extend = "default"\nselect = ["CM101", "CM102", "CM302"]\n'

AGENT = """\
import anthropic

from app.constants import DEFAULT_MODEL


class Agent:
    def __init__(self, options):
        self.options = options
        self.model = options.model or DEFAULT_MODEL

    def run(self, prompt):
        return anthropic.Anthropic().messages.create(
            model=self.model,
            max_tokens=self.options.limits["max_tokens"],
            temperature=self.options.temperature,
            messages=[{"role": "user", "content": prompt}],
        )
"""
OPTIONS = """\
from dataclasses import dataclass


@dataclass
class Options:
    model: str | None = None
    limits: dict | None = None
    temperature: float = 0.0
"""


def _tree(tmp_path: Path, main: str, **more: str) -> Path:
    files = {
        "pyproject.toml": "[project]\nname='app'\n",
        "claude-migrate.toml": POLICY,
        "app/__init__.py": "",
        "app/constants.py": 'DEFAULT_MODEL = "claude-3-opus-20240229"\n',
        "app/agent.py": AGENT,
        "app/options.py": OPTIONS,
        "app/main.py": main,
    }
    files.update({name.replace("__", "/") + ".py": text for name, text in more.items()})
    return write_tree(tmp_path / "repo", files)


def _findings(root: Path) -> list[tuple[str, int, str, str]]:
    data = Cli(root).json("check", "--no-cache", ".")
    assert not data["errors"], data["errors"]
    # constants.py's fallback model is also a mention kept as data (tests/test_model_mentions.py
    # pins that layer); these trees pin what reaches the calls.
    return sorted(
        (d["path"], d["line"], d["code"], d["message"])
        for d in data["diagnostics"]
        if "found as data" not in d["message"]
    )


def test_a_field_of_an_options_object_is_reported_where_it_is_written(tmp_path: Path) -> None:
    main = (
        "from app.agent import Agent\nfrom app.options import Options\n\n"
        "opts = Options(model='claude-sonnet-4-6', limits={'max_tokens': 8192}, temperature=0.1)\n"
        "Agent(opts).run('hi')\n"
    )
    found = _findings(_tree(tmp_path, main))
    assert [(path, line, code) for path, line, code, _ in found] == [("app/main.py", 4, "CM102")]
    assert found[0][3].startswith(
        "max_tokens 8192 passed to Agent() reaches a Claude call at app/agent.py:12"
    )


def test_a_field_left_to_its_default_uses_the_default_and_the_or_fallback(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        "from app.agent import Agent\nfrom app.options import Options\n\nAgent(Options())\n",
        app__options=OPTIONS.replace("temperature: float = 0.0", "temperature: float = 0.7"),
    )
    found = _findings(root)
    assert [(line, code) for _, line, code, _ in found] == [(4, "CM101"), (4, "CM302")]
    assert "0.7 (from the default of Options.temperature)" in found[0][3]
    assert "(from DEFAULT_MODEL, the fallback when options.model is None)" in found[1][3]
    # The fallback constant is in another module: the finding has no fix here; the constant's
    # own mention, found as data there, is where the fix changes it.
    data = Cli(root).json("check", "--no-cache", ".")
    fixes = sorted(
        (d["path"], bool(d.get("fix"))) for d in data["diagnostics"] if d["code"] == "CM302"
    )
    assert fixes == [("app/constants.py", True), ("app/main.py", False)]


def test_a_model_passed_in_the_options_does_not_use_the_fallback(tmp_path: Path) -> None:
    main = (
        "from app.agent import Agent\nfrom app.options import Options\n\n"
        "Agent(Options(model='claude-sonnet-4-6'))\n"
    )
    assert _findings(_tree(tmp_path, main)) == []


@pytest.mark.parametrize(
    "made",
    [
        "Options(**settings)",  # the fields come from a dict nobody sees
        "load_options()",  # made elsewhere
        "Options(model=os.environ['MODEL'], temperature=float(os.environ['T']))",
    ],
)
def test_options_that_are_not_proven_stay_unknown(tmp_path: Path, made: str) -> None:
    main = (
        "import os\n\nfrom app.agent import Agent\nfrom app.options import Options\n\n"
        "settings = {}\n\n\ndef load_options():\n    return Options(model=os.environ['M'])\n\n\n"
        f"Agent({made}).run('hi')\n"
    )
    assert _findings(_tree(tmp_path, main)) == []


def test_options_read_by_another_vendor_are_never_reported(tmp_path: Path) -> None:
    other = (
        "from openai import OpenAI\n\n\nclass GptAgent:\n    def __init__(self, options):\n"
        "        self.options = options\n\n    def run(self, prompt):\n"
        "        return OpenAI().chat.completions.create(\n"
        "            model=self.options.model, temperature=self.options.temperature, messages=[]\n"
        "        )\n"
    )
    main = (
        "from app.gpt import GptAgent\nfrom app.options import Options\n\n"
        "GptAgent(Options(model='gpt-4o', temperature=1.5)).run('hi')\n"
    )
    assert _findings(_tree(tmp_path, main, app__gpt=other)) == []


@pytest.mark.parametrize(
    ("name", "split"),
    [
        ("options.model_id", ("options", [("attr", "model_id")])),
        (
            "options.inference_config[maxTokens]",
            ("options", [("attr", "inference_config"), ("key", "maxTokens")]),
        ),
        ("config[temperature]", ("config", [("key", "temperature")])),
        ("temperature", None),
        ("options..x", None),
    ],
)
def test_parameter_paths_split_into_fields_and_keys(name: str, split: object) -> None:
    assert split_path(name) == split


HELPER = """\
import anthropic

client = anthropic.Anthropic()


def build(prompt, temperature=0.0):
    return {{"model": "claude-sonnet-4-6", "max_tokens": 256, "temperature": temperature,
            "messages": [{{"role": "user", "content": prompt}}]}}


def send(prompt):
    return client.messages.create(**{call})
"""


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("build(prompt, 0.9)", [(12, "CM101")]),  # the value this call passes, where it passes it
        ("build(prompt, temperature=0.05)", []),
        ("build(prompt)", []),  # the default 0.0 is within the policy
        ("build(*[prompt, 0.9])", []),  # what `*args` passes is not seen
    ],
)
def test_a_helper_dict_entry_reading_a_parameter_takes_the_calls_argument(
    tmp_path: Path, call: str, expected: list[tuple[int, str]]
) -> None:
    root = write_tree(
        tmp_path / "repo", {"claude-migrate.toml": POLICY, "chat.py": HELPER.format(call=call)}
    )
    assert [(line, code) for _, line, code, _ in _findings(root)] == expected


HOLDER = """\
import anthropic


class Bot:
    def __init__(self, temperature=None):
        self.client = anthropic.Anthropic()
        self.temperature = {value}

    def ask(self, prompt):
        return self.client.messages.create(
            model="claude-sonnet-4-6", max_tokens=100, temperature=self.temperature, messages=[]
        )
"""


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("0.9", [(11, "CM101", True)]),  # set once from a literal: fixed where it is set
        ("temperature", []),  # from a parameter: what callers pass
        ("0.9 if temperature is None else temperature", []),
    ],
)
def test_a_self_attribute_set_once_in_init_is_its_value(
    tmp_path: Path, value: str, expected: list[tuple[int, str, bool]]
) -> None:
    root = write_tree(
        tmp_path / "repo", {"claude-migrate.toml": POLICY, "bot.py": HOLDER.format(value=value)}
    )
    data = Cli(root).json("check", "--no-cache", ".")
    assert [(d["line"], d["code"], d["fix"] is not None) for d in data["diagnostics"]] == expected
    if expected:
        Cli(root)("fix", "--no-cache", ".")
        fixed = (root / "bot.py").read_text()
        assert "self.temperature = 0.0" in fixed and "temperature=self.temperature" in fixed


def test_a_dict_of_clients_filled_in_a_method_holds_claude_clients(tmp_path: Path) -> None:
    source = (
        "import anthropic\nfrom openai import OpenAI\n\n\nclass Pool:\n"
        "    def __init__(self):\n        self.clients = {}\n\n"
        "    def add(self, key, other):\n"
        "        self.clients[key] = OpenAI() if other else anthropic.Anthropic()\n\n"
        "    def ask(self, key):\n"
        "        return self.clients[key].messages.create(model='claude-sonnet-4-6', "
        "max_tokens=9000, messages=[])\n"
    )
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "pool.py": source})
    # An item may be another vendor's client, but only the Claude client has `messages`.
    assert [(line, code) for _, line, code, _ in _findings(root)] == [(13, "CM102")]
    shared = source.replace(
        ".messages.create(model='claude-sonnet-4-6'", ".chat.completions.create(model='gpt-4o'"
    )
    write_tree(root, {"pool.py": shared})
    assert _findings(root) == []  # a method the OpenAI client has: its call, not reported
    write_tree(
        root,
        {
            "pool.py": source.replace(
                "OpenAI() if other else anthropic.Anthropic()", "anthropic.AsyncAnthropic()"
            )
        },
    )
    assert [(line, code) for _, line, code, _ in _findings(root)] == [(13, "CM102")]


def test_a_src_folder_that_is_a_package_is_imported_from_the_project_folder(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "repo",
        {
            "pyproject.toml": "[project]\nname='app'\n",
            "claude-migrate.toml": POLICY,
            "src/__init__.py": "",
            "src/llm/__init__.py": "",
            "src/llm/clients.py": (
                "from anthropic import AsyncAnthropic\n\n\n"
                "def get_client():\n    return AsyncAnthropic()\n"
            ),
            "src/llm/brief.py": (
                "from src.llm.clients import get_client\n\n\nasync def brief():\n"
                "    client = get_client()\n"
                "    return await client.messages.create(model='claude-sonnet-4-6', "
                "max_tokens=2048, messages=[])\n"
            ),
        },
    )
    assert [(path, line, code) for path, line, code, _ in _findings(root)] == [
        ("src/llm/brief.py", 6, "CM102")
    ]


TYPED_FIELD = """\
from dataclasses import dataclass

from anthropic import Anthropic, AnthropicBedrock
from openai import OpenAI


@dataclass
class Options:
    client: {annotation} = None


class Activities:
    def __init__(self, options: Options):
        if options.client:
            self.client = options.client
        else:
            self.client = Anthropic()

    def run(self):
        return self.client.messages.create(model="claude-sonnet-4-6", max_tokens=9000, messages=[])
"""


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        ("Anthropic | AnthropicBedrock | None", [(20, "CM102")]),
        ("Anthropic | OpenAI | None", []),  # may be another vendor's client
        ("object", []),
    ],
)
def test_a_client_field_typed_as_claude_clients_holds_one(
    tmp_path: Path, annotation: str, expected: list[tuple[int, str]]
) -> None:
    source = TYPED_FIELD.format(annotation=annotation)
    root = write_tree(tmp_path / "repo", {"claude-migrate.toml": POLICY, "act.py": source})
    assert [(line, code) for _, line, code, _ in _findings(root)] == expected


def test_a_dataclass_inherits_the_fields_of_its_project_base_class(tmp_path: Path) -> None:
    options = (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Base:\n    name: str\n"
        "    temperature: float = 0.0\n\n\n@dataclass\nclass Options(Base):\n"
        "    model: str | None = None\n    limits: dict | None = None\n"
    )
    main = (
        "from app.agent import Agent\nfrom app.options import Options\n\n"
        "Agent(Options('bot', 0.9, 'claude-sonnet-4-6')).run('hi')\n"
    )
    root = _tree(tmp_path, main, app__options=options)
    assert [(line, code) for _, line, code, _ in _findings(root)] == [(4, "CM101")]


def test_sarif_gives_the_hop_as_a_code_flow_that_validates(tmp_path: Path) -> None:
    import json

    import jsonschema

    main = (
        "from app.agent import Agent\nfrom app.options import Options\n\n"
        "Agent(Options(model='claude-sonnet-4-6', temperature=0.9)).run('hi')\n"
    )
    root = _tree(tmp_path, main)
    result = Cli(root)("check", "--no-cache", "--format", "sarif", ".")
    document = json.loads(result.stdout)
    schema_path = Path(__file__).parent / "schemas" / "sarif-schema-2.1.0.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validators.validator_for(schema)(schema).validate(document)
    (finding,) = [
        r for r in document["runs"][0]["results"] if "found as data" not in r["message"]["text"]
    ]
    (flow,) = finding["codeFlows"]
    steps = [
        (
            step["location"]["physicalLocation"]["artifactLocation"]["uri"],
            step["location"]["physicalLocation"]["region"]["startLine"],
        )
        for step in flow["threadFlows"][0]["locations"]
    ]
    assert steps == [("app/main.py", 4), ("app/agent.py", 12)]


LITELLM_HELPER = """\
from litellm import completion


def ask(question, model):
    return completion(model=model, messages=[{"role": "user", "content": question}])


ask("Which rivers cross Lyon?", "anthropic/claude-sonnet-4-6")
ask("And Turin?", "claude-sonnet-4-6")
"""


def test_a_litellm_helper_every_caller_gives_a_claude_model_is_reported_unstreamed(
    tmp_path: Path,
) -> None:
    write_tree(tmp_path, {"app.py": LITELLM_HELPER})
    data = Cli(tmp_path).json("check", "--select", "CM104")
    assert {(d["line"], d["code"]) for d in data["diagnostics"]} == {(5, "CM104")}


@pytest.mark.parametrize(
    "callers",
    [
        # One caller gives another vendor's model: the helper is not Claude's alone.
        'ask("Lyon?", "anthropic/claude-sonnet-4-6")\nask("Turin?", "gpt-4o")\n',
        # A model read from the environment: not known.
        'import os\n\nask("Lyon?", os.environ["MODEL"])\n',
        # Passed through `**kwargs`: what it gives is not seen.
        'options = {"model": "claude-sonnet-4-6"}\nask("Lyon?", **options)\n',
        # No call in the project: nothing proves the model.
        "",
    ],
)
def test_a_litellm_helper_not_every_caller_proves_a_claude_model_is_not_reported(
    tmp_path: Path, callers: str
) -> None:
    helper = LITELLM_HELPER.split("\n\nask(", 1)[0] + "\n\n"
    write_tree(tmp_path, {"app.py": helper + callers})
    data = Cli(tmp_path).json("check", "--select", "CM104")
    assert [d for d in data["diagnostics"] if d["line"] == 5] == []


def test_a_bedrock_helper_spelling_the_id_around_its_parameter_is_claude_by_its_callers(
    tmp_path: Path,
) -> None:
    helpers = (
        "import boto3\n\n"
        'runtime = boto3.client("bedrock-runtime")\n\n\n'
        "def ask(name, prompt):\n"
        '    return runtime.converse(modelId=f"us.{name}", messages=[])\n'
    )
    callers = 'from helpers import ask\n\nask("anthropic.claude-3-5-haiku-20241022-v1:0", "hi")\n'
    write_tree(tmp_path, {"helpers.py": helpers, "main.py": callers})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM104", ".")
    assert {(d["path"], d["line"]) for d in data["diagnostics"]} == {("helpers.py", 7)}
    other = callers.replace("anthropic.claude-3-5-haiku-20241022-v1:0", "amazon.nova-pro-v1:0")
    write_tree(tmp_path, {"main.py": other})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM104", ".")
    assert data["diagnostics"] == []


def test_a_chatbedrock_factory_every_caller_gives_a_claude_id_is_claude(tmp_path: Path) -> None:
    source = (
        "from langchain_aws import ChatBedrock\n\n\n"
        "def make(model_id):\n"
        '    return ChatBedrock(model_id=model_id, model_kwargs={"temperature": 0.9})\n\n\n'
        'llm = make("anthropic.claude-3-haiku-20240307-v1:0")\n'
    )
    write_tree(tmp_path, {"app.py": source})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM101,CM104", ".")
    assert {(d["line"], d["code"]) for d in data["diagnostics"]} == {(5, "CM101"), (5, "CM104")}
    write_tree(tmp_path, {"app.py": source.replace("anthropic.claude-3-haiku", "meta.llama3")})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM101,CM104", ".")
    assert data["diagnostics"] == []


def test_a_model_passed_on_through_two_helpers_is_claude_by_the_outer_callers(
    tmp_path: Path,
) -> None:
    runtime = (
        "import boto3\n\n"
        'runtime = boto3.client("bedrock-runtime")\n\n\n'
        "def invoke(model_id, prompt):\n"
        "    return runtime.converse(modelId=model_id, messages=[])\n"
    )
    agent = (
        "from runtime import invoke\n\n\n"
        "class Agent:\n"
        "    def ask(self, prompt, model):\n"
        "        return invoke(model, prompt)\n\n\n"
        'Agent().ask("hi", "anthropic.claude-3-5-haiku-20241022-v1:0")\n'
    )
    write_tree(tmp_path, {"runtime.py": runtime, "agent.py": agent})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM104", ".")
    assert {(d["path"], d["line"]) for d in data["diagnostics"]} == {("runtime.py", 7)}
    # Another caller of the outer helper with another vendor's model: not Claude's alone.
    write_tree(tmp_path, {"agent.py": agent + 'Agent().ask("hi", "amazon.nova-pro-v1:0")\n'})
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM104", ".")
    assert data["diagnostics"] == []
