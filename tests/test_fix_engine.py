"""The fix loop: refusal of fixes that would not parse, conflicts, settling, and the reasons left.

Checks that misbehave on purpose are registered by monkeypatching the engine's check list for
one test (the run stays in this process: fewer files than a worker pool needs).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from helpers import Cli, write_tree

import claude_migrate.engine.runner as engine
from claude_migrate.checks.max_tokens import MaxTokensCheck
from claude_migrate.checks.temperature import TemperatureCheck
from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, FileError, Fix
from claude_migrate.engine.fixer import LeftBecause, select_fixes, settle

HEAD = "import anthropic\nclient = anthropic.Anthropic()\n"
CALL = (
    'client.messages.create(model="m", temperature=0.9, max_tokens=4096, messages=[], stream=True)'
    "\n"
)


def _with_edit(d: Diagnostic, replacement: str) -> Diagnostic:
    assert d.fix is not None
    edit = d.fix.edits[0]
    return dataclasses.replace(
        d, fix=dataclasses.replace(d.fix, edits=(Edit(edit.start, edit.end, replacement),))
    )


class BreakingTemperature(TemperatureCheck):
    """CM101 whose fix writes `0.0)(`: the fixed file would not parse."""

    def check(self, ctx) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        for d in super().check(ctx):
            yield _with_edit(d, "0.0)(")


class UnsafeMaxTokens(MaxTokensCheck):
    """CM102 whose fix is marked unsafe."""

    def check(self, ctx) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
        for d in super().check(ctx):
            assert d.fix is not None
            yield dataclasses.replace(
                d, fix=dataclasses.replace(d.fix, applicability=Applicability.UNSAFE)
            )


def _forget_checks() -> None:
    # Every cache the engine derives from its check list, or a later test sees these checks.
    for derived in (engine.checks_for, engine.markers_for, engine.stages_for, engine._named_files):
        derived.cache_clear()


@pytest.fixture
def use_checks(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    def install(*checks: type) -> None:
        monkeypatch.setattr(engine, "ALL_CHECKS", checks)
        _forget_checks()

    yield install
    _forget_checks()


def test_fix_that_would_break_parsing_is_refused_and_file_untouched(
    tmp_path: Path, cli: Cli, use_checks
) -> None:  # type: ignore[no-untyped-def]
    use_checks(BreakingTemperature)
    original = (HEAD + CALL).encode()
    write_tree(tmp_path, {"a.py": original})
    inode = (tmp_path / "a.py").stat().st_ino
    result = cli("fix", "--report", "report.json", "a.py")
    assert result.exit_code == 1
    assert (tmp_path / "a.py").read_bytes() == original
    assert (tmp_path / "a.py").stat().st_ino == inode
    assert "a.py:3:35: CM101 temperature 0.9 is above the policy maximum 0.2" in result.stdout
    assert "refused: would not parse" in result.stdout  # the closing table
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["changed"] == []
    assert [(d["code"], d["reason"]) for d in report["left"]] == [("CM101", LeftBecause.REFUSED)]
    assert report["left"][0]["why"] == "its fix was refused: the fixed file would not parse"


def test_refused_fix_does_not_stop_the_fixes_that_parse(
    tmp_path: Path, cli: Cli, use_checks
) -> None:  # type: ignore[no-untyped-def]
    use_checks(BreakingTemperature, MaxTokensCheck)
    write_tree(tmp_path, {"a.py": HEAD + CALL})
    result = cli("fix", "a.py")
    assert result.exit_code == 1
    assert (tmp_path / "a.py").read_text() == HEAD + CALL.replace("4096", "1024")
    assert "Fixed 1, 1 remaining" in result.stdout


def test_fix_that_only_libcst_accepts_is_refused(tmp_path: Path, cli: Cli, use_checks) -> None:  # type: ignore[no-untyped-def]
    """LibCST parses `f(**a, *b)`; Python does not compile it: the fix must be refused."""

    class LooseTemperature(TemperatureCheck):
        def check(self, ctx) -> Iterator[Diagnostic]:  # type: ignore[no-untyped-def]
            for d in super().check(ctx):
                yield _with_edit(d, "0.0, **kw, *args")

    use_checks(LooseTemperature)
    write_tree(tmp_path, {"a.py": HEAD + CALL})
    assert cli("fix", "a.py").exit_code == 1
    assert (tmp_path / "a.py").read_text() == HEAD + CALL


def test_unsafe_fix_left_unless_enabled_with_its_reason(
    tmp_path: Path, cli: Cli, use_checks
) -> None:  # type: ignore[no-untyped-def]
    use_checks(TemperatureCheck, UnsafeMaxTokens)
    write_tree(tmp_path, {"a.py": HEAD + CALL})
    result = cli("fix", "--report", "r.json", "a.py")
    assert result.exit_code == 1
    assert (tmp_path / "a.py").read_text() == HEAD + CALL.replace("0.9", "0.0")
    report = json.loads((tmp_path / "r.json").read_text())
    assert [(d["code"], d["reason"], d["applicability"]) for d in report["left"]] == [
        ("CM102", LeftBecause.UNSAFE, "unsafe")
    ]
    assert cli("fix", "--unsafe-fixes", "a.py").exit_code == 0
    assert (tmp_path / "a.py").read_text() == HEAD + CALL.replace("0.9", "0.0").replace(
        "4096", "1024"
    )


def _diag(code: str, start: int, end: int, text: str, fingerprint: str) -> Diagnostic:
    fix = Fix(Applicability.SAFE, f"write {text}", (Edit(start, end, text),))
    return Diagnostic(
        "x.py", 1, start + 1, 1, end + 1, code, code, "m", fix, fingerprint=fingerprint
    )


def test_conflicting_fix_waits_for_the_next_round_and_settles() -> None:
    text = "abcdef"
    first = _diag("CM1", 1, 3, "XY", "one")
    second = _diag("CM2", 2, 4, "ZW", "two")
    rounds: list[str] = []

    def recheck(new: str, parsed: object) -> tuple[list[Diagnostic], list[FileError]]:
        rounds.append(new)
        # The second finding is still there after the first fix, now at new offsets.
        return ([_diag("CM2", 4, 5, "Q", "two")] if "Q" not in new else []), []

    settled = settle(text, [first, second], unsafe=False, parse=lambda t: t, recheck=recheck)
    assert rounds == ["aXYdef", "aXYdQf"]
    assert settled.text == "aXYdQf"
    assert [d.code for d in settled.applied] == ["CM1", "CM2"]
    assert settled.left == []


def test_fix_that_never_settles_stops_after_the_round_limit() -> None:
    def recheck(new: str, parsed: object) -> tuple[list[Diagnostic], list[FileError]]:
        return [_diag("CM1", 0, 0, "x", f"again-{len(new)}")], []

    settled = settle(
        "",
        [_diag("CM1", 0, 0, "x", "first")],
        unsafe=False,
        parse=lambda t: t,
        recheck=recheck,
        max_rounds=4,
    )
    assert settled.text == "xxxx"
    assert [d.left_because for d in settled.left] == [LeftBecause.UNSETTLED]


def test_conflict_left_after_refusal_is_tried_and_reasons_are_exact() -> None:
    first = _diag("CM1", 0, 2, "BAD", "one")  # refused
    second = _diag("CM2", 1, 3, "ok", "two")  # overlaps the first: waits, then applies

    def parse(text: str) -> str:
        if "BAD" in text:
            raise SyntaxError("no")
        return text

    def recheck(new: str, parsed: object) -> tuple[list[Diagnostic], list[FileError]]:
        no_fix = dataclasses.replace(_diag("CM3", 0, 1, "", "three"), fix=None)
        return [_diag("CM1", 0, 1, "BAD", "one"), no_fix], []

    settled = settle("abcd", [first, second], unsafe=False, parse=parse, recheck=recheck)
    assert settled.text == "aokd"
    assert [(d.code, d.left_because) for d in settled.left] == [
        ("CM1", LeftBecause.REFUSED),
        ("CM3", LeftBecause.NO_FIX),
    ]


def test_no_fix_and_display_only_reasons(tmp_path: Path) -> None:
    no_fix = dataclasses.replace(_diag("CM1", 0, 1, "x", "a"), fix=None)
    shown = _diag("CM2", 0, 1, "x", "b")
    shown = dataclasses.replace(
        shown,
        fix=dataclasses.replace(shown.fix, applicability=Applicability.DISPLAY_ONLY),  # type: ignore[arg-type]
    )
    settled = settle(
        "abc",
        [no_fix, shown],
        unsafe=True,
        parse=lambda t: t,
        recheck=lambda t, p: ([], []),
    )
    assert settled.text == "abc"
    reasons: Iterable[str | None] = [d.left_because for d in settled.left]
    assert list(reasons) == [LeftBecause.NO_FIX, LeftBecause.DISPLAY_ONLY]


def test_a_refused_fix_is_not_offered_again_in_the_text_report() -> None:
    from claude_migrate.core.diagnostics import Applicability, Diagnostic, Edit, Fix
    from claude_migrate.report import Run, offers_fix

    fix = Fix(Applicability.SAFE, "set", (Edit(0, 1, "x"),))
    base = dict(
        path="a.py",
        line=1,
        column=1,
        end_line=1,
        end_column=2,
        code="CM101",
        rule="t",
        message="m",
        fix=fix,
    )
    refused = Diagnostic(**base, left_because="refused-would-not-parse")  # type: ignore[arg-type]
    waiting = Diagnostic(**base)  # type: ignore[arg-type]
    assert not offers_fix(refused, True)
    assert offers_fix(waiting, False)
    assert Run(results=[]).fixable == 0


def _pairwise_selection(fixes: list[list[Edit]]) -> list[bool]:
    """Which fixes the first-fix-wins rule takes, each edit against every one taken."""

    def overlaps(a: Edit, b: Edit) -> bool:
        if a.start == a.end == b.start == b.end:
            return True
        return a.start < b.end and b.start < a.end

    taken: list[Edit] = []
    chosen = []
    for edits in fixes:
        new = [e for e in edits if e not in taken]
        clash = any(overlaps(e, t) for e in new for t in taken) or any(
            overlaps(a, b) for i, a in enumerate(new) for b in new[i + 1 :]
        )
        chosen.append(not clash)
        if not clash:
            taken.extend(new)
    return chosen


@pytest.mark.parametrize("seed", range(200))
def test_fixes_are_selected_as_each_edit_against_every_edit_taken(seed: int) -> None:
    rng = random.Random(seed)
    fixes = []
    for _ in range(rng.randint(1, 12)):
        edits = []
        for _ in range(rng.randint(1, 3)):
            start = rng.randint(0, 15)
            edits.append(Edit(start, start + rng.choice([0, 0, 1, 2, 4]), rng.choice("xy")))
        fixes.append(edits)
    diagnostics = [
        Diagnostic("x.py", 1, 1, 1, 2, "CM1", "r", "m", Fix(Applicability.SAFE, "f", tuple(edits)))
        for edits in fixes
    ]
    applied, _ = select_fixes(diagnostics, unsafe=False)
    assert [d in applied for d in diagnostics] == _pairwise_selection(fixes)
