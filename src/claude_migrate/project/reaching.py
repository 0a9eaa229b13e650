"""Which assignments of a local reach a call: the values a name argument may hold there.

A summary joins every assignment of a local (`summary.py`): what a read may see anywhere in
the function. For a Claude call whose keyword argument is a local assigned more than once
(`temperature = 1.5` in one branch, `0.0` in the other, the call in the second), or a
parameter the function assigns, this pass follows the function's statements in order and
keeps, at the call, only the assignments a path through the function reaches it with:
`{"line:column": {name: [expr, ...]}}`, the call keyed as summaries key it (line from 1,
column from 1). For a dict the function changes and the call spreads (`**params`), it counts
the changes that may run before the call. The records read it (`Flows`), for the functions
that make a Claude call only: one `ast` parse of such a module, never on a run's path.

Conservative where the order is not followed: a loop's body may run any number of times
(its `break` and `continue` lead out and back), a `try` or `with` body may stop after any
statement (a handler, `finally`, or a context manager that swallows the exception sees each
state), a walrus inside an expression may or may not run, and a name a nested function
declares `nonlocal` (or this one `global`) is not followed at all. A name not bound on any
path to the call is left out (the summary's join stands).
"""

from __future__ import annotations

import ast
import warnings
from typing import TYPE_CHECKING, Any

from claude_migrate.project.summary import DICT_CHANGES, UNKNOWN_EXPR, Expr, expr

if TYPE_CHECKING:
    from claude_migrate.project.phase import Project

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

# name -> the expressions of the assignments that may have run last; None: no path gets here.
State = dict[str, list[Expr]]
# The most statements one function's pass reads (a generated function is left to the join).
MAX_STATEMENTS = 5000


def _join(*states: State | None) -> State | None:
    joined: State | None = None
    for state in states:
        if state is None:
            continue
        if joined is None:
            joined = {name: list(values) for name, values in state.items()}
            continue
        for name, values in state.items():
            mine = joined.setdefault(name, [])
            mine.extend(v for v in values if v not in mine)
    return joined


