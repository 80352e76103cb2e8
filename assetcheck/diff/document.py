"""The JSON document of a comparison read back into a :class:`Diff`: the inverse of
``Diff.to_dict()``, for a comparison stored in a job's report and rendered later."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from assetcheck.diff.model import (
    METRICS,
    BudgetChange,
    BudgetUse,
    Diff,
    FileDiff,
    MetricChange,
    Regression,
)
from assetcheck.reports.baseline import Known


def read_diff(document: Mapping[str, Any]) -> Diff:
    """The :class:`Diff` whose ``to_dict()`` is ``document``."""
    return Diff(
        document["old"],
        document["new"],
        [_file_diff(entry) for entry in document["files"]],
        [Regression(r["file"], r["kind"], r["message"]) for r in document["regressions"]],
    )


def _file_diff(entry: Mapping[str, Any]) -> FileDiff:
    statistics = entry["statistics"]
    findings = entry["findings"]
    return FileDiff(
        entry["file"],
        entry["oldFile"],
        entry["newFile"],
        [
            MetricChange(metric, statistics[metric]["old"], statistics[metric]["new"])
            for metric in METRICS
        ],
        [
            BudgetChange(budget["budget"], _use(budget["old"]), _use(budget["new"]))
            for budget in entry["budgets"]
        ],
        [_known(entry["file"], finding) for finding in findings["added"]],
        [_known(entry["file"], finding) for finding in findings["fixed"]],
        findings["unchanged"],
    )


def _use(use: Mapping[str, Any] | None) -> BudgetUse | None:
    return None if use is None else BudgetUse(use["used"], use["limit"], use["over"])


def _known(file: str, finding: Mapping[str, str]) -> Known:
    return Known(
        file,
        finding["code"],
        finding["fingerprint"],
        finding["severity"],
        finding["message"],
        finding["where"],
    )
