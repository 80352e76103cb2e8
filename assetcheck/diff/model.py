"""What a comparison is made of: each side's files (:class:`Snapshot`), and what changed between
them (:class:`Diff`), a plain data structure every renderer and the JSON document are made from.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from assetcheck.reports.baseline import Known

#: The statistics compared, in the order they are shown; the names ``--fail-on`` takes.
METRICS = ("vertices", "triangles", "materials", "textures", "textures_gpu_memory", "file_size")
#: The statistics counted in bytes (shown in kB/MB, and thresholds may say so).
BYTE_METRICS = frozenset({"textures_gpu_memory", "file_size"})
#: How people read each statistic.
METRIC_LABELS = {
    "vertices": "Vertices",
    "triangles": "Triangles",
    "materials": "Materials",
    "textures": "Textures",
    "textures_gpu_memory": "Texture GPU memory",
    "file_size": "File size",
}
#: The severities of an added finding that make a comparison worse.
WORSE_SEVERITIES = ("error", "warning")
#: The version of the JSON document's shape (``docs/diff.md``).
DIFF_VERSION = 1

Number = int | float | bool
FileStatus = Literal["added", "removed", "changed", "unchanged"]


@dataclass(frozen=True)
class BudgetUse:
    """What one file uses of one budget of its engine profile, and whether that is over it."""

    used: Number
    limit: Number
    over: bool

    def to_dict(self) -> dict[str, Any]:
        return {"used": self.used, "limit": self.limit, "over": self.over}


@dataclass(frozen=True)
class Snapshot:
    """One file of one side, as its report tells it: ``name`` (the report's file name),
    ``statistics`` (each of :data:`METRICS`, None when the report does not say), ``budgets``
    (each budget's use; empty when unknown) and ``findings`` (as a baseline knows them)."""

    name: str
    statistics: dict[str, int | None]
    budgets: dict[str, BudgetUse]
    findings: list[Known]


@dataclass(frozen=True)
class MetricChange:
    """One statistic of a file on each side (None: the file is not on that side, or its report
    does not say)."""

    metric: str
    old: int | None
    new: int | None

    @property
    def changed(self) -> bool:
        """Known on both sides, and different (a file on one side only has no change)."""
        return self.old is not None and self.new is not None and self.old != self.new

    @property
    def change(self) -> int | None:
        """``new - old``, when both are known."""
        return None if self.old is None or self.new is None else self.new - self.old

    @property
    def percent(self) -> float | None:
        """The change in percent of ``old``; None when unknown or ``old`` is 0."""
        change = self.change
        return None if change is None or not self.old else round(100 * change / self.old, 1)

    def to_dict(self) -> dict[str, Any]:
        return {"old": self.old, "new": self.new, "change": self.change, "percent": self.percent}


@dataclass(frozen=True)
class BudgetChange:
    """One budget's use on each side (None: the file is not on that side, or its report does
    not say: a SARIF log, a failed job)."""

    budget: str
    old: BudgetUse | None
    new: BudgetUse | None

    @property
    def changed(self) -> bool:
        """Known on both sides, and used differently."""
        return self.old is not None and self.new is not None and self.old != self.new

    @property
    def newly_exceeded(self) -> bool:
        """Over the budget now, and known to be within it before."""
        return self.new is not None and self.new.over and self.old is not None and not self.old.over

    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "old": None if self.old is None else self.old.to_dict(),
            "new": None if self.new is None else self.new.to_dict(),
            "newlyExceeded": self.newly_exceeded,
        }


@dataclass(frozen=True)
class Regression:
    """Why a comparison is worse: the ``file``, the ``kind`` (``finding``, ``budget`` or
    ``threshold``) and what happened, for people."""

    file: str
    kind: Literal["finding", "budget", "threshold"]
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"file": self.file, "kind": self.kind, "message": self.message}


@dataclass(frozen=True)
class FileDiff:
    """What changed in one file: ``old_name`` and ``new_name`` are its names on each side (None
    on the side it is not on), ``file`` the name it is shown by (the new one, else the old)."""

    file: str
    old_name: str | None
    new_name: str | None
    metrics: list[MetricChange]
    budgets: list[BudgetChange]
    added: list[Known]
    fixed: list[Known]
    unchanged: int

    @property
    def status(self) -> FileStatus:
        if self.old_name is None:
            return "added"
        if self.new_name is None:
            return "removed"
        changed = any(c.changed for c in self.metrics) or any(c.changed for c in self.budgets)
        return "changed" if changed or self.added or self.fixed else "unchanged"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "oldFile": self.old_name,
            "newFile": self.new_name,
            "status": self.status,
            "statistics": {change.metric: change.to_dict() for change in self.metrics},
            "budgets": [change.to_dict() for change in self.budgets],
            "findings": {
                "added": [finding_dict(known) for known in self.added],
                "fixed": [finding_dict(known) for known in self.fixed],
                "unchanged": self.unchanged,
            },
        }


@dataclass(frozen=True)
class Diff:
    """The comparison of two sides: each file's :class:`FileDiff` (in the order of the new
    side, then the files only the old side has) and the :class:`Regression` s that make it
    worse. ``old`` and ``new`` say what was compared, for people (paths, job ids)."""

    old: str
    new: str
    files: list[FileDiff]
    regressions: list[Regression] = field(default_factory=list)

    @property
    def worse(self) -> bool:
        return bool(self.regressions)

    @property
    def changed(self) -> list[FileDiff]:
        """The files that are not unchanged."""
        return [entry for entry in self.files if entry.status != "unchanged"]

    def summary(self) -> dict[str, int]:
        counts = {status: 0 for status in ("added", "removed", "changed", "unchanged")}
        for entry in self.files:
            counts[entry.status] += 1
        return {
            "files": len(self.files),
            **counts,
            "findingsAdded": sum(len(entry.added) for entry in self.files),
            "findingsFixed": sum(len(entry.fixed) for entry in self.files),
        }

    def to_dict(self) -> dict[str, Any]:
        """The JSON document (``docs/diff.md``)."""
        return {
            "diffVersion": DIFF_VERSION,
            "old": self.old,
            "new": self.new,
            "worse": self.worse,
            "regressions": [regression.to_dict() for regression in self.regressions],
            "summary": self.summary(),
            "files": [entry.to_dict() for entry in self.files],
        }


def finding_dict(known: Known) -> dict[str, str]:
    """A finding as the JSON document shows it."""
    return {
        "code": known.code,
        "severity": known.severity,
        "message": known.message,
        "where": known.where,
        "fingerprint": known.fingerprint,
    }
