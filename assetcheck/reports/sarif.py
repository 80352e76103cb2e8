"""The SARIF 2.1.0 report, as GitHub code scanning and other SARIF viewers read it.

One run per log, whatever the number of files: ``tool.driver.rules`` has one rule per issue code
found (its plain title as ``shortDescription``, its message, its fix and a ``helpUri`` into
``docs/issues.md``), ``results`` one result per issue group of each file, located in the file
(``artifactLocation``: the report's ``filename``) and, for each occurrence kept, at its JSON
pointer (a logical location). Levels follow severities (``info`` and ``hint`` are ``note``).
The health score and grade are run properties (the lowest of several files) and artifact
properties (each file's own), with a job's comparison with its baseline job (its verdict and
counts, ``comparison``) when it has one. A failed job's report is one ``error`` result
carrying the job's error code and advice. A result's ``baselineState`` is its group's, set
when ``validate --baseline`` compared the run with a baseline (``docs/ci.md``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote

from assetcheck import DOCS_URL, __version__
from assetcheck.issues import IssueType
from assetcheck.plugins.builtin_codes import builtin_issue_types
from assetcheck.reports import Report, group_title
from assetcheck.reports.comparison import comparison_facts
from assetcheck.reports.document import failure
from assetcheck.reports.json_text import render_json

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
#: Where each built-in code is documented: its row of the generated issue table.
ISSUES_DOC = f"{DOCS_URL}/issues.md"
LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}
#: GitHub's ``security-severity`` (0-10) for each security level, so it ranks the findings.
SECURITY_SEVERITY = {"critical": "9.5", "high": "8.0", "medium": "5.5", "low": "2.0"}

_BUILTIN_TYPES = {t.code: t for t in builtin_issue_types()}


def render_sarif(report: Report) -> str:
    """One report as a SARIF log."""
    return render_json(sarif_log([report]))


def render_sarif_combined(reports: list[Report]) -> str:
    """Several files' reports as one SARIF log with one run."""
    return render_json(sarif_log(reports))


def doc_anchor(code: str) -> str:
    """The anchor of ``code``'s row in ``docs/issues.md``."""
    return code.lower()


def sarif_log(reports: list[Report]) -> dict[str, Any]:
    """The SARIF log (a JSON object) of ``reports``, one run for all of them."""
    rules: dict[str, dict[str, Any]] = {}
    results: list[dict[str, Any]] = []
    for index, report in enumerate(reports):
        for group in issue_groups(report):
            if group["code"] not in rules:
                rules[group["code"]] = _rule(group)
            results.append(_result(group, list(rules).index(group["code"]), report, index))
    scored = [r for r in reports if r.get("health_score") is not None]
    lowest = min(scored, key=lambda r: r["health_score"], default=None)
    run = {
        "tool": {
            "driver": {
                "name": "AssetCheck",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": DOCS_URL,
                "rules": list(rules.values()),
            }
        },
        "artifacts": [_artifact(report) for report in reports],
        "results": results,
        "properties": {
            "healthScore": None if lowest is None else lowest["health_score"],
            "grade": None if lowest is None else lowest["grade"],
            "valid": all(report["valid"] for report in reports),
            "engine": reports[0]["engine"]["name"] if reports else None,
            "bytesAndGpuMemory": [
                {
                    "file": entry["filename"],
                    "byteUsage": entry.get("byteUsage"),
                    "gpuMemory": entry["gpuMemory"],
                }
                for report in reports
                for entry in report.get("files", [])
                if "gpuMemory" in entry
            ],
        },
    }
    return {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}


def artifact_uri(filename: str) -> str:
    """``filename`` as a URI reference: relative paths stay relative (to the folder the command
    ran in, the repository root in CI), absolute ones become ``file://`` URIs."""
    path = filename.replace("\\", "/")
    encoded = quote(path, safe="/")
    return f"file://{encoded}" if path.startswith("/") else encoded


