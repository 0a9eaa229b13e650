"""CM302 retired-models: a Claude call that names a model past (or near) its end of life.

What changed upstream: Anthropic retires models on fixed dates (rules/deprecations.toml lists
them with their sources); a request to a retired model fails.
Finds: the model of any recognised Claude call (a literal or a constant; the SDK's `model=`, a
Bedrock `modelId`, LangChain's `model` / `model_name` / `model_id`, a LiteLLM model, a raw HTTP
body's "model"), in any spelling the catalogue knows (API id or alias, Bedrock id with a region
prefix or ARN, Vertex id, LiteLLM prefix), retired as of `as-of` (default: today, UTC).
A model retiring within `warn-days` is reported too, with its date and no fix.
Writes instead (unsafe: another model answers): the replacement, in the same platform's spelling
and keeping any prefix; `[retired-models.replace]` in the policy overrides the catalogue's choice.
The fix is checked against the replacement's facts (rules/models.toml): it carries the parameter
changes the new model needs, or is refused with the reason. A legacy Text Completions call gets
no fix here: CM301's rewrite moves its model. A Bedrock or Vertex id is judged by its platform's
own date where the catalogue has one, else as `platform-dates` says. A model only the installed
SDK's deprecation table knows is reported too, naming the SDK.
A model id written as data (any string literal outside docstrings, in notebooks too, and every
scalar of a YAML, JSON, TOML, `.env` or `.ini` configuration file) that no analysis proves to
reach a call is reported as a warning saying so, fixed (unsafe) by the replacement in the same
spelling, in place; except where the rewrite would change what the code means: a comparison
that excludes it, a response body's model (what the API answered, which a test compares with
its recording; a body a test double gives back), what a test expects where another literal of
the file with that id keeps it (and any literal of a file whose test expectation keeps its id),
an element of a list (or `Literal[...]`) that holds the
replacement or another element becoming it, a table key another key becomes, an id that keys
facts about the model (a table's numbers, flags or sets; a figure paired with it or a test
checks): the figures would describe the replacement; a cell of a row of a test's table of cases
(`pytest.mark.parametrize`), beside what the test expects of the project's code for it. An id
(a call's or data) that a test of the module sends to a recorded exchange it replays keeps it
too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_migrate.analysis.bound_tools import profile_reason
from claude_migrate.analysis.calls import CallSite
from claude_migrate.analysis.edits import string_literal
from claude_migrate.analysis.model_tables import lookup_unproven, missed_lookup, table_without
from claude_migrate.analysis.retirements import (
    Judged,
    compose,
    judge,
    judge_entry,
    read_refusal,
    sdk_note,
    unread_refusal,
)
from claude_migrate.checks.base import Check, Option, call_sites
from claude_migrate.core.diagnostics import (
    Applicability,
    Diagnostic,
    Edit,
    Fix,
    Severity,
    fingerprint,
)
from claude_migrate.policy.model_ids import SDK_SOURCE
from claude_migrate.targets.registry import TARGETS

if TYPE_CHECKING:
    import libcst as cst

    from claude_migrate.analysis.context import FileContext
    from claude_migrate.analysis.model_mentions import Mention
    from claude_migrate.analysis.values import Entry
    from claude_migrate.configs.scalars import Scalar
    from claude_migrate.core.filekind import CheckContext
    from claude_migrate.core.settings import FileSettings
    from claude_migrate.policy.deprecations import Spelling
    from claude_migrate.policy.facts import ProjectFacts
    from claude_migrate.policy.model_ids import Status
    from claude_migrate.project.triage import Wanted


# Dependency files in TOML whose other tables (`[tool.*]`) an application may keep models in.
TOML_MANIFESTS = ("pyproject", "pipfile")
# How a data finding says where the id was found (a Python module, or a configuration file).
DATA_IN_CODE = "found as data: no Claude call in this module is proven to read it"
DATA_IN_CONFIG = "found as data in a configuration file"
# Why a data mention gets no fix: a config value equal to one of the same file's keys
# (`llm = "claude-opus-4-1"` beside a `[llm.claude-opus-4-1]` table) may name that entry, and
# renaming one of the two alone would break the reference.
NAMES_A_KEY = "the file has it both as a key and as a value, which may refer to the key"
# ... a field of a list of records (`[{"name": "claude-3-5-sonnet-20240620", "parameters": ...}]`)
# another record of which already holds the replacement or becomes it: the field may be the
# records' id (a table of facts about each model), and two records would share one.
RECORDS = (
    "a list of records holds {0!r} in this field of another record or in another field of this "
    "one, or another of them becomes it: where they name records, two records would share one "
    "name"
)
# ... and a Python literal the code excludes (`!=`, `not in`, `is not`): it checks the id is not
# used, and the replacement there would check that the replacement is not.
EXCLUDED = (
    "the code checks that it is not used; the replacement there would check the replacement is not"
)
# ... a response body's model: the API's answer (a test's recording or double), which the
# project's tests compare with what was recorded; the fix would not change the recording.
ANSWERED = "it is a response's model (what the API answered, recorded or mocked), not a request's"
# ... the same id as a body a test double gives back: the test compares the two.
PAIRED = (
    "a test double in this file gives the same id back, which keeps it (its body is an answer), "
    "and a test compares the two"
)
# ... what a test expects, where the id it compares with keeps it: the test would expect the
# replacement from code that still sends (or answers) the old id.
EXPECTED = (
    "a test in this file expects it, and another literal of the file with this id keeps it "
    "(its finding has no fix): the test would compare the replacement with the old id"
)
# ... and the other way round: an id a test of the file expects where that expectation keeps
# it (its finding has no fix): renamed alone, the test compares what it hands the code under
# test, now the replacement, with the old id.
HELD = (
    "a test of this file expects it (line {}), and that expectation keeps it (its finding has "
    "no fix): renamed alone, the test would compare the replacement with the old id; change "
    "both by hand"
)
# ... what a double of a Text Completions call is expected to be called with: that call keeps
# its model until CM301 moves it, wherever it is written.
LEGACY_EXPECTED = (
    "a test expects a Text Completions call with it, and that call keeps its model until CM301 "
    "(legacy-completions) moves it to the Messages API"
)
# ... the model of a Text Completions request body (`prompt` and `max_tokens_to_sample`): the
# replacement is a Messages-era model, which that endpoint never served.
LEGACY_BODY = (
    "it is the model of a Text Completions request (prompt and max_tokens_to_sample), an "
    "endpoint that never served a Messages-era model: move the request to the Messages API "
    "(CM301) and change the model with it"
)
# ... a cell of a test's table of cases: the row's input and the result the test expects of the
# project's code go together, and the code (or the data it reads) does not move with the row.
CASE = (
    "it is in a row of a test's table of cases (pytest.mark.parametrize), beside what the test "
    "expects of the project's code for it: renamed, the row asks that code about the "
    "replacement, which it answers only if it (or the data it reads) moves the same way"
)
# ... an id in a record of measurements (a results file: `{"model": ..., "trial": 0, "score":
# 41}`): what that model did; renamed, the replacement would appear to have its results.
MEASURED = (
    "it is in a record of measurements taken with that model (a score, a timing, a trial "
    "beside it): renamed, the replacement would appear to have the retired model's results"
)
# ... an id a test of this module sends to a replayed recording (`analysis.recordings`).
# ... or it is in a recording itself: a cassette file (pytest-recording's `cassettes/` folders,
# vcrpy's `interactions` of a request and a response).
IN_RECORDING = (
    "it is part of a recorded HTTP exchange (a test's cassette), what was sent and answered then: "
    "renaming it fakes the recording; record it again with the new model"
)
RECORDED = (
    "a test of this module replays a recorded request with it ({}), matched on what it sends: "
    "a new id would find no recording; record it again with the new model"
)
# ... or one the test making the call expects again (`assert llm.base_model == "<the id>"`).
EXPECTED_AGAIN = (
    "the test expects this id again (line {}), as what the code under test gives back: "
    "moving the call alone fails it; change both by hand"
)
# ... the key of a table of facts about the model (a token limit, a context size, prices, a set
# of features, a flag), the id of a pair stating one, or one a test looks a figure up by:
# renamed, the old model's figures would describe the replacement (a limit it may not allow, a
# wrong price or window).
FACTS = (
    "it names the model in facts about it (a table's key, an id paired with a figure, a figure a "
    "test checks: numbers, flags or a set, such as a token limit, a context size, a price; an "
    "entry of a list named for what its models can or cannot do); "
    "renamed, the old model's figures would describe the replacement: add the replacement's own "
    "entry beside it"
)
# ... an id in a test that exercises a beta or tool version the replacement no longer takes
# (`rules/models.toml`'s dropped betas and tools): the code under test gates that feature on the
# old model, so the renamed test asks it about a model the feature does not exist for.
DROPPED = (
    "the test code around it exercises {0!r} (line {2}), which {1!r} no longer takes: renamed, "
    "the test would ask for the old model's feature on the replacement; change the test by hand"
)
# ... an id a test states again inside a longer text it expects (`" [fallback to claude-x]"`),
# which no fix rewrites: renamed alone, the code under test answers with the replacement.
EMBEDDED = (
    "the test expects this id again inside a text (line {}), which no fix rewrites: renamed "
    "alone, the code under test would give back the replacement; change both by hand"
)
# ... an id a test expects that a longer text of the file also holds (a configuration the test
# writes and the code under test reads), which no fix rewrites.
SOURCED = (
    "a test expects it, and a text of this file (line {}) holds it too, which no fix rewrites "
    "(a configuration the code under test reads): renamed, the test would expect the "
    "replacement from code that still reads the old id; change both by hand"
)
# ... an element of a list of models that holds the replacement already, or another element
# becoming it: the list would name one model twice and no longer the ones it named.
COLLAPSES = (
    "an element of a list (or a register of models built through one class) that already holds "
    "it or another entry that becomes it"
)


class RetiredModelCheck(Check["CheckContext"]):
    code = "CM302"
    name = "retired-models"
    summary = "a Claude call or a data value names a retired (or soon retiring) model"
    fix_applicability = Applicability.UNSAFE
    kinds = frozenset({"python", "config", "manifest"})
    options = {
        "as-of": Option(
            "date",
            None,
            "the date retirements are judged on (default: today, UTC)",
            example=lambda: dt.date(dt.date.today().year + 1, 1, 1),  # always ahead
        ),
        "warn-days": Option(
            "integer",
            90,
            "report models retiring within this many days (0: never)",
            minimum=0,
            # A century: longer than any model's life, and `as-of` plus it stays a real date.
            maximum=36_500,
        ),
        "replace": Option(
            "string-table", {}, "model id -> the model id its fix writes (overrides the catalogue)"
        ),
        "prefer": Option(
            "enum",
            "nearest",
            "which catalogue replacement the fix writes: the nearest model (fewest request "
            "changes) or the one Anthropic recommends (recommended)",
            choices=("nearest", "recommended"),
        ),
        "platform-dates": Option(
            "enum",
            "warn",
            "a Bedrock or Vertex id whose platform date is unknown: judged by the API's date "
            "(api), reported without a fix (warn), or not reported (ignore)",
            choices=("api", "warn", "ignore"),
        ),
        "catalogue": Option(
            "path",
            None,
            "a TOML catalogue whose entries extend rules/deprecations.toml",
            example="deprecations-extra.toml",
        ),
    }

    @classmethod
    def validate(cls, table: Mapping[str, Any]) -> list[tuple[str, str]]:
        from claude_migrate.policy import deprecations

        extra = table.get("catalogue")
        if extra is not None and not Path(extra).is_file():
            return [("catalogue", f"expected an existing TOML file, {extra} not found")]
        # Loading validates the catalogue at start-up; a bad entry raises naming itself.
        known = deprecations.for_settings(table)
        for name in dict(table.get("replace") or {}):
            if known.find(name) is None:
                return [("replace", f"{name!r} is not a model of the catalogue")]
        return []

    @classmethod
    def wanted(cls, settings: FileSettings) -> Wanted:
        from claude_migrate.policy.facts import facts_for
        from claude_migrate.policy.model_ids import dated_model_test

        # The call sites, and any string literal spelling a model with a retirement date (data).
        return call_sites(model_ids=(dated_model_test(facts_for(settings).catalogue),))

    def check(self, ctx: CheckContext) -> Iterable[Diagnostic]:
        from claude_migrate.analysis.context import FileContext

        if isinstance(ctx, FileContext):
            # The ids a call of the file keeps (its finding has no fix): a test's expectation
            # of one keeps it too.
            kept: set[str] = set()
            yield from self._calls(ctx, kept)
            yield from self._python_data(ctx, kept)
        else:
            yield from self._config_data(ctx)

    # Data: ids no call is proven to use ---------------------------------------------------------
    def _python_data(self, ctx: FileContext, kept: set[str]) -> Iterable[Diagnostic]:
        from claude_migrate.analysis.edits import string_literal
        from claude_migrate.analysis.model_mentions import call_model_nodes, python_mentions

        mentions, values = python_mentions(ctx)
        if not mentions:
            return
        # A test's expectations last: each keeps its id when another literal of the file with
        # that id keeps it (`kept`), the call's or the data's, or the test compares a renamed
        # expectation with an id still sent.
        found: dict[int, list[Diagnostic]] = {}
        order = sorted(range(len(mentions)), key=lambda index: mentions[index].expected)
        proven = call_model_nodes(ctx)
        spelled = frozenset(mention.value for mention in mentions)
        shared = _shared_targets(
            (mention.spelling for mention in mentions if mention.key), ctx.facts
        )
        # What each id's fix would write, once per file (a list's elements are checked against
        # each other's replacements).
        targets = {mention.value: _target(mention.spelling, ctx.facts) for mention in mentions}
        group_targets: dict[int, Counter[str | None]] = {}
        # The ids a test's expectation of the file keeps, with where the first such one starts.
        held: dict[str, int] = {}
        for index in order:
            mention = mentions[index]
            if id(mention.node) in proven:
                continue  # a call's model: reported (or not) as the call's, above
            start, end = ctx.span(mention.node)
            taken = values | shared if mention.key else set()
            node = mention.node

            def edit(target: str, node: cst.SimpleString = node) -> Edit:
                return ctx.replace(node, string_literal(node, target))

            why_not = EXCLUDED if mention.excluded else ANSWERED if mention.answered else ""
            why_not = why_not or (PAIRED if mention.paired else "")
            why_not = why_not or (FACTS if mention.facts else "")
            if not why_not and mention.expected and mention.value in kept:
                why_not = EXPECTED
            why_not = why_not or (LEGACY_EXPECTED if mention.legacy_expected else "")
            why_not = why_not or (LEGACY_BODY if mention.legacy_body else "")
            why_not = why_not or (CASE if mention.case else "")
            why_not = why_not or recorded_reason(ctx, mention.value)
            target = targets.get(mention.value)
            if not why_not and not mention.key and target is not None:
                why_not = table_without(ctx, mention.value, target)
            if not why_not and mention.indexes and target is not None:
                why_not = lookup_unproven(ctx, mention.indexes, mention.value, target)
            if not why_not and mention.group is not None and target is not None:
                # The other elements as they are, and as their own fixes would write them.
                becoming = group_targets.get(id(mention.group))
                if becoming is None:
                    becoming = Counter(targets.get(value) for value in mention.group.elements())
                    group_targets[id(mention.group)] = becoming
                if mention.group[target] or becoming[target] > 1:
                    why_not = COLLAPSES
            if not why_not and target is not None and not mention.key:
                why_not = unread_refusal(ctx, mention.value, target)
            if not why_not and target is not None:
                why_not = _tested(ctx, mention, target, spelled)
            reported = found[index] = list(self._data(
                ctx, start, end, mention.value, mention.spelling, taken, edit, DATA_IN_CODE,
                why_not,
            ))  # fmt: skip
            if why_not not in (EXCLUDED, ANSWERED):
                # A literal the code may send that keeps its id (a comparison that excludes it
                # or a response's model is not what a request sends).
                kept.update(mention.value for diagnostic in reported if diagnostic.fix is None)
                _hold(ctx, held, mention, why_not, reported)
        for index in sorted(found):
            yield from _withdrawn(ctx, found[index], mentions[index], held)

    def _config_data(self, ctx: CheckContext) -> Iterable[Diagnostic]:
        from claude_migrate.policy.model_ids import WORD, recognise

        if WORD not in ctx.source.text:
            return
        scalars = getattr(ctx, "scalars", None)
        if scalars is None and getattr(ctx, "format", "") in TOML_MANIFESTS:
            from claude_migrate.configs.scalars import manifest_values

            scalars = manifest_values(ctx.source)
        if not scalars:
            return
        catalogue = ctx.facts.catalogue
        values = {scalar.value for scalar in scalars}
        keys = (recognise(scalar.value, catalogue) for scalar in scalars if scalar.key)
        shared = _shared_targets((key for key in keys if key is not None), ctx.facts)
        names = _key_names(ctx, scalars)
        plain = {scalar.value for scalar in scalars if not scalar.key}
        entries = _yaml_entries(ctx)
        recording = _is_recording(ctx)
        records = _record_ids(ctx, catalogue)
        measured = _measured(ctx)
        for scalar in scalars:
            spelling = recognise(scalar.value, catalogue)
            if spelling is not None:
                taken = values | shared if scalar.key else set()
                in_records = set() if scalar.key else records.get(scalar.value, set())

                def edit(target: str, at: Scalar = scalar) -> Edit:
                    return Edit(at.start, at.end, target)

                named = scalar.value in (plain if scalar.key else names)
                entry = _entry_of(ctx, entries, scalar.start) if not scalar.key else frozenset()
                yield from self._data(
                    ctx, scalar.start, scalar.end, scalar.value, spelling, taken, edit,
                    DATA_IN_CONFIG,
                    IN_RECORDING if recording else NAMES_A_KEY if named
                    else MEASURED if not scalar.key and scalar.value in measured else "",
                    entry, in_records,
                )  # fmt: skip

    def _data(
        self,
        ctx: CheckContext,
        start: int,
        end: int,
        value: str,
        spelling: Spelling,
        taken: set[str],
        edit: Callable[[str], Edit],
        found: str,
        why_not: str = "",
        entry: frozenset[str] = frozenset(),
        records: set[str] | frozenset[str] = frozenset(),
    ) -> Iterable[Diagnostic]:
        from claude_migrate.policy.model_ids import assess

        facts = ctx.facts
        status = assess(spelling, facts)
        if status is None:
            return
        state = status.state(facts.as_of, self.settings["warn-days"])
        if state == "active":
            return
        if not why_not and status.target is not None and entry:
            why_not = _refused_in_entry(status.target, entry, facts.catalogue)
        message, fix = self._data_message(status, state, value, facts.as_of, edit, found, why_not)
        if fix is not None and status.target in taken:
            # A table keyed by model id may already have the new model, or two of its retired
            # keys may both become it: two entries would merge.
            message += (
                f" (no automatic fix: a key, and the file already holds {status.target!r} or "
                "another key that becomes it: two entries could merge)"
            )
            fix = None
        moved = _model_of(status.target, facts) if status.target is not None else None
        if fix is not None and moved is not None and moved in records:
            message += f" (no automatic fix: {RECORDS.format(status.target)})"
            fix = None
        line, column = ctx.source.position(start)
        end_line, end_column = ctx.source.position(end)
        yield Diagnostic(
            path=ctx.path, line=line, column=column + 1, end_line=end_line,
            end_column=end_column + 1, code=self.code, rule=self.name, message=message,
            fix=fix, fingerprint=fingerprint(value), severity=Severity.WARNING,
        )  # fmt: skip

    def _data_message(
        self,
        status: Status,
        state: str,
        value: str,
        as_of: dt.date,
        edit: Callable[[str], Edit],
        found: str,
        why_not: str = "",
    ) -> tuple[str, Fix | None]:
        assert status.retires is not None
        date = status.retires.isoformat()
        where = " on the Anthropic API" if status.platform else ""
        if state == "retiring":
            days = (status.retires - as_of).days
            message = (
                f"model {value!r} ({found}) retires{where} on {date} "
                f"(in {days} day{'s' if days != 1 else ''}){sdk_note(status.spelling)}"
            )
            if status.platform:
                message += f"; {status.platform} sets its own date"
            if status.target is not None:
                message += f"; plan the move to {status.target!r}"
            return message, None
        message = f"model {value!r} ({found}) was retired{where} on {date}"
        message += sdk_note(status.spelling)
        if status.target is None:
            return message + self._why_no_fix(status.spelling), None
        if status.platform:
            return (
                message + f"; {status.platform} sets its own date: check it, and plan the move "
                f"to {status.target!r}",
                None,
            )
        if why_not:
            return message + f"; use {status.target!r} (no automatic fix: {why_not})", None
        fix = Fix(
            Applicability.UNSAFE,
            f"replace {value!r} with {status.target!r}",
            (edit(status.target),),
        )
        return message + f"; use {status.target!r}", fix

    # Calls ----------------------------------------------------------------------------------------
    def _calls(self, ctx: FileContext, kept: set[str]) -> Iterable[Diagnostic]:
        """Report the calls' models; add to `kept` the retired ids a call keeps (no fix)."""
        from claude_migrate.analysis.constant_reads import Reading, constant_reads, one_per_value

        as_of = ctx.facts.as_of
        warn_days = self.settings["warn-days"]
        reported: set[int] = set()
        readings: list[Reading] = []
        judged = [(site, judge(ctx, site)) for site in ctx.all_sites]
        registered = _merged_registers(ctx, [(s, f) for s, f in judged if f is not None])
        for site, found in judged:
            if found is None or found.entry.value.elsewhere:
                continue  # elsewhere: reported where the constant is assigned, in its module
            if found.entry.value.node is not None:
                reported.add(id(found.entry.value.node))
            if found.retires <= as_of:
                why_not = COLLAPSES if id(site) in registered else ""
                why_not = why_not or recorded_reason(ctx, str(found.entry.value.value))
                why_not = why_not or _expected(ctx, site, found.entry)
                if not why_not and found.target is not None:
                    why_not = missed_lookup(ctx, site, found.entry, found.target)
                    why_not = why_not or profile_reason(ctx, site, found.target)
                    why_not = why_not or dropped_feature(ctx, site.node, found.target)
                diagnostic = self._retired(ctx, site, found, why_not)
                if diagnostic.fix is None and found.entry.value.node is not None:
                    # Kept here; an id written in another module (`the default of
                    # Settings.model`, a test handing `Settings()` on) moves or stays there.
                    kept.add(str(found.entry.value.value))
                readings.append(Reading(site, found.entry, diagnostic))
            elif (found.retires - as_of).days <= warn_days:
                readings.append(Reading(site, found.entry, self._retiring(ctx, site, found, as_of)))
        # A constant several calls read (here, or here and in other modules): one finding.
        merged, shared = one_per_value(ctx, self, readings, "model", constant_reads(ctx, "model"))
        yield from merged
        yield from self._constants(ctx, reported | shared, kept)

    def _constants(
        self, ctx: FileContext, reported: set[int], kept: set[str]
    ) -> Iterable[Diagnostic]:
        """Report this file's model constants that other modules' Claude calls read, once each;
        add to `kept` the ids reported with no fix.

        The fix replaces the constant's text only: what the new model's facts ask of each
        call's other parameters is not changed from here, so the fix is withheld where a
        reading call's request may carry what the replacement refuses (`read_refusal`).
        """
        from claude_migrate.analysis.constant_reads import constant_reads
        from claude_migrate.analysis.values import Entry, Value

        as_of = ctx.facts.as_of
        for read in constant_reads(ctx, "model"):
            if id(read.node) in reported:
                continue
            entry = Entry("model", read.node, read.node, Value(True, read.value, read.node))
            found = judge_entry(ctx, entry)
            if found is None:
                continue
            current = read.value
            kept.add(current)  # taken back below where the constant gets its fix
            related = read.related("model")
            if found.retires > as_of:
                if (found.retires - as_of).days > self.settings["warn-days"]:
                    continue
                message = (
                    f"model {current!r} ({read.describe(ctx.path)}) retires on "
                    f"{found.retires.isoformat()}{sdk_note(found.spelling)}"
                )
                yield ctx.diagnostic(
                    self, read.node, message, None, severity=Severity.WARNING, related=related
                )
                continue
            where = " on the Anthropic API" if found.platform else ""
            message = (
                f"model {current!r} ({read.describe(ctx.path)}) was retired{where} on "
                f"{found.retires.isoformat()}{sdk_note(found.spelling)}"
            )
            fix = None
            legacy = any(TARGETS[key].legacy for key in read.targets if key in TARGETS)
            if found.target is None:
                message += self._why_no_fix(found.spelling)
            elif found.platform:
                message += f"; {found.platform} sets its own date: check it, and plan the move"
                message += f" to {found.target!r}"
                yield ctx.diagnostic(
                    self, read.node, message, None, severity=Severity.WARNING, related=related
                )
                continue
            elif legacy:
                message += (
                    f"; use {found.target!r} once CM301 (legacy-completions) moves the calls to "
                    "the Messages API"
                )
            elif read.outside:  # a fix never writes outside the given paths
                message += f"; use {found.target!r}"
            elif refusal := read_refusal(ctx, read.places, current, found.target):
                message += f"; use {found.target!r} (no automatic fix: {refusal})"
            else:
                message += f"; use {found.target!r}"
                fix = ctx.fix(
                    Applicability.UNSAFE,
                    f"replace {current!r} with {found.target!r} in {read.name} (read by every "
                    "module that imports it)",
                    ctx.replace(read.node, string_literal(read.node, found.target)),
                )
            if fix is not None:
                kept.discard(current)
            yield ctx.diagnostic(self, read.node, message, fix, related=related)

    def _retired(
        self, ctx: FileContext, site: CallSite, found: Judged, why_not: str = ""
    ) -> Diagnostic:
        entry, spelling, target = found.entry, found.spelling, found.target
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key, (ctx.path, ctx.place_label))})"
        related = site.via.related(entry.key, "the model") if site.via else ()
        if found.platform:
            message = (
                f"model {current!r}{via} was retired on the Anthropic API on "
                f"{found.retires.isoformat()}; {found.platform} sets its own date"
            )
        else:
            message = f"model {current!r}{via} was retired on {found.retires.isoformat()}"
        message += sdk_note(spelling)
        fix = None
        if target is None:
            message += self._why_no_fix(spelling)
        elif found.platform:
            # The platform may still serve it: a warning with the move to plan, no rewrite
            # (`platform-dates = "api"` judges platform ids by the API's date instead).
            message += f": check it, and plan the move to {target!r}"
            return ctx.diagnostic(
                self, entry.holder, message, None, site.record.scope.qualname, Severity.WARNING,
                related=related,
            )  # fmt: skip
        elif site.target.key == "langchain:legacy":
            # Its class calls Text Completions: a current model needs the Messages class first.
            message += (
                f"; use {target!r} once this call moves to langchain_anthropic.ChatAnthropic "
                "(CM301): this class calls the Text Completions endpoint, which never served it"
            )
        elif site.target.legacy:
            # The Text Completions endpoint never served a Messages-era model: the model moves
            # only with the call, in CM301's rewrite.
            message += (
                f"; use {target!r} once CM301 (legacy-completions) moves this call to the "
                "Messages API: the Text Completions endpoint never served it"
            )
        elif why_not:
            message += f"; use {target!r} (no automatic fix: {why_not})"
        else:
            message += f"; use {target!r}"
            if entry.value.node is not None:
                composed = compose(ctx, site, entry, target)
                if isinstance(composed, str):
                    message += f" (no automatic fix: {composed})"
                else:
                    edits, changes, where = composed
                    if changes:
                        message += ", with: " + "; ".join(changes)
                    fix = ctx.fix(
                        Applicability.UNSAFE,
                        "; ".join([f"replace {current!r} with {target!r}{where}", *changes]),
                        *edits,
                    )
        return ctx.diagnostic(
            self, entry.holder, message, fix, site.record.scope.qualname, related=related
        )

    def _retiring(
        self, ctx: FileContext, site: CallSite, found: Judged, as_of: dt.date
    ) -> Diagnostic:
        entry = found.entry
        current = entry.value.value
        via = f" (from {entry.value.via})" if entry.value.via else ""
        if site.via is not None:
            via += f" ({site.via.describe(entry.key, (ctx.path, ctx.place_label))})"
        days = (found.retires - as_of).days
        where = " on the Anthropic API" if found.platform else ""
        message = (
            f"model {current!r}{via} retires{where} on {found.retires.isoformat()} "
            f"(in {days} day{'s' if days != 1 else ''}){sdk_note(found.spelling)}"
        )
        if found.platform:
            message += f"; {found.platform} sets its own date"
        if found.target is not None:
            message += f"; plan the move to {found.target!r}"
        related = site.via.related(entry.key, "the model") if site.via else ()
        # Not broken yet: a date alone must not fail a build that passed yesterday.
        return ctx.diagnostic(
            self, entry.holder, message, None, site.record.scope.qualname, Severity.WARNING,
            related=related,
        )  # fmt: skip

    @staticmethod
    def _why_no_fix(spelling: Spelling) -> str:
        if spelling.model.source.startswith(SDK_SOURCE):
            return "; the catalogue knows no replacement: set one in [retired-models.replace]"
        if spelling.suffix and spelling.form == "openrouter":
            return (
                f"; OpenRouter's {spelling.suffix} variant has no counterpart to move to: name a "
                "current model's variant by hand"
            )
        if spelling.suffix:
            return (
                f"; the provisioned-throughput id ({spelling.suffix}) has no automatic "
                "replacement: buy throughput for a current model"
            )
        return (
            "; no current replacement is known for this spelling: set one in "
            "[retired-models.replace]"
        )


