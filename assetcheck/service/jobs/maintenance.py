"""Periodic work of a node, on an APScheduler ``BackgroundScheduler``: reaping expired leases,
sending due webhook deliveries, and the shared chores: sweeping orphaned uploads, expiring jobs
past their plan's retention, pruning old webhook deliveries.

Its job store is in memory and holds nothing that must survive a restart: the jobs are re-added
at every start, and everything they act on is in the database or the storage. Every node runs
it. Reaping and deliveries are claims, safe on several nodes at once; each chore runs on one
node per interval (:func:`assetcheck.service.jobs.task_runs.take_turn`), so nodes do not repeat it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import peewee
from apscheduler.schedulers.background import BackgroundScheduler

from assetcheck.config.settings import Config
from assetcheck.service.db.tables import Job, utcnow
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.jobs.retention import expire_jobs, retention_days
from assetcheck.service.jobs.storage import JobStorage, StorageUnavailable
from assetcheck.service.jobs.task_runs import take_turn
from assetcheck.service.webhooks.dispatcher import WebhookDispatcher
from assetcheck.service.webhooks.outbox import prune_deliveries

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 600.0
EXPIRY_INTERVAL = 600.0
PRUNE_INTERVAL = 3600.0


def start_maintenance(
    config: Config,
    database: peewee.Database,
    queue: JobQueue,
    storage: JobStorage,
    webhooks: WebhookDispatcher,
    node: str,
) -> BackgroundScheduler:
    """Start the scheduler: reap every half lease, look for due webhook deliveries now and
    every ``[webhooks] poll_interval``; sweep, expire and prune now and then every interval,
    each on one node of all (``node`` names this one)."""
    scheduler = BackgroundScheduler(
        timezone=UTC, job_defaults={"coalesce": True, "max_instances": 1}
    )
    scheduler.add_job(
        reap_leases,
        "interval",
        args=(queue,),
        id="reap-leases",
        seconds=max(0.5, queue.lease_seconds / 2),
    )
    scheduler.add_job(
        webhooks.tick,
        "interval",
        id="webhook-deliveries",
        seconds=webhooks.interval,
        next_run_time=datetime.now(UTC),
    )
    days = retention_days(config.plans)
    keep_days = config.webhooks.keep_deliveries_days
    chores: list[tuple[str, float, Callable[[], None]]] = [
        ("sweep-uploads", SWEEP_INTERVAL, lambda: sweep_uploads(storage))
    ]
    if days:
        chores.append(("expire-jobs", EXPIRY_INTERVAL, lambda: expire(database, storage, days)))
    if keep_days > 0:
        chores.append(("prune-deliveries", PRUNE_INTERVAL, lambda: prune(keep_days)))
    for name, interval, chore in chores:
        scheduler.add_job(
            run_chore,
            "interval",
            args=(name, interval, node, chore),
            id=name,
            seconds=interval,
            next_run_time=datetime.now(UTC),
        )
    scheduler.start()
    return scheduler


def run_chore(name: str, interval: float, node: str, chore: Callable[[], None]) -> None:
    """``chore()`` if this node takes the turn of ``name``; a storage outage is logged, and
    the chore runs again at its next turn."""
    if not take_turn(name, interval, node):
        return
    try:
        chore()
    except StorageUnavailable as error:
        log.warning("%s: %s", name, error)


def reap_leases(queue: JobQueue) -> None:
    requeued, failed = queue.reap_expired_leases()
    if requeued or failed:
        log.warning(
            "expired leases: %d job(s) re-queued, %d failed after their last attempt",
            requeued,
            failed,
        )


def sweep_uploads(storage: JobStorage) -> None:
    removed = storage.sweep_orphans(existing_job_ids)
    if removed:
        log.warning(
            "removed the stored files of %d upload(s) without a job: %s",
            len(removed),
            ", ".join(removed),
        )


def expire(database: peewee.Database, storage: JobStorage, days: dict[str, int]) -> None:
    expired = expire_jobs(database, storage, days)
    if expired:
        log.info("retention: removed the files and reports of %d job(s)", expired)


def prune(keep_days: float) -> None:
    pruned = prune_deliveries(utcnow() - timedelta(days=keep_days))
    if pruned:
        log.info("removed %d webhook deliveries ended over %g days ago", pruned, keep_days)


def existing_job_ids(job_ids: list[str]) -> list[str]:
    return [job.id for job in Job.select(Job.id).where(Job.id.in_(job_ids))]
