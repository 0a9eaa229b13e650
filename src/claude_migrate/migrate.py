"""`claude-migrate migrate --to MODEL`: a fix run of CM304 (migrate-model) with the target as its
policy, and the Markdown checklist of what it could not do.

The run is `api.fix` with one rule selected and a base policy naming the target, layered under
every policy the tree holds (so its exclusions and its other tables still apply): the same
parse, settle and atomic write as `fix`, and the same `--diff`, `--unsafe-fixes` and `--report`.
What is left afterwards (a call refused with its reason, or one whose fix is unsafe and was not
asked for) becomes one checklist item each, with its file and line. So does every other mention
of a model the migration moves that is still written after it (as `claude-migrate models` lists
them): a value no Claude call is proven to read, such as an environment variable's default
(`os.getenv("MODEL", "claude-3-haiku-20240307")`) or a configuration file's, which CM304 does not
change; the run then exits 1 and says how many.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from claude_migrate import api
from claude_migrate.checks.migrate_model import RULE, target_of
from claude_migrate.core.diagnostics import Applicability, Diagnostic, FileResult

if TYPE_CHECKING:
    from claude_migrate.report.models import Place


@dataclass(frozen=True)
class Migration:
    """What to migrate: the target, the models to move (empty: the target's tier), the run."""

    to: str
    sources: tuple[str, ...] = ()
    paths: tuple[Path, ...] = ()
    unsafe: bool = False
    diff: bool = False
    report_file: Path | None = None
    checklist: Path | None = None
    jobs: int | None = None
    cache_dir: Path | None = None
    no_cache: bool = False
    quiet: bool = False
    output_format: str = "text"


@dataclass
class Result:
    outcome: api.Outcome
    checklist: str = ""
    left: list[Diagnostic] = field(default_factory=list)
    # Mentions of a model the migration moves that it left as written (not a call it judged).
    mentions: list[tuple[Place, str | None]] = field(default_factory=list)


class MigrationError(Exception):
    """The migration cannot start (an unknown or retired target): exit 2 with this message."""


def validate(migration: Migration) -> str:
    """Return the target's catalogue id, or raise `MigrationError` saying what is wrong."""
    from claude_migrate.policy import deprecations

    known = deprecations.load(None)
    target = target_of(known, migration.to)
    if target is None:
        raise MigrationError(f"--to {migration.to!r} is not a model of the catalogue")
    if target.retires is not None:
        raise MigrationError(
            f"--to {migration.to!r} retires on {target.retires}: pick a current one"
        )
    for name in migration.sources:
        if target_of(known, name) is None:
            raise MigrationError(f"--from {name!r} is not a model of the catalogue")
    return target.id


def policy_text(target: str, sources: tuple[str, ...]) -> str:
    """Return the base policy of a migration run (TOML)."""
    listed = ", ".join(json.dumps(s) for s in sources)
    return f'extend = "default"\n\n[migrate-model]\nto = {json.dumps(target)}\nfrom = [{listed}]\n'


def run(migration: Migration) -> Result:
    """Run the migration and build its checklist (written to `migration.checklist` if given)."""
    target = validate(migration)
    with tempfile.TemporaryDirectory(prefix="claude-migrate-") as folder:
        base = Path(folder) / "migrate.toml"
        base.write_text(policy_text(target, migration.sources), encoding="utf-8")
        request = api.Request(
            paths=migration.paths,
            select=(RULE,),
            base_config=str(base),
            unsafe=migration.unsafe,
            diff=migration.diff,
            report_file=migration.report_file,
            jobs=migration.jobs,
            cache_dir=migration.cache_dir,
            no_cache=migration.no_cache,
            quiet=migration.quiet,
            output_format=migration.output_format,
        )
        outcome = api.fix(request)
        left = [d for r in outcome.run.results for d in r.diagnostics if d.code == RULE]
        mentions = _left_mentions(migration, target, str(base), outcome, left)
    if mentions:
        outcome.messages.append(
            f"claude-migrate migrate: {len(mentions)} other mention(s) of a model this migration "
            "moves are left as written (values it does not prove a call sends): see the checklist"
        )
        outcome.exit_status = max(outcome.exit_status, 1)
    if not _has_facts(target):
        outcome.messages.insert(
            0,
            f"claude-migrate migrate: warning: rules/models.toml states no request facts for "
            f"{target}: calls move to it, but their requests are not checked against it",
        )
    text = checklist(target, left, migration.unsafe, mentions)
    if migration.checklist is not None:
        api.write_text(migration.checklist, text)
    return Result(outcome, text, left, mentions)


def _left_mentions(
    migration: Migration, target: str, base: str, outcome: api.Outcome, left: list[Diagnostic]
) -> list[tuple[Place, str | None]]:
    """Return the places still naming a model the migration moves that no finding covers, each
    with the target in the place's spelling (None: no id of the target is known in it).

    The inventory is read after the run: written files no longer name what moved. With `--diff`
    nothing was written, so a place on the line of an applied fix is taken as moved.
    """
    from claude_migrate import inventory
    from claude_migrate.checks.migrate_model import moves
    from claude_migrate.core.errors import ConfigError
    from claude_migrate.discovery.collect import DiscoveryError
    from claude_migrate.policy import deprecations
    from claude_migrate.policy.config import PolicyLoader

    known = deprecations.load(None)
    wanted = target_of(known, target)
    if wanted is None:
        return []
    sources = frozenset(m.id for name in migration.sources if (m := target_of(known, name)))
    try:
        found = inventory.build(list(migration.paths) or [Path(".")], PolicyLoader(None, base=base))
    except (ConfigError, DiscoveryError):
        return []  # the run itself said what was wrong
    covered = {(d.path, d.cell, d.line) for d in left}
    if migration.diff:
        for result in outcome.run.results:
            covered |= {(d.path, d.cell, d.line) for d in result.applied if d.code == RULE}
            covered |= {(result.path, cell, line) for cell, line in _changed_lines(result)}
    places = []
    for entry in found.models:
        model = target_of(known, entry.model)
        if model is None or model.id == wanted.id or not moves(model, wanted, sources):
            continue
        for place in entry.places:
            spelling = known.lookup(place.text)
            if (place.path, place.cell, place.line) in covered or spelling is None:
                continue
            places.append((place, known.spell(wanted, spelling)))
    texts: dict[str, str | None] = {}
    lines: dict[tuple[str, int | None], frozenset[int]] = {}
    places = [item for item in places if not _silenced(item[0], texts, lines)]
    return sorted(places, key=lambda p: (p[0].path, p[0].cell or 0, p[0].line, p[0].column))


# A mention is left off the checklist where the user silenced the migration or the retired
# model's finding on its line (a noqa or ignore comment naming CM304 or CM302, or a bare one),
# or the whole file (skip-file).
_SILENCING = frozenset({RULE, "CM302", "*"})


def _silenced(
    place: Place,
    texts: dict[str, str | None],
    lines: dict[tuple[str, int | None], frozenset[int]],
) -> bool:
    """Return whether a suppression comment silences the migration at a mention's place.

    The file is read as the run read it: a Python file decoded as Python decodes it (BOM, PEP
    263 cookie) and its comments found by Python's tokenizer (a `# noqa` inside a string is no
    comment), a notebook cell by cell; lines end at `\r\n`, `\r` or `\n` only, as Python ends
    them (a form feed or U+0085 in a string does not start a line). Each file (each cell) is
    read and tokenized once, however many mentions it holds.
    """
    from claude_migrate.core.source import read_regular
    from claude_migrate.core.suppress import skips_file

    if place.path not in texts:
        try:
            data: bytes = read_regular(place.path)
        except OSError:
            data = b""
        texts[place.path] = None if skips_file(data) else _decoded(place.path, data)
    text = texts[place.path]
    if text is None:
        return True
    key = (place.path, place.cell)
    if key not in lines:
        python = place.cell is not None or place.path.endswith((".py", ".pyi", ".pyw"))
        if place.cell is not None:
            cells = _cells(text)
            text = cells[place.cell - 1] if 0 < place.cell <= len(cells) else ""
        lines[key] = _silencing_lines(text, python)
    return place.line in lines[key]


def _silencing_lines(text: str, python: bool) -> frozenset[int]:
    """Return the 1-based lines of a text whose comment silences the migration."""
    from claude_migrate.core.filekind import python_comments
    from claude_migrate.core.suppress import comment_codes

    if python:
        comments = [(c.line, c.text) for c in python_comments(text)]
    else:
        comments = [
            (number, line[line.find("#") :])
            for number, line in enumerate(_LINE_END.split(text), start=1)
            if "#" in line
        ]
    return frozenset(line for line, comment in comments if comment_codes(comment) & _SILENCING)


_LINE_END = re.compile(r"\r\n?|\n")


def _decoded(path: str, data: bytes) -> str:
    """Return a file's text: a Python file as Python decodes it, any other as UTF-8."""
    from claude_migrate.core.source import python_text

    if path.endswith((".py", ".pyi", ".pyw")):
        text = python_text(data)
        if text is not None:
            return text
    return data.decode("utf-8", "replace")


def _changed_lines(result: FileResult) -> set[tuple[int | None, int]]:
    """Return the (cell, 1-based line) places of a file's original text its fixed text changes:
    cell None in a plain file; in a notebook, lines counted within each cell (every cell counts,
    as Jupyter shows them)."""
    if result.original_text is None or result.fixed_text is None:
        return set()
    if result.path.endswith(".ipynb"):
        before, after = _cells(result.original_text), _cells(result.fixed_text)
        if len(before) != len(after):
            return set()
        return {
            (number, line)
            for number, (old, new) in enumerate(zip(before, after, strict=True), start=1)
            for line in _lines_changed(old, new)
        }
    return {(None, line) for line in _lines_changed(result.original_text, result.fixed_text)}


def _cells(text: str) -> list[str]:
    """Return the source of each cell of a notebook's JSON text ([] when it cannot be read)."""
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError, RecursionError):
        return []
    sources = []
    for cell in cells if isinstance(cells, list) else []:
        source = cell.get("source", "") if isinstance(cell, dict) else ""
        sources.append("".join(source) if isinstance(source, list) else str(source))
    return sources


