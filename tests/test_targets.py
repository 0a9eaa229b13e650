"""Claude calls made through other libraries: LlamaIndex on Bedrock, bedrock-agent-runtime's
retrieve_and_generate, pydantic-ai, DSPy, instructor, aisuite and the OpenAI SDK on Anthropic's
OpenAI-compatible endpoint.

Every case under fixtures/targets-*/ runs with every rule on, under the `<case>.toml` next to
it: `# expect: CODE` marks each finding on the line where it starts, `<case>.fixed.py` is the
golden output of `fix --unsafe-fixes`, which must parse and settle. The in-process tests below
pin what each call shape is (its target, its parameters) and what it is not.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import libcst as cst
import pytest
from helpers import FIXTURES, Cli, marked_lines, write_tree

from claude_migrate.analysis.calls import CallSite, find_call_sites
from claude_migrate.analysis.scope import ModuleIndex
from claude_migrate.analysis.streams import call_streams
from claude_migrate.api import collect_jobs, execute
from claude_migrate.core.job import Options
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.policy.deprecations import load as load_catalogue
from claude_migrate.targets import described, sent_another_model

CASES = sorted(
    case
    for folder in FIXTURES.glob("targets-*")
    for case in folder.glob("*.py")
    if not case.name.endswith(".fixed.py")
)


def _run(path: Path, case: Path, fix: bool):
    loader = PolicyLoader(case.with_suffix(".toml"))
    jobs = collect_jobs([path], loader, None)
    return execute(jobs, Options(fix=fix, unsafe=True), workers=1)


def test_every_target_folder_holds_a_case_with_a_policy() -> None:
    folders = {case.parent.name for case in CASES}
    assert folders >= {
        "targets-llamaindex",
        "targets-bedrock-agent",
        "targets-pydantic-ai",
        "targets-dspy",
        "targets-instructor",
        "targets-openai-compat",
        "targets-aisuite",
    }
    for case in CASES:
        assert case.with_suffix(".toml").is_file(), f"{case} has no policy next to it"


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_target_fixture_reports_exactly_the_marked_lines(case: Path) -> None:
    run = _run(case, case, fix=False)
    assert not run.errors, run.errors
    assert {(d.line, d.code) for d in run.diagnostics} == marked_lines(case)


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_target_fixture_fix_matches_golden_parses_and_settles(case: Path, tmp_path: Path) -> None:
    work = tmp_path / case.name
    shutil.copyfile(case, work)
    _run(work, case, fix=True)
    fixed = work.read_text(encoding="utf-8")
    assert fixed == case.with_name(case.stem + ".fixed.py").read_text(encoding="utf-8")
    cst.parse_module(fixed)
    _run(work, case, fix=True)
    assert work.read_text(encoding="utf-8") == fixed, "a second fix changed the file"


# What each shape is -------------------------------------------------------------------------


def sites(source: str) -> list[CallSite]:
    index = ModuleIndex.build(cst.parse_module(source))
    return list(find_call_sites(index))


def only(source: str) -> CallSite:
    found = sites(source)
    assert len(found) == 1, found
    return found[0]


def value(site: CallSite, canonical: str) -> object:
    entry = site.param(canonical)
    assert entry is not None, (site.target.key, canonical)
    return entry.value.value


def wrapper_findings(root: Path, wrappers: str, calls: str) -> set[tuple[int, str]]:
    """Return the (line, code) findings in `app/run.py` of a project whose `app/models.py`
    wraps a library's Claude class and whose `app/run.py` calls the wrappers."""
    write_tree(
        root,
        {
            "app/__init__.py": "",
            "app/models.py": wrappers,
            "app/run.py": calls,
            "claude-migrate.toml": "select = ['CM101', 'CM302']\n"
            "[retired-models]\nas-of = 2026-04-01\n",
        },
    )
    report = Cli(root).json("check", ".")
    assert {d["path"] for d in report["diagnostics"]} <= {"app/run.py"}
    return {(d["line"], d["code"]) for d in report["diagnostics"]}


def test_bedrock_converse_reads_positional_model_and_its_two_parameters() -> None:
    site = only(
        "from llama_index.llms.bedrock_converse import BedrockConverse\n"
        "BedrockConverse('anthropic.claude-3-haiku-20240307-v1:0', temperature=0.5,"
        " max_tokens=99)\n"
    )
    assert site.target.key == "llamaindex:BedrockConverse"
    assert value(site, "model") == "anthropic.claude-3-haiku-20240307-v1:0"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 99)
    assert site.target.stream == () and site.target.stop == ()


@pytest.mark.parametrize(
    "call",
    [
        "BedrockConverse(model='mistral.mistral-large-2402-v1:0', temperature=0.9)",
        "BedrockConverse(temperature=0.9)",
        "Bedrock(model='cohere.command-r-v1:0', temperature=0.9)",
        "Bedrock(*args, temperature=0.9)",
    ],
)
def test_llamaindex_bedrock_without_a_claude_model_is_not_a_claude_call(call: str) -> None:
    source = (
        "from llama_index.llms.bedrock import Bedrock\n"
        "from llama_index.llms.bedrock_converse import BedrockConverse\n"
        f"{call}\n"
    )
    assert sites(source) == []


AGENT = """\
import boto3
agents = boto3.client("bedrock-agent-runtime")
agents.retrieve_and_generate(
    input={{"text": "q"}},
    retrieveAndGenerateConfiguration={{
        "type": "KNOWLEDGE_BASE",
        "knowledgeBaseConfiguration": {{
            "knowledgeBaseId": "KB",
            "modelArn": {model!r},
            {generation}
        }},
    }},
)
"""


def test_retrieve_and_generate_reads_text_inference_config() -> None:
    generation = (
        '"generationConfiguration": {"inferenceConfig": {"textInferenceConfig": '
        '{"temperature": 0.7, "maxTokens": 3000, "stopSequences": ["x"]}}},'
    )
    site = only(AGENT.format(model="anthropic.claude-v2", generation=generation))
    assert site.target.key == "bedrock:retrieve_and_generate"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.7, 3000)
    assert value(site, "stop_sequences") == ["x"]
    assert site.call_args is not None and site.call_args.get("modelArn") is not None


