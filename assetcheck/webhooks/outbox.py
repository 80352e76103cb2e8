"""The webhook outbox: a row per event to deliver, and every change of its state.

    pending --claim--> sending --2xx----------------------> delivered
                       sending --failure, attempts left---> pending (due after the next delay)
                       sending --failure, none left-------> abandoned
                       sending --claim expired (node died)--> claimed again, same attempt
    delivered | abandoned --redeliver--> pending (a new cycle of attempts)

Rows for jobs are written by :func:`queue_job_events` inside the transaction that ends the job
(``assetcheck.jobs.queue``): both are committed, or neither. As in the job queue, each change
is one guarded ``UPDATE``: two nodes claiming at once get different rows (PostgreSQL:
``FOR UPDATE SKIP LOCKED``; SQLite: its single write lock), and an attempt is recorded only by
the claim that made it.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import peewee

from assetcheck.db import database_proxy, is_postgresql, write_transaction
from assetcheck.db.tables import Account, Job, WebhookAttempt, WebhookDelivery, utcnow
from assetcheck.webhooks.payload import (
    COMPLETED,
    FAILED,
    PING,
    completed_event,
    failed_event,
    ping_event,
)
from assetcheck.webhooks.schedule import next_attempt_at
from assetcheck.webhooks.settings import has_webhooks, require_webhooks

if TYPE_CHECKING:  # the sending side (Tornado) stays out of the job queue's imports
    from assetcheck.webhooks.delivery import AttemptResult

PENDING, SENDING, DELIVERED, ABANDONED = "pending", "sending", "delivered", "abandoned"
STATES = (PENDING, SENDING, DELIVERED, ABANDONED)
FINISHED = (DELIVERED, ABANDONED)

DELIVERY_ID_PREFIX = "dlv_"
_ID_ALPHABET = string.ascii_letters + string.digits


class DeliveryError(ValueError):
    """A delivery operation that cannot be done; ``code`` is the API's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def new_delivery_id() -> str:
    """``dlv_`` + 24 random alphanumerics: the delivery's ``webhook-id``."""
    return DELIVERY_ID_PREFIX + "".join(secrets.choice(_ID_ALPHABET) for _ in range(24))


def queue_job_events(job_ids: Collection[str]) -> list[WebhookDelivery]:
    """Queue the webhook of each job in ``job_ids`` that just ended, in the caller's
    transaction: ``validation.completed`` or ``validation.failed``, to the job's own
    ``webhook_url`` or else its account's default, if either is set and the plan has webhooks.
    """
    if not job_ids:
        return []
    jobs = (Job.select(Job.id, Job.options, Job.result, Job.error_code, Job.error_message,
                       Account).join(Account).where(Job.id.in_(list(job_ids))))
    queued = []
    for job in jobs:
        url = job.options.get("webhook_url")
        if (url or job.account.webhook_url) and has_webhooks(job.account.plan):
            queued.append(_queue(job.account, *job_event(job), job=job, url=url))
    return queued


def job_event(job: Job) -> tuple[str, bytes]:
    """The event of a job that ended, and its body; only a completed job has a result."""
    if job.result is not None:
        return COMPLETED, completed_event(job.id, job.result)
    return FAILED, failed_event(job.id, job.error_code or "", job.error_message or "")


def queue_ping(account: Account) -> WebhookDelivery:
    """Queue a ``ping`` to the account's default URL, to check a receiver; it is delivered and
    retried like any event. Raises :class:`DeliveryError` NO_WEBHOOK_URL when there is none,
    :class:`~assetcheck.webhooks.settings.WebhookPlanError` on a free plan."""
    require_webhooks(account)
    if account.webhook_url is None:
        raise DeliveryError("NO_WEBHOOK_URL", "The account has no webhook URL: set one first.")
    return _queue(account, PING, ping_event())


def _queue(account: Account, event: str, body: bytes, *, job: Job | None = None,
           url: str | None = None) -> WebhookDelivery:
    # Attempt 1 is due at once (docs/webhooks.md, Retries): the config keeps retry_delays[0] at 0.
    now = utcnow()
    return WebhookDelivery.create(id=new_delivery_id(), account=account, job=job, event=event,
                                  url=url, body=body.decode("ascii"), status=PENDING,
                                  next_attempt_at=now, created_at=now)


def claim_due(database: peewee.Database, owner: str, lease_seconds: float,
              now: datetime | None = None) -> WebhookDelivery | None:
    """Claim the delivery due the longest for ``owner``, for ``lease_seconds``; None when
    nothing is due. A delivery whose claim expired (its node died mid-attempt) is due again."""
    now = now or utcnow()
    claimable = _claimable(now)
    due = (WebhookDelivery.select(WebhookDelivery.id).where(claimable)
           .order_by(WebhookDelivery.next_attempt_at).limit(1))
    if is_postgresql(database):
        due = due.for_update(skip_locked=True)
    query = (WebhookDelivery.update(status=SENDING, lease_owner=owner,
                                    lease_expires_at=now + timedelta(seconds=lease_seconds))
             .where(WebhookDelivery.id == due, claimable)
             .returning(*WebhookDelivery._meta.sorted_fields))
    return next(iter(query.objects(WebhookDelivery).execute()), None)


