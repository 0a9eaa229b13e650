"""What a name or an expression is during the project phase: one small value per kind.

The fixed point (`phase.py`) evaluates the expressions of module summaries to these; they never
leave the run's own process. What crosses to worker processes and the cache is the plain JSON
data `phase._plain` makes of them (`["client", cls]`, `["func", module, qual]`...), unchanged.
`None` is an unknown value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias


@dataclass(frozen=True, slots=True)
class Client:
    """A Claude client (or a boto3 bedrock-runtime client) of class `cls`, attributes `path`.

    `Client("anthropic.Anthropic", ("beta",))` is `client.beta`. `only`, on a client that may
    be another vendor's instead (a provider switch: `OpenAI()` or `Anthropic()`), names the
    attributes only the Claude client has: through one of them it is Claude's, through any
    other attribute it is unknown. `server`, on a first-party client sent to a server of other
    models only, is its base URL: its calls are Claude's only with a Claude model.
    """

    cls: str
    path: tuple[str, ...] = ()
    only: frozenset[str] | None = None
    server: str = ""


@dataclass(frozen=True, slots=True)
class Foreign:
    """An object a known call outside the project made (another vendor's client...)."""

    qualname: str


@dataclass(frozen=True, slots=True)
class Const:
    """A literal value (a string, a number, `None`, a literal list...)."""

    value: Any


@dataclass(frozen=True, slots=True)
class Ref:
    """A module or object outside the project, by its import path."""

    qualname: str


@dataclass(frozen=True, slots=True)
class Module:
    """A project module."""

    name: str


@dataclass(frozen=True, slots=True)
class Func:
    """A project function or method (unbound), by its module and qualified name."""

    module: str
    qual: str


@dataclass(frozen=True, slots=True)
class Bound:
    """A method of a project object: the method, and the class of the object it runs on."""

    module: str
    qual: str
    receiver_module: str
    receiver: str
    # `self.ask()` and `super().__init__()` in a method run on an instance of the class or of
    # any subclass of it; `Chat().ask()` on a Chat.
    below: bool = False


@dataclass(frozen=True, slots=True)
class Class:
    """A project class."""

    module: str
    name: str


@dataclass(frozen=True, slots=True)
class Obj:
    """An instance of a project class."""

    module: str
    name: str


@dataclass(frozen=True, slots=True)
class SelfParam:
    """The first parameter of a method of a project class (`self`)."""

    module: str
    name: str


@dataclass(frozen=True, slots=True)
class Super:
    """`super()` in a method of a project class: methods are looked up after the class."""

    module: str
    name: str


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter of a project function, or a path into what it holds.

    `name` may be a path into an options object or a dict passed there: `options.model_id`,
    `config[maxTokens]`.
    """

    module: str
    qual: str
    name: str


@dataclass(frozen=True, slots=True)
class DictLit:
    """A dict literal (`{key: expression}` of a summary), read in the function that wrote it."""

    entries: dict[str, list[Any]]
    module: str
    function: str | None
    # Some keys are not literal strings (`{**base, key: v}`): an item by an unknown key is unknown.
    opaque: bool = False
    # Names spread into it (`{**kwargs}`, `d.update(kwargs)`): what they hold joins the dict.
    spreads: tuple[str, ...] = ()
    # Keys given only under control flow (`if x: d["temperature"] = t`): on the other paths
    # the dict has no such key.
    maybe: tuple[str, ...] = ()
    # Entries a later spread of keys not all seen may replace (`{"temperature": t, **extra}`),
    # not among `entries`: key -> [the value written, [each spread after it]].
    shadowed: dict[str, list[Any]] | None = None


@dataclass(frozen=True, slots=True)
class Items:
    """A module-level dict filled item by item (`clients[key] = make()`): what an item is."""

    of: Sym


@dataclass(frozen=True, slots=True)
class Choice:
    """One of several project classes, objects or functions, chosen at run time.

    `{"claude": ClaudeBackend, "echo": EchoBackend}[kind]()` is an instance of either class: a
    method called on it may run either class's method, so each learns from the call.
    """

    options: tuple[Sym, ...]


Sym: TypeAlias = (
    Client
    | Foreign
    | Const
    | Ref
    | Module
    | Func
    | Bound
    | Class
    | Obj
    | SelfParam
    | Super
    | Param
    | DictLit
    | Items
    | Choice
    | None
)
