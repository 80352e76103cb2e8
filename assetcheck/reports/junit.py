"""The JUnit XML report, so CI systems show AssetCheck results as native test results.

One test suite per report; one test case per check that ran, plus one for reading the files
(readers and the security scan). Error-severity issues are failures of the case that reported
them; warnings and the rest go to the case's ``system-out``.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from assetcheck.reports import Report

READING = "reading and security scan"


def render_junit(report: Report) -> str:
    """The report as a JUnit XML document (``testsuites`` with one ``testsuite``)."""
    cases = {READING: []}
    for run in report.get("checks", []):
        cases[f"{run['plugin']}:{run['name']}"] = []
    for group in report["issues"]:
        for occurrence in group["occurrences"]:
            case = occurrence.get("source") if occurrence.get("source") in cases else READING
            cases[case].append((group, occurrence))
    suite_name = report["filename"]
    failures = sum(1 for found in cases.values() if _errors(found))
    root = ET.Element("testsuites", name="assetcheck", tests=str(len(cases)),
                      failures=str(failures))
    suite = ET.SubElement(root, "testsuite", name=suite_name, tests=str(len(cases)),
                          failures=str(failures), errors="0")
    for name, found in cases.items():
        case = ET.SubElement(suite, "testcase", classname=suite_name, name=name)
        errors = _errors(found)
        if errors:
            failure = ET.SubElement(case, "failure", type=errors[0][0]["code"],
                                    message=errors[0][1]["message"])
            failure.text = "\n".join(_line(group, occ) for group, occ in errors)
        others = [item for item in found if item[0]["severity"] != "error"]
        if others:
            ET.SubElement(case, "system-out").text = "\n".join(_line(g, o) for g, o in others)
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _errors(found: list) -> list:
    return [item for item in found if item[0]["severity"] == "error"]


def _line(group: dict, occurrence: dict) -> str:
    where = " ".join(str(occurrence[k]) for k in ("file", "pointer", "offset") if k in occurrence)
    return f"{group['severity']} {group['code']} [{where}]: {occurrence['message']}"