def test_retrieve_and_generate_without_generation_settings_sends_none() -> None:
    site = only(AGENT.format(model="anthropic.claude-v2", generation=""))
    assert site.param("temperature") is None
    assert not site.may_have("temperature"), "nothing unseen can carry a temperature"


def test_retrieve_and_generate_with_another_vendors_model_is_not_a_claude_call() -> None:
    arn = "arn:aws:bedrock:us-east-1::foundation-model/meta.llama3-70b-instruct-v1:0"
    assert sites(AGENT.format(model=arn, generation="")) == []


def test_retrieve_and_generate_model_arn_may_leave_region_and_account_unknown() -> None:
    source = AGENT.format(model="MODEL", generation="").replace(
        "'MODEL'", 'f"arn:aws:bedrock:{region}:{account}:inference-profile/{MODEL_ID}"'
    )
    claude = "import os\nregion = os.environ['AWS_REGION']\nMODEL_ID = 'us.anthropic.claude-v2'\n"
    site = only(claude + source)
    assert site.target.key == "bedrock:retrieve_and_generate"
    titan = claude.replace("us.anthropic.claude-v2", "amazon.titan-text-premier-v1:0")
    assert sites(titan + source) == []
    unknown = claude.replace("'us.anthropic.claude-v2'", "os.environ['MODEL_ID']")
    assert sites(unknown + source) == []


def test_bedrock_agent_runtime_other_methods_are_not_claude_calls() -> None:
    source = (
        "import boto3\n"
        "agents = boto3.client('bedrock-agent-runtime')\n"
        "agents.retrieve(knowledgeBaseId='KB', retrievalQuery={'text': 'claude'})\n"
        "agents.invoke_agent(agentId='A', inputText='anthropic.claude-v2')\n"
    )
    assert sites(source) == []


def test_pydantic_ai_agent_is_claude_by_its_model_string_or_model_object() -> None:
    source = (
        "from pydantic_ai import Agent\n"
        "from pydantic_ai.models.anthropic import AnthropicModel\n"
        "m = AnthropicModel('claude-sonnet-4-6')\n"
        "Agent('anthropic:claude-sonnet-4-6', model_settings={'temperature': 0.3})\n"
        "Agent(m, model_settings={'max_tokens': 10})\n"
        "Agent('openai:gpt-4o', model_settings={'temperature': 0.9})\n"
        "Agent('groq:llama-3.3-70b', model_settings={'temperature': 0.9})\n"
    )
    keys = [(s.target.key, s.record.node.func) for s in sites(source)]
    assert [k for k, _ in keys] == [
        "pydantic-ai:AnthropicModel",
        "pydantic-ai:Agent",
        "pydantic-ai:Agent",
    ]


def test_pydantic_ai_settings_held_elsewhere_stay_unknown() -> None:
    site = only(
        "from pydantic_ai import Agent\n"
        "def make(settings):\n"
        "    return Agent('anthropic:claude-sonnet-4-6', model_settings=settings)\n"
    )
    assert site.param("temperature") is None and site.may_have("temperature")


def test_dspy_lm_is_claude_only_for_a_claude_model() -> None:
    source = (
        "import dspy\n"
        "dspy.LM('anthropic/claude-sonnet-4-6', temperature=0.4, max_tokens=10)\n"
        "dspy.LM('openai/gpt-4o', temperature=0.9)\n"
        "dspy.LM('together_ai/meta-llama/Llama-3-70b', temperature=0.9)\n"
    )
    (site,) = sites(source)
    assert site.target.key == "dspy:LM" and value(site, "temperature") == 0.4


def test_instructor_needs_an_anthropic_client_or_provider() -> None:
    source = (
        "import instructor\n"
        "from anthropic import Anthropic\n"
        "from openai import OpenAI\n"
        "a = instructor.from_anthropic(Anthropic())\n"
        "o = instructor.from_openai(OpenAI())\n"
        "p = instructor.from_provider('anthropic/claude-sonnet-4-6')\n"
        "g = instructor.from_provider('google/gemini-1.5-pro')\n"
        "def run(unknown):\n"
        "    a.messages.create(model='claude-sonnet-4-6', temperature=0.9, response_model=int)\n"
        "    a.chat.completions.create(model='claude-sonnet-4-6', max_tokens=9)\n"
        "    a.create_partial(model='claude-sonnet-4-6', max_tokens=9, response_model=int)\n"
        "    o.chat.completions.create(model='gpt-4o', temperature=0.9, response_model=int)\n"
        "    p.create(temperature=0.9, response_model=int)\n"
        "    g.create(temperature=0.9, response_model=int)\n"
        "    instructor.from_anthropic(unknown).messages.create(temperature=0.9)\n"
    )
    found = [site.target.key for site in sites(source)]
    assert found == ["instructor:from_provider"] + ["instructor:create"] * 4


OPENAI = """\
from openai import OpenAI
client = OpenAI(base_url={url!r})
client.chat.completions.create(model="claude-sonnet-4-6", temperature=0.9, messages=[])
"""


@pytest.mark.parametrize(
    "url",
    [
        "https://api.anthropic.com/v1/",
        "https://api.anthropic.com/v1",
        "https://api.anthropic.com:443/v1/",
    ],
)
def test_openai_client_on_anthropics_endpoint_is_a_claude_client(url: str) -> None:
    site = only(OPENAI.format(url=url))
    assert site.target.key == "openai-compat:chat.completions.create"
    assert value(site, "temperature") == 0.9
    assert site.target.names("max_tokens") == ("max_tokens", "max_completion_tokens")


@pytest.mark.parametrize(
    "url",
    [
        "https://api.openai.com/v1/",
        "http://localhost:8000/v1",
        "https://api.anthropic.com.example.com/v1/",
        "https://proxy.example.com/api.anthropic.com/v1/",
    ],
)
def test_openai_client_elsewhere_is_never_a_claude_client(url: str) -> None:
    assert sites(OPENAI.format(url=url)) == []


def test_openai_client_without_base_url_is_never_a_claude_client() -> None:
    source = (
        "from openai import OpenAI\n"
        "client = OpenAI()\n"
        "client.chat.completions.create(model='claude-sonnet-4-6', temperature=0.9)\n"
    )
    assert sites(source) == []


AISUITE = "import aisuite as ai\nclient = ai.Client()\nclient.chat.completions.{call}\n"


