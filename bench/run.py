"""Benchmark claude-migrate against ruff, Fixit, grep and LibCST's own parse, side by side.

    python bench/run.py                 # build the corpora if needed, run, print the table
    python bench/run.py --reps 3 --only stdlib,single

Every command runs as a separate process, in rounds that alternate the commands (so a busy
moment of a shared machine lands on all of them alike); the table gives the median with min and
max over the rounds, the peak resident memory of any process of the command's tree, and the
target ratios, each measured within this one run. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
PY = sys.executable
# -I: the corpora hold modules named like the standard library's (the SDK's `types/`), and a
# plain `python -m` or `-c` would import them from the working folder.
PYI = [PY, "-I"]
CM = [*PYI, "-m", "claude_migrate"]
FLOOR = """
import sys, libcst
failed = 0
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        libcst.parse_module(data)
    except Exception:
        failed += 1
print(failed)
"""
# CPython's own floor for the same files: read and `ast.parse` each, in one process. The
# whole-program analysis runs on this parse, so a Claude-dense run is measured against it.
AST_FLOOR = """
import ast, sys
failed = 0
for path in open(sys.argv[1], encoding="utf-8").read().splitlines():
    with open(path, "rb") as handle:
        data = handle.read()
    try:
        ast.parse(data)
    except Exception:
        failed += 1
print(failed)
"""
# Corpora dense in Claude calls: measured against the ast floor and Semgrep.
DENSE = ("anthropic", "generated", "realapps")
CORPORA = ("stdlib", *DENSE)


@dataclass
class Measure:
    label: str
    times: list[float] = field(default_factory=list)
    peak_kb: int = 0
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else float("nan")

    def cell(self) -> str:
        if not self.times:
            return self.note or "n/a"
        if len(self.times) == 1:
            return f"{self.median:.3f}" + (f" ({self.note})" if self.note else "")
        return f"{self.median:.3f} ({min(self.times):.3f}-{max(self.times):.3f})"


def timed(
    command: list[str], cwd: Path | None = None, timeout: float | None = None
) -> tuple[float, int, int]:
    """Run `command`; return (wall seconds, peak RSS in KB of any process of it, exit code)."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=timeout is not None,  # a timed-out tool's workers go with it
    )
    if timeout is None:
        # wait4 reports the largest resident set of the child and of every descendant it waited
        # for (pool workers included): the peak of any one process, not a sum.
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        return elapsed, usage.ru_maxrss, process.returncode
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # Fixit's pool workers too, not only its parent
        process.wait()
        return float("inf"), 0, -9
    return time.perf_counter() - start, 0, process.returncode


# ruff and Fixit live in a virtual environment of their own: Fixit pins click below 8.2, and
# installing it beside claude-migrate would downgrade the click our tests need.
TOOLS = HERE / ".tools"
TOOL_BIN = TOOLS / ("Scripts" if os.name == "nt" else "bin")


def tool(name: str) -> list[str] | None:
    """Return how to run a benchmarked tool (bench/.tools first, then PATH), if installed."""
    found = shutil.which(name, path=str(TOOL_BIN)) or shutil.which(name)
    return [found] if found else None


def ensure_tools(install: bool) -> None:
    missing = [name for name in ("ruff", "fixit", "semgrep") if tool(name) is None]
    if not missing or not install:
        return
    print(f"installing {', '.join(missing)} into {TOOLS} (pass --no-install to skip)", flush=True)
    if not (TOOL_BIN / "python").exists() and not (TOOL_BIN / "python.exe").exists():
        subprocess.run([PY, "-m", "venv", str(TOOLS)], check=True)
    python = str(TOOL_BIN / ("python.exe" if os.name == "nt" else "python"))
    subprocess.run([python, "-m", "pip", "install", "-q", *missing], check=False)


