"""A model passed to a wrapper whose Claude call is a legacy Text Completions call.

The Text Completions endpoint never served a Messages-era model: the model moves only with the
call, in CM301's rewrite, so a CM302 finding at the wrapper's caller carries no fix of its own.
"""

from __future__ import annotations

from pathlib import Path

from helpers import Cli, write_tree

WRAPPER = (
    "import anthropic\n\n"
    "client = anthropic.Anthropic()\n\n\n"
    "def complete(prompt, model, **kwargs):\n"
    "    if model == 'claude-3-opus-20240229':\n"
    "        return client.messages.create(\n"
    "            model=model, max_tokens=100, messages=[], stream=True, **kwargs\n"
    "        )\n"
    "    return client.completions.create(\n"
    "        prompt=f'{anthropic.HUMAN_PROMPT} {prompt}{anthropic.AI_PROMPT}',\n"
    "        model=model,\n"
    "        max_tokens_to_sample=300,\n"
    "        **kwargs,\n"
    "    ).completion\n"
)


def test_a_model_reaching_a_legacy_call_through_a_wrapper_has_no_fix_of_its_own(
    tmp_path: Path,
) -> None:
    write_tree(
        tmp_path,
        {"llm.py": WRAPPER, "app.py": "from llm import complete\n\ncomplete('hi', 'claude-2.1')\n"},
    )
    data = Cli(tmp_path).json("check", "--no-cache", "--select", "CM302", "app.py")
    (finding,) = data["diagnostics"]
    assert finding["path"] == "app.py" and finding["line"] == 3
    assert "once CM301 (legacy-completions) moves this call" in finding["message"]
    assert finding.get("fix") is None
    Cli(tmp_path)("fix", "--unsafe-fixes", "--no-cache", "app.py")
    assert "'claude-2.1'" in (tmp_path / "app.py").read_text()
