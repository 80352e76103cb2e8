"""The JUnit XML report, so CI systems show AssetCheck results as native test results.

One document: a ``testsuites`` root with one test suite per report (per file), so the reports
of several files are one document CI parsers accept. One test case per check that ran, plus
one for reading the files (readers and the security scan). Error-severity issues are failures
of the case that reported them; warnings and the rest go to the case's ``system-out``. A
failed job's report is one failing case, ``validation``, carrying the job's error. The
suite's ``properties`` hold where each file's bytes go and its textures' GPU memory
(:func:`~assetcheck.reports.costs.junit_properties`) and, for a job compared with a baseline
job, the comparison's verdict and counts.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import NamedTuple

from assetcheck.reports import Report, headline, visible
from assetcheck.reports.comparison import comparison_facts
from assetcheck.reports.costs import junit_properties
from assetcheck.reports.document import failure

READING = "reading and security scan"
VALIDATION = "validation"


class CaseLine(NamedTuple):
    """One line of a test case's output, rendered from the report (an issue occurrence, or a
    failed job's error): ``line`` is its text, with its invisible characters made visible."""

    severity: str
    code: str
    message: str
    line: str


def render_junit(report: Report) -> str:
    """The report as a JUnit XML document (``testsuites`` with one ``testsuite``)."""
    return render_junit_combined([report])


def render_junit_combined(reports: list[Report]) -> str:
    """Several files' reports as one JUnit XML document: a ``testsuites`` root with one
    ``testsuite`` per report, and the totals of them all on the root.

    Every text is passed through :func:`~assetcheck.reports.visible`: XML 1.0 cannot carry
    control characters, whatever an asset's names contain.
    """
    root = ET.Element("testsuites", name="assetcheck")
    suites = [_suite(root, report) for report in reports]
    root.set("tests", str(sum(tests for tests, _ in suites)))
    root.set("failures", str(sum(failures for _, failures in suites)))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _suite(root: ET.Element, report: Report) -> tuple[int, int]:
    """Add the report's ``testsuite`` to ``root``; its number of cases and of failing ones."""
    error = failure(report)
    if error is None:
        cases = _cases(report)
    else:
        line = visible(f"{error['code']}: {error['message']}") + "\n" + error.get("advice", "")
        cases = {VALIDATION: [CaseLine("error", error["code"], error["message"], line)]}
    suite_name = visible(report["filename"])
    failures = sum(1 for lines in cases.values() if _errors(lines))
    suite = ET.SubElement(
        root,
        "testsuite",
        name=suite_name,
        tests=str(len(cases)),
        failures=str(failures),
        errors="0",
    )
    properties = junit_properties(report) if error is None else []
    properties += _comparison_properties(report)
    if properties:  # one element: JUnit's schema allows a suite a single ``properties``
        holder = ET.SubElement(suite, "properties")
        for name, value in properties:
            ET.SubElement(holder, "property", name=visible(name), value=visible(value))
    for name, lines in cases.items():
        case = ET.SubElement(suite, "testcase", classname=suite_name, name=visible(name))
        errors = _errors(lines)
        if errors:
            failed = ET.SubElement(
                case, "failure", type=errors[0].code, message=visible(errors[0].message)
            )
            failed.text = "\n".join(f.line for f in errors)
        others = [f for f in lines if f.severity != "error"]
        if others:
            ET.SubElement(case, "system-out").text = "\n".join(f.line for f in others)
    return len(cases), failures


def _comparison_properties(report: Report) -> list[tuple[str, str]]:
    """A job compared with a baseline job: one ``comparison.<fact>`` property each
    (``baselineJob``, ``worse``, ``findingsAdded``...); none without a comparison."""
    facts = comparison_facts(report) or {}
    return [
        (f"comparison.{name}", str(value).lower() if isinstance(value, bool) else str(value))
        for name, value in facts.items()
    ]


def _cases(report: Report) -> dict[str, list[CaseLine]]:
    """Each check's issues; what no check reported (readers, the scan) goes to reading."""
    cases: dict[str, list[CaseLine]] = {READING: []}
    for run in report.get("checks", []):
        cases[f"{run['plugin']}:{run['name']}"] = []
    for group in report["issues"]:
        for occurrence in group["occurrences"]:
            source = occurrence.get("source")
            cases[source if source in cases else READING].append(_case_line(group, occurrence))
    return cases


def _case_line(group: dict, occurrence: dict) -> CaseLine:
    where = " ".join(str(occurrence[k]) for k in ("file", "pointer", "offset") if k in occurrence)
    said = f"{headline(group, occurrence)}: {occurrence['message']}"
    line = f"{group['severity']} {group['code']} [{where}]: {said}"
    return CaseLine(group["severity"], group["code"], occurrence["message"], visible(line))


def _errors(lines: list[CaseLine]) -> list[CaseLine]:
    return [entry for entry in lines if entry.severity == "error"]