def _lines_changed(before: str, after: str) -> set[int]:
    """Return the 1-based lines of `before` that `after` changes."""
    import difflib

    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), False)
    return {
        line + 1
        for tag, start, end, _, _ in matcher.get_opcodes()
        if tag != "equal"
        for line in range(start, end)
    }


def _has_facts(target: str) -> bool:
    from claude_migrate.policy import model_facts

    facts = model_facts.load().for_model(target)
    return facts is not None and bool(facts.sources)


def checklist(
    target: str,
    left: list[Diagnostic],
    unsafe: bool,
    mentions: list[tuple[Place, str | None]] | None = None,
) -> str:
    """Return the Markdown checklist of what the migration left, one item per call or mention."""
    lines = [
        f"## Migration to {target}: what is left to do by hand",
        "",
        f"Generated by `claude-migrate migrate --to {target}`. Each item is a Claude call the "
        "migration did not move, with the reason and the page that states it, or a mention of a "
        "model it moves that it left as written. A call whose model is not written in the code "
        "(read at run time from a parameter, a setting or the environment, with no default "
        "naming a model) is not judged: check those by hand.",
        "",
    ]
    if not left and not mentions:
        lines.append(
            "Nothing: every call whose model the migration moves was moved, and no other "
            "mention of such a model is left."
        )
    for finding in sorted(left, key=lambda d: (d.path, d.line, d.column)):
        where = f"`{finding.path}:{finding.line}`"
        if finding.cell is not None:
            where = f"`{finding.path}` cell {finding.cell}, line {finding.line}"
        note = ""
        if finding.fix is not None and finding.fix.applicability is Applicability.UNSAFE:
            note = " (an unsafe fix exists: review it and run with `--unsafe-fixes`)"
            if unsafe:
                note = ""
        lines.append(f"- [ ] {where}: {finding.message}{note}")
    items = list(
        dict.fromkeys(_mention(place, target, written) for place, written in mentions or ())
    )
    if items:
        if left:
            lines.append("")
        lines += [
            "### Mentions the migration does not change",
            "",
            *(f"- [ ] {item}" for item in items),
        ]
    return "\n".join(lines) + "\n"


_PYTHON = (".py", ".pyi", ".pyw", ".ipynb")


def _mention(place: Place, target: str, written: str | None) -> str:
    """Return the checklist item of a model mention the migration left as written."""
    if place.cell is not None:
        where = f"`{place.path}` cell {place.cell}, line {place.line}"
    else:
        where = f"`{place.path}:{place.line}`"
    if place.use == "call":
        what = "a Claude call's model the migration did not change"
    elif place.path.endswith(_PYTHON):
        what = (
            "left as written: the migration changes a model where it proves a call sends it, "
            "not a value read at run time (an environment variable's default, a setting, a "
            "field's default, an argument)"
        )
    else:
        what = "a configuration value, which the migration does not change"
    if written is None:
        todo = f"no id of {target} in this spelling is known (rules/deprecations.toml)"
    else:
        todo = f"if a call sends it, write {written!r} and check that call's request against it"
    return f"{where}: {place.text!r} is {what}; {todo}"
