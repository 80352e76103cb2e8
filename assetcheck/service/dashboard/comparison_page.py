"""The job page's comparison with the previous upload of the same file (``docs/dashboard.md``,
Comparing with the previous upload): the account's latest earlier completed job of the same
file name, what changed since (the diff of the two stored reports, :mod:`assetcheck.diff`),
and the two models for the side-by-side 3D views, whose cameras move together."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from assetcheck.diff import Diff
from assetcheck.diff.figures import change_text
from assetcheck.diff.model import METRIC_LABELS
from assetcheck.previews.job_files import model_file_name
from assetcheck.reports import Report
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.comparison import compare_reports
from assetcheck.service.jobs.queue import COMPLETED
from assetcheck.service.jobs.storage import JobStorage


@dataclass(frozen=True)
class SideModel:
    """One side's model in the 3D view: the job, and the size of its viewer model."""

    job_id: str
    size: int


@dataclass(frozen=True)
class PageComparison:
    """What the comparison section shows: the previous job, the diff, each changed
    statistic as ``(label, old → new (change))``, and the two models side by side (None
    when either job has no single model the viewer can show)."""

    previous: Job
    diff: Diff
    statistics: list[tuple[str, str]]
    models: tuple[SideModel, SideModel] | None


def previous_upload(account_id: int, job: Job) -> Job | None:
    """The account's latest completed, unexpired job of ``job``'s file name uploaded before
    ``job``, read without its report; None when there is none."""
    return (
        Job.select(Job.id, Job.filename, Job.created_at, Job.finished_at)
        .where(
            (Job.account == account_id)
            & (Job.filename == job.filename)
            & (Job.status == COMPLETED)
            & Job.expired_at.is_null()
            & (
                (Job.created_at < job.created_at)
                | ((Job.created_at == job.created_at) & (Job.id < job.id))
            )
        )
        .order_by(Job.created_at.desc(), Job.id.desc())
        .first()
    )


def page_comparison(
    previous: Job, previous_report: Report, job: Job, report: Report, storage: JobStorage
) -> PageComparison:
    """The comparison of ``job`` with ``previous``, from their two reports (as the compare
    endpoint makes it). Reads what the two jobs stored: call it off the event loop."""
    diff = compare_reports(previous.id, previous_report, job.id, report)
    statistics = [
        (METRIC_LABELS[change.metric], change_text(change))
        for entry in diff.files
        for change in entry.metrics
        if change.changed
    ]
    old_model = _single_model(storage, previous.id, previous_report)
    new_model = _single_model(storage, job.id, report)
    models = (old_model, new_model) if old_model and new_model else None
    return PageComparison(previous, diff, statistics, models)


def _single_model(storage: JobStorage, job_id: str, report: dict[str, Any]) -> SideModel | None:
    """The job's viewer model when its upload is one model file with one stored."""
    meshes = report["result"]["meshes"]
    if len(meshes) != 1:
        return None
    size = storage.preview_sizes(job_id).get(model_file_name("viewer_model", meshes[0]["filename"]))
    return None if size is None else SideModel(job_id, size)
