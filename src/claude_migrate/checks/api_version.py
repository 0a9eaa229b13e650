"""CM105 api-version: a raw HTTP call without the policy's `anthropic-version` header.

The Messages API requires an `anthropic-version` header and answers in the shape of the version
a request names. The SDK sends the version it was built for; hand-written HTTP calls must send
it themselves, and an `extra_headers=` / `default_headers=` on the SDK can pin an older one.

Finds: a raw HTTP POST to the Anthropic API (requests, httpx, aiohttp) whose headers (the call's
`headers=` merged over those of the client it is made on, as the libraries merge them) lack
`anthropic-version` (any case) or carry an older date than `api-version.version`; and an SDK
call's `extra_headers=` or a client constructor's (or `with_options`/`copy`'s)
`default_headers=` that sets an older one. Headers the tool cannot see (built by a function,
updated later, passed through `**kwargs`) are not reported.
Writes instead (safe): the policy's version, or the header added as the dict's last entry in the
dict's style.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from claude_migrate.analysis.calls import CallFinder, CallSite
from claude_migrate.analysis.edits import append_element
from claude_migrate.analysis.scope import CallRecord
from claude_migrate.analysis.symbols import Instance, LocalInstance, Qual
from claude_migrate.analysis.values import Entries, Entry
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Fix
from claude_migrate.core.lazy import lazy_import
from claude_migrate.targets import HTTP, SDK
from claude_migrate.targets.anthropic_sdk import SDK_CLIENT_NAME, is_sdk_client_class
from claude_migrate.targets.http import HTTP_CLIENTS

if TYPE_CHECKING:
    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.scope import Scope
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.project.triage import Wanted

if TYPE_CHECKING:
    import libcst as cst
else:
    cst = lazy_import("libcst")  # bound on first use: importing this must not load LibCST

HEADER = "anthropic-version"
MUTATING_METHODS = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__"})
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def is_date(text: str) -> bool:
    """Return whether a string is a real calendar date written YYYY-MM-DD."""
    if not _DATE.match(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


class ApiVersionCheck(Check["FileContext"]):
    code = "CM105"
    name = "api-version"
    summary = "an Anthropic API call without the policy's anthropic-version header"
    fix_applicability = Applicability.SAFE
    options = {
        "version": Option(
            "string",
            "2023-06-01",
            "the anthropic-version every raw API call must send (and SDK headers may not lower)",
            pattern=is_date,
            pattern_text="a date written YYYY-MM-DD",
        )
    }

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        from claude_migrate.project.triage import Wanted

        # The sites, and the client constructors and `with_options`/`copy` given default
        # headers (`sdk_clients`: a callee that resolves to an SDK client class or instance).
        clients = SDK_CLIENT_NAME.pattern.removeprefix("^").removesuffix("$")
        callee = rf"with_options|copy|{clients}"
        return call_sites() | Wanted(keyword_callees=(("default_headers", callee),))

    def check(self, ctx: FileContext) -> Iterable[Diagnostic]:
        run = _Run(self, ctx, self.settings["version"])
        for site in ctx.sites:
            if site.family == HTTP:
                yield from run.http_call(site)
            elif site.family == SDK:
                entry = site.params.get("extra_headers")
                if entry is not None:
                    yield from run.sdk_headers(entry, site.record)
        yield from run.sdk_clients()


def _quote(node: cst.CSTNode | None) -> str:
    """Return the quote character a string literal uses (double quotes by default)."""
    if isinstance(node, cst.SimpleString):
        return node.quote[0]
    return '"'


class _Run:
    """One file's pass: reports each headers dict entry or argument at most once."""

    def __init__(self, check: ApiVersionCheck, ctx: FileContext, version: str) -> None:
        self.check = check
        self.ctx = ctx
        self.version = version
        self.finder = CallFinder(ctx.index, ctx.resolver)
        self.reported: set[int] = set()
        self._records: dict[int, CallRecord] | None = None

    # Reading headers -------------------------------------------------------------------------
    def record_of(self, call: cst.Call) -> CallRecord | None:
        if self._records is None:
            self._records = {id(r.node): r for r in self.ctx.index.calls}
        return self._records.get(id(call))

    def headers(
        self, value: cst.BaseExpression, record: CallRecord
    ) -> tuple[Entries, cst.BaseExpression] | None:
        """Return a headers dict's entries as the call sees them, and the dict node.

        None when the value is not a dict the module shows (a function's result, a parameter).
        """
        values = self.ctx.resolver.values
        found = values.dict_node(value, record.scope, 0, (record.order, record.path))
        if found is None:
            return None
        dict_node, dict_scope, name = found
        if (
            name is not None
            and dict_scope.kind == "module"
            and self.changed_elsewhere(name, record)
        ):
            return None
        entries = values.expand(
            value, record.scope, 0, record.order, self.finder.mutators(record), record.path
        )
        if entries.opaque and not entries.items:
            return None
        return entries, dict_node

    def changed_elsewhere(self, name: str, record: CallRecord) -> bool:
        """Return whether code outside the calling function may change a module-level dict.

        `HEADERS["anthropic-version"] = ...` in a setup function, or `HEADERS.update(...)`
        anywhere but the call's own function (which the registry already orders), means the
        headers the call sends cannot be seen.
        """
        home = record.scope.function()
        for scope in self.ctx.index.scopes:
            if scope.function() is not home and name in scope.subscript_sets:
                return True
        for other in self.ctx.index.calls:
            func = other.node.func
            if (
                isinstance(func, cst.Attribute)
                and isinstance(func.value, cst.Name)
                and func.value.value == name
                and func.attr.value in MUTATING_METHODS
                and other.scope.function() is not home
            ):
                return True
        return False

    @staticmethod
    def version_entry(entries: Entries) -> tuple[bool, Entry | None]:
        """Return whether the headers show their anthropic-version entry, and the entry.

        (True, None) means proven absent; (False, None) that it may be there unseen.
        """
        for key, entry in entries.items.items():
            if key.lower() == HEADER:
                return True, entry
        if entries.opaque or any(k.lower() == HEADER for k in entries.unknown_keys):
            return False, None
        return True, None

    # Findings ---------------------------------------------------------------------------------
    def older(self, entry: Entry, context: str) -> Iterator[Diagnostic]:
        """Report a version entry whose value is a date older than the policy's."""
        value = entry.value
        if not value.known or not isinstance(value.value, str) or not is_date(value.value):
            return
        if value.value >= self.version or id(entry.holder) in self.reported:
            return
        self.reported.add(id(entry.holder))
        fix = None
        if isinstance(value.node, cst.SimpleString):
            quote = value.node.quote
            fix = self.ctx.fix(
                Applicability.SAFE,
                f"set {entry.key} to {self.version}",
                self.ctx.replace(value.node, f"{value.node.prefix}{quote}{self.version}{quote}"),
            )
        via = f" (from {value.via})" if value.via else ""
        yield self.ctx.diagnostic(
            self.check,
            entry.holder,
            f"{entry.key} {value.value}{via} is older than the policy's {self.version}",
            fix,
            context,
        )

    def missing(
        self,
        holder: cst.CSTNode,
        dict_node: cst.BaseExpression | None,
        call: cst.Call | None,
        context: str,
    ) -> Iterator[Diagnostic]:
        """Report headers without the version; the fix adds it to the dict (or the call)."""
        if id(holder) in self.reported:
            return
        self.reported.add(id(holder))
        fix: Fix | None = None
        if isinstance(dict_node, cst.Dict):
            keys = [e.key for e in dict_node.elements if isinstance(e, cst.DictElement)]
            q = _quote(keys[0] if keys else None)
            edit = append_element(self.ctx, dict_node, f"{q}{HEADER}{q}: {q}{self.version}{q}")
            if edit is not None:
                fix = self.ctx.fix(Applicability.SAFE, f"add {HEADER}: {self.version}", edit)
        elif call is not None:
            edit = append_element(self.ctx, call, f'headers={{"{HEADER}": "{self.version}"}}')
            if edit is not None:
                fix = self.ctx.fix(Applicability.SAFE, f"send {HEADER}: {self.version}", edit)
        yield self.ctx.diagnostic(
            self.check,
            holder,
            f"Anthropic API call without an {HEADER} header; send {HEADER}: {self.version}",
            fix,
            context,
        )

    # Raw HTTP ---------------------------------------------------------------------------------
    def http_call(self, site: CallSite) -> Iterator[Diagnostic]:
        """Check the headers a raw HTTP call sends: its own, merged over its client's."""
        args = site.call_args
        if args is None:
            return
        record = site.record
        context = record.scope.qualname
        layers: list[tuple[Entry | None, CallRecord]] = [(args.get("headers"), record)]
        if layers[0][0] is None and args.may_have("headers"):
            return
        on_client, constructor = self.client_constructor(site)
        if on_client:
            if constructor is None:
                return  # a client we cannot follow, or whose headers change after it is built
            client_args = self.finder.kwargs(constructor)
            if client_args.get("headers") is None and client_args.may_have("headers"):
                return
            layers.append((client_args.get("headers"), constructor))
        # The request's headers win over the client's (httpx, aiohttp and requests merge them).
        shown: list[tuple[Entry, cst.BaseExpression]] = []
        for entry, where in layers:
            if entry is None:
                continue
            found = self.headers(entry.value_node, where)
            if found is None:
                return
            seen, version = self.version_entry(found[0])
            if not seen:
                return
            if version is not None:
                yield from self.older(version, context)
                return
            shown.append((entry, found[1]))
        if shown:
            entry, dict_node = shown[0]
            yield from self.missing(entry.holder, dict_node, None, context)
        else:
            yield from self.missing(record.node, None, record.node, context)

    def client_constructor(self, site: CallSite) -> tuple[bool, CallRecord | None]:
        """Return whether an HTTP call is made on a client object, and its constructor call.

        (False, None) for a module-level function (`requests.post`); (True, None) for a client
        we cannot follow to one constructor, or whose `.headers` the module touches.
        """
        func = site.node.func
        if not isinstance(func, cst.Attribute):
            return False, None
        receiver = func.value
        symbol = self.ctx.resolver.resolve(func, site.record.scope)
        if not isinstance(symbol, Instance):
            return False, None
        found = self._constructor_of(receiver, site.record.scope)
        receiver_text = self.ctx.code(receiver)
        if re.search(re.escape(receiver_text) + r"\s*\.\s*headers\b", self.ctx.source.text):
            return True, None
        return True, found

    def _constructor_of(self, node: cst.BaseExpression, scope: Scope) -> CallRecord | None:
        if isinstance(node, cst.Call):
            qual = self.ctx.resolver.qualname(node.func, scope)
            return self.record_of(node) if qual in HTTP_CLIENTS else None
        bindings = []
        if isinstance(node, cst.Name):
            bindings = [b for b in scope.lookup(node.value) if b.kind != "annotation"]
        elif isinstance(node, cst.Attribute):
            base = self.ctx.resolver.resolve(node.value, scope)
            if isinstance(base, LocalInstance):
                bindings = [
                    b
                    for b in base.info.attributes.get(node.attr.value, [])
                    if b.kind != "annotation"
                ]
        if len(bindings) != 1:
            return None
        binding = bindings[0]
        if binding.kind not in ("assign", "with") or not isinstance(binding.value, cst.Call):
            return None
        return self._constructor_of(binding.value, binding.scope)

    # The SDK ----------------------------------------------------------------------------------
    def sdk_headers(self, entry: Entry, record: CallRecord) -> Iterator[Diagnostic]:
        found = self.headers(entry.value_node, record)
        if found is None:
            return
        _, version = self.version_entry(found[0])
        if version is not None:
            yield from self.older(version, record.scope.qualname)

    def sdk_clients(self) -> Iterator[Diagnostic]:
        """Check `default_headers=` on SDK client constructors and `with_options`/`copy`."""
        resolver = self.ctx.resolver
        for record in self.ctx.index.calls:
            func = record.node.func
            if not any(
                arg.keyword is not None and arg.keyword.value == "default_headers"
                for arg in record.node.args
            ):
                continue
            symbol = resolver.resolve(func, record.scope)
            is_client = (isinstance(symbol, Qual) and is_sdk_client_class(symbol.name)) or (
                isinstance(symbol, Instance)
                and is_sdk_client_class(symbol.cls)
                and symbol.path in (("with_options",), ("copy",))
            )
            if not is_client:
                continue
            entry = self.finder.kwargs(record).get("default_headers")
            if entry is not None:
                yield from self.sdk_headers(entry, record)
