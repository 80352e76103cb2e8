"""The built-in report formats, registered like any plugin's."""

from __future__ import annotations

import json

from assetcheck.hookspecs import hookimpl
from assetcheck.reports import Report, ReportFormat
from assetcheck.reports.badge import render_badge
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.text import render_text


def render_json(document: Report | list[Report]) -> str:
    """A report (or a list of them) as indented UTF-8 JSON."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


@hookimpl
def register_report_formats() -> list[ReportFormat]:
    return [
        ReportFormat("json", "application/json", render_json, "The full report"),
        ReportFormat("markdown", "text/markdown; charset=utf-8", render_markdown,
                     "A readable report for pull requests"),
        ReportFormat("badge", "image/svg+xml", render_badge, "An SVG badge for READMEs"),
        ReportFormat("junit", "application/xml", render_junit,
                     "JUnit XML: one test case per check, for CI systems"),
        ReportFormat("text", "text/plain; charset=utf-8", render_text,
                     "A terminal summary"),
    ]
