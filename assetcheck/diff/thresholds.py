"""``--fail-on METRIC:+AMOUNT``: how much a statistic of a file may grow before a comparison is
worse (``triangles:+10%``, ``vertices:+500``, ``file_size:+2MB``; ``docs/diff.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assetcheck.diff.model import BYTE_METRICS, METRICS, MetricChange

#: Units a byte statistic's amount may be given in (decimal, as the report's MB are).
BYTE_UNITS = {"b": 1, "kb": 1_000, "mb": 1_000_000, "gb": 1_000_000_000}
_AMOUNT = re.compile(r"\+?(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>%|[a-zA-Z]+)?")


@dataclass(frozen=True)
class Threshold:
    """A statistic (one of :data:`~assetcheck.diff.model.METRICS`) may grow by ``amount`` (in
    its own unit, bytes for sizes) or, with ``percent``, by ``amount`` percent of its old
    value; ``text`` is the threshold as written."""

    metric: str
    amount: float
    percent: bool
    text: str

    def crossed(self, change: MetricChange) -> bool:
        """Whether ``change`` grows by more than allowed. Growth from 0 crosses any percentage;
        a statistic unknown on either side crosses nothing."""
        grown = change.change
        if grown is None or grown <= 0:
            return False
        if self.percent:
            return not change.old or 100 * grown / change.old > self.amount
        return grown > self.amount


def parse_threshold(text: str) -> Threshold:
    """The threshold ``text`` writes (``METRIC:+AMOUNT``); raises ``ValueError`` with a message
    for people when it is malformed or names an unknown statistic."""
    metric, colon, amount = text.partition(":")
    metric = metric.strip()
    if not colon:
        raise ValueError(f"--fail-on {text!r}: write METRIC:+AMOUNT, e.g. triangles:+10%")
    if metric not in METRICS:
        raise ValueError(
            f"--fail-on {text!r}: unknown statistic {metric!r}; choose one of {', '.join(METRICS)}"
        )
    found = _AMOUNT.fullmatch(amount.strip())
    if found is None:
        raise ValueError(
            f"--fail-on {text!r}: the amount must be a growth such as +10% or +500"
            + (" or +2MB" if metric in BYTE_METRICS else "")
            + " (a threshold bounds how much a statistic may grow)"
        )
    number, unit = float(found["number"]), found["unit"]
    if unit == "%":
        return Threshold(metric, number, True, text)
    if unit is None:
        return Threshold(metric, number, False, text)
    if metric in BYTE_METRICS and unit.lower() in BYTE_UNITS:
        return Threshold(metric, number * BYTE_UNITS[unit.lower()], False, text)
    units = f"%, {', '.join(u.upper() for u in BYTE_UNITS)}" if metric in BYTE_METRICS else "%"
    raise ValueError(f"--fail-on {text!r}: unknown unit {unit!r} for {metric}; use {units} or none")