@pytest.mark.parametrize(
    "call",
    [
        "create(model='anthropic:claude-sonnet-4-6', messages=[], temperature=0.9)",
        "create('anthropic:claude-sonnet-4-6', [], temperature=0.9)",
        "acreate(model='anthropic:claude-sonnet-4-6', messages=[], temperature=0.9, stream=True)",
    ],
)
def test_aisuite_with_an_anthropic_model_is_a_claude_call(call: str) -> None:
    site = only(AISUITE.format(call=call))
    assert site.target.key == "aisuite:create"
    assert value(site, "temperature") == 0.9
    assert value(site, "model") == "anthropic:claude-sonnet-4-6"
    # aisuite hands its keywords to the anthropic SDK as written: no `stop` is renamed.
    assert site.target.names("stop_sequences") == ("stop_sequences",)


@pytest.mark.parametrize(
    "call",
    [
        "create(model='openai:gpt-4o', messages=[], temperature=0.9)",
        "create('groq:llama-3.1-8b-instant', [], temperature=0.9)",
        # Another vendor's model behind aisuite's `aws` provider, and Claude's id behind `aws:`
        # in the API's spelling, which Bedrock refuses.
        "create(model='aws:meta.llama3-1-70b-instruct-v1:0', messages=[], temperature=0.9)",
        "create(model='aws:claude-3-haiku-20240307', messages=[], temperature=0.9)",
        "completions(model='anthropic:claude-sonnet-4-6', messages=[], temperature=0.9)",
    ],
)
def test_aisuite_with_another_provider_is_not_a_claude_call(call: str) -> None:
    assert sites(AISUITE.format(call=call)) == []


@pytest.mark.parametrize(
    "model",
    ["aws:anthropic.claude-3-haiku-20240307-v1:0", "aws:us.anthropic.claude-sonnet-4-6"],
)
def test_aisuite_with_a_claude_bedrock_model_reads_what_its_aws_provider_sends(
    model: str,
) -> None:
    site = only(
        AISUITE.format(
            call=f"create(model={model!r}, messages=[], temperature=0.9, maxTokens=300,"
            " stopSequences=['END'], max_tokens=9000)"
        )
    )
    assert site.target.key == "aisuite:aws"
    assert value(site, "model") == model
    assert value(site, "temperature") == 0.9
    # `maxTokens` is the provider's inferenceConfig key; `max_tokens` goes to
    # additionalModelRequestFields, not read.
    assert value(site, "max_tokens") == 300
    assert value(site, "stop_sequences") == ["END"]
    assert call_streams(site) is None


def test_an_aisuite_loop_over_providers_is_claudes_only_for_the_anthropic_model() -> None:
    source = (
        "import aisuite as ai\n"
        "client = ai.Client()\n"
        "for m in ['openai:gpt-4o', 'aws:anthropic.claude-3-haiku-20240307-v1:0',"
        " 'anthropic:claude-3-haiku-20240307']:\n"
        "    client.chat.completions.create(model=m, messages=[], temperature=0.9)\n"
    )
    assert [value(site, "model") for site in sites(source)] == ["anthropic:claude-3-haiku-20240307"]


def test_an_aisuite_client_and_model_of_another_module_are_read(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/settings.py": "MODEL = 'anthropic:claude-3-opus-20240229'\n"
            "OTHER = 'openai:gpt-4o'\n",
            # A module that names no Claude model still makes the client the others use.
            "app/clients.py": "import aisuite\nclient = aisuite.Client()\n",
            "app/run.py": "from app.clients import client\n"
            "from app.settings import MODEL, OTHER\n"
            "def ask(text):\n"
            "    return client.chat.completions.create(model=MODEL, messages=[text],"
            " temperature=0.9)\n"
            "def other(text):\n"
            "    return client.chat.completions.create(model=OTHER, messages=[text],"
            " temperature=0.9)\n",
            "claude-migrate.toml": "select = ['CM101', 'CM302']\n"
            "[retired-models]\nas-of = 2026-04-01\n",
        },
    )
    report = Cli(tmp_path).json("check", ".")
    found = {(d["path"], d["line"], d["code"]) for d in report["diagnostics"]}
    # The retired id is reported where it is written, as the model of a Claude call.
    assert found == {("app/run.py", 4, "CM101"), ("app/settings.py", 1, "CM302")}
    (retired,) = [d for d in report["diagnostics"] if d["code"] == "CM302"]
    assert "read by a Claude call" in retired["message"]


AISUITE_WRAPPER = (
    "import aisuite as ai\n"
    "client = ai.Client()\n"
    "def ask(model, temperature):\n"
    "    return client.chat.completions.create(\n"
    "        model=model, messages=[], temperature=temperature\n"
    "    )\n"
)


def test_a_wrapper_passing_its_model_to_aisuite_is_read_at_its_callers(tmp_path: Path) -> None:
    calls = "from app.models import ask\nask('anthropic:claude-sonnet-4-6', 0.9)\n"
    assert wrapper_findings(tmp_path, AISUITE_WRAPPER, calls) == {(2, "CM101")}


def test_a_wrapper_spelling_the_anthropic_provider_around_its_model_is_read(
    tmp_path: Path,
) -> None:
    wrappers = AISUITE_WRAPPER.replace("model=model", "model=f'anthropic:{model}'")
    calls = "from app.models import ask\nask('claude-sonnet-4-6', 0.9)\nask('gpt-4o', 0.9)\n"
    # aisuite sends `anthropic:gpt-4o` to Anthropic too, where it fails: no Claude request.
    assert wrapper_findings(tmp_path, wrappers, calls) == {(2, "CM101")}


def test_a_wrapper_passing_an_aws_claude_model_to_aisuite_is_read_at_its_callers(
    tmp_path: Path,
) -> None:
    # aisuite's aws provider sends `temperature` as converse's inferenceConfig, and
    # `max_tokens` (the wrapper's keyword) as additionalModelRequestFields, which is not read.
    wrappers = AISUITE_WRAPPER.replace("temperature):", "temperature, max_tokens=4096):").replace(
        "temperature=temperature", "temperature=temperature, max_tokens=max_tokens"
    )
    calls = (
        "from app.models import ask\n"
        "ask('aws:anthropic.claude-sonnet-4-6', 0.9, max_tokens=9000)\n"
        "ask('aws:us.anthropic.claude-3-opus-20240229-v1:0', 0.1)\n"
        "ask('aws:meta.llama3-1-70b-instruct-v1:0', 0.9)\n"
        "ask('aws:claude-sonnet-4-6', 0.9)\n"
    )
    found = wrapper_findings(tmp_path, wrappers, calls)
    assert found == {(2, "CM101"), (3, "CM302")}


