"""What names mean in one module, collected in a single traversal.

This is a deliberately small scope analysis: imports, assignments, parameters (with their
annotations), `self.<attr>` assignments, `name[key] = value` mutations, function returns and every
call, per module/class/function scope. LibCST's ScopeProvider + QualifiedNameProvider compute the
same facts for every name of the file at about 7x the cost of the parse (LibCST 1.9, 2 cores);
the call-site resolver only ever follows a handful of names, so it asks this index instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from claude_migrate.core.lazy import lazy_import

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

ScopeKind = Literal["module", "class", "function", "lambda", "comprehension"]
BindingKind = Literal[
    "import", "assign", "param", "def", "class", "with", "annotation", "loop", "unknown"
]


@dataclass(eq=False)
class Binding:
    """One place a name gets a value."""

    kind: BindingKind
    scope: Scope
    order: int
    value: cst.BaseExpression | None = (
        None  # assign/with: the value; param/annotation: the annotation
    )
    qualname: str = ""  # import: the dotted name it stands for
    node: cst.CSTNode | None = None  # def/class: the definition; assign: the target
    nested: bool = False  # inside if/for/while/try/with/match within its scope
    default: cst.BaseExpression | None = None  # param: its default value
    # The branches it sits in (`Branch`es, outermost first), to tell which reads it can reach.
    path: tuple[Branch, ...] = ()


@dataclass(frozen=True)
class Branch:
    """One branch of a compound statement: the statement (an `if`/`elif` chain counts as one),
    which of its branches, and whether its branches exclude each other (`if`, `match`)."""

    statement: int
    label: str
    exclusive: bool


def may_reach(written: tuple[Branch, ...], read: tuple[Branch, ...]) -> bool:
    """Return whether code in branch path `written` can run before code in `read` on one path:
    not when they sit in two branches of one `if` chain or `match`."""
    for mine, theirs in zip(written, read, strict=False):
        if mine == theirs:
            continue
        return not (
            mine.statement == theirs.statement and mine.exclusive and mine.label != theirs.label
        )
    return True


def always_before(written: tuple[Branch, ...], read: tuple[Branch, ...]) -> bool:
    """Return whether code in branch path `written`, written before `read`, runs on every path
    to it (its branches are all `read`'s own)."""
    return len(written) <= len(read) and read[: len(written)] == written


@dataclass(eq=False)
class SubscriptSet:
    """`name[key] = value`, recorded for dicts later passed as `**name`."""

    key: cst.BaseExpression
    value: cst.BaseExpression
    target: cst.Subscript
    statement: cst.CSTNode
    order: int
    nested: bool


@dataclass(eq=False)
class ClassInfo:
    node: cst.ClassDef
    scope: Scope  # the class body's scope
    # attribute -> bindings from `self.attr = ...` in methods and class-level assignments
    attributes: dict[str, list[Binding]] = field(default_factory=dict)
    # attribute -> the values `self.attr[key] = value` puts in it, in any method
    items: dict[str, list[Binding]] = field(default_factory=dict)


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    node: cst.CSTNode
    parent: Scope | None
    bindings: dict[str, list[Binding]] = field(default_factory=dict)
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    returns: list[cst.BaseExpression] = field(default_factory=list)
    subscript_sets: dict[str, list[SubscriptSet]] = field(default_factory=dict)
    # Names whose nested items are set here (`request["config"]["temperature"] = 1.0`).
    deep_sets: set[str] = field(default_factory=set)
    # On the module scope: `(name, attr)` of every `name.attr = ...` outside `self`, anywhere.
    attribute_sets: set[tuple[str, str]] = field(default_factory=set)
    class_info: ClassInfo | None = None  # for class scopes
    method_of: ClassInfo | None = None  # for methods: the class they are defined in
    self_name: str | None = None  # for methods: the first parameter's name
    qualname: str = ""  # "Outer.method", for baselines and messages
    # On the module scope: the libraries it star-imports (`from anthropic import *`), and the
    # names read through them (`lookup`).
    star_imports: list[str] = field(default_factory=list)
    star_bound: dict[str, list[Binding]] = field(default_factory=dict)

    def add(self, name: str, binding: Binding) -> None:
        if name in self.globals and self.parent is not None:
            module = self.module()
            module.bindings.setdefault(name, []).append(binding)
            return
        self.bindings.setdefault(name, []).append(binding)

    def module(self) -> Scope:
        scope = self
        while scope.parent is not None:
            scope = scope.parent
        return scope

    def lookup(self, name: str) -> list[Binding]:
        """Return the bindings `name` refers to from this scope (LEGB, skipping class bodies)."""
        if name in self.globals:
            return self.module().bindings.get(name, [])
        scope: Scope | None = self
        first = True
        while scope is not None:
            if scope.kind == "class" and not first:
                scope = scope.parent
                continue
            found = scope.bindings.get(name)
            if found:
                return found
            first = False
            if scope.parent is None and scope.star_imports:
                return scope.starred(name)
            scope = scope.parent
        return []

    def starred(self, name: str) -> list[Binding]:
        """Return a module's binding of `name` by a star import of a library that the target
        registry says exports it (`from anthropic import *`, then `Anthropic()`)."""
        if name not in self.star_bound:
            from claude_migrate.targets.registry import described

            self.star_bound[name] = [
                Binding("import", self, 0, qualname=f"{module}.{name}")
                for module in self.star_imports[-1:]
                if described(f"{module}.{name}")
            ]
        return self.star_bound[name]

    def function(self) -> Scope:
        """Return the nearest function or module scope (comprehensions and lambdas belong to it)."""
        scope = self
        while scope.kind in ("comprehension", "lambda") and scope.parent is not None:
            scope = scope.parent
        return scope


@dataclass(eq=False)
class CallRecord:
    """A call, where it sits, and in which statement."""

    node: cst.Call
    scope: Scope
    order: int
    statement: cst.CSTNode | None  # the innermost simple statement or compound header
    path: tuple[Branch, ...] = ()  # the branches it sits in
    # The chain of nodes from the statement down to the call (exclusive): what the call is in.
    awaited: bool = False


def _dotted(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def _target_names(target: cst.BaseExpression) -> list[cst.Name]:
    if isinstance(target, cst.Name):
        return [target]
    if isinstance(target, (cst.Tuple, cst.List)):
        names: list[cst.Name] = []
        for element in target.elements:
            names.extend(_target_names(element.value))
        return names
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


class ModuleIndex:
    """Collects scopes, bindings and calls of a module in one traversal.

    Its `visit_<Node>` / `leave_<Node>` hooks are called by `walk.walk` (no LibCST base class:
    importing this module must not import LibCST).
    """

    def __init__(self) -> None:
        self.module_scope: Scope | None = None
        self.scopes: list[Scope] = []
        self.calls: list[CallRecord] = []
        self.classes: list[ClassInfo] = []
        self.strings: list[cst.SimpleString] = []
        self._stack: list[Scope] = []
        self._order = 0
        self._nesting: list[int] = []  # control-flow depth per open scope
        self._statement: list[cst.CSTNode] = []
        self._await_targets: set[int] = set()
        # The branches the walk is in, and the `elif`s that continue an enclosing `if`'s chain.
        self._path: list[Branch] = []
        self._elifs: set[int] = set()
        # Each `if` (and `elif`) statement's test, by the statement's id (`Branch.statement`, or
        # the id an `elif` branch's label names).
        self.tests: dict[int, cst.BaseExpression] = {}

    @classmethod
    def build(cls, module: cst.Module) -> ModuleIndex:
        from claude_migrate.analysis.walk import walk

        index = cls()
        walk(module, index)  # LibCST's own visit rebuilds every node: as costly as the parse
        return index

    # Helpers ---------------------------------------------------------------------------------
    @property
    def scope(self) -> Scope:
        return self._stack[-1]

    def _tick(self) -> int:
        self._order += 1
        return self._order

    def _nested(self) -> bool:
        return bool(self._nesting and self._nesting[-1] > 0)

    def _push(self, kind: ScopeKind, node: cst.CSTNode, name: str = "") -> Scope:
        parent = self._stack[-1] if self._stack else None
        qual = ""
        if parent is not None and name:
            qual = f"{parent.qualname}.{name}" if parent.qualname else name
        elif parent is not None:
            qual = parent.qualname
        scope = Scope(kind=kind, node=node, parent=parent, qualname=qual)
        self._stack.append(scope)
        self.scopes.append(scope)
        self._nesting.append(0)
        return scope

    def _pop(self) -> None:
        self._stack.pop()
        self._nesting.pop()

    def _bind(self, name: str, binding: Binding) -> None:
        binding.path = tuple(self._path)
        self.scope.add(name, binding)

    # Scopes ----------------------------------------------------------------------------------
    def visit_Module(self, node: cst.Module) -> None:
        self.module_scope = self._push("module", node)

    def leave_Module(self, original_node: cst.Module) -> None:
        self._pop()

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._bind(
            node.name.value,
            Binding("class", self.scope, self._tick(), node=node, nested=self._nested()),
        )
        scope = self._push("class", node, node.name.value)
        info = ClassInfo(node=node, scope=scope)
        scope.class_info = info
        self.classes.append(info)

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        outer = self.scope
        self._bind(
            node.name.value,
            Binding("def", outer, self._tick(), node=node, nested=self._nested()),
        )
        scope = self._push("function", node, node.name.value)
        params = node.params
        ordered = [*params.posonly_params, *params.params, *params.kwonly_params]
        for extra in (params.star_arg, params.star_kwarg):
            if isinstance(extra, cst.Param):
                ordered.append(extra)
        for param in ordered:
            annotation = param.annotation.annotation if param.annotation else None
            scope.add(
                param.name.value,
                Binding("param", scope, self._tick(), value=annotation, default=param.default),
            )
        if outer.kind == "class" and outer.class_info is not None:
            is_static = any(
                isinstance(d.decorator, cst.Name) and d.decorator.value == "staticmethod"
                for d in node.decorators
            )
            first = [*params.posonly_params, *params.params]
            if first and not is_static:
                scope.method_of = outer.class_info
                scope.self_name = first[0].name.value

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._pop()

    def visit_Lambda(self, node: cst.Lambda) -> None:
        scope = self._push("lambda", node)
        for param in [*node.params.posonly_params, *node.params.params, *node.params.kwonly_params]:
            scope.add(param.name.value, Binding("param", scope, self._tick()))
        scope.returns.append(node.body)  # what a call of it returns, as a `def`'s `return`

    def leave_Lambda(self, original_node: cst.Lambda) -> None:
        self._pop()

    def _visit_comp(self, node: cst.CSTNode) -> None:
        self._push("comprehension", node)

    def _leave_comp(self, node: cst.CSTNode) -> None:
        self._pop()

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _visit_comp
    leave_ListComp = leave_SetComp = leave_DictComp = leave_GeneratorExp = _leave_comp

    def visit_CompFor(self, node: cst.CompFor) -> None:
        for name in _target_names(node.target):
            self._bind(name.value, Binding("unknown", self.scope, self._tick()))

    # Control flow nesting ----------------------------------------------------------------------
    def _enter_compound(self, node: cst.CSTNode, exclusive: bool = False) -> None:
        self._nesting[-1] += 1
        self._statement.append(node)
        self._path.append(Branch(id(node), "body", exclusive))

    def _leave_compound(self, node: cst.CSTNode) -> None:
        self._nesting[-1] -= 1
        self._statement.pop()
        self._path.pop()

    def _branch(self, label: str) -> None:
        if self._path:
            top = self._path[-1]
            self._path[-1] = Branch(top.statement, label, top.exclusive)

    def visit_If(self, node: cst.If) -> None:
        self.tests[id(node)] = node.test
        outer = self._statement[-1] if self._statement else None
        if isinstance(outer, cst.If) and outer.orelse is node and self._path:
            # `elif`: another branch of the enclosing `if`'s chain.
            self._elifs.add(id(node))
            self._nesting[-1] += 1
            self._statement.append(node)
            self._branch(f"elif {id(node)}")
            return
        self._enter_compound(node, exclusive=True)

    def leave_If(self, original_node: cst.If) -> None:
        if id(original_node) in self._elifs:
            self._nesting[-1] -= 1
            self._statement.pop()
            return
        self._leave_compound(original_node)

    def visit_Else(self, node: cst.Else) -> None:
        self._branch("else")

    def visit_Finally(self, node: cst.Finally) -> None:
        self._branch("finally")

    def visit_For(self, node: cst.For) -> None:
        self._enter_compound(node)
        if isinstance(node.target, cst.Name):
            # `for model in [...]`: the loop's iterable, for one finding per literal element.
            self._bind(
                node.target.value,
                Binding(
                    "loop", self.scope, self._tick(), value=node.iter, node=node.target, nested=True
                ),
            )
            return
        pair = isinstance(node.target, cst.Tuple) and len(node.target.elements) == 2
        for name in _target_names(node.target):
            # `for key, model in MODELS.items()`: a pair of names, read by position.
            kind: BindingKind = "loop" if pair else "unknown"
            value = node.iter if pair else None
            binding = Binding(kind, self.scope, self._tick(), value, node=node.target, nested=True)
            self._bind(name.value, binding)

    def leave_For(self, original_node: cst.For) -> None:
        self._leave_compound(original_node)

    def visit_While(self, node: cst.While) -> None:
        self._enter_compound(node)

    def leave_While(self, original_node: cst.While) -> None:
        self._leave_compound(original_node)

    def visit_Try(self, node: cst.Try) -> None:
        self._enter_compound(node)

    def leave_Try(self, original_node: cst.Try) -> None:
        self._leave_compound(original_node)

    def visit_TryStar(self, node: cst.CSTNode) -> None:
        self._enter_compound(node)

    def leave_TryStar(self, original_node: cst.CSTNode) -> None:
        self._leave_compound(original_node)

    def visit_Match(self, node: cst.Match) -> None:
        self._enter_compound(node, exclusive=True)

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        self._branch(f"case {id(node)}")

    def leave_Match(self, original_node: cst.Match) -> None:
        self._leave_compound(original_node)

    def visit_MatchAs(self, node: cst.MatchAs) -> None:
        if node.name is not None:
            self._bind(node.name.value, Binding("unknown", self.scope, self._tick(), nested=True))

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._branch(f"except {id(node)}")
        if node.name is not None:
            for name in _target_names(node.name.name):
                self._bind(name.value, Binding("unknown", self.scope, self._tick(), nested=True))

    def visit_With(self, node: cst.With) -> None:
        self._enter_compound(node)
        for item in node.items:
            if item.asname is None:
                continue
            target = item.asname.name
            if isinstance(target, cst.Name):
                self._bind(
                    target.value,
                    Binding(
                        "with", self.scope, self._tick(), value=item.item, node=target, nested=True
                    ),
                )
            else:
                for name in _target_names(target):
                    self._bind(
                        name.value, Binding("unknown", self.scope, self._tick(), nested=True)
                    )

    def leave_With(self, original_node: cst.With) -> None:
        self._leave_compound(original_node)

    # Statements ------------------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._statement.append(node)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine) -> None:
        self._statement.pop()

    def visit_Global(self, node: cst.Global) -> None:
        self.scope.globals.update(n.name.value for n in node.names)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        self.scope.nonlocals.update(n.name.value for n in node.names)

    def visit_Import(self, node: cst.Import) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if dotted is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self._bind(
                    alias.asname.name.value,
                    Binding(
                        "import", self.scope, self._tick(), qualname=dotted, nested=self._nested()
                    ),
                )
            else:
                top = dotted.split(".")[0]
                self._bind(
                    top,
                    Binding(
                        "import", self.scope, self._tick(), qualname=top, nested=self._nested()
                    ),
                )

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if isinstance(node.names, cst.ImportStar):
            library = _dotted(node.module) if node.module is not None else None
            if not node.relative and library is not None and self.scope.parent is None:
                # (The last star import names what a name it does not bind is, as far as
                # the registry knows the library's names.)
                self.scope.star_imports.append(library)
            return
        module = _dotted(node.module) if node.module is not None else ""
        dots = "." * len(node.relative)
        base = f"{dots}{module or ''}"
        for alias in node.names:
            if not isinstance(alias.name, cst.Name):
                continue
            name = alias.name.value
            local = name
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                local = alias.asname.name.value
            qual = f"{base}.{name}" if base and not base.endswith(".") else f"{base}{name}"
            self._bind(
                local,
                Binding("import", self.scope, self._tick(), qualname=qual, nested=self._nested()),
            )

    def _record_deep_set(self, base: cst.Subscript) -> None:
        """Note `name["a"]["b"] = v`: the table `name` holds more than its literal."""
        root: cst.BaseExpression = base
        while isinstance(root, cst.Subscript):
            root = root.value
        if isinstance(root, cst.Name):
            self.scope.function().deep_sets.add(root.value)

    def _record_target(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        scope = self.scope
        order = self._tick()
        nested = self._nested()
        if isinstance(target, cst.Name):
            if value is None:
                self._bind(target.value, Binding("unknown", scope, order, nested=nested))
            else:
                self._bind(
                    target.value,
                    Binding("assign", scope, order, value=value, node=target, nested=nested),
                )
            return
        if isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            if (
                value is not None
                and isinstance(value, (cst.Tuple, cst.List))
                and len(value.elements) == len(elements)
                and not any(isinstance(e, cst.StarredElement) for e in target.elements)
                and not any(isinstance(e, cst.StarredElement) for e in value.elements)
            ):
                for sub_target, sub_value in zip(elements, value.elements, strict=True):
                    self._record_target(sub_target, sub_value.value)
            else:
                for name in _target_names(target):
                    self._bind(name.value, Binding("unknown", scope, order, nested=nested))
            return
        if isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            function = scope.function()
            if target.value.value != function.self_name:
                scope.module().attribute_sets.add((target.value.value, target.attr.value))
            if function.method_of is not None and target.value.value == function.self_name:
                function.method_of.attributes.setdefault(target.attr.value, []).append(
                    Binding(
                        "assign" if value is not None else "unknown",
                        function,
                        order,
                        value=value,
                        node=target,
                        nested=nested,
                    )
                )
            return
        if (
            isinstance(target, cst.Subscript)
            and isinstance(target.value, cst.Attribute)
            and isinstance(target.value.value, cst.Name)
        ):
            function = scope.function()
            if function.method_of is not None and target.value.value.value == function.self_name:
                kind: BindingKind = "assign" if value is not None else "unknown"
                function.method_of.items.setdefault(target.value.attr.value, []).append(
                    Binding(kind, function, order, value=value)
                )
            return
        if isinstance(target, cst.Subscript):
            self._record_item_set(target, value, order, nested)

    def _record_item_set(
        self, target: cst.Subscript, value: cst.BaseExpression | None, order: int, nested: bool
    ) -> None:
        """Note `name[key] = value`, or that `name["a"]["b"] = v` changes the table `name`."""
        if isinstance(target.value, cst.Subscript):
            self._record_deep_set(target.value)
            return
        if not isinstance(target.value, cst.Name) or value is None or len(target.slice) != 1:
            return
        element = target.slice[0].slice
        if isinstance(element, cst.Index):
            statement = self._statement[-1] if self._statement else target
            self.scope.function().subscript_sets.setdefault(target.value.value, []).append(
                SubscriptSet(element.value, value, target, statement, order, nested)
            )

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._record_target(target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        target = node.target
        if node.value is not None:
            self._record_target(target, node.value)
            if isinstance(target, cst.Name):
                # Keep the annotation too: it types the name even where the value cannot be read.
                annotation = Binding(
                    "annotation", self.scope, self._tick(), value=node.annotation.annotation
                )
                self._bind(target.value, annotation)
                if self.scope.kind == "class" and self.scope.class_info is not None:
                    # A field with a default (`client: Anthropic | None = None`) is typed too.
                    self.scope.class_info.attributes.setdefault(target.value, []).append(annotation)
            return
        if isinstance(target, cst.Name):
            binding = Binding(
                "annotation", self.scope, self._tick(), value=node.annotation.annotation
            )
            if self.scope.kind == "class" and self.scope.class_info is not None:
                self.scope.class_info.attributes.setdefault(target.value, []).append(binding)
            else:
                self._bind(target.value, binding)
        elif isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name):
            function = self.scope.function()
            if function.method_of is not None and target.value.value == function.self_name:
                function.method_of.attributes.setdefault(target.attr.value, []).append(
                    Binding("annotation", function, self._tick(), value=node.annotation.annotation)
                )

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._record_target(node.target, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        if isinstance(node.target, cst.Name):
            scope = self.scope.function()
            scope.add(
                node.target.value,
                Binding(
                    "assign",
                    scope,
                    self._tick(),
                    value=node.value,
                    node=node.target,
                    nested=True,
                    path=tuple(self._path),
                ),
            )

    def visit_Del(self, node: cst.Del) -> None:
        for name in _target_names(node.target):
            self._bind(
                name.value, Binding("unknown", self.scope, self._tick(), nested=self._nested())
            )

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.scope.function().returns.append(node.value)

    def visit_Await(self, node: cst.Await) -> None:
        if isinstance(node.expression, cst.Call):
            self._await_targets.add(id(node.expression))

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(
            CallRecord(
                node=node,
                scope=self.scope,
                order=self._tick(),
                statement=self._statement[-1] if self._statement else None,
                path=tuple(self._path),
                awaited=id(node) in self._await_targets,
            )
        )