def _hold(
    ctx: FileContext,
    held: dict[str, int],
    mention: Mention,
    why_not: str,
    reported: list[Diagnostic],
) -> None:
    """Note in `held` the id of a test's expectation that keeps it (its finding has no fix),
    with where it starts; not one kept as a double's answer (`PAIRED`), which is no request."""
    if mention.expected and why_not != PAIRED and any(d.fix is None for d in reported):
        held.setdefault(mention.value, ctx.span(mention.node)[0])


def _withdrawn(
    ctx: FileContext, reported: list[Diagnostic], mention: Mention, held: Mapping[str, int]
) -> Iterable[Diagnostic]:
    """Return a data mention's findings, each without its fix where a test's expectation of
    the file keeps the same id (`HELD`): the two are renamed together or not at all."""
    start = held.get(mention.value)
    if mention.expected or start is None:
        yield from reported
        return
    line = ctx.source.position(start)[0]
    for diagnostic in reported:
        if diagnostic.fix is None:
            yield diagnostic
        else:
            message = f"{diagnostic.message} (no automatic fix: {HELD.format(line)})"
            yield dataclasses.replace(diagnostic, message=message, fix=None)


def _is_recording(ctx: CheckContext) -> bool:
    """Return whether a configuration file is a recording of HTTP exchanges: a file under a
    `cassettes` folder (pytest-recording's, https://github.com/kiwicom/pytest-recording), or a
    vcrpy cassette (`interactions:` of entries with a `request` and a `response`,
    https://vcrpy.readthedocs.io/en/latest/advanced.html)."""
    import os

    from claude_migrate.analysis.recordings import CASSETTES

    if CASSETTES in str(ctx.path).replace(os.sep, "/").split("/")[:-1]:
        return True
    text = ctx.source.text
    return (
        "interactions" in text
        and "request" in text
        and "response" in text
        and bool(_VCR.search(text))
    )


