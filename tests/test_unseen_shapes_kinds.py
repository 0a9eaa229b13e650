"""Shapes met in real code of varied kinds (scripts, pipelines, services), pinned in small trees.

The fixture projects `fixtures/project-shared-options/`, `project-executors/`,
`project-injected/` and `project-branch-attributes/` run through the CLI in `test_project.py`;
these trees pin the edges of the same behaviours and the shapes still missed.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

CLAUDE_BACKEND = (
    "from langchain_anthropic import ChatAnthropic\n\n\n"
    "def get_llm(max_tokens=6000):\n"
    '    return ChatAnthropic(model="claude-sonnet-4-6", max_tokens=max_tokens, streaming=True)\n'
)
OTHER_BACKEND = (
    "from langchain_openai import ChatOpenAI\n\n\n"
    "def get_llm(max_tokens=6000):\n"
    '    return ChatOpenAI(model="gpt-4o", max_tokens=max_tokens)\n'
)


def _found(root: Path, *select: str) -> set[tuple[str, int, str]]:
    data = Cli(root).json("check", "--no-cache", "--select", ",".join(select), ".")
    assert not data["errors"], data["errors"]
    return {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}


def test_options_another_module_changes_are_not_read_from_its_literal(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "settings.py": (
                'PARAMS = {"max_tokens": 4000, "temperature": 0.9}\n\n\n'
                "def configure(temperature):\n"
                "    PARAMS.update(temperature=temperature)\n"
            ),
            "app.py": (
                "import anthropic\n\nimport settings\n\nclient = anthropic.Anthropic()\n\n\n"
                "def ask(text):\n"
                "    return client.messages.create(\n"
                '        model="claude-sonnet-4-6", messages=[], stream=True, **settings.PARAMS\n'
                "    )\n"
            ),
        },
    )
    assert _found(root, "CM101", "CM102") == set()


def test_options_spread_into_a_call_keep_other_keys_unknown(tmp_path: Path) -> None:
    # The dict holds no `stream`: what else it may pass is not claimed, so CM104 stays quiet,
    # while the entries it proves are read.
    root = write_tree(
        tmp_path,
        {
            "settings.py": 'PARAMS = {"max_tokens": 4000}\n',
            "app.py": (
                "import anthropic\n\nfrom settings import PARAMS\n\n"
                "client = anthropic.Anthropic()\n\n\n"
                "def ask(text):\n"
                "    return client.messages.create(\n"
                '        model="claude-sonnet-4-6", messages=[], **PARAMS\n'
                "    )\n"
            ),
        },
    )
    assert _found(root, "CM102", "CM104") == {("app.py", 10, "CM102")}


def test_a_bytes_call_shadowed_by_the_module_is_not_an_encoded_body(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import json\n\nimport boto3\n\n"
                "runtime = boto3.client('bedrock-runtime')\n\n\n"
                "def bytes(text, encoding):\n"
                "    return b'{}'\n\n\n"
                "def ask(text):\n"
                "    return runtime.invoke_model_with_response_stream(\n"
                '        modelId="anthropic.claude-sonnet-4-6",\n'
                '        body=bytes(json.dumps({"prompt": text}), "utf-8"),\n'
                "    )\n"
            ),
        },
    )
    assert _found(root, "CM301") == set()


def test_a_submit_method_of_the_project_is_an_ordinary_call(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "llm.py": (
                "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
                "def ask(prompt, max_tokens=256):\n"
                "    with client.messages.stream(\n"
                '        model="claude-sonnet-4-6", max_tokens=max_tokens, messages=[]\n'
                "    ) as stream:\n"
                "        return stream.get_final_message()\n"
            ),
            "jobs.py": (
                "from llm import ask\n\n\n"
                "class Jobs:\n"
                "    def __init__(self):\n"
                "        self.waiting = []\n\n"
                "    def submit(self, job, *args):\n"
                "        self.waiting.append((job, args))\n\n\n"
                "jobs = Jobs()\n"
                'jobs.submit(ask, "later", 9000)\n'
            ),
        },
    )
    assert _found(root, "CM102") == set()


def test_a_name_imported_in_each_branch_is_any_of_its_imports(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "svc/__init__.py": "",
            "svc/claude.py": CLAUDE_BACKEND,
            "svc/gpt.py": OTHER_BACKEND,
            "svc/local.py": OTHER_BACKEND,
            "svc/config.py": (
                "import os\n\n"
                'PROVIDER = os.getenv("PROVIDER", "openai")\n'
                'if PROVIDER == "openai":\n'
                "    from .gpt import get_llm\n"
                'elif PROVIDER == "anthropic":\n'
                "    from .claude import get_llm\n"
                "else:\n"
                "    from .local import get_llm\n"
            ),
            "svc/agent.py": "from svc.config import get_llm\n\nllm = get_llm()\n",
        },
    )
    # The agent relies on the default when the Claude backend is the one imported.
    assert ("svc/claude.py", 4, "CM102") in _found(root, "CM102")


def test_a_bedrock_body_keeps_the_version_the_shared_options_give(tmp_path: Path) -> None:
    # The options name the body's own `anthropic_version`, which takes temperature: CM107 does
    # not judge the body by the policy's API version, and the other entries are still read.
    root = write_tree(
        tmp_path,
        {
            "claude-migrate.toml": 'extend = "api-2026-10-21"\n',
            "config.py": (
                "PARAMS = {\n"
                '    "anthropic_version": "bedrock-2023-05-31",\n'
                '    "max_tokens": 4096,\n'
                '    "temperature": 1.0,\n'
                "}\n"
            ),
            "llm.py": (
                "import json\n\nimport boto3\n\nimport config\n\n"
                "runtime = boto3.client('bedrock-runtime')\n\n\n"
                "def ask(text):\n"
                "    body = {'messages': [{'role': 'user', 'content': text}], **config.PARAMS}\n"
                "    return runtime.invoke_model_with_response_stream(\n"
                '        modelId="anthropic.claude-sonnet-4-6", body=json.dumps(body)\n'
                "    )\n"
            ),
        },
    )
    assert _found(root, "CM102", "CM107") == {("llm.py", 11, "CM102")}
