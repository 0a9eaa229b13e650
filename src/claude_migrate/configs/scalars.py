"""Every scalar of a configuration file, with the exact span of its text: what a fix may edit.

A scalar is kept only where the file spells its value verbatim (no escape, no line folding), so
that replacing the characters of the span replaces the value and nothing else: quotes, comments,
anchors, order, layout and line endings stay as they are. Each format is read by the reader
that defines it, so that a span is never guessed:

- YAML: PyYAML's scanner (its tokens carry the line and column where each scalar starts and
  ends; the C scanner when the LibYAML binding is there). Mapping keys are scalars too; an alias
  (`*name`) is no scalar, so a value shared through an anchor is found once, at the anchor.
- JSON: `json` decides validity; outside strings JSON holds no quote, so its strings are found
  by one scan from the start and each is decoded by `json` itself.
- TOML: `tomllib` decides; tree-sitter's TOML grammar gives the spans (`manifests.toml_spans`).
- `.env`: `KEY=VALUE` lines (optionally `export KEY=...`), values bare or quoted, `#` comments.
- `.ini` / `.cfg`: `key = value` / `key: value` lines as `configparser` reads them (no inline
  comments, indented lines continue a value); a value is read as a list of words separated by
  commas or white space, so `models = claude-a, claude-b` holds two scalars.

A file that does not read raises `Unreadable` with the line, for the CM001 entry.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from claude_migrate.core.errors import number_too_long
from claude_migrate.core.offsets import CharOffsets
from claude_migrate.core.source import SourceText

if TYPE_CHECKING:
    import yaml  # imported where a YAML file is read


@dataclass(frozen=True)
class Scalar:
    """One scalar value written verbatim at text[start:end]."""

    start: int
    end: int
    value: str
    key: bool = False  # a mapping's key (a table keyed by model id), not a value


class Unreadable(Exception):
    """The file is not valid in its format."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def read(fmt: str, source: SourceText) -> list[Scalar]:
    """Return the file's verbatim scalars, in text order; raise `Unreadable` when it is invalid."""
    reader = {"yaml": _yaml, "json": _json, "toml": _toml, "env": _env, "ini": _ini}[fmt]
    return list(reader(source))


# YAML --------------------------------------------------------------------------------------------


def _yaml_loader() -> type[yaml.SafeLoader]:
    import yaml

    # The LibYAML scanner when PyYAML was built with it (ten times faster), else PyYAML's own.
    loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return loader


def _yaml(source: SourceText) -> Iterator[Scalar]:
    import yaml

    text = source.text
    try:
        tokens = list(yaml.scan(text, Loader=_yaml_loader()))
        for _ in yaml.compose_all(text, Loader=_yaml_loader()):
            pass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        raise Unreadable(f"invalid YAML: {exc.problem or exc.context}", line) from None
    except yaml.YAMLError as exc:
        raise Unreadable(f"invalid YAML: {exc}") from None
    after_key = False
    for token in tokens:
        is_key, after_key = after_key, isinstance(token, yaml.KeyToken)
        if not isinstance(token, yaml.ScalarToken) or token.style in ("|", ">"):
            continue
        start = source.offset(token.start_mark.line + 1, token.start_mark.column)
        end = source.offset(token.end_mark.line + 1, token.end_mark.column)
        quote = 0 if token.plain else 1
        inner = text[start + quote : end - quote]
        if inner == token.value and (not quote or text[start] == text[end - 1]):
            yield Scalar(start + quote, end - quote, token.value, is_key)