@pytest.mark.parametrize(
    "models",
    [
        # Another provider's model.
        ["'openai:gpt-4o'"],
        # Claude's id with no provider: aisuite refuses a model without one.
        ["'claude-sonnet-4-6'"],
        # Another vendor's model behind aisuite's `aws` provider.
        ["'aws:meta.llama3-1-70b-instruct-v1:0'"],
        # Another caller's model is unknown or another vendor's: only the first call is read.
        ["'anthropic:claude-sonnet-4-6'", "os.environ['MODEL']"],
        ["'anthropic:claude-sonnet-4-6'", "'openai:gpt-4o'"],
    ],
)
def test_a_wrapper_passing_its_model_to_aisuite_is_read_only_at_anthropics_callers(
    tmp_path: Path, models: list[str]
) -> None:
    calls = "import os\nfrom app.models import ask\n" + "".join(
        f"ask({model}, 0.9)\n" for model in models
    )
    claude = {(3, "CM101")} if models[0].startswith("'anthropic:") else set()
    # A retiring id is reported as data wherever it is written (CM302): the temperature only
    # where the call is Claude's through the SDK.
    found = wrapper_findings(tmp_path, AISUITE_WRAPPER, calls)
    assert {finding for finding in found if finding[1] == "CM101"} == claude


def test_colon_provider_prefix_names_a_catalogue_model() -> None:
    catalogue = load_catalogue()
    found = catalogue.lookup("anthropic:claude-3-opus-20240229")
    assert found is not None and found.prefix == "anthropic:"
    bedrock = catalogue.lookup("bedrock:us.anthropic.claude-3-5-sonnet-20240620-v1:0")
    assert bedrock is not None and bedrock.form == "bedrock" and bedrock.prefix == "bedrock:us."
    assert catalogue.lookup("openai:gpt-4o") is None


# What each rule says on each ------------------------------------------------------------------

SAMPLING = """\
import instructor
from anthropic import Anthropic
from openai import OpenAI
from pydantic_ai import Agent

ic = instructor.from_anthropic(Anthropic())
oc = OpenAI(base_url="https://api.anthropic.com/v1/")
ic.messages.create(model="claude-sonnet-4-6", max_tokens=100, temperature=0.1, messages=[])
oc.chat.completions.create(model="claude-sonnet-4-6", temperature=0.1, messages=[], stream=True)
Agent("anthropic:claude-sonnet-4-6", model_settings={"temperature": 0.1})
"""


def test_sampling_rejection_follows_what_each_library_sends(tmp_path: Path) -> None:
    # Under an API version that rejects temperature: instructor and pydantic-ai send it to the
    # Messages API; the OpenAI-compatible endpoint is not reached with an anthropic-version.
    write_tree(
        tmp_path,
        {
            "app.py": SAMPLING,
            "claude-migrate.toml": '[api-version]\nversion = "2026-10-21"\n'
            "[streaming]\nrequire = false\n",
        },
    )
    report = Cli(tmp_path).json("check", "app.py")
    found = {(d["line"], d["code"]) for d in report["diagnostics"]}
    assert found == {(8, "CM107"), (10, "CM107")}


def test_model_facts_are_not_read_through_an_adapting_layer(tmp_path: Path) -> None:
    # Opus 4.1 takes temperature or top_p, not both (rules/models.toml): instructor sends both
    # as written; pydantic-ai and the OpenAI-compatible layer decide what reaches the model.
    source = (
        "import instructor\n"
        "from anthropic import Anthropic\n"
        "from openai import OpenAI\n"
        "from pydantic_ai import Agent\n"
        "ic = instructor.from_anthropic(Anthropic())\n"
        "oc = OpenAI(base_url='https://api.anthropic.com/v1/')\n"
        "ic.messages.create(model='claude-opus-4-1', max_tokens=9, temperature=0.1, top_p=0.5)\n"
        "oc.chat.completions.create(model='claude-opus-4-1', temperature=0.1, top_p=0.5,"
        " stream=True)\n"
        "Agent('anthropic:claude-opus-4-1', model_settings={'temperature': 0.1, 'top_p': 0.5})\n"
    )
    write_tree(tmp_path, {"app.py": source, "claude-migrate.toml": "select = ['CM108']\n"})
    report = Cli(tmp_path).json("check", "app.py")
    assert {(d["line"], d["code"]) for d in report["diagnostics"]} == {(7, "CM108")}


# agno, CrewAI and LangChain's legacy Bedrock LLM: constructors in the registry ---------------


def test_agno_claude_names_its_model_id() -> None:
    site = only(
        "from agno.models.anthropic import Claude\n"
        "Claude(id='claude-sonnet-4-6', temperature=0.5, max_tokens=99, stop_sequences=['x'])\n"
    )
    assert site.target.key == "agno:Claude"
    assert value(site, "model") == "claude-sonnet-4-6"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 99)
    assert value(site, "stop_sequences") == ["x"]
    assert site.target.stream == ()


def test_a_class_named_claude_that_is_not_agnos_is_no_site() -> None:
    assert sites("class Claude:\n    pass\nClaude(id='claude-3-opus-20240229')\n") == []
    assert sites("from mylib import Claude\nClaude(id='claude-3-opus-20240229')\n") == []


@pytest.mark.parametrize(
    "call",
    [
        "LLM(model='anthropic/claude-sonnet-4-6', temperature=0.5)",
        "LLM('claude-sonnet-4-6', temperature=0.5)",
        "LLM(model='bedrock/anthropic.claude-sonnet-4-6', temperature=0.5)",
    ],
)
def test_crewai_llm_with_a_claude_model_is_a_claude_call(call: str) -> None:
    site = only(f"from crewai import LLM\n{call}\n")
    assert site.target.key == "crewai:LLM"
    assert value(site, "temperature") == 0.5


@pytest.mark.parametrize(
    "call",
    [
        "LLM(model='gpt-4o', temperature=0.9)",
        "LLM('gemini/gemini-2.0-flash', temperature=0.9)",
        "LLM(temperature=0.9)",
        "LLM(model=name, temperature=0.9)",
        "LLM(*args, temperature=0.9)",
    ],
)
def test_crewai_llm_without_a_claude_model_is_not_a_claude_call(call: str) -> None:
    assert sites(f"from crewai import LLM\n{call}\n") == []


