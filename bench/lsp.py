"""How long an editor waits: `didChange` to published diagnostics, against the CLI on one file.

    python bench/lsp.py            # needs the lsp extra: pip install -e '.[lsp]'
    python bench/lsp.py --reps 15 --lines 2000

A real server process (`claude-migrate server`) is driven over stdio by pygls's client. The
module is about 2,000 lines of functions that call Claude (every tenth with a finding). Each
round sends one `didChange` with a new value and waits for the diagnostics of that version; the
time includes the server's debounce (its `DEBOUNCE_SECONDS`), which an editor also waits. In the
same run, alternating with the rounds, `claude-migrate check --no-cache FILE` checks the same
text as a separate process, the pre-commit case. Medians; only the ratio is meant to travel.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import BaseLanguageClient

from claude_migrate.lsp.server import DEBOUNCE_SECONDS

FUNCTION = '''

def ask_{n}(client, question):
    """Ask Claude about one thing ({n})."""
    prompt = f"Question {n}: {{question}}"
    with client.messages.stream(
        model="claude-sonnet-4-6",
        max_tokens=512,
        temperature={temperature},
        messages=[{{"role": "user", "content": prompt}}],
    ) as stream:
        message = stream.get_final_message()
    parts = [block.text for block in message.content if block.type == "text"]
    answer = "".join(parts)
    if not answer:
        return None
    return answer.strip()
'''


def module(lines: int, value: str) -> str:
    text = "import anthropic\n\nclient = anthropic.Anthropic()\n"
    n = 0
    while text.count("\n") < lines:
        temperature = value if n % 10 == 0 else "0.0"
        text += FUNCTION.format(n=n, temperature=temperature)
        n += 1
    return text


async def lsp_latencies(root: Path, path: Path, reps: int, lines: int) -> list[float]:
    client = BaseLanguageClient("bench", "1")
    published: dict[int, float] = {}
    arrived = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            published[params.version] = time.perf_counter()
            arrived.set()

    await client.start_io(sys.executable, "-m", "claude_migrate", "server", cwd=root)
    await client.initialize_async(
        types.InitializeParams(
            process_id=os.getpid(), root_uri=root.as_uri(), capabilities=types.ClientCapabilities()
        )
    )
    client.initialized(types.InitializedParams())
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=module(lines, "0.9")
            )
        )
    )
    latencies = []
    for version in range(2, reps + 2):
        while 1 not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 120)
        text = module(lines, f"0.{version % 9 + 1}")
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        while version not in published:
            arrived.clear()
            await asyncio.wait_for(arrived.wait(), 120)
        latencies.append(published[version] - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return latencies


def cli_times(root: Path, path: Path, reps: int) -> list[float]:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "claude_migrate", "check", "--no-cache", "-q", str(path)],
            cwd=root,
            capture_output=True,
            check=False,
        )
        times.append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=11)
    parser.add_argument("--lines", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / ".git").mkdir()
        path = root / "service.py"
        path.write_text(module(args.lines, "0.9"))
        cli = cli_times(root, path, 2)  # warm the file system and the interpreter's caches
        lsp = asyncio.run(lsp_latencies(root, path, args.reps, args.lines))
        cli = cli_times(root, path, args.reps)
    lsp_median = statistics.median(lsp)
    cli_median = statistics.median(cli)
    lines = module(args.lines, "0.9").count("\n")
    print(f"module: {lines} lines, {args.reps} rounds each")
    print(
        f"didChange -> diagnostics (includes the {DEBOUNCE_SECONDS * 1000:.0f} ms debounce): "
        f"median {lsp_median * 1000:.0f} ms (min {min(lsp) * 1000:.0f}, max {max(lsp) * 1000:.0f})"
    )
    print(
        f"claude-migrate check --no-cache FILE (a new process): median {cli_median * 1000:.0f} ms "
        f"(min {min(cli) * 1000:.0f}, max {max(cli) * 1000:.0f})"
    )
    print(f"ratio server / CLI: {lsp_median / cli_median:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
