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

The fair claim
--------------

Jobs are handed out by account, not in one global order. A claim is one transaction
(:func:`assetcheck.service.db.write_transaction`):

1. Pick the account whose turn it is: among the accounts with a queued job and fewer
   ``processing`` jobs than their plan's ``max_processing_jobs``, the one a worker served least
   recently (``account.last_claimed_at``, never first; then the lowest id), and lock its row
   (PostgreSQL: ``FOR NO KEY UPDATE SKIP LOCKED``, so a claimer never waits for another).
2. Count that account's ``processing`` jobs again, in a new statement, now that its row is
   locked; if the plan's limit is reached, leave it out and go back to 1.
3. Take its oldest queued job (``FOR UPDATE SKIP LOCKED`` on PostgreSQL) with a guarded
   ``UPDATE ... WHERE status = 'queued'``, and set the account's ``last_claimed_at``.

Why no account ever runs more than its limit. A job becomes ``processing`` only in step 3, by a
transaction that holds its account's row lock from step 1 until it commits. Row locks exclude
each other, so claims of one account run one after the other: the second locks the row only
after the first committed. Its step 2 is a statement that starts after that, and under READ
COMMITTED sees every claim of the account committed before it; jobs that leave ``processing``
meanwhile can only make the count too high, never too low. So a claim that passes step 2 finds
the account below its limit, and stays so. (Step 1's own count is not enough: its snapshot may
predate a claim that committed while step 1 was waiting to lock the row.) On SQLite, ``BEGIN
IMMEDIATE`` holds the only write lock for the whole transaction: no other claim runs at all.

Why no job is handed out twice. Step 3 moves a job only ``WHERE status = 'queued'``; PostgreSQL
re-checks that condition on a row another transaction changed, so of two updates of one row
only the first changes it (and claims of one account are serialised anyway).

Why accounts take turns. Each claim moves its account to the back of the order of step 1, so k
accounts that keep queued work and room under their limits are served once each in every k
claims, whatever the number of their queued jobs; an account at its limit is passed over
without losing its place. A new account (never served) goes first.

The cost of a claim grows with the accounts that have queued work, not with the jobs: step 1
reads the ``(status, account)`` index over the queued jobs (at most ``max_queued_jobs`` each)
and counts each candidate's running jobs on the ``(account, status, created_at)`` index, which
steps 2 and 3 also use. Deadlocks cannot happen: a claimer waits for no lock (``SKIP LOCKED``),
and an upload's job insert takes only a key-share lock on its account row, which ``FOR NO KEY
UPDATE`` allows.
"""

from __future__ import annotations

import math
import secrets
import string
from collections.abc import Mapping
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

import peewee

from assetcheck.config.settings import Config
from assetcheck.reports.failures import VALIDATION_CRASHED
from assetcheck.service.db import lock_rows, write_transaction
from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.observability.metrics import service_metrics
from assetcheck.service.webhooks.outbox import queue_job_events

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

#: Jobs of one account processing at once when its plan is not among the queue's limits
#: (a plan the config no longer offers).
UNLISTED_PLAN_MAX_PROCESSING = 1

#: Assumed duration of one validation before any job has completed.
DEFAULT_DURATION = 2.0
RECENT_JOBS = 20


class QueueFull(Exception):
    """The account already has ``limit`` queued jobs (``queued`` of them): no more for now."""

    def __init__(self, queued: int, limit: int) -> None:
        super().__init__(f"{queued} jobs queued, the limit is {limit}")
        self.queued = queued
        self.limit = limit


class QuotaExceeded(Exception):
    """Storing ``size`` more bytes would take what the account stores (``stored`` bytes:
    :meth:`JobQueue.stored_bytes`) past its plan's ``limit``."""

    def __init__(self, stored: int, size: int, limit: int) -> None:
        super().__init__(f"{stored} + {size} bytes stored, the limit is {limit}")
        self.stored = stored
        self.size = size
        self.limit = limit


