"""Comparing two sides file by file: statistics, budget use and findings (``docs/diff.md``).

Files pair by name; when each side holds one file they pair whatever their names (a model and
its re-export under another name), unless ``by_name`` (two folders). Findings pair as a
baseline pairs them (:func:`assetcheck.reports.baseline.compare`: file, code and fingerprint,
``docs/ci.md``), then those left over by code and message (numbers aside), so an added finding
is one the old side did not have, a fixed one one the new side no longer has.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from assetcheck.diff.figures import change_text, figure
from assetcheck.diff.model import (
    METRICS,
    WORSE_SEVERITIES,
    BudgetChange,
    Diff,
    FileDiff,
    MetricChange,
    Regression,
    Snapshot,
)
from assetcheck.diff.snapshots import report_snapshots
from assetcheck.diff.thresholds import Threshold
from assetcheck.reports import Report
from assetcheck.reports.baseline import Comparison, Known, compare, pair
from assetcheck.reports.fingerprints import message_identity


def diff_reports(
    old: Sequence[Report],
    new: Sequence[Report],
    thresholds: Sequence[Threshold] = (),
    *,
    old_label: str = "old",
    new_label: str = "new",
    by_name: bool = False,
) -> Diff:
    """The comparison of two sides' JSON reports (documents as ``build_report`` makes them):
    pure, it reads nothing but its arguments."""
    return diff_snapshots(
        report_snapshots(old),
        report_snapshots(new),
        thresholds,
        old_label=old_label,
        new_label=new_label,
        by_name=by_name,
    )


def diff_snapshots(
    old: Sequence[Snapshot],
    new: Sequence[Snapshot],
    thresholds: Sequence[Threshold] = (),
    *,
    old_label: str = "old",
    new_label: str = "new",
    by_name: bool = False,
) -> Diff:
    """The comparison of two sides' snapshots: a :class:`FileDiff` per file (the new side's
    order, then the files only the old side has), and what makes it worse."""
    files = [_file_diff(before, after) for before, after in _pairs(old, new, by_name)]
    regressions = [found for entry in files for found in _regressions(entry, thresholds)]
    return Diff(old_label, new_label, files, regressions)


def _pairs(
    old: Sequence[Snapshot], new: Sequence[Snapshot], by_name: bool
) -> list[tuple[Snapshot | None, Snapshot | None]]:
    if len(old) == 1 and len(new) == 1 and not by_name:
        return [(old[0], new[0])]
    old_by_name = {snapshot.name: snapshot for snapshot in old}
    pairs: list[tuple[Snapshot | None, Snapshot | None]] = [
        (old_by_name.pop(snapshot.name, None), snapshot) for snapshot in new
    ]
    return pairs + [(snapshot, None) for snapshot in old_by_name.values()]


def _file_diff(old: Snapshot | None, new: Snapshot | None) -> FileDiff:
    shown = new or old
    assert shown is not None
    metrics = [
        MetricChange(
            metric,
            None if old is None else old.statistics.get(metric),
            None if new is None else new.statistics.get(metric),
        )
        for metric in METRICS
    ]
    old_budgets = {} if old is None else old.budgets
    new_budgets = {} if new is None else new.budgets
    budgets = [
        BudgetChange(name, old_budgets.get(name), new_budgets.get(name))
        for name in [*new_budgets, *(name for name in old_budgets if name not in new_budgets)]
    ]
    findings = _findings(old, new)
    return FileDiff(
        shown.name,
        None if old is None else old.name,
        None if new is None else new.name,
        metrics,
        budgets,
        findings.new,
        findings.fixed,
        len(findings.unchanged),
    )


def _findings(old: Snapshot | None, new: Snapshot | None) -> Comparison:
    """The findings of a pair compared as a baseline compares them, the old side's known by
    the new side's file (a baseline compares a file's findings only when the run has some: a
    file with none has fixed all the old ones). Then the findings left on each side pair by
    code and message, numbers aside: the same finding about an item whose content changed
    (an unnamed primitive of a decimated mesh is known by its content)."""
    before = [] if old is None else old.findings
    after = [] if new is None else new.findings
    if not after:
        return Comparison([], [], list(before))
    file = after[0].file
    found = compare(after, [replace(known, file=file) for known in before])
    moved, added, fixed = pair(found.new, found.fixed, _words)
    return Comparison(added, found.unchanged + moved, fixed)


def _words(known: Known) -> tuple[str, str]:
    return (known.code, message_identity(known.message))


def _regressions(entry: FileDiff, thresholds: Sequence[Threshold]) -> list[Regression]:
    """What makes ``entry`` worse: each added finding of :data:`WORSE_SEVERITIES`, each budget
    newly exceeded, each threshold its statistics cross (files on both sides only)."""
    found = [
        Regression(entry.file, "finding", f"new {known.severity} {known.code}: {known.message}")
        for known in entry.added
        if known.severity in WORSE_SEVERITIES
    ]
    for budget in entry.budgets:
        if budget.newly_exceeded and budget.new is not None:
            found.append(
                Regression(
                    entry.file,
                    "budget",
                    f"newly over the {budget.budget} budget: "
                    f"{figure(budget.budget, budget.new.used)} "
                    f"(limit {figure(budget.budget, budget.new.limit)})",
                )
            )
    if entry.status == "changed":
        changes = {change.metric: change for change in entry.metrics}
        for threshold in thresholds:
            change = changes[threshold.metric]
            if threshold.crossed(change):
                found.append(
                    Regression(
                        entry.file,
                        "threshold",
                        f"{threshold.metric} grew more than {threshold.text} allows: "
                        f"{change_text(change)}",
                    )
                )
    return found