def yaml_entry_keys(source: SourceText) -> dict[tuple[int, int], frozenset[str]]:
    """Return, for each plain value of a YAML mapping, the keys of its entry: the mapping's own
    and those of the mappings among its values (`name: claude-2.1` beside `params:
    {temperature: 0.7, top_p: 0.9}`), keyed by the value's (line, column) as the scanner
    marks it. Empty for a file that does not compose."""
    import yaml

    found: dict[tuple[int, int], frozenset[str]] = {}
    try:
        documents = list(yaml.compose_all(source.text, Loader=_yaml_loader()))
    except yaml.YAMLError:
        return found
    stack = [node for node in documents if node is not None]
    # An alias is the node its anchor names, met again: read each node once, or a few lines of
    # anchors naming anchors (`b: &b [*a, *a, ...]`) are read an exponential number of times.
    # A value's entry is its own mapping's, whichever parent the walk meets it from.
    walked: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in walked:
            continue
        walked.add(id(node))
        if isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
        if not isinstance(node, yaml.MappingNode):
            continue
        keys = {str(key.value) for key, _ in node.value if isinstance(key, yaml.ScalarNode)}
        for _, value in node.value:
            if isinstance(value, yaml.MappingNode):
                keys |= {str(k.value) for k, _ in value.value if isinstance(k, yaml.ScalarNode)}
        entry = frozenset(keys)
        for _, value in node.value:
            if isinstance(value, yaml.ScalarNode):
                found[(value.start_mark.line, value.start_mark.column)] = entry
            else:
                stack.append(value)
    return found


def yaml_reads(text: str) -> bool:
    """Return whether `text` is a valid YAML stream (the test a fixed file must pass)."""
    import yaml

    try:
        for _ in yaml.compose_all(text, Loader=_yaml_loader()):
            pass
    except yaml.YAMLError:
        return False
    return True


# JSON --------------------------------------------------------------------------------------------

_JSON_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\.)*"')
# What follows a JSON object's key: white space, then the colon (matched where the string ends,
# so that telling a key from a value costs the white space between them, not the rest of the file).
_JSON_COLON = re.compile(r"[ \t\r\n]*:")


