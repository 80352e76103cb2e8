"""The built-in report formats, registered like any plugin's."""

from __future__ import annotations

from assetcheck.hookspecs import hookimpl
from assetcheck.reports import ReportFormat
from assetcheck.reports.badge import render_badge
from assetcheck.reports.json_text import render_json, render_json_list
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.sarif import render_sarif, render_sarif_combined
from assetcheck.reports.text import render_text

__all__ = ["register_report_formats", "render_json"]


@hookimpl
def register_report_formats() -> list[ReportFormat]:
    return [
        ReportFormat("json", "application/json", render_json, "The full report",
                     combine=render_json_list),
        ReportFormat("markdown", "text/markdown; charset=utf-8", render_markdown,
                     "A readable report for pull requests"),
        ReportFormat("badge", "image/svg+xml", render_badge, "An SVG badge for READMEs"),
        ReportFormat("junit", "application/xml", render_junit,
                     "JUnit XML: one test case per check, for CI systems"),
        ReportFormat("text", "text/plain; charset=utf-8", render_text,
                     "A terminal summary"),
        ReportFormat("sarif", "application/sarif+json", render_sarif,
                     "SARIF 2.1.0, for GitHub code scanning and other SARIF viewers",
                     combine=render_sarif_combined),
    ]
