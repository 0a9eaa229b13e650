"""CM107 sampling-params: when each target applies, and CM101 yielding one finding per argument."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Cli, write_tree

from claude_migrate.core.job import Job, Options
from claude_migrate.core.settings import FileSettings
from claude_migrate.engine.runner import process
from claude_migrate.policy.config import PolicyLoader

MIXED = """\
import json

import boto3
import requests
from anthropic import Anthropic
from langchain_anthropic import ChatAnthropic

client = Anthropic()
runtime = boto3.client("bedrock-runtime")


def sdk(q):
    return client.messages.create(model="claude-sonnet-4-6", max_tokens=9, temperature=0.9)


def chain(q):
    return ChatAnthropic(model="claude-sonnet-4-6", temperature=0.9)


def bedrock(q):
    body = {"anthropic_version": "bedrock-2023-05-31", "max_tokens": 9, "temperature": 0.9}
    return runtime.invoke_model(modelId="anthropic.claude-sonnet-4-6", body=json.dumps(body))


def http(q):
    return requests.post(
        "https://api.anthropic.com/v1/messages",
        json={"model": "claude-sonnet-4-6", "max_tokens": 9, "temperature": 0.9, "messages": []},
    )
"""
SDK_LINE, CHAIN_LINE, BEDROCK_LINE, HTTP_LINE = 13, 17, 21, 28


def findings(root: Path, *args: str) -> set[tuple[int, str]]:
    data = Cli(root).json("check", "--select", "CM101,CM107", *args)
    assert data["errors"] == []
    return {(d["line"], d["code"]) for d in data["diagnostics"]}


def test_without_a_new_target_cm101_reports_and_cm107_is_silent(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": MIXED})
    assert findings(tmp_path) == {
        (SDK_LINE, "CM101"),
        (CHAIN_LINE, "CM101"),
        (BEDROCK_LINE, "CM101"),
        (HTTP_LINE, "CM101"),
    }


def test_policy_sdk_floor_moves_sdk_and_chatanthropic_calls_to_cm107_and_the_rest_to_cm101(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {"app.py": MIXED, "claude-migrate.toml": '[sdk-pins.minimums]\nanthropic = "1.0.0"\n'},
    )
    assert findings(tmp_path) == {
        (SDK_LINE, "CM107"),
        (CHAIN_LINE, "CM107"),
        (BEDROCK_LINE, "CM101"),
        (HTTP_LINE, "CM101"),
    }


@pytest.mark.parametrize(
    ("files", "reported"),
    [
        ({"requirements.txt": "anthropic>=1.2\n"}, True),
        ({"requirements.txt": "anthropic~=2.1\nboto3\n"}, True),
        ({"requirements.txt": "anthropic>=0.40\n"}, False),
        ({"requirements.txt": "anthropic\n"}, False),
        ({"pyproject.toml": '[project]\nname = "x"\ndependencies = ["anthropic==1.3.0"]\n'}, True),
        (
            {"poetry.lock": '[[package]]\nname = "anthropic"\nversion = "2.0.1"\n'},
            True,
        ),
        # The nearest folder whose files name anthropic decides: the service pins an old SDK.
        (
            {"requirements.txt": "anthropic>=1.2\n", "svc/requirements.txt": "anthropic==0.39.0\n"},
            False,
        ),
        ({"requirements.txt": "anthropic==0.39.0\n", "svc/requirements.txt": "requests\n"}, False),
        ({"requirements.txt": "anthropic>=1.2\n", "svc/requirements.txt": "requests\n"}, True),
    ],
)
def test_the_projects_dependency_files_decide_for_sdk_calls(
    tmp_path: Path, files: dict[str, str], reported: bool
) -> None:
    write_tree(tmp_path, {"svc/app.py": MIXED, **files})
    got = findings(tmp_path)
    assert ((SDK_LINE, "CM107") in got) is reported
    assert ((SDK_LINE, "CM101") in got) is not reported
    # ChatAnthropic sends through the SDK's messages.create: the same pins decide.
    assert ((CHAIN_LINE, "CM107") in got) is reported
    assert (HTTP_LINE, "CM101") in got  # raw HTTP does not go through the SDK


def test_the_message_names_the_file_that_pins_the_sdk(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": MIXED, "requirements.txt": "anthropic>=1.2\n"})
    data = Cli(tmp_path).json("check", "--select", "CM107")
    (only,) = [d for d in data["diagnostics"] if d["line"] == SDK_LINE]
    assert only["message"] == (
        "temperature cannot be sent from this call: requirements.txt (anthropic >=1.2) requires "
        "anthropic 1.0.0 or later, which removed the temperature= argument; remove it"
    )


def _settings_with_api_version(root: Path, version: str) -> FileSettings:
    base = PolicyLoader(None, cwd=root).default.settings_for(root / "app.py", ["CM101", "CM107"])
    tables = tuple(t for t in base.tables if t[0] != "api-version")
    return FileSettings(base.codes, (*tables, ("api-version", (("version", version),))))


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (
            "2026-10-21",
            {
                (SDK_LINE, "CM107"),
                (CHAIN_LINE, "CM107"),
                (BEDROCK_LINE, "CM101"),
                (HTTP_LINE, "CM107"),
            },
        ),
        (
            "2027-01-01",
            {
                (SDK_LINE, "CM107"),
                (CHAIN_LINE, "CM107"),
                (BEDROCK_LINE, "CM101"),
                (HTTP_LINE, "CM107"),
            },
        ),
        (
            "2023-06-01",
            {
                (SDK_LINE, "CM101"),
                (CHAIN_LINE, "CM101"),
                (BEDROCK_LINE, "CM101"),
                (HTTP_LINE, "CM101"),
            },
        ),
    ],
)
def test_the_policys_api_version_decides_for_sdk_and_raw_http_calls(
    tmp_path: Path, version: str, expected: set[tuple[int, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The rules read `[api-version] version` (CM105's table) from the file's settings.
    write_tree(tmp_path, {"app.py": MIXED})
    # The display path is relative to the working folder, as the command line makes it (the
    # SDK-pin fact looks for dependency files from there, not from this repository's own).
    monkeypatch.chdir(tmp_path)
    settings = _settings_with_api_version(tmp_path, version)
    job = Job(str(tmp_path / "app.py"), "app.py", "python", settings)
    result = process(job, Options())
    assert result.errors == []
    assert {(d.line, d.code) for d in result.diagnostics} == expected


def test_an_api_version_policy_file_turns_cm107_on_for_sdk_langchain_and_raw_http(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {"app.py": MIXED, "claude-migrate.toml": '[api-version]\nversion = "2026-10-21"\n'},
    )
    assert findings(tmp_path) == {
        (SDK_LINE, "CM107"),
        (CHAIN_LINE, "CM107"),
        (BEDROCK_LINE, "CM101"),
        (HTTP_LINE, "CM107"),
    }


def test_the_preset_turns_cm101_off_and_raises_the_sdk_floor(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": MIXED, "claude-migrate.toml": 'extend = "api-2026-10-21"\n'})
    settings = (
        PolicyLoader(None, cwd=tmp_path)
        .for_path(tmp_path / "app.py")
        .settings_for(tmp_path / "app.py")
    )
    assert "CM107" in settings.codes
    assert "CM101" not in settings.codes
    assert dict(settings.table("sdk-pins")["minimums"])["anthropic"] == "2.0.0"
    assert settings.table("api-version")["version"] == "2026-10-21"
    data = Cli(tmp_path).json("check", "--select", "CM101,CM107")
    assert {(d["line"], d["code"]) for d in data["diagnostics"]} == {
        (SDK_LINE, "CM107"),
        (CHAIN_LINE, "CM107"),
        (HTTP_LINE, "CM107"),
    }


def test_fix_removes_the_argument_and_settles(tmp_path: Path) -> None:
    write_tree(tmp_path, {"app.py": MIXED, "requirements.txt": "anthropic>=2\n"})
    cli = Cli(tmp_path)
    assert cli("fix", "--unsafe-fixes", "--select", "CM107").exit_code == 0
    text = (tmp_path / "app.py").read_text(encoding="utf-8")
    assert 'model="claude-sonnet-4-6", max_tokens=9)' in text
    assert text.count("temperature") == 2  # Bedrock and HTTP keep theirs; ChatAnthropic's went
    assert cli("check", "--select", "CM107").exit_code == 0


def test_a_setup_py_that_requires_sdk_1_0_moves_sdk_calls_to_cm107(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "svc/app.py": MIXED,
            "setup.py": (
                "from setuptools import setup\nsetup(install_requires=['anthropic>=1.2'])\n"
            ),
        },
    )
    assert (SDK_LINE, "CM107") in findings(tmp_path)


@pytest.mark.parametrize(
    "setup",
    [
        # a floor below 1.0, a requirement computed at run time, a call not at module level
        "from setuptools import setup\nsetup(install_requires=['anthropic>=0.40'])\n",
        "from setuptools import setup\n"
        "setup(install_requires=open('requirements.txt').read().split())\n",
        "from setuptools import setup\n\ndef build():\n"
        "    setup(install_requires=['anthropic>=1.2'])\n",
    ],
)
def test_a_setup_py_that_proves_no_floor_leaves_sdk_calls_alone(tmp_path: Path, setup: str) -> None:
    write_tree(tmp_path, {"svc/app.py": MIXED, "setup.py": setup})
    assert (SDK_LINE, "CM107") not in findings(tmp_path)


def test_a_setup_py_requirement_bound_to_a_name_is_read(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "svc/app.py": MIXED,
            "setup.py": (
                "import setuptools\n\nREQUIRES = ['httpx', 'anthropic>=1.2,<3']\n\n"
                "if __name__ == '__main__':\n"
                "    setuptools.setup(name='svc', install_requires=REQUIRES)\n"
            ),
        },
    )
    assert (SDK_LINE, "CM107") in findings(tmp_path)


LEGACY_CHAIN = """\
from langchain.chat_models import ChatAnthropic

