"""What a field of an options object is, where the object is made and passed to a wrapper.

The project phase proves paths into a wrapper's parameter that reach a Claude call
(`options.model_id`, `options.inference_config[maxTokens]`): a field of a dataclass, pydantic
model, NamedTuple or plain class, or a key of a dict. At the wrapper's call site the object passed
is followed to where it is made in this module (`AgentOptions(model_id=..., inference_config=
{...})`, inline, bound once to a name, or held by an attribute of `self` its class sets once:
`self.options = AgentOptions(...)`), and the field's argument (or the dict's entry) becomes
the call's entry: the finding is where the literal is written, and so is the fix. A field the call
does not pass has the class's default when the project phase proved it; a default of `None`
(or any falsy value) read through `options.model_id or DEFAULT_MODEL` is that fallback constant.
Anything else (an object made elsewhere, `**kwargs`, a subclass) stays unknown.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.symbols import LocalClass, ProjectClass
from claude_migrate.analysis.values import Entry, Value, fallback_parts
from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.scope import Scope
    from claude_migrate.analysis.symbols import Resolver
else:
    cst = lazy_import("libcst")

MAX_FOLLOW = 8
_STEP = re.compile(r"\.(\w+)|\[([^\]]*)\]")


def split_path(name: str) -> tuple[str, list[tuple[str, str]]] | None:
    """Return a parameter path's parameter and its steps (("attr", x) / ("key", k)), if a path."""
    match = re.match(r"^(\w+)(.+)$", name)
    if match is None:
        return None
    steps: list[tuple[str, str]] = []
    rest = match.group(2)
    position = 0
    for step in _STEP.finditer(rest):
        if step.start() != position:
            return None
        position = step.end()
        steps.append(
            ("attr", step.group(1)) if step.group(1) is not None else ("key", step.group(2))
        )
    if position != len(rest) or not steps:
        return None
    return match.group(1), steps