class _Pass:
    def __init__(self, names: set[str], excluded: set[str], dicts: set[str]) -> None:
        self.names = names  # the locals worth following (assigned more than once)
        self.excluded = excluded
        self.dicts = dicts  # the local dicts a call spreads (`**params`) that the function changes
        self.found: dict[str, dict[str, list[Expr]]] = {}
        self.breaks: list[State] = []
        self.continues: list[State] = []
        # The states of every point inside the `try` and `with` bodies being read: where an
        # exception may leave them for a handler (or a context manager that swallows it).
        self.collecting: list[list[State]] = []
        self.steps = 0

    def body(self, statements: list[ast.stmt], state: State | None) -> State | None:
        for statement in statements:
            if state is None:
                return None
            self.steps += 1
            if self.steps > MAX_STATEMENTS:
                raise RecursionError
            state = self.statement(statement, state)
            if state is not None:
                for seen in self.collecting:
                    seen.append(state)
        return state

    def guarded(self, statements: list[ast.stmt], state: State) -> tuple[State | None, State]:
        """Read a body an exception may leave after any statement: return its end, and the
        join of every state met inside it (its start among them)."""
        seen: list[State] = [state]
        self.collecting.append(seen)
        try:
            end = self.body(statements, dict(state))
        finally:
            self.collecting.pop()
        return end, _join(*seen) or {}

    def statement(self, node: ast.stmt, state: State) -> State | None:
        if isinstance(node, (ast.Return, ast.Raise)):
            self.expressions(node, state)
            return None
        if isinstance(node, ast.Break):
            self.breaks.append(state)
            return None
        if isinstance(node, ast.Continue):
            self.continues.append(state)
            return None
        if isinstance(node, ast.If):
            self.read(node.test, state)
            return _join(self.body(node.body, dict(state)), self.body(node.orelse, dict(state)))
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            return self.loop(node, state)
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            return self.attempt(node, state)  # type: ignore[arg-type]
        if isinstance(node, (ast.With, ast.AsyncWith)):
            return self.within(node, state)
        if isinstance(node, ast.Match):
            return self.match(node, state)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return self.bind(node.name, UNKNOWN_EXPR, state)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                state = self.bind((alias.asname or alias.name).split(".")[0], UNKNOWN_EXPR, state)
            return state
        return self.simple(node, state)

    def simple(self, node: ast.stmt, state: State) -> State:
        """A statement without control flow: its reads, then what it binds or deletes."""
        if isinstance(node, ast.Delete):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    state = {k: v for k, v in state.items() if k != target.id}
        self.expressions(node, state)
        targets = node.targets if isinstance(node, (ast.Assign, ast.Delete)) else []
        if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            changed = _changed_dict(target)
            if changed in self.dicts:
                state = self.change(changed, target, state)
        if isinstance(node, ast.Delete):
            return state
        if isinstance(node, ast.Assign):
            for target in node.targets:
                state = self.assign(target, node.value, state)
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            state = self.assign(node.target, node.value, state)
        elif isinstance(node, ast.AugAssign):
            state = self.assign(node.target, None, state)
        return state

    def loop(self, node: ast.For | ast.AsyncFor | ast.While, state: State) -> State | None:
        outer_breaks, outer_continues = self.breaks, self.continues
        self.breaks, self.continues = [], []
        if isinstance(node, ast.While):
            self.read(node.test, state)
        head: State | None = state
        for _ in range(2):  # twice: what one pass assigns, the next pass's reads may see
            entry = head if head is not None else {}
            if not isinstance(node, ast.While):
                self.read(node.iter, entry)
                entry = self.assign(node.target, None, dict(entry))
            end = self.body(node.body, dict(entry))
            head = _join(state, end, *self.continues)
        breaks = self.breaks
        self.breaks, self.continues = outer_breaks, outer_continues
        after = self.body(node.orelse, dict(head)) if head is not None else None
        return _join(after, *breaks)

    def attempt(self, node: ast.Try, state: State) -> State | None:
        current, anywhere = self.guarded(node.body, state)
        ends = [self.body(node.orelse, dict(current)) if current is not None else None]
        for handler in node.handlers:
            entry = dict(anywhere)
            if handler.name:
                entry = self.bind(handler.name, UNKNOWN_EXPR, entry)
            ends.append(self.body(handler.body, entry))
        after = _join(*ends)
        if node.finalbody:
            # `finally` runs on every way out, the ones that leave the function too.
            self.body(node.finalbody, dict(_join(anywhere, after) or {}))
            return self.body(node.finalbody, dict(after)) if after is not None else None
        return after

    def within(self, node: ast.With | ast.AsyncWith, state: State) -> State | None:
        for item in node.items:
            self.read(item.context_expr, state)
            bound = item.optional_vars
            if isinstance(bound, ast.Name):
                state = self.bind(bound.id, ["enter", expr(item.context_expr)], state)
            elif bound is not None:
                state = self.assign(bound, None, state)
        # A context manager may swallow an exception: after it, any state its body passed.
        _, anywhere = self.guarded(node.body, state)
        return anywhere

    def match(self, node: ast.Match, state: State) -> State | None:
        self.read(node.subject, state)
        ends: list[State | None] = []
        exhaustive = False
        for case in node.cases:
            entry = dict(state)
            for sub in ast.walk(case.pattern):
                for name in _captured(sub):
                    entry = self.bind(name, UNKNOWN_EXPR, entry)
            if case.guard is not None:
                self.read(case.guard, entry)
            ends.append(self.body(case.body, entry))
            pattern = case.pattern
            if case.guard is None and isinstance(pattern, ast.MatchAs) and pattern.pattern is None:
                exhaustive = True  # `case _:` / `case name:` matches anything
        if not exhaustive:
            ends.append(state)
        return _join(*ends)

    def assign(self, target: ast.expr, value: ast.expr | None, state: State) -> State:
        if isinstance(target, ast.Name):
            return self.bind(target.id, expr(value) if value is not None else UNKNOWN_EXPR, state)
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                state = self.assign(element, None, state)
        elif isinstance(target, ast.Starred):
            state = self.assign(target.value, None, state)
        return state

    def bind(self, name: str, value: Expr, state: State) -> State:
        if name not in self.names:
            return state
        changed = dict(state)
        changed[name] = [value]
        return changed

    def change(self, name: str, node: ast.AST, state: State) -> State:
        """Note a change of a spread dict (`params["k"] = v`, `params.update(...)`)."""
        changed = dict(state)
        event = ["change", _place(node)]
        held = changed.get(f"**{name}", [])
        changed[f"**{name}"] = held if event in held else [*held, event]
        return changed

    def expressions(self, node: ast.stmt, state: State) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.read(child, state)

    def read(self, node: ast.expr, state: State) -> None:
        """Note the calls an expression makes (with what their name arguments may hold), and
        what a walrus in it may bind (it may not run: its value joins the others)."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                self.call(sub, state)
                method = _dict_change(sub)
                if method in self.dicts:
                    state.update(self.change(method, sub, state))
            elif isinstance(sub, ast.NamedExpr) and sub.target.id in self.names:
                held = state.get(sub.target.id, [])
                described = expr(sub.value)
                if described not in held:
                    state[sub.target.id] = [*held, described]
            elif isinstance(sub, ast.Lambda):
                break  # a lambda's calls run later, on whatever the names hold then

    def call(self, node: ast.Call, state: State) -> None:
        for keyword in node.keywords:
            value = keyword.value
            if keyword.arg is None and isinstance(value, ast.Name) and value.id in self.dicts:
                # `**params`: the changes of the dict that may have run before the call.
                key = f"{node.lineno}:{node.col_offset + 1}"
                held = self.found.setdefault(key, {}).setdefault(f"**{value.id}", [])
                held.extend(v for v in state.get(f"**{value.id}", []) if v not in held)
                continue
            if not isinstance(value, ast.Name) or value.id not in self.names:
                continue
            if value.id in self.excluded or value.id not in state:
                continue
            key = f"{node.lineno}:{node.col_offset + 1}"
            held = self.found.setdefault(key, {}).setdefault(value.id, [])
            held.extend(v for v in state[value.id] if v not in held)


def _place(node: ast.AST) -> str:
    return f"{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0) + 1}"


def _changed_dict(target: ast.expr) -> str | None:
    """Return the local whose item an assignment target sets (`params["k"]`)."""
    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        return target.value.id
    return None


def _dict_change(node: ast.Call) -> str | None:
    """Return the local a call of a dict method changes (`params.update(...)`)."""
    func = node.func
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.attr in DICT_CHANGES
    ):
        return func.value.id
    return None


def _changes(node: ast.AST, name: str) -> list[str]:
    """Return where a function changes a local dict (every change, on any path)."""
    found: list[str] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and _dict_change(sub) == name:
            found.append(_place(sub))
        targets: list[ast.expr] = []
        if isinstance(sub, (ast.Assign, ast.Delete)):
            targets = sub.targets
        elif isinstance(sub, (ast.AugAssign, ast.AnnAssign)):
            targets = [sub.target]
        found.extend(_place(t) for t in targets if _changed_dict(t) == name)
    return found


def _captured(pattern: ast.AST) -> list[str]:
    if isinstance(pattern, (ast.MatchAs, ast.MatchStar)) and pattern.name:
        return [pattern.name]
    if isinstance(pattern, ast.MatchMapping) and pattern.rest:
        return [pattern.rest]
    return []


def reaching(
    node: ast.FunctionDef | ast.AsyncFunctionDef, names: set[str], spread: set[str]
) -> dict[str, dict[str, list[Expr]]]:
    """Return, for the calls of a function passing `names` (locals it assigns more than once,
    or parameters it assigns) as keyword arguments, the values of each that reach the call;
    for those spreading `spread` (dicts it changes), how many changes may run before them
    (see the module's text)."""
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    excluded: set[str] = set()
    inner: set[str] = set()  # names a nested function or lambda reads (it may change them)
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            excluded.update(sub.names)
        elif sub is not node and isinstance(
            sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
        ):
            inner.update(n.id for n in ast.walk(sub) if isinstance(n, ast.Name))
    dicts = {name for name in spread if name not in excluded and name not in inner}
    walker = _Pass(names, excluded, dicts)
    # A parameter holds what its callers pass until it is assigned: not known here.
    start: State = {a.arg: [UNKNOWN_EXPR] for a in params if a is not None and a.arg in names}
    try:
        walker.body(node.body, start)
    except RecursionError:
        return {}
    for name in dicts:
        # Each call spreading the dict: ["changes", how many of its changes may run before
        # it, how many the function makes]. All of them: the summary's folded literal holds.
        every = len(set(_changes(node, name)))
        for held in walker.found.values():
            reached = held.get(f"**{name}")
            if reached is not None:
                held[f"**{name}"] = [["changes", len(reached), every]]
    return walker.found


class Flows:
    """The reaching pass over one module's functions, read when a record asks (one parse)."""

    def __init__(self, project: Project, module: str) -> None:
        self.project = project
        self.module = module
        self._nodes: dict[str, FunctionNode] | None = None
        self._found: dict[str, dict[str, dict[str, list[Expr]]]] = {}

    def at(self, function: str | None, call: list[Any]) -> dict[str, list[Expr]]:
        """Return what reaches a call of a function: `{name: [expr]}`, `{"**dict": ...}`."""
        if function is None:
            return {}
        found = self._found.get(function)
        if found is None:
            found = self._found[function] = self._function(function)
        return found.get(f"{call[6]}:{call[7]}", {})

    def _function(self, function: str) -> dict[str, dict[str, list[Expr]]]:
        facts = self.project.summaries[self.module]["functions"].get(function)
        if facts is None:
            return {}
        names = _reassigned(facts)
        spread = _spread_changed(facts)
        if not names and not spread:
            return {}
        node = self._nodes_by_name().get(function)
        if node is None or node.lineno != facts["line"]:
            return {}  # not the function the summary read
        return reaching(node, names, spread)

    def _nodes_by_name(self) -> dict[str, FunctionNode]:
        if self._nodes is None:
            self._nodes = {}
            project = self.project
            data = project._module_data(project.module_path(self.module))  # noqa: SLF001
            if data is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        tree = ast.parse(data)
                    except (SyntaxError, ValueError, RecursionError, MemoryError):
                        return self._nodes
                _functions(tree.body, "", self._nodes)
        return self._nodes


def _functions(body: list[ast.stmt], prefix: str, found: dict[str, FunctionNode]) -> None:
    """Collect a body's functions by the qualified names summaries give them: `f`, `C.m`,
    `f.inner` (under `if`/`try` too, as summaries read them)."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            qual = f"{prefix}{node.name}"
            found.setdefault(qual, node)
            _functions(node.body, f"{qual}.", found)
        elif isinstance(node, ast.ClassDef) and not prefix:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    qual = f"{node.name}.{item.name}"
                    found.setdefault(qual, item)
                    _functions(item.body, f"{qual}.", found)
        elif isinstance(node, (ast.If, ast.Try)) and not prefix:
            for part in ("body", "orelse", "finalbody"):
                _functions(getattr(node, part, []), prefix, found)


def _reassigned(facts: dict[str, Any]) -> set[str]:
    """Return the locals assigned more than once, or parameters the function assigns, that a
    call of it passes as a keyword argument (`temperature=temperature`)."""
    local_names = facts["locals"]
    params = {param["name"] for param in facts["params"]}
    found: set[str] = set()
    for call in facts["calls"]:
        for value in call[3].values():
            if value[0] != "name" or value[1] not in local_names:
                continue
            if len(local_names[value[1]]) > 1 or value[1] in params:
                found.add(value[1])
    return found


def _spread_changed(facts: dict[str, Any]) -> set[str]:
    """Return the local dicts the function changes that a call of it spreads (`**params`)."""
    changed = facts["changed"]
    return {
        star[1]
        for call in facts["calls"]
        for star in call[5]
        if star[0] == "name" and star[1] in changed
    }


__all__ = ["Flows", "reaching"]