def _json(source: SourceText) -> Iterator[Scalar]:
    text = source.text
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Unreadable(f"invalid JSON: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise Unreadable("invalid JSON: nested too deeply") from None
    except ValueError:
        words, line = number_too_long(text)
        raise Unreadable(f"invalid JSON: {words}", line) from None
    if _written_by_us(data):
        return  # a report, baseline or inventory this tool wrote: it quotes ids, it keeps none
    for match in _JSON_STRING.finditer(text):
        raw = match.group()
        if "\\" not in raw:
            is_key = _JSON_COLON.match(text, match.end()) is not None
            yield Scalar(match.start() + 1, match.end() - 1, raw[1:-1], is_key)


# Records ------------------------------------------------------------------------------------------

# Bounds on the walk of a parsed file's lists of records.
MAX_NODES = 200_000


def record_fields(fmt: str, text: str) -> list[tuple[str, list[str]]]:
    """Return the columns and rows of the tables of records in a (valid) YAML, JSON or TOML
    text: for each list of two or more mappings, each key of them with the string values its
    mappings give it (`[{"name": "claude-3-haiku-20240307", "parameters": ...}, ...]`, where
    one field may be the record's id), and each mapping's string values (key ""). Nothing for
    another format or a text that does not parse."""
    found: list[tuple[str, list[str]]] = []
    for records in _record_lists(_parsed(fmt, text)):
        columns: dict[str, list[str]] = {}
        for record in records:
            row = [value for value in record.values() if isinstance(value, str)]
            found.append(("", row))
            for key, value in record.items():
                if isinstance(key, str) and isinstance(value, str):
                    columns.setdefault(key, []).append(value)
        found.extend(columns.items())
    return found


def _record_lists(data: object) -> Iterator[list[dict[object, object]]]:
    """Yield the mappings of each list of two or more in parsed data (MAX_NODES nodes read)."""
    stack: list[object] = [data]
    seen = 0
    while stack and seen < MAX_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
            records = [item for item in node if isinstance(item, dict)]
            if len(records) >= 2:
                yield records


# The words of a field that records what a model did (or cost) in a run, not what a request
# asks for: a benchmark's or an evaluation's scores, timings, outcomes, trial numbers. A field
# counts when one of its words (split on anything not a letter or digit) is one of these;
# request parameters (`max_tokens`, `temperature`, `top_p`) hold none of them.
MEASUREMENT_WORDS = frozenset(
    {
        "score", "scores", "accuracy", "acc", "f1", "precision", "recall", "bleu", "rouge",
        "latency", "duration", "elapsed", "runtime", "ttft", "throughput", "cost", "trial",
        "trials", "elo", "rating", "winrate", "wins", "losses", "ties", "passed",
        "failed", "correct", "incorrect", "pass", "fail", "solved",
    }
)  # fmt: skip
_WORDS = re.compile(r"[^a-z0-9]+")


def measured_values(fmt: str, text: str) -> set[str]:
    """Return the string values of the records of measurements in a (valid) YAML, JSON or TOML
    text: in a list of two or more mappings, each mapping that also holds a number under a
    field named for a measurement (`{"model": "claude-3-haiku-20240307", "trial": 0, "score":
    41}`, `MEASUREMENT_WORDS`). Such a record states what that model did."""
    if fmt not in ("json", "yaml", "toml"):
        return set()
    found: set[str] = set()
    for records in _record_lists(_parsed(fmt, text)):
        for record in records:
            if any(_measures(key, value) for key, value in record.items()):
                found.update(value for value in record.values() if isinstance(value, str))
    return found


def _measures(key: object, value: object) -> bool:
    if not isinstance(key, str) or isinstance(value, bool):
        return False
    if not isinstance(value, (int, float)):
        return False
    return not MEASUREMENT_WORDS.isdisjoint(_WORDS.split(key.lower()))


def _parsed(fmt: str, text: str) -> object:
    """Return the data of a YAML, JSON or TOML text (every YAML document, as a list), or None."""
    try:
        if fmt == "json":
            return json.loads(text)
        if fmt == "toml":
            if sys.version_info >= (3, 11):
                import tomllib
            else:  # pragma: no cover - exercised on Python 3.10
                import tomli as tomllib
            return tomllib.loads(text)
        if fmt == "yaml":
            import yaml

            return list(yaml.load_all(text, Loader=_yaml_loader()))
    except (ValueError, RecursionError, MemoryError):
        return None
    except Exception:  # PyYAML's errors, a tag the safe loader refuses
        return None
    return None


# TOML --------------------------------------------------------------------------------------------


def _toml(source: SourceText) -> Iterator[Scalar]:
    from claude_migrate.manifests.toml_spans import TomlDocument, TomlError

    try:
        document = TomlDocument(source.text)
    except TomlError as exc:
        raise Unreadable(str(exc), exc.line) from None
    except RecursionError:
        raise Unreadable("invalid TOML: nested too deeply") from None
    found = [
        Scalar(located.inner_start, located.inner_start + len(located.value), located.value)
        for located in document.values.values()
        if located.kind == "string" and located.inner_start is not None
    ]
    found += _toml_keys(source.text)
    yield from sorted(found, key=lambda scalar: scalar.start)


# The tables of a dependency file that are this tool's policy: they name retired ids on purpose.
OWN_TABLE = ("tool", "claude-migrate")


def manifest_values(source: SourceText) -> list[Scalar]:
    """Return the verbatim string values of a TOML dependency file (`pyproject.toml`, `Pipfile`)
    outside this tool's own table: a `[tool.*]` table of an application may name its model.

    Requirement strings never are a whole model id, so the dependency tables need no skipping.
    An unreadable file gives none: the dependency-file reader reports it (CM001).
    """
    from claude_migrate.manifests.toml_spans import TomlDocument, TomlError

    try:
        document = TomlDocument(source.text)
    except (TomlError, RecursionError):
        return []
    return sorted(
        (
            Scalar(located.inner_start, located.inner_start + len(located.value), located.value)
            for located in document.values.values()
            if located.kind == "string"
            and located.inner_start is not None
            and located.path[:2] != OWN_TABLE
        ),
        key=lambda scalar: scalar.start,
    )


def _toml_keys(text: str) -> list[Scalar]:
    """Return the quoted keys of a (valid) TOML text written without escapes: a table keyed
    by model id (`"claude-3-opus-20240229" = 15.0`). Bare keys are left out: a replacement
    with a `.` in it would turn one into a dotted key."""
    from claude_migrate.manifests.toml_spans import _parser

    raw = text.encode("utf-8")
    offset = CharOffsets(text)

    keys: list[Scalar] = []
    stack = [_parser().parse(raw).root_node]
    while stack:
        node = stack.pop()
        if node.type == "quoted_key":
            value = raw[node.start_byte + 1 : node.end_byte - 1].decode("utf-8")
            if "\\" not in value:
                start = offset(node.start_byte) + 1
                keys.append(Scalar(start, start + len(value), value, True))
            continue
        stack.extend(node.named_children)
    return keys


def toml_key_names(text: str) -> set[str]:
    """Return every key name of a (valid) TOML text, bare and quoted, table headers' segments
    included (`[llm.claude-opus-4-1]` names `llm` and `claude-opus-4-1`): a string value equal
    to one may be a reference to that entry, which renaming the value alone would break."""
    from claude_migrate.manifests.toml_spans import _parser

    raw = text.encode("utf-8")
    names: set[str] = set()
    stack = [_parser().parse(raw).root_node]
    while stack:
        node = stack.pop()
        if node.type == "bare_key":
            names.add(raw[node.start_byte : node.end_byte].decode("utf-8"))
        elif node.type == "quoted_key":
            names.add(raw[node.start_byte + 1 : node.end_byte - 1].decode("utf-8"))
        else:
            stack.extend(node.named_children)
    return names


def toml_reads(text: str) -> bool:
    import sys

    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10
        import tomli as tomllib
    try:
        tomllib.loads(text)
    except (ValueError, RecursionError):  # a decode error, or a number Python does not read
        return False
    return True


# .env --------------------------------------------------------------------------------------------

_ENV_LINE = re.compile(
    r"""^[ \t]*(?:export[ \t]+)?[A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*
    (?:(?P<q>["'])(?P<quoted>[^"'\\\r\n]*)(?P=q)|(?P<bare>[^ \t\r\n#"'][^\r\n#]*?))?
    [ \t]*(?:\#.*)?$""",
    re.VERBOSE,
)


def _env(source: SourceText) -> Iterator[Scalar]:
    for number in range(1, len(source.line_starts) + 1):
        line = source.line_text(number)
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        match = _ENV_LINE.match(line)
        if match is None:
            continue  # a multi-line or escaped value: not one this reader edits
        group = "quoted" if match.group("q") else "bare"
        if match.group(group) is None:
            continue
        base = source.line_starts[number - 1]
        yield from _words(base + match.start(group), match.group(group), commas_only=True)


# .ini / .cfg -------------------------------------------------------------------------------------

# The key runs to the first `=` or `:` (greedy: a lazy key followed by `[ \t]*` retries the
# blanks at each character, quadratic on a long line without a separator).
_INI_PAIR = re.compile(r"^(?P<key>[^=:\s][^=:]*)[=:][ \t]*(?P<value>.*)$")
_WORD = re.compile(r"[^\s,]+")


def _ini(source: SourceText) -> Iterator[Scalar]:
    for number in range(1, len(source.line_starts) + 1):
        line = source.line_text(number)
        stripped = line.strip()
        if not stripped or stripped[0] in "#;[":
            continue
        base = source.line_starts[number - 1]
        if line[0] in " \t":  # a continuation line: all of it is value
            yield from _words(base, line)
            continue
        match = _INI_PAIR.match(line)
        if match is not None:
            yield from _words(base + match.start("value"), match.group("value"))


def _words(base: int, value: str, commas_only: bool = False) -> Iterator[Scalar]:
    """Yield the words of a value (quotes around a word are not part of it)."""
    pattern = re.compile(r"[^,]+") if commas_only else _WORD
    for match in pattern.finditer(value):
        word = match.group()
        start = match.start()
        stripped = word.strip()
        start += len(word) - len(word.lstrip())
        if len(stripped) > 1 and stripped[0] == stripped[-1] and stripped[0] in "\"'":
            stripped, start = stripped[1:-1], start + 1
        if stripped:
            yield Scalar(base + start, base + start + len(stripped), stripped)


def ini_reads(text: str) -> bool:
    """Return whether `configparser` reads `text` (leniently: duplicates allowed, no `%`)."""
    import configparser

    parser = configparser.RawConfigParser(strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        return False
    return True


def _written_by_us(data: object) -> bool:
    """Return whether a JSON document is one of this tool's outputs (they name their tool)."""
    if not isinstance(data, dict):
        return False
    tool = data.get("tool")
    name = tool.get("name") if isinstance(tool, dict) else tool
    return name == "claude-migrate"


def json_reads(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):  # a decode error, or a number Python does not read
        return False
    return True


# What a fixed text must pass: it reads in its format (as the original did).
READS = {"yaml": yaml_reads, "json": json_reads, "toml": toml_reads, "ini": ini_reads}
