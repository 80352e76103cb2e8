"""Each side of a comparison as :class:`~assetcheck.diff.model.Snapshot` s, one per file: from
JSON reports (statistics, budget use and findings) or from a SARIF log AssetCheck wrote (its
findings only: a SARIF log holds no statistics)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

from assetcheck.diff.model import METRICS, BudgetUse, Snapshot
from assetcheck.reports import Report
from assetcheck.reports.baseline import (
    BaselineError,
    Known,
    is_sarif,
    parse_report_text,
    report_findings,
    sarif_findings,
)
from assetcheck.reports.document import failure


class ReportInputError(ValueError):
    """Text that is no JSON report, list of them or SARIF log AssetCheck wrote; the message
    says why, for people."""


def report_snapshots(reports: Iterable[Report]) -> list[Snapshot]:
    """One snapshot per report (a ZIP's model files together: see :func:`statistics`)."""
    return [
        Snapshot(
            report["filename"], statistics(report), budget_use(report), report_findings([report])
        )
        for report in reports
    ]


def statistics(report: Report) -> dict[str, int | None]:
    """The report's statistics, totalled over its model files; each None when the report does
    not say (a failed job's; one the service trimmed of model files; textures in a report
    written before they were counted)."""
    result = report.get("result")
    if failure(report) is not None or not result or _trimmed(report, "result.meshes"):
        return dict.fromkeys(METRICS)
    meshes, files = result["meshes"], report.get("files", [])
    return {
        "vertices": sum(mesh["vertexCount"] for mesh in meshes),
        "triangles": sum(mesh["triangleCount"] for mesh in meshes),
        "materials": sum(mesh["materialCount"] for mesh in meshes),
        "textures": _total(files, "textureCount"),
        "textures_gpu_memory": _total(files, "textureGpuBytes"),
        "file_size": _total(files, "byteSize"),
    }


def budget_use(report: Report) -> dict[str, BudgetUse]:
    """Each budget's use: for a report of several model files (a ZIP), that of the file using
    the most of it, over when any file is over it (budgets hold per model file). None is known
    of a report the service trimmed of some files' use."""
    uses: dict[str, BudgetUse] = {}
    if _trimmed(report, "budgetUse"):
        return uses
    for entry in report.get("budgetUse", []):
        for use in entry["usage"]:
            found = BudgetUse(use["used"], use["limit"], bool(use["over"]))
            known = uses.get(use["budget"])
            if known is not None:
                found = BudgetUse(
                    max(known.used, found.used), found.limit, known.over or found.over
                )
            uses[use["budget"]] = found
    return uses


def sarif_snapshots(log: dict[str, Any]) -> list[Snapshot]:
    """One snapshot per file of the log (its artifacts, and the files its results are in),
    with its findings and no statistics. Raises ``BaselineError`` (a ``KeyError`` or
    ``TypeError`` for a malformed artifact) when the log is not one AssetCheck wrote."""
    findings: dict[str, list[Known]] = defaultdict(list)
    for run in log["runs"]:
        for artifact in run.get("artifacts", []):
            findings[artifact["location"]["uri"]] = []
    for known in sarif_findings(log):
        findings[known.file].append(known)
    return [
        Snapshot(unquote(uri).removeprefix("file://"), dict.fromkeys(METRICS), {}, found)
        for uri, found in findings.items()
    ]


def read_snapshots(text: str) -> list[Snapshot]:
    """The snapshots of a report's ``text``: an AssetCheck JSON report, a list of them (what
    ``validate --format json`` writes) or a SARIF log. Raises :class:`ReportInputError`."""
    try:
        document = parse_report_text(text)
        if is_sarif(document):
            return sarif_snapshots(document)
        return report_snapshots(document if isinstance(document, list) else [document])
    except BaselineError as error:
        raise ReportInputError(str(error)) from error
    except (KeyError, TypeError) as error:
        raise ReportInputError(f"a report lacks {error}") from error


def _trimmed(report: Report, entries: str) -> bool:
    """Whether the service left some of the report's ``entries`` out to bound its size
    (:func:`assetcheck.reports.document.cap_report`)."""
    omitted = (report["summary"].get("capped") or {}).get("omitted", [])
    return any(name.startswith(f"{entries}[") for name in omitted)


def _total(files: list[dict[str, Any]], key: str) -> int | None:
    """The sum of ``key`` over ``files``; None when a file lacks it."""
    values: list[int] = [entry[key] for entry in files if entry.get(key) is not None]
    return sum(values) if len(values) == len(files) else None
