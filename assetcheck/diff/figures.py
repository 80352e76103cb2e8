"""Statistics and their changes as people read them, for the text and Markdown renderers."""

from __future__ import annotations

from assetcheck.diff.model import BYTE_METRICS, MetricChange, Number

_BYTE_STEPS = ((1_000_000_000, "GB"), (1_000_000, "MB"), (1_000, "kB"))


def figure(metric: str, value: Number | None) -> str:
    """``value`` of ``metric``: counts with thousands separators, sizes in B, kB, MB or GB
    (decimal, three significant digits), ``?`` when not known."""
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if metric in BYTE_METRICS:
        for step, unit in _BYTE_STEPS:
            if abs(value) >= step:
                return f"{value / step:.3g} {unit}"
        return f"{value:,} B"
    return f"{value:,}" if isinstance(value, int) else f"{value:g}"


def change_text(change: MetricChange) -> str:
    """``old → new (+delta, +percent%)``; the value alone when it did not change (the one
    side's, for a file on one side or a statistic one side does not know)."""
    if not change.changed:
        return figure(change.metric, change.old if change.new is None else change.new)
    text = f"{figure(change.metric, change.old)} → {figure(change.metric, change.new)}"
    if change.change is None:
        return text
    delta = figure(change.metric, abs(change.change))
    sign = "+" if change.change > 0 else "-"
    percent = "" if change.percent is None else f", {change.percent:+g}%"
    return f"{text} ({sign}{delta}{percent})"