def issue_groups(report: Report) -> Iterable[dict[str, Any]]:
    """The report's issue groups; a failed job's error as a group of its own."""
    error = failure(report)
    if error is None:
        return report["issues"]
    return [
        {
            "code": error["code"],
            "severity": "error",
            "count": 1,
            "fix": error.get("advice", ""),
            "occurrences": [{"message": error["message"]}],
        }
    ]


def _rule(group: dict[str, Any]) -> dict[str, Any]:
    """The reporting descriptor of ``group``'s code: the registry's text for a built-in code,
    the group's own message and fix for a plugin's code or a job error."""
    code = group["code"]
    known: IssueType | None = _BUILTIN_TYPES.get(code)
    message = known.message if known else group["occurrences"][0]["message"]
    fix = known.fix if known else group.get("fix", "")
    rule: dict[str, Any] = {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("_")),
        "shortDescription": {"text": known.title if known else group_title(group)},
        "fullDescription": {"text": f"{message} {fix}".strip()},
        "help": {"text": fix or message, "markdown": f"**How to fix:** {fix}" if fix else message},
        "defaultConfiguration": {"level": LEVELS[known.severity if known else group["severity"]]},
        "properties": {"tags": ["assetcheck", known.area if known else "plugin"]},
    }
    if known is not None:
        rule["helpUri"] = f"{ISSUES_DOC}#{doc_anchor(code)}"
    level = group.get("securityLevel")
    if level is not None:
        tags = rule["properties"]["tags"]
        tags += ["security"] if "security" not in tags else []
        rule["properties"]["security-severity"] = SECURITY_SEVERITY[level]
    return rule


def _result(
    group: dict[str, Any],
    rule_index: int,
    report: Report,
    artifact: int,
) -> dict[str, Any]:
    uri = artifact_uri(report["filename"])
    occurrences = group["occurrences"]
    message = occurrences[0]["message"] if occurrences else group["code"]
    if group["count"] > 1:
        message += f" ({group['count']} occurrences)"
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": {"uri": uri, "index": artifact},
            # GitHub places every result on a line; a model file's findings belong to the file.
            "region": {"startLine": 1},
        }
    }
    logical = [
        _logical_location(o, report["filename"])
        for o in occurrences
        if "pointer" in o or o.get("file", report["filename"]) != report["filename"]
    ]
    if logical:
        location["logicalLocations"] = logical
    fingerprint = hashlib.sha256(f"{uri}\0{group['code']}".encode()).hexdigest()[:32]
    return {
        "ruleId": group["code"],
        "ruleIndex": rule_index,
        "level": LEVELS[group["severity"]],
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {"assetcheckIssueGroup/v1": fingerprint},
        **({"baselineState": group["baselineState"]} if "baselineState" in group else {}),
        "properties": {
            "severity": group["severity"],
            "count": group["count"],
            "occurrences": occurrences,
        },
    }


def _logical_location(occurrence: dict[str, Any], filename: str) -> dict[str, str]:
    """Where in the file: the JSON pointer, prefixed by the archive member it is in."""
    pointer = occurrence.get("pointer")
    member = occurrence.get("file") if occurrence.get("file") != filename else None
    name = f"{member or ''}{'#' if member and pointer else ''}{pointer or ''}"
    return {"fullyQualifiedName": name, "kind": "value" if pointer else "resource"}


def _artifact(report: Report) -> dict[str, Any]:
    """A file of the run, with its own score: ``healthScore``, ``grade``, ``valid``; and
    ``comparison``, the verdict of its comparison with a baseline job, when it has one."""
    properties = {
        "healthScore": report.get("health_score"),
        "grade": report.get("grade"),
        "valid": report["valid"],
    }
    facts = comparison_facts(report)
    if facts is not None:
        properties["comparison"] = facts
    return {
        "location": {"uri": artifact_uri(report["filename"])},
        "roles": ["analysisTarget"],
        "properties": properties,
    }
