"""Reports: one JSON document per validation, and renderers that present it in other formats."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pluggy

from assetcheck.plugins.manager import by_name

Report = dict[str, Any]

# C0 and C1 controls, bidirectional overrides and isolates, lone surrogates, XML's non-characters.
_INVISIBLE = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def visible(text: object) -> str:
    """``text`` with every invisible or unencodable character written as ``\\uXXXX``.

    Names taken from an asset pass through this before any text renderer prints them, so they
    can neither drive a terminal (escape sequences), reorder what is shown (bidi overrides),
    break an XML document nor fail UTF-8 encoding (lone surrogates).
    """
    return _INVISIBLE.sub(lambda found: f"\\u{ord(found[0]):04x}", str(text))


@dataclass(frozen=True)
class ReportFormat:
    """A way to present a report: ``render`` turns the JSON report into text of ``content_type``.

    ``combine``, when given, renders the reports of several files as one document (a JSON list,
    one SARIF log); formats without it are printed one report after another.
    """

    name: str
    content_type: str
    render: Callable[[Report], str]
    description: str = ""
    combine: Callable[[list[Report]], str] | None = None


class UnknownReportFormatError(ValueError):
    """A report format no plugin renders; the message lists the known ones."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name = name
        self.known = known
        super().__init__(f"unknown report format {name!r}: choose one of {', '.join(known)}")


def report_formats(pm: pluggy.PluginManager) -> dict[str, ReportFormat]:
    """Every registered report format by name; a name registered twice is an error."""
    return by_name(pm.hook.register_report_formats(), "report format")


def render(pm: pluggy.PluginManager, report: Report, name: str) -> tuple[str, str]:
    """The report rendered as ``name``, with its content type."""
    formats = report_formats(pm)
    if name not in formats:
        raise UnknownReportFormatError(name, sorted(formats))
    chosen = formats[name]
    return chosen.render(report), chosen.content_type
