"""Periodic work of a node, on an APScheduler ``BackgroundScheduler``: reaping expired leases,
sweeping orphaned uploads and sending due webhook deliveries. Its job store is in memory and
holds nothing that must survive a restart: the jobs are re-added at every start, and everything
they act on is in the database or on disk. Every node runs it; every task is safe to run on
several nodes at once."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler

from assetcheck.db.tables import Job
from assetcheck.jobs.queue import JobQueue
from assetcheck.jobs.storage import UploadStorage
from assetcheck.webhooks.dispatcher import WebhookDispatcher

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 600.0


def start_maintenance(queue: JobQueue, storage: UploadStorage,
                      webhooks: WebhookDispatcher) -> BackgroundScheduler:
    """Start the scheduler: reap every half lease, sweep now and every ten minutes, look for
    due webhook deliveries now and every ``[webhooks] poll_interval``."""
    scheduler = BackgroundScheduler(timezone=UTC,
                                    job_defaults={"coalesce": True, "max_instances": 1})
    scheduler.add_job(reap_leases, "interval", args=(queue,), id="reap-leases",
                      seconds=max(0.5, queue.lease_seconds / 2))
    scheduler.add_job(sweep_uploads, "interval", args=(storage,), id="sweep-uploads",
                      seconds=SWEEP_INTERVAL, next_run_time=datetime.now(UTC))
    scheduler.add_job(webhooks.tick, "interval", id="webhook-deliveries",
                      seconds=webhooks.interval, next_run_time=datetime.now(UTC))
    scheduler.start()
    return scheduler


def reap_leases(queue: JobQueue) -> None:
    requeued, failed = queue.reap_expired_leases()
    if requeued or failed:
        log.warning("expired leases: %d job(s) re-queued, %d failed after their last attempt",
                    requeued, failed)


def sweep_uploads(storage: UploadStorage) -> None:
    removed = storage.sweep_orphans(existing_job_ids)
    if removed:
        log.warning("removed %d upload folder(s) without a job: %s", len(removed),
                    ", ".join(removed))


def existing_job_ids(job_ids: list[str]) -> list[str]:
    return [job.id for job in Job.select(Job.id).where(Job.id.in_(job_ids))]
