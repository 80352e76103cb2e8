"""The SVG badge: a shields-style "asset | <grade> <score>" image for READMEs.

A failed job's badge says "failed" and a job still waiting says its state ("queued",
"processing"), both in grey.
"""

from __future__ import annotations

from html import escape

from assetcheck.reports import Report

LABEL = "asset"
GRADE_COLOURS = {
    "excellent": "#4c1",
    "good": "#97ca00",
    "fair": "#dfb317",
    "poor": "#fe7d37",
    "critical": "#e05d44",
}
INACTIVE_COLOUR = "#9f9f9f"
LABEL_COLOUR = "#555"
PADDING = 6

# Advance widths of Verdana at 11 px, the badge font, for the characters a badge shows.
_WIDTHS = {
    **dict.fromkeys("abcdeghknopqsuvxyz", 6.9),
    **dict.fromkeys("fjrt", 4.3),
    **dict.fromkeys("ilI", 3.1),
    "m": 10.7,
    "w": 8.9,
    **dict.fromkeys("0123456789", 7.0),
    " ": 3.9,
    "/": 4.9,
    "-": 4.9,
}
_DEFAULT_WIDTH = 7.5


def text_width(text: str) -> int:
    """Rendered width of ``text`` in pixels, rounded up."""
    return int(sum(_WIDTHS.get(char, _DEFAULT_WIDTH) for char in text) + 0.999)


def render_badge(report: Report) -> str:
    """The badge of a report: "<grade> <score>" in the grade's colour, or "failed" in grey.

    Only ``grade`` and ``health_score`` are read, so the service can draw a job's badge from
    those two columns without loading its report.
    """
    if report.get("grade") is None:
        return badge_svg("failed", INACTIVE_COLOUR)
    return badge_svg(f"{report['grade']} {report['health_score']}", GRADE_COLOURS[report["grade"]])


def pending_badge(state: str) -> str:
    """The badge of a job that has no report yet: its state, in grey."""
    return badge_svg(state, INACTIVE_COLOUR)


def badge_svg(value: str, colour: str) -> str:
    """A complete, standalone SVG document with a ``<title>`` for screen readers."""
    left = text_width(LABEL) + 2 * PADDING
    right = text_width(value) + 2 * PADDING
    total = left + right
    title = escape(f"{LABEL}: {value}")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total}" height="20" role="img" '
        f'aria-label="{title}">'
        f"<title>{title}</title>"
        '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" '
        'stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>'
        f'<clipPath id="r"><rect width="{total}" height="20" rx="3" fill="#fff"/></clipPath>'
        f'<g clip-path="url(#r)"><rect width="{left}" height="20" fill="{LABEL_COLOUR}"/>'
        f'<rect x="{left}" width="{right}" height="20" fill="{colour}"/>'
        f'<rect width="{total}" height="20" fill="url(#s)"/></g>'
        '<g fill="#fff" text-anchor="middle" '
        'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">'
        f'<text x="{left / 2}" y="14">{escape(LABEL)}</text>'
        f'<text x="{left + right / 2}" y="14">{escape(value)}</text></g></svg>\n'
    )
