"""A job's ``comparison`` in the report formats: the comparison with the baseline job its upload
named (``docs/api.md``, Comparing jobs), a diff document (``docs/diff.md``) stored in the JSON
report, or, when the baseline had gone by the time the job completed, the two job ids and why
there is no diff (``unavailable``).

The text and Markdown reports end with the comparison as ``assetcheck diff`` writes it; SARIF
and JUnit carry its verdict and counts as properties.
"""

from __future__ import annotations

from typing import Any

from assetcheck.reports import Report


def comparison_of(report: Report) -> dict[str, Any] | None:
    """The report's ``comparison``, or None when the job was compared with nothing."""
    return report.get("comparison")


def comparison_facts(report: Report) -> dict[str, Any] | None:
    """The comparison's verdict and counts, for formats that carry properties (SARIF, JUnit):
    ``baselineJob`` and either ``unavailable`` or ``worse``, ``findingsAdded``,
    ``findingsFixed`` and ``regressions`` (their number)."""
    comparison = comparison_of(report)
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


def comparison_text(report: Report) -> list[str]:
    """The comparison as the text report ends with it (no lines without one)."""
    # assetcheck.diff builds on this package (baselines, the Markdown helpers): imported when
    # a report has a comparison to render, never while this package loads.
    from assetcheck.diff.document import read_diff
    from assetcheck.diff.text import render_text

    comparison = comparison_of(report)
    if comparison is None:
        return []
    heading = f"Compared with the baseline job {comparison['old']}:"
    if "unavailable" in comparison:
        return ["", heading, f"  {comparison['unavailable']}"]
    body = render_text(read_diff(comparison)).splitlines()
    return ["", heading, *(f"  {line}" if line else "" for line in body)]


def comparison_markdown(report: Report) -> str:
    """The comparison as the Markdown report ends with it ("" without one)."""
    from assetcheck.diff.document import read_diff  # see comparison_text
    from assetcheck.diff.markdown import render_markdown
    from assetcheck.reports.markdown import escape

    comparison = comparison_of(report)
    if comparison is None:
        return ""
    if "unavailable" in comparison:
        return (
            f"## Comparison with the baseline job {escape(comparison['old'])}\n\n"
            f"{escape(comparison['unavailable'])}"
        )
    return render_markdown(read_diff(comparison)).rstrip("\n")