llm = ChatAnthropic(model="claude-2", temperature=0)
"""


def test_a_legacy_langchain_class_reports_both_its_move_and_the_temperature(
    tmp_path: Path,
) -> None:
    """CM301 moves the class to `langchain_anthropic`; its temperature is refused there too."""
    write_tree(
        tmp_path, {"app.py": LEGACY_CHAIN, "claude-migrate.toml": 'extend = "api-2026-10-21"\n'}
    )
    data = Cli(tmp_path).json("check", "--select", "CM107,CM301")
    assert {(d["line"], d["code"]) for d in data["diagnostics"]} == {(3, "CM107"), (3, "CM301")}


LEGACY_BEDROCK_BODY = """\
import json

import boto3

runtime = boto3.client("bedrock-runtime")
body = {"prompt": "\\n\\nHuman: Hi\\n\\nAssistant:", "max_tokens_to_sample": 99, "temperature": 0.4}
runtime.invoke_model(modelId="anthropic.claude-v2", body=json.dumps(body))
"""


def test_a_legacy_bedrock_body_is_not_judged_by_the_policys_api_version(tmp_path: Path) -> None:
    """A "prompt" body reaches Bedrock with no API version; CM301 moves it to a Messages body
    sent with "bedrock-2023-05-31", which takes the temperature."""
    write_tree(
        tmp_path,
        {"app.py": LEGACY_BEDROCK_BODY, "claude-migrate.toml": 'extend = "api-2026-10-21"\n'},
    )
    data = Cli(tmp_path).json("check", "--select", "CM107,CM301")
    assert {(d["line"], d["code"]) for d in data["diagnostics"]} == {(7, "CM301")}


def test_an_argument_sending_a_relied_on_default_is_reported_and_removed_at_the_call(
    tmp_path: Path,
) -> None:
    # The value is the wrapper's default, which its callers rely on; what the API refuses is
    # the argument, so the finding and the fix are the call's keyword, not the default.
    wrapper = (
        "from anthropic import Anthropic\n\n\n"
        "class Chat:\n"
        "    def __init__(self):\n"
        "        self.client = Anthropic()\n\n"
        "    def ask(self, text, temperature=0.7):\n"
        "        return self.client.messages.create(\n"
        '            model="claude-sonnet-4-6",\n'
        "            max_tokens=9,\n"
        "            temperature=temperature,\n"
        '            messages=[{"role": "user", "content": text}],\n'
        "        )\n\n\n"
        "def run():\n"
        '    return Chat().ask("hi")\n'
    )
    write_tree(tmp_path, {"app.py": wrapper, "claude-migrate.toml": 'extend = "api-2026-10-21"\n'})
    assert findings(tmp_path) == {(12, "CM107")}
    cli = Cli(tmp_path)
    assert cli("fix", "--unsafe-fixes", "--select", "CM107").exit_code == 0
    text = (tmp_path / "app.py").read_text(encoding="utf-8")
    assert "temperature=temperature" not in text
    assert cli("check", "--select", "CM107").exit_code == 0
