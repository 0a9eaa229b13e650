"""Shapes met in real code that the analysis does not prove yet: each test states the finding a
careful reviewer proves from the code, and is a strict xfail until the analysis finds it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import Cli, write_tree

BEDROCK = 'import boto3\n\nruntime = boto3.client("bedrock-runtime")\n'
HAIKU = "anthropic.claude-3-haiku-20240307-v1:0"


def _found(root: Path) -> set[tuple[str, int, str]]:
    data = Cli(root).json("check", "--no-cache", ".")
    return {(d["path"], d["line"], d["code"]) for d in data["diagnostics"]}


def test_a_bedrock_wrapper_called_with_a_claude_id_does_not_stream(tmp_path: Path) -> None:
    source = (
        BEDROCK + "\n\ndef ask(model_id, prompt):\n"
        "    return runtime.converse(modelId=model_id, messages=[])\n\n\n"
        f'ask("{HAIKU}", "hi")\n'
    )
    write_tree(tmp_path, {"app.py": source})
    assert ("app.py", 7, "CM104") in _found(tmp_path)


def test_a_loop_over_a_table_of_model_ids_reaches_claude(tmp_path: Path) -> None:
    source = (
        BEDROCK + f'MODELS = {{"haiku": "{HAIKU}", "nova": "amazon.nova-pro-v1:0"}}\n'
        "for name, model_id in MODELS.items():\n"
        "    runtime.converse(modelId=model_id, messages=[])\n"
    )
    write_tree(tmp_path, {"app.py": source})
    assert ("app.py", 6, "CM104") in _found(tmp_path)


@pytest.mark.xfail(
    strict=True, reason="a string sliced by literal bounds is not computed: the id is unknown"
)
def test_a_cross_region_id_built_by_slicing_is_claude(tmp_path: Path) -> None:
    source = (
        BEDROCK + f'US_HAIKU = "us.{HAIKU}"\n'
        'runtime.converse(modelId="global." + US_HAIKU[3:], messages=[])\n'
    )
    write_tree(tmp_path, {"app.py": source})
    assert ("app.py", 5, "CM104") in _found(tmp_path)


def test_a_model_narrowed_by_an_equality_test_is_that_model(tmp_path: Path) -> None:
    source = (
        "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
        "def ask(model, prompt):\n"
        '    if model == "claude-3-opus-20240229":\n'
        "        return client.messages.create(\n"
        "            model=model, max_tokens=100, messages=[], stream=True\n"
        "        )\n"
        "    return None\n"
    )
    write_tree(tmp_path, {"app.py": source})
    assert ("app.py", 9, "CM302") in _found(tmp_path)


def _severities_with_model_written_again(tmp_path: Path, again: str) -> set[tuple[str, str]]:
    """Check a notebook whose first cell sets MODEL_NAME, whose second reads it in a function,
    and whose third sets it `again`; return the (code, severity) of every finding."""
    cells = [
        'import anthropic\nclient = anthropic.Anthropic()\nMODEL_NAME = "claude-3-opus-20240229"\n',
        "def ask(prompt):\n"
        "    return client.messages.create(\n"
        "        model=MODEL_NAME, max_tokens=100, messages=[], stream=True\n"
        "    )\n",
        f'MODEL_NAME = "{again}"\n',
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
             "source": cell}
            for cell in cells
        ],
        "metadata": {"kernelspec": {"language": "python", "name": "python3", "display_name": "P"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }  # fmt: skip
    write_tree(tmp_path, {"nb.ipynb": json.dumps(notebook)})
    data = Cli(tmp_path).json("check", "--no-cache", ".")
    return {(d["code"], d["severity"]) for d in data["diagnostics"]}


def test_a_constant_written_alike_in_two_cells_is_read_by_a_function(tmp_path: Path) -> None:
    found = _severities_with_model_written_again(tmp_path, "claude-3-opus-20240229")
    assert ("CM302", "error") in found


def test_a_constant_written_differently_in_two_cells_is_unknown_to_a_function(
    tmp_path: Path,
) -> None:
    found = _severities_with_model_written_again(tmp_path, "claude-3-haiku-20240307")
    assert ("CM302", "error") not in found and ("CM302", "warning") in found


def test_a_client_from_a_factory_tuple_reaches_the_wrapper(tmp_path: Path) -> None:
    utils = (
        "import boto3\n\n\n"
        "def clients(region):\n"
        '    return boto3.client("bedrock", region), boto3.client("bedrock-runtime", region)\n\n\n'
        "def invoke(runtime, prompt, model_id):\n"
        "    return runtime.converse_stream(modelId=model_id, messages=[])\n"
    )
    app = (
        "import utils\n\n"
        'control, runtime = utils.clients("us-east-1")\n'
        f'utils.invoke(runtime, "hi", "{HAIKU}")\n'
    )
    write_tree(tmp_path, {"utils.py": utils, "app.py": app})
    data = Cli(tmp_path).json("check", "--no-cache", ".")
    messages = [d["message"] for d in data["diagnostics"] if d["path"] == "app.py"]
    assert any("passed to invoke() reaches a Claude call" in m for m in messages)
