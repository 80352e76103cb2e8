"""Reports: one JSON document per validation, and renderers that present it in other formats."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pluggy

Report = dict[str, Any]


@dataclass(frozen=True)
class ReportFormat:
    """A way to present a report: ``render`` turns the JSON report into text of ``content_type``."""

    name: str
    content_type: str
    render: Callable[[Report], str]
    description: str = ""


class UnknownReportFormatError(ValueError):
    """A report format no plugin renders; the message lists the known ones."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown report format {name!r}: choose one of {', '.join(known)}")


def report_formats(pm: pluggy.PluginManager) -> dict[str, ReportFormat]:
    """Every registered report format by name; a name registered twice is an error."""
    formats: dict[str, ReportFormat] = {}
    for group in pm.hook.register_report_formats():
        for report_format in group:
            if report_format.name in formats:
                raise ValueError(f"report format {report_format.name!r} is registered twice")
            formats[report_format.name] = report_format
    return formats


def render(pm: pluggy.PluginManager, report: Report, name: str) -> tuple[str, str]:
    """The report rendered as ``name``, with its content type."""
    formats = report_formats(pm)
    if name not in formats:
        raise UnknownReportFormatError(name, sorted(formats))
    chosen = formats[name]
    return chosen.render(report), chosen.content_type
