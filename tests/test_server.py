"""The language server, driven over stdio by a real LSP client (pygls's), as an editor would."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pygls = pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.exceptions import JsonRpcException  # noqa: E402
from pygls.lsp.client import BaseLanguageClient  # noqa: E402

from claude_migrate.lsp.server import LineIndex, minimal_edits  # noqa: E402

HEAD = "import anthropic\n\nclient = anthropic.Anthropic()\n\n\n"
# A non-ASCII line before the finding and an astral character on its line: LSP columns count
# UTF-16 code units, the engine counts code points.
BODY = (
    "def ask(q):\n"
    '    note = "héllo"\n'
    "    with client.messages.stream(\n"
    '        model="claude-sonnet-4-6", max_tokens=100, messages=[],\n'
    '        system="🙂", temperature=0.9,\n'
    "    ) as stream:\n"
    "        return stream.get_final_message()\n"
)
SOURCE = HEAD + BODY
TIMEOUT = 60


def _apply(text: str, edits: list[types.TextEdit]) -> str:
    index = LineIndex(text)
    spans = sorted(
        ((index.offset(e.range.start), index.offset(e.range.end), e.new_text) for e in edits),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


class Editor:
    """A client session: open documents, wait for diagnostics, ask for actions."""

    def __init__(self, client: BaseLanguageClient, root: Path) -> None:
        self.client = client
        self.root = root
        self.published: dict[str, list[types.PublishDiagnosticsParams]] = {}
        self.changed = asyncio.Condition()
        self.versions: dict[str, int] = {}
        self.shown: list[str] = []  # window/showMessage pop-ups
        self.stderr = b""  # the server's standard error, once it exited

    def uri(self, name: str) -> str:
        return (self.root / name).as_uri()

    async def wait_for(self, name: str, count: int) -> types.PublishDiagnosticsParams:
        uri = self.uri(name)
        async with self.changed:
            await asyncio.wait_for(
                self.changed.wait_for(lambda: len(self.published.get(uri, [])) >= count), TIMEOUT
            )
        return self.published[uri][count - 1]

    def seen(self, name: str) -> int:
        return len(self.published.get(self.uri(name), []))

    def open(self, name: str, text: str, language: str = "python") -> None:
        self.versions[name] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=self.uri(name), language_id=language, version=1, text=text
                )
            )
        )

    def change(self, name: str, text: str) -> None:
        self.versions[name] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=self.uri(name), version=self.versions[name]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def actions(
        self, name: str, rng: types.Range, only: list[str] | None = None
    ) -> list[types.CodeAction]:
        result = await asyncio.wait_for(
            self.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=self.uri(name)),
                    range=rng,
                    context=types.CodeActionContext(diagnostics=[], only=only),
                )
            ),
            TIMEOUT,
        )
        return [a for a in result or [] if isinstance(a, types.CodeAction)]


@contextlib.asynccontextmanager
async def _session(tmp_path: Path) -> AsyncIterator[Editor]:
    (tmp_path / ".git").mkdir()
    client = BaseLanguageClient("test-editor", "1")
    session = Editor(client, tmp_path)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    async def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        async with session.changed:
            session.published.setdefault(params.uri, []).append(params)
            session.changed.notify_all()

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def on_register(params: types.RegistrationParams) -> None:
        return None

    @client.feature(types.WINDOW_SHOW_MESSAGE)
    def on_message(params: types.ShowMessageParams) -> None:
        session.shown.append(params.message)

    env = {k: v for k, v in os.environ.items() if not k.startswith("CLAUDE_MIGRATE")}
    env["CLAUDE_MIGRATE_CACHE_DIR"] = str(tmp_path / ".cache-outside")
    await client.start_io(sys.executable, "-m", "claude_migrate", "server", cwd=tmp_path, env=env)
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                process_id=os.getpid(),
                root_uri=tmp_path.as_uri(),
                capabilities=types.ClientCapabilities(
                    workspace=types.WorkspaceClientCapabilities(
                        did_change_watched_files=types.DidChangeWatchedFilesClientCapabilities(
                            dynamic_registration=True
                        )
                    )
                ),
            )
        ),
        TIMEOUT,
    )
    client.initialized(types.InitializedParams())
    try:
        yield session
    finally:
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        await client.stop()
        server = client._server
        if server is not None and server.stderr is not None:
            session.stderr = await server.stderr.read()


def _drive(tmp_path: Path, scenario: Callable[[Editor], Awaitable[None]]) -> Editor:
    """Run one editor session against a real server process, start to exit."""
    ended: list[Editor] = []

    async def main() -> None:
        async with _session(tmp_path) as editor:
            ended.append(editor)
            await scenario(editor)

    asyncio.run(main())
    return ended[0]


def _by_code(params: types.PublishDiagnosticsParams, code: str) -> types.Diagnostic:
    found = [d for d in params.diagnostics if d.code == code]
    assert found, [d.code for d in params.diagnostics]
    return found[0]


def test_diagnostics_on_open_with_utf16_positions(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        published = await editor.wait_for("app.py", 1)
        finding = _by_code(published, "CM101")
        line = SOURCE.splitlines()[finding.range.start.line]
        assert line == '        system="🙂", temperature=0.9,'
        # "🙂" is two UTF-16 code units: temperature starts at code point 20, UTF-16 unit 21.
        assert finding.range.start.character == line.index("temperature") + 1
        assert finding.range.end.character == line.index("0.9") + 3 + 1
        assert finding.source == "claude-migrate"
        assert finding.severity == types.DiagnosticSeverity.Error
        assert finding.code_description is not None
        assert finding.code_description.href.endswith("CM101.md")
        assert "temperature 0.9" in finding.message

    _drive(tmp_path, scenario)


def test_change_is_debounced_and_the_latest_text_wins(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        await editor.wait_for("app.py", 1)
        before = editor.seen("app.py")
        for value in ("0.5", "0.6", "0.7", "0.1"):
            editor.change("app.py", SOURCE.replace("0.9", value))
        published = await editor.wait_for("app.py", before + 1)
        await asyncio.sleep(1.0)  # nothing for the intermediate versions arrives later
        assert editor.seen("app.py") == before + 1
        assert published.version == 5
        assert not [d for d in published.diagnostics if d.code == "CM101"]

    _drive(tmp_path, scenario)


def test_fix_all_gives_exactly_what_fix_writes(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        text = SOURCE.replace("max_tokens=100", "max_tokens=9000")
        editor.open("app.py", text)
        await editor.wait_for("app.py", 1)
        everything = types.Range(
            start=types.Position(0, 0), end=types.Position(len(text.splitlines()), 0)
        )
        actions = await editor.actions("app.py", everything, only=["source.fixAll.claude-migrate"])
        assert [a.title for a in actions] == ["Fix all safe claude-migrate findings"]
        edit = actions[0].edit
        assert edit is not None and edit.document_changes
        fixed = _apply(text, edit.document_changes[0].edits)
        cli = subprocess.run(
            [sys.executable, "-m", "claude_migrate", "fix", "--stdin-filename", "app.py", "-"],
            input=text.encode(), cwd=editor.root, capture_output=True, timeout=TIMEOUT,
        )  # fmt: skip
        assert fixed == cli.stdout.decode()
        assert "temperature=0.0" in fixed and "max_tokens=1024" in fixed

    _drive(tmp_path, scenario)


def test_quick_fix_and_suppression_for_one_finding(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        published = await editor.wait_for("app.py", 1)
        finding = _by_code(published, "CM101")
        actions = await editor.actions("app.py", finding.range)
        titles = [a.title for a in actions]
        assert "CM101: set temperature to 0.0" in titles[0]
        assert actions[0].is_preferred
        assert "Suppress CM101 on this line" in titles
        fixed = _apply(SOURCE, actions[0].edit.document_changes[0].edits)
        assert fixed == SOURCE.replace("temperature=0.9", "temperature=0.0")

        suppress = next(a for a in actions if a.title == "Suppress CM101 on this line")
        silenced = _apply(SOURCE, suppress.edit.document_changes[0].edits)
        assert '        system="🙂", temperature=0.9,  # noqa: CM101\n' in silenced
        before = editor.seen("app.py")
        editor.change("app.py", silenced)
        published = await editor.wait_for("app.py", before + 1)
        assert not [d for d in published.diagnostics if d.code == "CM101"]

    _drive(tmp_path, scenario)


def test_hover_shows_the_rule_and_the_fix(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        finding = _by_code(await editor.wait_for("app.py", 1), "CM101")
        hover = await asyncio.wait_for(
            editor.client.text_document_hover_async(
                types.HoverParams(
                    text_document=types.TextDocumentIdentifier(uri=editor.uri("app.py")),
                    position=finding.range.start,
                )
            ),
            TIMEOUT,
        )
        assert hover is not None
        value = hover.contents.value  # type: ignore[union-attr]
        assert "CM101 temperature" in value and "safe fix: set temperature to 0.0" in value

    _drive(tmp_path, scenario)


def test_policy_errors_and_policy_changes(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        policy = editor.root / "claude-migrate.toml"
        policy.write_text("[temperature]\nmax = 1.0\n")
        editor.open("app.py", SOURCE)
        published = await editor.wait_for("app.py", 1)
        assert not [d for d in published.diagnostics if d.code == "CM101"]
        # A stricter policy on disk, announced by the editor's file watcher: re-checked.
        policy.write_text("[temperature]\nmax = 0.5\n")
        before = editor.seen("app.py")
        editor.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=policy.as_uri(), type=types.FileChangeType.Changed)]
            )
        )
        published = await editor.wait_for("app.py", before + 1)
        assert _by_code(published, "CM101")
        # A typo in the policy file is a diagnostic on its line, with the CLI's message.
        policy.write_text("[temperature]\nmax = 0.5\n\n[max-token]\nmax = 10\n")
        editor.open("claude-migrate.toml", policy.read_text(), language="toml")
        problems = await editor.wait_for("claude-migrate.toml", 1)
        assert problems.diagnostics
        assert problems.diagnostics[0].range.start.line == 3
        assert "max-token" in problems.diagnostics[0].message

    _drive(tmp_path, scenario)


PINNED = (
    "from anthropic import Anthropic\n\nclient = Anthropic()\n\n\n"
    "def ask(q):\n"
    "    return client.messages.create(\n"
    '        model="claude-sonnet-4-6", max_tokens=9, messages=[], temperature=0.9\n'
    "    )\n"
)


def test_a_new_sdk_pin_on_disk_is_read_again(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        requirements = editor.root / "requirements.txt"
        requirements.write_text("anthropic>=0.40\n")
        editor.open("app.py", PINNED)
        published = await editor.wait_for("app.py", 1)
        assert _by_code(published, "CM101")
        assert not [d for d in published.diagnostics if d.code == "CM107"]
        # The project moves to an SDK that removed temperature=: the watcher announces it, and
        # the open document is judged on the new pin, as the command line would judge it.
        requirements.write_text("anthropic>=1.2\n")
        before = editor.seen("app.py")
        editor.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[
                    types.FileEvent(uri=requirements.as_uri(), type=types.FileChangeType.Changed)
                ]
            )
        )
        published = await editor.wait_for("app.py", before + 1)
        assert "requirements.txt (anthropic >=1.2)" in _by_code(published, "CM107").message
        assert not [d for d in published.diagnostics if d.code == "CM101"]

    _drive(tmp_path, scenario)


def test_a_document_whose_coding_cookie_python_refuses_is_one_cm001(tmp_path: Path) -> None:
    # Python cannot read the saved file (`SyntaxError: encoding problem: klingon`), as `check`
    # says of it on disk; a cookie Python accepts changes nothing for an ASCII document.
    async def scenario(editor: Editor) -> None:
        editor.open("refused.py", "# -*- coding: klingon -*-\n" + SOURCE)
        published = await editor.wait_for("refused.py", 1)
        assert [d.code for d in published.diagnostics] == ["CM001"]
        assert "klingon" in published.diagnostics[0].message
        editor.open("latin.py", "#!/usr/bin/env python3\n# coding: latin-1\n" + HEAD + BODY)
        assert _by_code(await editor.wait_for("latin.py", 1), "CM101")

    _drive(tmp_path, scenario)


def test_a_file_the_engine_cannot_parse_is_one_diagnostic_not_a_dead_server(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        editor.open("broken.py", "import anthropic\ndef (:\n")
        published = await editor.wait_for("broken.py", 1)
        assert [d.code for d in published.diagnostics] == ["CM001"]
        editor.open("app.py", SOURCE)  # the server still answers
        assert _by_code(await editor.wait_for("app.py", 1), "CM101")

    _drive(tmp_path, scenario)


def test_minimal_edit_spans_only_what_differs() -> None:
    old = "a = 1\r\nb = '🙂' + 2\r\n"
    new = "a = 1\r\nb = '🙂' + 3\r\n"
    index = LineIndex(old)
    (edit,) = minimal_edits(index, new)
    assert edit.range.start == types.Position(1, 11) and edit.new_text == "3"
    assert _apply(old, [edit]) == new


def test_line_index_round_trips_utf16_positions() -> None:
    text = "x = '🙂🙂'\ny = 2\r\nz\rw"
    index = LineIndex(text)
    for offset in range(len(text) + 1):
        if text[offset - 1 : offset + 1] == "\r\n":
            continue  # between CR and LF is not a position
        assert index.offset(index.position(offset)) == offset
    assert index.position(text.index("'🙂🙂'") + 3) == types.Position(0, 9)  # 5 units + 2 pairs


NOTEBOOK_CELLS = [
    ("code", "import anthropic\nclient = anthropic.Anthropic()\n"),
    ("markdown", "# Ask Claude\nSome *notes*.\n"),
    ("code", "%%time\nwith client.messages.stream(\n"
     "    model='claude-sonnet-4-6', max_tokens=100,\n"
     "    messages=[], temperature=0.9,\n) as s:\n    print(s.get_final_message())\n"),
]  # fmt: skip


def test_notebook_cells_get_their_own_diagnostics_and_fix_all(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        notebook = editor.uri("demo.ipynb")
        cells = [f"{notebook}#cell{i}" for i in range(len(NOTEBOOK_CELLS))]
        editor.client.notebook_document_did_open(
            types.DidOpenNotebookDocumentParams(
                notebook_document=types.NotebookDocument(
                    uri=notebook,
                    notebook_type="jupyter-notebook",
                    version=1,
                    cells=[
                        types.NotebookCell(
                            kind=types.NotebookCellKind.Markup
                            if kind == "markdown"
                            else types.NotebookCellKind.Code,
                            document=uri,
                        )
                        for uri, (kind, _) in zip(cells, NOTEBOOK_CELLS, strict=True)
                    ],
                ),
                cell_text_documents=[
                    types.TextDocumentItem(
                        uri=uri,
                        language_id="markdown" if kind == "markdown" else "python",
                        version=1,
                        text=text,
                    )
                    for uri, (kind, text) in zip(cells, NOTEBOOK_CELLS, strict=True)
                ],
            )
        )
        uri = cells[2]
        async with editor.changed:
            await asyncio.wait_for(
                editor.changed.wait_for(lambda: uri in editor.published), TIMEOUT
            )
        finding = _by_code(editor.published[uri][-1], "CM101")
        # Line 4 of the third cell, counted within the cell (0-based in LSP: 3).
        assert finding.range.start.line == 3
        assert finding.range.start.character == len("    messages=[], ")
        assert not editor.published.get(cells[0], [types.PublishDiagnosticsParams(uri, [])])[
            -1
        ].diagnostics
        whole = types.Range(start=types.Position(0, 0), end=types.Position(6, 0))
        result = await asyncio.wait_for(
            editor.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=uri),
                    range=whole,
                    context=types.CodeActionContext(diagnostics=[]),
                )
            ),
            TIMEOUT,
        )
        titles = [a.title for a in result or []]
        assert "Suppress CM101 on this line" in titles
        fix_all = next(a for a in result or [] if a.title.startswith("Fix all"))
        changes = fix_all.edit.document_changes
        assert [c.text_document.uri for c in changes] == [uri]
        fixed = _apply(NOTEBOOK_CELLS[2][1], changes[0].edits)
        assert fixed == NOTEBOOK_CELLS[2][1].replace("temperature=0.9", "temperature=0.0")

    _drive(tmp_path, scenario)


def test_a_notebook_opened_as_text_gets_no_misplaced_findings(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                  "source": text} for kind, text in NOTEBOOK_CELLS if kind == "code"]  # fmt: skip
        document = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
        editor.open("raw.ipynb", document, language="json")
        editor.open("app.py", SOURCE)  # published after raw.ipynb's, in order
        assert _by_code(await editor.wait_for("app.py", 1), "CM101")
        published = editor.published.get(editor.uri("raw.ipynb"), [])
        assert all(not p.diagnostics for p in published)

    _drive(tmp_path, scenario)


def test_a_document_that_would_crash_the_parser_is_one_diagnostic(tmp_path: Path) -> None:
    async def scenario(editor: Editor) -> None:
        deep = "import anthropic\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\n"
        editor.open("deep.py", deep)
        published = await editor.wait_for("deep.py", 1)
        assert [d.code for d in published.diagnostics] == ["CM001"]
        editor.open("app.py", SOURCE)  # the server survived and still answers
        assert _by_code(await editor.wait_for("app.py", 1), "CM101")

    _drive(tmp_path, scenario)


def test_a_policy_with_two_mistakes_is_two_diagnostics_each_on_its_line(tmp_path: Path) -> None:
    from claude_migrate.lsp.server import policy_diagnostics

    policy = tmp_path / "claude-migrate.toml"
    policy.write_text("[temperature]\nmax = 5.0\n\n[max-token]\nmax = 10\n")
    found = policy_diagnostics(policy)
    assert [d.range.start.line for d in found] == [1, 3]
    assert "`temperature.max`" in found[0].message and "between 0 and 1" in found[0].message
    assert "max-token" in found[1].message


def test_a_mistake_in_an_extended_policy_goes_on_line_one_naming_its_file(tmp_path: Path) -> None:
    from claude_migrate.lsp.server import policy_diagnostics

    (tmp_path / "base.toml").write_text("\n\n[temperature]\nmax = 5.0\n")
    policy = tmp_path / "claude-migrate.toml"
    policy.write_text('extend = "base.toml"\n[streaming]\nrequire = "yes"\n')
    found = policy_diagnostics(policy)
    assert len(found) == 2
    lines = {d.range.start.line: d.message for d in found}
    assert "base.toml:4" in lines[0]
    assert "require" in lines[2]


def test_a_yaml_config_gets_its_model_findings_and_their_quick_fix(tmp_path: Path) -> None:
    text = "llm:\n  model: claude-2.1  # the batch model\n  other: gpt-4o\n"

    async def scenario(editor: Editor) -> None:
        editor.open("settings.yaml", text, language="yaml")
        published = await editor.wait_for("settings.yaml", 1)
        finding = _by_code(published, "CM302")
        assert finding.range.start == types.Position(line=1, character=9)
        assert finding.severity == types.DiagnosticSeverity.Warning
        assert "found as data" in finding.message
        actions = await editor.actions("settings.yaml", finding.range)
        assert [a.title for a in actions] == [
            "CM302: replace 'claude-2.1' with 'claude-sonnet-4-6' (unsafe fix)",
            "Suppress CM302 on this line",
        ]
        fixed = _apply(text, actions[0].edit.document_changes[0].edits)
        assert fixed == text.replace("claude-2.1", "claude-sonnet-4-6")
        silenced = _apply(text, actions[1].edit.document_changes[0].edits)
        assert "  model: claude-2.1  # the batch model  # noqa: CM302\n" in silenced
        before = editor.seen("settings.yaml")
        editor.change("settings.yaml", silenced)
        published = await editor.wait_for("settings.yaml", before + 1)
        assert not [d for d in published.diagnostics if d.code == "CM302"]

    _drive(tmp_path, scenario)


def test_a_json_config_gets_no_suppression_action(tmp_path: Path) -> None:
    text = '{"model": "claude-2.1"}\n'

    async def scenario(editor: Editor) -> None:
        editor.open("models.json", text, language="json")
        finding = _by_code(await editor.wait_for("models.json", 1), "CM302")
        actions = await editor.actions("models.json", finding.range)
        assert [a.title for a in actions] == [
            "CM302: replace 'claude-2.1' with 'claude-sonnet-4-6' (unsafe fix)"
        ]

    _drive(tmp_path, scenario)


def _send_raw(editor: Editor, method: str, params: object, msg_id: str | None = None) -> Any:
    """Send a message as raw JSON (the client's types would refuse it); a request's answer."""
    message: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
    answer: concurrent.futures.Future[Any] | None = None
    if msg_id is not None:
        message["id"] = msg_id
        answer = concurrent.futures.Future()
        editor.client.protocol._request_futures[msg_id] = answer
    body = json.dumps(message).encode()
    editor.client.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return None if answer is None else asyncio.wait_for(asyncio.wrap_future(answer), TIMEOUT)


def test_requests_with_malformed_params_are_answered_invalid_params(tmp_path: Path) -> None:
    # Sent as raw JSON, as a buggy or hostile client would: negative and string positions, a
    # number past LSP's 2**31 range, missing fields. Each request gets JSON-RPC's -32602 answer
    # (none would leave the editor waiting on it), and the server goes on answering.
    uri = (tmp_path / "app.py").as_uri()
    doc = {"uri": uri}
    empty: dict[str, list[object]] = {"diagnostics": []}

    def at(line: object, character: object) -> dict[str, object]:
        return {"line": line, "character": character}

    malformed = [
        ("textDocument/hover", {"textDocument": doc, "position": at("x", None)}),
        ("textDocument/hover", {}),
        ("textDocument/hover", {"textDocument": doc, "position": at(2, 10**30)}),
        (
            "textDocument/codeAction",
            {
                "textDocument": doc,
                "range": {"start": at(-5, -1), "end": at(-1, 0)},
                "context": empty,
            },
        ),
        ("workspace/executeCommand", {"command": "claude-migrate.fixAll", "arguments": [doc]}),
    ]

    async def scenario(editor: Editor) -> None:
        editor.open("app.py", SOURCE)
        await editor.wait_for("app.py", 1)
        for number, (method, params) in enumerate(malformed):
            with pytest.raises(JsonRpcException) as raised:
                await _send_raw(editor, method, params, f"raw-{number}")
            assert raised.value.code == -32602, (method, raised.value)
        whole = types.Range(start=types.Position(0, 0), end=types.Position(99, 0))
        assert await editor.actions("app.py", whole)

    editor = _drive(tmp_path, scenario)
    assert editor.shown == []
    assert b"Traceback" not in editor.stderr
    assert editor.stderr.count(b"claude-migrate server: dropped") == len(malformed)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".git"]  # nothing written


def test_malformed_notifications_are_dropped_without_an_error(tmp_path: Path) -> None:
    # A change to a document never opened, a watched-file event of an unknown type, and a code
    # action request whose `only` holds a number: no pop-up, no traceback, the server reads on.
    async def scenario(editor: Editor) -> None:
        _send_raw(
            editor,
            "textDocument/didChange",
            {
                "textDocument": {"uri": editor.uri("never-opened.py"), "version": 3},
                "contentChanges": [{"text": SOURCE}],
            },
        )
        _send_raw(
            editor,
            "workspace/didChangeWatchedFiles",
            {"changes": [{"uri": editor.uri("pyproject.toml"), "type": 99}]},
        )
        editor.open("app.py", SOURCE)
        await editor.wait_for("app.py", 1)
        answer = await _send_raw(
            editor,
            "textDocument/codeAction",
            {
                "textDocument": {"uri": editor.uri("app.py")},
                "range": {
                    "start": {"line": 0, "character": 0},
                    "end": {"line": 99, "character": 0},
                },
                "context": {"diagnostics": [], "only": [123]},
            },
            "raw-only",
        )
        assert answer == []

    editor = _drive(tmp_path, scenario)
    assert editor.shown == []
    assert b"Traceback" not in editor.stderr
    assert editor.stderr.count(b"claude-migrate server: dropped") == 2
