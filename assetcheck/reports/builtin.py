"""The built-in report formats, registered like any plugin's.

Each renderer's module is imported when a report is first rendered in its format, so a command
that prints JSON never loads the XML, HTML and SARIF machinery of the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.reports import ReportFormat
from assetcheck.reports.json_text import render_json, render_json_list

__all__ = ["register_report_formats", "render_json"]


def deferred(module: str, function: str) -> Callable[[Any], str]:
    """A renderer that imports ``module`` and calls its ``function`` when first used."""

    def render(document: Any) -> str:
        return getattr(importlib.import_module(module), function)(document)

    render.__qualname__ = render.__name__ = function
    return render


@hookimpl
def register_report_formats() -> list[ReportFormat]:
    return [
        ReportFormat(
            "json",
            "application/json",
            render_json,
            "The full report",
            combine=render_json_list,
            title="JSON",
        ),
        ReportFormat(
            "markdown",
            "text/markdown; charset=utf-8",
            deferred("assetcheck.reports.markdown", "render_markdown"),
            "A readable report for pull requests",
            title="Markdown",
        ),
        ReportFormat(
            "badge",
            "image/svg+xml",
            deferred("assetcheck.reports.badge", "render_badge"),
            "An SVG badge for READMEs",
            title="Badge",
        ),
        ReportFormat(
            "junit",
            "application/xml",
            deferred("assetcheck.reports.junit", "render_junit"),
            "JUnit XML: one test case per check, for CI systems",
            title="JUnit",
            combine=deferred("assetcheck.reports.junit", "render_junit_combined"),
        ),
        ReportFormat(
            "text",
            "text/plain; charset=utf-8",
            deferred("assetcheck.reports.text", "render_text"),
            "A terminal summary",
            title="Text",
        ),
        ReportFormat(
            "sarif",
            "application/sarif+json",
            deferred("assetcheck.reports.sarif", "render_sarif"),
            "SARIF 2.1.0, for GitHub code scanning and other SARIF viewers",
            combine=deferred("assetcheck.reports.sarif", "render_sarif_combined"),
            title="SARIF",
        ),
    ]