def new_job_id() -> str:
    """``val_`` + 24 random alphanumerics (143 bits): unguessable, safe in paths and URLs."""
    return JOB_ID_PREFIX + "".join(secrets.choice(_ID_ALPHABET) for _ in range(24))


class JobQueue:
    """Claims, leases and state changes of jobs in the bound database.

    ``lease_seconds`` is how long a claim lasts without renewal; ``workers`` is how many
    validations run at once, for estimates; ``max_processing`` is, by plan, how many jobs of one
    account may be processing at once (plans not listed: :data:`UNLISTED_PLAN_MAX_PROCESSING`).
    """

    def __init__(
        self,
        database: peewee.Database,
        *,
        lease_seconds: float,
        workers: int,
        max_processing: Mapping[str, int] = MappingProxyType({}),
    ) -> None:
        self.database = database
        self.lease_seconds = lease_seconds
        self.workers = max(1, workers)
        self.max_processing = dict(max_processing)

    @classmethod
    def for_config(cls, database: peewee.Database, config: Config) -> JobQueue:
        """The queue ``config`` describes: the leases and processes of ``[workers]``, and each
        plan's ``max_processing_jobs``."""
        return cls(
            database,
            lease_seconds=config.workers.lease_seconds,
            workers=config.workers.processes,
            max_processing={name: plan.max_processing_jobs for name, plan in config.plans.items()},
        )

    def enqueue(
        self, *, max_queued: int | None = None, max_stored_bytes: int | None = None, **fields: Any
    ) -> Job:
        """Insert a new job, ``queued`` at progress 0; ``fields`` are the other columns.

        With ``max_queued``, raise :class:`QueueFull` instead when the job's account already
        has that many queued jobs; with ``max_stored_bytes``, :class:`QuotaExceeded` when the
        upload's ``size`` would take what the account stores past it. Both are counted under the
        account's row lock: concurrent uploads of one account cannot pass a limit together.
        """
        with write_transaction(self.database):
            if max_queued is not None or max_stored_bytes:
                account_id = _id_of(fields["account"])
                _lock_account(account_id)
                if (
                    max_queued is not None
                    and (queued := self.queued_count(account_id)) >= max_queued
                ):
                    raise QueueFull(queued, max_queued)
                size = int(fields["size"])
                if (
                    max_stored_bytes
                    and (stored := self.stored_bytes(account_id)) + size > max_stored_bytes
                ):
                    raise QuotaExceeded(stored, size, max_stored_bytes)
            return Job.create(status=QUEUED, progress=0, attempts=0, **fields)

    def stored_bytes(self, account_id: int) -> int:
        """Bytes the account stores: of its jobs not deleted nor expired, each upload and what
        the job stored beside it (``derived_bytes``: previews, viewer files, overlays, report)."""
        total = peewee.fn.SUM(Job.size + Job.derived_bytes)
        return int(
            Job.select(peewee.fn.COALESCE(total, 0))
            .where(Job.account == account_id, Job.expired_at.is_null())
            .scalar()
        )

    def queued_count(self, account_id: int) -> int:
        """How many jobs of the account wait to be claimed."""
        return _count(account_id, QUEUED)

    def claim(self, owner: str) -> Job | None:
        """Take a queued job for ``owner`` with a fresh lease, or None when no account with
        queued work has room under its plan's limit: the oldest job of the account whose turn
        it is (the module's docstring says how, and why it holds under concurrency)."""
        _check(QUEUED, PROCESSING)
        passed_over: list[int] = []
        with write_transaction(self.database):
            while (account := self._next_account(passed_over)) is not None:
                job = self._claim_from(account, owner)
                if job is not None:
                    return job
                passed_over.append(account.id)
        return None

    def _next_account(self, passed_over: list[int]) -> Account | None:
        """Step 1: the account whose turn it is, its row locked (PostgreSQL), or None."""
        waiting = Job.select(Job.account).where(Job.status == QUEUED)
        running = Job.select(peewee.fn.COUNT(Job.id)).where(
            Job.account == Account.id, Job.status == PROCESSING
        )
        query = (
            Account.select(Account.id, Account.plan)
            .where(Account.id.in_(waiting), peewee.Expression(running, "<", self._limit_of_plan()))
            .order_by(Account.last_claimed_at.asc(nulls="first"), Account.id)
            .limit(1)
        )
        if passed_over:
            query = query.where(Account.id.not_in(passed_over))
        return lock_rows(query, skip_locked=True).first()

    def _claim_from(self, account: Account, owner: str) -> Job | None:
        """Steps 2 and 3: the account's oldest queued job, claimed, if the account (whose row
        this transaction holds) is still below its limit; None otherwise."""
        limit = self.max_processing.get(account.plan, UNLISTED_PLAN_MAX_PROCESSING)
        if _count(account.id, PROCESSING) >= limit:
            return None
        oldest = lock_rows(
            Job.select(Job.id)
            .where(Job.account == account.id, Job.status == QUEUED)
            .order_by(Job.created_at, Job.id)
            .limit(1),
            skip_locked=True,
        )
        now = utcnow()
        query = (
            Job.update(
                status=PROCESSING,
                progress=5,
                attempts=Job.attempts + 1,
                lease_owner=owner,
                lease_expires_at=self._lease_end(now),
                started_at=now,
            )
            .where(Job.id == oldest, Job.status == QUEUED)
            .returning(*Job._meta.sorted_fields)
        )
        job = next(iter(query.objects(Job).execute()), None)
        if job is not None:
            Account.update(last_claimed_at=now).where(Account.id == account.id).execute()
        return job

    def _limit_of_plan(self) -> peewee.Node:
        """``max_processing`` as SQL: a ``CASE`` on the account's plan."""
        if not self.max_processing:
            return peewee.Value(UNLISTED_PLAN_MAX_PROCESSING)
        return peewee.Case(
            Account.plan, list(self.max_processing.items()), UNLISTED_PLAN_MAX_PROCESSING
        )

    def renew(self, job_id: str, owner: str, progress: int) -> bool:
        """Extend ``owner``'s lease and record progress; False when the lease was lost."""
        updated = (
            Job.update(lease_expires_at=self._lease_end(utcnow()), progress=progress)
            .where(Job.id == job_id, Job.status == PROCESSING, Job.lease_owner == owner)
            .execute()
        )
        return updated == 1

    def complete(
        self, job_id: str, owner: str, report: Mapping[str, Any], *, derived_bytes: int = 0
    ) -> bool:
        """Store the report and end the job ``completed``, recording the ``derived_bytes`` it
        stored beside its upload (the report included); False when the lease was lost."""
        return self._finish(
            job_id,
            owner,
            COMPLETED,
            result=dict(report),
            health_score=report["health_score"],
            grade=report["grade"],
            derived_bytes=derived_bytes,
        )

    def fail(self, job_id: str, owner: str, code: str, message: str) -> bool:
        """End the job ``failed`` with an error code; False when the lease was lost."""
        return self._finish(job_id, owner, FAILED, error_code=code, error_message=message)

    def hand_back(self, job_id: str, owner: str) -> bool:
        """Put the job back in the queue without counting an attempt (a graceful shutdown)."""
        return (
            self._move(
                PROCESSING,
                QUEUED,
                Job.id == job_id,
                Job.lease_owner == owner,
                attempts=Job.attempts - 1,
                **_RELEASED,
            )
            == 1
        )

    def record_crash(self, job_id: str, owner: str, message: str) -> str | None:
        """The validation died under ``owner``: re-queue the job, or fail it after the last
        attempt. Returns the job's new status, or None when the lease was already lost."""
        mine = (Job.id == job_id, Job.lease_owner == owner)
        if self._move(PROCESSING, FAILED, *mine, Job.attempts >= MAX_ATTEMPTS, **_crashed(message)):
            return FAILED
        if self._move(PROCESSING, QUEUED, *mine, **_RELEASED):
            return QUEUED
        return None

    def reap_expired_leases(self) -> tuple[int, int]:
        """Jobs whose worker stopped renewing (it died): re-queue them, or fail those that
        used their last attempt. Returns ``(requeued, failed)``."""
        expired = Job.lease_expires_at < utcnow()
        failed = self._move(
            PROCESSING,
            FAILED,
            expired,
            Job.attempts >= MAX_ATTEMPTS,
            **_crashed(f"the worker stopped {MAX_ATTEMPTS} times while validating this file"),
        )
        requeued = self._move(PROCESSING, QUEUED, expired, **_RELEASED)
        return requeued, failed

    def exists(self, job_id: str) -> bool:
        """Whether the job still has its row (it may have been deleted)."""
        return Job.select(Job.id).where(Job.id == job_id).exists()

    def typical_duration(self) -> float:
        """Mean seconds of the last completed validations, or a default before there are any.

        A job that seems to end before it started (the clocks of two nodes disagree) does
        not count: it would pull every estimate into the past."""
        rows = (
            Job.select(Job.started_at, Job.finished_at)
            .where(Job.status == COMPLETED)
            .order_by(Job.finished_at.desc())
            .limit(RECENT_JOBS)
        )
        durations = [
            (r.finished_at - r.started_at).total_seconds()
            for r in rows
            if r.started_at is not None
            and r.finished_at is not None
            and r.finished_at >= r.started_at
        ]
        return sum(durations) / len(durations) if durations else DEFAULT_DURATION

    def estimate_completion(self, now: datetime | None = None) -> datetime:
        """When a job queued now should be done: the queue (this job included) runs in waves
        of ``workers`` jobs, each as long as a typical validation."""
        now = now or utcnow()
        waiting = Job.select().where(Job.status == QUEUED).count()
        waves = math.ceil(max(1, waiting) / self.workers)
        return now + timedelta(seconds=waves * self.typical_duration())

    def _finish(self, job_id: str, owner: str, target: str, **changes: Any) -> bool:
        return (
            self._move(
                PROCESSING,
                target,
                Job.id == job_id,
                Job.lease_owner == owner,
                progress=100 if target == COMPLETED else Job.progress,
                finished_at=utcnow(),
                lease_owner=None,
                lease_expires_at=None,
                **changes,
            )
            == 1
        )

    def _move(self, source: str, target: str, *conditions: Any, **changes: Any) -> int:
        _check(source, target)
        query = Job.update(status=target, **changes).where(Job.status == source, *conditions)
        if target not in ENDED:
            return query.execute()
        with self.database.atomic():
            ended = [job.id for job in query.returning(Job.id).execute()]
            queue_job_events(ended)
        if target == FAILED and ended:
            service_metrics().job_failures.labels(code=changes["error_code"]).inc(len(ended))
        return len(ended)

    def _lease_end(self, now: datetime) -> datetime:
        return now + timedelta(seconds=self.lease_seconds)


def _id_of(account: Account | int) -> int:
    return account.id if isinstance(account, Account) else int(account)


def _count(account_id: int, status: str) -> int:
    return Job.select().where(Job.account == account_id, Job.status == status).count()


def _lock_account(account_id: int) -> None:
    """Lock the account's row until the transaction ends, waiting for it if need be."""
    lock_rows(Account.select(Account.id).where(Account.id == account_id)).execute()


_RELEASED = {"progress": 0, "lease_owner": None, "lease_expires_at": None, "started_at": None}


def _crashed(message: str) -> dict[str, Any]:
    return {
        "error_code": VALIDATION_CRASHED.code,
        "error_message": message,
        "finished_at": utcnow(),
        "lease_owner": None,
        "lease_expires_at": None,
    }


def _check(source: str, target: str) -> None:
    if target not in TRANSITIONS.get(source, ()):
        raise ValueError(f"a job cannot go from {source} to {target}")
