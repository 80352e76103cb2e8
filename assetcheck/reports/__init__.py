"""Reports: one JSON document per validation, and renderers that present it in other formats."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pluggy

from assetcheck.issues import title_from_code
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


def group_title(group: dict[str, Any]) -> str:
    """An issue group's plain title; a report stored before issues had titles gets the one made
    from its code."""
    return str(group.get("title") or title_from_code(group["code"]))


def headline(group: dict[str, Any], occurrence: dict[str, Any]) -> str:
    """What an occurrence's first line says: its headline (the title counting what it is about),
    or its group's title."""
    return str(occurrence.get("headline") or group_title(group))


def group_headline(group: dict[str, Any]) -> str:
    """The words leading an issue group: its one occurrence's headline, or its plain title when
    it has several (each occurrence counts its own)."""
    occurrences = group.get("occurrences", [])
    if group.get("count") == 1 and occurrences:
        return headline(group, occurrences[0])
    return group_title(group)


def titles_by_code(report: Report) -> dict[str, str]:
    """The title of each issue code the report holds (security warnings carry only the code)."""
    return {group["code"]: group_title(group) for group in report["issues"]}


@dataclass(frozen=True)
class ReportFormat:
    """A way to present a report: ``render`` turns the JSON report into text of ``content_type``.

    ``combine``, when given, renders the reports of several files as one document (a JSON list,
    one SARIF log); formats without it are printed one report after another. ``title`` names
    the format for people (the dashboard's download links); without it, the name is shown.
    """

    name: str
    content_type: str
    render: Callable[[Report], str]
    description: str = ""
    combine: Callable[[list[Report]], str] | None = None
    title: str = ""

    @property
    def label(self) -> str:
        """What people call the format: its ``title``, else its ``name``."""
        return self.title or self.name


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
