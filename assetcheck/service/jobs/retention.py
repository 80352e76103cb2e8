"""Retention: a job's files and report are removed ``[plans.<name>] retention_days`` after
it ended. The row stays, with its summary (status, file name, score, grade, error) and
``expired_at``; its report then answers 410 JOB_EXPIRED.

Jobs are expired in batches, each in a transaction that locks its rows (PostgreSQL: ``FOR NO
KEY UPDATE SKIP LOCKED``), so two nodes expiring at once take different jobs. The files go
before the row is marked: a node that dies in between leaves the job to be expired again, and
removing files twice is harmless.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta

import peewee

from assetcheck.config.accounts import PlanSettings
from assetcheck.service.db import lock_rows, write_transaction
from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.jobs.queue import ENDED
from assetcheck.service.jobs.storage import JobStorage

EXPIRY_BATCH = 100


def retention_days(plans: Mapping[str, PlanSettings]) -> dict[str, int]:
    """``[plans.<name>] retention_days`` of the plans that remove anything (above 0)."""
    return {name: plan.retention_days for name, plan in plans.items() if plan.retention_days > 0}


def expire_jobs(
    database: peewee.Database, storage: JobStorage, days_by_plan: Mapping[str, int]
) -> int:
    """Expire every ended job past its plan's retention; returns how many."""
    expired = 0
    for plan, days in days_by_plan.items():
        cutoff = utcnow() - timedelta(days=days)
        while count := _expire_batch(database, storage, plan, cutoff):
            expired += count
            if count < EXPIRY_BATCH:
                break
    return expired


def _expire_batch(
    database: peewee.Database, storage: JobStorage, plan: str, cutoff: datetime
) -> int:
    with write_transaction(database):
        query = (
            Job.select(Job.id)
            .where(
                Job.account.in_(Account.select(Account.id).where(Account.plan == plan)),
                Job.status.in_(ENDED),
                Job.finished_at < cutoff,
                Job.expired_at.is_null(),
            )
            .order_by(Job.finished_at)
            .limit(EXPIRY_BATCH)
        )
        job_ids = [job.id for job in lock_rows(query, skip_locked=True)]
        for job_id in job_ids:
            storage.delete_job(job_id)
        if job_ids:
            Job.update(expired_at=utcnow(), result=None).where(Job.id.in_(job_ids)).execute()
    return len(job_ids)