def _claimable(now: datetime) -> peewee.Expression:
    return (((WebhookDelivery.status == PENDING) & (WebhookDelivery.next_attempt_at <= now))
            | ((WebhookDelivery.status == SENDING) & (WebhookDelivery.lease_expires_at < now)))


def record_attempt(delivery: WebhookDelivery, started_at: datetime, result: AttemptResult,
                   retry_delays: Sequence[float], now: datetime | None = None) -> str | None:
    """Store the attempt made under the claim ``delivery`` was returned with, and move it on:
    ``delivered``, ``pending`` until the next delay has passed, or ``abandoned`` after the
    last attempt. Returns the new status, or None when the claim had been lost meanwhile."""
    ended_at = now or utcnow()
    made = delivery.attempts_made + 1
    due = None if result.ok else next_attempt_at(made, ended_at, retry_delays)
    status = DELIVERED if result.ok else (PENDING if due else ABANDONED)
    with database_proxy.atomic():
        moved = (WebhookDelivery.update(
            status=status, attempts_made=made, next_attempt_at=due,
            finished_at=None if status == PENDING else ended_at,
            lease_owner=None, lease_expires_at=None)
            .where(WebhookDelivery.id == delivery.id, WebhookDelivery.status == SENDING,
                   WebhookDelivery.lease_owner == delivery.lease_owner,
                   WebhookDelivery.lease_expires_at == delivery.lease_expires_at)
            .execute())
        if not moved:
            return None
        WebhookAttempt.create(delivery=delivery.id, cycle=delivery.cycle, number=made,
                              started_at=started_at, status_code=result.status_code,
                              error=result.error, duration_ms=result.duration_ms)
    return status


def redeliver(account_id: int, delivery_id: str, now: datetime | None = None) -> WebhookDelivery:
    """Start a new cycle of attempts for a delivered or abandoned delivery, the first due now.
    The body and ``webhook-id`` stay the same, so receivers dedupe it as before.

    Raises :class:`DeliveryError`: DELIVERY_NOT_FOUND (also for another account's delivery),
    DELIVERY_IN_PROGRESS while its current cycle is still running.
    """
    # One write transaction: the answer shows the delivery as restarted, before a dispatcher
    # can claim it (the update holds the row, and on SQLite the write lock, until the read).
    with write_transaction(database_proxy):
        delivery = find_delivery(account_id, delivery_id)
        restarted = (WebhookDelivery.update(status=PENDING, cycle=WebhookDelivery.cycle + 1,
                                            attempts_made=0, next_attempt_at=now or utcnow(),
                                            finished_at=None)
                     .where(WebhookDelivery.id == delivery.id,
                            WebhookDelivery.status.in_(FINISHED))
                     .execute())
        if not restarted:
            raise DeliveryError("DELIVERY_IN_PROGRESS", f"Delivery {delivery_id} is still "
                                "being attempted: redeliver it once it is delivered or "
                                "abandoned.")
        return find_delivery(account_id, delivery_id)


def find_delivery(account_id: int, delivery_id: str) -> WebhookDelivery:
    """The account's delivery with its attempts; DELIVERY_NOT_FOUND when it has none by
    that id."""
    query = WebhookDelivery.select().where(WebhookDelivery.id == delivery_id,
                                           WebhookDelivery.account == account_id)
    found = _with_attempts(query)
    if not found:
        raise DeliveryError("DELIVERY_NOT_FOUND",
                            f"No delivery {delivery_id} exists for this account.")
    return found[0]


def list_deliveries(account_id: int, *, limit: int, after: tuple[datetime, str] | None = None,
                    ) -> tuple[list[WebhookDelivery], tuple[datetime, str] | None]:
    """A page of the account's deliveries with their attempts, newest first, and the
    ``(created_at, id)`` position to pass as ``after`` for the next page (None on the last)."""
    query = (WebhookDelivery.select().where(WebhookDelivery.account == account_id)
             .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
             .limit(limit + 1))
    if after is not None:
        created_at, delivery_id = after
        query = query.where((WebhookDelivery.created_at < created_at)
                            | ((WebhookDelivery.created_at == created_at)
                               & (WebhookDelivery.id < delivery_id)))
    deliveries = _with_attempts(query)
    if len(deliveries) <= limit:
        return deliveries, None
    last = deliveries[limit - 1]
    return deliveries[:limit], (last.created_at, last.id)


def _with_attempts(query: peewee.ModelSelect) -> list[WebhookDelivery]:
    """The deliveries of ``query`` with ``attempts`` as a list, in the order they were made."""
    attempts = WebhookAttempt.select().order_by(WebhookAttempt.id)
    return list(peewee.prefetch(query, attempts))


def prune_deliveries(finished_before: datetime) -> int:
    """Remove the deliveries that ended (delivered or abandoned) before ``finished_before``,
    their attempts with them; returns how many. Pending and sending ones are never removed."""
    return (WebhookDelivery.delete()
            .where(WebhookDelivery.status.in_(FINISHED),
                   WebhookDelivery.finished_at < finished_before)
            .execute())
