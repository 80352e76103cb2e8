"""The built-in report formats, registered like any plugin's."""

from __future__ import annotations

import json

from assetcheck.hookspecs import hookimpl
from assetcheck.reports import Report, ReportFormat, visible
from assetcheck.reports.badge import render_badge
from assetcheck.reports.junit import render_junit
from assetcheck.reports.markdown import render_markdown
from assetcheck.reports.text import render_text


def render_json(document: Report | list[Report]) -> str:
    """A report (or a list of them) as indented JSON, printable and always encodable as UTF-8.

    Characters :func:`~assetcheck.reports.visible` shows as ``\\uXXXX`` (a terminal escape, a
    bidi override, a lone surrogate that a glTF string may hold) are written as JSON escapes,
    so every string keeps its exact value. JSON escapes its own line breaks, so each line of
    the output is one piece of the structure.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return "\n".join(map(visible, text.split("\n"))) + "\n"


@hookimpl
def register_report_formats() -> list[ReportFormat]:
    return [
        ReportFormat("json", "application/json", render_json, "The full report",
                     combine=render_json),
        ReportFormat("markdown", "text/markdown; charset=utf-8", render_markdown,
                     "A readable report for pull requests"),
        ReportFormat("badge", "image/svg+xml", render_badge, "An SVG badge for READMEs"),
        ReportFormat("junit", "application/xml", render_junit,
                     "JUnit XML: one test case per check, for CI systems"),
        ReportFormat("text", "text/plain; charset=utf-8", render_text,
                     "A terminal summary"),
    ]
