"""Everything a check may ask about the Python file it is checking, computed at most once.

`FileContext` fulfils `filekind.CheckContext`, the contract every kind of file shares.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import cached_property
from typing import TYPE_CHECKING, Any

import libcst as cst
from libcst.metadata import CodePosition, CodeRange

from claude_migrate.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    FileError,
    Fix,
    Severity,
    fingerprint,
)
from claude_migrate.core.filekind import Comment, python_comments
from claude_migrate.core.source import SourceText

if TYPE_CHECKING:
    from claude_migrate.analysis.calls import CallSite
    from claude_migrate.analysis.node_map import NodeMap
    from claude_migrate.analysis.scope import ModuleIndex
    from claude_migrate.analysis.symbols import Resolver
    from claude_migrate.checks.base import Check
    from claude_migrate.core.project_view import ProjectView
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.policy.facts import ProjectFacts


class FileContext:
    """One parsed Python file, its policy, and lazily built indexes shared by all checks."""

    def __init__(
        self,
        display_path: str,
        source: SourceText,
        module: cst.Module,
        settings: FileSettings,
        file_path: str | None = None,
        project: ProjectView | None = None,
    ) -> None:
        self.path = display_path
        # Where the file is (absolute): rules that read the project around it start there.
        self.file_path = file_path or display_path
        self.project = project
        self.source = source
        self.module = module
        self.settings = settings
        # Parts a check could not read (a malformed requirement): CM001 entries for this file.
        self.errors: list[FileError] = []
        # Set for a notebook: names a module line as "cell 7 line 3" in messages.
        self.line_labels: Callable[[int], str] | None = None
        # ... and names it after the notebook's path as its findings are named ("cell 7:3").
        self.place_labels: Callable[[int], str] | None = None
        # Answers the shared analyses compute once per file and every call site asks again
        # (keyed by the asking module's own tuple keys): a fix per call must not walk the file.
        self.memo: dict[tuple[str, ...], Any] = {}

    # Shared analyses, built on first use ----------------------------------------------------
    @cached_property
    def facts(self) -> ProjectFacts:
        """Return the project's facts under this file's policy (built once per policy)."""
        from claude_migrate.policy.facts import facts_for

        return facts_for(self.settings)

    @cached_property
    def index(self) -> ModuleIndex:
        from claude_migrate.analysis.scope import ModuleIndex

        return ModuleIndex.build(self.module)

    @cached_property
    def nodes(self) -> NodeMap:
        """Return every node's parent and the names under each function (one walk, on first use)."""
        from claude_migrate.analysis.node_map import NodeMap

        return NodeMap(self.module)

    @cached_property
    def resolver(self) -> Resolver:
        from claude_migrate.analysis.symbols import Resolver

        return Resolver(self.index, self.project)

    @cached_property
    def all_sites(self) -> list[CallSite]:
        """Every Claude call of the file, and every call of an in-project wrapper."""
        from claude_migrate.analysis.calls import find_call_sites

        declared = {
            str(entry["function"]): {k: str(v) for k, v in entry.items() if k != "function"}
            for entry in (dict(e) for e in self.settings.table("call-sites").get("sites", ()))
        }
        return list(find_call_sites(self.index, self.resolver, declared))

    @cached_property
    def sites(self) -> list[CallSite]:
        """The Claude calls the file makes itself (what call-level rules read)."""
        found: list[CallSite] = []
        seen: set[int] = set()
        for site in self.all_sites:
            if site.via is not None:
                continue
            # Sites split by a value set count once, as the call (see `CallSite.branch_of`).
            site = site.branch_of or site
            if id(site) not in seen:
                seen.add(id(site))
                found.append(site)
        return found

    @cached_property
    def _spans(self) -> dict[Any, tuple[int, int]]:
        # PositionProvider's ranges as offsets, computed at 1/7 of its cost (positions.py).
        from claude_migrate.analysis.positions import node_spans

        spans = node_spans(self.module, self.source.text)
        if spans is None:
            from libcst.metadata import MetadataWrapper, PositionProvider

            ranges = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
            offset = self.source.offset
            spans = {
                node: (offset(r.start.line, r.start.column), offset(r.end.line, r.end.column))
                for node, r in ranges.items()
            }
        return spans

    @cached_property
    def _comments(self) -> list[Comment]:
        """The file's comments, tokenized once: rules ask for a few lines' at a time."""
        return python_comments(self.source.text)

    def comments(self, lines: Collection[int] | None = None) -> list[Comment]:
        """Return the file's comments, as Python's tokenizer finds them."""
        if lines is None:
            return list(self._comments)
        return [comment for comment in self._comments if comment.line in lines]

    def line_label(self, line: int) -> str:
        """Return how a message names a 1-based line of this file (a notebook names its cell)."""
        return self.line_labels(line) if self.line_labels is not None else str(line)

    def place_label(self, line: int) -> str:
        """Return how a message names a 1-based line after this file's path (`path:20`; a
        notebook's `path:cell 7:3`, as its findings are named)."""
        return self.place_labels(line) if self.place_labels is not None else str(line)

    def table(self, rule_name: str) -> dict[str, Any]:
        return self.settings.table(rule_name)

    # Positions and edits ----------------------------------------------------------------------
    def range(self, node: cst.CSTNode) -> CodeRange:
        start, end = self.span(node)
        return CodeRange(
            CodePosition(*self.source.position(start)), CodePosition(*self.source.position(end))
        )

    def span(self, node: cst.CSTNode) -> tuple[int, int]:
        """Return the start and end offsets of a node in the source text."""
        found = self._known_spans.get(node)
        if found is None:
            found = self._span_of(node)
        return found

    @cached_property
    def _known_spans(self) -> dict[Any, tuple[int, int]]:
        return {}

    def _span_of(self, node: cst.CSTNode) -> tuple[int, int]:
        """Find a node's offsets from the statement around it, else from the whole module.

        Most files with a finding need the positions of a few nodes: generating the code of
        the node (written on one line: `positions.expression_spans`), or, when a rule built the
        parent map, of the innermost statement holding it or of the top-level statement holding
        that, is enough when that code occurs once in the file (`statement_spans`). Once the
        statements generated this way add up to the file's size, or none fits, the whole
        module's positions are computed once (`_spans`) and answer every later question.
        """
        known = self._known_spans
        text = self.source.text
        if self._generated < len(text) and "\r" not in text:
            from claude_migrate.analysis.positions import expression_spans

            found, size = expression_spans(self.module, node, text)
            self._generated += size
            if found is not None:
                known.update(found)
                return known[node]
            # The statements around it are found from the parent map, when a rule built it.
            around = self._statements_around(node) if "nodes" in self.__dict__ else []
            for statement, indents in around:
                found = self._statement_spans(statement, indents)
                if found is not None:
                    known.update(found)
                    break
                if self._generated >= len(text):
                    break
            if node in known:
                return known[node]
        self._generated = len(text)  # from here on, the whole module's positions
        known.update(self._spans)
        return known[node]

    _generated = 0  # characters of code generated for single statements so far

    def _statement_spans(
        self, statement: cst.CSTNode, indents: list[str]
    ) -> dict[Any, tuple[int, int]] | None:
        from claude_migrate.analysis.positions import statement_spans

        spans, size = statement_spans(self.module, statement, indents, self.source.text)
        self._generated += size
        return spans

    def _statements_around(self, node: cst.CSTNode) -> list[tuple[cst.CSTNode, list[str]]]:
        """Return the innermost statement holding `node` and the top-level one, with indents.

        A statement is an element of the module's body or of an indented block; `node` may be
        one. Empty when the parent map does not reach the module from `node` (a token).
        """
        nodes = self.nodes
        chain: list[cst.CSTNode] = [node]
        while not isinstance(chain[-1], cst.Module):
            parent = nodes.parent(chain[-1])
            if parent is None:
                return []
            chain.append(parent)
        found: list[tuple[cst.CSTNode, list[str]]] = []
        default = self.module.default_indent
        for i in range(len(chain) - 1):
            if isinstance(chain[i + 1], (cst.Module, cst.IndentedBlock)):
                blocks = [b for b in chain[i + 1 :] if isinstance(b, cst.IndentedBlock)]
                indents = [default if b.indent is None else b.indent for b in reversed(blocks)]
                found.append((chain[i], indents))
        return [found[0], found[-1]] if len(found) > 1 else found

    def code(self, node: cst.CSTNode) -> str:
        start, end = self.span(node)
        return self.source.text[start:end]

    def replace(self, node: cst.CSTNode, text: str) -> Edit:
        start, end = self.span(node)
        return Edit(start, end, text)

    def fix(self, applicability: Applicability, description: str, *edits: Edit) -> Fix:
        return Fix(applicability, description, tuple(edits))

    def diagnostic(
        self,
        check: Check[Any] | type[Check[Any]],
        node: cst.CSTNode,
        message: str,
        fix: Fix | None = None,
        context: str = "",
        severity: Severity | None = None,
        fingerprint_of: cst.CSTNode | str | None = None,
        related: tuple[tuple[str, int, str], ...] = (),
    ) -> Diagnostic:
        """Return a diagnostic that starts where `node` starts.

        Its fingerprint (baselines, SARIF) is the source of `node` unless `fingerprint_of` names
        the part of the code that makes it a finding (a node, or text built from such parts), so
        that fixing another finding on the same code does not renew it.
        """
        code_range = self.range(node)
        return Diagnostic(
            path=self.path,
            line=code_range.start.line,
            column=code_range.start.column + 1,
            end_line=code_range.end.line,
            end_column=code_range.end.column + 1,
            code=check.code,
            rule=check.name,
            message=message,
            fix=fix,
            fingerprint=fingerprint(self._identity(node, fingerprint_of)),
            context=context,
            severity=severity or check.severity,
            related=related,
        )

    def _identity(self, node: cst.CSTNode, part: cst.CSTNode | str | None) -> str:
        if part is None:
            return self.code(node)
        return part if isinstance(part, str) else self.code(part)
