"""The job state machine and the leases workers hold: every change of a job's status is here.

    queued --claim--> processing --complete--> completed
                      processing --fail------> failed
                      processing --hand back / lease expired / crash--> queued
                      processing --3rd crash---> failed (VALIDATION_CRASHED)

Each change is one guarded ``UPDATE ... WHERE status = <from>`` (and, for a worker, ``AND
lease_owner = <me>``), so two nodes racing for the same job cannot both win: a worker whose
lease was taken away finds that its ``complete`` changed nothing, and drops its result.
A job that ends (completed or failed) has its webhook queued in the outbox in the same
transaction, so no ended job misses its webhook, even if the process dies right after.
"""

from __future__ import annotations

import math
import secrets
import string
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

import peewee

from assetcheck.db import is_postgresql
from assetcheck.db.tables import Job, utcnow
from assetcheck.failures import VALIDATION_CRASHED
from assetcheck.webhooks.outbox import queue_job_events

QUEUED, PROCESSING, COMPLETED, FAILED = "queued", "processing", "completed", "failed"
STATES = (QUEUED, PROCESSING, COMPLETED, FAILED)
ENDED = frozenset({COMPLETED, FAILED})
TRANSITIONS: Mapping[str, frozenset[str]] = {
    QUEUED: frozenset({PROCESSING}),
    PROCESSING: frozenset({COMPLETED, FAILED, QUEUED}),
}

#: A job whose worker died this many times is not tried again.
MAX_ATTEMPTS = 3

JOB_ID_PREFIX = "val_"
_ID_ALPHABET = string.ascii_letters + string.digits

#: Assumed duration of one validation before any job has completed.
DEFAULT_DURATION = 2.0
RECENT_JOBS = 20


def new_job_id() -> str:
    """``val_`` + 24 random alphanumerics (143 bits): unguessable, safe in paths and URLs."""
    return JOB_ID_PREFIX + "".join(secrets.choice(_ID_ALPHABET) for _ in range(24))