class FieldReader:
    """Follows an argument of a wrapper call to the options object or dict it is made from."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.values = resolver.values

    def entry(
        self,
        name: str,
        node: cst.BaseExpression,
        scope: Scope,
        fallback: list[Any] | None,
    ) -> Entry | None:
        """Return the entry a parameter path reads from the expression passed for its parameter."""
        split = split_path(name)
        if split is None:
            return None
        found = self._walk(name, node, scope, split[1], 0)
        if fallback is not None and len(fallback) > 2:
            # `config.get("model", DEFAULT)`: the default is read when the dict has no such key.
            if found is not None or not self._lacks(node, scope, split[1]):
                return found
            value, label = fallback[0], fallback[1]
            where = f"{label}, " if label else ""
            via = f"{where}the default when {name} is absent"
            return Entry(name, node, node, Value(True, value, None, via), None)
        if found is None or fallback is None or not found.value.known or found.value.value:
            return found
        # `options.model_id or DEFAULT_MODEL` with a falsy field: the constant is what is sent.
        value, label = fallback
        where = f"{label}, " if label else ""
        via = f"{where}the fallback when {name} is {found.value.value!r}"
        return Entry(
            name, found.holder, found.value_node, Value(True, value, None, via), found.container
        )

    def _lacks(self, node: cst.BaseExpression, scope: Scope, steps: list[tuple[str, str]]) -> bool:
        """Return whether the dict an argument is made from proves a key absent."""
        if len(steps) != 1 or steps[0][0] != "key":
            return False
        node, scope = self._follow(node, scope)
        made = self.values.dict_node(node, scope)
        entries = self.values.entries_of_dict(made[0], made[1]) if made is not None else None
        key = steps[0][1]
        return (
            entries is not None
            and not entries.opaque
            and key not in entries.items
            and key not in entries.unknown_keys
        )

    def _follow(
        self, node: cst.BaseExpression, scope: Scope, names: list[str] | None = None
    ) -> tuple[cst.BaseExpression, Scope]:
        """Return the expression a name is bound to once (`opts = AgentOptions(...)`), or an
        attribute of `self` its class, and no subclass of it here, sets once
        (`self.config = PlannerConfig()`); `names` gets each name followed."""
        for _ in range(MAX_FOLLOW):
            if isinstance(node, cst.Attribute):
                held = self.values.held_object(node, scope)
                if held is None:
                    break
                node, scope = held
                continue
            if isinstance(node, cst.BooleanOperation):
                # `LLM(options or Options())` where an in-project call leaves `options` out:
                # the object made then is what the call hands on.
                parts = fallback_parts(node)
                if (
                    parts is None
                    or len(parts) != 2
                    or not isinstance(parts[0], cst.Name)
                    or not self.values.relied(parts[0].value, scope)
                ):
                    break
                node = parts[1]
                continue
            if not isinstance(node, cst.Name):
                break
            if names is not None:
                names.append(node.value)
            made = self.values.made_object(node.value, scope)
            if made is None:
                break
            node, scope = made
        return node, scope

    def _walk(
        self,
        name: str,
        node: cst.BaseExpression,
        scope: Scope,
        steps: list[tuple[str, str]],
        depth: int,
    ) -> Entry | None:
        names: list[str] = []
        node, scope = self._follow(node, scope, names)
        kind, key = steps[0]
        rest = steps[1:]
        if kind == "key":
            made = self.values.dict_node(node, scope)
            if made is None:
                return None
            entries = self.values.entries_of_dict(made[0], made[1])
            if entries is None:
                return None
            item = entries.items.get(key)
            if item is None:
                return None
            if rest:
                return self._walk(name, item.value_node, made[1], rest, depth + 1)
            return Entry(name, item.holder, item.value_node, item.value, item.container)
        if not isinstance(node, cst.Call):
            return None
        fields = self._fields(node, scope)
        if fields is not None and self._set_on_shared(scope, fields[1], key, names):
            return None
        param = fields[1]["attrs"].get(key) if fields is not None else None
        if fields is None or param is None:
            return None if rest else self._class_default(name, node, scope, key)
        cls, facts, module = fields
        arg = _argument(node, facts["params"], param)
        if arg is False:
            return None  # `*args` / `**kwargs` may pass it: unseen
        if arg is None:
            return self._default(name, node, (module, cls), steps, depth, names, _shared(scope))
        assert isinstance(arg, cst.Arg)
        if rest:
            return self._walk(name, arg.value, scope, rest, depth + 1)
        value = self.values.value(arg.value, scope)
        return Entry(name, arg, arg.value, value, node)

    def _default(
        self,
        name: str,
        node: cst.BaseExpression,
        made: tuple[str, str],
        steps: list[tuple[str, str]],
        depth: int,
        names: list[str],
        shared: bool,
    ) -> Entry | None:
        """Return the entry a path reads from the defaults of an object made with no argument
        for its field: the field's default, or, further down the path, the defaults of the
        object its `field(default_factory=Class)` makes (`Context()` read as
        `ctx.params.temperature`)."""
        module, cls = made
        project = self.resolver.project
        classes = project.modules.get(module, {}).get("classes", {}) if project else {}
        facts = classes.get(cls, {}).get("fields")
        kind, key = steps[0]
        if not facts or kind != "attr" or depth > MAX_FOLLOW:
            return None
        if shared and self._set_on_shared(None, facts, key, names):
            return None
        param = facts["attrs"].get(key)
        if param is None:
            return None
        if steps[1:]:
            factory = facts.get("factories", {}).get(key)
            if not factory:
                return None
            made = (factory[0], factory[1])
            return self._default(name, node, made, steps[1:], depth + 1, names, shared)
        default = facts["defaults"].get(param)
        if default is None:
            return None
        via = f"the default of {cls}.{key}"
        # Another module's class whose default the phase reports there, once, with the
        # Claude calls reading it as related places (`local = Settings()` made here).
        reported = self._reported(module, f"{cls}.{key}")
        value = Value(True, default[0], None, via, elsewhere=reported)
        return Entry(name, node, node, value, None)

    def _set_on_shared(
        self, scope: Scope | None, facts: dict[str, Any], key: str, names: list[str]
    ) -> bool:
        """Return whether a field of an object made once and shared (`_shared`; `scope` None:
        known to be) may be set after it is made: some other file sets the field on an object
        (the project phase's `outside`, by file), or this file sets it on a name the object
        was followed through (`DEFAULTS.temperature = 0.1`), or a name it was read through may
        be bound to another object (the phase's `rebound`). An object written in the
        argument that hands it on (`Agent(config=ModelConfig(model=...))`, no name followed)
        has no name another file could set its field through: it is not shared."""
        if scope is not None and (not names or not _shared(scope)):
            return False
        if names and names[-1] in facts.get("rebound", ()):
            return True  # bound to another object after (`config.settings = Settings(...)`)
        writers = facts.get("outside", {}).get(key)
        if not writers:
            return False
        project = self.resolver.project
        own = project.modules.get(project.module, {}).get("path") if project else None
        if any(writer != own and self._may_reach(facts, key, writer, names) for writer in writers):
            return True
        module = self.resolver.index.module_scope
        return module is None or any((name, key) in module.attribute_sets for name in names)

    @staticmethod
    def _may_reach(facts: dict[str, Any], key: str, writer: str, names: list[str]) -> bool:
        """Return whether a file that sets the field on some object may set it on this one: the
        object was followed through a module-level name no file hands on (the phase's `kept`),
        so only a write spelling a name it was followed through (or not made on a plain name)
        can reach it (`settings.model = m`, not `args.model = m`)."""
        if not names or names[-1] not in facts.get("kept", ()):
            return True
        owners = facts.get("owners", {}).get(key, {}).get(writer)
        return owners is None or "?" in owners or any(name in owners for name in names)

    def _class_default(self, name: str, node: cst.Call, scope: Scope, key: str) -> Entry | None:
        """Return the entry of `settings.TEMPERATURE` on an object of a plain settings class
        (`Settings()`): the literal its class body writes, as the project phase proved it
        (`instance_defaults`: no method, property or other file sets it)."""
        made = self._class_of(node, scope)
        if made is None:
            return None
        module, cls, facts = made
        default = facts.get("instance_defaults", {}).get(key)
        if default is None:
            return None
        reported = self._reported(module, f"{cls}.{key}")
        value = Value(True, default[0], None, f"{cls}.{key}", elsewhere=reported)
        return Entry(name, node, node, value, None)

    def fields_of(self, call: cst.Call, scope: Scope) -> tuple[str, dict[str, Any]] | None:
        """Return the options class a call makes and its fields, as the project phase read them."""
        found = self._fields(call, scope)
        return None if found is None else found[:2]

    def _reported(self, module: str, constant: str) -> bool:
        """Return whether the phase reports a class default of another module where it is."""
        project = self.resolver.project
        if project is None or module == project.module:
            return False
        return constant in project.modules.get(module, {}).get("read_by", {})

    def _fields(self, call: cst.Call, scope: Scope) -> tuple[str, dict[str, Any], str] | None:
        """Return the options class a call makes and how its fields are passed."""
        made = self._class_of(call, scope)
        facts = made[2].get("fields") if made is not None else None
        return (made[1], facts, made[0]) if made is not None and facts else None

    def _class_of(self, call: cst.Call, scope: Scope) -> tuple[str, str, dict[str, Any]] | None:
        """Return the module, name and phase facts of the project class a call makes."""
        project = self.resolver.project
        if project is None:
            return None
        made = self.resolver.resolve(call.func, scope)
        if isinstance(made, LocalClass):
            module, cls = project.module, made.info.scope.qualname
        elif isinstance(made, ProjectClass):
            module, cls = made.module, made.name
        else:
            return None
        return module, cls, project.modules.get(module, {}).get("classes", {}).get(cls, {})


def _shared(scope: Scope) -> bool:
    """Return whether an object made in `scope` is made once and shared by every call reading
    it: at module level or in a class body (`DEFAULTS = Options()`), or as a parameter's
    default, which is evaluated there."""
    return scope.kind in ("module", "class")


def _argument(call: cst.Call, params: list[list[str]], wanted: str) -> cst.Arg | None | bool:
    """Return the argument a call passes for a parameter: None when absent, False when unseen."""
    positional = [name for name, kind in params if kind == "positional"]
    index = 0
    starred = False
    for arg in call.args:
        if arg.star:
            starred = True
            continue
        if arg.keyword is not None:
            if arg.keyword.value == wanted:
                return arg
            continue
        if index < len(positional) and positional[index] == wanted:
            return arg
        index += 1
    return False if starred else None
