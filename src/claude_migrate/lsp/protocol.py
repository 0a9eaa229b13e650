"""The language server's protocol: a message it cannot read is answered or dropped, never a crash.

pygls 2 (`pygls/protocol/json_rpc.py`, `structure_message`) turns a message whose parameters
do not fit the method's type (a negative or string position, a missing field, a number past
2**31) into an exception: two tracebacks on standard error, an "Error in server" pop-up in the
editor, and no answer to the request, so a client that waits for it waits for ever. JSON-RPC 2.0
answers such a request with error -32602 "Invalid params"
(https://www.jsonrpc.org/specification#error_object); a notification has no answer and is
dropped. Either way one line on standard error says which method was dropped and why.

A change to a document the client never opened (`textDocument/didChange` of an unknown URI)
is dropped the same way (pygls would raise a `KeyError` for it and pop up an error), and a
`workspace/executeCommand` of a command the server does not offer is answered -32602 without
the traceback pygls logs for it.
"""

from __future__ import annotations

import sys
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import JsonRPCNotification, JsonRPCRequestMessage

INVALID_PARAMS = -32602
MAX_REASONS = 3
MAX_REASON_CHARS = 200


class Malformed:
    """A message whose parameters do not fit its method: what to answer, and why."""

    def __init__(self, data: dict[str, Any], reasons: list[str]) -> None:
        method = data.get("method")
        self.method = method if isinstance(method, str) else repr(method)[:MAX_REASON_CHARS]
        self.id = data.get("id")
        self.reasons = reasons


def _reasons(exc: BaseException) -> list[str]:
    """Return the first few leaf errors of a structuring failure, each with its JSON path."""
    try:
        from cattrs import transform_error

        found = transform_error(exc)
    except Exception:  # an error cattrs cannot walk: its own words
        found = [f"{type(exc).__name__}: {exc}"]
    return [reason[:MAX_REASON_CHARS] for reason in found[:MAX_REASONS]]


class GuardedProtocol(LanguageServerProtocol):
    """pygls's protocol, answering what it cannot read instead of raising."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        # Only a request or notification is checked here; responses to the server's own
        # requests (and the nested objects `json.loads` hands over first) go to pygls as they are.
        if "jsonrpc" not in data or "method" not in data or "error" in data:
            return super().structure_message(data)
        method = data["method"]
        fallback = JsonRPCRequestMessage if "id" in data else JsonRPCNotification
        kind = self.get_message_type(method) if isinstance(method, str) else None
        try:
            return self._converter.structure(data, kind or fallback)
        except Exception as exc:
            return Malformed(data, _reasons(exc))

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Malformed):
            self._answer_malformed(message)
            return
        if (
            getattr(message, "method", None) == types.TEXT_DOCUMENT_DID_CHANGE
            and message.params.text_document.uri not in self.workspace.text_documents
        ):
            uri = message.params.text_document.uri
            _say(f"dropped a change to a document that is not open: {uri}")
            return
        if (
            getattr(message, "method", None) == types.WORKSPACE_EXECUTE_COMMAND
            and message.params.command not in self.fm.commands
        ):
            # The server offers no command; pygls would log a traceback before its answer.
            reason = f"the server has no command {message.params.command!r}"
            self._answer_malformed(
                Malformed({"method": message.method, "id": message.id}, [reason])
            )
            return
        super().handle_message(message)

    def _answer_malformed(self, message: Malformed) -> None:
        reasons = "; ".join(message.reasons) or "the message does not fit its method"
        _say(f"dropped a malformed {message.method!r} message: {reasons}")
        msg_id = message.id
        if isinstance(msg_id, bool) or not isinstance(msg_id, (str, int)):
            return  # a notification, or an id JSON-RPC does not allow: nothing to answer
        if not self._shutdown:
            error = types.ResponseError(
                code=INVALID_PARAMS, message=f"Invalid params for {message.method}: {reasons}"
            )
            self._send_response(msg_id, error=error)


def _say(line: str) -> None:
    """Write one line on standard error (an editor shows it in the server's log)."""
    from claude_migrate.report.text import shown

    print(f"claude-migrate server: {shown(line)}", file=sys.stderr, flush=True)
