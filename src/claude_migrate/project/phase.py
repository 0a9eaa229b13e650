"""The project phase: what modules tell each other, decided before any file is checked.

Before the file phase, the files that can matter are summarised with CPython's `ast`
(`summary.py`): those that mention Claude (the registry's markers), the project modules they
import, and the files that mention a name those summaries export (so a module calling `ask()`
that never says "anthropic" is still found); the set grows until nothing new is added. Then,
iterating to a fixed point (import cycles and recursive wrappers only stop it growing):

- which module-level names hold a Claude client, a constant or a literal list/dict, and which
  functions return a client (factories), following re-exports, relative imports, aliases and
  `from x import *` (with `__all__`);
- which parameters of which functions, methods and classes reach a parameter of a Claude call
  (wrappers), directly, through `self.<attr>` set in `__init__`, through another wrapper or by
  forwarding `**kwargs`, with the Claude call they reach;
- which un-annotated parameters an in-project caller binds to a Claude client (and whether any
  caller binds them to a proven other client, which makes them ambiguous);
- which parameter defaults some in-project call relies on.

Each file then gets a `ProjectView`: the derived facts of its own module and of the modules it
imports (transitively), plain data that crosses to worker processes, with a digest the result
cache keys on. The file phase's resolver (`symbols.py`) answers from it; with no view (a single
file, stdin) it is the same resolver, knowing only its module.
"""

from __future__ import annotations

import ast
import enum
import functools
import gc
import hashlib
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from claude_migrate.core.deadline import OverTime, deadline
from claude_migrate.core.project_view import FIELD_SPECIFIERS, SUPER
from claude_migrate.core.source import as_python_reads, python_text, read_regular
from claude_migrate.core.templates import format_pieces
from claude_migrate.notebook import NOTEBOOK_KIND, NOTEBOOK_SUFFIX
from claude_migrate.project.handed import held_apart
from claude_migrate.project.kinds import (
    Bound,
    Choice,
    Class,
    Client,
    Const,
    DictLit,
    Foreign,
    Func,
    Items,
    Module,
    Obj,
    Param,
    Ref,
    SelfParam,
    Super,
    Sym,
)
from claude_migrate.project.summary import summarise_tree
from claude_migrate.project.triage import Sites, read_sites
from claude_migrate.targets import (
    CANONICAL,
    CONSTRUCTORS,
    MARKERS,
    MAX_TOKENS,
    MODEL,
    ROUTER_MARKERS,
    STREAM,
    TARGETS,
    TEMPERATURE,
    Target,
    anthropic_endpoint,
    described,
    is_claude_model,
    is_sdk_client_class,
    langchain_target,
    sent_another_model,
)
from claude_migrate.targets.aisuite import (
    AISUITE_CLIENT,
    AISUITE_CLIENTS,
    AISUITE_METHODS,
    provider_target,
)
from claude_migrate.targets.anthropic_sdk import (
    SDK_METHODS,
    is_first_party_client,
    serves_other_models,
)
from claude_migrate.targets.bedrock import BEDROCK_METHODS, BEDROCK_RUNTIME, BOTO3_CLIENT_FACTORIES
from claude_migrate.targets.instructor import (
    INSTRUCTOR_FROM_ANTHROPIC,
    INSTRUCTOR_FROM_PROVIDER,
    INSTRUCTOR_METHODS,
    INSTRUCTOR_ON_ANTHROPIC,
    PROVIDER_PREFIX,
)
from claude_migrate.targets.openai_compat import OTHER_CLIENTS_LACKING, PLAIN_DATA_LACKING

# Library functions that make a client over Claude's from an SDK client or a provider name.
WRAPPING_CLIENTS = frozenset((*INSTRUCTOR_FROM_ANTHROPIC, *INSTRUCTOR_FROM_PROVIDER))
PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
# Parameters whose imported constants are reported once, where they are assigned.
READ_AT_DEFINITION = (TEMPERATURE, MAX_TOKENS, MODEL)
# The nucleus-sampling keyword a caller may hand a wrapper's `**kwargs` beside temperature.
TOP_P = "top_p"
# What reads a module's Claude calls after the fixed point (`project/records.py`'s `records`):
# given by the run, since that module reads this one.
RecordsOf = Callable[["Project", str, int | None], Sequence[Any]]
# A module whose calls the phase reads: one naming Claude, or a library that serves Claude's
# models among others (its calls reach Claude when a caller passes a Claude model).
SCAN_MARKERS = (*MARKERS, *ROUTER_MARKERS)
# Every name a Claude parameter goes by in any target (`model`, `modelId`, `max_tokens`...).
CLAUDE_PARAMETERS = frozenset(
    name for target in TARGETS.values() for c in CANONICAL for name in target.names(c)
)
# Functions POSTing a JSON body whose calls the phase follows (`requests.post(url, json=body)`):
# the body's entries are the request's parameters, as a spread dict's are.
_HTTP_POSTS: Final = frozenset(("requests.post", "requests.api.post", "httpx.post"))
# Executor methods that call the function they are handed (`pool.submit(fn, *args)`), with the
# index of that function among their positional arguments.
_SUBMITTERS: Final = {"submit": 0, "run_in_executor": 1, "to_thread": 0}
# Of those, the ones that pass on keywords too and are known by their import path: an SDK
# request method handed to one is a Claude call made there (`calls.HANDOFFS`, the file's side).
_HANDOFFS: Final = {"asyncio.to_thread": 0}
_HANDOFF_NAMES: Final = frozenset(name.rsplit(".", 1)[1] for name in _HANDOFFS)
# Executor methods that call the function handed to them: `submit` with the keywords that follow
# it, `run_in_executor` with none (its request is then a `functools.partial`).
_EXECUTOR_METHODS: Final = {"submit": 0, "run_in_executor": 1}
# The methods that change a dict's items in place.
_DICT_CHANGES = "update|setdefault|pop|popitem|clear|__setitem__|__delitem__"
# Methods of a dict that read it and change nothing.
_DICT_READS = frozenset({"get", "keys", "items", "values", "copy", "__contains__"})
MAX_DEPTH = 24
# How many functions up a model passed on from parameter to parameter is followed to the
# callers that give it (`Project._claude_by_callers`).
MAX_PASSED_ON = 4
MAX_ROUNDS = 8
# How deep a parameter path goes (`options.inference_config[maxTokens]` is two steps).
MAX_PATH = 3
# Expressions a function's summary is walked through for model tables, and keys a table holds.
MAX_TABLE_WALK = 2000
MAX_TABLE_KEYS = 64
# Parts of an expression `_contains_expr` looks through before it gives up (and says yes).
MAX_MENTION_PARTS = 5000
# How many classes or functions a value chosen at run time may be one of (`PROVIDERS[name]`).
MAX_CHOICES = 8
# The most classes whose instances a method reading a class attribute is followed on.
MAX_SUBCLASSES = 32
# Objects whose attributes are only what code stores in them (`_local = threading.local()`, then
# `_local.client = client`): reading one is reading what the module stored.
ATTRIBUTE_HOLDERS = frozenset({"threading.local", "types.SimpleNamespace", "argparse.Namespace"})
# Library bases that give a class no attributes of its own: a class-body value of a class with
# only these (and project classes) as bases is what its instances read.
PLAIN_BASES = frozenset({"abc.ABC", "typing.Generic", "typing.Protocol"})
# Top-level names a package's file imports from an installed library, never from a module beside
# it (`sibling_module`): the standard library's, and the SDKs, frameworks and HTTP clients whose
# names a provider package's own modules are commonly given (`providers/anthropic.py`,
# `providers/openai.py`).
LIBRARY_NAMES = frozenset(sys.stdlib_module_names) | {
    "anthropic", "openai", "boto3", "botocore", "litellm", "instructor", "langchain",
    "langchain_anthropic", "langchain_aws", "langchain_community", "langchain_core",
    "langchain_openai", "llama_index", "agno", "crewai", "google", "vertexai", "mistralai",
    "groq", "ollama", "cohere", "together", "fireworks", "huggingface_hub", "transformers",
    "requests", "httpx", "aiohttp", "pydantic", "pydantic_ai", "dspy", "autogen", "smolagents",
    "haystack", "semantic_kernel", "magentic", "marvin", "outlines", "guidance",
}  # fmt: skip
# A run over at most this many files (a pre-commit hook's staged files) reads the project
# modules they import from disk; a larger run is given the tree, whose modules are its own files.
DISK_READ_FILES = 500


# Where modules live ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=65536)
def _has_project_file(folder: Path) -> bool:
    return any(os.path.isfile(os.path.join(folder, name)) for name in PROJECT_FILES)


@functools.lru_cache(maxsize=65536)
def _is_package(folder: Path) -> bool:
    return os.path.isfile(os.path.join(folder, "__init__.py"))


def project_folders(paths: Iterable[Path]) -> list[Path]:
    """Return the folders whose modules belong to the project, read from disk if not given.

    The folder of the nearest `pyproject.toml`/`setup.cfg`/`setup.py` above each path; for a
    path in no such project, its outermost package. Installed packages beside it (a
    site-packages folder) are not the project: a module of theirs is an outside name.
    """
    found: list[Path] = []
    seen: set[Path] = set()
    for path in paths:
        folder = path if path.is_dir() else path.parent
        if folder in seen:
            continue
        seen.add(folder)
        for candidate in (folder, *folder.parents):
            if _has_project_file(candidate):
                break
        else:
            candidate = folder
            while _is_package(candidate.parent) and candidate.parent != candidate:
                candidate = candidate.parent
        if candidate not in found:
            found.append(candidate)
    return found


def import_roots(paths: Iterable[Path]) -> list[Path]:
    """Return the folders imports are resolved from, nearest first.

    The folder of the nearest `pyproject.toml`/`setup.cfg`/`setup.py` above each path, its
    `src/` when there is one, and the folder above the outermost package (`__init__.py`) of
    each path; then the project folders further up (a project nested in another, or a
    `setup.cfg` inside a namespace package's folder, which `from pkg.llm import ...` run from
    the outer project still imports through), for names the nearer roots do not hold.
    """
    roots: list[Path] = []
    outer: list[Path] = []

    def add(folder: Path, into: list[Path]) -> None:
        if folder not in roots and folder not in into:
            into.append(folder)

    seen: set[Path] = set()
    for path in paths:
        folder = path if path.is_dir() else path.parent
        if folder in seen:
            continue
        seen.add(folder)
        into = roots
        for candidate in (folder, *folder.parents):
            if _has_project_file(candidate):
                # A `src/` layout holds the packages; a `src/` that is itself a package
                # (`from src.llm import ...`) is imported from the project folder.
                if (candidate / "src").is_dir() and not _is_package(candidate / "src"):
                    add(candidate / "src", into)
                add(candidate, into)
                into = outer
        top = folder
        while _is_package(top) and top.parent != top:
            top = top.parent
        add(top, roots)
    return roots + [folder for folder in outer if folder not in roots]


# The prefix of a notebook's module name: `-` makes it a name no import statement can spell.
NOTEBOOK_MODULE = "-notebook-"
# The prefix of the module name of a script whose file name no import statement can spell
# (`02_setup.py`, `run-demo.py`): run as `python 02_setup.py`, imported by nothing.
SCRIPT_MODULE = "-script-"


def module_name(path: Path, roots: Sequence[Path]) -> tuple[str, bool] | None:
    """Return a file's dotted module name, and whether it is a package's `__init__.py`.

    The name under the deepest root holding it, as Python names a module imported from that
    `sys.path` entry, except a root reached only through folders that are not packages, when
    another root above holds the file too: a script's folder (`tools/`, the first `sys.path`
    entry of `python tools/x.py`) or a namespace package's folder (`ns/sub/`). There the file
    is named from the root above (`tools.common`, `ns.sub.conf`), as it is imported from
    there, so two script folders' `common.py` stay two modules and a namespace package's
    relative imports resolve. A project folder and its `src/` are always taken.
    """
    if path.suffix == NOTEBOOK_SUFFIX:
        return _notebook_name(path), False
    if (not path.stem.isidentifier() and path.stem != "__init__") or (
        path.suffix == ".pyw" and path.with_suffix(".py").exists()
    ):
        # (Python imports a `.py` file before the `.pyw` beside it: that one is never imported.)
        return SCRIPT_MODULE + re.sub(r"\W", "_", str(path)), False
    fallback: tuple[str, bool] | None = None
    for root, taken in _roots_above(path.parent, tuple(roots)):
        named = _name_under(path, root)
        if named is None:
            return fallback
        if taken:
            return named
        if fallback is None:
            fallback = named  # a script's or a namespace folder: taken if nothing holds it above
    return fallback


@functools.lru_cache(maxsize=65536)
def _roots_above(folder: Path, roots: tuple[Path, ...]) -> tuple[tuple[Path, bool], ...]:
    """Return the roots holding a file of `folder`, deepest first, each with whether a file
    under it is named from it whatever lies above (`module_name`); none after the first that
    is. Once per folder: every file of a folder asks the same."""
    wanted = _root_set(roots)
    found: list[tuple[Path, bool]] = []
    through_packages = False  # whether a package lies between the folder's files and the root
    below: Path | None = None
    for root in (folder, *folder.parents):
        if below is not None and _is_package(below):
            through_packages = True
        below = root
        if root not in wanted:
            continue
        taken = through_packages or _is_import_root(root)
        found.append((root, taken))
        if taken:
            break
    return tuple(found)


def _notebook_name(path: Path) -> str:
    """Return the module name of a notebook: a script of its folder that nothing can import (no
    `import` statement spells a name with its prefix), one per notebook of the run."""
    return NOTEBOOK_MODULE + re.sub(r"\W", "_", str(path))


def _name_under(path: Path, root: Path) -> tuple[str, bool] | None:
    parts = list(path.relative_to(root).with_suffix("").parts)
    is_package = bool(parts) and parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    if parts and all(p.isidentifier() for p in parts):
        return ".".join(parts), is_package
    return None


def _is_import_root(folder: Path) -> bool:
    """Return whether a folder is a project's own (`pyproject.toml`...) or that project's `src/`."""
    return _has_project_file(folder) or (folder.name == "src" and _has_project_file(folder.parent))


def sibling_module(folder: Path, top: str, roots: Sequence[Path]) -> str | None:
    """Return the module `import top` loads in a script in `folder`, if not plainly `top`.

    Python runs a script with its folder first on `sys.path`, so in a folder that is not a
    package, `import helpers` loads the `helpers.py` or `helpers/` package beside it, whatever
    else on the path has that name; a `helpers/` folder without `__init__.py` there is a
    namespace package only if no module of that name is on the path at all. Its module name is the
    one `module_name` gives that file (`app.jobs.helpers`); None when there is no such file or
    the name is plainly `top` anyway.

    In a package's folder, the file is a script only when run by its path (`python
    pkg/app.py`); imported as `pkg.app`, its `import helpers` is the top-level `helpers`. The
    module beside it is taken there only when no root holds a `helpers` at all: otherwise the
    import would fail, so the file runs as a script (an `__init__.py` added beside scripts does
    not change what they import). A library's name (`LIBRARY_NAMES`: `import anthropic` in a
    provider package holding its own `anthropic.py`) is the library's there.
    """
    if not top.isidentifier() or top not in _top_names(folder):
        return None
    if _is_package(folder) and (top in LIBRARY_NAMES or _find_module_file(top, roots) is not None):
        return None
    base = folder / top
    if os.path.isfile(base / "__init__.py"):
        named = module_name(base / "__init__.py", roots)
    elif os.path.isfile(folder / f"{top}.py"):
        named = module_name(folder / f"{top}.py", roots)
    elif os.path.isdir(base) and _find_module_file(top, [r for r in roots if r != folder]) is None:
        named = module_name(base / "__init__.py", roots)  # a namespace package, if no module is
    else:
        return None
    if named is None or named[0] == top:
        return None
    return named[0]


@functools.lru_cache(maxsize=16)
def _root_set(roots: tuple[Path, ...]) -> frozenset[Path]:
    return frozenset(roots)


@functools.lru_cache(maxsize=4096)
def _top_names(root: Path) -> frozenset[str]:
    """Return the names a root holds at its top (`x` for `x.py` and for a folder `x/`)."""
    try:
        entries = os.listdir(root)
    except OSError:
        return frozenset()
    return frozenset(e[:-3] if e.endswith(".py") else e for e in entries)


def _find_module_file(name: str, roots: Sequence[Path]) -> Path | None:
    """Return the file of a dotted module name under the roots, if there is one.

    Each part is looked for as Python's `FileFinder` does, in the folders of the part before
    it: a package (`x/__init__.py`) beats a module (`x.py`) in the same folder, and a folder
    without `__init__.py` is a namespace package, which loses to a module anywhere on the path
    (the next root is tried). A module has no submodules: `llm/client.py` beside `llm.py` is
    not `llm.client`, and most names asked for are a module's attributes (`pkg.module.Client`).
    """
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts):
        return None
    # (root, folder): where the next part is looked for. Strings, not `Path` arithmetic: the
    # project phase asks for thousands of names.
    places = [(root, str(root)) for root in roots if parts[0] in _top_names(root)]
    for part in parts[:-1]:
        namespace: list[tuple[Path, str]] = []
        for root, folder in places:
            kind = _entry_kind(os.path.join(folder, part))
            if kind == PACKAGE:
                places = [(root, os.path.join(folder, part))]
                break
            if kind == MODULE:
                return None  # a module: nothing is a file under it
            if kind == NAMESPACE:
                namespace.append((root, os.path.join(folder, part)))
        else:
            if not namespace:
                return None
            places = namespace
    for root, folder in places:
        base = os.path.join(folder, parts[-1])
        for candidate in (os.path.join(base, "__init__.py"), base + ".py"):
            if os.path.isfile(candidate):
                found = Path(candidate)
                if _inside_root(found, root):
                    return found
    return None


PACKAGE, MODULE, NAMESPACE, NOTHING = range(4)


@functools.lru_cache(maxsize=65536)
def _entry_kind(base: str) -> int:
    """Return what `import` finds at a path without its suffix: a package, a module, a
    namespace package's folder, or nothing (in `FileFinder`'s order)."""
    if os.path.isfile(os.path.join(base, "__init__.py")):
        return PACKAGE
    if os.path.isfile(base + ".py"):
        return MODULE
    return NAMESPACE if os.path.isdir(base) else NOTHING


def _inside_root(path: Path, root: Path) -> bool:
    """Return whether a module file is really under its root: a symlink out of it is not read.

    The walk never reads a file a link leads to outside the paths given, and the project phase
    keeps the same rule: a module linked in from elsewhere (a home folder, a secret) is an
    outside name, never read for its values.
    """
    real = os.path.realpath(path)
    top = _real_folder(root)
    return real.startswith(top if top.endswith(os.sep) else top + os.sep)


@functools.lru_cache(maxsize=4096)
def _real_folder(root: Path) -> str:
    return os.path.realpath(root)


# The derived facts ------------------------------------------------------------------------------

# What an expression is during the project phase: `kinds.Sym` (None is unknown).


# What one call of an `__init__` whose instance spreads a parameter's dict gives it
# (`Facts.spread_calls`): the defaulted parameters it leaves out, and the keys of each such
# parameter's dict (None when not known).
_SpreadCall = tuple[frozenset[str], dict[str, tuple[str, ...] | None]]


@dataclass
class Facts:
    """What the fixed point decided, keyed by (module, function qualname).

    Written only through `Project._entry` and `Project._touch`, which tell the fixed point's
    worklist what changed (a test holds the code to it).
    """

    reaches: dict[tuple[str, str], dict[str, list[list[Any]]]] = field(default_factory=dict)
    # Keywords a function passes on through `**kwargs`: name -> reaches.
    forwards: dict[tuple[str, str], dict[str, list[list[Any]]]] = field(default_factory=dict)
    # Parameters a function spreads into a Claude call (`create(**request)`): the keys of the
    # dict a caller passes there are passed on, as `forwards` names them.
    spread: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # A parameter's client class, or [class, *path] for a client's method (`messages.create`).
    param_clients: dict[tuple[str, str], dict[str, str | list[str]]] = field(default_factory=dict)
    ambiguous: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # An un-annotated parameter every in-project caller that proves anything binds to an
    # instance of one project class (`call_api(self, ...)` from a method of `ChatCog`):
    # name -> the class, or None once callers disagree.
    param_objects: dict[tuple[str, str], dict[str, tuple[str, str] | None]] = field(
        default_factory=dict
    )
    # An un-annotated parameter every in-project caller that proves anything binds to an
    # instance of one of a few project classes (a factory's `PROVIDERS[name](**kwargs)`, kept
    # in `self.llm` and handed on: `Planner(self.llm)`): name -> the classes callers may hand
    # in, sorted, or None once a caller binds anything else.
    param_choices: dict[tuple[str, str], dict[str, tuple[tuple[str, str], ...] | None]] = field(
        default_factory=dict
    )
    # An un-annotated parameter every in-project caller that proves anything binds to one
    # dict literal of project instances (`Orchestrator({"claude": ClaudeAgent(key), ...})`):
    # name -> its entries as [key, module, class], or None once callers disagree.
    param_tables: dict[tuple[str, str], dict[str, list[list[str]] | None]] = field(
        default_factory=dict
    )
    relied: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # Who relies on each default: parameter -> the classes of the objects those calls make or
    # run on (("", "") for a plain function's call).
    relied_by: dict[tuple[str, str], dict[str, set[tuple[str, str]]]] = field(default_factory=dict)
    # Defaults a function's `**kwargs`, handed on as they are (`super().__init__(model,
    # **kwargs)`), leaves to the callee: a call of the function that gives no such keyword and
    # spreads nothing relies on each. Items: (callee module, callee, parameter, who relies on
    # it as `relied_by` says, whether a call's own receiver may stand for it (a `super()` call).
    spread_defaults: dict[tuple[str, str], set[tuple[str, str, str, tuple[str, str], bool]]] = (
        field(default_factory=dict)
    )
    # `options.model_id or DEFAULT_MODEL`: parameter path -> [the constant, its name].
    fallbacks: dict[tuple[str, str], dict[str, list[Any]]] = field(default_factory=dict)
    # A parameter a Claude call's model is spelled from (`f"anthropic.{model}-v1:0"`,
    # `"bedrock/" + model`): parameter -> each [prefix, suffix] the call writes around it.
    spelled: dict[tuple[str, str], dict[str, list[list[str]]]] = field(default_factory=dict)
    # A parameter a Claude call's model is looked up by in a table of model ids
    # (`MODELS[provider]`): parameter -> [the table's dotted name, {key: model}].
    tabled: dict[tuple[str, str], dict[str, list[Any]]] = field(default_factory=dict)
    # Classes whose instances callers pass where a field of them reaches a Claude call.
    options: set[tuple[str, str]] = field(default_factory=set)
    # A module's constants that Claude calls of other modules read as their parameters:
    # module -> name -> [canonical, target key, display path, line] per call.
    constant_reads: dict[str, dict[str, list[list[Any]]]] = field(default_factory=dict)
    # A function passing `**kwargs` on to a Claude call's `stream`: the places of the project's
    # calls of it that pass no `stream` (under "unset"), and of those that do or may ("set").
    # Only the views read it.
    stream_callers: dict[tuple[str, str], dict[str, set[tuple[str, int]]]] = field(
        default_factory=dict
    )
    # A function passing `**kwargs` on to a Claude call's temperature: the places of the
    # project's calls of it that give both `temperature` and `top_p` through it (a model taking
    # one of the two answers such a request 400). Only the views read it.
    pair_callers: dict[tuple[str, str], set[tuple[str, int]]] = field(default_factory=dict)
    # Parameters with a default that some call of the project gives a value other than an
    # empty one (`None`, `[]`, `{}`, `""`), or may (through `*args`/`**kwargs`): the others
    # send nothing more than their default from any call. Only the views read it.
    passed: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    # A parameter reaching the model of a call that is Claude's only with a Claude model
    # (Bedrock, LiteLLM, LangChain's Bedrock classes): per place of the project's calls of the
    # function, "claude" when it gives a Claude model, "other" when it gives anything else or
    # may, and (module, function, name) when it passes on a parameter of its own, unspelled.
    # Only the views read it.
    model_callers: dict[tuple[str, str], dict[str, dict[tuple[Any, ...], Any]]] = field(
        default_factory=dict
    )
    # The keys of request dict entries a later `**self.<attr>` may replace, by the `__init__`
    # and parameter giving the attribute (`_reach_shadowed`). Only the views read it.
    spread_keys: dict[tuple[str, str], dict[str, set[str]]] = field(default_factory=dict)
    # Constants read through such entries: module -> name -> [read, the reach's condition].
    # Only the views read it (`_kept_reads`).
    shadowed_reads: dict[str, dict[str, list[list[Any]]]] = field(default_factory=dict)
    # Per place of an in-project call of such an `__init__`: the defaulted parameters it leaves
    # out, and per parameter an instance spreads the keys of the dict it gives (None: not
    # known). Only the views read it (`_spread_kept`).
    spread_calls: dict[tuple[str, str], dict[tuple[Any, ...], _SpreadCall]] = field(
        default_factory=dict
    )


@dataclass(frozen=True)
class _Layout:
    """How a project function takes its arguments, read from its parameters."""

    positional: tuple[str, ...]  # in order, after `self`/`cls`
    named: frozenset[str]  # what a keyword argument may bind
    defaulted: tuple[str, ...]
    varkw: str | None = None  # the `**kwargs` parameter's name


# A call of a summary: its module, its function's qualname (None: module level), `id` of it.
_CallKey = tuple[str, str | None, int]


class _Memo(enum.Enum):
    """A marker in `Project._memo`, never a value: no entry yet, and an expression being
    evaluated (a cycle)."""

    MISSING = "missing"
    PENDING = "pending"


_MISSING: Final = _Memo.MISSING
_PENDING: Final = _Memo.PENDING


class Project:
    """Module summaries of one run, and the facts derived from them."""

    # Whether the fixed point reads only the calls whose inputs changed (`solve`). Off, every
    # call is read every round: the reference the worklist must equal, kept for tests.
    incremental = True

    def __init__(self, roots: Sequence[Path], cwd: Path, folders: Sequence[Path] = ()) -> None:
        self.roots = list(roots)
        self.folders = list(folders)
        self._memo: dict[tuple[Any, ...], Sym | _Memo] = {}
        # `x.field` expressions made for the fields a dumped `x` sends (`_field_read`).
        self._field_reads: dict[tuple[int, str], list[Any]] = {}
        # Per constant read through an instance's attribute (`self.settings.model`), the
        # (module, class, attribute) holders to ask again once every module joined
        # (`_unheld`); the holders met while one read is followed (`_constant_read`).
        self._held_reads: dict[tuple[str, str], set[tuple[str, str, str]]] = {}
        # Functions of one module whose returned dict a Claude call of another spreads
        # (`create(**self.params())`, `params` a base class's method): the file making the
        # call is told that dict's keys (`_sent_returns`).
        self._sent_helpers: set[tuple[str, str]] = set()
        # Every method whose returned dict a Claude call spreads (`**self.build_kwargs()`), to
        # tell the file when a subclass overrides it (`_overridden_helper`).
        self._spread_methods: set[tuple[str, str]] = set()
        self._holders: list[tuple[str, str, str]] | None = None
        # `T["key"]` read for a returned `T[name]` a call's literal picks (`_keyed`).
        self._keyed_reads: dict[tuple[int, str], tuple[list[Any], list[Any]]] = {}
        self._paths: dict[str, Path | None] = {}
        # Pure functions of their keys, kept for the whole run.
        self._prefix_memo: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {}
        self._layouts: dict[tuple[str, str], _Layout] = {}
        self._param_indexes: dict[tuple[str, str], dict[str, int]] = {}
        self._tops: dict[str, list[Path]] | None = None
        # A module in a folder that is not a package -> the import names that load a module
        # beside it (`sibling_module`) -> that module's name.
        self.aliases: dict[str, dict[str, str]] = {}
        self._siblings: dict[tuple[Path, str], str | None] = {}
        self._script_folders: dict[str, Path] = {}
        self._imported: dict[str, set[str]] = {}
        self._derived: dict[str, tuple[dict[str, Any], str]] = {}
        # A module's derived facts but its constants, and each constant's (`_constants_apart`).
        self._apart: dict[str, tuple[str, dict[str, str]]] = {}
        self._given: tuple[int, set[str]] | None = None
        self._names_of_file: tuple[int, dict[str, list[str]]] | None = None
        self._closures: dict[str, list[str]] = {}
        # A class's project classes in method resolution order (itself first), per round.
        self._mros: dict[tuple[str, str], list[tuple[str, str]]] = {}
        # Per module: its functions dict (as read), and its methods by class (`_methods`).
        self._methods_of: dict[
            str, tuple[dict[str, Any], int, dict[str, list[tuple[str, str]]]]
        ] = {}
        # Attribute names some function of the project sets on an object (`agent.model = m`).
        self._set_anywhere: tuple[int, frozenset[str]] | None = None
        # Attribute -> the modules whose summaries set it (`_modules_setting`), kept as
        # `_set_anywhere` is: with the number of modules read.
        self._setters: tuple[int, dict[str, set[str]]] | None = None
        self._subclasses_of: dict[tuple[str, str], list[tuple[str, str]]] = {}
        self._subclass_index_of: tuple[int, dict[tuple[str, str], list[tuple[str, str]]]] = (
            -1,
            {},
        )
        self.cwd = cwd
        self.summaries: dict[str, dict[str, Any]] = {}
        self.paths: dict[str, str] = {}  # module -> display path
        self.files: dict[str, str] = {}  # absolute path -> module
        # Modules whose imports are summarised too: those making a Claude call and those that
        # joined by using what another module gives. A module summarised only because one of
        # these imports it (a settings module) is read for its own names.
        self.followed: set[str] = set()
        self.followed_through: set[str] = set()
        # Modules whose calls the fixed point reads (`_add_file`).
        self.scanned: set[str] = set()
        # The modules with a call of project code that passes something on to a Claude call
        # (a wrapper, a class holding a client, an override), or relies on such code's
        # defaults (`_record_project_call`): with the modules that call Claude themselves,
        # the only ones the project phase makes worth a parse (`_calls_claude`).
        self.wrapper_callers: set[str] = set()
        # The attributes modules set on names (`_attribute_set`), and over how many summaries.
        self._set_attrs: tuple[int, frozenset[str]] | None = None
        self._set_in_files: dict[str, bool] = {}
        self._dicts_changed: dict[tuple[str, str], bool] = {}
        # A dict's tables changed by a file of the run (`_nested_moved`).
        self._nested_changed: dict[tuple[str, str], bool] = {}
        # A name -> the run's files spelling it as Python reads them (`_files_spelling`), from
        # an index of every word of every file built once (None until a name is asked about).
        self._spelling: dict[str, list[str]] = {}
        self._spellers: tuple[int, dict[bytes, list[str]], dict[str, bytes]] | None = None
        # A file of the run's text as Python decodes it (`_texts_spelling`), decoded once.
        self._decoded: dict[str, str | None] = {}
        # A dict's name -> whether a file of the run may set its items (`_items_set_in_run`).
        # An attribute -> whether a file of the run hands the dict it holds on
        # (`_attribute_handed_on`).
        self._handed_attrs: dict[str, bool] = {}
        self._items_set: dict[str, bool] = {}
        self._set_outside_files: dict[str, bool] = {}
        self._writes: tuple[set[bytes], dict[bytes, set[str]]] | None = None
        # The run's files holding a write the dot scan cannot read (`_odd_names`), not parsed
        # yet, with the attributes the shapes name: parsed once one of those is asked about.
        self._odd_pending: dict[str, tuple[bytes, set[bytes]]] = {}
        # A file's writes of each attribute, by its bytes (`_writes_in`): scanned once a run.
        self._file_writes: dict[bytes, _FileWrites] = {}
        # Per attribute name, the files of the run that set it on an object other than `self`,
        # and the names each writes it on (`args` in `args.model = m`; "?": not a plain name).
        self._writers: dict[bytes, set[str]] = {}
        self._owners: dict[bytes, dict[str, set[str]]] = {}
        # Per module-level name, whether no file of the run hands its object on (`_held_apart`),
        # and over how many summaries.
        self._names_apart: dict[str, tuple[int, bool]] = {}
        # `x.get("key", DEFAULT)` reads of a parameter's key with any default (`_item_reads`):
        # (module, function, path) as `reaches` names it.
        self._defaulted: set[tuple[str, str, str]] = set()
        self._files_apart: dict[tuple[str, str, bool], bool] = {}
        # Per (module, name), whether the module declares the name `global` (`_rebound`).
        self._declared_global: dict[tuple[str, str], bool] = {}
        # Per (module, name), whether another file may bind it (`_module_name_set`).
        self._module_names_set: dict[tuple[str, str], bool] = {}
        # The condition of the entry whose constant reads are being recorded
        # (`_reach_shadowed`): [module, `__init__`, parameter, key].
        self._condition: list[str] | None = None
        # Per `__init__`, the parameters an instance may spread the dicts of (`_spread_params`).
        self._spread_params_of: dict[tuple[str, str], tuple[str, ...]] = {}
        # Module-level names other files bind to the literal the module gives (`_bound_alike`).
        self._names_bound_alike: set[tuple[str, str]] = set()
        # The run's files by their display path (`_summarise_writer`), made on first use.
        self._given_by_display: dict[str, str] | None = None
        # Whether `self` may name a class in some method of the run (`_self_may_be_a_class`).
        self._self_classes: bool | None = None
        # Per function, the parameters it calls (`_called_params`).
        self._params_called: dict[tuple[str, str], frozenset[str]] = {}
        self._hook_handers: dict[tuple[str, str], bool] = {}
        # The calls summaries mark as sending a prefill, as (display path, line), over how many
        # summaries (`_prefills`).
        self._prefill_lines: tuple[int, frozenset[tuple[str, int]]] | None = None
        # Per display path, the lines of its Claude calls that may turn extended thinking on
        # (`_may_think`), read from the calls' records once the fixed point is reached, by the
        # reader the run gives (`project/records.py`'s `records`, which imports this module).
        self._thinking_lines: dict[tuple[str, int], bool] = {}
        # The same for calls that may send both temperature and top_p (`_may_send_pair`).
        self._pair_lines: dict[tuple[str, int], bool] = {}
        # Claude calls, as (display path, line), that dump an options object with both a
        # `temperature` and a `top_p` field (`create(**asdict(options))`): they send both.
        self._dumped_pairs: set[tuple[str, int]] = set()
        self.records_of: RecordsOf | None = None
        # The run's own files (path -> bytes or text): a module summarised on demand is read
        # from here before the disk.
        self.given: dict[str, bytes | str] = {}
        # Whether the triage will read a file of the run (path -> bool; None: every file).
        self.wants_sites: Callable[[str], bool] | None = None
        self.facts = Facts()
        # The fixed point's worklist (`solve`): when each call was last read (a clock), the
        # calls that read each fact since it last changed, those to read again, how many
        # changes there were, and the call being read. A call read before `_all_stale` is read
        # again whatever it read.
        self._scans: dict[_CallKey, int] = {}
        self._clock = 0
        self._changes = 0
        self._readers: dict[tuple[str, Any], set[_CallKey]] = {}
        self._stale: set[_CallKey] = set()
        # When each module's calls were last visited, and the modules with a stale call.
        self._modules_read: dict[str, int] = {}
        self._stale_modules: set[str] = set()
        self._all_stale = 0
        self._reading: _CallKey | None = None
        self._exports: dict[tuple[str, str], Sym] = {}
        # Expressions made from summaries' parts (`_made`), kept while the summaries are.
        self._synthesised: dict[tuple[Any, ...], list[Any]] = {}
        self._evaluating: set[tuple[Any, ...]] = set()
        # Module -> the names some function stores attributes in (`_local.client = ...`).
        self._stored_names: dict[str, frozenset[str]] = {}
        self._open_stores = 0  # how many `_stored` evaluations are under way
        self._unreadable: set[str] = set()
        # Whether a name asked for may summarise its module now: while solving, so what the
        # Claude-naming modules use is read; not while deriving facts for views, which would
        # read every module any summarised one imports.
        self.loading = False
        # The result cache (`cache.ResultCache`), where summaries are kept by content.
        self.cache: Any = None
        # The per-file time limit for reading one module here (`--file-timeout`).
        self.seconds: float | None = None
        # What the triage reads of each summarised module (module -> `triage.Sites`).
        self.sites: dict[str, Sites] = {}

    # Building -------------------------------------------------------------------------------
    def add(self, path: Path, text: str, joined: bool = False) -> str | None:
        """Summarise one file; return its module name (None when it has none or won't parse).

        `joined`: a file of the run that joined because it uses what a module gives (`_Growth`),
        which the triage nearly always reads, whatever its bytes.
        """
        named = module_name(path, self.roots)
        if named is None:
            return None
        name, is_package = named
        if name in self.summaries:
            return name
        # What the triage reads is kept for the run's own files it will triage only.
        given = str(path) in self.given
        wanted = given and (joined or self.wants_sites is None or self.wants_sites(str(path)))
        found = self._summary(text, name, is_package, wanted)
        if found is None:
            return None
        self.summaries[name] = self._beside(name, path, found)
        self.paths[name] = _display(path, self.cwd)
        self.files[str(path)] = name
        self._arrived(name)
        return name

    def _summary(
        self, text: str, name: str, is_package: bool, with_sites: bool = True
    ) -> dict[str, Any] | None:
        """Return a module's summary, from the cache when the same text was summarised before.

        A summary is plain JSON data, keyed by the text, the module name and whether it is a
        package; a cached entry that is not a summary's shape is a miss. What the engine's
        triage reads of the module (`triage.Sites`) comes from the same parse and is kept with
        it, in `self.sites` by module name.
        """
        key = ""
        if self.cache is not None:
            digest = hashlib.blake2b(digest_size=20)
            digest.update(f"summary\0{name}\0{is_package}\0".encode())
            digest.update(text.encode("utf-8", "surrogatepass"))
            key = digest.hexdigest()
            stored = self.cache.load_data(key)
            if isinstance(stored, dict) and set(stored) == {"summary", "sites"}:
                found = stored["summary"]
                sites = Sites.from_json(stored["sites"]) if stored["sites"] is not None else None
                if found is None or (
                    isinstance(found, dict)
                    and set(found) == _SUMMARY_KEYS
                    and (sites is not None or not with_sites)
                ):
                    if sites is not None:
                        self.sites[name] = sites
                    return found
        try:
            found, sites = _read_module(text, name, is_package, with_sites, self.seconds)
        except OverTime:
            return None  # past the time limit in this run: a timing, not cached

        if sites is not None:
            self.sites[name] = sites
        if self.cache is not None:
            payload = sites.to_json() if sites is not None else None
            self.cache.store_data(key, {"summary": found, "sites": payload})
        return found

    def load(self, module: str) -> dict[str, Any] | None:
        """Return a project module's summary, summarising it now if a name of it is asked for.

        Modules are summarised on demand: only what the modules naming Claude actually use
        is read, not everything they import.
        """
        if module in self.summaries:
            return self.summaries[module]
        if module in self._unreadable:
            return None
        path = self.module_path(module)
        data = self._module_data(path)
        # A module read for a name it defines (a base class, a constant) has its calls read
        # only when it names Claude: what it calls cannot reach Claude otherwise, and reading
        # every call of every module a name leads to walks the whole environment.
        scan = data is not None and _mentions(
            data.encode("utf-8", "surrogatepass")
            if isinstance(data, str)
            else as_python_reads(data),
            SCAN_MARKERS,
        )
        name = None if path is None or data is None else _add_file(self, path, data, scan=scan)
        if name is not None and name != module and path is not None and data is not None:
            # The same file under another name: a script's folder is on `sys.path`, so
            # `app/run.py` imports `app/core/llm.py` as `core.llm` where the project knows it
            # as `llm` (or `app.core.llm`). Python would load it under this name too.
            name = self._add_as(module, path, data, scan)
        if name != module:
            self._unreadable.add(module)
            return None
        return self.summaries[module]

    def _add_as(self, module: str, path: Path, data: bytes | str, scan: bool) -> str | None:
        """Summarise a file under a module name of its own (see `load`)."""
        text = python_text(data) if isinstance(data, bytes) else data
        if text is None:
            return None
        found = self._summary(text, module, path.name == "__init__.py", False)
        if found is None:
            return None
        self.summaries[module] = self._beside(module, path, found)
        self.paths[module] = _display(path, self.cwd)
        self._arrived(module)
        if scan:
            self.scanned.add(module)
        return module

    def sibling(self, module: str, folder: Path, qualname: str) -> str:
        """Return an absolute import path of `module`, a script in `folder`, as Python resolves
        it there (`sibling_module`); a changed top name is remembered in `aliases`."""
        top, dot, rest = qualname.partition(".")
        key = (folder, top)
        if key not in self._siblings:
            self._siblings[key] = sibling_module(folder, top, self.roots)
        found = self._siblings[key]
        if found is None or found == module:
            # A module's import of its own name (`anthropic.py` importing `anthropic`) is of
            # the library: run as a script it would import a second copy of itself, which
            # stops at that same import (a partly initialised module). It works only when
            # imported from elsewhere (`src.clients.anthropic`, a package's module), where
            # the name is the library's.
            return qualname
        self.aliases.setdefault(module, {})[top] = found
        return found + dot + rest

    def _beside(self, module: str, path: Path, summary: dict[str, Any]) -> dict[str, Any]:
        """Return a summary whose imports of modules beside a script name those (`sibling`)."""
        folder = path.parent
        self._script_folders[module] = folder
        imports = {n: self.sibling(module, folder, q) for n, q in summary["imports"].items()}
        stars = [self.sibling(module, folder, q) for q in summary["star_imports"]]
        choices = {
            n: [self.sibling(module, folder, q) for q in qs]
            for n, qs in summary["import_choices"].items()
        }
        if (
            imports == summary["imports"]
            and stars == summary["star_imports"]
            and choices == summary["import_choices"]
        ):
            return summary
        return {**summary, "imports": imports, "star_imports": stars, "import_choices": choices}

    def module_path(self, name: str) -> Path | None:
        """Return the file of a project module (None for an installed or missing one)."""
        if name in self._paths:
            return self._paths[name]
        if self._tops is None:
            self._tops = {}
            for root in self.roots:
                for top in _top_names(root):
                    self._tops.setdefault(top, []).append(root)
        found = _find_module_file(name, self._tops.get(name.split(".")[0], []))
        if found is not None and self.folders:
            text = str(found)
            if not any(text.startswith(str(folder) + os.sep) for folder in self.folders):
                found = None
        self._paths[name] = found
        return found

    def absent(self) -> list[str]:
        """Return the files that would have been modules this run looked for and did not find.

        A run's views depend on them not existing: a module created later (a new helper a
        checked file imports) must make the views stale.
        """
        found: set[str] = set()
        exists: dict[str, bool] = {}

        def lexists(path: str) -> bool:
            if path not in exists:
                exists[path] = os.path.lexists(path)
            return exists[path]

        for name, path in self._paths.items():
            parts = name.split(".")
            if path is not None or not all(part.isidentifier() for part in parts):
                continue
            for root in self.roots:
                # A folder on the way that does not exist stands for every file under it
                # (nothing can be created there without creating it): one entry, not two a
                # name, and one test on the way back.
                folder = str(root)
                for part in parts[:-1]:
                    folder = os.path.join(folder, part)
                    if not lexists(folder):
                        found.add(folder)
                        break
                else:
                    base = os.path.join(folder, parts[-1])
                    package = os.path.join(base, "__init__.py") if lexists(base) else base
                    found.update(path for path in (base + ".py", package) if not lexists(path))
        return sorted(found)

    def imported_modules(self, name: str) -> set[str]:
        """Return the project modules `name` imports (by prefix of its imports)."""
        if name in self._imported:
            return self._imported[name]
        found = self._imports_of(name)
        if name in self.summaries:
            self._imported[name] = found
        return found

    def _imports_of(self, name: str) -> set[str]:
        summary = self.summaries.get(name)
        if summary is None:
            return set()
        found: set[str] = set()
        local = [
            self._local_import(name, value)
            for facts in summary["functions"].values()
            for values in facts["locals"].values()
            for value, _ in values
            if value[0] == "import"
        ]
        imported = [*summary["imports"].values(), *summary["submodules"], *summary["star_imports"]]
        for choices in summary["import_choices"].values():
            imported.extend(choices)
        for qualname in [*imported, *local]:
            for candidate, _ in self._prefixes(qualname):
                if candidate in self.summaries or self.module_path(candidate) is not None:
                    found.add(candidate)
                    break
        return found

    def _prefixes(self, qualname: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Return a dotted name's prefixes, longest first, each with the names after it."""
        found = self._prefix_memo.get(qualname)
        if found is None:
            parts = qualname.split(".")
            found = tuple(
                (".".join(parts[:size]), tuple(parts[size:])) for size in range(len(parts), 0, -1)
            )
            self._prefix_memo[qualname] = found
        return found

    # Evaluation -----------------------------------------------------------------------------
    def export(self, module: str, name: str, depth: int = 0) -> Sym:
        """Return what `module.name` is, following re-exports and star imports.

        A path the target registry describes is the registry's (`registry.described`), even
        where the project defines it: a library's own repository calling its Claude class."""
        key = (module, name)
        if key in self._exports:
            return self._exports[key]
        if described(f"{module}.{name}"):
            if depth > MAX_DEPTH or ("export", module, name) in self._evaluating:
                # Asked again while its own binding is read (a provider module named after the
                # library, `clients/anthropic.py` holding `from anthropic import Anthropic`,
                # which a script folder's import reads as itself): the registry's path. An
                # unknown here would be remembered for every read of the name in that module.
                return Ref(f"{module}.{name}")
            self._exports[key] = self._shadowing(module, name, depth) or Ref(f"{module}.{name}")
            return self._exports[key]
        if depth > MAX_DEPTH or ("export", module, name) in self._evaluating:
            return None
        summary = self.summaries.get(module)
        if summary is None:
            if self.module_path(module) is None:
                return Ref(f"{module}.{name}")
            summary = self.load(module) if self.loading else None
            if summary is None:
                return None  # a project module that cannot be read or parsed
        self._evaluating.add(("export", module, name))
        try:
            result = self._name(module, None, name, depth + 1)
            if result is None and name not in summary["assigns"] and name not in summary["imports"]:
                for star in summary["star_imports"]:
                    # Read on demand as any import is: whether the module re-exporting it was
                    # given to the run or read from disk (one file checked, or the tree).
                    other = self._star_summary(star)
                    if other is None and described(f"{star}.{name}"):
                        # A library's name, as the registry knows it (`from anthropic import *`
                        # in a package's `__init__.py`, then `from pkg import Anthropic`).
                        result = Ref(f"{star}.{name}")
                        break
                    if other is not None and (other["all"] is None or name in other["all"]):
                        result = self.export(star, name, depth + 1)
                        if result is not None:
                            break
        finally:
            self._evaluating.discard(("export", module, name))
        self._exports[key] = result
        return result

    def _shadowing(self, module: str, name: str, depth: int) -> Ref | None:
        """Return the library path a project module binds a described name to, where that is
        another library's (an `openai.py` of the tree, which Python imports before the
        installed package, holding `from anthropic import Anthropic as OpenAI`); else None.

        A library's own repository defining its class keeps the registry's meaning: only a
        binding to a different described path is the project's word.
        """
        summary = self._star_summary(module)  # read from disk as any import is, when allowed
        if summary is None or (name not in summary["imports"] and name not in summary["assigns"]):
            return None
        self._evaluating.add(("export", module, name))
        try:
            found = self._name(module, None, name, depth + 1)
        finally:
            self._evaluating.discard(("export", module, name))
        if isinstance(found, Ref) and found.qualname != f"{module}.{name}":
            return found if described(found.qualname) else None
        return None

    def _star_summary(self, module: str) -> dict[str, Any] | None:
        """Return the summary of a module a star import names, loading it when allowed."""
        summary = self.summaries.get(module)
        if summary is None and self.loading and self.module_path(module) is not None:
            summary = self.load(module)
        return summary

    def qualified(self, qualname: str, depth: int = 0) -> Sym:
        """Return what an absolute import path names: a project thing, or an outside ref."""
        for module, rest in self._prefixes(qualname):
            if module in self.summaries or self.module_path(module) is not None:
                if not rest:
                    return Module(module)
                # `attribute` of a module is its export: a known one is taken as it is.
                key = (module, rest[0])
                if key in self._exports:
                    symbol = self._exports[key]
                else:
                    symbol = self.export(module, rest[0], depth + 2)
                for attr in rest[1:]:
                    symbol = self.attribute(symbol, attr, depth + 1)
                return symbol
        return Ref(qualname)

    def attribute(self, base: Sym, attr: str, depth: int) -> Sym:
        # `isinstance` chains, not `match`: class patterns cost several times more per call,
        # and the phase asks this some 10^5 times over a large package.
        if base is None:
            return None
        if isinstance(base, Module):
            return self._module_attribute(base.name, attr, depth + 1)
        if isinstance(base, Ref):
            return Ref(f"{base.qualname}.{attr}")
        if isinstance(base, Client):
            if base.only is not None and attr not in base.only:
                return None  # the other vendor's client has it too: either may be called
            return Client(base.cls, (*base.path, attr), server=base.server)
        if isinstance(base, Param):
            if base.name.count(".") + base.name.count("[") >= MAX_PATH:
                return None
            # A field of an options object the parameter holds: its own path.
            return Param(base.module, base.qual, f"{base.name}.{attr}")
        if isinstance(base, (SelfParam, Obj)):
            return self._instance_attribute(base, attr, depth)
        if isinstance(base, Class):
            method = self.member(base.module, base.name, attr)
            return None if method is None else Func(*method)
        if isinstance(base, Choice):
            return _union([self.attribute(option, attr, depth + 1) for option in base.options])
        if isinstance(base, Super):
            # `super().name`: the next class after this one in the method resolution order.
            method = self.member(base.module, base.name, attr, after=True)
            if method is None and attr == "__init__":
                return self._library_base(base.module, base.name, depth + 1)
            return None if method is None else Bound(*method, base.module, base.name, True)
        return None

    def _instance_attribute(self, base: SelfParam | Obj, attr: str, depth: int) -> Sym:
        """Return `self.attr` or `obj.attr` on an instance of a project class: its method (or
        property's value), else what its class sets there, else its SDK client base's."""
        method = self.member(base.module, base.name, attr)
        if method is not None:
            if self.summaries[method[0]]["functions"][method[1]].get("property"):
                return self._property(method, base.module, base.name, depth + 1)
            return Bound(*method, base.module, base.name, isinstance(base, SelfParam))
        found = self._attribute_value(base.module, base.name, attr, depth + 1)
        if found is None and not attr.startswith("_"):
            # `class Client(anthropic.Anthropic)`: what the class does not define is the SDK
            # client's (`self.messages`, `Client().messages`).
            client = self.client_base(base.module, base.name)
            if client is not None:
                return Client(client, (attr,))
        return found

    def client_base(self, module: str, cls: str) -> str | None:
        """Return the SDK client class a project class derives from (through project classes,
        first bases), if one: `class Client(anthropic.Anthropic)` is a Claude client."""
        found = self._library_base(module, cls, 0)
        if isinstance(found, Ref) and is_sdk_client_class(found.qualname):
            return found.qualname
        return None if found is not None else self._mixed_client_base(module, cls)

    def _mixed_client_base(self, module: str, cls: str) -> str | None:
        """Return the SDK client class a project class derives from beside project mixins
        (`class Client(Tagging, anthropic.Anthropic)`, `Tagging` a project class of no library
        base): the one library base of its whole hierarchy, when it is an SDK client. Any other
        library or unknown base makes it None (what the instance is, is not proven)."""
        library: set[str] = set()
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries.get(owner_module, {}).get("classes", {}).get(owner) or {}
            for base in info.get("bases", []):
                symbol = self.evaluate(owner_module, None, base)
                if isinstance(symbol, Ref):
                    library.add(symbol.qualname)
                elif not isinstance(symbol, Class):
                    return None
        if len(library) != 1:
            return None
        (only,) = library
        return only if is_sdk_client_class(only) else None

    def _library_base(self, module: str, cls: str, depth: int) -> Sym:
        """Return the library class whose constructor `super().__init__(...)` runs in a method
        of `cls` when no project class on the way defines `__init__`: the first base's, through
        project classes (`class ClaudeLLM(ChatAnthropic)`: `super().__init__(model=...)` makes a
        `ChatAnthropic`)."""
        for _ in range(MAX_DEPTH):
            info = self.summaries.get(module, {}).get("classes", {}).get(cls)
            bases = (info or {}).get("bases", [])
            if not bases:
                return None
            symbol = self.evaluate(module, None, bases[0], depth + 1)
            if isinstance(symbol, Ref):
                return symbol
            if not isinstance(symbol, Class):
                return None
            module, cls = symbol.module, symbol.name
        return None

    def _module_attribute(self, module: str, attr: str, depth: int) -> Sym:
        """Return `module.attr`: a name the module binds, else its submodule of that name.

        After `import app.settings`, `app.settings` is the submodule, unless the package binds
        `settings` itself.
        """
        found = self.export(module, attr, depth)
        if found is not None:
            return found
        summary = self.summaries.get(module)
        if summary is not None and (attr in summary["assigns"] or attr in summary["imports"]):
            return None
        sub = f"{module}.{attr}"
        if sub in self.summaries or self.module_path(sub) is not None:
            return Module(sub)
        return None

    def mro(self, module: str, cls: str, depth: int = 0) -> list[tuple[str, str]]:
        """Return a class and its project base classes in method resolution order.

        Depth first, left to right, each class once where it is first met: the C3 order for
        the hierarchies single and simple multiple inheritance make. A base that is not a
        project class (a library's, or unknown) ends that branch. The order is as long as the
        depth limit at most, and bases are followed that deep at most (a chain of thousands of
        classes each deriving from the last).
        """
        key = (module, cls)
        found = self._mros.get(key)
        if found is not None:
            return found
        order = [key]
        if depth > MAX_DEPTH:
            return order  # its bases are not read here, and this answer is not kept
        self._mros[key] = order  # a cyclic hierarchy (broken code) stops here
        info = self.summaries.get(module, {}).get("classes", {}).get(cls)
        for base in (info or {}).get("bases", []):
            symbol = self.evaluate(module, None, base)
            if not isinstance(symbol, Class) or len(order) > MAX_DEPTH:
                continue
            for item in self.mro(symbol.module, symbol.name, depth + 1):
                if len(order) > MAX_DEPTH:
                    break  # as long as the depth limit: each class's order is copied once
                if item not in order:
                    order.append(item)
        return order

    def _methods(self, module: str, cls: str) -> list[tuple[str, str]]:
        """Return the methods a class of `module` defines itself, as (name, qualified name), in
        the order its summary lists them; the module's functions are grouped once, not gone
        over for each class of a hierarchy that asks (a chain of thousands of classes)."""
        functions = self.summaries[module]["functions"]
        known = self._methods_of.get(module)
        if known is None or known[0] is not functions or known[1] != len(functions):
            grouped: dict[str, list[tuple[str, str]]] = {}
            for qual in functions:
                owner, dot, method = qual.rpartition(".")
                if dot:
                    grouped.setdefault(owner, []).append((method, qual))
            known = (functions, len(functions), grouped)
            self._methods_of[module] = known
        return known[2].get(cls, [])

    def member(
        self, module: str, cls: str, attr: str, after: bool = False
    ) -> tuple[str, str] | None:
        """Return (module, qualname) of the method `cls.attr` runs, found through its bases.

        `after`: from the class after `cls` on (what `super().attr` runs in a method of `cls`).
        """
        for owner_module, owner in self.mro(module, cls)[1 if after else 0 :]:
            qual = f"{owner}.{attr}"
            if qual in self.summaries.get(owner_module, {}).get("functions", {}):
                return owner_module, qual
        return None

    def _property(self, method: tuple[str, str], module: str, cls: str, depth: int) -> Sym:
        """Return what a property gives on an instance of `cls`: what its method returns.

        A `return self.<attr>` reads the attribute on that instance's class, so a base class's
        lazy `client` property returns the client its subclass makes (`self._client = ...` in
        the subclass's own method).
        """
        key = ("property", *method, module, cls)
        if key in self._evaluating or depth > MAX_DEPTH:
            return None
        facts = self.summaries[method[0]]["functions"][method[1]]
        params = facts["params"]
        own = params[0]["name"] if params else None
        self._evaluating.add(key)
        try:
            found: list[Sym] = []
            for value in facts["returns"]:
                if value[0] == "attr" and value[1] == ["name", own]:
                    found.append(self._attribute_value(module, cls, value[2], depth + 1))
                else:
                    found.append(
                        self._hook_value(method[0], method[1], value, module, cls, depth + 1)
                    )
        finally:
            self._evaluating.discard(key)
        return _union(found) if found else None

    def _attribute_value(self, module: str, cls: str, attr: str, depth: int) -> Sym:
        """Return what an instance attribute is: set by the first class in the MRO that sets it."""
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries[owner_module]["classes"].get(owner)
            values = (info or {}).get("attributes", {}).get(attr)
            if values:
                values = [
                    (self._class_body_value(owner_module, v) if method is None else v, method)
                    for v, method in values
                ]
                inherited = (owner_module, owner) != (module, cls)
                found = [
                    self._hook_value(owner_module, m, v, module, cls, depth + 1)
                    if inherited and m is not None
                    else self.evaluate(owner_module, m, v, depth + 1)
                    for v, m in values
                    if v
                ]
                return _union(found) if found else None
        return None

    def _hook_value(
        self, owner_module: str, method: str, value: list[Any], module: str, cls: str, depth: int
    ) -> Sym:
        """Return what a base class's method stores in an attribute of an instance of `cls`.

        `self.client = self._build_client()` in the base's `__init__` runs the hook of the
        instance's class (a template method): the subclass's override, found through the MRO of
        `cls`, gives the value. Anything else the base stores is read in the base's method.
        """
        facts = self.summaries[owner_module]["functions"].get(method)
        params = (facts or {}).get("params") or []
        if (
            facts is None
            or not params
            or not facts["method"]
            or facts["classmethod"]
            or value[0] != "call"
            or value[1][0] != "attr"
            or value[1][1] != ["name", params[0]["name"]]
        ):
            return self.evaluate(owner_module, method, value, depth)
        hook = self.member(module, cls, value[1][2])
        if hook is None or self.summaries[hook[0]]["functions"][hook[1]].get("property"):
            return self.evaluate(owner_module, method, value, depth)
        return self._returns(*hook, depth + 1)

    def _class_body_value(self, module: str, value: list[Any]) -> list[Any] | None:
        """Return what a class body's `name: T = value` gives instances: the `default` of a
        `dataclasses.field(...)`, nothing for one without a default (`field(init=False)`,
        set in `__post_init__`: the dataclass puts no value in the class), else `value`."""
        if value[0] != "call" or value[4] or value[5]:
            return value
        callee = self.evaluate(module, None, value[1])
        if not isinstance(callee, Ref) or callee.qualname != "dataclasses.field":
            return value
        if "default_factory" in value[3]:
            return value
        default: list[Any] | None = value[3].get("default")
        return default

    def attribute_owner(self, module: str, cls: str, attr: str) -> tuple[str, dict[str, Any]]:
        """Return the module and class facts of the first class in the MRO that sets `attr`."""
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries[owner_module]["classes"].get(owner)
            if info is not None and attr in info["attributes"]:
                return owner_module, info
        return module, {}

    def _name(self, module: str, function: str | None, name: str, depth: int) -> Sym:
        summary = self.summaries[module]
        if function is not None:
            facts = summary["functions"].get(function)
            if facts is not None:
                local = facts["locals"].get(name)
                if local:
                    return self._local(module, function, name, local, depth)
                index = self._param_index(module, function, facts).get(name)
                if index is not None:
                    if index == 0 and facts["method"] and not facts["classmethod"]:
                        return SelfParam(module, function.rsplit(".", 1)[0])
                    if index == 0 and facts["classmethod"]:
                        return Class(module, function.rsplit(".", 1)[0])
                    return Param(module, function, name)
                if "parent" in facts:
                    # A nested function reads what it does not bind from the enclosing one.
                    return self._name(module, facts["parent"], name, depth + 1)
        return self._module_name(module, summary, name, depth)

    def _module_name(self, module: str, summary: dict[str, Any], name: str, depth: int) -> Sym:
        """Return what a module-level name is: an import, a def, a class or its assignments.

        Memoised for the round as expressions are (`evaluate`): a name rebound n times and read
        n times is n steps, not n * n; a read inside its own assignments (a cycle) is unknown.
        """
        return self._remembered(
            ("module name", module, name),
            lambda: self._module_binding(module, summary, name, depth),
        )

    def _remembered(self, key: tuple[Any, ...], compute: Callable[[], Sym]) -> Sym:
        """Return `compute()`, memoised for the round under `key` as `evaluate` memoises an
        expression (a cycle back to it is unknown)."""
        memo = self._memo
        found = memo.get(key, _MISSING)
        if found is not _MISSING:
            return None if found is _PENDING else found
        memo[key] = _PENDING
        try:
            result = compute()
        except BaseException:
            del memo[key]
            raise
        memo[key] = result
        return result

    def _module_binding(self, module: str, summary: dict[str, Any], name: str, depth: int) -> Sym:
        assigns = summary["assigns"].get(name)
        if name in summary["imports"]:
            if _derives_from_import(summary, name):
                return Class(module, name)  # `class Anthropic(Tagging, Anthropic)` after it
            if assigns and any(value[0] in ("def", "class") for value, _ in assigns):
                return None  # a local stand-in defined beside the import: which one is unseen
            choices = summary["import_choices"].get(name)
            if choices:
                return self._imported_choice(summary["imports"][name], choices, depth)
            return self.qualified(summary["imports"][name], depth + 1)
        if assigns:
            if len(assigns) == 1 and assigns[0][0][0] == "def":
                return Func(module, name)
            if len(assigns) == 1 and assigns[0][0][0] == "class":
                return Class(module, name)
            if any(value[0] in ("def", "class") for value, _ in assigns):
                return None
            items = [value[1] for value, _ in assigns if value[0] == "item"]
            if items and len(items) == len(assigns) - 1:
                # A dict of clients (`clients[key] = make()`): an item of it is what they are.
                return Items(_union([self.evaluate(module, None, v, depth + 1) for v in items]))
            plain = [(value, nested) for value, nested in assigns if value[0] != "item"]
            if len(plain) == 1 and not plain[0][1]:
                found = self.evaluate(module, None, plain[0][0], depth + 1)
            else:
                found = _union([self.evaluate(module, None, v, depth + 1) for v, _ in plain])
            if isinstance(found, Const) and self._module_name_set(module, name):
                return None  # `config.MODEL = "gpt-4o"` elsewhere: not the one value
            return found
        return None

    def _module_name_set(self, module: str, name: str) -> bool:
        """Return whether a file of the run may bind a module's name from outside it: sets the
        attribute of that name on an object other than `self` (`config.MODEL = "gpt-4o"`,
        `setattr(config, "MODEL", m)`), or sets attributes by a computed name on an object
        spelled as the module's own name (`setattr(config, key, value)`). Not when every such
        write is read and binds the literal the module itself gives (`_bound_alike`)."""
        key = (module, name)
        found = self._module_names_set.get(key)
        if found is None:
            self._module_names_set[key] = True  # a cycle back here: may be set
            if not name.isascii():
                found = self.set_from_outside(name)
            else:
                outside = self._attribute_writes(name.encode())[1]
                short = module.rpartition(".")[2]
                computed = self._owners.get(ANY_ATTRIBUTE, {}).values()
                written = name.encode() in outside or name in self._attributes_set_anywhere()
                alike = written and self._bound_alike(module, name)
                found = (written and not alike) or any(short in owners for owners in computed)
                if alike and not found:
                    self._names_bound_alike.add(key)
            self._module_names_set[key] = found
        return found

    def _bound_alike(self, module: str, name: str) -> bool:
        """Return whether every write of `.name` in the run is read, and each either sets it on
        a proven object other than `module` or binds `module.name` to the one literal the
        module assigns it (`eval_gen.MAX_TOKENS = MAX_TOKENS` in a pipeline whose value is
        `CONFIG["MAX_TOKENS"]`, 4096 as in the module): the name then holds that literal.

        A write is read when it is in a function of a summarised module whose text holds no
        write of the name the summary does not (a nested function's, a module-level one), and
        no `setattr` naming it."""
        assigns = self.summaries[module]["assigns"].get(name, [])
        if len(assigns) != 1 or assigns[0][1] or assigns[0][0][0] in ("def", "class", "item"):
            return False
        own = self.evaluate(module, None, assigns[0][0])
        if not isinstance(own, Const) or not _jsonable(own.value):
            return False
        by_path = {shown: other for other, shown in self.paths.items()}
        for writer in self._writers_of(name):
            other = by_path.get(writer) or self._summarise_writer(writer)
            if other is None or other not in self.summaries:
                return False
            if not self._writes_alike(other, module, name, own):
                return False
        return True

    def _summarise_writer(self, shown: str) -> str | None:
        """Return the module of a run's file (by its display path), summarised now if the
        phase may read more modules (`loading`); None otherwise."""
        if not self.loading:
            return None
        if self._given_by_display is None:
            self._given_by_display = {_display(Path(p), self.cwd): p for p in self.given}
        path = self._given_by_display.get(shown)
        return None if path is None else _add_file(self, Path(path), self.given[path], scan=False)

    def _writes_alike(self, writer: str, module: str, name: str, own: Const) -> bool:
        """`_bound_alike` for the writes of one summarised module."""
        summary = self.summaries[writer]
        raw = self._module_bytes(writer)
        attr = name.encode()
        if raw is None or name in summary["set_attrs"] or _setattr_named(attr).search(raw):
            return False
        written = sum(1 for owner in self._writes_in(raw, attr) if owner != b"self")
        seen = 0
        for function, facts in summary["functions"].items():
            for owner, held in facts["stores"].items():
                values = held.get(name, []) if owner != "self" else []
                seen += len(values)
                if not values:
                    continue
                target = self._name(writer, function, owner, 1)
                if isinstance(target, Module) and target.name != module:
                    continue
                if not isinstance(target, Module):
                    if isinstance(target, (Obj, Class, Client, Foreign, Const, DictLit)):
                        continue  # a proven other object
                    return False
                for value in values:
                    if self.evaluate(writer, function, value) != own:
                        return False
        return seen == written

    def _imported_choice(self, last: str, choices: list[str], depth: int) -> Sym:
        """Return a name each branch of an `if` chain imports from another place: any of the
        project's functions, classes or objects it may be (`Choice`), each learning from the
        calls made through it. What is not a choice of those (installed names, a fallback
        import under `try`) is read as before, as the import written last."""
        for qualname in choices:
            self._load_for(qualname)
        found = _choice([self.qualified(q, depth + 1) for q in choices])
        return found if found is not None else self.qualified(last, depth + 1)

    def _load_for(self, qualname: str) -> None:
        """Summarise the project module an absolute name lies in, if it is not yet: each
        alternative of an import is read, as the phase reads any name a module asks for."""
        for module, _ in self._prefixes(qualname):
            if module in self.summaries:
                return
            if self.module_path(module) is not None:
                self.load(module)
                return

    def _local(self, module: str, function: str, name: str, local: list[Any], depth: int) -> Sym:
        """Return what a local is: what its assignments may give.

        One assignment, even under a loop, `try` or `if`, is the only value a read can see:
        before it runs, the read fails (a local is never a global). Memoised for the round
        (`_remembered`) unless a holder's stores are open: those leave some assignments out.
        """
        if self._open_stores:
            return self._assigned(module, function, local, depth)
        return self._remembered(
            ("local", module, function, name),
            lambda: self._assigned(module, function, local, depth),
        )

    def _assigned(self, module: str, function: str, local: list[Any], depth: int) -> Sym:
        values = [value for value, _ in local]
        if self._open_stores:
            values = [v for v in values if not self._loads_open_store(module, v)]
        if not values:
            return None
        return _union([self.evaluate(module, function, v, depth + 1) for v in values])

    def _param_index(self, module: str, function: str, facts: dict[str, Any]) -> dict[str, int]:
        """Return where each parameter of a function is (the first of a name, as a scan finds)."""
        key = (module, function)
        found = self._param_indexes.get(key)
        if found is None:
            found = {}
            for index, param in enumerate(facts["params"]):
                found.setdefault(param["name"], index)
            self._param_indexes[key] = found
        return found

    def evaluate(self, module: str, function: str | None, value: list[Any], depth: int = 0) -> Sym:
        """Return what an expression of a summary is, in a module and function.

        Memoised for the round: summaries do not change within it.
        """
        if depth > MAX_DEPTH or not value:
            return None
        kind = value[0]
        # What needs no other fact is answered without the memo (most expressions are these).
        if kind == "lit":
            return Const(value[1])
        if kind == "?":
            return None
        if kind == "name" and value[1] == "None":
            return Const(None)
        key = (module, function, id(value))
        memo = self._memo
        found = memo.get(key, _MISSING)
        if found is not _MISSING:
            return None if found is _PENDING else found  # pending: a cycle, unknown
        memo[key] = _PENDING
        try:
            result = self._evaluate(module, function, value, depth)
        except BaseException:
            del memo[key]
            raise
        # Kept at any depth: an answer cut short (by the depth limit or a cycle) is unknown, which
        # can only lose a finding, never make one.
        memo[key] = result
        return result

    def _evaluate(self, module: str, function: str | None, value: list[Any], depth: int) -> Sym:
        kind = value[0]
        if kind == "lit":
            return Const(value[1])
        if kind == "name":
            if value[1] == "None":
                return Const(None)
            return self._name(module, function, value[1], depth + 1)
        if kind == "attr":
            if value[1][0] == "name" and self._holder(module, function, value[1][1]):
                return self._stored(module, value[1][1], value[2], depth + 1)
            return self.attribute(
                self.evaluate(module, function, value[1], depth + 1), value[2], depth + 1
            )
        if kind == "call":
            return self._call(module, function, value, depth + 1)
        if kind in ("or", "if"):
            options = value[1] if kind == "or" else [value[1], value[2]]
            return _union(
                [self.evaluate(module, function, v, depth + 1) for v in options], choice=True
            )
        if kind == "dict":
            maybe = tuple(value[4]) if len(value) > 4 else ()
            shadowed = value[5] if len(value) > 5 else None
            return DictLit(
                value[1], module, function, bool(value[2]), tuple(value[3]), maybe, shadowed
            )
        if kind == "sub":
            return self._subscript(module, function, value, depth)
        if kind == "def":
            return Func(module, value[1])
        if kind == "part":
            return self._part(module, function, value, depth + 1)
        if kind == "join":
            return self._joined(module, function, value[1], depth + 1, len(value) > 2)
        if kind == "import":
            return self.qualified(self._local_import(module, value), depth + 1)
        if kind == "enter":
            # `with Anthropic() as client`: the SDK's clients give themselves (anthropic-sdk-python
            # `_base_client.py`, `SyncAPIClient.__enter__` / `AsyncAPIClient.__aenter__` return
            # `self`); what anything else gives is not known.
            made = self.evaluate(module, function, value[1], depth + 1)
            return made if isinstance(made, Client) and not made.path else None
        return None

    def _part(self, module: str, function: str | None, value: list[Any], depth: int) -> Sym:
        """Return what `a, b = make()` gives one name: that element of the tuple every `return`
        of the project function `make` writes (`return control, runtime`)."""
        made, index = value[1], value[2]
        if made[0] != "call" or depth > MAX_DEPTH:
            return None
        callee = self.evaluate(module, function, made[1], depth + 1)
        if not isinstance(callee, (Func, Bound)):
            return None
        facts = self.summaries.get(callee.module, {}).get("functions", {}).get(callee.qual)
        returns = facts["returns"] if facts else []
        if not returns or any(r[0] != "tuple" or len(r[1]) <= index for r in returns):
            return None
        parts = [self.evaluate(callee.module, callee.qual, r[1][index], depth + 1) for r in returns]
        return _union(parts)

    def _holder(self, module: str, function: str | None, name: str) -> bool:
        """Return whether `name`, read in `function`, is a module-level attribute holder that
        functions of the module store attributes in (`_local = threading.local()`)."""
        stored = self._stored_names.get(module)
        summary = self.summaries[module]
        if stored is None:
            stored = frozenset(
                holder for facts in summary["functions"].values() for holder in facts["stores"]
            )
            self._stored_names[module] = stored
        if name not in stored:
            return False
        facts = summary["functions"].get(function or "")
        if facts is not None and (
            name in facts["locals"] or name in self._param_index(module, function or "", facts)
        ):
            return False
        assigns = summary["assigns"].get(name)
        if not assigns or len(assigns) != 1 or name in summary["imports"]:
            return False
        made = self.evaluate(module, None, assigns[0][0])
        return isinstance(made, Foreign) and made.qualname in ATTRIBUTE_HOLDERS

    def _stored(self, module: str, name: str, attr: str, depth: int) -> Sym:
        """Return what the functions of a module store in `name.attr` (a holder's attribute).

        A store of the value just read from the same attribute (`client = getattr(_local,
        "client", None)` ... `_local.client = client`) adds nothing to what it holds: while the
        stores are evaluated, such a read is left out of the local's values, and what was
        worked out meanwhile is not kept.
        """
        key = ("stores", module, name, attr)
        if key in self._evaluating or depth > MAX_DEPTH:
            return None
        values = [
            (qual, value)
            for qual, facts in self.summaries[module]["functions"].items()
            if not self._holder_shadowed(module, qual, facts, name)
            for value in facts["stores"].get(name, {}).get(attr, [])
        ]
        if not values:
            return None
        memo = self._memo
        before = len(memo)
        self._evaluating.add(key)
        self._open_stores += 1
        try:
            return _union([self.evaluate(module, qual, v, depth + 1) for qual, v in values])
        finally:
            self._open_stores -= 1
            self._evaluating.discard(key)
            for stale in list(memo)[before:]:
                del memo[stale]

    def _holder_shadowed(self, module: str, qual: str, facts: dict[str, Any], name: str) -> bool:
        """Return whether a function binds `name` itself (its stores are not the holder's)."""
        return name in facts["locals"] or name in self._param_index(module, qual, facts)

    def _loads_open_store(self, module: str, value: list[Any]) -> bool:
        """Return whether an expression reads a holder attribute whose stores are being
        evaluated (`getattr(_local, "client", None)`, `_local.client`)."""
        if value[0] == "attr" and value[1][0] == "name":
            name, attr = value[1][1], value[2]
        elif value[0] == "call" and value[1] == ["name", "getattr"] and len(value[2]) >= 2:
            if value[2][0][0] != "name" or value[2][1][0] != "lit":
                return False
            name, attr = value[2][0][1], value[2][1][1]
        else:
            return False
        return ("stores", module, name, attr) in self._evaluating

    def _subscript(self, module: str, function: str | None, value: list[Any], depth: int) -> Sym:
        """Return `table[key]` (`_item`); unknown for a class out of a module-level registry
        another file, or its module, may fill (`PROVIDERS["claude"] = Other`)."""
        table = self.evaluate(module, function, value[1], depth + 1)
        key = value[2]
        if key is None and len(value) > 3 and isinstance(table, DictLit):
            # `PRESETS[ACTIVE]` with `ACTIVE = "default"`: the entry of that literal key.
            named = self.evaluate(module, function, value[3], depth + 1)
            if isinstance(named, Const) and isinstance(named.value, str):
                key = named.value
        if isinstance(table, Param):
            return self._handed_table_entry(module, table, value[1], key)
        found = self._item(table, key, depth)
        if isinstance(found, (Class, Choice)) and self._registry_changed(table, value[1]):
            return None
        return found

    def _item(self, base: Sym, key: str | None, depth: int) -> Sym:
        """Return `base[key]`: an entry of a dict literal (any of them for a key that is not a
        literal string: `PROVIDERS[name]`), or an item of a dict filled item by item."""
        if isinstance(base, Items):
            return base.of
        if not isinstance(base, DictLit):
            return None
        if key is not None:
            entry = base.entries.get(key)
            if entry is None:
                return None
            return self.evaluate(base.module, base.function, entry, depth + 1)
        if base.opaque or not base.entries or len(base.entries) > MAX_CHOICES:
            return None
        return _union(
            [self.evaluate(base.module, base.function, v, depth + 1) for v in base.entries.values()]
        )

    def _joined(
        self, module: str, function: str | None, parts: list[list[Any]], depth: int, add: bool
    ) -> Sym:
        """Return a string built from parts: an f-string's (strings or numbers), or `a + b`'s
        (strings only), when every part is known."""
        text = []
        for part in parts:
            found = self.evaluate(module, function, part, depth + 1)
            if not isinstance(found, Const) or isinstance(found.value, bool):
                return None
            if not isinstance(found.value, str if add else (str, int, float)):
                return None
            text.append(str(found.value))
        return Const("".join(text))

    def _local_import(self, module: str, value: list[Any]) -> str:
        """Return the absolute name an import inside a function binds (`["import", ...]`)."""
        _, level, source, name = value
        base = _absolute_module(module, self.summaries[module]["package"], level, source or None)
        found = f"{base}.{name}" if name and base else (name or base)
        folder = self._script_folders.get(module)
        return self.sibling(module, folder, found) if folder is not None and not level else found

    def _call(self, module: str, function: str | None, call: list[Any], depth: int) -> Sym:
        formatted = _format_join(call)
        if formatted is not None:
            return self._joined(module, function, formatted[1], depth + 1, False)
        held = self._held_getattr(module, function, call, depth)
        if held is not _MISSING:
            return held  # type: ignore[return-value]
        if (
            call[1] == ["name", "getattr"]
            and len(call[2]) == 2
            and not call[3]
            and call[2][1][0] == "lit"
            and isinstance(call[2][1][1], str)
            and call[2][1][1].isidentifier()
        ):
            # `getattr(obj, "name")` with a literal name is `obj.name`.
            base = self.evaluate(module, function, call[2][0], depth + 1)
            return self.attribute(base, call[2][1][1], depth + 1)
        if _copies(call) and self._copied(module, function, call[1]):
            # `deepcopy(PRESETS["default"])`: a copy of a dict or a literal reads the same.
            found = self.evaluate(module, function, call[2][0], depth + 1)
            return found if isinstance(found, (Const, DictLit)) else None
        if (
            call[1] == ["name", "dict"]
            and not (call[2] or call[4] or call[5])
            and self._builtin(module, function, "dict")
        ):
            # `dict(model=m, max_tokens=n)`: the dict literal of its keywords.
            return DictLit(call[3], module, function)
        if call[1] == ["name", "super"] and function is not None and "." in function:
            facts = self.summaries[module]["functions"].get(function)
            if facts is not None and (facts["method"] or facts["classmethod"]):
                return Super(module, function.rsplit(".", 1)[0])
        callee = self.evaluate(module, function, call[1], depth + 1)
        if isinstance(callee, Ref) and callee.qualname in WRAPPING_CLIENTS:
            return self._wrapping_client(module, function, callee.qualname, call, depth)
        if isinstance(callee, Choice):
            return _union([self._called(option, call, depth) for option in callee.options])
        if isinstance(callee, Func):
            facts = self.summaries.get(callee.module, {}).get("functions", {}).get(callee.qual)
            if facts is not None and facts.get("return_guards"):
                # `make("local")`: the returns its literal arguments select.
                given = self._literal_args(module, function, facts, call)
                return self._returns(callee.module, callee.qual, depth + 1, given)
        return self._called(callee, call, depth)

    def _selected(self, facts: dict[str, Any], given: dict[str, str]) -> list[list[Any]]:
        """Return the returns of a function a call's literal arguments leave: those whose tests
        (`return_guards`) they do not rule out, a table's entry picked by one of them read as
        that entry (`PROVIDERS[name]()` with name "openai": `PROVIDERS["openai"]()`)."""
        kept: list[list[Any]] = []
        for value, tests in zip(facts["returns"], facts["return_guards"], strict=True):
            if any(
                values is not None and name in given and (given[name] in values) != equal
                for name, values, equal in tests
            ):
                continue
            keyed = next((name for name, values, _ in tests if values is None), None)
            kept.append(value if keyed not in given else self._keyed(value, given[keyed]))
        return kept

    def _selected_reaches(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        callee_module: str,
        facts: dict[str, Any],
        tables: tuple[dict[str, list[list[Any]]], dict[str, list[list[Any]]]],
        defaulted: Iterable[str],
    ) -> tuple[dict[str, list[list[Any]]], dict[str, list[list[Any]]], set[str]]:
        """Return the reaches and forwards of a call of a function switching on a parameter,
        and the defaults the call relies on that no Claude call it may run reads:
        `complete("openai", ...)` never runs the Claude calls under tests "openai" rules
        out. A default counts as relied on once a Claude call the call may run reads it
        (when the callee's reaches grow, the call is read again)."""
        reaches, forwards = tables
        if not facts.get("line_guards"):
            return reaches, forwards, set()
        given = {
            **self._literal_defaults(callee_module, facts, call),
            **self._literal_args(module, function, facts, call),
        }
        if not given:
            return reaches, forwards, set()
        reaches = self._unguarded(callee_module, facts, reaches, given)
        forwards = self._unguarded(callee_module, facts, forwards, given)
        reading = {name.split(".", 1)[0] for name in (*reaches, *forwards)}
        return reaches, forwards, set(defaulted) - reading

    def _literal_defaults(
        self, module: str, facts: dict[str, Any], call: list[Any] | None
    ) -> dict[str, str]:
        """Return the string defaults of a function's parameters a call leaves out (all of
        them without a call; none when it spreads `*args` or `**kwargs`): `provider="openai"`."""
        if call is not None and (call[4] or call[5]):
            return {}
        bound: set[str] = set()
        if call is not None:
            positional = [p["name"] for p in facts["params"] if p["kind"] == "positional"]
            if facts["method"] or facts["classmethod"]:
                positional = positional[1:]
            bound = {*positional[: len(call[2])], *call[3]}
        found: dict[str, str] = {}
        for param in facts["params"]:
            if param["name"] in bound or param["default"] is None:
                continue
            value = self.evaluate(module, None, param["default"])
            if isinstance(value, Const) and isinstance(value.value, str):
                found[param["name"]] = value.value
        return found

    def _unguarded(
        self,
        module: str,
        facts: dict[str, Any],
        table: dict[str, list[list[Any]]],
        given: dict[str, str],
    ) -> dict[str, list[list[Any]]]:
        """Return the reaches of a function's parameters a call's literal arguments leave: a
        Claude call of the function's own lines under a test they rule out (`if provider ==
        "openai": ... return` above it, with "openai" given) is dropped."""
        if not given:
            return table
        path = self.paths.get(module, module)
        found: dict[str, list[list[Any]]] = {}
        for name, items in table.items():
            kept = [
                reach
                for reach in items
                if reach[2] != path or not _ruled_out(facts["line_guards"], reach[3], given)
            ]
            if kept:
                found[name] = kept
        return found

    def _reach_guards(self, module: str, qual: str, entry: dict[str, Any]) -> dict[str, Any]:
        """Return the view's `line_guards` of a function: the literal tests of its parameters
        its own Claude calls (in its file, `path`) run under, for a file to drop those a
        call's literal arguments rule out (`complete("openai", ...)`)."""
        spans = self.summaries[module]["functions"][qual].get("line_guards")
        if not spans:
            return {}
        path = self.paths.get(module, module)
        lines = {
            reach[3]
            for table in (entry["reaches"], entry["forwards"])
            for items in table.values()
            for reach in items
            if reach[2] == path
        }
        kept = [span for span in spans if any(span[0] <= line <= span[1] for line in lines)]
        if not kept:
            return {}
        facts = self.summaries[module]["functions"][qual]
        defaults = self._literal_defaults(module, facts, None)
        return {"line_guards": {"path": path, "spans": kept, "defaults": defaults}}

    def _keyed(self, value: list[Any], key: str) -> list[Any]:
        """Return `T[name]` (or `T[name](...)`) read as `T["key"]`: the same list each time,
        since the memo is by identity."""
        made = self._keyed_reads.get((id(value), key))
        if made is None or made[1] is not value:
            if value[0] == "call":
                keyed = ["call", ["sub", value[1][1], key], *value[2:]]
            else:
                keyed = ["sub", value[1], key]
            made = self._keyed_reads[(id(value), key)] = (keyed, value)
        return made[0]

    def _literal_args(
        self, module: str, function: str | None, facts: dict[str, Any], call: list[Any]
    ) -> dict[str, str]:
        """Return the string literals a call gives a function's parameters, by name."""
        given: dict[str, str] = {}
        positional = [p["name"] for p in facts["params"] if p["kind"] == "positional"]
        if facts["method"] or facts["classmethod"]:
            positional = positional[1:]
        args = [] if call[4] else call[2]  # after a `*args`, positions are not known
        for name, arg in [*zip(positional, args, strict=False), *call[3].items()]:
            value = self.evaluate(module, function, arg)
            if isinstance(value, Const) and isinstance(value.value, str):
                given[name] = value.value
        return given

    def _wrapping_client(
        self, module: str, function: str | None, name: str, call: list[Any], depth: int
    ) -> Sym:
        """Return the client a library makes over Claude's: `instructor.from_anthropic(client)`
        over an SDK client, `instructor.from_provider("anthropic/...")`; another object else."""
        if name in INSTRUCTOR_FROM_ANTHROPIC:
            given = call[3].get("client") or (call[2][0] if call[2] else None)
            client = self.evaluate(module, function, given, depth + 1) if given else None
            if (
                isinstance(client, Client)
                and not client.path
                and client.only is None
                and is_sdk_client_class(client.cls)
            ):
                return Client(INSTRUCTOR_ON_ANTHROPIC)
        else:
            given = call[3].get("model") or (call[2][0] if call[2] else None)
            model = self.evaluate(module, function, given, depth + 1) if given else None
            if (
                isinstance(model, Const)
                and isinstance(model.value, str)
                and model.value.strip().startswith(PROVIDER_PREFIX)
            ):
                return Client(INSTRUCTOR_ON_ANTHROPIC)
        return Foreign(name)

    def _called(self, callee: Sym, call: list[Any], depth: int) -> Sym:
        """Return what calling `callee` gives."""
        if isinstance(callee, Ref):
            return self._outside_call(callee.qualname, call)
        if isinstance(callee, Client) and callee.path in (("with_options",), ("copy",)):
            return Client(callee.cls)
        if isinstance(callee, Bound):
            receiver = (callee.receiver_module, callee.receiver)
            return self._returns_on(callee.module, callee.qual, receiver, depth + 1)
        if isinstance(callee, Func):
            return self._returns(callee.module, callee.qual, depth + 1)
        if isinstance(callee, Class):
            return Obj(callee.module, callee.name)
        return None

    def _returns_on(
        self, module: str, qual: str, receiver: tuple[str, str] | None, depth: int = 0
    ) -> Sym:
        """Return what a method returns run on an instance of `receiver`.

        A base class's method run on a subclass's instance (`self.conn()` returning
        `self._conn`, which the base sets from a hook the subclass overrides) is read on that
        instance, as a property's is; any other function as it is written.
        """
        if receiver is not None and (module, qual.rsplit(".", 1)[0]) != receiver:
            found = self._property((module, qual), *receiver, depth + 1)
            if found is not None:
                return found
        return self._returns(module, qual, depth)

    def _held_getattr(
        self, module: str, function: str | None, call: list[Any], depth: int
    ) -> Sym | _Memo:
        """Return `getattr(holder, "name"[, default])` of an attribute holder: what the module
        stores there, or the default (`_MISSING` when the call is not one)."""
        args = call[2]
        if (
            call[1] != ["name", "getattr"]
            or not 2 <= len(args) <= 3
            or call[3]
            or args[0][0] != "name"
            or args[1][0] != "lit"
            or not isinstance(args[1][1], str)
            or not self._holder(module, function, args[0][1])
        ):
            return _MISSING
        stored = self._stored(module, args[0][1], args[1][1], depth + 1)
        if len(args) == 2:
            return stored
        return _union([stored, self.evaluate(module, function, args[2], depth + 1)])

    def _copied(self, module: str, function: str | None, callee: list[Any]) -> bool:
        """Return whether a callee is the standard library's `copy.deepcopy` or `copy.copy`."""
        found = self.evaluate(module, function, callee)
        return isinstance(found, Ref) and found.qualname in _COPIES

    def _builtin(self, module: str, function: str | None, name: str) -> bool:
        """Return whether a name read in a function is the builtin: bound nowhere on the way."""
        summary = self.summaries[module]
        while function is not None:
            facts = summary["functions"].get(function)
            if facts is None:
                return False
            if name in facts["locals"] or any(p["name"] == name for p in facts["params"]):
                return False
            function = facts.get("parent")
        return name not in summary["imports"] and name not in summary["assigns"]

    def _outside_call(self, name: str, call: list[Any]) -> Sym:
        """Return what a call of an outside name makes: a Claude client, or another object."""
        if is_sdk_client_class(name):
            # Sent to a server of other models only, it keeps the base URL (`Client.server`).
            base_url = call[3].get("base_url")
            if (
                base_url is not None
                and base_url[0] == "lit"
                and isinstance(base_url[1], str)
                and is_first_party_client(name)
                and serves_other_models(base_url[1])
            ):
                return Client(name, server=base_url[1])
            return Client(name)
        if name in BOTO3_CLIENT_FACTORIES or name.endswith("Session.client"):
            service = call[3].get("service_name") or (call[2][0] if call[2] else None)
            if service == ["lit", "bedrock-runtime"]:
                return Client(BEDROCK_RUNTIME)
            return None
        if name in AISUITE_CLIENTS:
            # Its calls are Claude's by their model (`_aisuite_target`), as a Router's are.
            return Client(AISUITE_CLIENT)
        return Foreign(name)

    def _returns(
        self, module: str, qual: str, depth: int = 0, given: dict[str, str] | None = None
    ) -> Sym:
        """Return what a function returns; `given`: the string literals a call gives its
        parameters, which select among returns under tests of them (`_selected`)."""
        key = ("returns", module, qual)
        if key in self._evaluating or depth > MAX_DEPTH:
            return None
        facts = self.summaries.get(module, {}).get("functions", {}).get(qual)
        if facts is None:
            return None
        self._evaluating.add(key)
        try:
            returns = facts["returns"] if not given else self._selected(facts, given)
            found = [self.evaluate(module, qual, v, depth + 1) for v in returns]
            result = _union(found) if found else None
            if result is None and facts["returns_annotation"] is not None:
                typed = self.evaluate(module, None, facts["returns_annotation"], depth + 1)
                if isinstance(typed, Ref) and is_sdk_client_class(typed.qualname):
                    result = Client(typed.qualname)
        finally:
            self._evaluating.discard(key)
        return result

    def receiver(self, module: str, function: str | None, value: list[Any]) -> Sym:
        """Return what a call's receiver is, with parameters typed by annotation or by callers."""
        symbol = self.evaluate(module, function, value)
        return self._typed(symbol)

    def _typed(self, symbol: Sym, depth: int = 0) -> Sym:
        if not isinstance(symbol, Param) or depth > MAX_DEPTH:
            return symbol
        module, qual, name = symbol.module, symbol.qual, symbol.name
        facts = self.summaries[module]["functions"][qual]
        for param in facts["params"]:
            if param["name"] == name and param["annotation"] is not None:
                typed = self.evaluate(module, None, param["annotation"])
                if isinstance(typed, Ref) and is_sdk_client_class(typed.qualname):
                    return Client(typed.qualname)
                return None
        self._read("clients", (module, qual))
        if name in self.facts.ambiguous.get((module, qual), set()):
            return None
        cls = self.facts.param_clients.get((module, qual), {}).get(name)
        if isinstance(cls, list):
            return Client(cls[0], tuple(cls[1:]))  # a client's method (`_with_retry(fn, ...)`)
        return Client(cls) if cls else None

    # The fixed point ------------------------------------------------------------------------
    def solve(self) -> None:
        """Derive wrappers, parameter clients and relied-on defaults until nothing changes.

        Round by round, each call of the scanned modules in the same order; a call is read
        again only when something its last reading read has changed since (`_read`): a fact
        of a function (its parameters' clients, what its parameters reach, what its `**kwargs`
        passes on), or a module it found missing. Reading it again would record what it
        recorded already (facts only grow), so the rounds, their number and the facts are those
        of reading every call every round, at the cost of the calls whose inputs moved.
        """
        for _ in range(MAX_ROUNDS):
            before = self._changes if self.incremental else _freeze(self.facts)
            known = len(self.summaries)
            self._exports.clear()
            self._memo.clear()
            self._derived.clear()
            self._apart.clear()
            self._closures.clear()
            self._mros.clear()
            self._set_anywhere = None
            self._setters = None
            self._subclasses_of.clear()
            self._subclass_index_of = (-1, {})
            self._imported.clear()
            # Modules summarised on demand during a round are scanned in the next.
            self.loading = True
            try:
                for module, summary in list(self.summaries.items()):
                    if module in self.scanned and not self._settled_module(module):
                        self._visit_module(module, summary)
                _follow_imports(self)
                # A module read for a name it defines, whose function is handed a Claude client
                # by a caller (`query(client, model)` in a helper that never names Claude): its
                # calls through that parameter are Claude calls, read from the next round on.
                self.scanned.update(m for m, _ in self.facts.param_clients if m in self.summaries)
                # ... or an instance of one project class (`consult(ClaudeAgent(key), q)`): its
                # calls of that object's methods are wrapper calls.
                self.scanned.update(self._object_params())
                # ... or a base class's template method handing its subclasses' hooks on.
                self.scanned.update(self._template_bases())
            finally:
                self.loading = False
            after = self._changes if self.incremental else _freeze(self.facts)
            if after == before and len(self.summaries) == known:
                break

    def _template_bases(self) -> set[str]:
        """Return the modules, not scanned, of the project base classes of a scanned module's
        classes whose methods hand what a hook returns to another method of the instance
        (`self.invoke_model(self.setup_client(), ...)`): read, their calls bind the subclasses'
        overrides (`_record_hook_clients`)."""
        found: set[str] = set()
        for module in sorted(self.scanned):
            for name in self.summaries.get(module, {}).get("classes", {}):
                for owner_module, owner in self.mro(module, name)[1:]:
                    if owner_module in self.scanned or owner_module in found:
                        continue
                    if self._hands_hooks(owner_module, owner):
                        found.add(owner_module)
        return found

    def _hands_hooks(self, module: str, cls: str) -> bool:
        """Return whether a method of a class calls another method of `self` with what a
        method of `self` returns (once per class)."""
        known = self._hook_handers.get((module, cls))
        if known is None:
            known = False
            for qual, facts in self.summaries[module]["functions"].items():
                params = facts["params"]
                if qual.rpartition(".")[0] != cls or not facts["method"] or not params:
                    continue
                me = ["name", params[0]["name"]]
                if any(
                    call[1][0] == "attr" and call[1][1] == me
                    and next(self._hook_args(facts, call, me[1]), None) is not None
                    for call in facts["calls"]
                ):  # fmt: skip
                    known = True
                    break
            self._hook_handers[(module, cls)] = known
        return known

    def _object_params(self) -> set[str]:
        """Return the modules of functions a caller hands one project class's instance, whose
        module (or a base's) has functions the fixed point derives facts for."""
        found: set[str] = set()
        for (module, _), objects in self.facts.param_objects.items():
            if module in self.scanned or module not in self.summaries:
                continue
            if any(cls is not None and self._useful(["obj", *cls]) for cls in objects.values()):
                found.add(module)
        for (module, _), chosen in self.facts.param_choices.items():
            if module in self.scanned or module not in self.summaries:
                continue
            if any(self._useful(["obj", *c]) for classes in chosen.values() for c in classes or ()):
                found.add(module)
        return found

    def _settled_module(self, module: str) -> bool:
        """Return whether every call of a module was read since what it read last changed."""
        read = self._modules_read.get(module)
        return (
            read is not None
            and read > self._all_stale
            and module not in self._stale_modules
            and self.incremental
        )

    def _visit_module(self, module: str, summary: dict[str, Any]) -> None:
        """Visit each call of a module, in order (`_visit`)."""
        # Before its calls: a fact one of them changes may make another of them stale.
        self._stale_modules.discard(module)
        self._clock += 1
        self._modules_read[module] = self._clock
        for qual, facts in summary["functions"].items():
            for call in facts["calls"]:
                self._visit(module, qual, call)
        for call in summary["calls"]:
            self._visit(module, None, call)

    def _visit(self, module: str, function: str | None, call: list[Any]) -> None:
        """Read a call, unless nothing it read when last read has changed since."""
        key = (module, function, id(call))
        stamp = self._scans.get(key)
        if (
            stamp is not None
            and stamp > self._all_stale
            and key not in self._stale
            and self.incremental
        ):
            return
        self._clock += 1
        self._scans[key] = self._clock
        self._stale.discard(key)
        self._reading = key
        try:
            self._scan_call(module, function, call)
        finally:
            self._reading = None

    def _read(self, kind: str, key: Any) -> None:
        """Note that the call being read depends on a fact: when it changes, the call is read
        again (`_touch`)."""
        if self._reading is not None:
            readers = self._readers.get((kind, key))
            if readers is None:
                readers = self._readers[(kind, key)] = set()
            readers.add(self._reading)

    def _touch(self, kind: str, key: Any) -> None:
        """Note that a fact changed: the calls that read it are read again."""
        self._clock += 1
        self._changes += 1
        readers = self._readers.pop((kind, key), None)
        if readers:
            self._stale.update(readers)
            self._stale_modules.update(reader[0] for reader in readers)

    def _entry(self, table: dict[Any, Any], key: Any, kind: str, empty: type) -> Any:
        """Return a fact table's entry for `key`, made empty when missing (a change)."""
        found = table.get(key)
        if found is None:
            found = table[key] = empty()
            self._touch(kind, key)
        return found

    def _put(self, table: set[Any], item: Any, kind: str, key: Any) -> None:
        """Add an item to a fact's set, a change when it is new."""
        if item not in table:
            table.add(item)
            self._touch(kind, key)

    def _arrived(self, module: str) -> None:
        """Note that a module was summarised: calls that found it missing are read again.

        A module looked for and not found where it is (its file unknown, or unreadable)
        could change anything read since: every call is read again then.
        """
        self._touch("module", module)
        if module in self._unreadable or (module in self._paths and self._paths[module] is None):
            self._all_stale = self._clock

    def _callee_params(self, module: str, qual: str) -> tuple[list[dict[str, Any]], bool] | None:
        facts = self.summaries.get(module, {}).get("functions", {}).get(qual)
        if facts is None:
            return None
        params = list(facts["params"])
        skip_first = facts["method"] or facts["classmethod"]
        return (params[1:] if skip_first and params else params), skip_first

    def _layout(self, key: tuple[str, str]) -> _Layout | None:
        """Return how a project function takes its arguments (None while it is not read).

        Kept for the run: a module's summary never changes once it is read.
        """
        layout = self._layouts.get(key)
        if layout is None:
            found = self._callee_params(*key)
            if found is None:
                return None
            params = found[0]
            layout = _Layout(
                positional=tuple(p["name"] for p in params if p["kind"] == "positional"),
                named=frozenset(
                    p["name"] for p in params if p["kind"] in ("positional", "keyword")
                ),
                defaulted=tuple(p["name"] for p in params if p["default"] is not None),
                varkw=next((p["name"] for p in params if p["kind"] == "varkw"), None),
            )
            self._layouts[key] = layout
        return layout

    def _scan_call(self, module: str, function: str | None, call: list[Any]) -> None:
        callee_expr = call[1]
        # A Claude call: `<client>.messages.create(...)`, a LangChain class, `litellm.completion`.
        target = self._target(module, function, call)
        if target is None:
            handed = self._handed(module, function, call)
            if handed is not None:
                call, target = handed
        if target is not None:
            key, params = target
            if key.startswith("http:"):
                # The JSON body is the request: read as `create(**body)` would be.
                body = call[3]["json"]
                call = self._made(
                    ("http", id(call)), ["call", call[1], [], {}, False, [body], *call[6:]]
                )
            self._record_target(module, function, call, key, params)
            return
        for callee in self._callees(module, function, callee_expr):
            self._record_callee(module, function, call, callee)
        self._record_hook_clients(module, function, call)
        submitted = self._submitted(module, function, call)
        if submitted is not None:
            for callee in self._callees(module, function, submitted[1]):
                if isinstance(callee, (Func, Bound)):
                    self._record_callee(module, function, submitted, callee)

    def _record_hook_clients(self, module: str, function: str | None, call: list[Any]) -> None:
        """Record the client a template method hands its subclasses' override of a hook.

        `client = self.setup_client()` then `self.invoke_model(client, ...)` in a base class's
        method: on an instance of a subclass, both run that subclass's methods, so its
        `invoke_model` is given what its own `setup_client` returns (an Anthropic client).
        Only a client made by the override's class is recorded; each summarised subclass is
        read apart from the others.
        """
        home = self.class_of(module, function) if function is not None else None
        callee = call[1]
        if home is None or function is None or callee[0] != "attr" or call[4] or call[5]:
            return
        facts = self.summaries[module]["functions"][function]
        params = facts["params"]
        if not facts["method"] or facts["classmethod"] or not params:
            return
        if callee[1] != ["name", params[0]["name"]]:
            return
        hooks = {name: arg for name, arg in self._hook_args(facts, call, params[0]["name"])}
        if not hooks:
            return
        own = self.member(*home, callee[2])
        for sub in self._subclasses(home)[1:]:
            override = self.member(*sub, callee[2])
            layout = self._layout(override) if override and override != own else None
            if override is None or layout is None:
                continue
            bound, _ = _bind(call, layout, False)
            for name, arg in bound.items():
                if id(arg) not in hooks:
                    continue
                made = self._hook_value(module, function, hooks[id(arg)], *sub, 0)
                proven = isinstance(made, Client) and not made.path and made.only is None
                cls = made.cls if isinstance(made, Client) and proven else None
                self._record_hook_client(override, name, cls)

    def _hook_args(
        self, facts: dict[str, Any], call: list[Any], self_name: str
    ) -> Iterator[tuple[int, list[Any]]]:
        """Yield (id of the argument, the hook call) for each positional or keyword argument
        of a call that is `self.hook(...)`, written there or held by a local bound once."""
        for arg in [*call[2], *call[3].values()]:
            value = arg
            if arg[0] == "name":
                local = facts["locals"].get(arg[1])
                value = local[0][0] if local and len(local) == 1 else arg
            if value[0] == "call" and value[1][0] == "attr" and value[1][1] == ["name", self_name]:
                yield id(arg), value

    def _record_hook_client(self, key: tuple[str, str], name: str, cls: str | None) -> None:
        """Record the client a subclass's hook gives an override's parameter; anything else
        (another subclass running the same override with another hook) makes it ambiguous."""
        self._read("clients", key)
        if cls is None or not (is_sdk_client_class(cls) or cls == BEDROCK_RUNTIME):
            self._put(self._entry(self.facts.ambiguous, key, "clients", set), name, "clients", key)
            return
        clients = self._entry(self.facts.param_clients, key, "clients", dict)
        if name not in clients:
            clients[name] = cls
            self._touch("clients", key)
        elif clients[name] != cls:
            self._put(self._entry(self.facts.ambiguous, key, "clients", set), name, "clients", key)

    def _annotated_method(self, symbol: Sym) -> Sym:
        """Return the method a parameter annotated with a project class gives
        (`def __init__(self, llm: ClaudeBackend)`, `self.llm = llm`, then `self.llm.ask(...)`):
        the class's own, as the annotation says what the argument is; un-annotated, the class
        every caller's argument is an instance of. Anything else is itself."""
        if not isinstance(symbol, Param):
            return symbol
        head, rest = _split_path(symbol.name)
        if not rest.startswith(".") or "." in rest[1:] or "[" in rest:
            return None
        facts = self.summaries[symbol.module]["functions"].get(symbol.qual)
        params = facts["params"] if facts is not None else []
        annotation = next((p["annotation"] for p in params if p["name"] == head), None)
        cls = self.evaluate(symbol.module, None, annotation) if annotation is not None else None
        if annotation is None:
            # Un-annotated: the one project class every in-project caller that proves anything
            # binds the parameter to (`run(ClaudeAgent(key))`, `Orchestrator(agent=...)`).
            cls = self._object_of(Param(symbol.module, symbol.qual, head), None)
        if isinstance(cls, Choice):
            # An instance of one of several classes: each one's method learns from the call.
            methods: list[Sym] = []
            for option in cls.options:
                found = (
                    None
                    if not isinstance(option, Obj)
                    else self.member(option.module, option.name, rest[1:])
                )
                if isinstance(option, Obj) and found is not None:
                    methods.append(Bound(*found, option.module, option.name, True))
            return _choice(methods)
        if not isinstance(cls, (Class, Obj)):
            return None
        found = self.member(cls.module, cls.name, rest[1:])
        if found is None:
            return None
        return Bound(found[0], found[1], cls.module, cls.name, below=True)

    def _submitted(self, module: str, function: str | None, call: list[Any]) -> list[Any] | None:
        """Return the call an executor makes of the function handed to it, as if written here.

        `pool.submit(fn, *args, **kwargs)` (concurrent.futures, dask) and
        `loop.run_in_executor(executor, fn, *args)` call `fn` with the arguments that follow it
        (https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.submit,
        https://docs.python.org/3/library/asyncio-eventloop.html#asyncio.loop.run_in_executor);
        `asyncio.to_thread(fn, *args, **kwargs)` too. A project object's own method of that
        name is an ordinary call, read as one.
        """
        callee = call[1]
        if callee[0] != "attr" or callee[2] not in _SUBMITTERS:
            return None
        receiver = self.evaluate(module, function, callee[1])
        if isinstance(receiver, (Obj, SelfParam, Class, Super)) or (
            isinstance(receiver, Module) and receiver.name in self.summaries
        ):
            return None
        at = _SUBMITTERS[callee[2]]
        args = call[2]
        if len(args) <= at or (callee[2] == "run_in_executor" and call[3]):
            return None
        made = ["call", args[at], args[at + 1 :], call[3], call[4], call[5], call[6], call[7]]
        return self._made(("submitted", id(call)), made)

    def _handed(
        self, module: str, function: str | None, call: list[Any]
    ) -> tuple[list[Any], tuple[str, dict[str, list[Any]]]] | None:
        """Return the SDK request a call hands to a function that makes it, as if written here,
        with its target; None for anything else.

        `asyncio.to_thread(fn, *args, **kwargs)` and an executor's `submit(fn, *args, **kwargs)`
        call `fn` with the keywords that follow it
        (https://docs.python.org/3/library/asyncio-task.html#asyncio.to_thread,
        https://docs.python.org/3/library/concurrent.futures.html#concurrent.futures.Executor.submit);
        `loop.run_in_executor(executor, fn)` calls `fn` with nothing
        (https://docs.python.org/3/library/asyncio-eventloop.html#asyncio.loop.run_in_executor),
        so its request is a `functools.partial` of the method with the keywords bound there. The
        SDK's request methods take keywords only: another positional argument, or a `*` one, is
        not such a call.
        """
        at = self._hands_at(module, function, call)
        if at is None or len(call[2]) != at + 1 or call[4]:
            return None
        handed = self._bound_partial(module, function, call[2][at])
        if handed is not None:
            # `functools.partial(client.messages.create, model=...)`: its keywords are the
            # request's, with the handing call's (which win).
            keywords = {**handed[3], **call[3]}
            made = ["call", handed[2][0], [], keywords, False, handed[5] + call[5], *call[6:]]
        else:
            made = ["call", call[2][at], [], *call[3:]]
        made = self._made(("handed", id(call)), made)
        target = self._target(module, function, made)
        if target is None or not target[0].startswith("sdk:"):
            return None
        return made, target

    def _bound_partial(
        self, module: str, function: str | None, handed: list[Any]
    ) -> list[Any] | None:
        """Return the `functools.partial(fn, **keywords)` call a handed expression is, written
        there or held by a local bound once (`request = functools.partial(...)` then
        `run_in_executor(None, request)`); None for anything else."""
        if handed[0] == "name" and function is not None:
            facts = self.summaries[module]["functions"].get(function)
            local = (facts or {}).get("locals", {}).get(handed[1])
            if local and len(local) == 1:
                handed = local[0][0]
        if handed[0] != "call" or len(handed[2]) != 1 or handed[4]:
            return None
        partial = self.evaluate(module, function, handed[1])
        if not isinstance(partial, Ref) or partial.qualname != "functools.partial":
            return None
        return handed

    def _hands_at(self, module: str, function: str | None, call: list[Any]) -> int | None:
        """Return the position of the function a call hands on to be called (`to_thread`, an
        executor's `submit` or `run_in_executor`); None for any other call. A project object's
        own method of that name is an ordinary call."""
        callee = call[1]
        if callee[0] not in ("attr", "name"):
            return None
        if callee[-1] in _HANDOFF_NAMES:
            found = self.evaluate(module, function, callee)
            if isinstance(found, Ref) and found.qualname in _HANDOFFS:
                return _HANDOFFS[found.qualname]
        if callee[0] != "attr" or callee[2] not in _EXECUTOR_METHODS:
            return None
        receiver = self.evaluate(module, function, callee[1])
        if isinstance(receiver, (Obj, SelfParam, Class, Super, Client)) or (
            isinstance(receiver, Module) and receiver.name in self.summaries
        ):
            return None
        return _EXECUTOR_METHODS[callee[2]]

    def _made(self, key: tuple[Any, ...], expression: list[Any]) -> list[Any]:
        """Return an expression made here from a summary's parts, the same object every time it
        is made again: evaluations are memoised by the identity of the expression."""
        return self._synthesised.setdefault(key, expression)

    def _callees(self, module: str, function: str | None, callee_expr: list[Any]) -> list[Sym]:
        """Return what a call may run: one value, or each of a local's values.

        `call_api = ask_v2 if new else ask` then `call_api(...)`: each function is called
        with these arguments, so each learns from the call.
        """
        callee = self.evaluate(module, function, callee_expr)
        if isinstance(callee, Choice):
            return list(callee.options)
        found = (
            [self._annotated_method(callee)]
            if callee is not None
            else [
                self._annotated_method(self.evaluate(module, function, value))
                for value in self._alternatives(module, function, callee_expr, 0)
            ]
        )
        # A parameter handed one of several classes' instances: each one's method may run.
        return [o for m in found for o in (m.options if isinstance(m, Choice) else (m,))]

    def _alternatives(
        self, module: str, function: str | None, value: list[Any], depth: int
    ) -> list[list[Any]]:
        """Return the expressions a value may be: each branch of `or`/`if`, each assignment
        of a local (a bounded number of them)."""
        kind = value[0]
        if depth > MAX_PATH or kind not in ("name", "if", "or", "attr"):
            return [value]
        if kind == "attr":
            # `handler.send(...)` with `handler` chosen in branches: each one's method.
            bases = self._alternatives(module, function, value[1], depth + 1)
            if len(bases) < 2:
                return [value]
            return [self._made(("attr", id(value), id(b)), ["attr", b, value[2]]) for b in bases]
        if kind == "if":
            options = [value[1], value[2]]
        elif kind == "or":
            options = list(value[1])
        else:
            facts = self.summaries[module]["functions"].get(function or "", {})
            options = [v for v, _ in facts.get("locals", {}).get(value[1], [])]
            if not options:
                return [value]
        found: list[list[Any]] = []
        for option in options[:MAX_DEPTH]:
            found.extend(self._alternatives(module, function, option, depth + 1))
        return found[:MAX_DEPTH]

    def _record_callee(
        self, module: str, function: str | None, call: list[Any], callee: Sym
    ) -> None:
        if callee is None:
            return
        if isinstance(callee, Class):
            init = self.member(callee.module, callee.name, "__init__")
            if init is not None:
                made = (callee.module, callee.name)
                self._record_project_call(module, function, call, *init, True, made)
        elif isinstance(callee, Bound):
            runs_on = (callee.receiver_module, callee.receiver)
            self._record_project_call(
                module, function, call, callee.module, callee.qual, True, runs_on, callee.below
            )
        elif isinstance(callee, Func):
            # `Base.__init__(self, ...)`: the instance is the first argument.
            first = self.evaluate(module, function, call[2][0]) if call[2] else None
            receiver = None
            if isinstance(first, (SelfParam, Obj)):
                receiver = (first.module, first.name)
            self._record_project_call(
                module, function, call, callee.module, callee.qual, False, receiver
            )

    def _target(
        self, module: str, function: str | None, call: list[Any]
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return (target key, the call's keyword expressions) for a call reaching Claude."""
        callee_expr = call[1]
        kwargs: dict[str, list[Any]] = call[3]
        if callee_expr[0] == "attr":
            path: list[str] = []
            base = callee_expr
            while base[0] == "attr" and len(path) < 4:
                path.insert(0, base[2])
                base = base[1]
                receiver = self.receiver(module, function, base)
                if isinstance(receiver, Client):
                    if receiver.only is not None and path[0] not in receiver.only:
                        return None  # another vendor's client may be the one called
                    full = (*receiver.path, *path)
                    if receiver.cls == BEDROCK_RUNTIME:
                        return self._bedrock_target(module, function, kwargs, full)
                    if receiver.cls == INSTRUCTOR_ON_ANTHROPIC:
                        found = tuple(full) in INSTRUCTOR_METHODS
                        return ("instructor:create", kwargs) if found else None
                    if receiver.cls == AISUITE_CLIENT:
                        return self._aisuite_target(module, function, call, tuple(full))
                    sdk = SDK_METHODS.get(tuple(full))
                    if sdk is None or self._another_model(module, function, receiver, kwargs):
                        return None
                    return sdk, kwargs
        if callee_expr[0] == "name" and function is not None:
            method = self.receiver(module, function, callee_expr)
            if isinstance(method, Client) and _sdk_method(method):
                # `fn(**kwargs)` in a helper its callers hand an SDK client's method.
                return SDK_METHODS[tuple(method.path)], kwargs
        callee = self.evaluate(module, function, callee_expr)
        if not isinstance(callee, Ref):
            return None
        return self._outside_target(module, function, call, callee.qualname)

    def _another_model(
        self, module: str, function: str | None, client: Client, kwargs: dict[str, list[Any]]
    ) -> bool:
        """Return whether a first-party client is sent a model proven another vendor's
        (`targets.anthropic_sdk.sent_another_model`): not a Claude call."""
        if MODEL not in kwargs:
            return bool(client.server)
        model = self.evaluate(module, function, kwargs[MODEL])
        if isinstance(model, Const):
            return sent_another_model(client.cls, model.value, client.server)
        if client.server and isinstance(model, Param) and model.qual != function:
            # `self.model`, kept by `__init__` from its parameter: what the object is made
            # with decides, and no caller of this function gives it, so it is not proven a
            # Claude model on a server of other models only.
            return True
        # On a server of other models only, a model no caller gives (read from a parameter)
        # and that is no choice among values is not proven a Claude model.
        expr = kwargs[MODEL]
        return (
            bool(client.server)
            and expr[0] not in ("or", "if")
            and not self._reads_parameter(module, function, expr)
        )

    def _reads_parameter(self, module: str, function: str | None, expr: list[Any]) -> bool:
        """Return whether a summary's expression is a parameter of `function` or read from one
        (`model`, `self.model`, `config["model"]`, `options.get("model")`)."""
        while expr and expr[0] in ("attr", "sub", "call"):
            expr = expr[1]
        facts = self.summaries.get(module, {}).get("functions", {}).get(function or "")
        return (
            facts is not None
            and bool(expr)
            and expr[0] == "name"
            and any(p["name"] == expr[1] for p in facts["params"])
        )

    def _bedrock_target(
        self,
        module: str,
        function: str | None,
        kwargs: dict[str, list[Any]],
        full: tuple[str, ...],
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return (target key, the Claude parameters) of a bedrock-runtime client's method.

        The parameters are those of `inferenceConfig`, with `modelId` beside them; for
        `invoke_model`, whose parameters are in a JSON body the files read, `modelId` alone.
        """
        key = BEDROCK_METHODS.get(full[0]) if len(full) == 1 else None
        if key is None:
            return None
        model = self.evaluate(module, function, kwargs.get("modelId", ["?"]))
        if (
            isinstance(model, Const)
            and isinstance(model.value, str)
            and not is_claude_model(model.value)
        ):
            return None
        if TARGETS[key].location != "inference-config":
            return key, {"modelId": kwargs.get("modelId", ["?"])}
        config = kwargs.get("inferenceConfig")
        params = dict(config[1]) if config and config[0] == "dict" else {}
        params["modelId"] = kwargs.get("modelId", ["?"])
        return key, params

    def _outside_target(
        self, module: str, function: str | None, call: list[Any], name: str
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return (target key, keywords) for a call of an outside name reaching Claude.

        A LangChain class (one not Anthropic's own only with a Claude model), or LiteLLM's
        `completion` with a Claude model.
        """
        kwargs: dict[str, list[Any]] = call[3]
        key = langchain_target(name)
        if key is not None:
            if key not in ("langchain:ChatAnthropic", "langchain:legacy"):
                model = None
                for model_name in TARGETS[key].model:
                    if model_name in kwargs:
                        model = self.evaluate(module, function, kwargs[model_name])
                # A parameter of a class that is Claude's only with a Claude model
                # (`by_model`): the wrapper's call site is one only where a caller passes one.
                by_caller = TARGETS[key].by_model and (
                    isinstance(model, Param) or self._spells_param(module, function, kwargs, key)
                )
                if not _is_claude_constant(model) and not by_caller:
                    return None
            target = TARGETS[key]
            nested = kwargs.get(target.nested) if target.location == "model-kwargs" else None
            if nested and nested[0] == "dict":
                kwargs = {**kwargs, **nested[1]}  # ChatBedrock's parameters sit in model_kwargs
            return key, kwargs
        if name in ("litellm.completion", "litellm.acompletion"):
            model_expr = kwargs.get("model") or (call[2][0] if call[2] else None)
            model = self.evaluate(module, function, model_expr) if model_expr else None
            if model_expr is None:
                # `completion(**request)`: a Claude model the dict names proves the call Claude's;
                # a parameter there (`"model": self.model`, the constructor's) makes it one
                # per caller, as `completion(model=self.model)` is.
                spread = self._spread_model(module, function, call)
                named = self.evaluate(module, function, spread) if spread else None
                if spread is not None and (_is_claude_constant(named) or isinstance(named, Param)):
                    return "litellm:completion", {**kwargs, "model": spread}
            if _is_claude_constant(model) or isinstance(model, Param):
                return "litellm:completion", kwargs
            if model_expr and self._spelled_param(module, function, model_expr):
                return "litellm:completion", {**kwargs, "model": model_expr}
            if model_expr and self._table_param(module, function, model_expr) is not None:
                # `completion(model=MODELS[provider])`: Claude's where callers pick a Claude
                # model's key.
                return "litellm:completion", {**kwargs, "model": model_expr}
        if name in CONSTRUCTORS:
            return self._constructor_target(module, function, call, name)
        if name in _HTTP_POSTS:
            return self._http_target(module, function, call)
        return None

    def _http_target(
        self, module: str, function: str | None, call: list[Any]
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return the target of a POST of a JSON body to the Anthropic API's endpoint, its URL
        proven (a literal, a constant of a module or class, `self.API_URL` set in the class
        body); None for anything else, or a body sent otherwise than as `json=`."""
        url = call[2][0] if call[2] else call[3].get("url")
        if url is None or "json" not in call[3] or call[4] or call[5]:
            return None
        endpoints = {
            anthropic_endpoint(u) if isinstance(u, str) else None
            for u in self._urls(module, function, url)
        }
        if len(endpoints) != 1 or None in endpoints:
            return None
        return ("http:messages" if endpoints == {"messages"} else "http:complete"), {}

    def _urls(self, module: str, function: str | None, url: list[Any]) -> list[Any]:
        """Return the values a POST's URL may be: one, or for `self.API_URL` the value each
        summarised class the method may run on (its own, or a subclass's: `class Proxy(Claude):
        API_URL = ...`) holds; None for one not proven a string."""
        base = self.evaluate(module, function, url[1]) if url[0] == "attr" else None
        if isinstance(base, SelfParam):
            classes = self._subclasses((base.module, base.name))
            if len(classes) >= MAX_SUBCLASSES:
                return [None]
            found = [self._attribute_value(m, c, url[2], 0) for m, c in classes]
        else:
            found = [self.evaluate(module, function, url)]
        return [f.value if isinstance(f, Const) else None for f in found]

    def _aisuite_target(
        self, module: str, function: str | None, call: list[Any], path: tuple[str, ...]
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return an aisuite client's request whose model, by keyword or first, is proven a
        Claude model of one of its providers (`targets.aisuite.provider_target`), or is a
        parameter (bare or spelled around) that is Claude's behind `anthropic:` where every
        caller passes one (`_record_models_given` reads the prefix)."""
        if path not in AISUITE_METHODS:
            return None
        kwargs: dict[str, list[Any]] = call[3]
        given = kwargs.get(MODEL) or (call[2][0] if call[2] else None)
        model = self.evaluate(module, function, given) if given else None
        key: str | None = "aisuite:create"
        if not (isinstance(model, Param) or self._spelled_param(module, function, given or [])):
            named = isinstance(model, Const) and isinstance(model.value, str)
            key = provider_target(str(model.value)) if isinstance(model, Const) and named else None
        if key is None:
            return None
        return key, {**kwargs, MODEL: given} if given is not None else kwargs

    def _spread_model(self, module: str, function: str | None, call: list[Any]) -> list[Any] | None:
        """Return the model expression a LiteLLM call takes from the one dict it spreads
        (`request = {"model": self.model, ...}`, then `completion(**request)`), when the calling
        function writes the dict and every key of it is seen (no other spread beside it)."""
        if function is None or call[4] or len(call[5]) != 1:
            return None
        made = self.sent_dict(module, function, call[5][0])
        if made is None or (made.module, made.function) != (module, function):
            return None
        if made.opaque or made.spreads or "model" in made.maybe:
            return None
        entry = made.entries.get("model")
        return entry if isinstance(entry, list) else None

    def _spells_param(
        self, module: str, function: str | None, kwargs: dict[str, list[Any]], key: str
    ) -> bool:
        """Return whether a target's model keyword is spelled around a parameter."""
        return any(
            self._spelled_param(module, function, kwargs[name])
            for name in TARGETS[key].model
            if name in kwargs
        )

    def _spelled_param(self, module: str, function: str | None, value: list[Any]) -> bool:
        """Return whether a model is spelled around a parameter (`"anthropic/" + model`): the
        call is Claude's where a caller passes a Claude model (`by_model`), as for the
        parameter itself."""
        if function is None:
            return False
        around = self._spelled_around(module, function, value)
        return around is not None and isinstance(self.evaluate(module, function, around[0]), Param)

    def _constructor_target(
        self, module: str, function: str | None, call: list[Any], name: str
    ) -> tuple[str, dict[str, list[Any]]] | None:
        """Return a registered constructor's call (`targets.CONSTRUCTORS`) as a target, its
        positional model named; a model proven not Claude's makes it none (`by_model`)."""
        made = CONSTRUCTORS[name]
        target = TARGETS[made.target]
        kwargs: dict[str, list[Any]] = dict(call[3])
        if made.positional is not None and len(call[2]) > made.positional:
            kwargs.setdefault(target.model[0], call[2][made.positional])
        nested = kwargs.get(target.nested) if target.location == "model-kwargs" else None
        if nested and nested[0] == "dict":
            kwargs.update(nested[1])
        if target.by_model:
            found = [kwargs[n] for n in target.model if n in kwargs]
            model = self.evaluate(module, function, found[0]) if found else None
            if model is None and not found:
                return None
            if isinstance(model, Const) and not _is_claude_constant(model):
                return None
        return made.target, kwargs

    def _record_target(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        key: str,
        kwargs: dict[str, list[Any]],
    ) -> None:
        target = TARGETS[key]
        # A module making a Claude call: the modules it imports may hold its values.
        self.followed.add(module)
        where: list[Any] = [self.paths.get(module, module), call[6]]
        home = self.class_of(module, function)
        if home is not None:
            # Made in a method: valid for a base class's method only on this class's instances.
            where.append(list(home))
        held = self._model_held(module, function, key, kwargs)
        for canonical in CANONICAL:
            for name in target.names(canonical):
                value = kwargs.get(name)
                if value is None or not self._read_with(module, function, value, canonical, held):
                    continue
                reach = [canonical, key, *where]
                self._reach_from(module, function, value, reach)
                self._constant_read(module, function, value, [canonical, key, *where[:2]])
                self._class_constant_read(
                    module, function, value, home, [canonical, key, *where[:2]], (module, function)
                )
                self._record_field_read(module, function, value)
        if function is not None and held is None:
            for star in call[5]:
                self._record_target_star(module, function, star, key, where)
        if target.location == "json-body" and "body" in call[3]:
            self._record_body(module, function, call[3]["body"], key, where)

    def _model_held(
        self, module: str, function: str | None, key: str, kwargs: dict[str, list[Any]]
    ) -> tuple[str, str] | None:
        """Return the function whose parameter a call Claude's only by its model (`by_model`:
        LiteLLM's) takes the model from, when it is not the calling function (`self.model`,
        kept by `__init__`); None otherwise. The call is then Claude's for the objects made
        with a Claude model, which no call of this method tells (`_read_with`)."""
        target = TARGETS[key]
        if not target.by_model or function is None:
            return None
        for name in target.names(MODEL):
            if name in kwargs:
                model = self.evaluate(module, function, kwargs[name])
                if isinstance(model, Param) and (model.module, model.qual) != (module, function):
                    return (model.module, model.qual)
                return None
        return None

    def _read_with(
        self,
        module: str,
        function: str | None,
        value: list[Any],
        canonical: str,
        held: tuple[str, str] | None,
    ) -> bool:
        """Return whether what a Claude call sends as `canonical` is read, its model taken from
        the parameter of `held` (`_model_held`): the model, and a value from a parameter of
        that same function (each call of it gives both: `Facts.model_callers` tells them
        apart); not a value another function's caller gives, which may be another vendor's
        request (`Provider(model="gpt-4o").complete(max_tokens=9000)`)."""
        if held is None or canonical == MODEL:
            return True
        found = self.evaluate(module, function, value)
        return isinstance(found, Param) and (found.module, found.qual) == held

    def _record_body(
        self, module: str, function: str | None, body: list[Any], key: str, where: list[Any]
    ) -> None:
        """Record what an `invoke_model` body built by a helper of another module sends
        (`body=claude_body(prompt)`, returning `json.dumps({...})`): its entries reach the call
        as a `**kwargs` dict's do."""
        made = self._body_dict(module, function, body, 0)
        if made is None:
            for made in self._hook_bodies(module, function, body, 0):
                self._record_body_dict(module, made, key, where)
            return
        self._record_body_dict(module, made, key, where)

    def _record_body_dict(self, module: str, made: DictLit, key: str, where: list[Any]) -> None:
        target = TARGETS[key]
        for canonical in CANONICAL:
            for name in target.names(canonical):
                if name in made.entries:
                    reach = [canonical, key, *where]
                    # A parameter an entry reads reaches the call, wherever the body is built
                    # (`"max_tokens": max_tokens` in the calling function: what its callers pass).
                    self._reach_from(made.module, made.function, made.entries[name], reach)
                    if made.module != module:  # built here: the file's own analysis reads it
                        self._helper_literal(
                            module, made, (name, made.entries[name]), [canonical, key, *where[:2]]
                        )

    def _body_dict(
        self, module: str, function: str | None, body: list[Any], depth: int
    ) -> DictLit | None:
        """Return the dict literal a JSON body is dumped from, through `json.dumps(...)` and
        functions returning it."""
        if depth > MAX_PATH:
            return None
        if body[0] == "name" and function is not None:
            # `body = json.dumps({...})` then `invoke_model(body=body)`: its one assignment.
            local = self.summaries[module]["functions"][function]["locals"].get(body[1])
            if not local or len(local) != 1:
                return None
            return self._body_dict(module, function, local[0][0], depth + 1)
        if body[0] != "call":
            return None
        callee = self.evaluate(module, function, body[1])
        if isinstance(callee, Ref) and callee.qualname == "json.dumps" and len(body[2]) >= 1:
            made = self.evaluate(module, function, body[2][0])
            return made if isinstance(made, DictLit) else None
        if not isinstance(callee, Func):
            return None
        returns = self.summaries[callee.module]["functions"].get(callee.qual, {}).get("returns")
        if not returns or len(returns) != 1:
            return None
        made = self.evaluate(callee.module, callee.qual, returns[0])
        if isinstance(made, DictLit):
            return made
        return self._body_dict(callee.module, callee.qual, returns[0], depth + 1)

    def _hook_bodies(
        self, module: str, function: str | None, body: list[Any], depth: int
    ) -> list[DictLit]:
        """Return the Anthropic Messages bodies the overrides of a hook return, when a JSON body
        is what a method of the instance returns that its own class leaves to subclasses
        (`json.dumps(self._body(turns))` on an abstract `_body`): each override returning one
        dict literal with `anthropic_version` (a key only Claude's body has) is a Claude
        request, sent when the instance is of its class. Others (another vendor's body) are
        not read."""
        if depth > MAX_PATH or function is None:
            return []
        if body[0] == "name":
            local = self.summaries[module]["functions"][function]["locals"].get(body[1])
            if not local or len(local) != 1:
                return []
            return self._hook_bodies(module, function, local[0][0], depth + 1)
        if body[0] != "call":
            return []
        callee = self.evaluate(module, function, body[1])
        if isinstance(callee, Ref) and callee.qualname == "json.dumps" and len(body[2]) >= 1:
            return self._hook_bodies(module, function, body[2][0], depth + 1)
        if not isinstance(callee, Bound) or not callee.below:
            return []
        facts = self.summaries[callee.module]["functions"].get(callee.qual)
        if facts is None or facts["returns"]:
            return []
        cls, _, name = callee.qual.rpartition(".")
        found: list[DictLit] = []
        for sub in self._subclasses((callee.module, cls))[1:]:
            method = self.member(*sub, name)
            returns = self.summaries[method[0]]["functions"][method[1]]["returns"] if method else []
            made = self.evaluate(method[0], method[1], returns[0]) if method and returns else None
            if (
                len(returns) == 1
                and isinstance(made, DictLit)
                and "anthropic_version" in made.entries
                and made not in found
            ):
                found.append(made)
        return found

    def _model_tables(
        self, module: str, qual: str, reaches: dict[str, list[list[Any]]]
    ) -> dict[str, Any]:
        """Return the tables keyed by model id a function looks the model its callers pass up
        in (`OUTPUT_LIMIT[model]`, `CONFIGS.get(model)`): `{"model_tables": {param: [[table,
        keys]]}}`, for a caller's file to keep an id the table has and its replacement lacks.

        A `.get` names its key; a subscript by anything but a literal counts when every key of
        the table is a Claude model id (a table of model ids)."""
        params = [p for p, items in reaches.items() if any(r[0] == MODEL for r in items)]
        if not params:
            return {}
        facts = self.summaries[module]["functions"][qual]
        found: dict[str, list[list[Any]]] = {}
        stack: list[Any] = [*facts["calls"], *(v[0] for vs in facts["locals"].values() for v in vs)]
        for _ in range(MAX_TABLE_WALK):
            if not stack:
                break
            value = stack.pop()
            if not isinstance(value, list) or not value:
                continue
            for part in value[1:]:
                parts = part.values() if isinstance(part, dict) else [part]
                stack.extend(v for v in parts if isinstance(v, list))
            table, keyed = _table_read(value)
            if table is None:
                continue
            made = self.evaluate(module, None, ["name", table])
            if not isinstance(made, DictLit) or made.opaque or made.spreads or made.function:
                continue
            keys = sorted(made.entries)
            every = all(is_claude_model(k) for k in keys)
            for param in params:
                if (keyed == param or (keyed is None and every)) and len(keys) <= MAX_TABLE_KEYS:
                    tables = found.setdefault(param, [])
                    if [table, keys] not in tables:
                        tables.append([table, keys])
        return {"model_tables": found} if found else {}

    def _hook_returns(self, module: str, qual: str) -> dict[str, Any]:
        """Return what a hook's one override of another module returns, when it returns one
        dict literal: `{"hook_returns": [literal entries, other keys, whether some keys may be
        absent or unknown]}`, for the base class's file to read a body it sends
        (`invoke_model(body=json.dumps(self._body(turns)))`)."""
        override = self.one_override(module, qual)
        if override is None or override[0] == module:
            return {}  # none, or one the file reads itself
        returns = self.summaries[override[0]]["functions"][override[1]]["returns"]
        made = self.evaluate(*override, returns[0]) if len(returns) == 1 else None
        if not isinstance(made, DictLit):
            return {}
        literal = {
            k: v[1] for k, v in made.entries.items() if v[0] == "lit" and k not in made.maybe
        }
        others = sorted(k for k in made.entries if k not in literal and k not in made.maybe)
        unsure = bool(made.opaque or made.spreads or made.maybe)
        return {"hook_returns": [literal, others, unsure]}

    def _overridden_helper(
        self, module: str, qual: str, receiver: tuple[str, str] | None
    ) -> dict[str, Any]:
        """Return `{"overridden": True}` for a method whose returned dict a Claude call spreads
        when a summarised subclass of the class it runs on overrides it: an instance of that
        subclass sends what its own method returns, so the call's keys are not the method's
        alone."""
        if (module, qual) not in self._spread_methods:
            return {}
        owner = receiver or self.class_of(module, qual)
        method = qual.rpartition(".")[2]
        if owner is not None and any(
            f"{sub}.{method}" in self.summaries[sub_module]["functions"]
            for sub_module, sub in self._subclasses(owner)[1:]
        ):
            return {"overridden": True}
        return {}

    def _note_sent_helper(self, module: str, made: DictLit) -> None:
        """Note a function of another module whose returned dict a Claude call of `module`
        spreads (`_sent_returns`)."""
        if made.function is not None and made.module != module:
            self._sent_helpers.add((made.module, made.function))
        if made.function is not None and "." in made.function:
            self._spread_methods.add((made.module, made.function))

    def _sent_returns(
        self, module: str, qual: str, receiver: tuple[str, str] | None
    ) -> dict[str, Any]:
        """Return what a function of this module returns when a Claude call of another module
        spreads it and it returns one dict literal: `{"sent_returns": [literal entries, other
        keys, whether some keys may be absent or unknown]}`, for the calling file to read the
        keys it sends (`create(**self.params())` with `params` a base class's method there)."""
        if (module, qual) not in self._sent_helpers:
            return {}
        method = qual.rpartition(".")[2]
        for sub_module, sub in self._subclasses(receiver)[1:] if receiver else ():
            if f"{sub}.{method}" in self.summaries[sub_module]["functions"]:
                return {}  # an instance of that subclass sends what its own method returns
        returns = self.summaries[module]["functions"][qual]["returns"]
        made = self.evaluate(module, qual, returns[0]) if len(returns) == 1 else None
        if not isinstance(made, DictLit):
            return {}
        merged = self._merged_defaults(module, qual, made)
        if merged is not None:
            return {"merged_returns": merged}
        literal = {
            k: v[1]
            for k, v in made.entries.items()
            if v[0] == "lit" and k not in made.maybe and _jsonable(v[1])
        }
        others = sorted(k for k in made.entries if k not in literal and k not in made.maybe)
        unsure = bool(made.opaque or made.spreads or made.maybe)
        return {"sent_returns": [literal, others, unsure]}

    def _merged_defaults(self, module: str, qual: str, made: DictLit) -> list[Any] | None:
        """Return `[literal entries, other keys, name]` when a function returns its module's
        dict of defaults merged with its own `**kwargs` (`return {**DEFAULTS, **overrides}`):
        a call sends the dict's entries but for the keywords it gives. Only a dict bound once
        at module level to a literal of string keys with nothing spread into it, that no file
        of the run changes (`_changed_in_run`), and `**kwargs` the function never binds or
        changes; None otherwise."""
        if made.entries or made.maybe or len(made.spreads) != 2:
            return None
        name, varkw = made.spreads
        facts = self.summaries[module]["functions"][qual]
        kinds = {p["name"]: p["kind"] for p in facts["params"]}
        if kinds.get(varkw) != "varkw" or name in kinds or name in facts["locals"]:
            return None
        if varkw in facts["locals"] or varkw in facts.get("changed", ()):
            return None
        defaults = self.evaluate(module, None, ["name", name])
        if not isinstance(defaults, DictLit) or defaults.module != module:
            return None
        if defaults.function is not None or defaults.opaque or defaults.spreads or defaults.maybe:
            return None
        assigns = self.summaries[module]["assigns"].get(name)
        if not assigns or len(assigns) != 1 or assigns[0][1]:
            return None
        if self._changes_dict(module, name) or self._changed_in_run(module, name):
            return None
        known, unknown, _ = self._option_entries(defaults, False)
        return [known, sorted(unknown), f"{module}.{name}"]

    def one_override(self, module: str, qual: str) -> tuple[str, str] | None:
        """Return the one method of the project's subclasses that overrides a method returning
        nothing (an abstract hook: `def _body(self, turns): ...`) and returns something: with
        one, what the base class's method sends is what it returns, as a file reads one
        override of its own module (`values._override_scope`). Two leave it unknown."""
        cls, dot, name = qual.rpartition(".")
        facts = self.summaries.get(module, {}).get("functions", {}).get(qual)
        if not dot or facts is None or not facts["method"] or facts["returns"]:
            return None
        found: set[tuple[str, str]] = set()
        for sub in self._subclasses((module, cls))[1:]:
            method = self.member(*sub, name)
            if method is None or method == (module, qual):
                continue
            if self.summaries[method[0]]["functions"].get(method[1], {}).get("returns"):
                found.add(method)
        return found.pop() if len(found) == 1 else None

    def _class_constant_read(
        self,
        module: str,
        function: str | None,
        value: list[Any],
        receiver: tuple[str, str] | None,
        read: list[Any],
        caller: tuple[str, str | None],
    ) -> None:
        """Record `read` on the class-level constant a Claude parameter reads as `self.<attr>`
        in a method running on instances of `receiver` or of its subclasses (a base class's
        method building the request from its subclass's class attributes). A call the file's
        own analysis also reads it for is counted once there (`constant_reads._beside`)."""
        if read[0] not in READ_AT_DEFINITION or receiver is None or function is None:
            return
        if value[0] != "attr" or value[1][0] != "name":
            return
        if not isinstance(self.evaluate(module, function, value[1]), SelfParam):
            return
        if value[2] in self._attributes_set_anywhere():
            return  # `agent.model = m` somewhere: what an instance holds is not its class's
        for cls in self._subclasses(receiver):
            # Each class whose instances run the method reads its own (or inherited) value;
            # one overriding the method (or the Claude call's) sends something else.
            if not (self._runs(cls, module, function) and self._runs(cls, *caller)):
                continue
            place = self._class_constant(cls, value[2])
            if place is not None:
                self._note_constant_read(place, read)

    def _note_constant_read(self, place: tuple[str, str], read: list[Any]) -> None:
        """Record a Claude call's read of a constant (`constant_reads`); one made through an
        entry a later spread may replace is kept apart with its condition (`shadowed_reads`),
        counted once a constructor call is found to send it (`_kept_reads`)."""
        if self._condition is not None:
            table = _quiet_entry(self.facts.shadowed_reads, place[0], dict)
            item = [read, self._condition]
            if item not in _quiet_entry(table, place[1], list):
                table[place[1]].append(item)
            return
        table = self._entry(self.facts.constant_reads, place[0], "constant_reads", dict)
        if _add(table, place[1], read):
            self._touch("constant_reads", place[0])

    def _runs(self, cls: tuple[str, str], module: str, function: str | None) -> bool:
        """Return whether an instance of `cls` runs a method as `self.<name>(...)` finds it."""
        if function is None or function.count(".") != 1:
            return function is None or "." not in function  # a module function: any instance
        return self.member(*cls, function.rsplit(".", 1)[1]) == (module, function)

    def _subclasses(self, cls: tuple[str, str]) -> list[tuple[str, str]]:
        """Return a class and the summarised project classes deriving from it (bounded)."""
        found = self._subclasses_of.get(cls)
        if found is None:
            found = [cls, *self._subclass_index().get(cls, ())]
            self._subclasses_of[cls] = found
        return found

    def _subclass_index(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        """Return each class's deriving project classes, in the summaries' order, as many as
        `_subclasses` keeps: one pass over every class's bases, made again only when modules
        were summarised since (a hook's overrides are asked for every method of a project)."""
        known = len(self.summaries)
        if self._subclass_index_of[0] != known:
            index: dict[tuple[str, str], list[tuple[str, str]]] = {}
            for module, summary in list(self.summaries.items()):
                for name, info in summary["classes"].items():
                    if not info["bases"]:
                        continue
                    other = (module, name)
                    for ancestor in self.mro(*other):
                        below = index.setdefault(ancestor, [])
                        if ancestor != other and len(below) < MAX_SUBCLASSES - 1:
                            below.append(other)
            self._subclass_index_of = (known, index)
        return self._subclass_index_of[1]

    def _class_constant(
        self, receiver: tuple[str, str], attr: str, on_class: bool = False
    ) -> tuple[str, str] | None:
        """Return (module, "Class.attr") of the literal an instance of `receiver` reads as
        `self.attr` (`on_class`: the class itself, as `Config.attr`): the first class body of
        its method resolution order that writes it, once.

        None when any class on the way sets it on the instance (in a method, or as a dataclass
        or pydantic field the constructor fills) or has a base the project does not define (it
        may hold the attribute). A method's `self.attr = v` sets an instance's attribute, which
        a read of the class does not see: `on_class`, only the class bodies count (a field
        still refuses: pydantic keeps no class attribute for it).
        """
        order = self.mro(*receiver)
        found: tuple[str, str] | None = None
        for owner_module, owner in order:
            info = self.summaries.get(owner_module, {}).get("classes", {}).get(owner)
            if info is None or attr in info["fields"] or not self._plain_bases(owner_module, info):
                return None
            values = info["attributes"].get(attr, [])
            if on_class:
                values = [value for value in values if value[1] is None]
            elif any(method is not None for _, method in values):
                return None
            if values and found is None:
                if len(values) != 1 or values[0][0][0] != "lit":
                    return None
                found = (owner_module, f"{owner}.{attr}")
        return found

    def _plain_bases(self, module: str, info: dict[str, Any]) -> bool:
        """Return whether every base of a class is a project class or a plain library base."""
        for base in info["bases"]:
            symbol = self.evaluate(module, None, base)
            if isinstance(symbol, Class):
                continue
            if base == ["name", "object"] or (
                isinstance(symbol, Ref) and symbol.qualname in PLAIN_BASES
            ):
                continue
            return False
        return True

    def _attributes_set_anywhere(self) -> frozenset[str]:
        """Return the attribute names a summarised module sets on an object other than a
        method's own instance (`agent.model = m`, in a function or at module level), once per
        round."""
        known, found = self._set_anywhere or (0, frozenset())
        if known != len(self.summaries):
            # Kept with the number of modules it was read from: only those summarised since
            # (modules are added, never replaced, within a round) are read.
            summaries = list(self.summaries.values())[known:]
            found = found.union(
                (
                    attr
                    for summary in summaries
                    for facts in summary["functions"].values()
                    for held in facts["stores"].values()
                    for attr in held
                ),
                (attr for summary in summaries for attr in summary["set_attrs"]),
            )
            self._set_anywhere = (known + len(summaries), found)
        return found

    def _record_field_read(self, module: str, function: str | None, value: list[Any]) -> None:
        """Record the class of an object a Claude call reads a field of (`model=settings.model`
        with `settings = Settings()`): an options class, whose fields the file is told."""
        base = value
        for _ in range(MAX_PATH):
            if base[0] == "attr":
                base = base[1]
            elif (item := _item_read(base)) is not None:
                base = item[0]
            else:
                break
        if base is value:
            return
        # A parameter's object made when the caller passes none (its default, `x or Options()`)
        # counts as well: its fields are what a call that leaves it out sends.
        for made in self._dumped_objects(module, function, base):
            cls = (made.module, made.name)
            self._put(self.facts.options, cls, "options", cls)

    def _reach_dumped(
        self,
        module: str,
        function: str,
        dumped: list[Any],
        made: Obj,
        key: str,
        where: list[Any],
    ) -> None:
        """Record that each field of a dumped dataclass or pydantic model named as a Claude
        parameter reaches the call (`create(**asdict(options))` sends `options.temperature`
        as `temperature`): the object a caller passes, or the one made when it passes none."""
        info = self.summaries[made.module]["classes"].get(made.name)
        if info is None or f"{made.name}.__init__" in self.summaries[made.module]["functions"]:
            return
        fields = self._fields(made.module, made.name, info)
        if fields is None:
            return
        if {"temperature", "top_p"} <= set(fields["attrs"]):
            self._dumped_pairs.add((str(where[0]), int(where[1])))
        target = TARGETS[key]
        for canonical in CANONICAL:
            for name in target.names(canonical):
                if name in fields["attrs"]:
                    read = self._field_read(dumped, name)
                    self._reach_from(module, function, read, [canonical, key, *where])

    def _field_read(self, base: list[Any], attr: str) -> list[Any]:
        """Return the expression `base.attr`, the same list each time (the memo is by id)."""
        made = self._field_reads.get((id(base), attr))
        if made is None or made[1] is not base:
            made = self._field_reads[(id(base), attr)] = ["attr", base, attr]
        return made

    def _dumped_objects(self, module: str, function: str | None, dumped: list[Any]) -> list[Obj]:
        """Return the options objects `asdict(x)` / `x.model_dump()` may dump: the one `x` is,
        or, for a parameter, the object it stands for when left out (its default, or what an
        `x = x or Options()` / `if x is None: x = Options()` gives it)."""
        made = self.evaluate(module, function, dumped)
        if isinstance(made, Param):
            made = self._object_of(made, None)  # the one class every caller passes, if one
        if isinstance(made, Obj):
            return [made]
        if dumped[0] != "name" or function is None:
            return []
        facts = self.summaries[module]["functions"].get(function, {})
        name = dumped[1]
        options: list[list[Any]] = []
        param = next((p for p in facts.get("params", ()) if p["name"] == name), None)
        if param is not None and param.get("default"):
            options.append(param["default"])
        for value, _ in facts.get("locals", {}).get(name, ())[:2]:
            options.extend(value[1] if value and value[0] == "or" else [value])
        found = [self.evaluate(module, function, option) for option in options]
        return [obj for obj in found if isinstance(obj, Obj)]

    def _record_target_star(
        self, module: str, function: str, star: list[Any], key: str, where: list[Any]
    ) -> None:
        """Record what a Claude call's `**star` argument passes on (`create(**kwargs)`)."""
        target = TARGETS[key]
        dumped = _dumped_object(star)
        if dumped is not None:
            # `create(**request.model_dump())`: the object's fields are the request, read in
            # the file where the object is made (`Request(model=...)`), as an options class.
            for made_object in self._dumped_objects(module, function, dumped):
                cls = (made_object.module, made_object.name)
                self._put(self.facts.options, cls, "options", cls)
                if dumped[0] == "name":
                    self._reach_dumped(module, function, dumped, made_object, key, where)
            return
        owner = self._varkw(module, function, star)
        if owner is not None:
            mine = (module, function)
            forwards = self._entry(self.facts.forwards, mine, "forwards", dict)
            for canonical in CANONICAL:
                for name in target.names(canonical):
                    if _add(forwards, name, [canonical, key, *where]):
                        self._touch("forwards", mine)
            return
        spread = self._spread_param(module, function, star)
        if spread is not None:
            self._record_spread_param(module, function, spread, key, where)
            return
        # `create(**kwargs)` with `kwargs = self.build_kwargs(...)`: the entries of the dict
        # literal it is made from, read in the function that wrote it.
        made = self.sent_dict(module, function, star)
        if made is None:
            return
        self._note_sent_helper(module, made)
        self._record_spreads(made, key, where)
        entries = made.entries
        if target.location == "inference-config":
            config = entries.get("inferenceConfig")
            params = dict(config[1]) if config and config[0] == "dict" else {}
            if "modelId" in entries:
                params["modelId"] = entries["modelId"]
            entries = params
        receiver = self._spread_receiver(module, function, star)
        self._reach_shadowed(made, entries, target, [key, *where], (module, function, receiver))
        for canonical in CANONICAL:
            for name in target.names(canonical):
                if name in entries:
                    reach = [canonical, key, *where]
                    self._reach_from(made.module, made.function, entries[name], reach)
                    self._helper_literal(
                        module, made, (name, entries[name]), [canonical, key, *where[:2]]
                    )
                    # `"model": self.settings.model` or `"model": config.MODEL` in the helper.
                    self._constant_read(
                        made.module, made.function, entries[name], [canonical, key, *where[:2]]
                    )
                    self._class_constant_read(
                        made.module,
                        made.function,
                        entries[name],
                        receiver,
                        reach[:4],
                        (module, function),
                    )

    def _reach_shadowed(
        self,
        made: DictLit,
        entries: dict[str, list[Any]],
        target: Target,
        where: list[Any],
        calling: tuple[str, str, tuple[str, str] | None],
    ) -> None:
        """Record the entries of a sent dict that a later `**self.extra` may replace as reaching
        the call for each caller of the class whose `extra` lacks the key: `{"temperature":
        self.settings.temperature, **self.extra}` with `self.extra = extra or {}` in
        `__init__` sends the settings' temperature for `Helper(settings=s)` and for
        `Helper(settings=s, extra={"top_k": 5})`, not for `Helper(settings=s, extra={
        "temperature": 0.1})` (a later key wins in a dict display:
        https://docs.python.org/3/reference/expressions.html#dictionary-displays).

        The reach carries the condition [module, `__init__`, parameter, key] as its sixth item;
        a call of that `__init__` drops it or keeps it (`_per_caller`)."""
        if not made.shadowed or made.function is None or target.location == "inference-config":
            return
        key, path, line, *held = where
        for canonical in CANONICAL:
            for name in target.names(canonical):
                found = made.shadowed.get(name)
                if name in entries or not found or not found[1]:
                    continue
                given = self._spread_attribute(made, found[1])
                if given is not None:
                    init = (given[0], given[1])
                    _quiet_entry(
                        _quiet_entry(self.facts.spread_keys, init, dict), given[2], set
                    ).add(name)
                    reach = [canonical, key, path, line, held[0] if held else None, [*given, name]]
                    self._reach_from(made.module, made.function, found[0], reach)
                    self._condition = [*given, name]
                    try:
                        read = [canonical, key, path, line]
                        self._constant_read(made.module, made.function, found[0], read)
                        self._class_constant_read(
                            made.module, made.function, found[0], calling[2], read, calling[:2]
                        )
                    finally:
                        self._condition = None

    def _spread_attribute(self, made: DictLit, spreads: list[Any]) -> list[str] | None:
        """Return [module, `__init__`, parameter] when every spread is one `self.<attr>` that
        only the class's `__init__` sets, once, from a parameter or an empty dict (`extra or
        {}`, the parameter's default `None` or `{}`): what each instance spreads is what its
        constructor call gives that parameter."""
        first = spreads[0]
        if any(s != first for s in spreads) or first[:2] != ["attr", ["name", "self"]]:
            return None
        home = self.class_of(made.module, made.function)
        if home is None or self._items_set_in_run(first):
            return None  # `self.extra["temperature"] = t` somewhere
        return self._spread_source(home, first[2])

    def _spread_source(self, home: tuple[str, str], attr: str) -> list[str] | None:
        """Return [module, `__init__`, parameter] when a class's `self.<attr>` is set only by
        its `__init__`, once, from that parameter or an empty dict (`_spread_attribute`)."""
        if home[0] not in self.summaries or len(self._subclasses(home)) != 1:
            return None
        info = self.summaries[home[0]]["classes"].get(home[1], {})
        init = f"{home[1]}.__init__"
        assigned = info.get("attributes", {}).get(attr, [])
        facts = self.summaries[home[0]]["functions"].get(init)
        if len(assigned) != 1 or assigned[0][1] != init or facts is None:
            return None
        if any(
            attr in self.summaries[m]["classes"].get(c, {}).get("attributes", {})
            for m, c in self.mro(*home)[1:]
        ):
            return None  # a base class's method sets it too
        if self.set_from_outside(attr):
            return None  # `agent.extra = {...}` somewhere: not only what the call gave
        name = _spread_param_name(assigned[0][0], facts)
        if name is None or self._items_set_in_run(["name", name]):
            return None
        return [home[0], init, name]

    def _per_caller(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        key: tuple[str, str],
        reaches: dict[str, list[list[Any]]],
        bound_args: dict[str, list[Any]],
    ) -> dict[str, list[list[Any]]]:
        """Return the reaches that hold for one call: a reach read only when the dict a
        constructor parameter gives lacks a key (`_reach_shadowed`) holds, without its
        condition, when this call of that `__init__` gives none, `None`, or a dict literal
        without the key; for any other call, it does not."""
        found: dict[str, list[list[Any]]] = {}
        for name, items in reaches.items():
            kept = [
                reach[:5] if len(reach) > 5 else reach
                for reach in items
                if len(reach) <= 5
                or (
                    self._lacks(call, key, bound_args, reach[5])
                    and self._spread_valid(key, reach[5][2])
                )
            ]
            if kept:
                found[name] = kept
        return found

    def _note_spread_call(
        self,
        module: str,
        call: list[Any],
        key: tuple[str, str],
        layout: _Layout,
        bound_args: dict[str, list[Any]],
    ) -> None:
        """Note what a call of an `__init__` gives the parameters its instance spreads the
        dicts of, and which defaults it leaves out (`Facts.spread_calls`)."""
        params = self._spread_params(key)
        if not params:
            return
        stars = bool(call[4] or call[5])
        left = frozenset(() if stars else (n for n in layout.defaulted if n not in bound_args))
        given = {p: _given_keys(call, bound_args.get(p)) for p in params}
        _quiet_entry(self.facts.spread_calls, key, dict)[(module, call[6], call[7])] = (left, given)

    def _spread_params(self, key: tuple[str, str]) -> tuple[str, ...]:
        """Return the parameters of an `__init__` an attribute of its class is set from as a
        dict an instance may spread (`self.extra = extra or {}`: `_spread_param_name`)."""
        found = self._spread_params_of.get(key)
        if found is None:
            found = ()
            facts = self.summaries.get(key[0], {}).get("functions", {}).get(key[1])
            if facts is not None and key[1].endswith(".__init__"):
                cls = key[1].removesuffix(".__init__")
                info = self.summaries[key[0]]["classes"].get(cls, {})
                names = {
                    _spread_param_name(assigned[0][0], facts)
                    for assigned in info.get("attributes", {}).values()
                    if len(assigned) == 1 and assigned[0][1] == key[1]
                }
                found = tuple(sorted(n for n in names if n is not None))
            self._spread_params_of[key] = found
        return found

    @staticmethod
    def _lacks(
        call: list[Any], key: tuple[str, str], bound_args: dict[str, list[Any]], given: list[Any]
    ) -> bool:
        """Return whether a call of a function surely gives a parameter no dict holding a key:
        it leaves it out (and spreads nothing), or gives `None` or a dict literal of literal
        keys without it. `given` is [module, function, parameter, key]."""
        if (key[0], key[1]) != (given[0], given[1]):
            return False
        keys = _given_keys(call, bound_args.get(given[2]))
        return keys is not None and given[3] not in keys

    def _spread_param(
        self, module: str, function: str, star: list[Any]
    ) -> tuple[str, set[str]] | None:
        """Return a parameter a Claude call spreads (`create(**request)`, `request` a plain
        parameter the function never binds again) and the keys the function itself sets in it
        (`request["messages"] = turns`); None when it sets one it does not name."""
        if star[0] != "name":
            return None
        facts = self.summaries[module]["functions"][function]
        if facts["locals"].get(star[1]):
            return None
        if not any(
            p["name"] == star[1] and p["kind"] in ("positional", "keyword") for p in facts["params"]
        ):
            return None
        own = facts.get("keyed", {}).get(star[1], [])
        if None in own or facts.get("popped", {}).get(star[1]):
            return None
        return str(star[1]), set(own)

    def _record_spread_param(
        self, module: str, function: str, spread: tuple[str, set[str]], key: str, where: list[Any]
    ) -> None:
        """Record the keys a parameter spread into a Claude call passes on as `forwards` (what
        the function sets itself is its own), and the parameter as `spread`."""
        param, own = spread
        target = TARGETS[key]
        mine = (module, function)
        forwards = self._entry(self.facts.forwards, mine, "forwards", dict)
        for canonical in CANONICAL:
            for name in target.names(canonical):
                if name not in own and _add(forwards, name, [canonical, key, *where]):
                    self._touch("forwards", mine)
        self._put(self._entry(self.facts.spread, mine, "forwards", set), param, "forwards", mine)

    def _pass_spread(
        self,
        module: str,
        function: str | None,
        key: tuple[str, str],
        bound: dict[str, Any],
        forwards: dict[str, list[list[Any]]],
        here: list[Any],
    ) -> bool:
        """Record what the dicts a call gives the parameters a function spreads into a Claude
        call pass on (`send({"max_tokens": 6000, ...})`); return whether they may hold
        `stream`."""
        given, may_stream = self._spread_given(module, function, key, bound)
        for made, name, entry in given:
            for reach in forwards.get(name, []):
                self._reach_from(made.module, made.function, entry, reach)
                self._constant_read(made.module, made.function, entry, [*reach[:2], *here])
        return may_stream

    def _note_stream(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        key: tuple[str, str],
        bound_args: dict[str, list[Any]],
        extra: dict[str, list[Any]],
        forwards: dict[str, list[list[Any]]],
        here: list[Any],
    ) -> None:
        """Record what the dicts this call of a wrapper gives it pass on, and whether the call
        passes its Claude call a `stream` flag (`Facts.stream_callers`)."""
        may_stream = self._pass_spread(module, function, key, bound_args, forwards, here)
        if call[5]:
            may_stream = self._pass_stars(module, function, call[5], forwards, here) or may_stream
        flags = _stream_names(forwards)
        if flags:
            passes = bool(call[4] or flags & set(extra) or may_stream)
            callers = _quiet_entry(self.facts.stream_callers, key, dict)
            _quiet_entry(callers, "set" if passes else "unset", set).add(tuple(here))
        if TOP_P in extra and _forwarded(forwards, TEMPERATURE) & set(extra):
            _quiet_entry(self.facts.pair_callers, key, set).add(tuple(here))

    def _pass_stars(
        self,
        module: str,
        function: str | None,
        stars: list[list[Any]],
        forwards: dict[str, list[list[Any]]],
        here: list[Any],
    ) -> bool:
        """Record what the dicts a call spreads into a function's `**kwargs` pass on
        (`_complete(prompt, **params)` with `params = {...}` built in the calling function or
        returned by a helper); return whether they may hold `stream`: a dict not proven, one
        holding `stream` or a spread, or one of another function's that this one changes."""
        may_stream = False
        changed = self.summaries[module]["functions"].get(function or "", {}).get("changed", ())
        for star in stars:
            made = self.evaluate(module, function, star) if function is not None else None
            if (
                not isinstance(made, DictLit)
                or made.function is None  # a module's dict, which any code may change
                or star[0] not in ("name", "call")
                or (star[0] == "name" and (made.module, made.function) != (module, function)
                    and star[1] in changed)
                or made.opaque
                or made.spreads
                or "stream" in made.entries
                or "stream" in made.maybe
            ):  # fmt: skip
                may_stream = True
                continue
            for name, value in made.entries.items():
                for reach in forwards.get(name, []):
                    self._reach_from(made.module, made.function, value, reach)
                    self._constant_read(made.module, made.function, value, [*reach[:2], *here])
        return may_stream

    def _spread_given(
        self, module: str, function: str | None, key: tuple[str, str], bound: dict[str, Any]
    ) -> tuple[list[tuple[DictLit, str, list[Any]]], bool]:
        """Return the entries of the dicts a call of a function gives the parameters it spreads
        into a Claude call (each with the dict it is read in), and whether `stream` may be
        among them: a dict not proven, or one holding `stream` or a spread, may."""
        entries: list[tuple[DictLit, str, list[Any]]] = []
        may_stream = False
        self._read("forwards", key)  # `spread` changes with `forwards`
        for param in sorted(self.facts.spread.get(key, ())):
            arg = bound.get(param)
            made = self.evaluate(module, function, arg) if arg is not None else None
            if not isinstance(made, DictLit) or (
                function is not None
                and (made.module, made.function) != (module, function)
                and arg is not None
                and arg[0] == "name"
                and arg[1] in self.summaries[module]["functions"][function]["changed"]
            ):
                # Not a dict proven, or one another function wrote that this one changes.
                may_stream = True
                continue
            if made.opaque or made.spreads or "stream" in made.entries:
                may_stream = True
            entries.extend((made, name, value) for name, value in made.entries.items())
        return entries, may_stream

    def sent_dict(self, module: str, function: str, star: list[Any]) -> DictLit | None:
        """Return the dict literal a Claude call's `**star` sends, read in the function that
        wrote it (`create(**kwargs)` with `kwargs = self.build_kwargs(...)`); opaque when the
        calling function changes it after (`kwargs["temperature"] = 0.1`)."""
        made = self.evaluate(module, function, star)
        if not isinstance(made, DictLit):
            return None
        changed = self.summaries[module]["functions"][function].get("changed", ())
        if (made.module, made.function) != (module, function) and star[1:2] and star[1] in changed:
            # `req = build(); req["temperature"] = 0.1`: what the helper wrote is not all sent.
            made = DictLit({}, made.module, made.function, True, made.spreads)
        return made

    def _spread_receiver(
        self, module: str, function: str, star: list[Any]
    ) -> tuple[str, str] | None:
        """Return the class whose instance a method building a spread dict runs on:
        `**self.build_kwargs(...)` (or a local assigned from it once) in a method of a class,
        or `**Agent().build_kwargs(...)`."""
        value = star
        if value[0] == "name":
            local = self.summaries[module]["functions"][function]["locals"].get(value[1])
            if not local or len(local) != 1:
                return None
            value = local[0][0]
        if value[0] != "call" or value[1][0] != "attr":
            return None
        base = self.evaluate(module, function, value[1][1])
        if isinstance(base, (SelfParam, Obj)):
            return (base.module, base.name)
        return None

    def _helper_literal(
        self, module: str, made: DictLit, item: tuple[str, Any], read: list[Any]
    ) -> None:
        """Record a literal entry of the dict a function of another module returns, that a
        Claude call sends (`create(**request_kwargs(prompt))`), as read there: reported where
        it is written, once (`constant_reads`, named `request_kwargs()[max_tokens]`).

        `item` is the entry's name and value as the call sends it: for Bedrock `converse`, an
        entry of the dict's `inferenceConfig`, which is not one of the dict's own keys."""
        name, entry = item
        if (
            made.module == module
            or made.function is None
            or entry[0] != "lit"
            or read[0] not in READ_AT_DEFINITION
            or made.module not in self.summaries
        ):
            return
        returns = self.summaries[made.module]["functions"].get(made.function, {}).get("returns")
        if not returns or len(returns) != 1:
            return  # one of several dicts: which one is sent is not known
        table = self._entry(self.facts.constant_reads, made.module, "constant_reads", dict)
        if _add(table, f"{made.function}()[{name}]", read):
            self._touch("constant_reads", made.module)

    def _record_spreads(self, made: DictLit, key: str, where: list[Any]) -> None:
        """Record a function's `**kwargs` spread into the dict a Claude call sends
        (`{"model": m, **kwargs}`, `params.update(kwargs)`) as passed on to the call.

        Only the names the dict does not also set: which of the two wins depends on the order.
        """
        if made.function is None or made.module not in self.summaries:
            return
        if not any(self._varkw(made.module, made.function, ["name", s]) for s in made.spreads):
            return
        target = TARGETS[key]
        mine = (made.module, made.function)
        forwards = self._entry(self.facts.forwards, mine, "forwards", dict)
        for canonical in CANONICAL:
            for name in target.names(canonical):
                if name not in made.entries and _add(forwards, name, [canonical, key, *where]):
                    self._touch("forwards", mine)

    def _constant_read(
        self, module: str, function: str | None, value: list[Any], read: list[Any]
    ) -> None:
        """Record `read` ([canonical, target key, path, line] of a call) on the constant of
        another module that `value` names, if it names one."""
        if read[0] not in READ_AT_DEFINITION:
            return
        if value[0] == "or":
            # `model or settings.model`: the fallback is what the call sends when the value
            # before it is empty (a default of None, an unset option).
            value = value[1][-1]
        self._holders = []
        try:
            place = self._constant_place(module, function, value)
        finally:
            holders, self._holders = self._holders, None
        if place is not None:
            if holders:
                self._held_reads.setdefault(place, set()).update(holders)
            self._note_constant_read(place, read)

    def _constant_place(
        self, module: str, function: str | None, value: list[Any]
    ) -> tuple[str, str] | None:
        """Return (module, name) when a parameter is written as a name imported from another
        project module (or as `settings.NAME` of an imported module), where it is assigned a
        literal once, at module level."""
        if value[0] == "attr" and value[1][0] in ("name", "attr"):
            base = self.evaluate(module, function, value[1])
            if (
                isinstance(base, Obj)
                or self._falls_back(module, function, value[1])
                or self._handed_object(module, function, value[1])
            ):
                return self._field_default(module, function, value)
            if isinstance(base, Class) and base.module != module:
                # `Settings.MODEL` of another module's class, reported at the class body once,
                # as `settings.MODEL` of an instance of it is (`_field_default`).
                if self._class_attribute_set(value[2]):
                    return None
                return self._class_constant((base.module, base.name), value[2], on_class=True)
            if not isinstance(base, Module) or base.name == module:
                return None
            return self._module_constant(base.name, value[2])
        if value[0] != "name":
            return None
        name = value[1]
        summary = self.summaries[module]
        if function is not None:
            facts = summary["functions"].get(function)
            if (
                facts is None
                or name in facts["locals"]
                or name in self._param_index(module, function, facts)
                or "parent" in facts
            ):
                return None
        qualname = summary["imports"].get(name)
        if qualname is None or name in summary["assigns"]:
            return None
        for owner, rest in self._prefixes(qualname):
            if owner not in self.summaries:
                self._read("module", owner)  # found if it is summarised later
                continue
            if owner == module or len(rest) != 1:
                return None
            return self._module_constant(owner, rest[0])
        return None

    def _field_default(
        self, module: str, function: str | None, value: list[Any]
    ) -> tuple[str, str] | None:
        """Return (module, "Class.field") for `settings.model` read from an object made once
        without passing the field, when its class's body gives the field a literal and no file
        of the run sets the attribute.

        The object is another module's (`from app.config import settings`) or made by a
        function returning it (`settings = get_settings()`, `get_settings().model`); one this
        module makes itself of a class is read by the file's own analysis. What the object
        holds is the class's default: reported there, once, with every Claude call reading it
        as a related place.
        """
        made = self._made_by(module, function, value[1], 0, module)
        if made is None:
            return None
        where, call = made
        attr = value[2]
        if call[2] or call[4] or call[5] or attr in call[3]:
            return None  # positional fields, `*args`/`**kwargs`, or the field passed
        cls = self.evaluate(where, None, call[1])
        if not isinstance(cls, Class) or self._field_set(module, function, value[1], made, attr):
            return None
        if self._env_settings(cls.module, cls.name):
            return None  # a pydantic-settings field: the environment may set it (`_fields`)
        # An object an attribute of the method's own instance holds (`self.options =
        # Options()`, `self.options = options or Options()`), which the file's own analysis
        # does not follow, is read here even for a class of its module.
        apart = value[1][0] == "attr" and (
            self._held_by_self(module, function, value[1])
            or self._falls_back(module, function, value[1])
            or self._handed_object(module, function, value[1])
        )
        for cls_module, cls_name in self.mro(cls.module, cls.name):
            info = self.summaries[cls_module]["classes"].get(cls_name, {})
            written = info.get("attributes", {}).get(attr)
            if written:
                ok = len(written) == 1 and written[0][1] is None and written[0][0][0] == "lit"
                # A class of the reading module: the file's own analysis reads its default.
                return (
                    (cls_module, f"{cls_name}.{attr}")
                    if ok and (cls_module != module or apart) and not self._sets_by_name(cls)
                    else None
                )
        return None

    def _field_set(
        self,
        module: str,
        function: str | None,
        holder: list[Any],
        made: tuple[str, list[Any]],
        attr: str,
    ) -> bool:
        """Return whether `attr` may be set on the object `holder` names after `made` makes it.

        Any write of the attribute in the run counts (`_attribute_set`), but for an object
        bound at module level to the class call itself (`settings = Settings()`, here or
        imported) only one that may reach it: a write in a module of its class's method
        resolution order (`self.model = m` in a method, a computed name), or one `may_set_on`
        sees (on a name it is bound to, or once some file hands the object on). A module-level
        name that may be bound to another object after (`_rebound`) counts as set."""
        names = self._bound_names(module, function, holder, made)
        if names is not None and self._rebound({module, made[0]}, names):
            return True
        if not self._attribute_set(attr):
            return False
        cls = self.evaluate(made[0], None, made[1][1])
        if not isinstance(cls, Class):
            return True
        if not self._instance_attribute_set(cls, attr):
            return False
        if self._self_may_be_a_class() or self._written_in_class(cls, attr):
            return True
        # Some file sets the attribute on an object other than `self`. A field of a dataclass
        # or pydantic model takes its default when the object is made (a write on the class
        # does not change it), so only a write that may reach this object counts.
        info = self.summaries[cls.module]["classes"].get(cls.name, {})
        fields = self._fields(cls.module, cls.name, info)
        init = f"{cls.name}.__init__" in self.summaries[cls.module]["functions"]
        if fields is None or init or attr not in fields["attrs"]:
            return True
        return names is None or self.may_set_on(attr, names, cls.name)

    def _rebound(self, modules: set[str], names: set[str]) -> bool:
        """Return whether a module-level name an object is read through may be bound to another
        object after it is made: a function of `modules` (where it is bound and read) declares
        it `global` (or the module writes `globals()`), or a file of the run sets it on another
        object (`config.settings = Settings(model=m)`, `setattr(config, "settings", ...)`,
        a computed name on an expression), which a read through the module
        (`config.settings.model`) sees, and one through an import may."""
        outside = self._attribute_writes()[1]
        computed = self._owners.get(ANY_ATTRIBUTE, {}).values()
        if ANY_ATTRIBUTE in outside and any("?" in owners for owners in computed):
            return True
        for name in names:
            if name.isascii():
                written = name.encode() in self._attribute_writes(name.encode())[1]
            else:
                written = self._written(name, outside=True)
            if written or name in self._attributes_set_anywhere():
                return True
            for module in modules:
                key = (module, name)
                found = self._declared_global.get(key)
                if found is None:
                    raw = self._module_bytes(module)
                    declared = rb"\b(?:global|nonlocal)\b[^\n;]*\b" + re.escape(name.encode())
                    found = raw is None or bool(
                        re.search(declared + rb"\b|\bglobals[ \t]*\(", as_python_reads(raw))
                    )
                    self._declared_global[key] = found
                if found:
                    return True
        return False

    def _bound_names(
        self, module: str, function: str | None, holder: list[Any], made: tuple[str, list[Any]]
    ) -> set[str] | None:
        """Return the names of a module-level binding `holder` reads, when that binding is the
        class call `made` itself (`settings = Settings()` here, or imported from the module
        that binds it): the name read and the name bound. None for anything else (a local, a
        parameter, an object a function returns or an attribute holds)."""
        if holder[0] != "name":
            return None
        name = holder[1]
        summary = self.summaries[module]
        if function is not None:
            facts = summary["functions"].get(function, {})
            params = self._param_index(module, function, facts) if facts else ()
            if not facts or "parent" in facts or name in facts["locals"] or name in params:
                return None
        qualname = summary["imports"].get(name)
        where, binding = (module, name) if qualname is None else qualname.rpartition(".")[::2]
        if where != made[0] or (qualname is not None and name in summary["assigns"]):
            return None
        assigns = self.summaries[where]["assigns"].get(binding)
        if not assigns or len(assigns) != 1 or assigns[0][1] or assigns[0][0] != made[1]:
            return None
        return {name, binding}

    def _sets_by_name(self, cls: Class) -> bool:
        """Return whether an instance of `cls` may get attributes its methods do not name: a
        class of its method resolution order has an `__init__` and its module sets attributes
        by a computed name (`setattr(self, key, value)`, `self.__dict__.update(...)`,
        `vars(self)`), or its text cannot be read.

        An `__init__` that names the attribute (`self.temperature = ...`) is seen by the
        caller already (the instance's own attribute, found first).
        """
        for owner_module, owner in self.mro(cls.module, cls.name):
            if f"{owner}.__init__" not in self.summaries[owner_module]["functions"]:
                continue
            raw = self._module_bytes(owner_module)
            if raw is None or _writes_by_name(raw):
                return True
        return False

    def _module_bytes(self, module: str) -> bytes | None:
        """Return a module's source as bytes (None when it cannot be read)."""
        data = self._module_data(self.module_path(module))
        if data is None:
            return None
        return data if isinstance(data, bytes) else data.encode("utf-8", "replace")

    def _made_by(
        self, module: str, function: str | None, holder: list[Any], depth: int, reader: str
    ) -> tuple[str, list[Any]] | None:
        """Return (module, call) of the class call that makes the one object `holder` names:
        through names bound once (here, imported, or read through a module object), an
        attribute `__init__` sets once (`self.settings = get_settings()`), and functions
        returning what they make or hold (`get_settings()`); None for anything else, or for an
        object the reading module binds itself to a class call (`settings = Settings()`: the
        file's own analysis reads it)."""
        if depth > MAX_PATH:
            return None
        kind = holder[0]
        if kind == "call":
            return self._made_by_call(module, function, holder, depth, reader)
        if kind == "attr":
            return self._made_by_attribute(module, function, holder, depth, reader)
        if kind != "name":
            return None
        name = holder[1]
        if function is not None:
            facts = self.summaries[module]["functions"].get(function, {})
            local = facts.get("locals", {}).get(name)
            if local is not None:
                made = self._none_fallback(module, function, facts, name, local)
                if made is not None:
                    return self._made_by_bound(module, function, made, depth, reader)
                if len(local) != 1 or local[0][1]:
                    return None
                return self._made_by_bound(module, function, local[0][0], depth, reader)
            if "parent" in facts:
                return None
            if name in self._param_index(module, function, facts):
                default = self._relied_object(module, function, facts, name)
                if default is None:
                    return None
                return self._made_by(module, None, default, depth + 1, reader)
        summary = self.summaries[module]
        qualname = summary["imports"].get(name)
        if qualname is not None and name not in summary["assigns"]:
            owner, _, name = qualname.rpartition(".")
            if owner not in self.summaries:
                self._read("module", owner)  # found if it is summarised later
                return None
            made = self._bound_once(self.summaries[owner], name)
            return None if made is None else self._made_by_bound(owner, None, made, depth, reader)
        made = self._bound_once(summary, name)
        return None if made is None else self._made_by_bound(module, None, made, depth, reader)

    def _relied_object(
        self, module: str, function: str, facts: dict[str, Any], name: str
    ) -> list[Any] | None:
        """Return the default of a parameter the function never binds again when an in-project
        call leaves it out, if the default may name an object (`options=DEFAULTS`, with
        `DEFAULTS = Options()` at module level, or `options=Options()`): that call sends it."""
        if "parent" in facts or name in facts["locals"]:
            return None
        param = next((p for p in facts["params"] if p["name"] == name), None)
        if param is None or param["kind"] in ("varargs", "varkw"):
            return None
        default = param["default"]
        if default is None or default[0] not in ("name", "attr", "call"):
            return None
        key = (module, function)
        self._read("relied", key)
        return default if name in self.facts.relied.get(key, set()) else None

    def _falls_back(self, module: str, function: str | None, holder: list[Any]) -> bool:
        """Return whether a name read in a function, or an attribute of its instance, holds a
        parameter replaced by an object when a call leaves it out (`_none_fallback`), or a
        parameter whose default is one (`_relied_object`): `options = options or Options()`,
        `self.options = options or Options()`, `options=DEFAULTS`."""
        if function is None:
            return False
        if holder[0] == "attr" and holder[1][0] == "name":
            base = self.evaluate(module, function, holder[1])
            if not isinstance(base, SelfParam):
                return False
            return self._attribute_fallback(base.module, base.name, holder[2]) is not None
        if holder[0] != "name":
            return False
        facts = self.summaries[module]["functions"].get(function)
        if facts is None:
            return False
        local = facts.get("locals", {}).get(holder[1])
        if local is None:
            return self._relied_object(module, function, facts, holder[1]) is not None
        return self._none_fallback(module, function, facts, holder[1], local) is not None

    def _held_by_self(self, module: str, function: str | None, holder: list[Any]) -> bool:
        """Return whether `holder` is `self.attr` read in a method of the instance's class."""
        if function is None or holder[0] != "attr" or holder[1][0] != "name":
            return False
        return isinstance(self.evaluate(module, function, holder[1]), SelfParam)

    def _handed_object(self, module: str, function: str | None, holder: list[Any]) -> bool:
        """Return whether `self.attr`, kept by a base's `__init__` from its parameter, holds
        what a subclass's `__init__` hands up for it: an object it makes, or a parameter it
        replaces by one (`_handed_up`, `_none_fallback`)."""
        if function is None or holder[0] != "attr" or holder[1][0] != "name":
            return False
        base = self.evaluate(module, function, holder[1])
        if not isinstance(base, SelfParam):
            return False
        owner, info = self.attribute_owner(base.module, base.name, holder[2])
        values = info.get("attributes", {}).get(holder[2], [])
        if len(values) != 1 or values[0][1] is None:
            return False
        handed = self._handed_up(base.module, base.name, owner, values[0][1], values[0][0])
        if handed is None:
            return False
        return handed[2][0] == "call" or self._falls_back(*handed)

    def _attribute_fallback(
        self, module: str, cls: str, attr: str
    ) -> tuple[str, str, list[Any]] | None:
        """Return (module, method, class call) when the one value a method sets `self.attr` to
        is a parameter's fallback (`self.options = options or Options()`, `_none_fallback`)."""
        owner, info = self.attribute_owner(module, cls, attr)
        values = info.get("attributes", {}).get(attr, [])
        if len(values) != 1 or values[0][1] is None:
            return None
        value, method = values[0]
        facts = self.summaries[owner]["functions"].get(method)
        if facts is None or value[0] != "or" or value[1][0][0] != "name":
            return None
        name = value[1][0][1]
        if name in facts["locals"]:
            return None  # rebound in the method: not the parameter as given
        made = self._none_fallback(owner, method, facts, name, [[value, False]])
        return None if made is None else (owner, method, made)

    def _none_fallback(
        self,
        module: str,
        function: str,
        facts: dict[str, Any],
        name: str,
        local: list[Any],
    ) -> list[Any] | None:
        """Return the class call a parameter defaulting to None is replaced with when an
        in-project call leaves it out: `options = options or Options()`, or `options =
        Options()` under a condition (`if options is None:`), the parameter's one binding.

        Such a call sends that object: with None in place, no attribute of it can be read. What
        other callers pass is theirs; the object made here is what the omitting call sends.
        """
        if len(local) != 1:
            return None
        value = local[0][0]
        if value[0] == "or" and len(value[1]) == 2 and value[1][0] == ["name", name]:
            value = value[1][1]
        elif not local[0][1]:
            return None  # bound unconditionally to something else: not a fallback
        if value[0] != "call":
            return None
        param = next((p for p in facts["params"] if p["name"] == name), None)
        if param is None or param["default"] is None:
            return None
        default = self.evaluate(module, None, param["default"])
        if not isinstance(default, Const) or default.value is not None:
            return None
        key = (module, function)
        self._read("relied", key)
        return value if name in self.facts.relied.get(key, set()) else None

    def _made_by_bound(
        self, module: str, function: str | None, value: list[Any], depth: int, reader: str
    ) -> tuple[str, list[Any]] | None:
        """What a name bound once to `value` holds (see `_made_by`)."""
        if value[0] == "call":
            own = module == reader
            return self._made_by_call(module, function, value, depth + 1, reader, own)
        return self._made_by(module, function, value, depth + 1, reader)

    def _made_by_attribute(
        self, module: str, function: str | None, holder: list[Any], depth: int, reader: str
    ) -> tuple[str, list[Any]] | None:
        """`config.settings` (a module object's name) and `self.settings` (set once)."""
        base = self.evaluate(module, function, holder[1])
        attr = holder[2]
        if isinstance(base, Module) and base.name in self.summaries:
            made = self._bound_once(self.summaries[base.name], attr)
            if made is None:
                return None
            return self._made_by_bound(base.name, None, made, depth, reader)
        if isinstance(base, SelfParam):
            if self._instance_holder_rebound(base.module, base.name, attr):
                return None
            if self._holders is not None:
                self._holders.append((base.module, base.name, attr))
            fallback = self._attribute_fallback(base.module, base.name, attr)
            if fallback is not None:
                return self._made_by_call(fallback[0], fallback[1], fallback[2], depth + 1, reader)
            owner, info = self.attribute_owner(base.module, base.name, attr)
            values = info.get("attributes", {}).get(attr, [])
            if len(values) != 1 or values[0][1] is None:
                return None
            value, method = values[0]
            handed = self._handed_up(base.module, base.name, owner, method, value)
            if handed is not None:
                owner, method, value = handed
            if value[0] == "call":
                return self._made_by_call(owner, method, value, depth + 1, reader)
            return self._made_by(owner, method, value, depth + 1, reader)
        return None

    def _instance_holder_rebound(self, module: str, cls: str, attr: str) -> bool:
        """Return whether the object `self.attr` holds on an instance of `cls` may be another
        than the one its class makes: a file of the run sets the attribute on another object
        (`bot.settings = Settings(...)`, `set_from_outside`), or a summarised subclass writes
        it (its instances run the base's methods with their own)."""
        if self.set_from_outside(attr):
            return True
        for sub_module, sub in self._subclasses((module, cls))[1:]:
            info = self.summaries[sub_module]["classes"].get(sub, {})
            if attr in info.get("attributes", {}) or attr in info.get("fields", ()):
                return True
        return False

    def _handed_up(
        self, module: str, cls: str, owner: str, method: str, value: list[Any]
    ) -> tuple[str, str, list[Any]] | None:
        """Return (module, method, argument) a subclass's `__init__` hands to the base's
        `__init__` parameter the base keeps in `self` (`self.config = config`), on an instance
        of `cls`: `super().__init__(config)` after `if not config: config = Options()`.

        The constructor that runs first on such an instance is the first `__init__` in the
        method resolution order of `cls`; each one before the base's must hand the parameter on
        through one `super().__init__(...)` call, by position or by name. None when the base's
        own `__init__` runs first, when a class on the way passes anything else (`*args`,
        two calls, none), or when a summarised subclass of `cls` has an `__init__` of its own.
        """
        if not method.endswith(".__init__") or value[0] != "name":
            return None
        if any(
            f"{c}.__init__" in self.summaries[m]["functions"]
            for m, c in self._subclasses((module, cls))[1:]
        ):
            return None  # a subclass's instance may be handed something else
        order = self.mro(module, cls)
        home = (owner, method.rsplit(".", 1)[0])
        if home not in order:
            return None
        inits = [
            (m, f"{c}.__init__")
            for m, c in order[: order.index(home)][:MAX_PATH]
            if f"{c}.__init__" in self.summaries[m]["functions"]
        ]
        found: tuple[str, str, list[Any]] = (owner, method, value)
        for sub_module, sub_init in reversed(inits):
            name = found[2][1] if found[2][0] == "name" else None
            facts = self.summaries[found[0]]["functions"][found[1]]
            if name is None or name in facts["locals"]:
                return None if found[1] == method else found
            arg = self._super_init_argument(sub_module, sub_init, facts["params"], name)
            if arg is None:
                return None
            found = (sub_module, sub_init, arg)
        return None if found[1] == method else found

    def _super_init_argument(
        self, module: str, init: str, params: list[dict[str, Any]], name: str
    ) -> list[Any] | None:
        """Return what the one `super().__init__(...)` call of `init` passes for `name`."""
        calls = [
            call
            for call in self.summaries[module]["functions"][init]["calls"]
            if call[1][0] == "attr"
            and call[1][2] == "__init__"
            and call[1][1][0] == "call"
            and call[1][1][1] == ["name", "super"]
        ]
        if len(calls) != 1 or calls[0][4] or calls[0][5]:
            return None
        call = calls[0]
        if name in call[3]:
            return list(call[3][name])
        positional = [p["name"] for p in params[1:] if p["kind"] == "positional"]
        if name in positional and positional.index(name) < len(call[2]):
            return list(call[2][positional.index(name)])
        return None

    def _made_by_call(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        depth: int,
        reader: str,
        own: bool = False,
    ) -> tuple[str, list[Any]] | None:
        callee = self.evaluate(module, function, call[1])
        if isinstance(callee, Class):
            # An object the reading module makes of its own class is read by the file's own
            # analysis; one of another module's class has its defaults there.
            return None if own and callee.module == module else (module, call)
        if not isinstance(callee, Func) or call[2] or call[3] or call[4] or call[5]:
            return None
        facts = self.summaries[callee.module]["functions"].get(callee.qual, {})
        returns = facts.get("returns", [])
        if len(returns) != 1 or depth > MAX_PATH:
            return None
        if returns[0][0] == "call":
            return self._made_by_call(callee.module, callee.qual, returns[0], depth + 1, reader)
        return self._made_by(callee.module, callee.qual, returns[0], depth + 1, reader)

    @staticmethod
    def _bound_once(summary: dict[str, Any], name: str) -> list[Any] | None:
        assigns = summary["assigns"].get(name)
        if not assigns or len(assigns) != 1 or assigns[0][1]:
            return None
        return list(assigns[0][0])

    def _attribute_set(self, attr: str) -> bool:
        """Return whether any summarised module sets `<name>.attr` outside a class's own
        methods (`config.model = args.model`): then no object's field is known by its class."""
        known = self._set_attrs
        if known is None or known[0] != len(self.summaries):
            names: set[str] = set()
            for summary in self.summaries.values():
                names.update(summary["set_attrs"])
                for facts in summary["functions"].values():
                    for held in facts["stores"].values():
                        names.update(held)
            known = self._set_attrs = (len(self.summaries), frozenset(names))
        return attr in known[1] or self._set_in_run(attr)

    def _class_attribute_set(self, attr: str) -> bool:
        """Return whether a file of the run may set `attr` on a class object (`Config.MODEL =
        m`, `cls.model = m`, `setattr(Config, ...)`): any write other than on a method's own
        instance (`set_from_outside`). `self.model = m` in a method sets an attribute of the
        instance, which a read of the class (`Config.model`) does not see, unless `self` may
        be a class there: a method of a metaclass, or a class method naming its first
        parameter `self` (`_self_may_be_a_class`); then every write counts."""
        if self._self_may_be_a_class():
            return self._attribute_set(attr)
        return self.set_from_outside(attr)

    def _instance_attribute_set(self, cls: Class, attr: str) -> bool:
        """Return whether `attr` may be set on an instance of `cls` after its class body:
        on a class object (`_class_attribute_set`), on another object (`set_from_outside`),
        or in a module of its method resolution order (`self.model = m` in a method, a nested
        function's write too, or a computed name), read from the modules' text."""
        return self._class_attribute_set(attr) or self._written_in_class(cls, attr)

    def _written_in_class(self, cls: Class, attr: str) -> bool:
        """Return whether a module of `cls`'s method resolution order writes `.attr` (on any
        object: `self.model = m` in a method or a nested function) or sets attributes by a
        computed name, read from the modules' text; True when one cannot be read."""
        name = attr.encode()
        for owner_module, _ in self.mro(cls.module, cls.name):
            raw = self._module_bytes(owner_module)
            if raw is None or _writes_by_name(raw):
                return True
            if any(self._writes_in(as_python_reads(raw), name)):
                return True
        return False

    def _self_may_be_a_class(self) -> bool:
        """Return whether a file of the run defines a metaclass (a class deriving from `type`
        or from a name holding `Meta`), or a class method whose first parameter is `self`:
        there `self.attr = m` may set a class's attribute."""
        if self._self_classes is None:
            self._self_classes = any(
                _SELF_MAY_BE_A_CLASS.search(as_python_reads(data))
                for data in self.given.values()
                if isinstance(data, bytes)
            ) or any(
                _SELF_MAY_BE_A_CLASS.search(data.encode("utf-8", "surrogatepass"))
                for data in self.given.values()
                if isinstance(data, str)
            )
        return self._self_classes

    def _set_in_run(self, attr: str) -> bool:
        """Return whether a file of the run, summarised or not (a command-line entry point
        that never names Claude), assigns `<x>.attr = ...` or calls `setattr(x, "attr", ...)`."""
        if not attr.isascii():
            return self._written(attr, outside=False)
        anywhere = self._attribute_writes(attr.encode())[0]
        return attr.encode() in anywhere or ANY_ATTRIBUTE in anywhere

    def set_from_outside(self, attr: str) -> bool:
        """Return whether a file of the run may set `<x>.attr` other than on a method's own
        instance (`self.attr = ...`): a summarised module outside its methods (`config.model
        = m`), any file by `setattr(x, "attr", ...)` or on another object (`self.config.model
        = m`, `settings.model = m`)."""
        if attr in self._attributes_set_anywhere():
            return True
        if not attr.isascii():
            return self._written(attr, outside=True)
        outside = self._attribute_writes(attr.encode())[1]
        return attr.encode() in outside or ANY_ATTRIBUTE in outside

    def _attribute_writes(
        self, attr: bytes | None = None
    ) -> tuple[set[bytes], dict[bytes, set[str]]]:
        """Return the attribute names the run's files write, on any object and on an object
        other than `self`, each file read once (`_ATTRIBUTE_WRITE`, `_SETATTR`, computed
        names), with every write of `attr` the dot scan cannot read (`_ODD_WRITES`: the files
        naming it in such a shape parsed)."""
        if self._writes is None:
            self._writes = (set(), self._writers)
            for path, data in self.given.items():
                raw = data if isinstance(data, bytes) else data.encode("utf-8", "replace")
                found = list(_attribute_writes_in(raw))
                found.extend((match.group(1), "?") for match in _SETATTR.finditer(raw))
                self._add_writes(path, found)
                odd = _odd_names(raw)
                if odd:
                    self._odd_pending[path] = (raw, odd)
        for path, (raw, odd) in list(self._odd_pending.items()):
            if attr is not None and attr in odd:
                del self._odd_pending[path]
                self._add_writes(path, _odd_writes(raw))
        return self._writes

    def _writes_in(self, raw: bytes, name: bytes) -> list[bytes]:
        """Return the owners of each write of `.name` a file's bytes hold (`_FileWrites`), the
        file's scans made once a run, however many names are asked of it."""
        found = self._file_writes.get(raw)
        if found is None:
            found = self._file_writes[raw] = _FileWrites(raw)
        return found.of(name)

    def _add_writes(self, path: str, found: Iterable[tuple[bytes, str]]) -> None:
        """Record the writes a file of the run makes (attribute, owner: `_attribute_writes`)."""
        assert self._writes is not None
        anywhere = self._writes[0]
        shown = _display(Path(path), self.cwd)
        for attr, name in found:
            anywhere.add(attr)
            if name != "self":
                self._writers.setdefault(attr, set()).add(shown)
                self._owners.setdefault(attr, {}).setdefault(shown, set()).add(name)

    def _writers_of(self, attr: str) -> list[str]:
        """Return the files that may set `<x>.attr` on an object other than `self`
        (`set_from_outside`): the run's files by their text, the summarised modules by their
        summaries; `["?"]` when the files are not known (a name outside ASCII)."""
        if not attr.isascii():
            return ["?"] if self._written(attr, outside=True) else []
        self._attribute_writes(attr.encode())
        found = set(self._writers.get(attr.encode(), ()))
        found.update(self._writers.get(ANY_ATTRIBUTE, ()))
        if attr in self._attributes_set_anywhere():
            found.update(self.paths.get(module, "?") for module in self._modules_setting(attr))
        return sorted(found)

    def _modules_setting(self, attr: str) -> set[str]:
        """Return the summarised modules that set `attr` on any object (a function's store,
        `self.attr` included, or a module-level `x.attr = v`), once per round."""
        known, index = self._setters or (0, {})
        if known != len(self.summaries):
            for module, summary in list(self.summaries.items())[known:]:
                for facts in summary["functions"].values():
                    for held in facts["stores"].values():
                        for name in held:
                            index.setdefault(name, set()).add(module)
                for name in summary["set_attrs"]:
                    index.setdefault(name, set()).add(module)
            self._setters = (len(self.summaries), index)
        return index.get(attr, set())

    def may_set_on(self, attr: str, names: set[str], cls: str) -> bool:
        """Return whether a file of the run may set `attr` on the object the module-level
        `names` hold, made by a call of the class named `cls`: some file sets it on an object
        other than `self` (`set_from_outside`) and either hands the object on or makes the write
        on one of `names`, the class, or not on a plain name (`_owners_of`)."""
        if not self.set_from_outside(attr):
            return False
        if not all(self._held_apart(name) for name in names):
            return True
        owners = self._owners_of(attr, self._writers_of(attr), cls)
        return any("?" in held or names.intersection(held) for held in owners.values())

    def _owners_of(self, attr: str, writers: list[str], cls: str) -> dict[str, list[str]]:
        """Return, per file that may set `<x>.attr` (`_writers_of`), the names it sets it on
        (`args` in `args.model = m`), "?" for any other owner: an expression, `setattr`, a
        module-level write a summary holds without its owner, a file not read as text, the
        class named `cls` itself (`Settings.model = m`: what a class attribute is, an instance
        may read)."""
        known: dict[str, set[str]] = {}
        for written in (attr.encode(), ANY_ATTRIBUTE) if attr.isascii() else ():
            for writer, owners in self._owners.get(written, {}).items():
                known.setdefault(writer, set()).update(owners)
        found = {writer: set(known.get(writer, {"?"})) for writer in writers}
        for module, summary in self.summaries.items():
            shown = self.paths.get(module, "?")
            if shown not in found:
                continue
            if attr in summary["set_attrs"] and shown not in known:
                found[shown].add("?")
            for facts in summary["functions"].values():
                # A function's writes on a name it holds (`args.model = m`, a tuple target too).
                found[shown].update(
                    owner for owner, held in facts["stores"].items() if attr in held
                )
        short = cls.rpartition(".")[2]
        return {
            writer: sorted("?" if name == short else name for name in names)
            for writer, names in found.items()
        }

    def _held_apart(self, name: str) -> bool:
        """Return whether no file of the run (nor a module the phase read) hands on the object
        a module-level `name` holds (`handed.held_apart`): a write on another name (`args.model
        = m`) cannot then reach it. A file that neither binds `name` at module level (a
        summarised module's assigns) nor imports it uses only a `name` of its own."""
        known = self._names_apart.get(name)
        if known is not None and (known[0] == len(self.summaries) or not known[1]):
            return known[1]  # more modules only add files and homes: handed on stays so
        homes: set[str] = set()
        for module, summary in self.summaries.items():
            if name in summary["assigns"]:
                home = self.module_path(module)
                homes.update(p for p, m in self.files.items() if m == module)
                if home is not None:
                    homes.add(str(home))
        apart = True
        for given, data in self.given.items():
            apart = apart and self._file_apart(given, data, name, given in homes)
        for module in self.summaries:
            found = self.module_path(module)
            if not apart:
                break
            if found is None or str(found) in self.given:
                continue
            apart = self._file_apart(str(found), None, name, str(found) in homes)
        self._names_apart[name] = (len(self.summaries), apart)
        return apart

    def _file_apart(self, path: str, data: bytes | str | None, name: str, home: bool) -> bool:
        """`_text_held_apart` for one file, kept per file, name and whether it is a home."""
        key = (path, name, home)
        if key not in self._files_apart:
            if data is None:
                data = self._module_data(Path(path))
            self._files_apart[key] = _text_held_apart(data, name, home)
        return self._files_apart[key]

    def _kept_instances(self, cls: str) -> list[str]:
        """Return the names a module binds once, at module level, to a call of a class named
        `cls` (`settings = Settings()`), whose object no file of the run hands on."""
        short = cls.rpartition(".")[2]
        names: set[str] = set()
        for summary in self.summaries.values():
            for name, assigns in summary["assigns"].items():
                if len(assigns) != 1 or assigns[0][1] or assigns[0][0][0] != "call":
                    continue
                if assigns[0][0][1][-1] == short:  # `Settings()`, `config.Settings()`
                    names.add(name)
        return sorted(name for name in names if self._held_apart(name))

    def _rebound_instances(self, cls: str) -> list[str]:
        """Return the names a module binds at module level to a call of a class named `cls`
        that may be bound to another object after (`_rebound`): a field read through them
        may not be the one that call gives."""
        short = cls.rpartition(".")[2]
        names: set[str] = set()
        for module, summary in self.summaries.items():
            for name, assigns in summary["assigns"].items():
                made = assigns[0][0] if len(assigns) == 1 else None
                is_made = made is not None and made[0] == "call" and made[1][-1] == short
                if is_made and self._rebound({module}, {name}):
                    names.add(name)
        return sorted(names)

    def _written(self, attr: str, outside: bool) -> bool:
        """`_attribute_writes` for one name outside ASCII (a byte pattern's `\\w` is ASCII)."""
        cache = self._set_outside_files if outside else self._set_in_files
        found = cache.get(attr)
        if found is None:
            name = re.escape(attr.encode())
            assigned = re.compile(
                rb"(\w*)[ \t]*\.[ \t]*"
                + name
                + rb"[ \t]*(?::[^=\n]{0,%d})?(?:[-+*/%%@&|^]|//|\*\*|<<|>>)?=(?!=)" % _SPAN
            )
            named = re.compile(rb"setattr\([^,\n]{0,%d},[ \t]*[\"']" % _SPAN + name + rb"[\"']")
            found = False
            for data in self.given.values():
                raw = data if isinstance(data, bytes) else data.encode("utf-8", "replace")
                written = (m.group(1) != b"self" or not outside for m in assigned.finditer(raw))
                if named.search(raw) or any(written):
                    found = True
                    break
            cache[attr] = found
        return found

    def _module_constant(self, module: str, name: str) -> tuple[str, str] | None:
        """Return (module, name) when `name` is assigned a literal once, at module level."""
        summary = self.summaries.get(module)
        if summary is None:
            self._read("module", module)
        assigns = summary["assigns"].get(name) if summary is not None else None
        if not assigns or len(assigns) != 1:
            return None
        written, nested = assigns[0]
        if written[0] != "lit" or nested or self._module_name_set(module, name):
            return None
        return module, name

    def _reach_from(
        self,
        module: str,
        function: str | None,
        value: list[Any],
        reach: list[Any],
        spelled: list[list[str]] | None = None,
    ) -> None:
        """Record that the parameter an expression reads (if it reads one) reaches `reach`.

        A model spelled around a parameter (`f"anthropic.{model}-v1:0"`) reaches it too, with
        the text written around it (`spelled`: what the callee writes around what it is given).
        """
        if function is None:
            return
        if reach[0] == MODEL and not spelled and reach[1] in TARGETS and TARGETS[reach[1]].by_model:
            # Only where the model decides whether the call is Claude's (LiteLLM, Bedrock): a
            # Claude client's call reads every entry of the table as one it may send.
            tabled = self._table_param(module, function, value)
            if tabled is not None:
                self._reach_tabled(tabled, reach)
                return
        if reach[0] == MODEL:
            around = self._spelled_around(module, function, value)
            if around is not None:
                value = around[0]
                spelled = [
                    [prefix + around[1], around[2] + suffix]
                    for prefix, suffix in spelled or [["", ""]]
                ]
        for symbol, fallback in self._param_reads(module, function, value, 0):
            key = (symbol.module, symbol.qual)
            if spelled:
                self._record_spelled(key, symbol.name, spelled)
            if _add(self._entry(self.facts.reaches, key, "reaches", dict), symbol.name, reach):
                self._touch("reaches", key)
            keyword = self._star_key(symbol)
            if keyword is not None:
                # `kwargs.get("max_tokens", 1024)`: a caller's keyword of that name is read.
                forwards = self._entry(self.facts.forwards, key, "forwards", dict)
                if _add(forwards, keyword, reach):
                    self._touch("forwards", key)
            if fallback is not None:
                fallbacks = self._entry(self.facts.fallbacks, key, "fallbacks", dict)
                if symbol.name not in fallbacks:
                    fallbacks[symbol.name] = fallback
                    self._touch("fallbacks", key)

    def _star_key(self, symbol: Param) -> str | None:
        """Return the keyword a read of a function's `**kwargs` by a literal key stands for.

        `kwargs.get("max_tokens", 1024)`, `kwargs["model"]` or `kwargs.pop("max_tokens", 1024)`
        reads what a caller passes as `max_tokens=` or `model=` (the keywords no other
        parameter takes: https://docs.python.org/3/reference/compound_stmts.html#function-definitions).
        None for any other parameter, and when the function binds the name again, sets,
        changes or deletes a key of it (`kwargs["model"] = m`, `kwargs.update(...)`), or takes
        the key out and reads it again: then the value read is not only the caller's.
        """
        name = symbol.name
        if not name.endswith("]") or name.count("[") != 1 or name.count("]") != 1:
            return None
        base, key = name[:-1].split("[", 1)
        facts = self.summaries.get(symbol.module, {}).get("functions", {}).get(symbol.qual)
        if facts is None or "." in base or facts["locals"].get(base):
            return None
        if not any(p["kind"] == "varkw" and p["name"] == base for p in facts["params"]):
            return None
        keyed = facts.get("keyed", {}).get(base, [])
        if None in keyed or key in keyed:
            return None
        popped = facts.get("popped", {}).get(base, [])
        if key not in popped:
            return key
        # Taken out once, by the read itself (`kwargs.pop("max_tokens", 4096)`): no other read
        # of the key (`kwargs.get("max_tokens")`, after it is gone) stands for the caller's.
        if popped.count(key) != 1 or any(_reads_key(call, base, key) for call in facts["calls"]):
            return None
        return key

    def _table_param(
        self, module: str, function: str | None, value: list[Any]
    ) -> tuple[Param, str, dict[str, str]] | None:
        """Return (the parameter, the table's dotted name, {key: model}) when a model is looked
        up by a plain parameter in a table of model ids holding a Claude model (`MODELS[
        provider]`, directly or through a local bound once): a module-level dict literal of
        string entries no file of the run changes (`_model_table`). None otherwise."""
        if function is None:
            return None
        if value[0] == "name":
            facts = self.summaries[module]["functions"].get(function, {})
            local = facts.get("locals", {}).get(value[1])
            if local and len(local) == 1 and not local[0][1]:
                value = local[0][0]
        if value[0] != "sub" or value[2] is not None or len(value) < 4 or value[1][0] != "name":
            return None
        key = self.evaluate(module, function, value[3])
        if not isinstance(key, Param) or "." in key.name or "[" in key.name:
            return None
        table = self.evaluate(module, function, value[1])
        if not isinstance(table, DictLit) or table.function is not None:
            return None
        name = self._table_name(table, value[1][1], module)
        if name is None:
            return None
        found = self._model_table(table, name)
        if found is None:
            return None
        return key, f"{table.module}.{name}", found[1]

    def _table_name(self, table: DictLit, read: str, module: str) -> str | None:
        """Return the name a module-level dict is bound to in its module, read as `read` in
        `module` (itself, or imported under the same name)."""
        if table.module == module:
            return read
        qualname = self.summaries[module]["imports"].get(read)
        if qualname is None or qualname.rpartition(".")[2] != read:
            return None
        return read

    def _reach_tabled(self, tabled: tuple[Param, str, dict[str, str]], reach: list[Any]) -> None:
        """Record that a parameter picks a Claude call's model out of a table by its key."""
        param, name, table = tabled
        key = (param.module, param.qual)
        mine = self._entry(self.facts.tabled, key, "tabled", dict)
        if mine.get(param.name) not in (None, [name, table]):
            mine[param.name] = [None, {}]  # two tables: which one is not known
            self._touch("tabled", key)
        elif param.name not in mine:
            mine[param.name] = [name, table]
            self._touch("tabled", key)
        if _add(self._entry(self.facts.reaches, key, "reaches", dict), param.name, reach):
            self._touch("reaches", key)

    def _spelled_around(
        self, module: str, function: str, value: list[Any]
    ) -> tuple[list[Any], str, str] | None:
        """Return the one part of a string built from parts (an f-string, `a + b`) that is not
        known, with the known text before and after it: `f"anthropic.{model}-v1:0"` is
        (`model`, "anthropic.", "-v1:0"). None when it is not such a string."""
        if value[0] == "name":
            facts = self.summaries[module]["functions"].get(function, {})
            local = facts.get("locals", {}).get(value[1])
            if local and len(local) == 1 and not local[0][1]:
                value = local[0][0]
        value = _format_join(value) or value
        if value[0] != "join":
            return None
        parts = _flat_join(value)
        texts: list[str | None] = []
        for part in parts:
            found = self.evaluate(module, function, part)
            known = isinstance(found, Const) and isinstance(found.value, str)
            texts.append(found.value if known else None)  # type: ignore[union-attr]
        unknown = [i for i, text in enumerate(texts) if text is None]
        if len(unknown) != 1:
            return None
        at = unknown[0]
        before = "".join(t for t in texts[:at] if t is not None)
        after = "".join(t for t in texts[at + 1 :] if t is not None)
        return (parts[at], before, after) if before or after else None

    def _record_spelled(self, key: tuple[str, str], name: str, spelled: list[list[str]]) -> None:
        """Note the text a parameter reaching a Claude call's model is written between."""
        table = self._entry(self.facts.spelled, key, "spelled", dict)
        known = table.setdefault(name, [])
        for pair in spelled:
            if pair not in known:
                known.append(pair)
                self._touch("spelled", key)

    def _param_reads(
        self, module: str, function: str | None, value: list[Any], depth: int
    ) -> list[tuple[Param, list[Any] | None]]:
        """Return the parameters (or paths into them) whose value an expression may be.

        Each with the constant an `or` falls back to when it is falsy (`options.model_id or
        DEFAULT_MODEL`), as [value, name]. Follows a local assigned once, `self.<attr>` set in
        any method, `x[key]` and `x.get(key)`, and the alternatives of `or` and `if`.
        """
        if depth > MAX_DEPTH or not value:
            return []
        if value[0] == "name" and function is not None:
            facts = self.summaries[module]["functions"].get(function, {})
            if value[1] in facts.get("guarded", {}) or _self_fallback(facts, value[1]):
                return self._guarded_reads(module, function, facts, value[1], depth)
        symbol = self.evaluate(module, function, value)
        if isinstance(symbol, Param):
            return [(symbol, None)]
        if isinstance(symbol, Const) and value[0] == "attr":
            # `self.model` set from a parameter given a value only when empty (`if not model:
            # model = DEFAULT`) evaluates to that value; what callers pass reaches it too.
            return self._attribute_reads(module, function, value, depth)
        if symbol is not None:
            return []
        kind = value[0]
        if kind == "or":
            return self._or_reads(module, function, value[1], depth)
        if kind == "if":
            found: list[tuple[Param, list[Any] | None]] = []
            for option in value[1:]:
                found.extend(self._param_reads(module, function, option, depth + 1))
            return found
        if kind == "name" and function is not None:
            facts = self.summaries[module]["functions"].get(function, {})
            local = facts.get("locals", {}).get(value[1])
            if local and len(local) == 1 and not local[0][1]:
                return self._param_reads(module, function, local[0][0], depth + 1)
            return []
        if kind == "attr":
            return self._attribute_reads(module, function, value, depth)
        return self._item_reads(module, function, value, depth)

    def _item_reads(
        self, module: str, function: str | None, value: list[Any], depth: int
    ) -> list[tuple[Param, list[Any] | None]]:
        """Return the paths into parameters `x[key]`, `x.get(key)` and, on the function's own
        `**kwargs` only, `kwargs.pop(key)` read (see `_param_reads`)."""
        item = _item_read(value)
        if item is None and function is not None:
            popped = _pop_read(value)
            if popped is not None and self._varkw(module, function, popped[0]) is not None:
                item = popped
        if item is None:
            return []
        base_expr, key = item
        missing = self._get_default(module, function, value)
        found = []
        defaulted = value[0] == "call" and len(value[2]) == 2
        for read, _ in self._param_reads(module, function, base_expr, depth + 1):
            name = read.name
            if name.count(".") + name.count("[") < MAX_PATH and "]" not in key:
                found.append((Param(read.module, read.qual, f"{name}[{key}]"), missing))
                if defaulted:
                    self._defaulted.add((read.module, read.qual, f"{name}[{key}]"))
        if missing is None and defaulted:
            # `kwargs.get("model", self.model_name)`: without the key, what the default reads
            # is what is read (`self.model_name` set from `model_name or DEFAULT`).
            found.extend(self._param_reads(module, function, value[2][1], depth + 1))
        return found

    def _get_default(self, module: str, function: str | None, value: list[Any]) -> list[Any] | None:
        """Return [value, name, "missing"] for `x.get("key", DEFAULT)`: what is read when the
        dict passed has no such key."""
        if value[0] != "call" or len(value[2]) != 2 or value[3] or value[4] or value[5]:
            return None
        default = value[2][1]
        constant = self.evaluate(module, function, default)
        if not isinstance(constant, Const) or not _jsonable(constant.value):
            return None
        return [constant.value, default[1] if default[0] == "name" else None, "missing"]

    def _guarded_reads(
        self, module: str, function: str, facts: dict[str, Any], name: str, depth: int
    ) -> list[tuple[Param, list[Any] | None]]:
        """Return what a parameter given a value only when empty reads (`if not model: model =
        DEFAULT_MODEL` or `model = model or DEFAULT_MODEL`, its one assignment): the
        parameter, falling back to that value."""
        local = facts.get("locals", {}).get(name)
        guarded = _self_fallback(facts, name)
        if guarded is None:
            guarded = facts.get("guarded", {}).get(name)
            # Its assignments are the guard's: one, or each of an `if`/`elif` chain's.
            written = [value for value, nested in local or () if nested]
            if guarded is None or len(written) != len(local or ()):
                return []
            if written != [guarded] and written != _chained(guarded):
                return []
        param = next((p for p in facts["params"] if p["name"] == name), None)
        if param is None or param["kind"] not in ("positional", "keyword"):
            return []
        constant = self.evaluate(module, function, guarded)
        fallback = None
        if isinstance(constant, Const) and _jsonable(constant.value):
            fallback = [constant.value, guarded[1] if guarded[0] == "name" else None]
        found = self._param_reads(module, function, guarded, depth + 1)
        return [(Param(module, function, name), fallback), *found]

    def _or_reads(
        self, module: str, function: str | None, options: list[list[Any]], depth: int
    ) -> list[tuple[Param, list[Any] | None]]:
        """Return the parameters `a or b or DEFAULT` reads, each but the last's with the
        constant it falls back to."""
        last = options[-1]
        constant = self.evaluate(module, function, last)
        fallback = None
        if isinstance(constant, Const) and _jsonable(constant.value):
            fallback = [constant.value, last[1] if last[0] == "name" else None]
        found: list[tuple[Param, list[Any] | None]] = []
        for option in options[:-1]:
            for read, _ in self._param_reads(module, function, option, depth + 1):
                found.append((read, fallback))
        found.extend(self._param_reads(module, function, last, depth + 1))
        return found

    def _attribute_reads(
        self, module: str, function: str | None, value: list[Any], depth: int
    ) -> list[tuple[Param, list[Any] | None]]:
        """Return the parameters `x.attr` reads: what `self.attr` was set from in any method,
        or the path `.attr` into a parameter `x` reads."""
        found: list[tuple[Param, list[Any] | None]] = []
        base = self.evaluate(module, function, value[1])
        if isinstance(base, SelfParam):
            owner, info = self.attribute_owner(base.module, base.name, value[2])
            for assigned, method in info.get("attributes", {}).get(value[2], []):
                found.extend(self._param_reads(owner, method, assigned, depth + 1))
        elif base is None:
            for read, _ in self._param_reads(module, function, value[1], depth + 1):
                path = self.attribute(read, value[2], depth + 1)
                if isinstance(path, Param):
                    found.append((path, None))
        return found

    def _varkw(self, module: str, function: str, star: list[Any]) -> str | None:
        if star[0] != "name":
            return None
        facts = self.summaries[module]["functions"][function]
        for param in facts["params"]:
            if param["kind"] == "varkw" and param["name"] == star[1]:
                return str(param["name"])
        return None

    def class_of(self, module: str, function: str | None) -> tuple[str, str] | None:
        """Return the project class a function is a method of (or nested in a method of)."""
        if function is None or "." not in function:
            return None
        head = function.split(".", 1)[0]
        return (module, head) if head in self.summaries[module]["classes"] else None

    def holds(
        self,
        reach: list[Any],
        owner: tuple[str, str] | None,
        receiver: tuple[str, str] | None,
        below: bool = False,
    ) -> bool:
        """Return whether a reach of a method of `owner` holds when it runs on `receiver`.

        A reach found through a subclass's Claude call (`self.temperature`, set by the base
        class, read by `ChatAnthropic._api_call`) holds only on instances of that subclass: a
        sibling subclass (`ChatOpenAI`) runs the same base `__init__` and never the call.
        `below`: the receiver may also be a subclass of `receiver` (`super().__init__(...)`
        in a class runs on instances of its subclasses too).
        """
        if len(reach) < 5 or reach[4] is None or owner is None:
            return True
        home = (reach[4][0], reach[4][1])
        if home == owner or owner not in self.mro(*home):
            return True
        if receiver is None:
            return False
        return home in self.mro(*receiver) or (below and receiver in self.mro(*home))

    def _held(
        self,
        table: dict[str, list[list[Any]]],
        owner: tuple[str, str] | None,
        receiver: tuple[str, str] | None,
        below: bool = False,
    ) -> dict[str, list[list[Any]]]:
        found: dict[str, list[list[Any]]] = {}
        for name, items in table.items():
            kept = [reach for reach in items if self.holds(reach, owner, receiver, below)]
            if kept:
                found[name] = kept
        return found

    def _record_project_call(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        callee_module: str,
        qual: str,
        bound: bool,
        receiver: tuple[str, str] | None = None,
        below: bool = False,
    ) -> None:
        key = (callee_module, qual)
        layout = self._layout(key)
        if layout is None:
            return
        owner = self.class_of(callee_module, qual)
        self._read("reaches", key)
        self._read("forwards", key)
        reaches = self._held(self.facts.reaches.get(key, {}), owner, receiver or owner, below)
        forwards = self._held(self.facts.forwards.get(key, {}), owner, receiver or owner, below)
        if not reaches and not forwards:
            reaches = self._overrides_reach(callee_module, qual, owner)
        facts = self.summaries[callee_module]["functions"][qual]
        reaches, forwards, ruled_out = self._selected_reaches(
            module, function, call, callee_module, facts, (reaches, forwards), layout.defaulted
        )
        if reaches or forwards or key in self.facts.relied_by:
            self.wrapper_callers.add(module)
        # `Base.__init__(self, model)`: `self` is passed.
        passes_self = not bound and facts["method"] and not facts["classmethod"]
        bound_args, extra = _bind(call, layout, passes_self)
        before = {name.split(".", 1)[0] for name in reaches}
        reaches = self._per_caller(module, function, call, key, reaches, bound_args)
        self._note_spread_call(module, call, key, layout, bound_args)
        # A default whose every reach this call's dict replaces is not one it relies on.
        ruled_out |= before - {name.split(".", 1)[0] for name in reaches}
        # Defaults this call relies on.
        passed = _quiet_entry(self.facts.passed, key, set)
        if call[4] or call[5]:
            passed.update(layout.defaulted)
        else:
            passed.update(name for name, arg in bound_args.items() if not _empty_literal(arg))
        if not call[4] and not call[5]:
            for name in layout.defaulted:
                if name not in bound_args and name not in ruled_out:
                    relied = self._entry(self.facts.relied, key, "relied", set)
                    self._put(relied, name, "relied", key)
                    # Not a change the rounds wait for: only the views read it.
                    by = _quiet_entry(self.facts.relied_by, key, dict)
                    _quiet_entry(by, name, set).add(receiver or ("", ""))
                    self._default_reads(callee_module, facts, name, reaches.get(name, []))
        self._override_defaults(key, owner, call, passes_self)
        self._star_defaults(key, call, layout.varkw, reaches, extra, passed)
        left = {n for n in layout.defaulted if n not in bound_args and n not in ruled_out}
        self._forwarded_defaults(module, function, call, key, left, extra, (receiver, below))
        self._record_bound_clients(module, function, key, bound_args)
        here = [self.paths.get(module, module), call[6]]
        spelled = self.facts.spelled.get(key, {})
        self._chain_reaches(module, function, key, (reaches, forwards), (bound_args, extra), here)
        self._field_reads_passed(module, function, reaches, bound_args, here)
        self._record_models_given(module, function, call, key, reaches, bound_args, spelled, here)
        self._note_stream(module, function, call, key, bound_args, extra, forwards, here)
        self._record_paths(module, function, reaches, bound_args)
        if function is not None:
            for star in call[5]:
                if self._varkw(module, function, star) is not None:
                    self._record_forwarding(module, function, reaches, forwards, bound_args)

    def _chain_reaches(
        self,
        module: str,
        function: str | None,
        key: tuple[str, str],
        tables: tuple[dict[str, list[list[Any]]], dict[str, list[list[Any]]]],
        args: tuple[dict[str, list[Any]], dict[str, list[Any]]],
        here: list[Any],
    ) -> None:
        """Wrapper chains: the caller's parameters it passes on reach what the callee's
        parameters (`tables`: reaches, and forwards of its `**kwargs`) reach."""
        reaches, forwards = tables
        bound_args, extra = args
        spelled = self.facts.spelled.get(key, {})
        self._read("tabled", key)
        tabled = self.facts.tabled.get(key, {})
        for name, arg in bound_args.items():
            if name in tabled:
                continue  # a key of a table, not a model: what reaches is the table's entry
            for reach in reaches.get(name, []):
                self._reach_from(module, function, arg, reach, spelled.get(name))
                self._constant_read(module, function, arg, [reach[0], reach[1], *here])
        for name, arg in extra.items():
            for reach in forwards.get(name, []):
                self._reach_from(module, function, arg, reach)
                self._constant_read(module, function, arg, [reach[0], reach[1], *here])

    def _forwarded_defaults(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        key: tuple[str, str],
        left: set[str],
        extra: dict[str, list[Any]],
        runs_on: tuple[tuple[str, str] | None, bool],
    ) -> None:
        """Note the defaults a call relies on through `**kwargs` handed on as they are.

        `ClaudeLLM()` with `ClaudeLLM.__init__(self, model=..., **kwargs)` running
        `super().__init__(model, **kwargs)`: the base's `temperature=0.7` is what the call
        sends, as the keywords it gives are all the base is given. A call of the function that
        spreads anything (`ClaudeLLM(**opts)`) may give any keyword: it relies on none; nor
        does any call when the function changes or hands on its `**kwargs` otherwise
        (`_hands_on_kwargs`). `left`: the callee's defaults this call leaves out.
        """
        receiver, below = runs_on
        self._read("spread_defaults", key)
        inherited = self.facts.spread_defaults.get(key, set())
        if not call[4] and not call[5]:
            for callee_module, callee, name, by, inner in inherited:
                if name in extra:
                    continue
                target = (callee_module, callee)
                relied = self._entry(self.facts.relied, target, "relied", set)
                self._put(relied, name, "relied", target)
                who = receiver if inner and receiver is not None else by
                _quiet_entry(_quiet_entry(self.facts.relied_by, target, dict), name, set).add(who)
            return
        if function is None or not self._hands_on_kwargs(module, function, call):
            return
        here = (module, function)
        items = {(*key, name, receiver or ("", ""), below) for name in left}
        items.update(item for item in inherited if item[2] not in extra)
        if not items:
            return
        mine = self._entry(self.facts.spread_defaults, here, "spread_defaults", set)
        for item in sorted(items):
            self._put(mine, item, "spread_defaults", here)

    def _hands_on_kwargs(self, module: str, function: str, call: list[Any]) -> bool:
        """Return whether a call spreads nothing but the function's own `**kwargs`, which the
        function never binds, changes, aliases or hands to other code (`clean(kwargs)`): the
        keys it holds are the keywords the function's caller gave it, no more."""
        if call[4] or len(call[5]) != 1:
            return False
        name = self._varkw(module, function, call[5][0])
        if name is None:
            return False
        facts = self.summaries[module]["functions"][function]
        if "parent" in facts or name in facts["locals"] or name in facts.get("changed", ()):
            return False
        read = ["name", name]
        for other in facts["calls"]:
            callee = other[1]
            if callee[0] == "attr" and callee[1] == read and callee[2] in _DICT_READS:
                continue  # `kwargs.get("verbose")`: read, not changed
            if _contains_expr([callee, other[2], list(other[3].values())], read):
                return False
        return not _contains_expr(list(facts["locals"].values()), read)

    def _override_defaults(
        self,
        key: tuple[str, str],
        owner: tuple[str, str] | None,
        call: list[Any],
        passes_self: bool,
    ) -> None:
        """Note the defaults of each override a call of an abstract method relies on: the call
        runs an override, its arguments bound to the override's own parameters, so a default
        the call leaves out is the override's (`backend.ask(prompt)` on a `Backend` whose
        `ClaudeBackend.ask` has `temperature=0.9` sends 0.9 when that backend is given)."""
        for cls, override in self._overrides(*key, owner):
            layout = self._layout(override)
            if layout is None:
                continue
            bound_args, _ = _bind(call, layout, passes_self)
            passed = _quiet_entry(self.facts.passed, override, set)
            if call[4] or call[5]:
                passed.update(layout.defaulted)
                continue
            passed.update(name for name, arg in bound_args.items() if not _empty_literal(arg))
            for name in layout.defaulted:
                if name not in bound_args:
                    relied = self._entry(self.facts.relied, override, "relied", set)
                    self._put(relied, name, "relied", override)
                    by = _quiet_entry(self.facts.relied_by, override, dict)
                    _quiet_entry(by, name, set).add(cls)

    def _record_models_given(
        self,
        module: str,
        function: str | None,
        call: list[Any],
        key: tuple[str, str],
        reaches: dict[str, list[list[Any]]],
        bound_args: dict[str, list[Any]],
        spelled: dict[str, list[list[str]]],
        here: list[Any],
    ) -> None:
        """Note whether this call of a function gives a Claude model to each parameter that is
        the model of a call Claude's only by its model (`Facts.model_callers`); `spelled`: the
        text the function writes around each parameter it spells a model from."""
        for name, items in reaches.items():
            routers = [TARGETS[r[1]] for r in items if r[0] == MODEL and r[1] in TARGETS]
            if not any(target.by_model for target in routers):
                continue
            # A library routing by a provider prefix (aisuite's `anthropic:`) sends a Claude
            # model to Anthropic only behind that prefix.
            prefixes = {target.model_prefix for target in routers if target.by_model}
            arg = bound_args.get(name)
            self._read("tabled", key)
            tabled = self.facts.tabled.get(key, {}).get(name)
            given = (
                self._gives_claude(module, function, arg, spelled.get(name), tabled, prefixes)
                if arg is not None and not (call[4] or call[5])
                else None
            )
            seen = _quiet_entry(_quiet_entry(self.facts.model_callers, key, dict), name, dict)
            # A call read again (what it reads changed) says it anew: the last reading stands.
            if isinstance(given, Param):
                # The caller's own parameter, passed on as it is: Claude's where that one is.
                seen[tuple(here)] = (given.module, given.qual, given.name)
            else:
                seen[tuple(here)] = "claude" if given else "other"

    def _gives_claude(
        self,
        module: str,
        function: str | None,
        arg: list[Any],
        spelled: list[list[str]] | None,
        tabled: list[Any] | None = None,
        prefixes: Collection[str] = ("",),
    ) -> bool | Param:
        """Return whether an argument is a Claude model as the callee sends it (spelled with
        the text the callee writes around it, when it does, and starting with each of
        `prefixes`); the caller's parameter when it passes one on unspelled
        (`Facts.model_callers` follows it to that one's callers)."""
        found = self.evaluate(module, function, arg)
        if tabled is not None:
            # The argument is a key of a table of model ids: its entry is the model sent.
            if not isinstance(found, Const) or not isinstance(found.value, str):
                return False
            model = tabled[1].get(found.value)
            return tabled[0] is not None and isinstance(model, str) and _routed(model, prefixes)
        if isinstance(found, Param) and not spelled and "." not in found.name:
            return found
        if not isinstance(found, Const) or not isinstance(found.value, str):
            return False
        return all(
            _routed(before + found.value + after, prefixes)
            for before, after in spelled or [["", ""]]
        )

    def _star_defaults(
        self,
        key: tuple[str, str],
        call: list[Any],
        varkw: str | None,
        reaches: dict[str, list[list[Any]]],
        extra: dict[str, list[Any]],
        passed: set[str],
    ) -> None:
        """Note the defaults of `kwargs.get("key", DEFAULT)` a call relies on: it passes no
        such keyword and spreads nothing (`**options` may hold it), so the default is sent."""
        if varkw is None:
            return
        prefix = f"{varkw}["
        read = [name for name in reaches if name.startswith(prefix)]
        if not read:
            return
        self._read("fallbacks", key)
        fallbacks = self.facts.fallbacks.get(key, {})
        for name in read:
            keyword = self._star_key(Param(key[0], key[1], name))
            if keyword is None:
                continue
            if call[4] or call[5] or (keyword in extra and not _empty_literal(extra[keyword])):
                passed.add(name)
            missing = fallbacks.get(name)
            if call[4] or call[5] or keyword in extra:
                continue
            if (not missing or missing[-1] != "missing") and (*key, name) not in self._defaulted:
                continue  # read with no default (`kwargs["model"]`, `kwargs.get("model")`)
            self._put(self._entry(self.facts.relied, key, "relied", set), name, "relied", key)

    def _default_reads(
        self, module: str, facts: dict[str, Any], name: str, reaches: list[list[Any]]
    ) -> None:
        """A nested function's default read from the enclosing one (`def call(model=model)`)
        is evaluated there: what the default reads reaches what the parameter does."""
        parent = facts.get("parent")
        if parent is None or not reaches:
            return
        for param in facts["params"]:
            if param["name"] == name and param["default"] is not None:
                for reach in reaches:
                    self._reach_from(module, parent, param["default"], reach)

    def _record_bound_clients(
        self,
        module: str,
        function: str | None,
        key: tuple[str, str],
        bound_args: dict[str, list[Any]],
    ) -> None:
        """Record the Claude clients (or proven other objects) a call binds parameters to."""
        for name, arg in bound_args.items():
            given = self.evaluate(module, function, arg)
            symbol = self._typed(given)
            if isinstance(symbol, Foreign) and symbol.qualname.startswith(TEST_DOUBLES):
                continue  # a test double stands in for what the code is given: it proves nothing
            self._record_bound_object(key, name, self._object_of(given, symbol))
            self._record_bound_table(module, key, name, given, arg)
            if isinstance(symbol, Client) and not symbol.path and symbol.only is None:
                # An Anthropic SDK client, or a boto3 bedrock-runtime client (whose calls are
                # Claude's by their model id).
                if is_sdk_client_class(symbol.cls) or symbol.cls == BEDROCK_RUNTIME:
                    clients = self._entry(self.facts.param_clients, key, "clients", dict)
                    if name not in clients:
                        clients[name] = symbol.cls
                        self._touch("clients", key)
            elif name in self._called_params(key):
                if not (isinstance(symbol, Client) and _sdk_method(symbol)):
                    # A parameter the helper calls, given anything else by some caller (another
                    # vendor's method, a local function, what its own caller gives): the call
                    # is not proven Claude's.
                    ambiguous = self._entry(self.facts.ambiguous, key, "clients", set)
                    self._put(ambiguous, name, "clients", key)
                    continue
                # An SDK client's method handed to a helper that calls it
                # (`self._with_retry(self.client.messages.create, **request)`).
                clients = self._entry(self.facts.param_clients, key, "clients", dict)
                if name not in clients:
                    clients[name] = [symbol.cls, *symbol.path]
                    self._touch("clients", key)
            elif isinstance(symbol, (Foreign, Obj)) or (
                isinstance(symbol, Client) and not symbol.path
            ):
                # Another object, or a client that may be another vendor's (`Client.only`).
                ambiguous = self._entry(self.facts.ambiguous, key, "clients", set)
                self._put(ambiguous, name, "clients", key)

    def _called_params(self, key: tuple[str, str]) -> frozenset[str]:
        """Return the parameters a function calls (`fn(**kwargs)`), once per function."""
        found = self._params_called.get(key)
        if found is None:
            facts = self.summaries[key[0]]["functions"][key[1]]
            params = {p["name"] for p in facts["params"]}
            found = frozenset(
                call[1][1]
                for call in facts["calls"]
                if call[1][0] == "name" and call[1][1] in params
            )
            self._params_called[key] = found
        return found

    def _object_of(self, given: Sym, typed: Sym) -> Sym:
        """Return the project instance a call passes (`self`, `Chat()`, or a parameter every
        caller binds to one), what else it proves (another object, a client), or None."""
        if isinstance(given, SelfParam):
            return Obj(given.module, given.name)
        if isinstance(given, Param) and "." not in given.name and "[" not in given.name:
            key = (given.module, given.qual)
            self._read("clients", key)
            cls = self.facts.param_objects.get(key, {}).get(given.name)
            if cls is not None:
                return Obj(*cls)
            classes = self.facts.param_choices.get(key, {}).get(given.name)
            return Choice(tuple(Obj(*c) for c in classes)) if classes else None
        return typed

    def _record_bound_object(self, key: tuple[str, str], name: str, symbol: Sym) -> None:
        """Record the project class of the instance a call binds a parameter to; a call binding
        another object (or a client) there makes the parameter no one class's."""
        if symbol is None:
            return
        self._read("clients", key)
        self._record_bound_choice(key, name, symbol)
        objects = self.facts.param_objects.get(key, {})
        cls = (symbol.module, symbol.name) if isinstance(symbol, Obj) else None
        if name in objects and objects[name] in (None, cls):
            return
        objects = self._entry(self.facts.param_objects, key, "clients", dict)
        objects[name] = cls if name not in objects else None
        self._touch("clients", key)

    def _record_bound_choice(self, key: tuple[str, str], name: str, symbol: Sym) -> None:
        """Record the project classes of the instances a factory's result a call binds a
        parameter to may be (`Planner(self.llm)`, `self.llm = PROVIDERS[name](**kwargs)`),
        when every call that proves anything binds the same choice; callers binding different
        objects (`either(ClaudeAgent(key))`, `either(EchoAgent())`) or anything else make it
        none: each caller's object is known, and which one runs is not, here."""
        given: tuple[tuple[str, str], ...] | None = None
        if isinstance(symbol, Choice) and all(isinstance(o, Obj) for o in symbol.options):
            given = tuple(
                sorted({(o.module, o.name) for o in symbol.options if isinstance(o, Obj)})
            )
        self._read("clients", key)
        choices = self.facts.param_choices.get(key, {})
        if name in choices and choices[name] in (None, given):
            return
        choices = self._entry(self.facts.param_choices, key, "clients", dict)
        choices[name] = given if name not in choices else None
        self._touch("clients", key)

    def _record_bound_table(
        self, module: str, key: tuple[str, str], name: str, given: Sym, arg: list[Any]
    ) -> None:
        """Record the entries of a dict literal of project instances a call binds a parameter
        to, as [key, module, class]; a call binding anything else there, another such dict, or
        one its module changes by the name passed (`agents["x"] = Other()`) makes it no table."""
        if given is None:
            return
        self._read("clients", key)
        entries: list[list[str]] | None = None
        if (
            isinstance(given, DictLit)
            and not given.opaque
            and not given.spreads
            and 0 < len(given.entries) <= MAX_CHOICES
            and not self._dict_moved(module, arg)
        ):
            found = {
                k: self.evaluate(given.module, given.function, v) for k, v in given.entries.items()
            }
            objects = {k: f for k, f in found.items() if isinstance(f, Obj)}
            if len(objects) == len(found):
                entries = sorted([k, f.module, f.name] for k, f in objects.items())
        tables = self.facts.param_tables.get(key, {})
        if name in tables and tables[name] in (None, entries):
            return
        tables = self._entry(self.facts.param_tables, key, "clients", dict)
        tables[name] = entries if name not in tables else None
        self._touch("clients", key)

    def _dict_moved(self, module: str, named: list[Any]) -> bool:
        """Return whether `module`'s text may change the items of a dict by the last name of
        `named` (`agents[k] = v`, `self.agents.update(...)`); True when its text is unread."""
        name = named[-1] if named[0] in ("name", "attr") else None
        if not isinstance(name, str):
            return bool(named[0] != "dict")
        data = self._module_data(self.module_path(module))
        text = None if data is None else data if isinstance(data, str) else python_text(data)
        return text is None or _dict_changes(name).search(text) is not None

    def _items_set_in_run(self, named: list[Any]) -> bool:
        """Return whether a file of the run may change the items of a dict by the last name of
        `named` through any object (`team.agents["claude"] = Other()` in a plugin), or cannot
        be read; each answer kept for the run."""
        name = named[-1] if named[0] in ("name", "attr") else None
        if not isinstance(name, str):
            return bool(named[0] != "dict")
        found = self._items_set.get(name)
        if found is None:
            changes = _dict_changes(name)
            found = any(
                text is None or changes.search(text) is not None
                for _, text in self._texts_spelling(name)
            )
            self._items_set[name] = found
        return found

    def _handed_objects(
        self, module: str, qual: str, clients: dict[str, Any]
    ) -> dict[str, dict[str, Any]]:
        """Return what a function's view says of the project instances its callers hand its
        parameters: one each (`param_objects`), one of a few (`param_choices`), or a dict of
        them (`param_tables`)."""
        found: dict[str, dict[str, Any]] = {}
        given = {
            k: list(v) for k, v in self.facts.param_objects.get((module, qual), {}).items()
            if v is not None and k not in clients and self._useful(["obj", *v])
        }  # fmt: skip
        if given:
            found["param_objects"] = given
        choices = self.facts.param_choices.get((module, qual), {})
        chosen = {
            k: [list(c) for c in v] for k, v in choices.items()
            if v and k not in clients and k not in given
            and any(self._useful(["obj", *c]) for c in v)
        }  # fmt: skip
        if chosen:
            # ... or one of a few (a factory's result handed on: `Planner(self.llm)`).
            found["param_choices"] = chosen
        tables = self._handed_tables(module, qual)
        if tables:
            found["param_tables"] = tables
        return found

    def _handed_tables(self, module: str, qual: str) -> dict[str, list[list[str]]]:
        """Return the tables of project instances every in-project call hands a function's
        parameters (`param_tables`), for a file to read the one a literal key selects
        (`self.agents["claude"].chat(...)`): only those no file of the run changes the items
        of, by the parameter's name or by that of an attribute its class keeps it in."""
        found: dict[str, list[list[str]]] = {}
        for name, entries in self.facts.param_tables.get((module, qual), {}).items():
            if not entries or not any(self._useful(["obj", m, c]) for _, m, c in entries):
                continue
            kept = self._kept_as(module, qual, name)
            if any(
                self._dict_moved(module, ["name", n]) or self._items_set_in_run(["name", n])
                for n in [name, *kept]
            ) or any(self._attribute_handed_on(n) for n in kept):
                continue
            found[name] = entries
        return found

    def _attribute_handed_on(self, attr: str) -> bool:
        """Return whether a file of the run may hand the dict an object keeps as `attr` to
        code that can change its items under another name (`roster = team.agents`,
        `swap(team.agents)`), or cannot be read; each answer kept for the run."""
        found = self._handed_attrs.get(attr)
        if found is None:
            found = any(
                text is None or _dict_handed_on(text, attr, attribute=True)
                for _, text in self._texts_spelling(attr)
            )
            self._handed_attrs[attr] = found
        return found

    def _kept_as(self, module: str, qual: str, name: str) -> list[str]:
        """Return the attributes a method's class keeps a parameter in (`self.agents =
        agents`), none for a plain function."""
        cls = self.class_of(module, qual)
        if cls is None:
            return []
        info = self.summaries[module]["classes"].get(cls[1], {})
        return [
            attr
            for attr, assigned in info.get("attributes", {}).items()
            if any(value == ["name", name] and where == qual for value, where in assigned)
        ]

    def _handed_table_entry(
        self, module: str, symbol: Param, named: list[Any], key: str | None
    ) -> Sym:
        """Return the project instance a parameter's dict holds by `key` (any of them for a key
        not spelled: `self.agents[name]`), with every caller binding it to one dict literal of
        them; unknown when the reading module, or the parameter's, changes the dict."""
        if "." in symbol.name or "[" in symbol.name:
            return None
        self._read("clients", (symbol.module, symbol.qual))
        tables = self.facts.param_tables.get((symbol.module, symbol.qual), {})
        entries = tables.get(symbol.name)
        if not entries or self._dict_moved(module, named) or self._items_set_in_run(named):
            return None
        if named[0] == "attr" and self._attribute_handed_on(named[-1]):
            return None  # `roster = team.agents` somewhere: changed under another name
        if self._dict_moved(symbol.module, ["name", symbol.name]):
            return None
        if key is not None:
            chosen = [Obj(m, c) for k, m, c in entries if k == key]
            return chosen[0] if chosen else None
        return _union([Obj(m, c) for _, m, c in entries])

    def _field_reads_passed(
        self,
        module: str,
        function: str | None,
        reaches: dict[str, list[list[Any]]],
        bound_args: dict[str, list[Any]],
        here: list[Any],
    ) -> None:
        """Record a field of an object made once and passed to a parameter whose field reaches
        a Claude call (`reply(text, DEFAULTS)` reading `options.temperature`) as read there,
        as `DEFAULTS.temperature` written at the call would be (`_constant_read`). Only a name
        imported from another module: an object this module makes or holds is followed by the
        file's own analysis to where it is made (`analysis/option_fields.py`)."""
        summary = self.summaries[module]
        facts = summary["functions"].get(function) if function is not None else None
        params = self._param_index(module, function, facts) if function and facts else {}
        for name, items in reaches.items():
            head, rest = _split_path(name)
            if head not in bound_args or not re.fullmatch(r"\.\w+", rest):
                continue
            arg = bound_args[head]
            if (
                arg[0] != "name"
                or arg[1] not in summary["imports"]
                or arg[1] in summary["assigns"]
                or (
                    facts is not None
                    and (arg[1] in facts["locals"] or arg[1] in params or "parent" in facts)
                )
            ):
                continue
            read = ["attr", bound_args[head], rest[1:]]
            for reach in items:
                self._constant_read(module, function, read, [reach[0], reach[1], *here])

    def _record_paths(
        self,
        module: str,
        function: str | None,
        reaches: dict[str, list[list[Any]]],
        bound_args: dict[str, list[Any]],
    ) -> None:
        """Record what passing an object where a path into it reaches Claude means.

        Paths into what a parameter holds (`options.model_id`): the object passed there is an
        options object whose fields matter; a parameter of ours passed on reaches the same.
        """
        for name, items in reaches.items():
            head, rest = _split_path(name)
            if not rest or head not in bound_args:
                continue
            given = bound_args[head]
            if given[0] == "or":
                # `LLM(options or Options())`: what each alternative is.
                for alternative in given[1][:MAX_PATH]:
                    self._record_path(module, function, alternative, rest, items)
            else:
                self._record_path(module, function, given, rest, items)

    def _record_path(
        self,
        module: str,
        function: str | None,
        given: list[Any],
        rest: str,
        items: list[list[Any]],
    ) -> None:
        """Record what passing `given` where the path `rest` into it reaches Claude means."""
        passed = self.evaluate(module, function, given)
        if isinstance(passed, Obj):
            made: tuple[str, str] | None = (passed.module, passed.name)
            # `ctx.params.temperature` with `Context()`: the class of a field the object
            # makes with `field(default_factory=Params)` is an options class too.
            for step in rest.split(".")[1:MAX_PATH]:
                if made is None:
                    break
                self._put(self.facts.options, made, "options", made)
                made = self.field_factory(*made, step)
        elif isinstance(passed, Param) and function is not None:
            key = (passed.module, passed.qual)
            for reach in items:
                mine = self._entry(self.facts.reaches, key, "reaches", dict)
                if _add(mine, passed.name + rest, reach):
                    self._touch("reaches", key)
        elif passed is None and rest.count(".") == 1 and given[0] == "attr":
            # `run(text, self.options)` with `self.options = options or Options()`: the
            # field's default is what the call sends when the instance was made without one.
            read = ["attr", given, rest[1:]]
            for reach in items:
                self._reach_from(module, function, read, reach)
                self._constant_read(module, function, read, reach[:4])

    def _record_forwarding(
        self,
        module: str,
        function: str,
        reaches: dict[str, list[list[Any]]],
        forwards: dict[str, list[list[Any]]],
        bound_args: dict[str, list[Any]],
    ) -> None:
        """Record that a function's `**kwargs`, passed on to a call, reach what the callee's
        parameters it did not bind otherwise reach."""
        key = (module, function)
        mine = self._entry(self.facts.forwards, key, "forwards", dict)
        added = False
        for name, items in reaches.items():
            if name not in bound_args:
                for reach in items:
                    added = _add(mine, name, reach) or added
        for name, items in forwards.items():
            for reach in items:
                added = _add(mine, name, reach) or added
        if added:
            self._touch("forwards", key)

    # Views ------------------------------------------------------------------------------------
    def derived(self, module: str) -> dict[str, Any]:
        """Return the plain facts other files may ask about `module` (computed once)."""
        return self._derived_and_digest(module)[0]

    def _derived_and_digest(self, module: str) -> tuple[dict[str, Any], str]:
        if module not in self._derived:
            facts = self._derive(module)
            payload = json.dumps(facts, sort_keys=True, default=str).encode()
            self._derived[module] = (facts, hashlib.blake2b(payload, digest_size=12).hexdigest())
        return self._derived[module]

    def _useful(self, plain: list[Any]) -> bool:
        """Return whether a function or class another module names has facts to give."""
        if plain[0] == "choice":
            return any(self._useful(option) for option in plain[1])
        if plain[0] == "classes":
            return any(self._useful(["class", *entry]) for entry in plain[1].values())
        if plain[0] not in ("func", "class", "obj"):
            return True
        facts = self._derive_functions(plain[1])
        if plain[0] == "func":
            return plain[2] in facts
        prefix = f"{plain[2]}."
        return any(q.startswith(prefix) for q in facts) or bool(
            self._derive_classes(plain[1]).get(plain[2])
        )

    def gives(self, facts: dict[str, Any]) -> bool:
        """Return whether a module's derived facts can make a Claude call of another module's
        code.

        Wrappers, factories, clients and classes holding one can; constants, literal lists and
        classes holding only constants (a settings class read as `Config.MODEL`) only say what
        a value is at a call that is already a Claude call.
        """
        if facts["functions"] or any(set(c) - {"constants"} for c in facts["classes"].values()):
            return True
        if facts.get("star_libraries"):
            return True  # a library's client class read through it (`_star_library_name`)
        return any(self._gives_by_name(plain) for plain in facts["names"].values())

    def given_names(self, facts: dict[str, Any]) -> set[bytes]:
        """Return the names an importer must spell to use what a module gives (`gives`)."""
        found = {
            name.encode() for name, plain in facts["names"].items() if self._gives_by_name(plain)
        }
        found.update(qual.split(".")[0].encode() for qual in facts["functions"])
        found.update(
            name.encode() for name, c in facts["classes"].items() if set(c) - {"constants"}
        )
        return found

    def _gives_by_name(self, plain: list[Any]) -> bool:
        """Return whether a name's plain symbol can make a Claude call elsewhere (`gives`): not
        a value, nor a class (or an instance of one) whose only facts are its constants."""
        if plain[0] == "choice":
            return any(self._gives_by_name(option) for option in plain[1])
        if plain[0] == "classes":
            return any(self._gives_by_name(["class", *entry]) for entry in plain[1].values())
        if plain[0] in _VALUES_ONLY:
            return False
        if plain[0] not in ("class", "obj"):
            return True
        prefix = f"{plain[2]}."
        if any(qual.startswith(prefix) for qual in self._derive_functions(plain[1])):
            return True
        derived = self._derive_classes(plain[1]).get(plain[2], {})
        return bool(set(derived) - {"constants", "tables"})

    def _derive(self, module: str) -> dict[str, Any]:
        summary = self.summaries[module]
        names: dict[str, Any] = {}
        starred: set[str] = set()
        for star in summary["star_imports"]:
            other = self._star_summary(star)
            if other is not None:
                public = [
                    n for n in [*other["assigns"], *other["imports"]] if not n.startswith("_")
                ]
                starred.update(other["all"] if other["all"] is not None else public)
        for name in {*summary["assigns"], *summary["imports"], *starred}:
            symbol = self.export(module, name)
            plain = _plain(symbol)
            if plain is None and isinstance(symbol, DictLit):
                plain = (
                    self._request_options(symbol, name)
                    or self._class_table(symbol, name)
                    or self._model_table(symbol, name)
                )
            if plain is not None and self._useful(plain):
                names[name] = plain
        derived = {
            "path": self.paths[module],
            "package": summary["package"],
            "names": names,
            "functions": self._derive_functions(module),
            "classes": self._derive_classes(module),
        }
        libraries = [star for star in summary["star_imports"] if self._star_summary(star) is None]
        if libraries:
            # Names read through a library's star import (`lookup`: the registry's ones).
            derived["star_libraries"] = libraries
        reads = self._constant_reads_of_file(module)
        if reads and module in self._given_modules():
            # Reported at the constant, once, with the calls as related places: only where the
            # file is checked (a fix never writes outside the given paths).
            derived["read_by"] = {name: sorted(places) for name, places in reads.items()}
            requests = self._read_requests(reads)
            if requests:
                derived["read_requests"] = requests
        defaults = self._defaults_read(module) if module in self._given_modules() else {}
        if defaults:
            derived["defaults_read_by"] = defaults
        outside = self._defaults_outside(module) if module in self._given_modules() else []
        if outside:
            derived["defaults_outside"] = outside
        bound = self._values_bound_outside(module) if module in self._given_modules() else []
        if bound:
            derived["bound_outside"] = bound
        alike = self._values_bound_alike(module) if module in self._given_modules() else {}
        if alike:
            derived["bound_alike"] = alike
        kept = self._spread_kept(module) if module in self._given_modules() else {}
        if kept:
            derived["spread_kept"] = kept
        return derived

    def _spread_kept(self, module: str) -> dict[str, list[str]]:
        """Return, per `Class.attr` a request dict of the module spreads after entries it may
        replace (`{"temperature": self.config.temperature, **self.message_params}`), the keys
        whose entries the file reads as sent: some in-project constructor call gives the
        parameter no dict holding the key, and, for each parameter the entry reads whose
        default some call relies on, one such call also leaves that parameter out (the
        default is then what it sends). An entry of another key stays unknown."""
        found: dict[str, list[str]] = {}
        for init, by_param in sorted(self.facts.spread_keys.items()):
            calls = list(self.facts.spread_calls.get(init, {}).values())
            if init[0] != module or not calls:
                continue
            cls = init[1].removesuffix(".__init__")
            attributes = self.summaries[module]["classes"].get(cls, {}).get("attributes", {})
            for param, keys in sorted(by_param.items()):
                kept = [k for k in sorted(keys) if self._sent_by_some_call(init, param, k, calls)]
                if not kept:
                    continue
                for attr in sorted(attributes):
                    if self._spread_source((module, cls), attr) == [*init, param]:
                        found[f"{cls}.{attr}"] = kept
        return found

    def _kept_reads(
        self, module: str, reads: dict[str, list[list[Any]]] | None
    ) -> dict[str, list[list[Any]]] | None:
        """Return a module's constant reads with those made through an entry a later spread
        may replace that some constructor call sends (`shadowed_reads`)."""
        apart = self.facts.shadowed_reads.get(module)
        if not apart:
            return reads
        merged = {name: list(places) for name, places in (reads or {}).items()}
        for name, items in apart.items():
            for read, condition in items:
                if self._condition_sent(condition) and read not in merged.get(name, []):
                    merged.setdefault(name, []).append(read)
        return merged or reads

    def _condition_sent(self, condition: list[str]) -> bool:
        """Return whether an entry a spread of an `__init__` parameter's dict may replace is
        sent by some in-project constructor call ([module, `__init__`, parameter, key])."""
        init = (condition[0], condition[1])
        calls = self.facts.spread_calls.get(init)
        if not calls or not self._spread_valid(init, condition[2]):
            return False
        return self._sent_by_some_call(init, condition[2], condition[3], list(calls.values()))

    def _spread_valid(self, init: tuple[str, str], param: str) -> bool:
        """Return whether an attribute of the class an `__init__` makes is still the dict its
        parameter gives (`_spread_source`), with every module of the run read."""
        cls = init[1].removesuffix(".__init__")
        attributes = self.summaries.get(init[0], {}).get("classes", {}).get(cls, {})
        return any(
            self._spread_source((init[0], cls), attr) == [*init, param]
            for attr in attributes.get("attributes", {})
        )

    def _sent_by_some_call(
        self, init: tuple[str, str], param: str, key: str, calls: list[_SpreadCall]
    ) -> bool:
        """Return whether an entry `key` a spread of `param`'s dict may replace is sent by an
        in-project call, with the defaults of the parameters it reads (`_spread_kept`)."""
        lacking = [
            left for left, given in calls if (g := given.get(param)) is not None and key not in g
        ]
        if not lacking:
            return False
        condition = [*init, param, key]
        roots = {
            name.split(".", 1)[0].split("[", 1)[0]
            for name, items in self.facts.reaches.get(init, {}).items()
            if any(len(r) > 5 and r[5] == condition for r in items)
        }
        relied = roots & self.facts.relied.get(init, set())
        return all(any(root in left for left in lacking) for root in relied)

    def _values_bound_alike(self, module: str) -> dict[str, list[str]]:
        """Return the module-level names of `module` that files of the run bind from outside
        to the literal the module gives them (`_bound_alike`), with those files: the value is
        what a call reads, but a fix written at the module's literal is undone when one of
        them runs (`generate.MAX_TOKENS = MAX_TOKENS` from a preset)."""
        found: dict[str, list[str]] = {}
        for name in sorted(self.summaries[module]["assigns"]):
            if (
                not self._module_name_set(module, name)
                and (module, name) in self._names_bound_alike
            ):
                binding = [w for w in self._writers_of(name) if self._binds(w, module, name)]
                if binding:
                    found[name] = binding
        return found

    def _binds(self, shown: str, module: str, name: str) -> bool:
        """Return whether a file of the run (by its display path) sets `module.name` itself,
        not the attribute of another object (`_writes_alike` has read each of its writes)."""
        writer = next((m for m, path in self.paths.items() if path == shown), None)
        if writer is None or writer not in self.summaries:
            return True
        for function, facts in self.summaries[writer]["functions"].items():
            for owner, held in facts["stores"].items():
                if owner == "self" or not held.get(name):
                    continue
                target = self._name(writer, function, owner, 1)
                if isinstance(target, Module) and target.name == module:
                    return True
        return False

    def _values_bound_outside(self, module: str) -> list[str]:
        """Return the module-level names of `module` holding a value (a literal, a dict, what
        the phase cannot tell) that a file of the run may bind from outside the module
        (`_module_name_set`): the file's own analysis, which reads such a name where the module
        assigns it, is told that a read of it may see another value (`chat.MODEL = "gpt-4o"`
        in a command-line entry point). Names holding a client, an object, a function or a
        class are read as before."""
        summary = self.summaries[module]
        found = []
        for name, assigns in summary["assigns"].items():
            if name in summary["imports"]:
                continue
            if any(value[0] in ("def", "class") for value, _ in assigns):
                continue
            if not self._module_name_set(module, name):
                continue
            symbol = self.export(module, name)
            if symbol is None or isinstance(symbol, (Const, DictLit)):
                found.append(name)
        return sorted(found)

    def _request_options(self, made: DictLit, name: str) -> list[Any] | None:
        """Return `["dict", {key: value}, [key]]` for a module-level dict of request options
        (`PARAMS = {"max_tokens": 4096, "temperature": 1.0}`) that another module may spread into
        a Claude call (`**settings.PARAMS`): the entries proven literals, and the keys of the
        others (present, with a value not known here); None otherwise.

        Only a dict written once at module level with string keys and nothing spread into it,
        holding a Claude parameter, and that no code of its module changes (an item set, `del`
        or a mutating method on its name, read in the module's text): its literal is then what
        every reader spreads. The reading module checks its own changes to it. Its tables
        written as dict literals in it holding a Claude parameter (`CONFIG["claude"]`) are a
        fourth item, `{key: ["dict", known, unknown]}`, when no file of the run changes one
        (`_nested_moved`).
        """
        if made.function is not None or made.opaque or made.spreads:
            return None
        assigns = self.summaries[made.module]["assigns"].get(name)
        if not assigns or len(assigns) != 1 or assigns[0][1]:
            return None
        known, unknown, nested = self._option_entries(made, True)
        if not CLAUDE_PARAMETERS.intersection(known) and not nested:
            return None
        if self._changes_dict(made.module, name):
            return None
        if nested and self._nested_moved(made.module, name):
            if not CLAUDE_PARAMETERS.intersection(known):
                return None
            nested = {}
        return ["dict", known, sorted(unknown), nested] if nested else ["dict", known, unknown]

    def _option_entries(
        self, made: DictLit, outer: bool
    ) -> tuple[dict[str, Any], list[str], dict[str, list[Any]]]:
        """Return the literal entries of a dict of request options, the keys of the others,
        and (`outer`) the tables of its entries written as dict literals in it holding a
        Claude parameter (`CONFIG = {"claude": {"model": ..., "max_tokens": ...}}`), each as
        `["dict", known, unknown]`."""
        known: dict[str, Any] = {}
        unknown: list[str] = []
        nested: dict[str, list[Any]] = {}
        for key, expression in made.entries.items():
            value = self.evaluate(made.module, None, expression)
            if isinstance(value, Const) and _jsonable(value.value):
                known[key] = value.value
                continue
            unknown.append(key)
            if not outer or expression[0] != "dict" or not isinstance(value, DictLit):
                continue
            if value.opaque or value.spreads or value.maybe:
                continue
            inner, others, _ = self._option_entries(value, False)
            if CLAUDE_PARAMETERS.intersection(inner):
                nested[key] = ["dict", inner, sorted(others)]
        return known, unknown, nested

    def _nested_moved(self, module: str, name: str) -> bool:
        """Return whether a table of a module's dict (`CONFIG["claude"]`) may change in a file
        of the run: its items set or changed through the dict (`CONFIG["claude"]["model"] =
        m`, `CONFIG["claude"].update(...)`), or through a name bound to it (`cfg =
        CONFIG["claude"]`, then `cfg["model"] = m` or `tune(cfg)`), each answer kept for the
        run. Only files that spell the name are read."""
        found = self._nested_changed.get((module, name))
        if found is None:
            found = False
            own = self.module_path(module)
            paths = self._files_spelling(name)
            if own is not None and str(own) not in self.given:
                paths = [*paths, str(own)]
            for path in paths:
                data = self._module_data(Path(path))
                if data is None:
                    continue
                text = data if isinstance(data, str) else python_text(data)
                if text is None or _table_changed(text, name):
                    found = True
                    break
            self._nested_changed[(module, name)] = found
        return found

    def _model_table(self, made: DictLit, name: str) -> list[Any] | None:
        """Return `["dict", {key: model}, []]` for a module-level table of model ids by literal
        keys holding a Claude model (`MODELS = {"anthropic": "claude-...", "openai":
        "gpt-4"}`) that a file reads with a literal key (`model=MODELS["anthropic"]`): written
        once, every entry a string, and no file of the run changing it (`_request_options`'
        conditions). Only the entry a read's key selects is what a call sends."""
        if made.function is not None or made.opaque or made.spreads or made.maybe:
            return None
        if not made.entries or len(made.entries) > MAX_TABLE_KEYS:
            return None
        if not any(_claude_literal(v) for v in made.entries.values()):
            return None  # cheap: a table naming no Claude model is not looked at further
        assigns = self.summaries[made.module]["assigns"].get(name)
        if not assigns or len(assigns) != 1 or assigns[0][1]:
            return None
        table: dict[str, str] = {}
        for key, expression in made.entries.items():
            value = self.evaluate(made.module, None, expression)
            if not isinstance(value, Const) or not isinstance(value.value, str):
                return None
            table[key] = value.value
        if self._changes_dict(made.module, name) or self._changed_in_run(made.module, name):
            return None
        return ["dict", table, []]

    def _class_table(self, made: DictLit, name: str) -> list[Any] | None:
        """Return `["classes", {key: [module, class]}]` for a module-level registry of project
        classes by literal keys (`PROVIDERS = {"claude": ClaudeProvider, "openai": ...}`) that
        a file reads with a literal key (`PROVIDERS["claude"]().ask(...)`): written once, with
        nothing spread into it, every entry a project class, and no code of its module
        changing it (`_request_options`' conditions)."""
        if made.function is not None or made.opaque or made.spreads or made.maybe:
            return None
        if not made.entries or len(made.entries) > MAX_CHOICES:
            return None
        assigns = self.summaries[made.module]["assigns"].get(name)
        if not assigns or len(assigns) != 1 or assigns[0][1]:
            return None
        table: dict[str, list[str]] = {}
        for key, expression in made.entries.items():
            value = self.evaluate(made.module, None, expression)
            if not isinstance(value, Class):
                return None
            table[key] = [value.module, value.name]
        if self._registry_moved(made.module, name):
            return None
        return ["classes", table]

    def _module_data(self, path: Path | None) -> bytes | str | None:
        """Return a module file's text: the run's own copy, else read from disk (None when it
        cannot be read)."""
        if path is None:
            return None
        data = self.given.get(str(path))
        if data is None:
            try:
                data = read_regular(path)
            except OSError:
                return None
        return data

    def _changes_dict(self, module: str, name: str) -> bool:
        """Return whether a module's text may change the items of its dict `name` (or cannot
        be read): `name[k] = v`, `del name[k]`, `name.update(...)`, `name.pop(...)`..."""
        data = self._module_data(self.module_path(module))
        if data is None:
            return True
        text = data if isinstance(data, str) else python_text(data)
        return text is None or _dict_changes(name).search(text) is not None

    def _registry_moved(self, module: str, name: str) -> bool:
        """Return whether a registry `name` of `module` may change: by its module
        (`_changes_dict`), handed on where it can change under another name
        (`_dict_handed_on`), or by any file of the run (`_changed_in_run`)."""
        if self._changes_dict(module, name) or self._changed_in_run(module, name):
            return True
        data = self._module_data(self.module_path(module))
        text = None if data is None else data if isinstance(data, str) else python_text(data)
        return text is None or _dict_handed_on(text, name)

    def _changed_in_run(self, module: str, name: str) -> bool:
        """Return whether a file of the run may change the items of `module`'s dict `name`
        (`_changes_dict`, over every file given: a plugin registering a class of its own) or
        hand it on where it can (`_dict_handed_on`), each answer kept for the run. A file whose
        every use of the name is proven another module's dict (its own `PROVIDERS`, or one
        imported from a module that is neither `module` nor a package above it) changes
        nothing of it."""
        found = self._dicts_changed.get((module, name))
        if found is None:
            changes = _dict_changes(name)
            found = False
            # A change spells the name: a file that never does changes nothing.
            for path, text in self._texts_spelling(name):
                if text is None or (
                    (changes.search(text) is not None or _dict_handed_on(text, name))
                    and not self._names_another_dict(path, text, module, name)
                ):
                    found = True
                    break
            self._dicts_changed[(module, name)] = found
        return found

    def _files_spelling(self, name: str) -> list[str]:
        """Return the run's files whose text, as Python reads it (`as_python_reads`), spells
        `name`: an ASCII name as a whole word (a name the code reads, writes or imports is
        one), any other as a substring (`_Spelling`'s rule).

        Every file is read once a run, into an index of its ASCII words: asking about each of
        a thousand dicts over a thousand files was a million reads of a file's text.
        """
        found = self._spelling.get(name)
        if found is None:
            if self._spellers is None or self._spellers[0] != len(self.given):
                self._spellers = (len(self.given), *self._word_index())
            _, index, views = self._spellers
            spelled = name.encode("utf-8", "surrogatepass")
            if name.isascii():
                found = index.get(spelled, [])
            else:
                found = [path for path, view in views.items() if spelled in view]
            self._spelling[name] = found
        return found

    def _word_index(self) -> tuple[dict[bytes, list[str]], dict[str, bytes]]:
        """Return each ASCII word of the run's files (as Python reads them) with the files
        holding it, and the files beyond ASCII as read (for a name beyond ASCII)."""
        index: dict[bytes, list[str]] = {}
        views: dict[str, bytes] = {}
        for path, data in self.given.items():
            raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
            view = as_python_reads(raw)
            if not view.isascii():
                views[path] = view
            for word in set(_WORD.findall(view)):
                index.setdefault(word, []).append(path)
        return index, views

    def _texts_spelling(self, name: str) -> Iterator[tuple[str, str | None]]:
        """Yield each run's file spelling `name` (`_files_spelling`) with its text as Python
        decodes it (None when it cannot be decoded), each file decoded once a run."""
        for path in self._files_spelling(name):
            if path not in self._decoded:
                data = self.given[path]
                self._decoded[path] = data if isinstance(data, str) else python_text(data)
            yield path, self._decoded[path]

    def _names_another_dict(self, path: str, text: str, module: str, name: str) -> bool:
        """Return whether every `name` of a file of the run is proven not to be `module`'s:
        the file is another module, reads no attribute by that name (`chat.PROVIDERS`), and
        imports the name (or `*`) only from modules that are neither `module` nor a package
        above it (which may re-export it)."""
        named = module_name(Path(path), self.roots)
        if named is None or named[0] == module or named[0].startswith(SCRIPT_MODULE):
            return False
        own, is_package = named
        tree = _quiet_parse(text)
        if tree is None:
            return False
        package = own if is_package else own.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == name:
                return False
            if isinstance(node, ast.ImportFrom) and any(
                alias.name in (name, "*") for alias in node.names
            ):
                source = _import_source(node, package)
                if source is None or source == module or module.startswith(source + "."):
                    return False
        return True

    def _registry_changed(self, table: Sym, named: list[Any]) -> bool:
        """Return whether a module-level dict read by a name (`PROVIDERS[key]`,
        `providers.PROVIDERS[key]`) may be changed by its module or any file of the run."""
        if not isinstance(table, DictLit) or table.function is not None:
            return False
        name = named[-1] if named[0] in ("name", "attr") else None
        if not isinstance(name, str):
            return True
        return self._registry_moved(table.module, name)

    def _defaults_outside(self, module: str) -> list[list[Any]]:
        """Return the parameter defaults of modules this run does not check that Claude calls of
        `module` read (a base class's `__init__` default, when only the subclass's module is
        given): [canonical, target key, call line, value, owner, path, line of the default].

        Reported at each call, without a fix: a fix never writes outside the given paths.
        """
        given = self._given_modules()
        own_path = self.paths.get(module, module)
        found: list[list[Any]] = []
        for (owner_module, qual), relied in self.facts.relied_by.items():
            if owner_module in given:
                continue
            facts = self.summaries.get(owner_module, {}).get("functions", {}).get(qual)
            if facts is None:
                continue
            owner = self.class_of(owner_module, qual)
            for param, receivers in relied.items():
                spec = next((p for p in facts["params"] if p["name"] == param), None)
                if spec is None or spec["default"] is None or spec["default_at"] is None:
                    continue
                value = self.evaluate(owner_module, None, spec["default"])
                if not isinstance(value, Const) or not _jsonable(value.value):
                    continue
                for reach in self.facts.reaches.get((owner_module, qual), {}).get(param, []):
                    if (
                        reach[0] in READ_AT_DEFINITION
                        and reach[2] == own_path
                        and any(self.holds(reach, owner, r if r[0] else None) for r in receivers)
                    ):
                        item = [
                            reach[0],
                            reach[1],
                            reach[3],
                            value.value,
                            f"the {param} default of {qual.removesuffix('.__init__')}()",
                            self.paths.get(owner_module, owner_module),
                            spec["default_at"][0],
                        ]
                        if item not in found:
                            found.append(item)
        return sorted(found, key=repr)

    def _defaults_read(self, module: str) -> dict[str, dict[str, list[list[Any]]]]:
        """Return the parameter defaults of a module's functions that Claude calls of other
        modules read: function -> parameter -> [canonical, target key, path, line] per call.

        A default some in-project call relies on, kept by `__init__` in `self.<attr>` and read
        by a subclass's Claude call in another module, is reported once, at the default (a
        Claude call of the same module reads it there itself).
        """
        found: dict[str, dict[str, list[list[Any]]]] = {}
        own_path = self.paths.get(module, module)
        for (owner_module, qual), relied in self.facts.relied_by.items():
            # The file imported under another name (see `load`): what calls through that name
            # rely on is not in this module's own view, so even its own Claude calls read the
            # default here.
            alias = owner_module != module and self.paths.get(owner_module) == own_path
            if owner_module != module and not alias:
                continue
            owner = self.class_of(owner_module, qual)
            for param, receivers in relied.items():
                if alias and param in self.facts.relied.get((module, qual), set()):
                    continue  # the module's own view reads it (`relied_default`)
                reads = [
                    reach[:4]
                    for reach in self.facts.reaches.get((owner_module, qual), {}).get(param, [])
                    if reach[0] in READ_AT_DEFINITION
                    and (alias or reach[2] != own_path)
                    and any(self.holds(reach, owner, r if r[0] else None) for r in receivers)
                ]
                if reads:
                    found.setdefault(qual, {})[param] = _places(reads)
        return found

    def _constant_reads_of_file(self, module: str) -> dict[str, list[list[Any]]] | None:
        """Return the reads of a module's constants by Claude calls, also those reading the
        same file under another name (`pkg.llm.TEMP` where the run knows the file as `llm`,
        see `load`): the file reports its constant once, for every call reading it."""
        own = self._unheld(module, self._kept_reads(module, self.facts.constant_reads.get(module)))
        if self._names_of_file is None or self._names_of_file[0] != len(self.paths):
            by_path: dict[str, list[str]] = {}
            for name, shown in self.paths.items():
                by_path.setdefault(shown, []).append(name)
            self._names_of_file = (len(self.paths), by_path)
        others = [
            name
            for name in self._names_of_file[1].get(self.paths.get(module, ""), [])
            if name != module and self.facts.constant_reads.get(name)
        ]
        if not others:
            return own
        merged = {name: list(places) for name, places in (own or {}).items()}
        for other in others:
            reads = self._unheld(other, self.facts.constant_reads[other]) or {}
            for name, places in reads.items():
                found = merged.setdefault(name, [])
                found.extend(place for place in places if place not in found)
        return merged

    def _unheld(
        self, module: str, reads: dict[str, list[list[Any]]] | None
    ) -> dict[str, list[list[Any]]] | None:
        """Return a module's constant reads without those through an instance's attribute
        (`self.settings.model`) that a module summarised after the read may bind to another
        object (a subclass's `__init__`, `bot.settings = ...`): facts only grow while the
        phase solves, so the holder is asked again once every module has joined."""
        if not reads or not self._held_reads:
            return reads
        kept = {
            name: places
            for name, places in reads.items()
            if not any(
                self._instance_holder_rebound(*holder)
                for holder in self._held_reads.get((module, name), ())
            )
        }
        return kept if len(kept) != len(reads) else reads

    def _given_modules(self) -> set[str]:
        """Return the modules of the run's own files (not those read from disk for imports)."""
        if self._given is None or self._given[0] != len(self.summaries):
            modules = {m for path, m in self.files.items() if path in self.given}
            # The same file imported under another name (`utils.llm` where the run knows it
            # as `llm`, see `load`) is a file of the run too.
            shown = {self.paths.get(m) for m in modules}
            modules |= {m for m, shown_as in self.paths.items() if shown_as in shown}
            self._given = (len(self.summaries), modules)
        return self._given[1]

    def _derive_functions(self, module: str) -> dict[str, Any]:
        key = ("functions", module)
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        summary = self.summaries.get(module)
        functions: dict[str, Any] = {}
        self._memo[key] = functions  # type: ignore[assignment]
        if summary is None:
            return functions
        for qual in summary["functions"]:
            entry = self._function_entry(module, qual, self.class_of(module, qual))
            if entry:
                functions[qual] = entry
        self._inherit_functions(module, summary, functions)
        return functions

    def _thinking_reached(self, *tables: dict[str, list[list[Any]]]) -> list[list[Any]]:
        """Return the Claude calls a wrapper's temperature or max_tokens reaches that may turn
        extended thinking on, as [path, line]: a fix lowering either at a caller of the wrapper
        must keep the request valid there (`analysis/thinking.py`)."""
        found: list[list[Any]] = []
        for table in tables:
            for places in table.values():
                for canonical, _key, path, line in places:
                    if canonical not in (TEMPERATURE, MAX_TOKENS) or [path, line] in found:
                        continue
                    if self._may_think(str(path), int(line)):
                        found.append([path, line])
        return sorted(found)

    def _prefill_reached(self, reaches: dict[str, list[list[Any]]]) -> list[list[Any]]:
        """Return the Claude calls a wrapper's model reaches whose request ends with a prefilled
        assistant turn written in the call (`messages=[..., {"role": "assistant", ...}]`), as
        [path, line]: a move of the model at a caller must keep the request valid there."""
        found: list[list[Any]] = []
        for canonical, _key, path, line in (p for places in reaches.values() for p in places):
            if canonical == MODEL and [path, line] not in found and self._prefills(path, line):
                found.append([path, line])
        return sorted(found)

    def _prefills(self, path: str, line: int) -> bool:
        """Return whether a call at a display path's line is one its module's summary marks
        as sending a prefill (`summary.py`'s `prefills`); the marks of every summary are
        gathered once per set of summaries, not per question."""
        known = self._prefill_lines
        if known is None or known[0] != len(self.summaries):
            lines: set[tuple[str, int]] = set()
            for module, summary in self.summaries.items():
                shown = self.paths.get(module)
                if shown is None:
                    continue
                for facts in summary["functions"].values():
                    lines.update((shown, marked) for marked in facts.get("prefills", ()))
            known = self._prefill_lines = (len(self.summaries), frozenset(lines))
        return (path, line) in known[1]

    def _read_requests(self, reads: dict[str, list[list[Any]]]) -> list[list[Any]]:
        """Return the Claude calls reading a module's constant as their model whose request a
        move of the model may break, as [path, line, what]: "pair" where it may send both
        temperature and top_p, "prefill" where it ends with a prefilled assistant turn."""
        found: list[list[Any]] = []
        for places in reads.values():
            for canonical, _key, path, line in (place[:4] for place in places):
                if canonical != MODEL:
                    continue
                if self._may_send_pair(str(path), int(line)) and [path, line, "pair"] not in found:
                    found.append([path, line, "pair"])
                if self._prefills(path, line) and [path, line, "prefill"] not in found:
                    found.append([path, line, "prefill"])
        return sorted(found)

    def _pair_reached(self, reaches: dict[str, list[list[Any]]]) -> list[list[Any]]:
        """Return the Claude calls a wrapper's model reaches whose request may send both
        temperature and top_p, as [path, line]: a move of the model at a caller to one that
        takes only one of them must keep the request valid there."""
        found: list[list[Any]] = []
        for canonical, _key, path, line in (p for places in reaches.values() for p in places):
            if canonical != MODEL or [path, line] in found:
                continue
            if self._may_send_pair(str(path), int(line)):
                found.append([path, line])
        return sorted(found)

    def _may_send_pair(self, path: str, line: int) -> bool:
        """Return whether the Claude call at a display path's line sends temperature and top_p
        both not proven `None` (its keywords, or entries of a dict it spreads). Unknown is
        sent: an options object's fields a caller fills (`Config(temperature=0, top_p=0.9)`)."""
        if (path, line) in self._dumped_pairs:
            return True
        found = self._pair_lines.get((path, line))
        if found is None:
            found = any(
                all(_maybe_sent(record.params.get(name)) for name in (TEMPERATURE, "top_p"))
                for record in self._records_at(path, line)
            )
            self._pair_lines[(path, line)] = found
        return found

    def _may_think(self, path: str, line: int) -> bool:
        """Return whether the Claude call at a display path's line sends a `thinking` that is
        not proven `None`: its own keyword, or an entry of a dict it spreads, wherever the dict
        is built (a helper's returned request). Unknown is on."""
        found = self._thinking_lines.get((path, line))
        if found is None:
            found = any(
                _maybe_sent(record.params.get("thinking"))
                for record in self._records_at(path, line)
            )
            self._thinking_lines[(path, line)] = found
        return found

    def _records_at(self, path: str, line: int) -> Iterator[Any]:
        """Yield the per-call records of the Claude calls at a display path's line."""
        if self.records_of is None:
            return
        for module, shown in self.paths.items():
            if shown == path:
                yield from (r for r in self.records_of(self, module, line) if r.line == line)

    def _reach_notes(self, key: tuple[str, str]) -> dict[str, Any]:
        """Return what a function's view says of how its parameters reach Claude calls: the
        constants they fall back to, the text a model is spelled between, the tables a model
        is looked up in by them."""
        notes: dict[str, Any] = {
            "fallbacks": self.facts.fallbacks.get(key),
            "spelled": self.facts.spelled.get(key),
            "tabled": self.facts.tabled.get(key),
        }
        return {name: found for name, found in notes.items() if found}

    def _function_entry(
        self, module: str, qual: str, receiver: tuple[str, str] | None, below: bool = False
    ) -> dict[str, Any]:
        """Return what a file may know of one function, run on an instance of `receiver` (or,
        `below`, of a subclass of it)."""
        key = (module, qual)
        entry: dict[str, Any] = {}
        returned = self._returns_on(module, qual, receiver)
        if isinstance(returned, Client) and not returned.path:
            entry["returns"] = returned.cls
            if returned.only is not None:
                entry["returns_only"] = sorted(returned.only)
        entry.update(self._returned_classes(module, qual, returned))
        owner = self.class_of(module, qual)
        reaches = self._held(self.facts.reaches.get(key, {}), owner, receiver, below)
        forwards = self._held(self.facts.forwards.get(key, {}), owner, receiver, below)
        # An abstract method's callers run an override: what it passes on, and nothing of the
        # abstract method's own defaults (each override has its own).
        overridden = not reaches and not forwards
        if overridden:
            reaches = self._overrides_reach(module, qual, owner)
        overridden = overridden and bool(reaches)
        reaches, lacking = _lacking_places(reaches, key, self._spread_valid)
        if reaches or forwards:
            found = self._callee_params(module, qual)
            params = found[0] if found else []
            entry["params"] = [[p["name"], p["kind"]] for p in params]
            # A file reads [canonical, target, path, line]: the class a reach holds on is the
            # phase's own concern.
            entry["reaches"] = {k: _places(v) for k, v in reaches.items()}
            entry["forwards"] = {k: _places(v) for k, v in forwards.items()}
            entry.update(self._reach_guards(module, qual, entry))
            if lacking:
                entry["given_lacking"] = lacking
            entry["bound"] = bool(found and found[1])
            # Parameters spread into a Claude call: a call gives their dicts' entries as keywords.
            entry.update(
                {"spread": sorted(self.facts.spread[key])} if key in self.facts.spread else {}
            )
            thinking = self._thinking_reached(entry["reaches"], entry["forwards"])
            if thinking:
                entry["thinking"] = thinking
            prefills = self._prefill_reached(entry["reaches"])
            if prefills:
                entry["prefill"] = prefills
            pairs = self._pair_reached(entry["reaches"])
            if pairs:
                entry["sampling_pair"] = pairs
            facts = self.summaries[module]["functions"][qual]
            if facts["method"] and not facts["classmethod"]:
                entry["instance"] = True  # called on its class, it is given `self` first
        entry.update(self._hook_returns(module, qual))
        entry.update(self._sent_returns(module, qual, receiver))
        entry.update(self._overridden_helper(module, qual, receiver))
        entry.update(self._model_tables(module, qual, entry.get("reaches", {})))
        clients = {
            k: v for k, v in self.facts.param_clients.get(key, {}).items()
            if k not in self.facts.ambiguous.get(key, set())
        }  # fmt: skip
        if clients:
            entry["param_clients"] = clients
        entry.update(self._handed_objects(module, qual, clients))
        if entry.get("reaches") and not overridden:
            entry.update(self._reach_notes(key))
        relied = self.facts.relied.get(key)
        if relied and entry.get("reaches") and not overridden:
            # A default relied on whose value, or a path into it (`model.value` of an enum
            # member), reaches a Claude call.
            entry["relied"] = sorted(relied & _reached_params(entry["reaches"]))
        left = self.facts.relied.get(key, set()) - self.facts.passed.get(key, set())
        reached = _reached_params(entry.get("reaches", ()))
        left &= reached | _spread_into_dicts(self.summaries[key[0]]["functions"][key[1]])
        if left:
            # Defaults no call of the project gives more than an empty value in place of
            # (`extra=None`, merged into a request only when a caller gives one). Only those
            # that reach a Claude call or that the function spreads into a dict are read: in
            # every other function's view the fact made its callers' files look like Claude
            # callers, for nothing.
            entry["unpassed"] = sorted(left)
        entry.update(self._default_facts(key, reaches, reached))
        entry.update(self._callers_agree(key, forwards, overridden))
        return entry

    def _default_facts(
        self, key: tuple[str, str], reaches: dict[str, list[list[Any]]], reached: set[str]
    ) -> dict[str, Any]:
        """Return what a file reads of a function's declared defaults: the string defaults of
        its parameters that are a Claude call's model (`model_defaults`), and the parameters
        with a default some call of the project gives a value (`passed`), of those that reach
        a Claude call (`reached`). Only those: in every other function's view the fact made
        the function exported, and its callers' files worth reading, for nothing."""
        found: dict[str, Any] = {}
        declared = self._model_defaults(key[0], key[1], reaches)
        if declared:
            found["model_defaults"] = declared
        given = [name for name in self._given_defaults(key) if name in reached]
        if given:
            found["passed"] = given
        return found

    def _model_defaults(
        self, module: str, qual: str, reaches: dict[str, list[list[Any]]]
    ) -> dict[str, str]:
        """Return the string defaults of a function's parameters that are the model of a
        Claude call it makes (`def ask(q, model="llama3.2")`): what a call leaving one out
        sends."""
        models = {name for name, items in reaches.items() if any(r[0] == MODEL for r in items)}
        if not models:
            return {}
        facts = self.summaries[module]["functions"][qual]
        found = self._literal_defaults(module, facts, None)
        return {name: value for name, value in found.items() if name in models}

    def _given_defaults(self, key: tuple[str, str]) -> list[str]:
        """Return the parameters with a default that some call of the project gives a value
        (or may: it spreads `*args` or `**kwargs`): a file reads a default no call gives in
        place as what the function sends when the project runs it."""
        passed = self.facts.passed.get(key, set())
        params = self.summaries[key[0]]["functions"][key[1]]["params"]
        return sorted(p["name"] for p in params if p["default"] is not None and p["name"] in passed)

    def _claude_by_callers(
        self, key: tuple[str, str], name: str, depth: int = 0, on: frozenset[Any] = frozenset()
    ) -> bool:
        """Return whether every call of the project gives a function's parameter a Claude
        model: a literal one, or a parameter of the caller's passed on that is, in its turn
        (up to `MAX_PASSED_ON` functions up; a cycle is not)."""
        seen = self.facts.model_callers.get(key, {}).get(name, {})
        given = set(seen.values())
        if "other" in given or not given or depth > MAX_PASSED_ON or (key, name) in on:
            return False
        on = on | {(key, name)}
        return all(
            self._claude_by_callers((via[0], via[1]), via[2], depth + 1, on)
            for via in given
            if via != "claude"
        )

    def _callers_agree(
        self, key: tuple[str, str], forwards: dict[str, list[list[Any]]], overridden: bool
    ) -> dict[str, Any]:
        """Return what every call of a function the project makes has in common, for its view."""
        found: dict[str, Any] = {}
        given = self.facts.model_callers.get(key, {})
        claude = sorted(name for name in given if self._claude_by_callers(key, name, 0))
        if claude and not overridden:
            # Every call of it the project makes gives the parameter a Claude model: the call
            # it reaches is Claude's, though its own model is only the parameter.
            found["claude_models"] = claude
        callers = self.facts.stream_callers.get(key, {})
        if callers.get("unset") and not callers.get("set") and _stream_names(forwards):
            # Every call of it the project makes leaves `stream` out: its Claude call never
            # streams when the project runs it.
            found["unstreamed_by"] = sorted(list(place) for place in callers["unset"])
        paired = self.facts.pair_callers.get(key)
        if paired and _forwarded(forwards, TEMPERATURE):
            # Some call of it gives both temperature and top_p to pass on.
            found["paired_by"] = sorted(list(place) for place in paired)
        return found

    def _overrides_reach(
        self, module: str, qual: str, owner: tuple[str, str] | None
    ) -> dict[str, list[list[Any]]]:
        """Return what the overrides of an abstract method (`@abstractmethod`) pass on to
        Claude calls: a call of the abstract method runs one of them
        (https://docs.python.org/3/library/abc.html#abc.abstractmethod). A parameter counts
        when the override takes it under the same name, at the same place, of the same kind
        (a caller binds its arguments as the abstract method lays them out). Empty for any
        other method."""
        facts = self.summaries[module]["functions"][qual]
        if owner is None or not facts.get("abstract"):
            return {}
        layout = [(p["name"], p["kind"]) for p in facts["params"]]
        found: dict[str, list[list[Any]]] = {}
        for cls, override in self._overrides(module, qual, owner):
            self._read("reaches", override)
            params = self.summaries[override[0]]["functions"][override[1]]["params"]
            theirs = [(p["name"], p["kind"]) for p in params]
            held = self._held(
                self.facts.reaches.get(override, {}), self.class_of(*override), cls, True
            )
            for param, items in held.items():
                head = param.split(".", 1)[0]  # a path into an argument (`options.model`)
                at = next((i for i, (n, _) in enumerate(theirs) if n == head), None)
                if at is None or at >= len(layout) or layout[at] != theirs[at]:
                    continue
                kept = found.setdefault(param, [])
                kept.extend(item for item in items if item not in kept)
        return found

    def _overrides(
        self, module: str, qual: str, owner: tuple[str, str] | None
    ) -> list[tuple[tuple[str, str], tuple[str, str]]]:
        """Return (subclass, its method) for each project override of an abstract method
        (`@abstractmethod`) that a call of it may run; empty for any other method."""
        facts = self.summaries[module]["functions"][qual]
        if owner is None or not facts.get("abstract"):
            return []
        name = qual.rsplit(".", 1)[-1]
        if qual != f"{owner[1]}.{name}":
            return []
        found = []
        seen = {(module, qual)}
        for cls in self._subclasses(owner)[1:]:
            override = self.member(*cls, name)
            if override is None or override in seen:
                continue
            seen.add(override)
            found.append((cls, override))
        return found

    def _returned_classes(self, module: str, qual: str, returned: Sym) -> dict[str, Any]:
        """Return the view's `returns_objects` of a function returning project instances, and
        its `return_choices` when it returns one of several under tests of its parameters."""
        objects = self._returned_objects(returned)
        if not objects:
            return {}
        if len(objects) > 1:
            return {"returns_objects": objects, **self._return_choices(module, qual)}
        return {"returns_objects": objects}

    def _return_choices(self, module: str, qual: str) -> dict[str, Any]:
        """Return, for a function returning one of several project classes' instances under
        tests of its parameters (`return_guards`), the class each return makes and its tests,
        with the parameters a call's arguments bind: a file rules out what a call's literal
        arguments exclude (`make("local")`)."""
        facts = self.summaries[module]["functions"][qual]
        guards = facts.get("return_guards")
        if not guards:
            return {}
        choices: list[list[Any]] = []
        for value, tests in zip(facts["returns"], guards, strict=True):
            keyed = next((name for name, values, _ in tests if values is None), None)
            tested = [test for test in tests if test[1] is not None]
            if keyed is None:
                options = [(value, tested)]
            else:
                # `return PROVIDERS[name]()`: each entry, picked by its key.
                table = self.evaluate(module, qual, value[1][1] if value[0] == "call" else value[1])
                if not isinstance(table, DictLit) or table.opaque:
                    return {}
                options = [
                    (self._keyed(value, key), [*tested, [keyed, [key], True]])
                    for key in table.entries
                ]
            for option, option_tests in options:
                made = self.evaluate(module, qual, option)
                if not isinstance(made, Obj):
                    return {}  # a return of anything else: not a choice between classes only
                choices.append([[made.module, made.name], option_tests])
        positional = [p["name"] for p in facts["params"] if p["kind"] == "positional"]
        if facts["method"] or facts["classmethod"]:
            positional = positional[1:]
        return {"return_choices": {"positional": positional, "returns": choices}}

    def _returned_objects(self, returned: Sym) -> list[list[str]]:
        """Return the project classes a function returns an instance of (one, or a choice:
        `{"a": A, "b": B}[kind]()`), when a method of one of them has facts to give."""
        options = returned.options if isinstance(returned, Choice) else (returned,)
        if not all(isinstance(option, Obj) for option in options):
            return []
        found = [[option.module, option.name] for option in options if isinstance(option, Obj)]
        return found if any(self._useful(["obj", *item]) for item in found) else []

    def _inherit_functions(
        self, module: str, summary: dict[str, Any], functions: dict[str, Any]
    ) -> None:
        """Give each class the facts of the methods it inherits, under its own name.

        `Chat(...)` runs the `__init__` of the first base class that has one, and
        `self.ask(...)` in a subclass the base class's `ask`: a file asks for `Chat.__init__`.
        """
        for name in summary["classes"]:
            seen: set[str] = set()
            supers: set[str] = set()
            for owner_module, owner in self.mro(module, name):
                for method, qual in self._methods(owner_module, owner):
                    if method in supers:
                        continue
                    if method in seen:
                        # What `super().method(...)` in the class runs: the next class's
                        # method, run on an instance of this class (`self.model` set by the
                        # base's `__init__` and read by this class's own Claude call). Only a
                        # method that passes something on has an entry worth deriving.
                        supers.add(method)
                        key = (owner_module, qual)
                        if key not in self.facts.reaches and key not in self.facts.forwards:
                            continue
                        entry = self._function_entry(owner_module, qual, (module, name), True)
                        if entry:
                            functions[f"{name}.{SUPER}.{method}"] = entry
                        continue
                    seen.add(method)
                    if owner == name and owner_module == module:
                        continue  # its own method, derived above
                    entry = self._function_entry(owner_module, qual, (module, name))
                    if entry:
                        functions[f"{name}.{method}"] = entry

    def _defined_names(self, module: str, cls: str, attributes: set[str]) -> list[str]:
        """Return the public names a class or a project base defines itself (a `messages`
        property, a class attribute, `self.messages = ...`): on a subclass of an SDK client,
        those are not the SDK client's resources."""
        defined = {attr for attr in attributes if not attr.startswith("_")}
        for owner_module, owner in self.mro(module, cls):
            for method, _ in self._methods(owner_module, owner):
                if not method.startswith("_"):
                    defined.add(method)
        return sorted(defined)

    def _derive_classes(self, module: str) -> dict[str, Any]:
        key = ("classes", module)
        if key in self._memo:
            return self._memo[key]  # type: ignore[return-value]
        summary = self.summaries.get(module)
        classes: dict[str, Any] = {}
        self._memo[key] = classes  # type: ignore[assignment]
        if summary is None:
            return classes
        for name, info in summary["classes"].items():
            attrs: dict[str, str] = {}
            only: dict[str, list[str]] = {}
            names: set[str] = set()
            for owner_module, owner in self.mro(module, name):
                names.update(
                    self.summaries[owner_module]["classes"].get(owner, {}).get("attributes", {})
                )
            for attr in sorted(names):
                symbol = self._typed(self._attribute_value(module, name, attr, 0))
                _held_client(attrs, only, attr, symbol)
            for attr in self._properties(module, name):
                method = self.member(module, name, attr)
                symbol = self._typed(self._property(method, module, name, 0)) if method else None
                _held_client(attrs, only, attr, symbol)
            entry: dict[str, Any] = {}
            if attrs:
                entry["clients"] = attrs
            if only:
                entry["only"] = only
            client = self.client_base(module, name)
            if client is not None:
                entry["client_base"] = client
                defined = self._defined_names(module, name, names)
                entry.update({"defines": defined} if defined else {})
            constants = self._constants(module, info)
            if constants:
                entry["constants"] = constants
            tables = self._class_tables(module, info)
            if tables:
                entry["tables"] = tables
            if (module, name) in self.facts.options:
                entry.update(self._options_class(module, name, info))
            if entry:
                classes[name] = entry
        return classes

    def _options_class(self, module: str, name: str, info: dict[str, Any]) -> dict[str, Any]:
        """Return what a file is told of a class whose objects a Claude call reads: how its
        fields are made (`_fields`) and what its instances read from class bodies."""
        entry: dict[str, Any] = {}
        fields = self._fields(module, name, info)
        if fields is not None:
            if f"{name}.__init__" not in self.summaries[module]["functions"]:
                # Every field of a dataclass or pydantic model: what `asdict(x)` and
                # `x.model_dump()` give.
                fields["dumps"] = sorted(fields["attrs"])
            # The files that set a field on some object (`DEFAULTS.temperature = 0.1`,
            # `setattr`): on an object made once and shared, what it was made with may not be
            # what a call reads.
            outside = {
                attr: self._writers_of(attr)
                for attr in sorted(fields["attrs"])
                if self.set_from_outside(attr)
            }
            if outside:
                # Who each write may reach: the names it is made on, and the module-level
                # objects of this class no file hands on (only a write spelling their name
                # can change them).
                fields["outside"] = outside
                fields["owners"] = {
                    attr: self._owners_of(attr, writers, name) for attr, writers in outside.items()
                }
                fields["kept"] = self._kept_instances(name)
            rebound = self._rebound_instances(name)
            if rebound:
                fields["rebound"] = rebound
            entry["fields"] = fields
        defaults = self._instance_defaults(module, name)
        if defaults:
            entry["instance_defaults"] = defaults
        return entry

    def _instance_defaults(self, module: str, cls: str) -> dict[str, list[Any]]:
        """Return the literals an instance of a plain settings class holds (`settings =
        Settings()`, then `settings.TEMPERATURE`): one a class body writes, as
        `_class_constant` proves it for `self.attr`, or the one write of the attribute in the
        class's methods (`self.temperature = 0.9` in a parameterless `__init__`); when no file
        of the run sets it on another object, the class takes no attribute by a computed
        name, none is a property or field, and no class of its method resolution order
        intercepts attribute reads (`__getattribute__`)."""
        order = self.mro(module, cls)
        names: set[str] = set()
        for owner_module, owner in order:
            info = self.summaries[owner_module]["classes"].get(owner, {})
            if f"{owner}.__getattribute__" in self.summaries[owner_module]["functions"]:
                return {}
            names.update(info.get("attributes", {}))
        if not names or self._sets_by_name(Class(module, cls)):
            return {}
        names -= set(self._properties(module, cls))
        found: dict[str, list[Any]] = {}
        for attr in sorted(names):
            place = self._class_constant((module, cls), attr)
            if place is not None and not self._instance_attribute_set(Class(module, cls), attr):
                owner = place[1].rsplit(".", 1)[0]
                written = [place[0], self.summaries[place[0]]["classes"][owner]["attributes"]]
                value = self.evaluate(place[0], None, written[1][attr][0][0])
            else:
                value = self._method_literal(order, attr)
            if isinstance(value, Const) and _jsonable(value.value):
                found[attr] = [value.value]
        return found

    def _method_literal(self, order: list[tuple[str, str]], attr: str) -> Sym:
        """Return the literal of an attribute whose one write is `self.attr = <literal>` in a
        method of a class of `order` (a method resolution order of plain classes), counted in
        the text of their modules too (a nested function's write is not summarised), when no
        file sets it on another object; None otherwise."""
        writes: list[tuple[str, list[Any]]] = []
        for owner_module, owner in order:
            info = self.summaries[owner_module]["classes"].get(owner, {})
            if attr in info.get("fields", {}) or not self._plain_bases(owner_module, info):
                return None
            writes.extend(
                (owner_module, value) for value in info.get("attributes", {}).get(attr, [])
            )
        if len(writes) != 1 or writes[0][1][1] is None or writes[0][1][0][0] != "lit":
            return None
        if self.set_from_outside(attr):
            return None
        name = attr.encode()
        count = 0
        for owner_module in {owner_module for owner_module, _ in order}:
            raw = self._module_bytes(owner_module)
            if raw is None or _writes_by_name(raw):
                return None
            count += len(self._writes_in(raw, name))
        return self.evaluate(writes[0][0], None, writes[0][1][0]) if count == 1 else None

    def _properties(self, module: str, cls: str) -> list[str]:
        """Return the names of the properties a class has, its own and its bases'."""
        found: set[str] = set()
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries[owner_module]["classes"].get(owner, {})
            found.update(info.get("properties", ()))
        return sorted(found)

    def _constants(self, module: str, info: dict[str, Any]) -> dict[str, Any]:
        """Return a class's settings read as `Config.MODEL`: class-level constants.

        Assigned once, in the class body, to a literal or a constant; named in capitals (a
        settings class, PEP 8's constants) or as a Claude parameter (`model`, `max_tokens`...).
        """
        found: dict[str, Any] = {}
        for attr, values in info["attributes"].items():
            if len(values) != 1 or values[0][1] is not None:
                continue
            if not (attr.isupper() or attr in CLAUDE_PARAMETERS):
                continue
            if self._class_attribute_set(attr):
                continue  # `Settings.MODEL = args.model` somewhere: not the body's value alone
            value = self.evaluate(module, None, values[0][0])
            if isinstance(value, Const) and _jsonable(value.value):
                found[attr] = value.value
        return found

    def _class_tables(self, module: str, info: dict[str, Any]) -> dict[str, list[Any]]:
        """Return a class's dicts of request options another module may spread into a Claude
        call (`**Config.PARAMS`), as `_request_options` reads a module's: assigned once, in the
        class body, to a dict literal with string keys, nothing spread into it, holding a Claude
        parameter, and neither set again nor changed by any file of the run (`Config.PARAMS =
        ...`, `self.PARAMS["k"] = v`, `.update(...)`, handed on where it can change)."""
        found: dict[str, list[Any]] = {}
        for attr, values in info["attributes"].items():
            if len(values) != 1 or values[0][1] is not None or values[0][0][0] != "dict":
                continue
            made = self.evaluate(module, None, values[0][0])
            if not isinstance(made, DictLit) or made.opaque or made.spreads or made.maybe:
                continue
            known: dict[str, Any] = {}
            unknown: list[str] = []
            for key, expression in made.entries.items():
                value = self.evaluate(module, None, expression)
                if isinstance(value, Const) and _jsonable(value.value):
                    known[key] = value.value
                else:
                    unknown.append(key)
            if not CLAUDE_PARAMETERS.intersection(known) or self._class_attribute_set(attr):
                continue
            if self._changes_dict(module, attr) or self._changed_in_run(module, attr):
                continue
            found[attr] = ["dict", known, sorted(unknown)]
        return found

    def _fields(
        self, module: str, name: str, info: dict[str, Any], depth: int = 0
    ) -> dict[str, Any] | None:
        """Return how an options class is made: its parameters, the field each sets, defaults.

        A class with an `__init__` maps the fields it assigns from its parameters
        (`self.model = model`); a dataclass, pydantic model or NamedTuple (a class body of
        annotated fields and no `__init__`) takes its fields in order (pydantic: by keyword
        only), after those of its project base classes of the same kind. A class with an
        `__init__` and a project base class is not read: what `super().__init__` sets is unseen.
        """
        init = self.summaries[module]["functions"].get(f"{name}.__init__")
        inherited = self._inherited_fields(module, info, init is not None, depth)
        if inherited is None:
            return None
        params: list[list[str]] = []
        attrs: dict[str, str] = {}
        defaults: dict[str, Any] = {}
        known: dict[str, list[Any]] = {}
        # Base classes' fields come first, the subclass's own after (a field it redefines keeps
        # its place and takes the new default).
        for base_fields in reversed(inherited):
            for param in base_fields["params"]:
                if param[0] not in attrs:
                    params.append(list(param))
            attrs.update(base_fields["attrs"])
            known.update(base_fields["defaults"])
        if init is not None:
            for param in init["params"][1:]:
                params.append([param["name"], param["kind"]])
                if param["default"] is not None:
                    defaults[param["name"]] = param["default"]
            attrs.update(_init_fields(name, info, {p["name"] for p in init["params"][1:]}))
        else:
            keyword_only = any(param[1] == "keyword" for param in params)
            keyword_only = self._pydantic(module, info) or keyword_only
            for field_name, facts in info["fields"].items():
                if field_name not in attrs:
                    params.append([field_name, "positional"])
                attrs[field_name] = field_name
                known.pop(field_name, None)
                if facts["default"] is not None:
                    defaults[field_name] = facts["default"]
            if keyword_only:
                params = [[param[0], "keyword"] for param in params]
        if self._env_settings(module, name):
            # pydantic-settings reads every field left out from the environment first
            # (https://docs.pydantic.dev/latest/concepts/pydantic_settings/): no default is known.
            defaults, known = {}, {}
        for param_name, default in defaults.items():
            value = self.evaluate(module, None, self._specified_default(module, default))
            # An unknown default (`field(default_factory=...)`) is left out: a field not passed
            # then has no value to judge.
            if isinstance(value, Const) and _jsonable(value.value):
                known[param_name] = [value.value]
        made = {"params": params, "attrs": attrs, "defaults": known, "line": info["line"]}
        made.update(self._factories(module, name, attrs, known))
        return made

    def _specified_default(self, module: str, default: list[Any]) -> list[Any]:
        """Return the default a field's specifier gives (`field(default=0.7)`, pydantic's
        `Field(0.7, ...)` or `Field(default=0.7)`), else the default as written."""
        if not default or default[0] != "call" or default[4] or default[5]:
            return default
        callee = self.evaluate(module, None, default[1])
        if not isinstance(callee, Ref) or callee.qualname not in FIELD_SPECIFIERS:
            return default
        keywords = default[3]
        if "default" in keywords:
            return list(keywords["default"])
        positional = default[2]
        if positional and callee.qualname.startswith("pydantic."):
            return list(positional[0])
        return default

    def _factories(
        self, module: str, name: str, attrs: dict[str, str], known: dict[str, Any]
    ) -> dict[str, Any]:
        """Return the fields of an options class made by `field(default_factory=Class)`."""
        factories = {
            attr: list(found)
            for attr, param in attrs.items()
            if param not in known and (found := self.field_factory(module, name, attr))
        }
        return {"factories": factories} if factories else {}

    def field_factory(self, module: str, cls: str, name: str) -> tuple[str, str] | None:
        """Return the project class a dataclass field's `default_factory` names
        (`params: Params = field(default_factory=Params)`), in the first class of the MRO that
        declares the field."""
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries[owner_module]["classes"].get(owner, {})
            facts = info.get("fields", {}).get(name)
            if facts is None:
                continue
            value = facts["default"]
            if not value or value[0] != "call" or value[2] or value[4] or value[5]:
                return None
            callee = self.evaluate(owner_module, None, value[1])
            factory = value[3].get("default_factory")
            if not isinstance(callee, Ref) or callee.qualname != "dataclasses.field" or not factory:
                return None
            made = self.evaluate(owner_module, None, factory)
            return (made.module, made.name) if isinstance(made, Class) else None
        return None

    def _env_settings(self, module: str, cls: str) -> bool:
        """Return whether a class is a pydantic-settings class (`BaseSettings`, directly or
        through project base classes): its fields come from the environment when set there."""
        for owner_module, owner in self.mro(module, cls):
            info = self.summaries[owner_module]["classes"].get(owner, {})
            for base in info.get("bases", ()):
                symbol = self.evaluate(owner_module, None, base)
                if isinstance(symbol, Ref) and symbol.qualname.endswith(".BaseSettings"):
                    return True
        return False

    def _inherited_fields(
        self, module: str, info: dict[str, Any], has_init: bool, depth: int
    ) -> list[dict[str, Any]] | None:
        """Return the fields of an options class's project base classes (see `_fields`).

        None when a base class is not read: one that is not a project class, has an `__init__`
        of its own, or is the base of a class with an `__init__`.
        """
        inherited: list[dict[str, Any]] = []
        for base in info["bases"]:
            found = self.evaluate(module, None, base)
            if base == ["name", "object"] or isinstance(found, Ref):
                continue
            if not isinstance(found, Class) or has_init or depth > MAX_DEPTH:
                return None
            base_summary = self.summaries.get(found.module, {})
            base_info = base_summary.get("classes", {}).get(found.name)
            if base_info is None or f"{found.name}.__init__" in base_summary.get("functions", {}):
                return None
            base_fields = self._fields(found.module, found.name, base_info, depth + 1)
            if base_fields is None:
                return None
            inherited.append(base_fields)
        return inherited

    def _pydantic(self, module: str, info: dict[str, Any]) -> bool:
        """Return whether a class derives from pydantic's `BaseModel`/`BaseSettings` directly
        (its fields are then passed by keyword only)."""
        found = False
        for base in info["bases"]:
            symbol = self.evaluate(module, None, base)
            last = symbol.qualname.rsplit(".", 1)[-1] if isinstance(symbol, Ref) else ""
            if last in ("BaseModel", "BaseSettings"):
                found = True
        return found

    def closure(self, module: str) -> list[str]:
        """Return the modules whose facts a file of `module` may read.

        Its own, those it imports, and those their names point to (a re-exported wrapper's
        module): derived names are already followed to the module that defines them, and a
        wrapper's facts name the Claude call they reach, so nothing further is read.
        """
        if module in self._closures:
            return self._closures[module]
        seen = [module]
        for other in sorted(self.imported_modules(module)):
            if other in self.summaries and other not in seen:
                seen.append(other)
        for name in list(seen):
            derived = self.derived(name)
            for named in derived["names"].values():
                for plain in named[1] if named[0] == "choice" else [named]:
                    if plain[0] in ("func", "class", "obj") and plain[1] not in seen:
                        seen.append(plain[1])
            # The class a factory returns an instance of, imported inside the factory
            # (`def make(): from .claude import ClaudeLLM; return ClaudeLLM()`).
            for facts in derived["functions"].values():
                for owner, _ in facts.get("returns_objects", []):
                    if owner not in seen:
                        seen.append(owner)
        # The class of an object its functions are given (`call_api(self, ...)` from a module
        # this one need not import), or of the objects of a dict of them (`Orchestrator({
        # "claude": ClaudeAgent(key)})`): what that class holds.
        for facts in self.derived(module)["functions"].values():
            owners = [owner for owner, _ in facts.get("param_objects", {}).values()]
            owners.extend(
                owner for classes in facts.get("param_choices", {}).values() for owner, _ in classes
            )
            owners.extend(
                o for entries in facts.get("param_tables", {}).values() for _, o, _ in entries
            )
            seen.extend(owner for owner in dict.fromkeys(owners) if owner not in seen)
        self._closures[module] = seen
        return seen

    def _constants_apart(self, module: str) -> tuple[str, dict[str, str]]:
        """Return the digest of a module's derived facts but its constants, and each constant's
        own digest (computed once per round)."""
        found = self._apart.get(module)
        if found is None:
            facts = self.derived(module)
            constants = {n: p for n, p in facts["names"].items() if p[0] == "const"}
            rest = {
                **facts,
                "names": {n: p for n, p in facts["names"].items() if n not in constants},
            }
            payload = json.dumps(rest, sort_keys=True, default=str).encode()
            each = {n: json.dumps(p, sort_keys=True, default=str) for n, p in constants.items()}
            found = (hashlib.blake2b(payload, digest_size=12).hexdigest(), each)
            self._apart[module] = found
        return found

    def _read_whole(self, module: str) -> set[str]:
        """Return the modules a file of `module` may read any name of: those it imports as a
        module or a package (`import app.settings`, `from app import settings`), star-imports,
        or reaches by a name its folder gives it (a script's sibling module)."""
        summary = self.summaries[module]
        local = [
            self._local_import(module, value)
            for facts in summary["functions"].values()
            for values in facts["locals"].values()
            for value, _ in values
            if value[0] == "import"
        ]
        spelled = {*summary["imports"].values(), *summary["submodules"], *local}
        spelled.update(q for qs in summary["import_choices"].values() for q in qs)
        whole = set(summary["star_imports"]) | set(self.aliases.get(module, {}).values())
        for other in self.closure(module):
            # `other` is read whole when a name spelled is it or a package holding it: one of
            # its dotted prefixes (`a`, `a.b` of `a.b.c`), looked up rather than each name
            # spelled compared with it.
            if not spelled.isdisjoint(_dotted_prefixes(other)):
                whole.add(other)
        return whole

    def _part_read(
        self, module: str, facts: dict[str, Any], words: _Words
    ) -> tuple[dict[str, Any], str]:
        """Return an imported module's facts as a file can read them, with their digest: its
        constants only where the file spells their names.

        The file's analysis reads another module's constant by the name it imports it under
        (`from app.settings import MODEL`, a re-export's own entry holding the value), never
        by one it does not spell; so a constant added or changed that the file never names
        does not change what it is told, nor its cached result.
        """
        rest, each = self._constants_apart(module)
        kept = sorted(name for name in each if words.spelled(name))
        names = {n: p for n, p in facts["names"].items() if n not in each or n in kept}
        digest = hashlib.blake2b(digest_size=12)
        digest.update(rest.encode())
        for name in kept:
            digest.update(f"\0{name}={each[name]}".encode("utf-8", "surrogatepass"))
        return {**facts, "names": names}, digest.hexdigest()

    def view(self, path: str, text: str | bytes | None = None) -> ProjectView | None:
        """Return what a file may know about the project, with a digest of exactly that.

        With the file's `text`, the constants of the modules it imports names from are only
        those it spells (`_part_read`); without, every fact of those modules is in the view.
        """
        module = self.files.get(path)
        if module is None:
            return None
        derived: dict[str, dict[str, Any]] = {}
        digests = [module]
        words = _Words(text)
        whole = self._read_whole(module) if text is not None else set()
        for name in self.closure(module):
            facts, digest = self._derived_and_digest(name)
            # Modules with nothing to tell are left out of the view (and of its digest).
            if (
                name == module
                or facts["names"]
                or facts["functions"]
                or facts["classes"]
                or facts.get("star_libraries")
            ):
                if text is not None and name != module and name not in whole:
                    facts, digest = self._part_read(name, facts, words)
                derived[name] = facts
                digests.append(f"{name}={digest}")
        # The file's own import names for the modules beside it (`sibling`), as it spells them.
        for alias, target in sorted(self.aliases.get(module, {}).items()):
            for name in [n for n in derived if n == target or n.startswith(target + ".")]:
                derived.setdefault(alias + name[len(target) :], derived[name])
                digests.append(f"{alias}->{target}")
        # Only what can put a Claude call where Claude is never named (a client, a factory, a
        # wrapper, a class holding a client) makes a file worth parsing for the project's sake;
        # an imported constant matters only in a file the prefilter already parses.
        relevant = (
            (
                bool(derived[module]["functions"])
                or "read_by" in derived[module]
                or "defaults_read_by" in derived[module]
                or any(self.gives(facts) for name, facts in derived.items() if name != module)
            )
            and self._calls_claude(module)
        ) or self._sends_imported_claude_model(module)
        # Constants of a module it imports as a module, read through it (`settings.MODEL`).
        summary = self.summaries[module]
        as_modules = {*summary["imports"].values(), *summary["submodules"]}
        constants = any(
            name in as_modules and any(plain[0] == "const" for plain in facts["names"].values())
            for name, facts in derived.items()
            if name != module
        )
        own = derived[module]
        if not (
            relevant
            or constants
            or own["names"]
            or own["classes"]
            or "bound_outside" in own
            or "bound_alike" in own
            or "spread_kept" in own
        ):
            return None  # nothing the project says changes this file's findings
        digest = hashlib.blake2b("\n".join(digests).encode(), digest_size=12).hexdigest()
        return ProjectView(module, derived, digest, relevant)

    def _sends_imported_claude_model(self, module: str) -> bool:
        """Return whether a Claude call of `module` sends a Claude model id it does not spell:
        one read from another module (`invoke_model(modelId=Config.MODEL_ID)` on a boto3
        client, where the file names neither Claude nor Anthropic), which the prefilter's
        markers cannot see."""
        if module not in self.scanned:
            return False
        summary = self.summaries[module]
        calls = [(None, call) for call in summary["calls"]]
        calls += [(q, call) for q, f in summary["functions"].items() for call in f["calls"]]
        for function, call in calls:
            found = self._target(module, function, call)
            model = None if found is None else found[1].get("modelId", found[1].get(MODEL))
            if model is None or model[0] == "lit":
                continue
            if isinstance(self._model_read(module, function, model), str):
                return True
        return False

    def _model_read(self, module: str, function: str | None, model: list[Any]) -> str | None:
        """Return the Claude model id an expression proves: a constant, or a class's constant
        (`Config.MODEL_ID`, `_constants`)."""
        value = self.evaluate(module, function, model)
        if value is None and model[0] == "attr":
            owner = self.evaluate(module, function, model[1])
            if isinstance(owner, Class):
                constants = self._derive_classes(owner.module).get(owner.name, {})
                value = Const(constants.get("constants", {}).get(model[2]))
        if isinstance(value, Const) and isinstance(value.value, str):
            return value.value if is_claude_model(value.value) else None
        return None

    def _calls_claude(self, module: str) -> bool:
        """Return whether the fixed point found a call of `module` that reaches Claude: a
        Claude call, a request handed to a thread, or a call of project code passing something
        on to one (`wrapper_callers`); True for a module whose calls it never read.

        A module importing a wrapper or a client factory but calling neither (a test of other
        code, a command-line entry point) is then parsed only for its own Claude markers.
        """
        if module not in self.scanned or module in self.wrapper_callers:
            return True
        facts = self.derived(module)
        if "read_by" in facts or "defaults_read_by" in facts or "defaults_outside" in facts:
            return True
        summary = self.summaries[module]
        calls = [(None, call) for call in summary["calls"]]
        calls += [(q, call) for q, f in summary["functions"].items() for call in f["calls"]]
        return any(
            self._target(module, function, call) is not None
            or self._handed(module, function, call) is not None
            for function, call in calls
        )


# What makes a copy of its one argument (https://docs.python.org/3/library/copy.html).
_COPIES = frozenset({"copy.deepcopy", "copy.copy"})


def _copies(call: list[Any]) -> bool:
    """Return whether a call passes one positional argument and nothing else."""
    return len(call[2]) == 1 and not (call[3] or call[4] or call[5])


def _dotted_prefixes(name: str) -> list[str]:
    """Return `name` and every prefix of it that a dot follows (`a`, `a.b`, `a.b.c`)."""
    found = [name[:i] for i, char in enumerate(name) if char == "."]
    found.append(name)
    return found


class _Words:
    """The names a file's text spells (computed on first use): a constant of another module
    it may read is one of them."""

    def __init__(self, text: str | bytes | None) -> None:
        self._text = text
        self._words: set[str] | None = None

    def spelled(self, name: str) -> bool:
        if self._text is None or not name.isascii():
            return True  # nothing to tell by: every name may be read
        if self._words is None:
            data = (
                self._text.encode("utf-8", "surrogatepass")
                if isinstance(self._text, str)
                else self._text
            )
            self._words = {w.decode("ascii") for w in _WORD.findall(data)}
        return name in self._words


# A name as a file may spell it, in ASCII (a non-ASCII constant's name is always kept).
_WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class ProjectView:
    """What one file may know about the project: its module and the modules it imports."""

    module: str
    modules: dict[str, dict[str, Any]]
    digest: str
    # Whether the file must be parsed even without a Claude marker of its own.
    relevant: bool

    @property
    def own(self) -> dict[str, Any]:
        return self.modules[self.module]

    def absolute(self, qualname: str) -> str:
        """Return an import path made absolute (`..x.y` in this module's package)."""
        if not qualname.startswith("."):
            return qualname
        level = len(qualname) - len(qualname.lstrip("."))
        rest = qualname[level:]
        parts = self.module.split(".")
        if not self.own.get("package"):
            parts = parts[:-1]
        if level > 1:
            parts = parts[: max(0, len(parts) - (level - 1))]
        return ".".join([*parts, rest] if rest else parts)

    def lookup(self, qualname: str) -> list[Any] | None:
        """Return what an absolute import path names in the project, as plain data."""
        qualname = self.absolute(qualname)
        parts = qualname.split(".")
        for size in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:size])
            facts = self.modules.get(module)
            if facts is None:
                continue
            rest = parts[size:]
            if len(rest) == 2:
                # `Config.PARAMS`: a class's dict of request options (`_class_tables`).
                table = facts["classes"].get(rest[0], {}).get("tables", {}).get(rest[1])
                if table is not None:
                    return list(table)
            found = facts["names"].get(rest[0])
            if found is None and rest[0] in facts["functions"]:
                found = ["func", module, rest[0]]
            if found is None:
                found = _star_library_name(facts, rest[0])
            if found is None:
                return None
            if len(rest) == 2 and found[0] == "class":
                return ["func", found[1], f"{found[2]}.{rest[1]}"]
            return found if len(rest) == 1 else None
        return None

    def function(self, module: str, qual: str) -> dict[str, Any] | None:
        facts = self.modules.get(module)
        return None if facts is None else facts["functions"].get(qual)


def _star_library_name(facts: dict[str, Any], name: str) -> list[Any] | None:
    """Return `["ref", path]` for a name a module's star import of a library gives it, where
    the registry knows the library exports it (the first such import, as `export` reads it)."""
    for library in facts.get("star_libraries", ()):
        if described(f"{library}.{name}"):
            return ["ref", f"{library}.{name}"]
    return None


# What a module's names may be that only say what a value is (a constant, a dict of options).
_VALUES_ONLY = ("const", "dict")


def _dict_changes(name: str) -> re.Pattern[str]:
    """Return the pattern of a change to the items of a dict by that name: `name[k] = v`,
    `del name[k]`, `name.update(...)`, `name.pop(...)`, `name |= {...}`..., or a `global`
    declaration of it."""
    return re.compile(
        rf"\b{re.escape(name)}\s*(\[[^\]\n]*\]\s*(=[^=]|[-+*/|&]=)|\.\s*({_DICT_CHANGES})\b)"
        rf"|\b{re.escape(name)}\s*\|="
        rf"|\bdel\s+{re.escape(name)}\b|\bglobal\s+[^\n]*\b{re.escape(name)}\b"
    )


# Calls that only read a dict handed to them (`sorted(PROVIDERS)`, `", ".join(PROVIDERS)`).
_DICT_READERS: Final = frozenset(
    {"all", "any", "bool", "dict", "enumerate", "frozenset", "iter", "len", "list", "max"}
    | {"min", "print", "repr", "reversed", "set", "sorted", "str", "tuple"}
)


def _import_source(node: ast.ImportFrom, package: str) -> str | None:
    """Return the absolute module a `from ... import` reads, in a module of `package` (None
    when a relative import climbs above the top)."""
    if not node.level:
        return node.module or None
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts) or (node.level - 1 == len(parts) and not node.module):
        return None
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base) or None


def _table_changed(text: str, name: str) -> bool:
    """Return whether a module's text may change a table of its dict `name` (`_nested_moved`):
    an item of one set or changed (`name[k][j] = v`, `name[k].update(...)`), or a name bound
    to one (`cfg = name[k]`) whose items change or that is handed on (`_dict_handed_on`)."""
    deep = re.compile(
        rf"\b{re.escape(name)}\s*\[[^\]\n]*\]\s*(\[[^\]\n]*\]\s*(=[^=]|[-+*/|&]=)"
        rf"|\.\s*({_DICT_CHANGES})\b|\|=)"
    )
    if deep.search(text) is not None:
        return True
    tree = _quiet_parse(text)
    if tree is None:
        return True
    aliases: set[str] = set()
    for node in ast.walk(tree):
        value = getattr(node, "value", None)
        if not isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            continue
        if not (isinstance(value, ast.Subscript) and _names(value.value, name)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            if not isinstance(target, ast.Name):
                return True  # `self.cfg = CONFIG["claude"]`: followed nowhere
            aliases.add(target.id)
    if len(aliases) > MAX_CHOICES:
        return True  # too many to look through: any may change it
    return any(
        _dict_changes(alias).search(text) is not None or _dict_handed_on(text, alias)
        for alias in sorted(aliases)
    )


def _names(node: ast.expr, name: str) -> bool:
    """Return whether an expression is the name, or an attribute by it (`config.CONFIG`)."""
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def _dict_handed_on(text: str, name: str, attribute: bool = False) -> bool:
    """Return whether a module's text may hand its dict `name` to code that can change its
    items under another name: `reg = PROVIDERS`, `install(PROVIDERS)`, `[PROVIDERS]`,
    `from app.providers import PROVIDERS as reg` (then `reg["claude"] = Other`), or cannot
    be read. Item reads, method calls (`_dict_changes` judges those), `in`, loops and calls
    that only read it (`sorted(PROVIDERS)`) hand nothing on. `attribute`: only reads of an
    object's attribute by that name count (`roster = team.agents`), not the bare name."""
    bare = re.compile(rf"\b{re.escape(name)}\b(?!\s*(?:[\[.:]|=[^=]))")
    if bare.search(text) is None:
        return False
    tree = _quiet_parse(text)
    if tree is None:
        return True
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
        if isinstance(node, ast.ImportFrom) and any(
            alias.name == name and alias.asname not in (None, name) for alias in node.names
        ):
            return True
    for node in ast.walk(tree):
        if not (
            (isinstance(node, ast.Name) and node.id == name and not attribute)
            or (isinstance(node, ast.Attribute) and node.attr == name)
        ) or not isinstance(node.ctx, ast.Load):
            continue
        parent = parents.get(id(node))
        if isinstance(parent, (ast.Subscript, ast.Attribute)) and parent.value is node:
            continue
        if isinstance(parent, (ast.Compare, ast.FormattedValue)):
            continue
        if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)) and parent.iter is node:
            continue
        if _spread(parent, node):
            continue  # `{**PARAMS}`, `f(**PARAMS)`: a copy of its items is handed on
        if isinstance(parent, ast.Call) and node in parent.args:
            called = parent.func
            if (isinstance(called, ast.Name) and called.id in _DICT_READERS) or (
                isinstance(called, ast.Attribute) and called.attr in ("join", "format")
            ):
                continue
        return True
    return False


def _sdk_method(client: Client) -> bool:
    """Return whether a client symbol is a Claude SDK client's request method
    (`client.messages.create`), on a client that is surely Claude's."""
    return (
        bool(client.path)
        and client.only is None
        and is_sdk_client_class(client.cls)
        and tuple(client.path) in SDK_METHODS
    )


def _spread(parent: ast.AST | None, node: ast.AST) -> bool:
    """Return whether `node` is spread by its parent: `{**node}` or `f(**node)`."""
    if isinstance(parent, ast.keyword):
        return parent.arg is None
    if isinstance(parent, ast.Dict):
        pairs = zip(parent.keys, parent.values, strict=True)
        return any(key is None and value is node for key, value in pairs)
    return False


def _plain(symbol: Sym) -> list[Any] | None:
    """Return the part of a symbol a file can use, as JSON-able data."""
    if symbol is None:
        return None
    if isinstance(symbol, Client):
        if symbol.path:
            return None
        return (
            ["client", symbol.cls]
            if symbol.only is None
            else ["client", symbol.cls, sorted(symbol.only)]
        )
    if isinstance(symbol, Const):
        return ["const", symbol.value] if _jsonable(symbol.value) else None
    if isinstance(symbol, Func):
        return ["func", symbol.module, symbol.qual]
    if isinstance(symbol, (Class, Obj)):
        return ["class" if isinstance(symbol, Class) else "obj", symbol.module, symbol.name]
    if (
        isinstance(symbol, Items)
        and isinstance(symbol.of, Client)
        and not symbol.of.path
        and symbol.of.only is None
    ):
        return ["items", symbol.of.cls]
    if isinstance(symbol, Ref) and described(symbol.qualname):
        # A library's Claude class or function another module imports under the project's
        # name (`Client = anthropic.Anthropic`, `from anthropic import Anthropic as Claude`):
        # a file importing it from there reads the library's path.
        return ["ref", symbol.qualname]
    if isinstance(symbol, Choice) and all(isinstance(o, Func) for o in symbol.options):
        # A function imported in each branch of an `if` chain: a file reads the one that passes
        # its arguments on to a Claude call (`symbols.Resolver._chosen_function`).
        return ["choice", [_plain(option) for option in symbol.options]]
    return None


def _is_claude_constant(symbol: Sym) -> bool:
    """Return whether a value is a string naming a Claude model."""
    return (
        isinstance(symbol, Const)
        and isinstance(symbol.value, str)
        and is_claude_model(symbol.value)
    )


def _routed(model: str, prefixes: Collection[str]) -> bool:
    """Return whether a model id names Claude behind each provider prefix a library routing by
    one sends it with (aisuite's `anthropic:`; "" for a library that routes by the name)."""
    return is_claude_model(model) and all(model.strip().startswith(p) for p in prefixes)


def _bind(
    call: list[Any], layout: _Layout, passes_self: bool
) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Return the arguments of a call bound to the callee's parameters, and the keyword
    arguments left over (for its `**kwargs`)."""
    positional = call[2][1:] if passes_self else call[2]
    bound_args: dict[str, list[Any]] = dict(zip(layout.positional, positional, strict=False))
    extra: dict[str, list[Any]] = {}
    for name, arg in call[3].items():
        if name in layout.named:
            bound_args[name] = arg
        else:
            extra[name] = arg
    return bound_args, extra


def _held_client(attrs: dict[str, str], only: dict[str, list[str]], attr: str, symbol: Sym) -> None:
    """Note a class attribute (or property) that holds a Claude client, and what it is only
    through when it may be another vendor's client (`Client.only`)."""
    if isinstance(symbol, Client) and not symbol.path:
        attrs[attr] = symbol.cls
        if symbol.only is not None:
            only[attr] = sorted(symbol.only)


def _init_fields(name: str, info: dict[str, Any], params: set[str]) -> dict[str, str]:
    """Return the fields a class's `__init__` sets from its parameters (`self.model = model`),
    each with the parameter it is set from."""
    attrs: dict[str, str] = {}
    for attr, values in info["attributes"].items():
        if len(values) != 1:
            continue
        value, method = values[0]
        if method == f"{name}.__init__" and value[0] == "name" and value[1] in params:
            attrs[attr] = value[1]
    return attrs


# Calls that turn an options object into the dict of its fields: pydantic's `model_dump()`
# (v2) and `dict()` (v1) without arguments, `dataclasses.asdict(x)`.
DUMP_METHODS = ("model_dump", "dict")
DUMP_FUNCTIONS = (["name", "asdict"], ["attr", ["name", "dataclasses"], "asdict"])


def _dumped_object(value: list[Any]) -> list[Any] | None:
    """Return the object `x.model_dump()` or `asdict(x)` dumps, if `value` is such a call."""
    if value[0] != "call" or value[4] or value[5]:
        return None
    callee, args, kwargs = value[1], value[2], value[3]
    if callee[0] == "attr" and callee[2] in DUMP_METHODS and not args and not kwargs:
        return list(callee[1])
    if callee in DUMP_FUNCTIONS and len(args) == 1 and not kwargs:
        return list(args[0])
    return None


def _item_read(value: list[Any]) -> tuple[list[Any], str] | None:
    """Return (the expression, the key) of `x[key]` or `x.get("key")`, else None."""
    if value[0] == "sub":
        return (value[1], value[2]) if value[2] is not None else None
    if (
        value[0] == "call"
        and value[1][0] == "attr"
        and value[1][2] == "get"
        and value[2]
        and value[2][0][0] == "lit"
        and isinstance(value[2][0][1], str)
    ):
        return value[1][1], value[2][0][1]
    return None


def _pop_read(value: list[Any]) -> tuple[list[Any], str] | None:
    """Return (the name, the key) of `name.pop("key", ...)`: what the key held, taken out (read
    as `name["key"]` only where the name is a function's `**kwargs`, `Project._star_key`)."""
    if (
        value[0] == "call"
        and value[1][0] == "attr"
        and value[1][2] == "pop"
        and value[1][1][0] == "name"
        and 1 <= len(value[2]) <= 2
        and not value[3]
        and not value[4]
        and not value[5]
        and value[2][0][0] == "lit"
        and isinstance(value[2][0][1], str)
    ):
        return value[1][1], value[2][0][1]
    return None


def _reads_key(call: list[Any], name: str, key: str) -> bool:
    """Return whether a call is `name.get("key", ...)`."""
    return (
        call[0] == "call"
        and call[1][0] == "attr"
        and call[1][2] == "get"
        and call[1][1] == ["name", name]
        and bool(call[2])
        and call[2][0] == ["lit", key]
    )


def _table_read(value: list[Any]) -> tuple[str | None, str | None]:
    """Return the module table an expression reads an item of, and the parameter it reads it
    by when it names one: `TABLE.get(name, ...)` gives both, `TABLE[x]` the table alone."""
    if value[0] == "sub" and value[1][0] == "name" and value[2] is None:
        return str(value[1][1]), None
    if (
        value[0] == "call"
        and value[1][0] == "attr"
        and value[1][2] == "get"
        and value[1][1][0] == "name"
        and value[2]
        and value[2][0][0] == "name"
    ):
        return str(value[1][1][1]), str(value[2][0][1])
    return None, None


def _split_path(name: str) -> tuple[str, str]:
    """Return a parameter path's parameter and the rest (`options`, `.model_id`)."""
    match = re.match(r"^(\w+)(.*)$", name)
    return (match.group(1), match.group(2)) if match else (name, "")


def _jsonable(value: Any) -> bool:
    if isinstance(value, (str, int, float, bool, type(None))):
        return True
    if isinstance(value, list):
        return all(_jsonable(v) for v in value)
    return False


def _stream_names(forwards: dict[str, list[list[Any]]]) -> set[str]:
    """Return the keywords a function's `**kwargs` passes on as a Claude call's stream flag."""
    return _forwarded(forwards, STREAM)


def _forwarded(forwards: dict[str, list[list[Any]]], canonical: str) -> set[str]:
    """Return the keywords a function's `**kwargs` passes on as a Claude call's `canonical`
    parameter."""
    return {name for name, reaches in forwards.items() if any(r[0] == canonical for r in reaches)}


def _spread_param_name(value: list[Any], facts: dict[str, Any]) -> str | None:
    """Return the parameter of an `__init__` an attribute is set from, as `extra or {}`,
    `extra if ... else {}` or `extra` with the default `{}` (`None` or `{}` otherwise): the
    dict an instance spreads is what its constructor call gives there, or an empty one."""
    options = value[1] if value[0] == "or" else value[1:] if value[0] == "if" else [value]
    names = [o[1] for o in options if o[0] == "name"]
    if len(names) != 1 or facts["locals"].get(names[0]):
        return None
    if any(o[0] != "name" and not _empty_dict(o) for o in options):
        return None
    param = next((p for p in facts["params"] if p["name"] == names[0]), None)
    if param is None or param["kind"] not in ("positional", "keyword"):
        return None
    default = param["default"]
    if len(options) == 1 and (default is None or not _empty_dict(default)):
        return None  # `self.extra = extra`: no empty dict when a caller gives none
    if default is not None and not (_empty_dict(default) or default == ["lit", None]):
        return None
    return str(names[0])


def _given_keys(call: list[Any], arg: list[Any] | None) -> tuple[str, ...] | None:
    """Return the keys of the dict a call surely gives a parameter (none when it leaves it
    out and spreads nothing, or gives `None`; a dict display's literal keys), else None."""
    if arg is None:
        return None if call[4] or call[5] else ()
    if arg == ["lit", None]:
        return ()
    if arg[0] == "dict" and not arg[2] and not arg[3] and len(arg) <= 4:
        return tuple(sorted(arg[1]))
    return None


def _empty_dict(value: list[Any]) -> bool:
    """Return whether an expression is the empty dict literal `{}` (or `dict()`)."""
    if value[0] == "call":
        return value[1] == ["name", "dict"] and not value[2] and not value[3] and not value[5]
    return value[0] == "dict" and not value[1] and not value[2] and not value[3]


def _empty_literal(value: list[Any]) -> bool:
    """Return whether an argument is an empty literal: `None`, `[]`, `()`, `""` or `{}`."""
    if value[0] == "lit":
        return value[1] is None or value[1] in ([], (), "")
    return value[0] == "dict" and not value[1] and not value[2] and not value[3]


def _reached_params(reaches: Iterable[str]) -> set[str]:
    """Return the parameters (and `**kwargs` items) whose value, or a path into it, reaches a
    Claude call: `model` of `model.value`, and both `config[temperature]` and `config` for a
    dict parameter's item (a call that leaves `config` out sends the `.get` default)."""
    found: set[str] = set()
    for name in reaches:
        head = name.split(".", 1)[0]
        found.add(head)
        found.add(head.split("[", 1)[0])
    return found


def _spread_into_dicts(facts: dict[str, Any]) -> set[str]:
    """Return the names a function spreads into a dict of its locals (`d.update(extra)`,
    `{**extra}`: the last field of a `["dict", ...]` value)."""
    found: set[str] = set()
    for bindings in facts.get("locals", {}).values():
        for binding in bindings:
            value = binding[0] if isinstance(binding, list) and binding else None
            if isinstance(value, list) and len(value) >= 4 and value[0] == "dict":
                found.update(name for name in value[3] if isinstance(name, str))
    return found


def _claude_literal(value: list[Any]) -> bool:
    """Return whether a summarised expression is a string literal naming a Claude model."""
    return value[0] == "lit" and isinstance(value[1], str) and is_claude_model(value[1])


def _contains_expr(described: Any, read: list[Any]) -> bool:
    """Return whether a summarised expression (or a list of them) holds `read` anywhere; yes
    for one too large to look through."""
    stack = [described]
    seen = 0
    while stack:
        part = stack.pop()
        seen += 1
        if seen > MAX_MENTION_PARTS:
            return True
        if part == read:
            return True
        if isinstance(part, list):
            stack.extend(part)
        elif isinstance(part, dict):
            stack.extend(part.values())
    return False


def _quiet_entry(table: dict[Any, Any], key: Any, empty: type) -> Any:
    """Return a table's entry for `key`, made empty when missing (no change for the rounds)."""
    found = table.get(key)
    if found is None:
        found = table[key] = empty()
    return found


def _ruled_out(spans: list[list[Any]], line: int, given: dict[str, str]) -> bool:
    """Return whether a line of a function runs only under a literal test of a parameter
    (`line_guards`) that the string literals a call gives rule out."""
    return any(
        first <= line <= last
        and any(name in given and (given[name] in values) != equal for name, values, equal in tests)
        for first, last, tests in spans
    )


def _lacking_places(
    table: dict[str, list[list[Any]]],
    key: tuple[str, str],
    valid: Callable[[tuple[str, str], str], bool],
) -> tuple[dict[str, list[list[Any]]], dict[str, list[list[Any]]]]:
    """Return a function's reaches as a file may read them, and those that hold only for a
    call giving a parameter no dict holding a key (`Project._reach_shadowed`), each as
    [canonical, target, path, line, parameter, key]. A reach whose condition names another
    function's parameter (one of a base class's `__init__`) is not one this function's
    callers can meet, nor one whose attribute another module sets (`valid`): it is left out."""
    found: dict[str, list[list[Any]]] = {}
    lacking: dict[str, list[list[Any]]] = {}
    for name, items in table.items():
        kept = [
            r for r in items if len(r) <= 5 or ((r[5][0], r[5][1]) == key and valid(key, r[5][2]))
        ]
        plain = [r[:4] for r in kept if len(r) <= 5]
        for reach in kept:
            if len(reach) > 5 and reach[:4] not in plain:
                item = [*reach[:4], reach[5][2], reach[5][3]]
                if item not in lacking.setdefault(name, []):
                    lacking[name].append(item)
        if kept:
            found[name] = kept
    return found, {name: sorted(items) for name, items in lacking.items() if items}


def _places(reaches: list[list[Any]]) -> list[list[Any]]:
    """Return reaches as a file reads them: [canonical, target, path, line], each once."""
    found: list[list[Any]] = []
    for reach in reaches:
        if reach[:4] not in found:
            found.append(reach[:4])
    return sorted(found)


# The test doubles of the standard library (`unittest.mock`): an object standing in for what a
# function is given proves nothing about it.
TEST_DOUBLES = ("unittest.mock.", "mock.")


def _derives_from_import(summary: dict[str, Any], name: str) -> bool:
    """Return whether a module's one other binding of an imported name is a class deriving
    from what the import gave (`from anthropic import Anthropic` then `class Anthropic(Tagging,
    Anthropic)`, the base read as the import, `summary._base`): the class statement runs after
    the import, so the name the module keeps is the class."""
    assigns = summary["assigns"].get(name)
    if not assigns or len(assigns) != 1 or assigns[0][0] != ["class", name]:
        return False
    if summary["import_choices"].get(name):
        return False
    source, _, imported = summary["imports"][name].rpartition(".")
    bases = summary["classes"].get(name, {}).get("bases", [])
    return ["import", 0, source, imported] in bases


def _format_join(value: list[Any]) -> list[Any] | None:
    """Return `"claude-{}".format(name)` (a literal template whose only fields are `{}` or
    `{N}`, `core.templates`, given positional values only) as a string built from parts."""
    if not (
        value[0] == "call"
        and value[1][0] == "attr"
        and value[1][2] == "format"
        and value[1][1]
        and value[1][1][0] == "lit"
        and isinstance(value[1][1][1], str)
        and not (value[3] or value[4] or value[5])
    ):
        return None
    pieces = format_pieces(value[1][1][1])
    values = value[2]
    if pieces is None or any(isinstance(p, int) and p >= len(values) for p in pieces):
        return None
    return ["join", [["lit", p] if isinstance(p, str) else values[p] for p in pieces]]


def _flat_join(value: list[Any]) -> list[list[Any]]:
    """Return the parts of a string built from parts, `a + b + c` and f-strings inside it
    flattened (`"bedrock/" + f"anthropic.{model}"` is three parts)."""
    found: list[list[Any]] = []
    for part in value[1]:
        found.extend(_flat_join(part) if part[0] == "join" else [part])
    return found


def _add(table: dict[str, list[list[Any]]], name: str, reach: list[Any]) -> bool:
    """Add a reach to a table's entry; return whether it was new."""
    items = table.setdefault(name, [])
    if reach in items:
        return False
    items.append(reach)
    return True


def _freeze(facts: Facts) -> str:
    return json.dumps(
        [
            sorted((list(k), v) for k, v in facts.reaches.items()),
            sorted((list(k), v) for k, v in facts.forwards.items()),
            sorted((list(k), sorted(v)) for k, v in facts.spread.items()),
            sorted((list(k), v) for k, v in facts.param_clients.items()),
            sorted((list(k), sorted(v.items())) for k, v in facts.param_objects.items()),
            sorted((list(k), sorted(v.items())) for k, v in facts.param_choices.items()),
            sorted((list(k), sorted(v.items())) for k, v in facts.param_tables.items()),
            sorted((list(k), sorted(v)) for k, v in facts.ambiguous.items()),
            sorted((list(k), sorted(v)) for k, v in facts.relied.items()),
            sorted((list(k), sorted(v)) for k, v in facts.spread_defaults.items()),
            sorted((list(k), v) for k, v in facts.fallbacks.items()),
            sorted((list(k), v) for k, v in facts.spelled.items()),
            sorted((list(k), v) for k, v in facts.tabled.items()),
            sorted(facts.options),
            sorted(facts.constant_reads.items()),
        ],
        sort_keys=True,
        default=str,
    )


def _maybe_sent(values: Any) -> bool:
    """Return whether a record's parameter may be sent: present, and not proven `None`."""
    return values is not None and not (values.complete and all(v is None for v in values.values))


def _self_fallback(facts: dict[str, Any], name: str) -> list[Any] | None:
    """Return `VALUE` of `name = name or VALUE`, a function's one assignment of `name`, at
    its top level (the parameter keeps what it was passed unless that was empty)."""
    local = facts.get("locals", {}).get(name)
    if not local or len(local) != 1 or local[0][1]:
        return None
    value = local[0][0]
    if not value or value[0] != "or" or len(value[1]) != 2 or value[1][0] != ["name", name]:
        return None
    fallback: list[Any] = value[1][1]
    return fallback


def _chained(value: list[Any]) -> list[list[Any]]:
    """Return the values `["if", A, ["if", B, C]]` chooses among: [A, B, C]."""
    found: list[list[Any]] = []
    while value[0] == "if":
        found.append(value[1])
        value = value[2]
    return [*found, value]


def _union(results: list[Sym], choice: bool = False) -> Sym:
    """Return what several possible values have in common.

    Equal values are that value. Claude clients of any class, with `None` (a lazy or optional
    client) or, for `a or b` / `x if c else y` (`choice`), unknowns beside them, are a Claude
    client; a proven other object among them makes the whole unknown, but another vendor's
    client that lacks some of the Claude client's attributes (`OpenAI()` has no `messages`):
    the union is the Claude client through those attributes only (`Client.only`).
    """
    if not results:
        return None
    first = results[0]
    if all(r is first or r == first for r in results):  # `is` first: most unions are of one
        return first
    clients = [r for r in results if isinstance(r, Client) and not r.path]
    if not clients:
        return _choice(results)
    only: frozenset[str] | None = None
    for r in results:
        if (isinstance(r, Const) and r.value is None) or (isinstance(r, Client) and not r.path):
            continue
        if isinstance(r, Foreign) and r.qualname in OTHER_CLIENTS_LACKING:
            lacks = OTHER_CLIENTS_LACKING[r.qualname]
            only = lacks if only is None else only & lacks
            continue
        if isinstance(r, (DictLit, Const)):
            # A dict or a literal kept in the client's place (`{"api_key": ...}` for a
            # provider reached over HTTP) has no `messages`.
            only = PLAIN_DATA_LACKING if only is None else only & PLAIN_DATA_LACKING
            continue
        if isinstance(r, (Foreign, Obj, Const, Client)):
            return None  # a proven other object may be the one called
        if not choice:
            return None
    for c in clients:
        if c.only is not None:
            only = c.only if only is None else only & c.only
    sdk = [c for c in clients if is_sdk_client_class(c.cls)]
    if len(sdk) != len(clients) and any(c.cls != clients[0].cls for c in clients):
        return None
    if only is not None and len(sdk) != len(clients):
        return None  # another library's client beside another vendor's: not read
    servers = {c.server for c in clients}
    return Client(clients[0].cls, (), only, servers.pop() if len(servers) == 1 else "")


def _choice(results: list[Sym]) -> Sym:
    """Return several project classes, objects or functions as a `Choice` (None when any
    value is something else or unknown, or when there are too many)."""
    options: list[Sym] = []
    for r in results:
        if not isinstance(r, (Class, Obj, Func, Bound, Choice)):
            return None
        for option in r.options if isinstance(r, Choice) else (r,):
            if option not in options:
                options.append(option)
    if len(options) > MAX_CHOICES:
        return None
    return options[0] if len(options) == 1 else Choice(tuple(options))


def _display(path: Path, cwd: Path) -> str:
    try:
        return path.relative_to(cwd).as_posix()
    except ValueError:
        return path.as_posix()


STAR_IMPORT = b"import *"


def _mentions(data: bytes, names: Iterable[bytes]) -> bool:
    return any(name in data for name in names)


# `<owner>.<attr> = ...` (an annotation allowed, `==` not), tried at every word's start so
# that one write does not hide another it overlaps; and `setattr(x, "attr", ...)`. What may
# stand between is bounded (`_SPAN` characters): unbounded, a line of many `a.b:` (or of many
# `setattr(`) is read to its end from each, quadratic in a hostile file.
_SPAN = 200
# An attribute write `<owner>.<attr> = ...` (an annotation between them allowed, or an augmented
# assignment's operator: `config.max_tokens += 512`), found at its
# dot (a scan that starts only at dots: a fraction of trying every position for the owner), the
# owner read back from the bytes before it (`_OWNER`, within `_OWNER_SPAN` bytes).
_ATTRIBUTE_WRITE = re.compile(
    rb"\.(?=[ \t]*(\w+)[ \t]*(?::[^=\n]{0,%d})?(?:[-+*/%%@&|^]|//|\*\*|<<|>>)?=(?!=))" % _SPAN
)
_OWNER = re.compile(rb"(\w*)([ \t]*)\Z")

# Writes the dot scan cannot read from a line's text: a target list (`cfg.model, n = a, b`,
# `[cfg.model] = [m]`, `*cfg.stop, last = s`), a parenthesised or continued target, a loop's,
# comprehension's or `with`'s target (`for cfg.model in ...`, `with x as cfg.model`), `del`. A
# file naming an attribute in such a shape is parsed when a write of it matters
# (`_odd_writes`): the patterns only choose which, so they stay narrow (a target list spread
# over lines is not seen) and linear (one starred class per line start, spans bounded).
_ASSIGNED = rb"[ \t]*(?:[-+*/%@&|^]|//|\*\*|<<|>>)?=(?!=)"
# A line that may start with a target list: target characters up to its first comma, or an
# opening bracket or star, then up to `=` (`_odd_names` keeps those calling nothing:
# `f(a.b, key=1)` is a call).
_TARGET_LIST = re.compile(
    rb"^(?:[\w.*()\[\] \t]*,|[ \t]*[(\[*])[\w.*()\[\], \t]*" + _ASSIGNED, re.MULTILINE
)
_CALLED = re.compile(rb"\w[ \t]*\(")
# Each starts with its literal, for the scan to skip ahead to it (`xfor a.b in` is read too:
# only a parse follows).
_ODD_WRITES = tuple(
    re.compile(pattern, re.MULTILINE)
    for pattern in (
        # `for a.b in ...`, `for i, a.b in ...`, a comprehension's too
        rb"for[ \t]+[\w.,*()\[\] \t]{0,%d}?[ \t)\]]in\b" % _SPAN,
        rb"as[ \t]+[(\[]?[ \t]*\w+[ \t]*\.\w+",  # `with x as a.b`
        rb"\.[ \t]*\w+[ \t]*[)\]]+" + _ASSIGNED,  # `(a\n .b) = ...`
        rb"del[ \t]+[^\n#;]{0,%d}\.[ \t]*\w+[ \t]*(?:[,;)]|$)" % _SPAN,
        rb"\.[ \t]*\w+[ \t]*\\\r?\n" + _ASSIGNED,  # `a.b \` then `= ...` on the next line
    )
)
# An attribute set by a name the text does not spell: `setattr(cfg, key, v)` (or
# `object.__setattr__`, group 1 the object, group 2 a literal name it may be given),
# `vars(cfg)[key] = v` (group 1), `cfg.__dict__.update(...)` (the owner before the dot).
_SETATTR_CALL = re.compile(
    rb"\b(?:object[ \t]*\.[ \t]*__setattr__|setattr)[ \t]*\(\s*([^,\n]{0,%d}?)\s*,\s*"
    rb"(?:[\"'](\w+)[\"'][ \t]*[,)])?" % _SPAN
)
_VARS_WRITE = re.compile(
    rb"\bvars[ \t]*\([ \t]*([^)\n]{0,%d})\)[ \t]*(?:\[|\.[ \t]*(?:update|setdefault)\b|\|=)" % _SPAN
)
_DICT_WRITE = re.compile(rb"\.[ \t]*__dict__[ \t]*(?:\[|\.[ \t]*(?:update|setdefault)\b|\|=)")
_DOTTED_NAME = re.compile(rb"\.[ \t]*(\w+)")
# What a computed name writes: any attribute.
ANY_ATTRIBUTE = b"*"


def _attribute_writes_in(raw: bytes) -> Iterator[tuple[bytes, str]]:
    """Yield each attribute a file's bytes may set with the object it is set on: the plain
    name (`args` in `args.model = m`), or "?" (an expression, a computed name's owner not
    read); `ANY_ATTRIBUTE` for a write by a computed name (`setattr(cfg, key, v)`)."""
    for match in _ATTRIBUTE_WRITE.finditer(raw):
        # The name before the dot; blanks between them read as a write on an object other
        # than `self` too (the dot is where a write may start).
        start = match.start()
        owner = _OWNER.search(raw, max(0, start - _OWNER_SPAN), start)
        yield match.group(1), _owner_name(raw, owner)
    yield from _computed_writes(raw)


def _odd_names(raw: bytes) -> set[bytes]:
    """Return the attributes named in the shapes `_ODD_WRITES` and `_TARGET_LIST` find in a
    file's bytes: a file naming one is parsed (`_odd_writes`) when a write of it matters."""
    found = {
        name
        for pattern in _ODD_WRITES
        for match in pattern.finditer(raw)
        for name in _DOTTED_NAME.findall(match[0])
    }
    for match in _TARGET_LIST.finditer(raw):
        if b"." in match[0] and not _CALLED.search(match[0]):
            found.update(_DOTTED_NAME.findall(match[0]))
    return found


class _FileWrites:
    """The writes of each attribute one file's bytes hold (each owner's name, "?"), the shapes
    the dot scan cannot read included: the file is parsed when one of them names the attribute
    asked for (`_odd_names`), and each reading is made once."""

    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.odd = _odd_names(raw)
        self._scanned: dict[bytes, list[bytes]] | None = None
        self._parsed: dict[bytes, list[bytes]] | None = None

    def of(self, name: bytes) -> list[bytes]:
        if name in self.odd:
            if self._parsed is None:
                self._parsed = _owners_by_attribute(_odd_writes(self.raw))
            return self._parsed.get(name, [])
        if self._scanned is None:
            self._scanned = _owners_by_attribute(_attribute_writes_in(self.raw))
        return self._scanned.get(name, [])


def _owners_by_attribute(found: Iterable[tuple[bytes, str]]) -> dict[bytes, list[bytes]]:
    owners: dict[bytes, list[bytes]] = {}
    for attr, owner in found:
        owners.setdefault(attr, []).append(owner.encode())
    return owners


def _computed_writes(raw: bytes) -> Iterator[tuple[bytes, str]]:
    """Yield the writes by a computed name (`_SETATTR_CALL`, `_VARS_WRITE`, `_DICT_WRITE`) a
    file's bytes hold, as `_attribute_writes_in` does; one on `self` sets an attribute of the
    method's own instance (`_writes_by_name` reads those in a class's modules)."""
    found: list[tuple[bytes | None, str]] = []
    if b"setattr" in raw:
        for match in _SETATTR_CALL.finditer(raw):
            found.append((match.group(2), match.group(1).strip().decode("ascii", "replace")))
    if b"vars" in raw:
        for match in _VARS_WRITE.finditer(raw):
            found.append((None, match.group(1).strip().decode("ascii", "replace")))
    if b"__dict__" in raw:
        for match in _DICT_WRITE.finditer(raw):
            start = match.start()
            before = _OWNER.search(raw, max(0, start - _OWNER_SPAN), start)
            found.append((None, _owner_name(raw, before)))
    for attr, held in found:
        name = held if held.isidentifier() else "?"
        if attr is not None:
            yield attr, "?"  # as `_SETATTR` reads it: on any object
        elif name != "self":
            yield ANY_ATTRIBUTE, name


def _odd_writes(raw: bytes) -> list[tuple[bytes, str]]:
    """Return the attributes a file's syntax tree stores or deletes, with their owners
    (`_attribute_writes_in`), computed names too; the dot scan's and `_SETATTR`'s reading
    when it cannot be parsed."""
    text = python_text(raw)
    tree = _quiet_parse(text if text is not None else raw)
    if tree is None:
        return [*_attribute_writes_in(raw), *((m.group(1), "?") for m in _SETATTR.finditer(raw))]
    found = list(_computed_writes(raw))
    found.extend((m.group(1), "?") for m in _SETATTR.finditer(raw))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load):
            owner = node.value.id if isinstance(node.value, ast.Name) else "?"
            found.append((node.attr.encode("utf-8", "surrogatepass"), owner))
    return found


# A metaclass (a class deriving from `type` or from a name holding `Meta`: `ABCMeta`,
# `ModelMetaclass`) or a class method whose first parameter is named `self`: where `self.attr = m`
# may set an attribute of a class.
_SELF_MAY_BE_A_CLASS = re.compile(
    rb"^[ \t]*class[ \t]+\w+[ \t]*\([^)]*\b(?:type|\w*Meta\w*)\b"
    rb"|@classmethod\s+(?:async[ \t]+)?def[ \t]+\w+[ \t]*\([ \t]*self\b",
    re.MULTILINE,
)


def _owner_name(raw: bytes, owner: re.Match[bytes] | None) -> str:
    """Return the plain name an attribute write is made on (`args` in `args.model = m`), "?"
    when it is not one: an expression (`get().model`), blanks or a line break before the dot,
    or a name spelled with characters outside ASCII (its NFKC form is another name)."""
    if owner is None or not owner.group(1) or owner.group(2):
        return "?"
    start = owner.start(1)
    if start and (raw[start - 1] >= 0x80 or raw[start - 1 : start] == b"."):
        return "?"  # `ｘself.model` (another name), `obj.self.model` (an attribute's object)
    return owner.group(1).decode()


def _text_held_apart(data: bytes | str | None, name: str, home: bool) -> bool:
    """`handed.held_apart` over a file's bytes as Python decodes them (not read: handed on)."""
    if data is None:
        return False
    if isinstance(data, bytes):
        if data.isascii() and name.encode() not in data:
            return True
        text = python_text(data)
        if text is None:
            return False
        data = text
    return held_apart(data, name, home)


def _writes_by_name(raw: bytes) -> bool:
    """Return whether a module's bytes may set an attribute by a computed name (`setattr`,
    `__dict__`, `vars(...)`, `__setattr__`): no write of it is then known by its spelling."""
    return any(word in raw for word in (b"setattr", b"__dict__", b"vars(", b"__setattr__"))


_OWNER_SPAN = 256


def _setattr_named(name: bytes) -> re.Pattern[bytes]:
    """Return a pattern for `setattr(x, "name", ...)` (the name quoted, not computed)."""
    return re.compile(rb"setattr\([^,\n]{0,%d},[ \t]*[\"']" % _SPAN + re.escape(name) + rb"[\"']")


_SETATTR = re.compile(rb"setattr\([^,\n]{0,%d},[ \t]*[\"'](\w+)[\"']" % _SPAN)


_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+\(?([\w, \t]*)|import[ \t]+([\w.]+))",
    re.MULTILINE,
)


def imports_of(data: bytes, module: str, is_package: bool) -> set[str]:
    """Return the absolute module names a file's import lines name (read without parsing).

    `from pkg import name` gives both `pkg` and `pkg.name` (a submodule, maybe).
    """
    found: set[str] = set()
    lines = b"\n".join(line for line in data.splitlines() if b"import" in line)
    for match in _IMPORT.finditer(lines):
        source, names, plain = match.groups()
        if plain:
            found.add(plain.decode("ascii", "replace"))
            continue
        text = source.decode("ascii", "replace")
        level = len(text) - len(text.lstrip("."))
        base = _absolute_module(module, is_package, level, text[level:] or None)
        if base:
            found.add(base)
        for name in (names or b"").decode("ascii", "replace").replace("(", "").split(","):
            name = name.strip().split(" ")[0]
            if name.isidentifier():
                found.add(f"{base}.{name}" if base else name)
    return found


def _imports_beside(project: Project, path: Path, names: set[str], module: str) -> set[str]:
    """Return a file's imported module names as a script in its folder resolves them."""
    return {project.sibling(module, path.parent, name) for name in names}


def _absolute_module(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: max(0, len(parts) - (level - 1))]
    return ".".join([*parts, name] if name else parts)


_SUMMARY_KEYS = frozenset(
    {
        "set_attrs",
        "module",
        "package",
        "imports",
        "star_imports",
        "all",
        "assigns",
        "functions",
        "classes",
        "calls",
        "submodules",
        "import_choices",
    }
)


def build(
    files: Sequence[tuple[Path, bytes | str]],
    cwd: Path,
    cache: Any = None,
    seconds: float | None = None,
    wants_sites: Callable[[str], bool] | None = None,
    records_of: RecordsOf | None = None,
    seen: dict[str, bytes] | None = None,
) -> Project:
    """Summarise the files that can matter (and the project modules they import); solve.

    A file matters when it mentions Claude (the registry's markers), when a summarised module
    imports it, or when it imports a module that matters (found from its import lines without
    parsing): the set grows until nothing new joins, so a module that calls `ask()` and never
    says "anthropic" is found, and so is one calling a wrapper of that wrapper. `seen` holds
    what Python reads of the files read from disk (`python_reads`), when the caller has it.
    """
    # Listings are memoised within a run only: a long-lived process (the language server, a
    # test) sees the modules created since its last run.
    for memo in (
        _has_project_file,
        _is_package,
        _top_names,
        _entry_kind,
        _real_folder,
        _roots_above,
    ):
        memo.cache_clear()
    seen = python_reads(files) if seen is None else seen
    if _names_nothing(files, seen):
        # A large run where nothing names Claude: no module can give anything, and none is
        # read beyond the run's own files. Nothing is paid for the phase but this scan.
        return Project([], cwd)
    paths = [path for path, _ in files]
    project = Project(import_roots(paths), cwd, project_folders(paths))
    project.records_of = records_of
    project.cache = cache
    project.seconds = seconds
    project.given = {str(path): data for path, data in files}
    project.wants_sites = wants_sites
    pending = _add_naming_files(project, files, seen)
    project.solve()
    # However many files the tree holds: a bound on them would let a tree padded past it hide
    # every call of a wrapper made by a file that never names Claude. A file joins only when it
    # imports a module that gives something and spells a name one gives; testing the others
    # costs a word split and an import scan each (about 0.25 s for 20,000 small files).
    growth = _Growth(project, pending, len(files) <= DISK_READ_FILES)
    for _ in range(MAX_ROUNDS):
        if not growth.step():
            break
    return project


# A file of the run that does not name Claude: its path, its bytes as Python reads them, its
# module name and whether it is a package.
_Pending = tuple[Path, bytes, str, bool]


def python_reads(files: Sequence[tuple[Path, bytes | str]]) -> dict[str, bytes]:
    """Return the bytes of each file read from disk as Python reads them (`as_python_reads`:
    its cookie, NFKC identifiers), by path: what the phase's scans and the prefilter read."""
    return {str(path): as_python_reads(data) for path, data in files if isinstance(data, bytes)}


def _add_naming_files(
    project: Project, files: Sequence[tuple[Path, bytes | str]], seen: dict[str, bytes]
) -> list[_Pending]:
    """Summarise the files that name Claude; return the others that import something."""
    pending: list[_Pending] = []
    for path, data in files:
        # Scanned as Python reads the file (its cookie, NFKC identifiers), parsed from `data`.
        raw = seen.get(str(path)) if isinstance(data, bytes) else None
        if raw is None:
            raw = as_python_reads(
                data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
            )
        if _mentions(raw, SCAN_MARKERS):
            _add_file(project, path, data)
            continue
        named = module_name(path, project.roots)
        if named is not None and b"import" in raw:
            pending.append((path, raw, *named))
    return pending


class _Growth:
    """The files and modules that join the project, round by round (`build`)."""

    def __init__(self, project: Project, pending: list[_Pending], read_disk: bool) -> None:
        self.project = project
        self.pending = pending
        # Whether the modules the run's files import are read from disk (a run over few files).
        self.read_disk = read_disk
        self.matters: dict[str, bool] = {}
        self.imports: dict[int, set[str]] = {}
        self.spellings: dict[int, _Spelling] = {}

    def step(self) -> bool:
        """Grow the project by one round; return whether anything joined."""
        project = self.project
        # Modules the remaining files import that name Claude join first (a run over a few
        # files reads them from disk); then the files importing a module with facts to give.
        before = len(project.summaries)
        if self.read_disk:
            for item in self.pending:
                for name in self.imported(item):
                    self.summarised(name)
        if len(project.summaries) != before:
            project.solve()
        # A file joins when a module it imports gives something and it spells a name some
        # module gives. Only the modules the remaining files import are derived here; the
        # others only when a file's own imports' names are not in it (`_Spelled`).
        spelled = _Spelled(self)
        joined: list[_Pending] = []
        left: list[_Pending] = []
        for item in self.pending:
            (joined if self.joins(item, spelled) else left).append(item)
        self.pending = left
        if not joined:
            return False
        for path, _read, _module, _package in joined:
            _add_file(project, path, project.given[str(path)], follow=True)
        project.solve()
        return True

    def summarised(self, name: str) -> bool:
        """Return whether a module is summarised, reading it from disk if it names Claude."""
        project = self.project
        if name in project.summaries:
            return True
        if name not in self.matters:
            found = project.module_path(name)
            self.matters[name] = False
            if found is not None:
                try:
                    data = found.read_bytes()
                except OSError:
                    data = b""
                seen = as_python_reads(data)
                if _mentions(seen, SCAN_MARKERS) or self.re_exports(name, found, seen):
                    added = _add_file(project, found, data)
                    if added is not None and added != name:
                        added = project._add_as(name, found, data, True)  # see `load`
                    self.matters[name] = added is not None
        return self.matters[name]

    def re_exports(self, name: str, path: Path, seen: bytes) -> bool:
        """Return whether a module star-imports one that gives something (`from .x import *`)."""
        if STAR_IMPORT not in seen:
            return False
        package = path.name == "__init__.py"
        found = _imports_beside(self.project, path, imports_of(seen, name, package), name)
        return any(self.summarised(other) and self.giving(other) for other in found)

    def giving(self, name: str) -> bool:
        return name in self.project.summaries and self.project.gives(self.project.derived(name))

    def joins(self, item: _Pending, spelled: _Spelled) -> bool:
        """Return whether a remaining file uses what a module gives: it imports a module that
        gives something, and spells a name some module gives (or star-imports, which
        re-exports every name without spelling one)."""
        giving = [name for name in sorted(self.imported(item)) if self.giving(name)]
        if not giving:
            return False
        return STAR_IMPORT in item[1] or spelled.in_data(self.words(item), giving)

    def words(self, item: _Pending) -> _Spelling:
        """Return the names a remaining file spells (read once, kept across rounds)."""
        if id(item) not in self.spellings:
            self.spellings[id(item)] = _Spelling(item[1])
        return self.spellings[id(item)]

    def imported(self, item: _Pending) -> set[str]:
        if id(item) not in self.imports:
            found = imports_of(item[1], item[2], item[3])
            self.imports[id(item)] = _imports_beside(self.project, item[0], found, item[2])
        return self.imports[id(item)]


class _Spelled:
    """The names an importer must spell to use what the project's modules give (`given_names`),
    derived module by module only as far as a file's test needs."""

    def __init__(self, growth: _Growth) -> None:
        self.growth = growth
        self.names: set[bytes] = set()
        self.seen: set[str] = set()
        self.left = iter(list(growth.project.summaries))

    def _add(self, module: str) -> set[bytes]:
        """Add the names a module gives (once); return them."""
        if module in self.seen:
            return set()
        self.seen.add(module)
        if not self.growth.giving(module):
            return set()
        found = self.growth.project.given_names(self.growth.project.derived(module))
        self.names.update(found)
        return found

    def in_data(self, spelling: _Spelling, first: list[str]) -> bool:
        """Return whether a file spells a name any module gives, `first` read first."""
        for module in first:
            self._add(module)
        if spelling.any_of(self.names):
            return True
        # Every module read so far was tested above: the others' names are tested as read.
        return any(spelling.any_of(self._add(module)) for module in self.left)


class _Spelling:
    """The names a file's bytes spell: an ASCII name as a whole word (`Beta` is not spelled by
    `BetaUsage`), any other as a substring (as Python reads the file; a word test in bytes
    cannot tell where a non-ASCII identifier ends)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.words = set(_WORD.findall(data))

    def any_of(self, names: set[bytes]) -> bool:
        if not names.isdisjoint(self.words):
            return True
        return any(not name.isascii() and name in self.data for name in names)


def _names_nothing(files: Sequence[tuple[Path, bytes | str]], seen: dict[str, bytes]) -> bool:
    """Return whether a large run holds no file naming Claude (then the phase has nothing)."""
    return len(files) > DISK_READ_FILES and not any(
        _mentions(
            data.encode("utf-8", "surrogatepass")
            if isinstance(data, str)
            else seen.get(str(path)) or as_python_reads(data),
            MARKERS,
        )
        for path, data in files
    )


def _add_file(
    project: Project, path: Path, data: bytes | str, follow: bool = False, scan: bool = True
) -> str | None:
    """Summarise a file; its imports are summarised too when `follow` (see `Project.followed`).

    `scan`: its calls are read by the fixed point (else only its names, when asked for).
    """
    if isinstance(data, bytes):
        decoded = python_text(data)  # as Python decodes it: BOM and coding cookie
        if decoded is None:
            return None
        text = decoded
    else:
        text = data
    name = project.add(path, text, joined=follow)
    if name is not None and follow:
        project.followed.add(name)
    if name is not None and scan:
        project.scanned.add(name)
    return name


def _follow_imports(project: Project) -> None:
    """Summarise the project modules that followed modules import (read from disk if need be).

    One step from each module that makes a Claude call or joined the project: a settings module
    they import is read for its constants, its own imports are not. Anything further (a
    re-export, a wrapper's module) is summarised when a name of it is asked for
    (`Project.load`).
    """
    for module in sorted(project.followed - project.followed_through):
        project.followed_through.add(module)
        for other in sorted(project.imported_modules(module)):
            project.load(other)


def read_files(paths: Sequence[str], texts: dict[str, str]) -> list[tuple[Path, bytes | str]]:
    """Return (path, bytes or text) for the Python files of a run, skipping unreadable ones."""
    found: list[tuple[Path, bytes | str]] = []
    for path in paths:
        if path in texts:
            found.append((Path(path), texts[path]))
            continue
        try:
            # Never blocks on a FIFO or reads a device: the same read as the file phase's.
            found.append((Path(path), read_regular(path)))
        except OSError:
            continue
    return found


def notebook_modules(jobs: Sequence[Any], broken: set[str]) -> list[tuple[Path, bytes | str]]:
    """Return (path, module text) for the notebooks of a run: their code cells as the one module
    the checks read (`notebook.module.CellModule`), so that the phase's positions are the
    checks' own. A notebook that does not load, or is not Python, is left to its processor;
    the path of one with a cell that does not compile is added to `broken`."""
    from claude_migrate.notebook.document import NotebookError, load, not_python
    from claude_migrate.notebook.module import CellModule

    found: list[tuple[Path, bytes | str]] = []
    for job in jobs:
        try:
            data = job.text if job.text is not None else read_regular(job.path)
            notebook = load(data)
        except (OSError, NotebookError):
            continue
        if not_python(notebook) is not None:
            continue
        module = CellModule.build(notebook)
        if any(problem.is_error for problem in module.problems):
            broken.add(job.path)
        if module.parts:
            found.append((Path(job.path), module.text))
    return found


def cwd() -> Path:
    return Path(os.getcwd()).resolve()


# Set to "0" to skip the project phase (each file resolved alone): for measuring what the phase
# costs (bench/run.py), never for a real gate, since cross-module findings are then missed.
SWITCH = "CLAUDE_MIGRATE_PROJECT"


def enabled() -> bool:
    """Return whether the project phase runs (on unless `CLAUDE_MIGRATE_PROJECT=0`)."""
    return os.environ.get(SWITCH, "1").strip() not in ("0", "off", "false", "no")


def attach_project(
    jobs: Sequence[Any],
    cache: Any = None,
    reads: dict[str, bytes] | None = None,
    read_sites_of: dict[str, tuple[str, Sites]] | None = None,
    seconds: float | None = None,
    wants_sites: Callable[[str], bool] | None = None,
    records_of: RecordsOf | None = None,
    seen: dict[str, bytes] | None = None,
    unnamed: set[str] | None = None,
) -> list[Any]:
    """Return the jobs with the project phase's view of each Python file attached.

    The Python files of the run (with the text given for stdin) are the project's; modules they
    import are read from disk under the import roots, so a run over a few files (a pre-commit
    hook) still resolves through the modules those files use, and reports only on them.

    With a result cache, the views are stored under a key made of every input's path and bytes;
    the files read from disk beyond the run's are recorded with their hashes and checked on the
    way back, so a warm run over an unchanged tree neither parses nor solves anything.
    The bytes read for the phase are left in `reads` (path -> bytes) for the file phase, so
    each file is read once; what the triage reads of each file the phase parsed is left in
    `read_sites_of` (path -> (the text parsed, `triage.Sites`)), so it is parsed once too;
    `wants_sites` (path -> bool) says which files the triage will read, when only some.
    What Python reads of each file read from disk (`python_reads`) is left in `seen` for the
    prefilter, which then reads those bytes rather than decoding the file again. When a large
    run names Claude nowhere, the paths of those files are left in `unnamed`: their bytes in
    `seen` hold none of `targets.MARKERS`, which the prefilter then need not look for again.
    """
    from dataclasses import replace

    python = [job for job in jobs if job.kind == "python"]
    notebooks = [job for job in jobs if job.kind == NOTEBOOK_KIND]
    if not (python or notebooks) or not enabled():
        return list(jobs)
    texts = {job.path: job.text for job in python if job.text is not None}
    files = read_files([job.path for job in python], texts)
    broken: set[str] = set()
    files += notebook_modules(notebooks, broken)
    if reads is not None:
        reads.update((str(path), data) for path, data in files if isinstance(data, bytes))
    as_read = python_reads(files)
    if seen is not None:
        seen.update(as_read)
    if _names_nothing(files, as_read):
        if unnamed is not None:
            unnamed.update(as_read)
        return list(jobs)  # every view would be empty: nothing to build, cache or hash
    key = _run_key(files) if cache is not None else ""
    views = _cached_views(cache, key)
    if views is None:
        # The phase makes no reference cycles (`ast` trees and plain-data summaries are freed
        # by reference counting), so the cyclic collector's passes over its growing heap are
        # pure cost: about 15% of the phase's CPU on the SDK's source. Off while it runs.
        collecting = gc.isenabled()
        gc.disable()
        try:
            project = build(files, cwd(), cache, seconds, wants_sites, records_of, as_read)
        finally:
            if collecting:
                gc.enable()
        views = {
            str(path): project.view(str(path), data if isinstance(data, (str, bytes)) else None)
            for path, data in files
        }
        _store_views(cache, key, files, project, views)
        if read_sites_of is not None:
            for path, data in files:
                module = project.files.get(str(path))
                sites = project.sites.get(module) if module is not None else None
                if sites is not None:
                    text = data if isinstance(data, str) else python_text(data)
                    if text is not None:
                        read_sites_of[str(path)] = (text, sites)
    out = []
    for job in jobs:
        view = views.get(job.path) if job.kind in ("python", NOTEBOOK_KIND) else None
        if view is not None and job.path in broken:
            # A cell that does not compile is left out of the module the phase read; such a
            # notebook is parsed for its own Claude markers only, as a broken Python file is.
            view = replace(view, relevant=False)
        out.append(replace(job, project=view) if view is not None else job)
    return out


# The largest module read in the run's own process: the bound above which the engine parses a
# file only in a worker (`engine.hazard.MAX_IN_PROCESS_BYTES`), kept equal to it.
MAX_IN_PROCESS_BYTES = 512 * 1024


def _read_module(
    text: str, name: str, is_package: bool, with_sites: bool = True, seconds: float | None = None
) -> tuple[dict[str, Any] | None, Sites | None]:
    """Parse a module once; return its summary and what the triage reads of it (or Nones).

    In the run's own process, so within the per-file limits: a module larger than
    `MAX_IN_PROCESS_BYTES` (its `ast` alone would cost this process gigabytes) is not
    summarised, and one whose reading runs past `seconds` raises OverTime. It is still checked,
    in a worker with the limits, as a file alone; what other modules could use of it is lost.
    """
    if len(text) > MAX_IN_PROCESS_BYTES:
        return None, None
    with deadline(seconds):  # OverTime goes up: `Project._summary` does not remember it
        return _parse_module(text, name, is_package, with_sites)


def _quiet_parse(text: str | bytes) -> ast.Module | None:
    """Return a module's syntax tree, its warnings (an invalid escape) silenced; None for text
    Python cannot parse, or whose parse runs out of depth or memory."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _parse_module(
    text: str, name: str, is_package: bool, with_sites: bool
) -> tuple[dict[str, Any] | None, Sites | None]:
    tree = _quiet_parse(text)
    if tree is None:
        return None, None
    summary = summarise_tree(tree, name, is_package)
    if summary is None or not with_sites:
        return summary, None
    try:
        return summary, read_sites(tree, text)
    except RecursionError:
        return summary, None


def _hash(data: bytes | str) -> str:
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _run_key(files: Sequence[tuple[Path, bytes | str]]) -> str:
    digest = hashlib.blake2b(f"project:{cwd()}".encode(), digest_size=20)
    for path, data in sorted(files, key=lambda item: str(item[0])):
        digest.update(f"{path}\0{_hash(data)}\0".encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def _cached_views(cache: Any, key: str) -> dict[str, ProjectView | None] | None:
    if cache is None:
        return None
    data = cache.load_data(key)
    try:
        if _any_exists(data["absent"]):
            return None  # a module the views were built without exists now
        for path, digest in data["read"].items():
            try:
                current = read_regular(path)  # never blocks on a file swapped for a FIFO
            except OSError:
                return None
            if _hash(current) != digest:
                return None
        return {
            path: ProjectView(str(v[0]), dict(v[1]), str(v[2]), bool(v[3])) if v else None
            for path, v in data["views"].items()
        }
    except Exception:  # a torn or foreign entry is a miss, whatever is wrong with it
        return None


def _any_exists(paths: Iterable[str]) -> bool:
    """Return whether any of `paths` exists (a dangling link counts): each folder holding them
    is listed once, rather than each path looked up."""
    by_folder: dict[str, list[str]] = {}
    for path in paths:
        folder, name = os.path.split(path)
        by_folder.setdefault(folder, []).append(name)
    for folder, names in by_folder.items():
        try:
            listed = set(os.listdir(folder))
        except (FileNotFoundError, NotADirectoryError):
            continue  # nothing exists under a folder that does not
        except OSError:
            # A folder that cannot be listed may still be searched: look each name up.
            if any(os.path.lexists(os.path.join(folder, name)) for name in names):
                return True
            continue
        if not listed.isdisjoint(names):
            return True
    return False


def _store_views(
    cache: Any,
    key: str,
    files: Sequence[tuple[Path, bytes | str]],
    project: Project,
    views: dict[str, ProjectView | None],
) -> None:
    if cache is None:
        return
    given = {str(path) for path, _ in files}
    read: dict[str, str] = {}
    for path in project.files:
        if path not in given:
            try:
                read[path] = _hash(Path(path).read_bytes())
            except OSError:
                return
    payload = {
        "read": read,
        "absent": project.absent(),
        "views": {
            path: [v.module, v.modules, v.digest, v.relevant] if v is not None else None
            for path, v in views.items()
        },
    }
    cache.store_data(key, payload)