class JobQueue:
    """Claims, leases and state changes of jobs in the bound database.

    ``lease_seconds`` is how long a claim lasts without renewal; ``workers`` is how many
    validations run at once, for estimates.
    """

    def __init__(self, database: peewee.Database, *, lease_seconds: float, workers: int) -> None:
        self.database = database
        self.lease_seconds = lease_seconds
        self.workers = max(1, workers)

    def enqueue(self, **fields: Any) -> Job:
        """Insert a new job, ``queued`` at progress 0; ``fields`` are the other columns."""
        return Job.create(status=QUEUED, progress=0, attempts=0, **fields)

    def claim(self, owner: str) -> Job | None:
        """Take the oldest queued job for ``owner`` with a fresh lease, or None when none waits.

        One statement: ``UPDATE job ... WHERE id = (SELECT oldest queued) AND status = 'queued'
        RETURNING *``. PostgreSQL locks the chosen row with ``FOR UPDATE SKIP LOCKED`` so
        concurrent claims pick different rows; SQLite runs the statement under its single write
        lock, so it is atomic as it is.
        """
        _check(QUEUED, PROCESSING)
        oldest = (Job.select(Job.id).where(Job.status == QUEUED)
                  .order_by(Job.created_at, Job.id).limit(1))
        if is_postgresql(self.database):
            oldest = oldest.for_update(skip_locked=True)
        now = utcnow()
        query = (Job.update(status=PROCESSING, progress=5, attempts=Job.attempts + 1,
                            lease_owner=owner, lease_expires_at=self._lease_end(now),
                            started_at=now)
                 .where(Job.id == oldest, Job.status == QUEUED)
                 .returning(*Job._meta.sorted_fields))
        return next(iter(query.objects(Job).execute()), None)

    def renew(self, job_id: str, owner: str, progress: int) -> bool:
        """Extend ``owner``'s lease and record progress; False when the lease was lost."""
        updated = (Job.update(lease_expires_at=self._lease_end(utcnow()), progress=progress)
                   .where(Job.id == job_id, Job.status == PROCESSING, Job.lease_owner == owner)
                   .execute())
        return updated == 1

    def complete(self, job_id: str, owner: str, report: Mapping[str, Any]) -> bool:
        """Store the report and end the job ``completed``; False when the lease was lost."""
        return self._finish(job_id, owner, COMPLETED, result=dict(report),
                            health_score=report["health_score"], grade=report["grade"])

    def fail(self, job_id: str, owner: str, code: str, message: str) -> bool:
        """End the job ``failed`` with an error code; False when the lease was lost."""
        return self._finish(job_id, owner, FAILED, error_code=code, error_message=message)

    def hand_back(self, job_id: str, owner: str) -> bool:
        """Put the job back in the queue without counting an attempt (a graceful shutdown)."""
        return self._move(PROCESSING, QUEUED, Job.id == job_id, Job.lease_owner == owner,
                          attempts=Job.attempts - 1, **_RELEASED) == 1

    def record_crash(self, job_id: str, owner: str, message: str) -> str | None:
        """The validation died under ``owner``: re-queue the job, or fail it after the last
        attempt. Returns the job's new status, or None when the lease was already lost."""
        mine = (Job.id == job_id, Job.lease_owner == owner)
        if self._move(PROCESSING, FAILED, *mine, Job.attempts >= MAX_ATTEMPTS,
                      **_crashed(message)):
            return FAILED
        if self._move(PROCESSING, QUEUED, *mine, **_RELEASED):
            return QUEUED
        return None

    def reap_expired_leases(self) -> tuple[int, int]:
        """Jobs whose worker stopped renewing (it died): re-queue them, or fail those that
        used their last attempt. Returns ``(requeued, failed)``."""
        expired = Job.lease_expires_at < utcnow()
        failed = self._move(PROCESSING, FAILED, expired, Job.attempts >= MAX_ATTEMPTS,
                            **_crashed(f"the worker stopped {MAX_ATTEMPTS} times while "
                                       "validating this file"))
        requeued = self._move(PROCESSING, QUEUED, expired, **_RELEASED)
        return requeued, failed

    def typical_duration(self) -> float:
        """Mean seconds of the last completed validations, or a default before there are any."""
        rows = (Job.select(Job.started_at, Job.finished_at)
                .where(Job.status == COMPLETED).order_by(Job.finished_at.desc())
                .limit(RECENT_JOBS))
        durations = [(r.finished_at - r.started_at).total_seconds() for r in rows]
        return sum(durations) / len(durations) if durations else DEFAULT_DURATION

    def estimate_completion(self, now: datetime | None = None) -> datetime:
        """When a job queued now should be done: the queue (this job included) runs in waves
        of ``workers`` jobs, each as long as a typical validation."""
        now = now or utcnow()
        waiting = Job.select().where(Job.status == QUEUED).count()
        waves = math.ceil(max(1, waiting) / self.workers)
        return now + timedelta(seconds=waves * self.typical_duration())

    def _finish(self, job_id: str, owner: str, target: str, **changes: Any) -> bool:
        return self._move(PROCESSING, target, Job.id == job_id, Job.lease_owner == owner,
                          progress=100 if target == COMPLETED else Job.progress,
                          finished_at=utcnow(), lease_owner=None, lease_expires_at=None,
                          **changes) == 1

    def _move(self, source: str, target: str, *conditions: Any, **changes: Any) -> int:
        _check(source, target)
        query = Job.update(status=target, **changes).where(Job.status == source, *conditions)
        if target not in ENDED:
            return query.execute()
        with self.database.atomic():
            ended = [job.id for job in query.returning(Job.id).execute()]
            queue_job_events(ended)
        return len(ended)

    def _lease_end(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.lease_seconds)


_RELEASED = {"progress": 0, "lease_owner": None, "lease_expires_at": None, "started_at": None}


def _crashed(message: str) -> dict[str, Any]:
    return {"error_code": VALIDATION_CRASHED.code, "error_message": message,
            "finished_at": utcnow(), "lease_owner": None, "lease_expires_at": None}


def _check(source: str, target: str) -> None:
    if target not in TRANSITIONS.get(source, ()):
        raise ValueError(f"a job cannot go from {source} to {target}")
