"""Recipes for the benchmark's corpora, built locally (never committed) under bench/.corpus/.

- `stdlib`: a copy of the running interpreter's standard library (`.py` files, no
  site-packages): an ordinary tree that never calls Claude.
- `anthropic`: the installed `anthropic` package's own source: dense in Claude's names.
- `realapps`: real applications that call Claude through wrappers, settings and base classes,
  each laid out whole (`.py` files) at the commit `realapps.tsv` names, from a snapshot fetched
  beforehand into `$CLAUDE_MIGRATE_MIRROR/OWNER+NAME/repo` (default `bench/.mirror`; a bare git
  repository such as `git clone --mirror` makes). Their code is read there, never committed.
- `generated`: a few thousand modules, one in five calling Claude in every shape the fixtures
  hold (the SDK's clients, Bedrock, LangChain, LiteLLM, raw HTTP; each copy with its own values
  and a function of its own), the rest plain modules written from a seeded template.

Each corpus root holds an empty `.git` folder, so it is a project of its own: the repository's
`.gitignore` (which ignores bench/.corpus/) does not hide its files from the tools measured.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sys
import sysconfig
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FIXTURES = REPO / "fixtures"
RECIPE_VERSION = 2
GENERATED_MODULES = 3000
CLAUDE_SHARE = 5  # one module in this many calls Claude


def _stamp(root: Path) -> dict[str, object]:
    try:
        return json.loads((root / ".corpus.json").read_text())  # type: ignore[no-any-return]
    except (OSError, ValueError):
        return {}


def _finish(root: Path, stamp: dict[str, object]) -> None:
    (root / ".git").mkdir(exist_ok=True)
    (root / ".corpus.json").write_text(json.dumps(stamp))


def _copy_py(source: Path, root: Path, skip: set[str]) -> None:
    for folder, dirs, files in os.walk(source):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        for name in files:
            if name.endswith(".py"):
                src = Path(folder) / name
                dst = root / src.relative_to(source)
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, dst)


def build_stdlib(root: Path) -> None:
    source = Path(sysconfig.get_paths()["stdlib"])
    _copy_py(source, root, {"site-packages", "__pycache__"})


def build_anthropic(root: Path) -> None:
    import anthropic

    _copy_py(Path(anthropic.__file__).parent, root, {"__pycache__"})


def _anthropic_version() -> str:
    try:
        import anthropic

        return str(anthropic.__version__)
    except ImportError:  # pragma: no cover - the benchmark says so and stops
        return "missing"


# The generated corpus -------------------------------------------------------------------------

_NUMBER = re.compile(r"(?<=temperature=)\d+(\.\d+)?|(?<=\"temperature\": )\d+(\.\d+)?")


def _claude_shapes() -> list[str]:
    """Every fixture case (not the goldens): each is one module of Claude calls."""
    shapes = []
    for path in sorted(FIXTURES.rglob("*.py")):
        if ".fixed." in path.name:
            continue
        text = path.read_text(encoding="utf-8")
        if "skip-file" in text:
            continue
        shapes.append(text)
    return shapes


def _plain_module(rng: random.Random, n: int) -> str:
    """Return a module of ordinary code: imports, a dataclass, functions with loops and dicts."""
    words = ["order", "user", "item", "price", "total", "cache", "queue", "record", "batch", "page"]
    name = f"{rng.choice(words).title()}{rng.choice(words).title()}{n}"
    lines = [
        f'"""Generated plain module {n}: {name}."""',
        "from __future__ import annotations",
        "",
        "import dataclasses",
        "import json",
        "import logging",
        "from collections import defaultdict",
        "",
        "log = logging.getLogger(__name__)",
        f"LIMIT = {rng.randint(10, 1000)}",
        "",
        "",
        "@dataclasses.dataclass",
        f"class {name}:",
    ]
    fields = rng.sample(words, 4)
    lines += [f"    {f}: int = {rng.randint(0, 99)}" for f in fields]
    lines += [
        "",
        "    def as_dict(self) -> dict[str, int]:",
        "        return dataclasses.asdict(self)",
        "",
    ]
    for f in range(rng.randint(3, 8)):
        a, b = rng.sample(words, 2)
        lines += [
            "",
            f"def {a}_{b}_{f}(rows: list[dict[str, int]], factor: float = {rng.random():.2f})"
            " -> dict[str, float]:",
            f'    """Sum `{a}` per `{b}`, scaled by factor."""',
            "    totals: dict[str, float] = defaultdict(float)",
            "    for row in rows:",
            f"        key = str(row.get({b!r}, 0))",
            f"        if row.get({a!r}, 0) > LIMIT:",
            f'            log.warning("%s over the limit: %s", key, row[{a!r}])',
            "            continue",
            f"        totals[key] += row.get({a!r}, 0) * factor",
            "    ordered = sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))",
            "    return {k: round(v, 2) for k, v in ordered[: LIMIT // 10 or 1]}",
        ]
    lines += [
        "",
        "",
        "def dump(records: list[dict[str, int]]) -> str:",
        f"    return json.dumps([{name}(**r).as_dict() for r in records], indent=2)",
        "",
    ]
    return "\n".join(lines)


def build_generated(root: Path) -> None:
    rng = random.Random(20240601)
    shapes = _claude_shapes()
    for n in range(GENERATED_MODULES):
        package = root / f"pkg{n // 100:02d}"
        package.mkdir(parents=True, exist_ok=True)
        if n % 100 == 0:
            (package / "__init__.py").write_text("")
        if n % CLAUDE_SHARE == 0:
            shape = shapes[(n // CLAUDE_SHARE) % len(shapes)]
            text = _NUMBER.sub(lambda _: f"{rng.choice([0.0, 0.1, 0.3, 0.7, 1.0])}", shape)
            text += f"\n\ndef generated_{n}():\n    return {n}\n"
            name = f"claude_{n}.py"
        else:
            text = _plain_module(rng, n)
            name = f"plain_{n}.py"
        (package / name).write_text(text, encoding="utf-8")


REALAPPS = HERE / "realapps.tsv"


def _realapps() -> list[tuple[str, str]]:
    rows = REALAPPS.read_text(encoding="utf-8").splitlines()[1:]
    return [(row.split("\t")[0], row.split("\t")[1]) for row in rows if row.strip()]


def _check_snapshots() -> None:
    mirror = Path(os.environ.get("CLAUDE_MIGRATE_MIRROR", HERE / ".mirror"))
    for repo, _commit in _realapps():
        git = mirror / repo.replace("/", "+") / "repo"
        if not git.is_dir():
            raise SystemExit(f"realapps: no snapshot of {repo} at {git}: fetch it first")


def build_realapps(root: Path) -> None:
    import subprocess

    mirror = Path(os.environ.get("CLAUDE_MIGRATE_MIRROR", HERE / ".mirror"))
    for repo, commit in _realapps():
        git = mirror / repo.replace("/", "+") / "repo"
        dest = root / repo.replace("/", "+")
        listing = subprocess.run(
            ["git", "-C", str(git), "ls-tree", "-r", "-z", commit],
            capture_output=True, check=True,
        ).stdout  # fmt: skip
        for entry in listing.split(b"\0"):
            if not entry:
                continue
            meta, _, path = entry.partition(b"\t")
            _mode, kind, blob = meta.decode().split(" ")
            if kind != "blob" or not path.endswith(b".py"):
                continue
            target = dest / os.fsdecode(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            data = subprocess.run(
                ["git", "-C", str(git), "cat-file", "blob", blob], capture_output=True, check=True
            ).stdout
            target.write_bytes(data)


RECIPES: dict[str, tuple[Callable[[Path], None], Callable[[], dict[str, object]]]] = {
    "stdlib": (build_stdlib, lambda: {"python": sys.version}),
    "anthropic": (build_anthropic, lambda: {"anthropic": _anthropic_version()}),
    "realapps": (build_realapps, lambda: {"apps": _realapps()}),
    "generated": (
        build_generated,
        lambda: {
            "modules": GENERATED_MODULES,
            "fixtures": sum(len(s) for s in _claude_shapes()),
        },
    ),
}


def ensure(name: str, base: Path) -> Path:
    """Return the corpus folder, building it when missing or built by another recipe."""
    build, describe = RECIPES[name]
    root = base / name
    # As JSON reads it back (a tuple comes back a list), so an unchanged corpus is kept.
    stamp = json.loads(json.dumps({"recipe": RECIPE_VERSION, **describe()}))
    if _stamp(root) != stamp:
        if name == "realapps":
            _check_snapshots()  # before the old layout is removed
        shutil.rmtree(root, ignore_errors=True)
        root.mkdir(parents=True)
        build(root)
        _finish(root, stamp)
    return root


if __name__ == "__main__":
    # python bench/corpus.py NAME BASE: build (if needed) and print the corpus folder.
    print(ensure(sys.argv[1], Path(sys.argv[2])))
