"""Building the JSON report: the one document every other format is rendered from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assetcheck import __version__
from assetcheck.model import Result
from assetcheck.reports import Report

REPORT_VERSION = 1


def build_report(result: Result, *, job: Mapping[str, Any] | None = None) -> Report:
    """The full JSON report of ``result``; ``job`` adds the service's job fields when there is one.

    Issues are grouped by severity, then by code, each group with its count (occurrences
    beyond the cap included), its fix and the locations kept.
    """
    profile = result.profile
    return {
        "reportVersion": REPORT_VERSION,
        "assetcheck": {"version": __version__},
        "job": dict(job) if job else None,
        "filename": result.filename,
        "engine": {"name": profile.name, "title": profile.title,
                   "budgets": profile.budgets.to_dict()},
        "health_score": result.health_score,
        "grade": result.grade,
        "valid": result.valid,
        "summary": {
            "files": len(result.assets),
            "severityCounts": result.severity_counts,
            "truncated": result.truncated,
        },
        "result": result.to_dict(),
        "budgetUse": budget_use(result),
        "issues": group_issues(result),
        "checks": [run.to_dict() for run in result.checks],
        "timings": result.timings,
    }


def group_issues(result: Result) -> list[dict[str, Any]]:
    """One entry per code, ordered by severity then code, with the kept occurrences' locations."""
    order = {"error": 0, "warning": 1, "info": 2, "hint": 3}
    groups: dict[str, dict[str, Any]] = {}
    for issue in result.issues:
        group = groups.setdefault(issue.code, {
            "code": issue.code,
            "severity": issue.severity,
            "count": result.issue_counts.get(issue.code, 0),
            "fix": issue.fix,
            "occurrences": [],
        })
        occurrence = issue.to_dict()
        for shared in ("code", "severity", "fix"):
            occurrence.pop(shared)
        group["occurrences"].append(occurrence)
    return sorted(groups.values(), key=lambda g: (order[g["severity"]], g["code"]))


def budget_use(result: Result) -> list[dict[str, Any]]:
    """Per model file, what it uses of each budget of the profile: ``used``, ``limit``, ``over``.

    For ``index_32bit`` the values are booleans: whether the file uses 32-bit indices, and
    whether the profile allows them.
    """
    budgets = result.profile.budgets.to_dict()
    files = []
    for asset in result.assets:
        usage = []
        for name, limit in budgets.items():
            used = asset.metrics.get(name)
            if used is None:
                continue
            over = (used and not limit) if isinstance(limit, bool) else used > limit
            usage.append({"budget": name, "used": used, "limit": limit, "over": bool(over)})
        files.append({"file": asset.filename, "usage": usage})
    return files