_VCR = re.compile(r"""(?m)^[\s{]*["']?interactions["']?\s*:""")


def recorded_reason(ctx: CheckContext, value: str) -> str:
    """Return why a model id keeps its spelling in a module whose tests replay a recorded
    request with it (`analysis.recordings`); "" otherwise. CM304 (migrate-model) gives the
    same reason for a call it would move."""
    import os

    from claude_migrate.analysis.doubles import project_root, replaying_tests
    from claude_migrate.analysis.recordings import recorded

    where = recorded(str(ctx.path), value)
    if not where:
        # A test that imports the module and replays a recording of the request (the module's
        # default model, which the test sends without naming it).
        path = getattr(ctx, "file_path", str(ctx.path))
        for test in replaying_tests(path):
            found = recorded(test, value)
            if found:
                held = os.path.join(os.path.dirname(test), found)
                where = os.path.relpath(held, project_root(path)).replace(os.sep, "/")
                break
    return RECORDED.format(where) if where else ""


def _expected(ctx: FileContext, site: CallSite, entry: Entry) -> str:
    """Return why a call keeps the model id its test expects again ("" if it does not)."""
    from claude_migrate.analysis.expectations import expected_id

    line = expected_id(ctx, site, entry)
    return EXPECTED_AGAIN.format(line) if line else ""


