"""The editor set-ups the documentation gives, run in the real editor where it is installed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, write_tree

EDITORS = REPO / "docs" / "integrations" / "editors.md"
PROBE = """
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 100)
local lines = { "clients=" .. tostring(#vim.lsp.buf_get_clients(0)) }
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, (d.lnum + 1) .. ":" .. d.message)
end
vim.fn.writefile(lines, "probe.out")
vim.cmd("qa!")
"""


def _lua_snippet() -> str:
    text = EDITORS.read_text(encoding="utf-8")
    (snippet,) = re.findall(r"```lua\n(.*?)```", text, re.S)
    return str(snippet)


def test_the_neovim_snippet_uses_only_apis_neovim_0_7_has() -> None:
    snippet = _lua_snippet()
    assert "vim.lsp.start_client" in snippet and "vim.lsp.buf_attach_client" in snippet
    # vim.fs (0.8) and vim.lsp.start (0.8) only behind a check for them.
    assert "vim.fs." not in snippet
    assert "if vim.lsp.start then" in snippet


@pytest.mark.skipif(
    shutil.which("nvim") is None, reason="Neovim is not installed (Debian: apt-get install neovim)"
)
def test_the_neovim_snippet_attaches_and_shows_findings(tmp_path: Path) -> None:
    pytest.importorskip("pygls", reason="the language server needs pygls (the lsp extra)")
    write_tree(
        tmp_path,
        {
            "init.lua": _lua_snippet(),
            "probe.lua": PROBE,
            "app/chat.py": "import anthropic\nc = anthropic.Anthropic()\n"
            'c.messages.create(model="claude-sonnet-4-6", max_tokens=9, temperature=0.9, '
            "messages=[])\n",
            "claude-migrate.toml": 'select = ["CM101"]\n',
        },
    )
    env = dict(os.environ)
    # The `claude-migrate` the snippet starts is this checkout's, in this interpreter's folder.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["XDG_CONFIG_HOME"] = env["XDG_DATA_HOME"] = env["XDG_STATE_HOME"] = str(tmp_path / "x")
    completed = subprocess.run(
        ["nvim", "--headless", "-u", "init.lua", "app/chat.py", "-c", "luafile probe.lua"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    out = (tmp_path / "probe.out").read_text().splitlines()
    assert out[0] == "clients=1", (out, completed.stderr)
    assert "3:temperature 0.9 is above the policy maximum 0.2 [fix: set temperature to 0.0]" in out
