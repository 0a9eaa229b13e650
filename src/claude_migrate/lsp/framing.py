"""The language server's input, framed defensively: every message well formed, none too large.

LSP frames each JSON-RPC message with a `Content-Length` header
(https://microsoft.github.io/language-server-protocol/specifications/base/0.9/specification/).
pygls trusts it: a body shorter than its header says swallows the next message's header, and
from then on every header is glued to the end of a body, so no message is understood again; a
huge length is read whole into memory. `FramedInput` sits between standard input and pygls and
hands it only frames it checked:

- a header line longer than `MAX_HEADER_LINE` is dropped, and the frame with it;
- a frame longer than `MAX_MESSAGE_BYTES` is read past in chunks and dropped (never held);
- a body that holds the start of the next frame (`Content-Length:`) and is not JSON was shorter
  than its header said: it is dropped and reading resumes at that header (resynchronised);
- a stream that ends inside a frame ends the session, as the end of the stream does.

Each dropped frame is said on standard error (editors show it in the server's log), once.
"""

from __future__ import annotations

import json
import re
import sys
from typing import BinaryIO

MIB = 1024 * 1024
MAX_MESSAGE_BYTES = 32 * MIB
MAX_HEADER_LINE = 8192
CHUNK = 65536
_HEADER = b"Content-Length:"
_LENGTH = re.compile(rb"^Content-Length:[ \t]*(\d{1,12})[ \t]*\r?\n$", re.IGNORECASE)


class FramedInput:
    """A binary stream pygls reads (`readline`, `read`) that yields only checked frames."""

    def __init__(self, raw: BinaryIO, log: BinaryIO | None = None) -> None:
        self.raw = raw
        self.log = log
        self._buffer = bytearray()  # read from `raw`, not yet framed
        self._out = bytearray()  # the current checked frame, as pygls reads it
        self._ended = False

    # What pygls calls ---------------------------------------------------------------------------
    def readline(self) -> bytes:
        if not self._out:
            self._out = bytearray(self._next_frame())
        end = self._out.find(b"\n")
        cut = len(self._out) if end < 0 else end + 1
        line = bytes(self._out[:cut])
        del self._out[:cut]
        return line

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = len(self._out)
        data = bytes(self._out[:size])
        del self._out[:size]
        return data

    # Framing ------------------------------------------------------------------------------------
    def _next_frame(self) -> bytes:
        """Return the next well-formed frame (header and body), or b"" at the end."""
        while not self._ended:
            length = self._headers()
            if length is None:
                continue
            if length < 0:
                break
            if length > MAX_MESSAGE_BYTES:
                self._say(
                    f"a message of {length} bytes is over the limit of"
                    f" {MAX_MESSAGE_BYTES // MIB} MiB: dropped"
                )
                self._skip(length)
                continue
            body = self._take(length)
            if len(body) < length:
                self._say("the input ended inside a message: the server stops")
                break
            start = body.find(_HEADER)
            if start >= 0 and not _is_json(body):
                self._say("a message was shorter than its Content-Length: dropped, resynchronised")
                self._buffer[:0] = body[start:]
                continue
            return b"Content-Length: %d\r\n\r\n" % length + body
        self._ended = True
        return b""

    def _headers(self) -> int | None:
        """Read one frame's headers: its length, None for a frame to drop, -1 at the end."""
        length: int | None = None
        problem = False
        while True:
            line = self._line()
            if line is None:
                return -1
            if line in (b"\r\n", b"\n"):
                if length is None and not problem:
                    continue  # blank lines between frames
                break
            if len(line) > MAX_HEADER_LINE:
                problem = True
                continue
            start = line.find(_HEADER)
            if start > 0:
                # The end of a body without its newline, glued to the next header: resynchronise.
                line = line[start:]
                length, problem = None, False
            match = _LENGTH.match(line)
            if match:
                length = int(match.group(1))
        if problem or length is None:
            self._say("a message without a readable Content-Length header: dropped")
            return None
        return length

    def _line(self) -> bytes | None:
        """Return the next line (at most `MAX_HEADER_LINE` + 1 bytes kept), None at the end."""
        kept = bytearray()
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                kept += self._buffer[: end + 1]
                del self._buffer[: end + 1]
                return bytes(kept[: MAX_HEADER_LINE + 1])
            if len(kept) <= MAX_HEADER_LINE:
                kept += self._buffer
            self._buffer.clear()
            if not self._fill():
                return bytes(kept) if kept else None

    def _take(self, size: int) -> bytes:
        while len(self._buffer) < size and self._fill():
            pass
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    def _skip(self, size: int) -> None:
        while size > 0:
            if not self._buffer and not self._fill():
                return
            cut = min(size, len(self._buffer))
            del self._buffer[:cut]
            size -= cut

    def _fill(self) -> bool:
        read = getattr(self.raw, "read1", self.raw.read)
        chunk = read(CHUNK)
        if not chunk:
            return False
        self._buffer += chunk
        return True

    def _say(self, message: str) -> None:
        log = self.log if self.log is not None else sys.stderr.buffer
        try:
            log.write(f"claude-migrate server: {message}\n".encode())
            log.flush()
        except (OSError, ValueError):
            pass


def _is_json(body: bytes) -> bool:
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return False
    return True