def version_of(command: list[str] | None) -> str:
    if command is None:
        return "not installed"
    out = subprocess.run([*command, "--version"], capture_output=True, text=True)
    return (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else "?"


# Run in a child process: this process stays small, because a child's peak RSS counts the
# image it was forked from before it ran its own program.
PREFILTER = """
import json, sys
from pathlib import Path
from claude_migrate.api import collect_jobs
from claude_migrate.policy.config import PolicyLoader
from claude_migrate.engine.runner import PARSE, SKIP, markers_for, prefilter

root = Path(sys.argv[1])
jobs = collect_jobs([root], PolicyLoader(cwd=root))
kept, stage_one = [], 0
for job in jobs:
    verdict = prefilter(Path(job.path).read_bytes(), job.settings, job.kind, job.path)
    stage_one += verdict != SKIP
    if verdict == PARSE:
        kept.append(job.path)
settings = PolicyLoader().default.settings_for(root / "x.py")
exact, folded = markers_for(settings, "python")
pattern = [m.decode() for m in exact + folded]
print(json.dumps({"kept": kept, "stage_one": stage_one, "files": len(jobs), "pattern": pattern}))
"""


def prefilter_view(root: Path) -> dict[str, object]:
    """Return which files claude-migrate's prefilter keeps (default policy), and its markers."""
    out = subprocess.run(
        [*PYI, "-c", PREFILTER, str(root)], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def ere(markers: list[str]) -> str:
    """Return one extended regular expression matching any marker (`digest(` is literal)."""
    return "|".join(re.sub(r"([.\[\](){}*+?|^$\\])", r"\\\1", m) for m in markers)


def lines_of(paths: list[str]) -> int:
    return sum(Path(p).read_bytes().count(b"\n") for p in paths)


def machine() -> dict[str, str]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 0
    return {
        "platform": platform.platform(),
        "cpu": model,
        "cores": str(cores),
        "python": platform.python_version(),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


def run_corpus(
    name: str, root: Path, reps: int, fixit_timeout: float, work: Path
) -> tuple[dict[str, Measure], dict[str, object]]:
    ruff, fixit, semgrep = tool("ruff"), tool("fixit"), tool("semgrep")
    view = prefilter_view(root)
    kept: list[str] = view["kept"]  # type: ignore[assignment]
    info: dict[str, object] = {
        "files": view["files"],
        "lines": lines_of([str(p) for p in root.rglob("*.py")]),
        "stage_one": view["stage_one"],
        "kept": len(kept),
        "kept_lines": lines_of(kept),
    }
    listing = work / f"{name}.kept"
    listing.write_text("\n".join(kept), encoding="utf-8")
    cold_dir, warm_dir = work / f"{name}-cold-cache", work / f"{name}-warm-cache"
    check = [*CM, "check", "--quiet", "--exit-zero"]
    commands: dict[str, list[str]] = {
        "cold": [*check, "--cache-dir", str(cold_dir), name],
        "warm": [*check, "--cache-dir", str(warm_dir), name],
        "cold --jobs 1": [*check, "--no-cache", "--jobs", "1", name],
        "cold --jobs 2": [*check, "--no-cache", "--jobs", "2", name],
        "libcst floor": [*PYI, "-c", FLOOR, str(listing)],
        "ast floor": [*PYI, "-c", AST_FLOOR, str(listing)],
        "grep -rlE": ["grep", "-rlE", "--include=*.py", ere(view["pattern"]), name],  # type: ignore[arg-type]
    }
    # The project phase's share: the same run with each file resolved alone (a switch for
    # measuring only; cross-module findings are missed without the phase).
    commands["cold --jobs 1 without the project phase"] = [
        "env", "CLAUDE_MIGRATE_PROJECT=0", *check, "--no-cache", "--jobs", "1", name,
    ]  # fmt: skip
    if name == "stdlib":
        # CM106 looks at every file that computes a digest (a cache layer need not name
        # Claude): the one rule whose marker an ordinary tree holds. Its cost, side by side.
        commands["cold --ignore CM106"] = [*check, "--no-cache", "--ignore", "CM106", name]
    if ruff:
        commands["ruff E9,F"] = [
            *ruff, "check", "--isolated", "--no-cache", "--select", "E9,F", "--exit-zero", "-q",
            name,
        ]  # fmt: skip
    if semgrep:
        # Five rules equivalent to CM101, CM102 and CM302 (bench/semgrep.yml), offline: no
        # metrics, no version check, no registry; one job per core like claude-migrate.
        commands["semgrep (5 rules)"] = [
            *semgrep, "scan", "--config", str(HERE / "semgrep.yml"), "--metrics=off",
            "--disable-version-check", "--quiet", "--jobs", str(os.cpu_count() or 1), name,
        ]  # fmt: skip
    results = {label: Measure(label) for label in commands}
    # Warm cache: one untimed cold run fills it.
    # Every command runs beside the corpus, not in it: the SDK's own `types/` package would
    # shadow the standard library's for any Python started inside it.
    where = root.parent
    subprocess.run(
        commands["warm"], cwd=where, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    for _ in range(reps):
        for label, command in commands.items():
            if label == "cold":
                shutil.rmtree(cold_dir, ignore_errors=True)
            elapsed, peak, code = timed(command, cwd=where)
            if code != 0 and not label.startswith(("grep", "semgrep")):
                raise SystemExit(f"{label} failed (exit {code}) in {root}: {' '.join(command)}")
            results[label].times.append(elapsed)
            results[label].peak_kb = max(results[label].peak_kb, peak)
    fixit_measure = Measure("fixit lint")
    if fixit:
        elapsed, _, code = timed([*fixit, "lint", name], cwd=where, timeout=fixit_timeout)
        if elapsed == float("inf"):
            fixit_measure.note = f"> {fixit_timeout:.0f} s (timed out)"
        else:
            fixit_measure.times.append(elapsed)
            fixit_measure.note = "one run" if code in (0, 1) else f"one run, crashed (exit {code})"
    else:
        fixit_measure.note = "not installed"
    results["fixit lint"] = fixit_measure
    return results, info


# A module that builds and documents a client but calls nothing: the ast triage decides it.
NO_CANDIDATE = '''"""Our Anthropic client: callers use `client.messages.create(...)`."""
import anthropic


def make_client() -> anthropic.Anthropic:
    return anthropic.Anthropic(max_retries=3)
'''
# Runs the command line in-process and says whether LibCST's modules were loaded.
LOADS_LIBCST = """
import sys
from claude_migrate.cli import main
try:
    main(["check", "--no-cache", "--exit-zero", "--quiet", sys.argv[1]])
except SystemExit:
    pass
print(any(name.startswith("libcst.") for name in sys.modules))
"""


def loads_libcst(path: Path) -> bool:
    """Return whether checking `path` alone imports LibCST (the pre-commit promise)."""
    out = subprocess.run(
        [*PYI, "-c", LOADS_LIBCST, str(path)], capture_output=True, text=True, check=True
    )
    return out.stdout.strip().splitlines()[-1] == "True"


def run_single(reps: int, root: Path) -> dict[str, Measure]:
    target = next(iter(sorted(root.rglob("claude_*.py"))))
    # Outside any project (no pyproject.toml above it): a pre-commit run on one file of its own.
    plain = Path(tempfile.mkdtemp(prefix="cm-one-")) / "no_candidate.py"
    plain.write_text(NO_CANDIDATE, encoding="utf-8")
    cache = Path(tempfile.mkdtemp(prefix="cm-one-cache-"))
    warm = [*CM, "check", "--cache-dir", str(cache), "--exit-zero", "--quiet", str(target)]
    subprocess.run(warm, cwd=root, stdout=subprocess.DEVNULL, check=True)  # fills the cache
    commands = {
        "check one file": [*CM, "check", "--no-cache", "--exit-zero", "--quiet", str(target)],
        # The pre-commit case a second time: the file and the project unchanged, the cache kept.
        "check one file, warm": warm,
        "check one file without a candidate site": [
            *CM,
            "check",
            "--no-cache",
            "--exit-zero",
            "--quiet",
            str(plain),
        ],  # fmt: skip
        "import libcst": [*PYI, "-c", "import libcst"],
        "python -c pass": [*PYI, "-c", "pass"],
    }
    results = {label: Measure(label) for label in commands}
    for _ in range(reps):
        for label, command in commands.items():
            elapsed, peak, code = timed(command, cwd=root)
            if code != 0:
                raise SystemExit(f"{label} failed (exit {code}): {' '.join(command)}")
            results[label].times.append(elapsed)
            results[label].peak_kb = max(results[label].peak_kb, peak)
    results["check one file without a candidate site"].note = (
        "imports LibCST" if loads_libcst(plain) else "LibCST not imported"
    )
    return results


def run_scaling(base_lines: int, sizes: str, results: Path) -> dict[str, object] | None:
    """Run bench/scaling.py (its own processes); return its rows, or None if it failed."""
    done = subprocess.run(
        [PY, str(HERE / "scaling.py"), "--base-lines", str(base_lines), "--sizes", sizes,
         "--results", str(results)],
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return None
    return json.loads((results / "scaling.json").read_text())  # type: ignore[no-any-return]


def ratio(a: Measure, b: Measure) -> float:
    return a.median / b.median if b.median and b.times and a.times else float("nan")


def verdict(value: float, limit: float, at_most: bool) -> str:
    if value != value:  # nan
        return "not measured"
    met = value <= limit if at_most else value >= limit
    if met:
        return "met"
    miss = value / limit if at_most else limit / value
    return f"MISSED by {miss:.2f}x"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5, help="rounds of alternating runs")
    parser.add_argument("--only", default="stdlib,anthropic,generated,realapps,single,scaling")
    parser.add_argument(
        "--scaling-base-lines", type=int, default=250_000, help="lines of the 1x monorepo"
    )
    parser.add_argument("--scaling-sizes", default="1,2,4,8")
    parser.add_argument("--fixit-timeout", type=float, default=60.0)
    parser.add_argument("--corpus-dir", type=Path, default=HERE / ".corpus")
    parser.add_argument("--results", type=Path, default=HERE / ".results")
    parser.add_argument("--no-install", action="store_true", help="don't pip install ruff/fixit")
    args = parser.parse_args()
    chosen = [c.strip() for c in args.only.split(",") if c.strip()]
    ensure_tools(not args.no_install)
    started = time.perf_counter()
    before = machine()
    print(f"machine: {before}", flush=True)
    roots = {}
    for name in CORPORA:
        if name in chosen or (name == "generated" and "single" in chosen):
            print(f"corpus {name}: ", end="", flush=True)
            built = subprocess.run(
                [PY, str(HERE / "corpus.py"), name, str(args.corpus_dir)],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if built.returncode != 0:
                # corpus.py says what is missing (a snapshot to fetch, for realapps).
                print(f"not built:\n{built.stderr.strip()}", file=sys.stderr)
                return 2
            roots[name] = Path(built.stdout.strip())
            print(roots[name], flush=True)
    tables: dict[str, tuple[dict[str, Measure], dict[str, object]]] = {}
    with tempfile.TemporaryDirectory(prefix="cm-bench-") as scratch:
        for name in CORPORA:
            if name in chosen:
                reps = args.reps if name == "stdlib" else max(1, (args.reps + 1) // 2)
                print(f"running {name} ({reps} rounds)...", flush=True)
                tables[name] = run_corpus(
                    name, roots[name], reps, args.fixit_timeout, Path(scratch)
                )
        single = run_single(args.reps + 2, roots["generated"]) if "single" in chosen else None
    scaling = None
    if "scaling" in chosen:
        print("running the scaling series...", flush=True)
        scaling = run_scaling(args.scaling_base_lines, args.scaling_sizes, args.results)
    after = machine()
    report = render(tables, single, before, after, time.perf_counter() - started, scaling)
    print(report)
    args.results.mkdir(parents=True, exist_ok=True)
    (args.results / "latest.md").write_text(report, encoding="utf-8")
    raw = {
        name: {
            "info": info,
            "runs": {
                m.label: {"times": m.times, "peak_kb": m.peak_kb, "note": m.note}
                for m in res.values()
            },
        }
        for name, (res, info) in tables.items()
    }
    if single:
        raw["single"] = {
            "runs": {m.label: {"times": m.times, "peak_kb": m.peak_kb} for m in single.values()}
        }
    (args.results / "latest.json").write_text(
        json.dumps({"machine": before, "results": raw}, indent=2)
    )
    return 0


def render(
    tables: dict[str, tuple[dict[str, Measure], dict[str, object]]],
    single: dict[str, Measure] | None,
    before: dict[str, str],
    after: dict[str, str],
    took: float,
    scaling: dict[str, object] | None = None,
) -> str:
    from claude_migrate import __version__

    out = [
        f"claude-migrate {__version__}; {version_of(tool('ruff'))}; {version_of(tool('fixit'))}; "
        f"semgrep {version_of(tool('semgrep'))}; "
        f"libcst {importlib.metadata.version('libcst')}",
        f"{before['cpu']}, {before['cores']} cores, {before['platform']}, "
        f"Python {before['python']}",
        f"load average before {before['load']}, after {after['load']}; "
        f"the whole run took {took:.0f} s",
        "",
        "Seconds: median (min-max) over alternating rounds; "
        "peak RSS of any process of the command.",
        "",
    ]
    for name, (results, info) in tables.items():
        out.append(
            f"### {name}: {info['files']} files, {info['lines']:,} lines; "
            f"prefilter stage one keeps {info['stage_one']}, "
            f"stage two {info['kept']} ({info['kept_lines']:,} lines)"
        )
        out.append("")
        out.append("| command | seconds | peak RSS MB |")
        out.append("|---|---|---|")
        for m in results.values():
            peak = f"{m.peak_kb / 1024:.0f}" if m.peak_kb else ""
            out.append(f"| {m.label} | {m.cell()} | {peak} |")
        out.append("")
    if single:
        out.append("### one file (the pre-commit case)")
        out.append("")
        out.append("| command | seconds | peak RSS MB |")
        out.append("|---|---|---|")
        for m in single.values():
            out.append(f"| {m.label} | {m.cell()} | {m.peak_kb / 1024:.0f} |")
        out.append("")
    if scaling:
        out.append("### scaling (bench/scaling.py; details in bench/.results/scaling.md)")
        out.append("")
        out.append("| size | lines | command | seconds | s per 1k lines | peak RSS MB |")
        out.append("|---|---|---|---|---|---|")
        for srow in scaling["rows"]:  # type: ignore[attr-defined]
            for label in ("check cold", "check warm", "fix"):
                m = srow[label]
                out.append(
                    f"| {srow['size']}x | {srow['lines']:,} | {label} | {m['seconds']:.2f} | "
                    f"{m['seconds'] / (srow['lines'] / 1000):.4f} | {m['peak_mb']:.0f} |"
                )
        out.append("")
    out.append("### targets (ratios of medians from this run)")
    out.append("")
    out.append("| target | measured | limit | verdict |")
    out.append("|---|---|---|---|")
    for text, value, limit, at_most in target_rows(tables, single, scaling):
        sign = "<=" if at_most else ">="
        out.append(f"| {text} | {value:.2f} | {sign} {limit} | {verdict(value, limit, at_most)} |")
    if single:
        note = single["check one file without a candidate site"].note
        met = "met" if note == "LibCST not imported" else "MISSED"
        out.append(
            f"| one file without a candidate site never imports LibCST | {note} | - | {met} |"
        )
    return "\n".join(out) + "\n"


Row = tuple[str, float, float, bool]


def target_rows(
    tables: dict[str, tuple[dict[str, Measure], dict[str, object]]],
    single: dict[str, Measure] | None,
    scaling: dict[str, object] | None,
) -> list[Row]:
    """Return every target as (what, measured ratio, limit, whether the limit is a maximum)."""
    rows: list[Row] = []
    if "stdlib" in tables:
        r = tables["stdlib"][0]
        if "ruff E9,F" in r:
            rows.append(
                ("stdlib: cold / ruff --select E9,F", ratio(r["cold"], r["ruff E9,F"]), 0.3, True)
            )
        rows.append(
            ("stdlib: cold / grep -rlE (the markers)", ratio(r["cold"], r["grep -rlE"]), 5.0, True)
        )
    for name in DENSE:
        if name in tables:
            rows.extend(_dense_rows(name, tables[name][0]))
    for name, (r, info) in tables.items():
        rows.append(
            (f"{name}: project phase share, cold --jobs 1 / the same without the phase",
             ratio(r["cold --jobs 1"], r["cold --jobs 1 without the project phase"]), 1.1, True)
        )  # fmt: skip
        if info["stage_one"]:  # else no file passes the prefilter: nothing to cache
            rows.append((f"{name}: warm / cold", ratio(r["warm"], r["cold"]), 0.1, True))
    if single:
        one = ratio(single["check one file"], single["import libcst"])
        rows.append(("one Claude file with findings: check / import libcst", one, 1.2, True))
        again = ratio(single["check one file, warm"], single["check one file"])
        rows.append(("one Claude file, warm / cold", again, 0.5, True))
    if scaling:
        rows.extend(_scaling_rows(scaling))
    rows.append(_worst_peak(tables, single))
    return rows


def _dense_rows(name: str, r: dict[str, Measure]) -> list[Row]:
    cold = r["cold --jobs 1"]
    rows: list[Row] = [
        (f"{name}: cold --jobs 1 / ast floor of kept files", ratio(cold, r["ast floor"]), 2.0,
         True),
        (f"{name}: cold --jobs 1 / LibCST floor of kept files", ratio(cold, r["libcst floor"]), 1.0,
         True),
    ]  # fmt: skip
    if "semgrep (5 rules)" in r:
        rows.append((f"{name}: cold --jobs 1 / Semgrep (5 rules)",
                     ratio(r["cold --jobs 1"], r["semgrep (5 rules)"]), 0.5, True))  # fmt: skip
    return rows


def _scaling_rows(scaling: dict[str, object]) -> list[Row]:
    srows = scaling["rows"]  # type: ignore[index]
    first, last = srows[0], srows[-1]  # type: ignore[index]
    size = last["size"] / first["size"]
    rows: list[Row] = []
    for label in ("check cold", "check warm", "fix"):
        grown = last[label]["seconds"] / first[label]["seconds"]
        rows.append((f"scaling, {label}: time at {last['size']}x / at {first['size']}x", grown,
                     round(size * 8.5 / 8, 2), True))  # fmt: skip
    worst = max(last[label]["peak_mb"] for label in ("check cold", "check warm", "fix"))
    rows.append((f"scaling: peak RSS MB of any process at {last['size']}x", worst, 400, True))
    return rows


def _worst_peak(
    tables: dict[str, tuple[dict[str, Measure], dict[str, object]]],
    single: dict[str, Measure] | None,
) -> Row:
    peaks = [
        (name, m.peak_kb / 1024)
        for name, (r, _) in tables.items()
        for m in r.values()
        if m.label.startswith(("cold", "warm"))
    ]
    if single:
        peaks.append(("one file", single["check one file"].peak_kb / 1024))
    worst = max(peaks, key=lambda p: p[1]) if peaks else ("none", float("nan"))
    return (f"peak RSS MB of any claude-migrate process (worst: {worst[0]})", worst[1], 400, True)


if __name__ == "__main__":
    import importlib.metadata

    sys.exit(main())