def _model_of(model_id: str, facts: ProjectFacts) -> str | None:
    """Return the catalogue id of the model a model string names, if it names one."""
    from claude_migrate.policy.model_ids import recognise

    spelling = recognise(model_id, facts.catalogue)
    return spelling.model.id if spelling is not None else None


def _record_ids(ctx: CheckContext, catalogue: Any) -> dict[str, set[str]]:
    """Return, for each model id the file's lists of records hold, the catalogue models its
    field holds in the other records (of every list of the file: aliases beside models) or its
    record in other fields, and those two of them would both become (`RECORDS`)."""
    from claude_migrate.configs.scalars import record_fields
    from claude_migrate.policy.model_ids import recognise

    fmt = getattr(ctx, "format", "")
    if fmt not in ("json", "yaml", "toml"):
        return {}
    fields: dict[str, list[str]] = {}
    rows: list[list[str]] = []
    for key, column in record_fields(fmt, ctx.source.text):
        if key:
            fields.setdefault(key, []).extend(column)
        else:
            rows.append(column)
    found: dict[str, set[str]] = {}
    for column in [*fields.values(), *rows]:
        spellings = {v: s for v in column if (s := recognise(v, catalogue)) is not None}
        if not spellings:
            continue
        models = {value: spelling.model.id for value, spelling in spellings.items()}
        shared = _shared_targets(spellings.values(), ctx.facts)
        merged = {s.model.id for t in shared if (s := recognise(t, catalogue)) is not None}
        for value in models:
            others = {model for other, model in models.items() if other != value}
            found.setdefault(value, set()).update(merged | others)
    return found