HAYSTACK_ANTHROPIC = "from haystack_integrations.components.generators.anthropic import "


@pytest.mark.parametrize(
    "call",
    [
        "AnthropicChatGenerator(model='claude-sonnet-4-6',"
        " generation_kwargs={'temperature': 0.5, 'max_tokens': 300})",
        "AnthropicChatGenerator(key, 'claude-sonnet-4-6',"
        " generation_kwargs={'temperature': 0.5, 'max_tokens': 300})",
        "AnthropicGenerator(model='claude-sonnet-4-6',"
        " generation_kwargs=dict(temperature=0.5, max_tokens=300))",
        "AnthropicVertexChatGenerator('us-east5', 'p', 'claude-sonnet-4-6',"
        " generation_kwargs={'temperature': 0.5, 'max_tokens': 300})",
        "AnthropicFoundryChatGenerator(resource='r', model='claude-sonnet-4-6',"
        " generation_kwargs={'temperature': 0.5, 'max_tokens': 300})",
    ],
)
def test_haystack_anthropic_generators_read_generation_kwargs(call: str) -> None:
    name = call.split("(", 1)[0]
    site = only(f"{HAYSTACK_ANTHROPIC}{name}\n{call}\n")
    assert site.target.key == "haystack:AnthropicChatGenerator"
    assert value(site, "model") == "claude-sonnet-4-6"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)


def test_haystack_bedrock_chat_generator_is_claude_only_with_a_claude_model() -> None:
    head = (
        "from haystack_integrations.components.generators.amazon_bedrock"
        " import AmazonBedrockChatGenerator\n"
    )
    site = only(
        head + "AmazonBedrockChatGenerator('anthropic.claude-sonnet-4-6',"
        " generation_kwargs={'maxTokens': 300, 'temperature': 0.5})\n"
    )
    assert site.target.key == "haystack:AmazonBedrockChatGenerator"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)
    assert sites(head + "AmazonBedrockChatGenerator('amazon.nova-pro-v1:0')\n") == []
    assert sites(head + "AmazonBedrockChatGenerator(model=name)\n") == []


def test_a_class_named_like_a_haystack_generator_is_not_one_without_haystack() -> None:
    source = (
        "class AnthropicChatGenerator:\n"
        "    def __init__(self, model, generation_kwargs=None): ...\n"
        "AnthropicChatGenerator(model='claude-3-opus-20240229',"
        " generation_kwargs={'temperature': 0.9})\n"
    )
    assert sites(source) == []


def test_a_wrapper_across_modules_around_a_haystack_generator_is_followed(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        f"{HAYSTACK_ANTHROPIC}AnthropicChatGenerator\n"
        "def generator(model, temperature=0.0):\n"
        "    return AnthropicChatGenerator(\n"
        "        model=model, generation_kwargs={'temperature': temperature}\n"
        "    )\n",
        "from app.models import generator\n"
        "a = generator('claude-sonnet-4-6', temperature=0.9)\n"
        "b = generator('claude-3-opus-20240229')\n",
    )
    assert found == {(2, "CM101"), (3, "CM302")}


def test_langchain_cloud_chat_models_are_claude_calls() -> None:
    vertex = only(
        "from langchain_google_vertexai.model_garden import ChatAnthropicVertex\n"
        "ChatAnthropicVertex(model_name='claude-sonnet-4-6', max_output_tokens=300,"
        " model_kwargs={'temperature': 0.5})\n"
    )
    assert vertex.target.key == "langchain:ChatAnthropicVertex"
    assert (value(vertex, "temperature"), value(vertex, "max_tokens")) == (0.5, 300)
    bedrock = only(
        "from langchain_aws import ChatAnthropicBedrock\n"
        "ChatAnthropicBedrock(model='us.anthropic.claude-sonnet-4-6', temperature=0.5)\n"
    )
    assert bedrock.target.key == "langchain:ChatAnthropic"
    assert value(bedrock, "model") == "us.anthropic.claude-sonnet-4-6"


def test_autogen_anthropic_clients_are_claude_calls_whatever_the_model() -> None:
    for name in ("AnthropicChatCompletionClient", "AnthropicBedrockChatCompletionClient"):
        site = only(
            f"from autogen_ext.models.anthropic import {name}\n"
            f"{name}(model=settings.model, temperature=0.5, max_tokens=300)\n"
        )
        assert site.target.key == "autogen:AnthropicChatCompletionClient"
        assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)


@pytest.mark.parametrize(
    ("call", "claude"),
    [
        ("LiteLLMModel('anthropic/claude-sonnet-4-6', temperature=0.5)", True),
        ("LiteLLMModel(model_id='claude-sonnet-4-6', temperature=0.5)", True),
        ("LiteLLMModel(model_id='gpt-4o', temperature=0.5)", False),
        ("LiteLLMModel(model_id=name, temperature=0.5)", False),
        (
            "AmazonBedrockModel(model_id='anthropic.claude-sonnet-4-6',"
            " inferenceConfig={'temperature': 0.5})",
            True,
        ),
        ("AmazonBedrockModel('meta.llama3-70b-instruct-v1:0', inferenceConfig={})", False),
    ],
)
def test_smolagents_models_are_claude_calls_only_with_a_claude_model(
    call: str, claude: bool
) -> None:
    found = sites(f"from smolagents import LiteLLMModel, AmazonBedrockModel\n{call}\n")
    if not claude:
        assert found == []
        return
    (site,) = found
    assert site.target.key.startswith("smolagents:")
    assert value(site, "temperature") == 0.5


@pytest.mark.parametrize(
    ("flag", "streams"),
    [("", True), (", streaming=True", True), (", streaming=False", False), (", streaming=s", None)],
)
def test_a_strands_bedrock_model_streams_unless_told_not_to(flag: str, streams: object) -> None:
    site = only(
        "from strands.models import BedrockModel\n"
        f"BedrockModel(model_id='us.anthropic.claude-sonnet-4-6', temperature=0.5{flag})\n"
    )
    assert site.target.key == "strands:BedrockModel"
    assert call_streams(site) is streams


