"""Where each value of a TOML document stands in its text, so a fix edits one string in place.

`tomllib` is the authority on what a document means (and on whether it is valid at all), but it
keeps no positions. tree-sitter's TOML grammar gives every node its exact span; we walk its tree
to the key path of each value and then check every string we found against what `tomllib` read
at that path, so a grammar quirk can never make us edit the wrong string.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from claude_migrate.core.errors import number_too_long
from claude_migrate.core.offsets import CharOffsets

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10
    import tomli as tomllib

if TYPE_CHECKING:
    import tree_sitter  # imported when a TOML file is first parsed

Path = tuple[str | int, ...]


class TomlError(Exception):
    """The document is not valid TOML, or its values could not be located."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class Located:
    """One value of the document: its key path, kind and character offsets in the text."""

    path: Path
    kind: str  # tree-sitter node type: "string", "array", "inline_table", "table", "integer", ...
    start: int
    end: int
    key_start: int  # where the key that holds it starts (the value's own start inside arrays)
    value: Any  # what tomllib read at `path`
    inner_start: int | None = None  # for strings written verbatim: where the value's text starts


@cache
def _parser() -> tree_sitter.Parser:
    import tree_sitter
    import tree_sitter_toml

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_toml.language()))


def _decode_key(raw: str) -> str:
    return next(iter(tomllib.loads(f"{raw} = 0")))


def _decode_string(raw: str) -> str:
    return str(tomllib.loads(f"x = {raw}")["x"])


def _line_of_error(exc: Exception) -> int | None:
    line = getattr(exc, "lineno", None)
    if line is None:
        import re

        match = re.search(r"line (\d+)", str(exc))
        line = int(match.group(1)) if match else None
    return line


class TomlDocument:
    """A parsed TOML text: `data` as tomllib reads it, `values` by key path with their spans."""

    def __init__(self, text: str) -> None:
        try:
            self.data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            message = getattr(exc, "msg", None) or str(exc).split(" (at ")[0]
            raise TomlError(f"invalid TOML: {message}", _line_of_error(exc)) from None
        except ValueError:
            words, line = number_too_long(text)
            raise TomlError(f"invalid TOML: {words}", line) from None
        self.text = text
        self._raw = text.encode("utf-8")
        self._offset = CharOffsets(text)
        tree = _parser().parse(self._raw)
        if tree.root_node.has_error:
            raise TomlError("cannot locate values in this TOML file (unsupported layout)")
        self.values: dict[Path, Located] = {}
        self._aot: dict[Path, int] = {}
        self._walk_document(tree.root_node)

    # Offsets ---------------------------------------------------------------------------------
    def _text(self, node: Any) -> str:
        return self._raw[node.start_byte : node.end_byte].decode("utf-8")

    # Keys -----------------------------------------------------------------------------------
    def _key(self, node: Any) -> list[str]:
        if node.type == "bare_key":
            return [self._text(node)]
        if node.type == "quoted_key":
            return [_decode_key(self._text(node))]
        if node.type == "dotted_key":
            parts: list[str] = []
            for child in node.named_children:
                parts.extend(self._key(child))
            return parts
        raise TomlError(f"unexpected key node {node.type}")

    def _resolve(self, keys: list[str]) -> Path:
        """Return the path of a table header, following arrays of tables to their last element."""
        path: list[str | int] = []
        for key in keys:
            path.append(key)
            index = self._aot.get(tuple(path))
            if index is not None:
                path.append(index)
        return tuple(path)

    # Walking --------------------------------------------------------------------------------
    def _walk_document(self, root: Any) -> None:
        for child in root.named_children:
            if child.type == "pair":
                self._walk_pair(child, ())
            elif child.type in ("table", "table_array_element"):
                key_node = child.named_children[0]
                keys = self._key(key_node)
                if child.type == "table":
                    path = self._resolve(keys)
                else:
                    base = self._resolve(keys[:-1]) + (keys[-1],)
                    index = self._aot.get(base, -1) + 1
                    self._aot[base] = index
                    path = base + (index,)
                self._record(path, child, child)
                for item in child.named_children[1:]:
                    if item.type == "pair":
                        self._walk_pair(item, path)

    def _walk_pair(self, pair: Any, prefix: Path) -> None:
        key_node, value_node = [c for c in pair.named_children if c.type != "comment"][:2]
        path = prefix + tuple(self._key(key_node))
        self._walk_value(value_node, path, pair)

    def _walk_value(self, node: Any, path: Path, holder: Any) -> None:
        self._record(path, node, holder)
        if node.type == "array":
            for index, item in enumerate(c for c in node.named_children if c.type != "comment"):
                self._walk_value(item, path + (index,), item)
        elif node.type == "inline_table":
            for item in node.named_children:
                if item.type == "pair":
                    self._walk_pair(item, path)

    def _record(self, path: Path, node: Any, holder: Any) -> None:
        try:
            value = lookup(self.data, path)
        except (KeyError, IndexError, TypeError):
            raise TomlError(f"cannot locate {dotted(path)} in this TOML file") from None
        if isinstance(value, str) != (node.type == "string"):
            raise TomlError(f"cannot locate the value of {dotted(path)} in this TOML file")
        start, end = self._offset(node.start_byte), self._offset(node.end_byte)
        inner: int | None = None
        if node.type == "string":
            raw = self._text(node)
            quote = 3 if raw[:3] in ('"""', "'''") else 1
            if raw[quote:-quote] == value:
                inner = start + quote  # written verbatim: value offsets map to text offsets
            elif _decode_string(raw) != value:
                raise TomlError(f"cannot locate the string at {dotted(path)} in this TOML file")
        self.values[path] = Located(
            path, node.type, start, end, self._offset(holder.start_byte), value, inner
        )

    # Queries --------------------------------------------------------------------------------
    def get(self, *path: str | int) -> Located | None:
        return self.values.get(tuple(path))

    def children(self, *path: str | int) -> Iterator[Located]:
        """Yield the located values directly under `path`, in document order."""
        depth = len(path)
        for key, located in self.values.items():
            if len(key) == depth + 1 and key[:depth] == path:
                yield located


def lookup(data: Any, path: Path) -> Any:
    for part in path:
        data = data[part]
    return data


def dotted(path: Path) -> str:
    return ".".join(str(p) for p in path)
