"""The default health score (0..100) and grade. The formula is explained in ``docs/scoring.md``."""

from __future__ import annotations

import math
from collections.abc import Mapping

from assetcheck.plugins.hookspecs import hookimpl

#: Points the first occurrence of a code costs, by severity.
SEVERITY_WEIGHTS = {"error": 12.0, "warning": 3.0, "info": 0.5, "hint": 0.0}

#: The highest score an upload can get while its security scan has a warning of this level.
SECURITY_CAPS = {"critical": 20, "high": 49}

#: The highest score an upload can get when it has an error-severity issue: at best ``fair``.
ERROR_CAP = 74

#: The highest score an upload can get when none of its model files could be read (not
#: parseable, truncated, empty, or no model file at all): ``critical``.
UNREAD_CAP = 24

#: Lower bound of each grade, best first.
GRADE_BANDS = (("excellent", 90), ("good", 75), ("fair", 50), ("poor", 25), ("critical", 0))
GRADES = tuple(name for name, _ in GRADE_BANDS)


def penalty(counts: Mapping[str, int], severities: Mapping[str, str]) -> float:
    """Points lost to issues: a code seen ``n`` times costs ``weight * (1 + log10(n))``, so
    repeats weigh less and less (one mistake a thousand times costs four times one occurrence)."""
    return sum(
        SEVERITY_WEIGHTS[severities[code]] * (1 + math.log10(count))
        for code, count in counts.items()
        if count > 0
    )


def health_score(
    counts: Mapping[str, int],
    severities: Mapping[str, str],
    security_levels: set[str] | frozenset[str] = frozenset(),
) -> int:
    """100 minus the :func:`penalty`, rounded, then capped by the worst security level."""
    score = max(0, min(100, round(100 - penalty(counts, severities))))
    for level, cap in SECURITY_CAPS.items():
        if level in security_levels:
            score = min(score, cap)
    return score


def verdict_cap(
    score: int,
    *,
    has_errors: bool,
    model_read: bool,
    security_levels: set[str] | frozenset[str] = frozenset(),
) -> int:
    """``score`` capped so that the grade cannot contradict the verdict.

    An upload in which no model file could be read scores at most :data:`UNREAD_CAP`
    (``critical``), one with any error-severity issue at most :data:`ERROR_CAP` (``fair``), and
    the security caps of :data:`SECURITY_CAPS` still apply. The engine applies this to every
    score, whichever plugin computed it.
    """
    caps = [cap for level, cap in SECURITY_CAPS.items() if level in security_levels]
    if has_errors:
        caps.append(ERROR_CAP)
    if not model_read:
        caps.append(UNREAD_CAP)
    return min([score, *caps])


def grade_for(score: int) -> str:
    """The grade band ``score`` falls in."""
    for name, lower in GRADE_BANDS:
        if score >= lower:
            return name
    return GRADES[-1]


@hookimpl(trylast=True)
def compute_health_score(
    counts: Mapping[str, int], severities: Mapping[str, str], security_levels: frozenset[str]
) -> int:
    return health_score(counts, severities, security_levels)