def test_a_strands_anthropic_model_reads_params_and_always_streams() -> None:
    site = only(
        "from strands.models.anthropic import AnthropicModel\n"
        "AnthropicModel(model_id='claude-sonnet-4-6', max_tokens=300,"
        " params={'temperature': 0.5})\n"
    )
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)
    assert call_streams(site) is True


@pytest.mark.parametrize(
    ("head", "decorator"),
    [
        ("from mirascope.core import anthropic", "anthropic.call"),
        ("from mirascope.core.anthropic import anthropic_call", "anthropic_call"),
    ],
)
def test_a_mirascope_anthropic_decorator_is_a_claude_call(head: str, decorator: str) -> None:
    site = only(
        f"{head}\n"
        f"@{decorator}('claude-sonnet-4-6',"
        " call_params={'temperature': 0.5, 'max_tokens': 300})\n"
        "def ask(question: str) -> str:\n"
        "    return question\n"
    )
    assert site.target.key == "mirascope:call"
    assert value(site, "model") == "claude-sonnet-4-6"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)
    assert call_streams(site) is False


def test_a_wrapper_passing_its_model_to_smolagents_is_read_at_its_callers(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        "from smolagents import LiteLLMModel\n"
        "def model(model_id, temperature=0.0):\n"
        "    return LiteLLMModel(model_id=model_id, temperature=temperature)\n",
        "from app.models import model\n"
        "a = model('anthropic/claude-sonnet-4-6', temperature=0.9)\n"
        "b = model('openai/gpt-4o', temperature=0.9)\n"
        "c = model('anthropic/claude-3-opus-20240229')\n",
    )
    assert found == {(2, "CM101"), (4, "CM302")}


ADK = (
    "from google.adk.models.lite_llm import LiteLlm\n"
    "from google.adk.models.anthropic_llm import Claude\n"
)


@pytest.mark.parametrize(
    ("call", "key"),
    [
        ("LiteLlm('anthropic/claude-sonnet-4-6', temperature=0.5)", "google-adk:LiteLlm"),
        (
            "LiteLlm(model='bedrock/anthropic.claude-sonnet-4-6', temperature=0.5)",
            "google-adk:LiteLlm",
        ),
        ("LiteLlm(model='openai/gpt-4o', temperature=0.5)", None),
        ("LiteLlm(model=name, temperature=0.5)", None),
        ("Claude(model='claude-sonnet-4-5@20250929')", "google-adk:Claude"),
    ],
)
def test_google_adk_models_are_claude_calls(call: str, key: str | None) -> None:
    found = sites(f"{ADK}{call}\n")
    assert [site.target.key for site in found] == ([key] if key else [])


def test_google_adk_claude_sends_only_its_model() -> None:
    # ADK's Claude fixes the request's max_tokens itself; a keyword it has no field for is
    # dropped by its pydantic model, never sent.
    site = only(f"{ADK}Claude(model='claude-sonnet-4-5@20250929', max_tokens=9000)\n")
    assert value(site, "model") == "claude-sonnet-4-5@20250929"
    assert site.param("max_tokens") is None


def test_a_claude_class_of_neither_adk_nor_agno_is_no_call() -> None:
    source = (
        "import google.adk\n"
        "from app.models import Claude\n"
        "Claude(model='claude-sonnet-4-6', temperature=0.9)\n"
    )
    assert sites(source) == []


@pytest.mark.parametrize(
    ("call", "claude"),
    [
        ("LitellmModel(model='anthropic/claude-sonnet-4-6')", True),
        ("LitellmModel('anthropic/claude-sonnet-4-6', api_key=key)", True),
        ("LitellmModel(model='openai/gpt-4o-mini')", False),
        ("LitellmModel(model=name)", False),
    ],
)
def test_an_openai_agents_litellm_model_is_a_claude_call_only_with_a_claude_model(
    call: str, claude: bool
) -> None:
    found = sites(f"from agents.extensions.models.litellm_model import LitellmModel\n{call}\n")
    if not claude:
        assert found == []
        return
    (site,) = found
    assert site.target.key == "openai-agents:LitellmModel"
    assert value(site, "model") == "anthropic/claude-sonnet-4-6"


@pytest.mark.xfail(
    strict=True,
    reason="an OpenAI Agents agent's ModelSettings are not read as its LitellmModel's request",
)
def test_an_openai_agents_agents_model_settings_reach_its_claude_model() -> None:
    # `LitellmModel` sends `model_settings.temperature` with its Claude model (litellm_model.py,
    # `_fetch_response`); the settings are the agent's, not the model's.
    found = sites(
        "from agents import Agent, ModelSettings\n"
        "from agents.extensions.models.litellm_model import LitellmModel\n"
        "Agent(name='a', model=LitellmModel('anthropic/claude-sonnet-4-6'),"
        " model_settings=ModelSettings(temperature=0.9))\n"
    )
    assert [value(site, "temperature") for site in found if site.param("temperature")] == [0.9]


def test_semantic_kernel_settings_are_the_requests_keywords() -> None:
    site = only(
        "from semantic_kernel.connectors.ai.anthropic import AnthropicChatPromptExecutionSettings\n"
        "AnthropicChatPromptExecutionSettings(ai_model_id='claude-sonnet-4-6', temperature=0.5,"
        " max_tokens=300, stop_sequences=['END'])\n"
    )
    assert site.target.key == "semantic-kernel:AnthropicChatPromptExecutionSettings"
    assert value(site, "model") == "claude-sonnet-4-6"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)
    assert value(site, "stop_sequences") == ["END"]
    assert call_streams(site) is None


def test_semantic_kernel_openai_settings_are_not_a_claude_call() -> None:
    source = (
        "from semantic_kernel.connectors.ai.open_ai import OpenAIChatPromptExecutionSettings\n"
        "OpenAIChatPromptExecutionSettings(ai_model_id='claude-sonnet-4-6', temperature=0.9)\n"
    )
    assert sites(source) == []


def test_a_wrapper_passing_its_model_to_adk_litellm_is_read_at_its_callers(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        "from google.adk.models.lite_llm import LiteLlm\n"
        "def model(name, temperature=0.0):\n"
        "    return LiteLlm(model=name, temperature=temperature)\n",
        "from app.models import model\n"
        "a = model('anthropic/claude-sonnet-4-6', temperature=0.9)\n"
        "b = model('openai/gpt-4o', temperature=0.9)\n"
        "c = model('anthropic/claude-3-opus-20240229')\n",
    )
    assert found == {(2, "CM101"), (4, "CM302")}