def _measured(ctx: CheckContext) -> set[str]:
    """Return the values of the file's records of measurements (`scalars.measured_values`)."""
    from claude_migrate.configs.scalars import measured_values

    return measured_values(getattr(ctx, "format", ""), ctx.source.text)


def _shared_targets(keys: Iterable[Spelling], facts: ProjectFacts) -> set[str]:
    """Return the replacements that two or more retired keys of one file would both become.

    `{"claude-3-5-sonnet-20240620": a, "claude-3-5-sonnet-20241022": b}`: both would be
    rewritten to the same id, and the dict literal would silently keep one entry.
    """
    from claude_migrate.policy.model_ids import assess

    counts: Counter[str] = Counter()
    for spelling in keys:
        status = assess(spelling, facts)
        if status is not None and status.target is not None:
            counts[status.target] += 1
    return {target for target, count in counts.items() if count > 1}


def _merged_registers(ctx: FileContext, judged: list[tuple[CallSite, Judged]]) -> set[int]:
    """Return the ids of the calls registering a model object (`register(ChatModel("..."))`,
    `model_mentions.register_of`) whose replacement another entry of the same class's register
    names or becomes: renamed, two entries would share one id."""
    from claude_migrate.analysis.model_mentions import register_of

    groups: dict[str, list[tuple[CallSite, Judged]]] = {}
    for site, found in judged:
        name = register_of(ctx, site.node, found.entry.value_node)
        if name is not None and found.entry.value.node is found.entry.value_node:
            groups.setdefault(name, []).append((site, found))
    merged: set[int] = set()
    for members in groups.values():
        current = Counter(str(found.entry.value.value) for _, found in members)
        becoming = Counter(found.target for _, found in members if found.target is not None)
        for site, found in members:
            if found.target is not None and (current[found.target] or becoming[found.target] > 1):
                merged.add(id(site))
    return merged


