"""Comparing two versions of models: what changed per file in statistics, budget use and
findings, and whether anything got worse (``docs/diff.md``).

The core is pure and knows nothing of files, HTTP or the database: :func:`diff_reports` compares
two sides' JSON reports (as ``build_report`` makes them, as the service stores them) and returns
a :class:`Diff`, which ``Diff.to_dict()`` makes the JSON document and
:func:`~assetcheck.diff.text.render_text` and :func:`~assetcheck.diff.markdown.render_markdown`
render. A SARIF log is read into snapshots by :func:`read_snapshots` and compared with
:func:`diff_snapshots`. ``assetcheck diff`` (``assetcheck.cli.diff_command``) validates model
files first, with the ``validate`` command's own function.
"""

from assetcheck.diff.compare import diff_reports, diff_snapshots
from assetcheck.diff.model import (
    METRICS,
    BudgetChange,
    BudgetUse,
    Diff,
    FileDiff,
    MetricChange,
    Regression,
    Snapshot,
)
from assetcheck.diff.snapshots import ReportInputError, read_snapshots, report_snapshots
from assetcheck.diff.thresholds import Threshold, parse_threshold

__all__ = [
    "METRICS",
    "BudgetChange",
    "BudgetUse",
    "Diff",
    "FileDiff",
    "MetricChange",
    "Regression",
    "ReportInputError",
    "Snapshot",
    "Threshold",
    "diff_reports",
    "diff_snapshots",
    "parse_threshold",
    "read_snapshots",
    "report_snapshots",
]