def test_a_wrapper_passing_its_model_to_openai_agents_is_read_at_its_callers(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        "from agents.extensions.models.litellm_model import LitellmModel\n"
        "def model(name):\n"
        "    return LitellmModel(model=name)\n",
        "from app.models import model\n"
        "a = model('anthropic/claude-3-opus-20240229')\n"
        "b = model('openai/gpt-4o')\n",
    )
    assert found == {(2, "CM302")}


def test_langchain_legacy_bedrock_reads_model_kwargs_and_is_text_completions() -> None:
    site = only(
        "from langchain_community.llms import Bedrock\n"
        "Bedrock(model_id='anthropic.claude-v2',"
        " model_kwargs={'temperature': 0.5, 'max_tokens_to_sample': 300})\n"
    )
    assert site.target.key == "langchain:Bedrock"
    assert site.legacy
    assert value(site, "model") == "anthropic.claude-v2"
    assert (value(site, "temperature"), value(site, "max_tokens")) == (0.5, 300)


def test_langchain_legacy_bedrock_with_another_vendors_model_is_not_a_claude_call() -> None:
    source = (
        "from langchain.llms import Bedrock\n"
        "Bedrock(model_id='amazon.titan-text-express-v1', model_kwargs={'temperature': 0.9})\n"
    )
    assert sites(source) == []


def test_a_wrapper_across_modules_around_agno_and_crewai_is_followed(tmp_path: Path) -> None:
    found = wrapper_findings(
        tmp_path,
        "from agno.models.anthropic import Claude\n"
        "from crewai import LLM\n"
        "def claude(model_id, temperature=0.0):\n"
        "    return Claude(id=model_id, temperature=temperature)\n"
        "def crew(model, temperature=0.0):\n"
        "    return LLM(model=model, temperature=temperature, stream=True)\n",
        "from app.models import claude, crew\n"
        "a = claude('claude-sonnet-4-6', temperature=0.9)\n"
        "b = crew('anthropic/claude-sonnet-4-6', temperature=0.9)\n"
        "c = crew('openai/gpt-4o', temperature=0.9)\n"
        "d = claude('claude-3-opus-20240229')\n",
    )
    assert found == {(2, "CM101"), (3, "CM101"), (5, "CM302")}


def test_sampling_rejection_follows_what_the_new_families_send(tmp_path: Path) -> None:
    source = (
        "from agno.models.anthropic import Claude\n"
        "from crewai import LLM\n"
        "from langchain.llms import Bedrock\n"
        "Claude(id='claude-sonnet-4-6', temperature=0.1)\n"
        "LLM(model='anthropic/claude-sonnet-4-6', temperature=0.1, stream=True)\n"
        "Bedrock(model_id='anthropic.claude-v2', model_kwargs={'temperature': 0.1})\n"
        "Bedrock(model_id='anthropic.claude-v2',"
        " model_kwargs={'temperature': 0.1, 'anthropic_version': 'bedrock-2023-05-31'})\n"
    )
    write_tree(
        tmp_path,
        {
            "app.py": source,
            "claude-migrate.toml": 'select = ["CM107"]\n[api-version]\nversion = "2026-10-21"\n',
        },
    )
    report = Cli(tmp_path).json("check", "app.py")
    found = {(d["line"], d["code"]) for d in report["diagnostics"]}
    # The legacy Bedrock LLM sends a Text Completions body, which carries no API version: the
    # policy's api-version does not reach it (CM301 moves it to a Messages body).
    assert found == {(4, "CM107"), (5, "CM107")}


def test_the_triage_keeps_the_new_classes_only_with_their_library() -> None:
    from claude_migrate.checks.base import call_sites
    from claude_migrate.project.triage import has_candidate, parse_for_triage

    wanted = call_sites()
    for text, kept in (
        ("from agno.models.anthropic import Claude\nm = Claude(id='claude-sonnet-4-6')\n", True),
        ("from crewai import LLM\nm = LLM(model='anthropic/claude-sonnet-4-6')\n", True),
        ("from mylib import Claude\nm = Claude(id='claude-sonnet-4-6')\n", False),
        ("from mylib import LLM\nm = LLM(model='anthropic/claude-sonnet-4-6')\n", False),
    ):
        tree = parse_for_triage(text)
        assert tree is not None
        assert has_candidate(tree, text, wanted) is kept, text


def test_a_wrapper_passing_model_kwargs_or_a_positional_model_is_followed(tmp_path: Path) -> None:
    source = (
        "from langchain_community.llms import Bedrock\n"
        "from crewai import LLM\n"
        "def make(temp):\n"
        "    return Bedrock(model_id='anthropic.claude-v2', model_kwargs={'temperature': temp})\n"
        "def crew(model, temp):\n"
        "    return LLM(model, temperature=temp, stream=True)\n"
        "make(0.9)\n"
        "crew('anthropic/claude-sonnet-4-6', 0.9)\n"
        "crew('gpt-4o', 0.9)\n"
    )
    write_tree(tmp_path, {"app.py": source, "claude-migrate.toml": "select = ['CM101']\n"})
    report = Cli(tmp_path).json("check", "app.py")
    assert {(d["line"], d["code"]) for d in report["diagnostics"]} == {(7, "CM101"), (8, "CM101")}


@pytest.mark.parametrize(
    "qualname",
    [
        "anthropic.Anthropic",
        "anthropic.AsyncAnthropicBedrock",
        "anthropic.lib.vertex.AnthropicVertex",
        "anthropic.NOT_GIVEN",
        "boto3.client",
        "langchain_aws.ChatBedrockConverse",
        "langchain_aws.chat_models.bedrock.ChatBedrock",
        "langchain_aws.BedrockLLM",
        "langchain_anthropic.ChatAnthropic",
        "langchain.chat_models.init_chat_model",
        "llama_index.llms.anthropic.Anthropic",
        "llama_index.llms.bedrock_converse.BedrockConverse",
        "pydantic_ai.Agent",
        "pydantic_ai.models.anthropic.AnthropicModel",
        "dspy.LM",
        "instructor.from_anthropic",
        "openai.OpenAI",
        "litellm.completion",
        "litellm.Router",
        "requests.post",
        "httpx.AsyncClient",
        "agno.models.anthropic.Claude",
        "crewai.LLM",
        "aisuite.Client",
        "google.adk.models.lite_llm.LiteLlm",
        "google.adk.models.anthropic_llm.Claude",
        "agents.extensions.models.litellm_model.LitellmModel",
        "semantic_kernel.connectors.ai.anthropic.AnthropicChatCompletion",
        "semantic_kernel.connectors.ai.anthropic.AnthropicChatPromptExecutionSettings",
    ],
)
def test_the_registry_describes_every_familys_import_paths(qualname: str) -> None:
    # These keep their meaning where the project defines them (a library's own repository).
    assert described(qualname)