def _target(spelling: Spelling, facts: ProjectFacts) -> str | None:
    """Return the id a retired spelling's fix would write, if any."""
    from claude_migrate.policy.model_ids import assess

    status = assess(spelling, facts)
    return None if status is None else status.target


def _key_names(ctx: CheckContext, scalars: Iterable[Scalar]) -> set[str]:
    """Return the names the config file uses as keys: its key scalars, and for TOML every bare
    or quoted key (table headers included), which are not scalars."""
    names = {scalar.value for scalar in scalars if scalar.key}
    if str(ctx.path).lower().endswith(".toml") or getattr(ctx, "format", "") in TOML_MANIFESTS:
        from claude_migrate.configs.scalars import toml_key_names

        names |= toml_key_names(ctx.source.text)
    return names


def _yaml_entries(ctx: CheckContext) -> dict[tuple[int, int], frozenset[str]]:
    """Return the keys of each YAML value's entry (`configs.scalars.yaml_entry_keys`)."""
    if not str(ctx.path).lower().endswith((".yaml", ".yml")):
        return {}
    from claude_migrate.configs.scalars import yaml_entry_keys

    return yaml_entry_keys(ctx.source)


def _entry_of(
    ctx: CheckContext, entries: dict[tuple[int, int], frozenset[str]], start: int
) -> frozenset[str]:
    """Return the entry keys of the YAML value whose text starts at `start` (quoted or not)."""
    line, column = ctx.source.position(start)
    return entries.get((line - 1, column), entries.get((line - 1, column - 1), frozenset()))


