"""The jobs a request compares: an upload's ``baseline_job`` and the two jobs of
``GET /api/v1/validate/{jobId}/compare/{otherJobId}``, each one of the account's completed
jobs with its report (``docs/api.md``)."""

from __future__ import annotations

from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED, FAILED
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import expired


def check_baseline(account_id: int, job_id: str) -> None:
    """Refuse an upload's ``baseline_job`` that cannot be compared with: 400
    BASELINE_NOT_FOUND when the account has no job by that id (another account's job
    included, so its existence does not leak), 409 BASELINE_NOT_COMPLETED while it is queued
    or processing or when it failed, 409 BASELINE_EXPIRED once retention removed its report."""
    job = (
        Job.select(Job.id, Job.status, Job.expired_at)
        .where((Job.id == job_id) & (Job.account == account_id))
        .first()
    )
    if job is None:
        raise RequestError(
            400,
            "BASELINE_NOT_FOUND",
            f"baseline_job names no job of this account: {job_id!r}. "
            "Name one of your completed jobs (GET /api/v1/validate?status=completed).",
        )
    if job.status != COMPLETED:
        raise RequestError(
            409,
            "BASELINE_NOT_COMPLETED",
            f"The baseline job {job_id} is {job.status}: only a completed job can be compared "
            "with."
            + (" Wait until it completes, then upload again." if job.status != FAILED else ""),
        )
    if job.expired_at is not None:
        raise RequestError(
            409,
            "BASELINE_EXPIRED",
            f"The baseline job {job_id} has expired: its plan's retention removed its report, "
            "so nothing is left to compare with. Name a more recent job.",
        )


def refuse_uncomparable(job: Job) -> None:
    """Refuse a comparison with a job that has no report: 410 JOB_EXPIRED once retention
    removed it, 409 JOB_FAILED when the job failed (a queued or processing one is for the
    caller to answer JOB_NOT_READY, with its polling hint)."""
    if job.expired_at is not None:
        raise expired(job)
    if job.status == FAILED:
        raise RequestError(
            409,
            "JOB_FAILED",
            f"Job {job.id} failed ({job.error_code}): it has no report to compare.",
        )