@pytest.mark.parametrize(
    "qualname",
    [
        "langchain_aws.utils.enforce_stop_tokens",
        "langchain_aws.chat_models.bedrock_converse.ChatBedrockConverse.invoke",
        "anthropic.resources.messages.Messages",
        "anthropic._base_client.SyncAPIClient",
        "anthropic.AnthropicError",
        "pydantic_ai.models.test.TestModel",
        "app.llm.ChatBedrock",
    ],
)
def test_a_librarys_other_names_are_not_described(qualname: str) -> None:
    assert not described(qualname)


@pytest.mark.parametrize(
    ("client", "model", "another"),
    [
        ("anthropic.Anthropic", "llama3.2", True),
        ("anthropic.AsyncAnthropic", "qwen2.5-coder", True),
        ("anthropic.Client", "deepseek-chat", True),
        ("anthropic.Anthropic", "MiniMax-M2", True),
        ("anthropic.Anthropic", "claude-sonnet-4-5", False),
        # A family Ollama's library serves by its bare name (https://ollama.com/library).
        ("anthropic.Anthropic", "mistral", True),
        ("anthropic.Anthropic", "gemma:latest", True),
        ("anthropic.AsyncAnthropic", "Phi", True),
        ("anthropic.Anthropic", "m", False),  # a placeholder, not a model id
        ("anthropic.Anthropic", "local", False),
        ("anthropic.Anthropic", "MODEL", False),
        ("anthropic.Anthropic", "{model}", False),
        # A platform client's model may be an ARN or a deployment name standing for Claude.
        (
            "anthropic.AnthropicBedrock",
            "arn:aws:bedrock:us-east-1:1:application-inference-profile/a1",
            False,
        ),
        ("anthropic.AnthropicFoundry", "prod-deployment-2", False),
        ("openai.OpenAI", "gpt-4o", False),
    ],
)
def test_a_first_party_client_sent_another_vendors_model_id_is_not_claudes(
    client: str, model: str, another: bool
) -> None:
    assert sent_another_model(client, model) is another


def test_a_first_party_client_sent_another_vendors_model_makes_no_site() -> None:
    found = sites(
        "import os\n"
        "import anthropic\n"
        "c = anthropic.Anthropic(base_url=os.environ['ANTHROPIC_BASE_URL'])\n"
        "c.messages.create(model='llama3.2', max_tokens=9000, messages=[])\n"
        "c.messages.create(model='claude-haiku-4-5', max_tokens=9000, messages=[])\n"
        "c.messages.create(model='m', max_tokens=9000, messages=[])\n"
    )
    assert [site.record.node.args[0].value.value for site in found] == [
        "'claude-haiku-4-5'",
        "'m'",
    ]


@pytest.mark.parametrize(
    "base_url",
    [
        "http://localhost:11434",
        "http://ollama:11434/",
        "https://api.deepseek.com/anthropic",
        "https://api.minimax.io/anthropic",
    ],
)
def test_a_client_on_a_server_of_other_models_is_claudes_only_with_a_claude_model(
    base_url: str,
) -> None:
    found = sites(
        "import os\n"
        "import anthropic\n"
        f"c = anthropic.Anthropic(base_url='{base_url}')\n"
        "c.messages.create(model='claude-haiku-4-5', max_tokens=9000, messages=[])\n"
        "c.messages.create(model='m', max_tokens=9000, messages=[])\n"
        "c.messages.create(model=os.environ['MODEL'], max_tokens=9000, messages=[])\n"
        "def ask(model):\n"
        "    return c.messages.create(model=model, max_tokens=9000, messages=[])\n"
    )
    assert [site.record.node.args[0].value.value for site in found] == [
        "'claude-haiku-4-5'",
        "model",
    ]


@pytest.mark.parametrize(
    "base_url",
    ["http://localhost:4000", "https://gateway.example.com/anthropic", "https://notollama.com"],
)
def test_a_client_on_a_proxy_keeps_its_calls_claudes(base_url: str) -> None:
    found = sites(
        "import os\n"
        "import anthropic\n"
        f"c = anthropic.Anthropic(base_url='{base_url}')\n"
        "c.messages.create(model=os.environ['MODEL'], max_tokens=9000, messages=[])\n"
    )
    assert len(found) == 1


def test_a_local_wrappers_declared_model_keeps_its_callers_values_off_claude(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        "import anthropic\n"
        "local = anthropic.Anthropic(base_url='http://localhost:11434')\n"
        "def ask(q, model='qwen2.5:7b', temperature=0.0):\n"
        "    return local.messages.stream(model=model, temperature=temperature,\n"
        "                                 max_tokens=100, messages=[])\n",
        "from app.models import ask\n"
        "ask('hi', temperature=0.9)\n"
        "ask('hi', model='claude-haiku-4-5', temperature=0.9)\n"
        "ask('hi', **{'temperature': 0.9})\n",
    )
    assert found == {(3, "CM101")}


def test_an_object_made_with_a_local_model_keeps_its_callers_values_off_claude(
    tmp_path: Path,
) -> None:
    found = wrapper_findings(
        tmp_path,
        "import anthropic\n"
        "local = anthropic.Anthropic(base_url='http://localhost:11434')\n"
        "class Coder:\n"
        "    def __init__(self, model='qwen2.5-coder'):\n"
        "        self.model = model\n"
        "    def run(self, q, temperature=0.0):\n"
        "        return local.messages.stream(model=self.model, temperature=temperature,\n"
        "                                     max_tokens=100, messages=[])\n",
        "from app.models import Coder\nCoder().run('hi', temperature=0.9)\n",
    )
    assert found == set()