def _refused_in_entry(target: str, entry: frozenset[str], catalogue: Any) -> str:
    """Return why a config entry naming a model cannot take the replacement as it stands: it
    also sets sampling parameters the replacement refuses (together, or at all); else ""."""
    from claude_migrate.policy import model_facts
    from claude_migrate.policy.model_ids import recognise

    spelling = recognise(target, catalogue)
    if spelling is None:
        return ""
    known = model_facts.load().for_model(spelling.model.id)
    present = entry & set(model_facts.SAMPLING_PARAMS)
    if known is None or not known.rejects_sampling(set(present)):
        return ""
    how = "takes no sampling parameters" if known.sampling == "none" else "takes one, not both"
    return f"the entry also sets {' and '.join(sorted(present))}, and {target!r} {how}"


def dropped_feature(ctx: FileContext, node: cst.CSTNode, target: str) -> str:
    """Return why an id in a test file keeps its model when the test code around it names a
    beta or tool version `target` no longer takes (`DROPPED`), or "" when it does not."""
    from claude_migrate.analysis.expectations import test_names
    from claude_migrate.policy import model_facts
    from claude_migrate.policy.model_ids import recognise

    spelling = recognise(target, ctx.facts.catalogue)
    known = model_facts.load().for_model(spelling.model.id) if spelling is not None else None
    dropped = (*known.dropped_betas, *known.dropped_tools) if known is not None else ()
    found = test_names(ctx, node, frozenset(dropped)) if dropped else None
    return "" if found is None else DROPPED.format(found[0], target, found[1])


def _tested(ctx: FileContext, mention: Mention, target: str, spelled: frozenset[str]) -> str:
    """Return why an id literal of a test keeps its model: the test exercises a feature the
    replacement lacks (`DROPPED`), expects the id again inside a text (`EMBEDDED`), or expects
    an id a text of the file holds (`SOURCED`); else ""."""
    from claude_migrate.analysis.expectations import embedded_id, text_holding

    why_not = dropped_feature(ctx, mention.node, target)
    line = 0 if why_not else embedded_id(ctx, mention.node, mention.value, spelled)
    if line:
        return EMBEDDED.format(line)
    if not why_not and mention.expected:
        line = text_holding(ctx, mention.value, spelled)
        why_not = SOURCED.format(line) if line else ""
    return why_not
