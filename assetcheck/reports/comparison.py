"""A job's ``comparison`` in the report formats: the comparison with the baseline job its upload
named (``docs/api.md``, Comparing jobs), a diff document (``docs/diff.md``) stored in the JSON
report, or, when the baseline had gone by the time the job completed, the two job ids and why
there is no diff (``unavailable``).

The text and Markdown reports end with a short section read from the document (the verdict,
the statistics that changed, what got worse, the findings added and fixed); SARIF and JUnit
carry its verdict and counts as properties. ``assetcheck diff`` and the compare endpoint
render the whole comparison.
"""

from __future__ import annotations

from typing import Any

from assetcheck.reports import Report


def comparison_facts(report: Report) -> dict[str, Any] | None:
    """The comparison's verdict and counts, for formats that carry properties (SARIF, JUnit):
    ``baselineJob`` and either ``unavailable`` or ``worse``, ``findingsAdded``,
    ``findingsFixed`` and ``regressions`` (their number); None without a comparison."""
    comparison = report.get("comparison")
    if comparison is None:
        return None
    facts: dict[str, Any] = {"baselineJob": comparison["old"]}
    if "unavailable" in comparison:
        return {**facts, "unavailable": comparison["unavailable"]}
    summary = comparison["summary"]
    return {
        **facts,
        "worse": comparison["worse"],
        "findingsAdded": summary["findingsAdded"],
        "findingsFixed": summary["findingsFixed"],
        "regressions": len(comparison["regressions"]),
    }


def comparison_heading(report: Report) -> str | None:
    """The section's first line: the baseline job and the verdict; None without a comparison."""
    comparison = report.get("comparison")
    if comparison is None:
        return None
    compared = f"Compared with the baseline job {comparison['old']}"
    if "unavailable" in comparison:
        return f"{compared}: {comparison['unavailable']}"
    summary = comparison["summary"]
    verdict = "worse" if comparison["worse"] else "nothing got worse"
    return (
        f"{compared}: {verdict}; findings {summary['findingsAdded']} added, "
        f"{summary['findingsFixed']} fixed."
    )


def comparison_lines(report: Report) -> list[str]:
    """The section's other lines, plain text: each statistic that changed (``triangles: 872 →
    832 (-40, -4.6%)``), what got worse, each finding added (``+``) and fixed (``-``)."""
    comparison = report.get("comparison")
    if comparison is None or "unavailable" in comparison:
        return []
    lines = []
    for entry in comparison["files"]:
        for metric, change in entry["statistics"].items():
            if change["change"]:
                lines.append(f"{metric}: {_change(change)}")
    lines += [f"worse: {regression['message']}" for regression in comparison["regressions"]]
    for entry in comparison["files"]:
        lines += [f"+ {_finding(found)}" for found in entry["findings"]["added"]]
        lines += [f"- {_finding(found)} (fixed)" for found in entry["findings"]["fixed"]]
    return lines


def _change(change: dict[str, Any]) -> str:
    percent = "" if change["percent"] is None else f", {change['percent']:+g}%"
    return f"{change['old']:,} → {change['new']:,} ({change['change']:+,}{percent})"


def _finding(found: dict[str, str]) -> str:
    return f"{found['severity']} {found['code']}: {found['message']}"
