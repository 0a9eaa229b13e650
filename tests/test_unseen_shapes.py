"""Shapes met in real applications, pinned in small trees: what reaches Claude through them.

The fixture projects (`fixtures/project-model-tables/`, `project-bedrock-bodies/`,
`project-properties/`, `project-forwarded-stops/`, `project-dict-kwargs/`) run through the CLI
in `test_project.py`; these trees pin the edges of the same behaviours.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import FIXTURES, Cli, write_tree


def _found(root: Path, *select: str) -> set[tuple[str, int, str]]:
    args = ["check", "--no-cache"]
    if select:
        args += ["--select", ",".join(select)]
    data = Cli(root).json(*args, ".")
    assert not data["errors"], data["errors"]
    return {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}


def _errors(root: Path, *select: str) -> set[tuple[str, int, str]]:
    data = Cli(root).json("check", "--no-cache", "--select", ",".join(select), ".")
    return {
        (d["path"], d["line"], d["code"]) for d in data["diagnostics"] if d["severity"] == "error"
    }


def test_a_table_read_by_a_known_key_reports_that_entry_only(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import anthropic\n\n"
                'MODELS = {"old": "claude-3-opus-20240229", "new": "claude-sonnet-4-6"}\n'
                "client = anthropic.Anthropic()\n\n\n"
                "def ask(name):\n"
                "    return client.messages.create(\n"
                "        model=MODELS[name], max_tokens=100, messages=[], stream=True\n"
                "    )\n\n\n"
                "def ask_new():\n"
                "    return client.messages.create(\n"
                '        model=MODELS["new"], max_tokens=100, messages=[], stream=True\n'
                "    )\n"
            )
        },
    )
    # The unknown key may read the retired entry; the known one never does.
    assert _errors(root, "CM302") == {("app.py", 3, "CM302")}


def test_a_table_of_other_vendors_models_on_a_litellm_call_is_not_claude(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import litellm\n\n"
                'MODELS = {"fast": "gpt-4o-mini", "large": "gpt-4o"}\n\n\n'
                "def ask(size, prompt):\n"
                "    return litellm.completion(\n"
                "        model=MODELS[size], messages=[{'role': 'user', 'content': prompt}]\n"
                "    )\n"
            )
        },
    )
    assert _found(root, "CM104", "CM302") == set()


def test_a_helper_returning_an_unknown_value_reports_only_its_proven_returns(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import os\n\nimport anthropic\n\n\n"
                "def pick(fast):\n"
                "    if fast:\n"
                '        return os.environ["FAST_MODEL"]\n'
                '    return "claude-3-opus-20240229"\n\n\n'
                "def ask(fast):\n"
                "    return anthropic.Anthropic().messages.create(\n"
                "        model=pick(fast), max_tokens=100, messages=[], stream=True\n"
                "    )\n"
            )
        },
    )
    assert _errors(root, "CM302") == {("app.py", 9, "CM302")}


def test_bedrock_invoke_model_with_an_unread_body_and_no_model_proven_is_not_claude(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import boto3\n\n"
                'runtime = boto3.client("bedrock-runtime")\n\n\n'
                "def run(model_id, request):\n"
                "    return runtime.invoke_model(modelId=model_id, body=request.to_json())\n"
            )
        },
    )
    assert _found(root, "CM104", "CM302") == set()


def test_a_property_over_another_vendors_client_is_not_claude(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "app.py": (
                "import openai\n\n\n"
                "class Chat:\n"
                "    def __init__(self):\n"
                "        self._client = None\n\n"
                "    @property\n"
                "    def client(self):\n"
                "        if self._client is None:\n"
                "            self._client = openai.OpenAI()\n"
                "        return self._client\n\n"
                "    def ask(self, q):\n"
                "        return self.client.chat.completions.create(\n"
                '            model="gpt-4o", messages=[{"role": "user", "content": q}]\n'
                "        )\n"
            )
        },
    )
    assert _found(root, "CM104", "CM301") == set()


def test_the_model_of_a_pre_0_3_completion_call_is_the_calls(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path,
        {
            "settings.py": 'MODEL = "claude-3-5-sonnet-20240620"\n',
            "llm.py": (
                "from anthropic import Anthropic\n\n"
                "from settings import MODEL\n\n\n"
                "def complete(prompt):\n"
                "    return Anthropic().completion(\n"
                "        prompt=prompt, model=MODEL, max_tokens_to_sample=300\n"
                "    ).completion\n"
            ),
        },
    )
    assert ("settings.py", 1, "CM302") in _errors(root, "CM302")


def test_a_base_class_default_outside_the_given_paths_is_reported_at_the_call(
    tmp_path: Path,
) -> None:
    # `check app/agents/claude.py`: the base class's module is read, not checked; the defaults
    # the call sends are reported at the call, with the default as related place, and no fix
    # writes outside the given path.
    root = tmp_path / "repo"
    shutil.copytree(
        FIXTURES / "project-given-subclass", root, ignore=shutil.ignore_patterns("*.fixed.py")
    )
    before = (root / "app/agents/base.py").read_bytes()
    data = Cli(root).json("check", "--no-cache", "app/agents/claude.py")
    assert not data["errors"], data["errors"]
    found = {(d["path"], d["line"], d["code"]): d for d in data["diagnostics"]}
    assert set(found) == {
        ("app/agents/claude.py", 10, "CM101"),
        ("app/agents/claude.py", 10, "CM302"),
    }
    for finding in found.values():
        assert finding["fix"] is None
        assert [(r["path"], r["line"]) for r in finding["related"]] == [("app/agents/base.py", 5)]
    Cli(root)("fix", "--unsafe-fixes", "--no-cache", "app/agents/claude.py")
    assert (root / "app/agents/base.py").read_bytes() == before


# A LiteLLM wrapper keeping the model its constructor is given on the instance.
PROVIDER = (
    "import litellm\n\n\n"
    "class Provider:\n"
    '    def __init__(self, model="gpt-4o-mini"):\n'
    "        self.model = model\n\n"
)


def _instance_request_tree(tmp_path: Path, caller: str) -> Path:
    """`PROVIDER` spreading a request dict, and a caller giving the constructor `caller`."""
    return write_tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/providers.py": (
                PROVIDER + "    def complete(self, messages):\n"
                '        request = {"model": self.model, "messages": messages}\n'
                "        return litellm.completion(**request)\n"
            ),
            "app/judge.py": (
                "from app.providers import Provider\n\n\n"
                "def judge(text):\n"
                f"    provider = Provider({caller})\n"
                '    return provider.complete([{"role": "user", "content": text}])\n'
            ),
        },
    )


def test_a_caller_s_model_reaches_litellm_through_an_instance_s_request_dict(
    tmp_path: Path,
) -> None:
    # As `completion(model=self.model, ...)` is read: per caller of the class.
    root = _instance_request_tree(tmp_path, 'model="claude-3-haiku-20240307"')
    assert _errors(root, "CM302") == {("app/judge.py", 5, "CM302")}


@pytest.mark.parametrize("caller", ['model="gpt-4o"', "", "model=input()"])
def test_an_instance_s_request_dict_to_litellm_with_another_model_is_not_claude_s(
    tmp_path: Path, caller: str
) -> None:
    root = _instance_request_tree(tmp_path, caller)
    data = Cli(root).json("check", "--no-cache", "--select", "CM101,CM102,CM104,CM302", ".")
    assert data["diagnostics"] == [] and data["errors"] == []


@pytest.mark.parametrize(
    "body",
    [
        "        return litellm.completion(model=self.model, messages=m, max_tokens=max_tokens)\n",
        '        request = {"model": self.model, "messages": m, "max_tokens": max_tokens}\n'
        "        return litellm.completion(**request)\n",
    ],
    ids=["keywords", "request-dict"],
)
def test_a_method_s_parameter_is_not_read_for_an_instance_made_with_another_model(
    tmp_path: Path, body: str
) -> None:
    # The instance's model decides whose request the method's call is; no call of the method
    # tells it, so what a caller gives `max_tokens` is not read as Claude's.
    root = write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[max-tokens]\nmax = 1024\n",
            "app/__init__.py": "",
            "app/providers.py": PROVIDER + "    def complete(self, m, max_tokens=1024):\n" + body,
            "app/judge.py": (
                "from app.providers import Provider\n\n\n"
                "def other(text):\n"
                '    return Provider(model="gpt-4o").complete(text, max_tokens=9000)\n'
            ),
        },
    )
    data = Cli(root).json("check", "--no-cache", ".")
    assert data["diagnostics"] == [] and data["errors"] == []


def test_a_value_the_constructor_is_given_with_the_model_is_read_per_construction(
    tmp_path: Path,
) -> None:
    # Model and temperature come from one call of the constructor: each call is read with the
    # model it gives.
    root = write_tree(
        tmp_path,
        {
            "claude-migrate.toml": "[temperature]\nmax = 0.5\n",
            "app/__init__.py": "",
            "app/providers.py": PROVIDER.replace(
                'model="gpt-4o-mini"):', 'model="gpt-4o-mini", temperature=0.2):'
            ).replace(
                "self.model = model\n",
                "self.model = model\n        self.temperature = temperature\n",
            )
            + "    def complete(self, m):\n"
            "        return litellm.completion(\n"
            "            model=self.model, messages=m, temperature=self.temperature\n"
            "        )\n",
            "app/judge.py": (
                "from app.providers import Provider\n\n\n"
                "def other(text):\n"
                '    return Provider(model="gpt-4o", temperature=0.9).complete(text)\n\n\n'
                "def mine(text):\n"
                '    return Provider(model="claude-sonnet-4-6", temperature=0.9).complete(text)\n'
            ),
        },
    )
    data = Cli(root).json("check", "--no-cache", ".")
    assert [(d["path"], d["line"], d["code"]) for d in data["diagnostics"]] == [
        ("app/judge.py", 9, "CM101")
    ]
