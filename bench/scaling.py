"""How claude-migrate's cost grows with a tree: generated monorepos of 1x, 2x, 4x and 8x.

    python bench/scaling.py                                  # 1x ~ 250k lines, 8x ~ 2M lines
    python bench/scaling.py --base-lines 20000 --sizes 1,2   # a quick look

Each monorepo holds services of plain modules (the generated corpus's template), and one file in
twenty calls Claude through the project's own layer: a wrapper function and a shared client
defined in `<service>/llm.py`, imported and called elsewhere (`from .llm import client, ask`).
For every size it times, as separate processes, `check` with an emptied cache (cold), `check`
with the cache that run filled (warm) and `fix --diff` without a cache, and records the peak
resident memory of any process of each command. It prints the table with the slope (seconds
per thousand lines) and writes bench/.results/scaling.{md,json} and the plot bench/scaling.svg
(drawn as SVG text, no plotting library).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import _plain_module  # noqa: E402  (bench/ is not a package)
from run import CM, machine, timed  # noqa: E402

CLAUDE_EVERY = 20  # one file in twenty calls Claude (5%)
SERVICE_FILES = 200
COMMANDS = ("check cold", "check warm", "fix")

LLM_MODULE = '''"""The service's Claude layer: one shared client and a wrapper."""
import anthropic

client = anthropic.Anthropic()
DEFAULT_MODEL = "claude-3-haiku-20240307"


def ask(prompt: str, **options: object) -> str:
    reply = client.messages.create(
        model=DEFAULT_MODEL,
        max_tokens=1024,
        messages=[{{"role": "user", "content": prompt}}],
        **options,
    )
    return reply.content[0].text


def ask_{n}(question: str) -> str:
    return ask(question, temperature={temperature})
'''

CALLER_MODULE = '''"""Generated module {n}: answers questions through the service's Claude layer."""
from .llm import ask, client


def summarise_{n}(text: str) -> str:
    return ask("Summarise: " + text, temperature={temperature})


def classify_{n}(text: str) -> str:
    reply = client.messages.create(
        model="{model}",
        max_tokens={max_tokens},
        temperature={temperature},
        messages=[{{"role": "user", "content": text}}],
    )
    return reply.content[0].text
