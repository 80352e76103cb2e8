"""The default health score (0..100) and grade. The formula is explained in ``docs/scoring.md``."""

from __future__ import annotations

import math
from collections.abc import Mapping

from assetcheck.hookspecs import hookimpl

#: Points the first occurrence of a code costs, by severity.
SEVERITY_WEIGHTS = {"error": 12.0, "warning": 3.0, "info": 0.5, "hint": 0.0}

#: The highest score an upload can get while its security scan has a warning of this level.
SECURITY_CAPS = {"critical": 20, "high": 49}

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
