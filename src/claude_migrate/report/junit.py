"""`--format junit`: JUnit XML for CI test reporters.

One `<testcase>` per file checked (passing when clean), one `<failure>` per finding in it; file
errors (CM001) are `<error>` elements; stale baseline entries are failures of a testcase named
after the baseline file. A finding below `--fail-on` (a warning, by default) is not a failure:
its line goes to the testcase's `<system-out>`, so reporters show it without turning red.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import defaultdict

from claude_migrate.core.escapes import escape_undecodable
from claude_migrate.report import Run, where

SUITE = "claude-migrate"
# Characters XML 1.0 cannot hold, even escaped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _INVALID_XML.sub("\ufffd", escape_undecodable(text))


def render(run: Run) -> str:
    failures: dict[str, list[ET.Element]] = defaultdict(list)
    errors: dict[str, list[ET.Element]] = defaultdict(list)
    notes: dict[str, list[str]] = defaultdict(list)
    for d in run.diagnostics:
        label = "" if d.severity.value == "error" else f"{d.severity.value}: "
        line = _clean(f"{d.path}:{where(d.line, d.column, d.cell)}: {d.code} {label}{d.message}")
        if not run.fails(d):
            notes[d.path].append(line)
            continue
        element = ET.Element(
            "failure",
            message=_clean(f"{d.code} {label}{d.message}"),
            type=d.code,
        )
        element.text = line
        failures[d.path].append(element)
    for e in run.errors:
        element = ET.Element("error", message=_clean(f"{e.code} {e.message}"), type=e.code)
        place = where(e.line, e.column, e.cell)
        element.text = _clean(f"{e.path}{':' + place if place else ''}: {e.code} {e.message}")
        errors[e.path].append(element)
    for entry in run.stale:
        element = ET.Element("failure", message=_clean(entry.describe()), type="stale-baseline")
        element.text = _clean(entry.describe() + "; run with --prune-baseline to remove it")
        failures[run.baseline or entry.display].append(element)

    paths = sorted({r.path for r in run.results} | set(failures) | set(errors) | set(notes))
    suite = ET.Element(
        "testsuite",
        name=SUITE,
        tests=str(len(paths)),
        failures=str(sum(1 for p in paths if failures.get(p) and not errors.get(p))),
        errors=str(sum(1 for p in paths if errors.get(p))),
        skipped="0",
    )
    for path in paths:
        case = ET.SubElement(
            suite, "testcase", classname=SUITE, name=_clean(path), file=_clean(path)
        )
        for element in [*errors.get(path, []), *failures.get(path, [])]:
            case.append(element)
        if notes.get(path):
            ET.SubElement(case, "system-out").text = "\n".join(notes[path])
    root = ET.Element("testsuites", name=SUITE, tests=suite.get("tests", "0"))
    root.set("failures", suite.get("failures", "0"))
    root.set("errors", suite.get("errors", "0"))
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