'''


def build(root: Path, files: int, seed: int = 20260101) -> int:
    """Write a monorepo of `files` modules under `root`; return its line count."""
    rng = random.Random(seed)
    lines = 0
    for n in range(files):
        service = root / f"service{n // SERVICE_FILES:03d}"
        if n % SERVICE_FILES == 0:
            service.mkdir(parents=True, exist_ok=True)
            (service / "__init__.py").write_text("")
            llm = LLM_MODULE.format(n=n, temperature=rng.choice([0.0, 0.5, 1.0]))
            (service / "llm.py").write_text(llm, encoding="utf-8")
            lines += llm.count("\n")
        if n % CLAUDE_EVERY == 0:
            text = CALLER_MODULE.format(
                n=n,
                temperature=rng.choice([0.0, 0.2, 0.7, 1.0]),
                max_tokens=rng.choice([512, 1024, 8192]),
                model=rng.choice(["claude-3-haiku-20240307", "claude-sonnet-4-5", "claude-2.1"]),
            )
            name = f"claude_{n}.py"
        else:
            text = _plain_module(rng, n)
            name = f"plain_{n}.py"
        (service / name).write_text(text, encoding="utf-8")
        lines += text.count("\n")
    (root / ".git").mkdir(exist_ok=True)
    return lines


def files_for(lines: int) -> int:
    """Return how many modules make about `lines` lines (measured on a sample of the template)."""
    sample = [_plain_module(random.Random(k), k).count("\n") for k in range(200)]
    return max(CLAUDE_EVERY, round(lines / (sum(sample) / len(sample))))


def measure(root: Path, work: Path, reps: int) -> dict[str, dict[str, float]]:
    """Return, per command, the median seconds and the peak RSS in MB over `reps` rounds."""
    cache = work / "cache"
    commands = {
        "check cold": [*CM, "check", "--quiet", "--exit-zero", "--cache-dir", str(cache), "."],
        "check warm": [*CM, "check", "--quiet", "--exit-zero", "--cache-dir", str(cache), "."],
        "fix": [*CM, "fix", "--diff", "--quiet", "--exit-zero", "--no-cache", "."],
    }
    times: dict[str, list[float]] = {label: [] for label in commands}
    peaks: dict[str, int] = {label: 0 for label in commands}
    for _ in range(reps):
        for label, command in commands.items():
            if label == "check cold":
                shutil.rmtree(cache, ignore_errors=True)
            elapsed, peak, code = timed(command, cwd=root)
            if code != 0:
                raise SystemExit(f"{label} failed (exit {code}) in {root}")
            times[label].append(elapsed)
            peaks[label] = max(peaks[label], peak)
    return {
        label: {
            "seconds": sorted(times[label])[len(times[label]) // 2],
            "peak_mb": peaks[label] / 1024,
        }
        for label in commands
    }


def render(rows: list[dict[str, Any]], took: float, where: dict[str, str]) -> str:
    out = [
        f"{where['cpu']}, {where['cores']} cores, Python {where['python']}; load average before "
        f"{where['load']}; the series took {took:.0f} s",
        "",
        "| size | files | lines | command | seconds | s per 1k lines | peak RSS MB |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        for label in COMMANDS:
            m = row[label]
            per_k = m["seconds"] / (row["lines"] / 1000)
            out.append(
                f"| {row['size']}x | {row['files']:,} | {row['lines']:,} | {label} | "
                f"{m['seconds']:.2f} | {per_k:.4f} | {m['peak_mb']:.0f} |"
            )
    first, last = rows[0], rows[-1]
    out += ["", "| command | s per 1k lines at 1x | at largest | ratio (target <= 1.2) |"]
    out.append("|---|---|---|---|")
    for label in COMMANDS:
        a = first[label]["seconds"] / (first["lines"] / 1000)
        b = last[label]["seconds"] / (last["lines"] / 1000)
        out.append(f"| {label} | {a:.4f} | {b:.4f} | {b / a:.2f} |")
    worst = max(row[label]["peak_mb"] for row in rows for label in COMMANDS)
    out.append("")
    out.append(f"Peak RSS of any process at any size: {worst:.0f} MB (target <= 400 MB).")
    return "\n".join(out) + "\n"


def svg(rows: list[dict[str, Any]]) -> str:
    """Return a plot of seconds and peak RSS against lines, as SVG text (two panels)."""
    width, height, pad = 760, 300, 55
    colours = {"check cold": "#1f77b4", "check warm": "#2ca02c", "fix": "#d62728"}
    xs = [int(row["lines"]) for row in rows]
    x_max = max(xs) * 1.05

    def panel(left: int, key: str, title: str, unit: str) -> list[str]:
        values = [row[label][key] for row in rows for label in COMMANDS]
        y_max = max(values) * 1.15 or 1.0
        w = width / 2 - pad - 10
        h = height - 2 * pad

        def px(x: float) -> float:
            return left + pad + x / x_max * w

        def py(y: float) -> float:
            return pad + h - y / y_max * h

        parts = [
            f'<text x="{left + pad + w / 2:.0f}" y="{pad - 25}" text-anchor="middle" '
            f'font-size="14">{title}</text>',
            f'<line x1="{px(0):.1f}" y1="{py(0):.1f}" x2="{px(x_max):.1f}" y2="{py(0):.1f}" '
            'stroke="black"/>',
            f'<line x1="{px(0):.1f}" y1="{py(0):.1f}" x2="{px(0):.1f}" y2="{py(y_max):.1f}" '
            'stroke="black"/>',
            f'<text x="{left + pad + w / 2:.0f}" y="{height - 15}" text-anchor="middle" '
            'font-size="12">thousand lines</text>',
            f'<text x="{left + 14}" y="{pad + h / 2:.0f}" text-anchor="middle" font-size="12" '
            f'transform="rotate(-90 {left + 14} {pad + h / 2:.0f})">{unit}</text>',
        ]
        for x in xs:
            parts.append(
                f'<text x="{px(x):.1f}" y="{py(0) + 16:.1f}" text-anchor="middle" '
                f'font-size="10">{x / 1000:.0f}</text>'
            )
        for k in range(5):
            y = y_max * k / 4
            parts.append(
                f'<text x="{px(0) - 6:.1f}" y="{py(y) + 4:.1f}" text-anchor="end" '
                f'font-size="10">{y:.0f}</text>'
            )
        for label in COMMANDS:
            points = " ".join(
                f"{px(int(row['lines'])):.1f},{py(row[label][key]):.1f}" for row in rows
            )
            parts.append(
                f'<polyline points="{points}" fill="none" stroke="{colours[label]}" '
                'stroke-width="2"/>'
            )
            for point in points.split():
                cx, cy = point.split(",")
                parts.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{colours[label]}"/>')
        return parts

    body = panel(0, "seconds", "time against size", "seconds")
    body += panel(width // 2, "peak_mb", "peak RSS against size", "MB")
    legend_x = 70
    for i, label in enumerate(COMMANDS):
        x = legend_x + i * 120
        body.append(
            f'<rect x="{x}" y="{height + 5}" width="12" height="12" fill="{colours[label]}"/>'
        )
        body.append(f'<text x="{x + 18}" y="{height + 15}" font-size="12">{label}</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 30}" '
        f'viewBox="0 0 {width} {height + 30}" font-family="sans-serif">\n'
        f'<rect width="100%" height="100%" fill="white"/>\n' + "\n".join(body) + "\n</svg>\n"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-lines", type=int, default=250_000, help="lines of the 1x tree")
    parser.add_argument("--sizes", default="1,2,4,8", help="multiples of the base to measure")
    parser.add_argument("--reps", type=int, default=1, help="rounds per size (median)")
    parser.add_argument("--results", type=Path, default=HERE / ".results")
    parser.add_argument("--plot", type=Path, default=HERE / "scaling.svg")
    args = parser.parse_args()
    import time

    started = time.perf_counter()
    where = machine()
    rows: list[dict[str, Any]] = []
    base_files = files_for(args.base_lines)
    for size in (int(s) for s in args.sizes.split(",") if s.strip()):
        with tempfile.TemporaryDirectory(prefix=f"cm-scale-{size}x-") as scratch:
            root = Path(scratch) / "monorepo"
            files = base_files * size
            lines = build(root, files)
            print(f"{size}x: {files:,} files, {lines:,} lines", flush=True)
            measured = measure(root, Path(scratch), args.reps)
            rows.append({"size": size, "files": files, "lines": lines, **measured})
            for label in COMMANDS:
                print(f"  {label}: {measured[label]}", flush=True)
    report = render(rows, time.perf_counter() - started, where)
    print(report)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "scaling.md").write_text(report, encoding="utf-8")
    (args.results / "scaling.json").write_text(
        json.dumps({"machine": where, "rows": rows}, indent=2)
    )
    args.plot.write_text(svg(rows), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
