"""The webhook outbox: a row per event to deliver, and every change of its state.

    pending --claim--> sending --2xx----------------------> delivered
                       sending --failure, attempts left---> pending (due after the next delay)
                       sending --failure, none left-------> abandoned
                       sending --claim expired (node died)--> claimed again, same attempt
    delivered | abandoned --redeliver--> pending (a new cycle of attempts)

Rows for jobs are written by :func:`queue_job_events` inside the transaction that ends the job
(``assetcheck.service.jobs.queue``): both are committed, or neither. As in the job queue, each
change is one guarded ``UPDATE``: two nodes claiming at once get different rows (PostgreSQL: ``FOR
UPDATE SKIP LOCKED``; SQLite: its single write lock), and an attempt is recorded only by the claim
that made it.

Fair claims
-----------

Due deliveries are handed out by account, as jobs are (``assetcheck.service.jobs.queue``, whose
docstring gives the reasoning about locks in full). A claim is one transaction
(:func:`assetcheck.service.db.write_transaction`):

1. Among the accounts with a claimable delivery and fewer than ``max_sending`` deliveries
   being attempted (``sending`` under a live claim, on any node), take the one served least
   recently (``account.webhooks_served_at``, never first; then the lowest id) and lock its row
   (PostgreSQL: ``FOR NO KEY UPDATE SKIP LOCKED``).
2. Count its deliveries being attempted again, now that its row is locked; at the limit, leave
   it out and go back to 1.
3. Claim its delivery due the longest with a guarded ``UPDATE``, and set its
   ``webhooks_served_at``.

So an account whose receiver never answers holds at most ``max_sending`` senders for a
timeout each, however many deliveries it has due, and every other account with a due delivery
is served before it is served again.

Manual deliveries (a ping, a redelivery) are refused past ``max_pending`` unfinished deliveries
of the account (:data:`TOO_MANY_PENDING`), counted under the account's row lock; a job's event
is always queued, in the transaction that ends the job, so none is ever lost.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

import peewee

from assetcheck.service.db import database_proxy, is_postgresql, lock_rows, write_transaction
from assetcheck.service.db.tables import Account, Job, WebhookAttempt, WebhookDelivery, utcnow
from assetcheck.service.webhooks.payload import (
    COMPLETED,
    FAILED,
    PING,
    completed_event,
    failed_event,
    ping_event,
)
from assetcheck.service.webhooks.schedule import next_attempt_at
from assetcheck.service.webhooks.settings import has_webhooks, require_webhooks

if TYPE_CHECKING:  # the sending side (Tornado) stays out of the job queue's imports
    from assetcheck.service.webhooks.delivery import AttemptResult

PENDING, SENDING, DELIVERED, ABANDONED = "pending", "sending", "delivered", "abandoned"
STATES = (PENDING, SENDING, DELIVERED, ABANDONED)
FINISHED = (DELIVERED, ABANDONED)

UNFINISHED = (PENDING, SENDING)
#: The code of a ping or redelivery refused because the account has too many deliveries waiting.
TOO_MANY_PENDING = "TOO_MANY_PENDING_DELIVERIES"

DELIVERY_ID_PREFIX = "dlv_"
_ID_ALPHABET = string.ascii_letters + string.digits


class DeliveryError(ValueError):
    """A delivery operation that cannot be done; ``code`` is the API's error code, ``status``
    the HTTP status the API and the dashboard answer it with."""

    _STATUS_OF = {
        "NO_WEBHOOK_URL": 400,
        "DELIVERY_NOT_FOUND": 404,
        "DELIVERY_IN_PROGRESS": 409,
        TOO_MANY_PENDING: 429,
    }

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    @property
    def status(self) -> int:
        return self._STATUS_OF[self.code]


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
    jobs = (
        Job.select(Job.id, Job.options, Job.result, Job.error_code, Job.error_message, Account)
        .join(Account)
        .where(Job.id.in_(list(job_ids)))
    )
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


def queue_ping(account: Account, max_pending: int | None = None) -> WebhookDelivery:
    """Queue a ``ping`` to the account's default URL, to check a receiver; it is delivered and
    retried like any event. Raises :class:`DeliveryError` NO_WEBHOOK_URL when there is none,
    :data:`TOO_MANY_PENDING` when the account already has ``max_pending`` unfinished
    deliveries (None: no limit, for the operator's CLI),
    :class:`~assetcheck.service.webhooks.settings.WebhookPlanError` on a free plan."""
    require_webhooks(account)
    if account.webhook_url is None:
        raise DeliveryError("NO_WEBHOOK_URL", "The account has no webhook URL: set one first.")
    with write_transaction(database_proxy):
        _require_room(account.id, max_pending)
        return _queue(account, PING, ping_event())


def pending_count(account_id: int) -> int:
    """How many of the account's deliveries are waiting for an attempt or being attempted."""
    return (
        WebhookDelivery.select()
        .where(WebhookDelivery.account == account_id, WebhookDelivery.status.in_(UNFINISHED))
        .count()
    )


def _require_room(account_id: int, max_pending: int | None) -> None:
    """Refuse one more manual delivery when the account has ``max_pending`` unfinished ones,
    counted under its row lock: concurrent requests cannot pass the limit together."""
    if max_pending is None:
        return
    lock_rows(Account.select(Account.id).where(Account.id == account_id)).execute()
    if (pending := pending_count(account_id)) >= max_pending:
        raise DeliveryError(
            TOO_MANY_PENDING,
            (
                f"{pending} deliveries of this account are still waiting to be sent, the most it "
                f"may have before sending a test event or a redelivery ({max_pending}): wait until "
                "they are delivered or abandoned (the delivery log shows them), or check that "
                "your receiver answers."
            ),
        )


def _queue(
    account: Account, event: str, body: bytes, *, job: Job | None = None, url: str | None = None
) -> WebhookDelivery:
    # Attempt 1 is due at once (docs/webhooks.md, Retries): the config keeps retry_delays[0] at 0.
    now = utcnow()
    return WebhookDelivery.create(
        id=new_delivery_id(),
        account=account,
        job=job,
        event=event,
        url=url,
        body=body.decode("ascii"),
        status=PENDING,
        next_attempt_at=now,
        created_at=now,
    )


def claim_due(
    database: peewee.Database,
    owner: str,
    lease_seconds: float,
    now: datetime | None = None,
    *,
    max_sending: int,
) -> WebhookDelivery | None:
    """Claim a due delivery for ``owner``, for ``lease_seconds``: the one due the longest of
    the account whose turn it is, among those with fewer than ``max_sending`` deliveries being
    attempted (the module's docstring says how); None when there is none. A delivery whose
    claim expired (its node died mid-attempt) is due again."""
    now = now or utcnow()
    passed_over: list[int] = []
    with write_transaction(database):
        while (account_id := _next_account(now, max_sending, passed_over)) is not None:
            delivery = _claim_from(database, account_id, owner, lease_seconds, now, max_sending)
            if delivery is not None:
                return delivery
            passed_over.append(account_id)
    return None


def _next_account(now: datetime, max_sending: int, passed_over: list[int]) -> int | None:
    """Step 1: the id of the account whose turn it is, its row locked (PostgreSQL), or None."""
    due = WebhookDelivery.select(WebhookDelivery.account).where(_claimable(now))
    sending = WebhookDelivery.select(peewee.fn.COUNT(WebhookDelivery.id)).where(
        WebhookDelivery.account == Account.id, _in_flight(now)
    )
    query = (
        Account.select(Account.id)
        .where(Account.id.in_(due), peewee.Expression(sending, "<", max_sending))
        .order_by(Account.webhooks_served_at.asc(nulls="first"), Account.id)
        .limit(1)
    )
    if passed_over:
        query = query.where(Account.id.not_in(passed_over))
    account = lock_rows(query, skip_locked=True).first()
    return None if account is None else account.id


def _claim_from(
    database: peewee.Database,
    account_id: int,
    owner: str,
    lease_seconds: float,
    now: datetime,
    max_sending: int,
) -> WebhookDelivery | None:
    """Steps 2 and 3: the account's delivery due the longest, claimed, if the account (whose
    row this transaction holds) is still below ``max_sending``; None otherwise."""
    in_flight = WebhookDelivery.select().where(
        WebhookDelivery.account == account_id, _in_flight(now)
    )
    if in_flight.count() >= max_sending:
        return None
    claimable = _claimable(now) & (WebhookDelivery.account == account_id)
    due = (
        WebhookDelivery.select(WebhookDelivery.id)
        .where(claimable)
        .order_by(WebhookDelivery.next_attempt_at)
        .limit(1)
    )
    if is_postgresql(database):
        due = due.for_update(skip_locked=True)
    query = (
        WebhookDelivery.update(
            status=SENDING,
            lease_owner=owner,
            lease_expires_at=now + timedelta(seconds=lease_seconds),
        )
        .where(WebhookDelivery.id == due, claimable)
        .returning(*WebhookDelivery._meta.sorted_fields)
    )
    delivery = next(iter(query.objects(WebhookDelivery).execute()), None)
    if delivery is not None:
        Account.update(webhooks_served_at=now).where(Account.id == account_id).execute()
    return delivery


def _claimable(now: datetime) -> peewee.Expression:
    return ((WebhookDelivery.status == PENDING) & (WebhookDelivery.next_attempt_at <= now)) | (
        (WebhookDelivery.status == SENDING) & (WebhookDelivery.lease_expires_at < now)
    )


def _in_flight(now: datetime) -> peewee.Expression:
    """Being attempted: claimed, and the claim has not expired."""
    return (WebhookDelivery.status == SENDING) & (WebhookDelivery.lease_expires_at >= now)


def record_attempt(
    delivery: WebhookDelivery,
    started_at: datetime,
    result: AttemptResult,
    retry_delays: Sequence[float],
    now: datetime | None = None,
) -> str | None:
    """Store the attempt made under the claim ``delivery`` was returned with, and move it on:
    ``delivered``, ``pending`` until the next delay has passed, or ``abandoned`` after the
    last attempt. Returns the new status, or None when the claim had been lost meanwhile."""
    ended_at = now or utcnow()
    made = delivery.attempts_made + 1
    due = None if result.ok else next_attempt_at(made, ended_at, retry_delays)
    status = DELIVERED if result.ok else (PENDING if due else ABANDONED)
    with database_proxy.atomic():
        moved = (
            WebhookDelivery.update(
                status=status,
                attempts_made=made,
                next_attempt_at=due,
                finished_at=None if status == PENDING else ended_at,
                lease_owner=None,
                lease_expires_at=None,
            )
            .where(
                WebhookDelivery.id == delivery.id,
                WebhookDelivery.status == SENDING,
                WebhookDelivery.lease_owner == delivery.lease_owner,
                WebhookDelivery.lease_expires_at == delivery.lease_expires_at,
            )
            .execute()
        )
        if not moved:
            return None
        WebhookAttempt.create(
            delivery=delivery.id,
            cycle=delivery.cycle,
            number=made,
            started_at=started_at,
            status_code=result.status_code,
            error=result.error,
            duration_ms=result.duration_ms,
        )
    return status


def redeliver(
    account_id: int,
    delivery_id: str,
    now: datetime | None = None,
    *,
    max_pending: int | None = None,
) -> WebhookDelivery:
    """Start a new cycle of attempts for a delivered or abandoned delivery, the first due now.
    The body and ``webhook-id`` stay the same, so receivers dedupe it as before.

    Raises :class:`DeliveryError`: DELIVERY_NOT_FOUND (also for another account's delivery),
    DELIVERY_IN_PROGRESS while its current cycle is still running, :data:`TOO_MANY_PENDING`
    when the account already has ``max_pending`` unfinished deliveries (None: no limit).
    """
    # One write transaction: the answer shows the delivery as restarted, before a dispatcher
    # can claim it (the update holds the row, and on SQLite the write lock, until the read).
    with write_transaction(database_proxy):
        delivery = find_delivery(account_id, delivery_id)
        if delivery.status in FINISHED:
            _require_room(account_id, max_pending)
        restarted = (
            WebhookDelivery.update(
                status=PENDING,
                cycle=WebhookDelivery.cycle + 1,
                attempts_made=0,
                next_attempt_at=now or utcnow(),
                finished_at=None,
            )
            .where(WebhookDelivery.id == delivery.id, WebhookDelivery.status.in_(FINISHED))
            .execute()
        )
        if not restarted:
            raise DeliveryError(
                "DELIVERY_IN_PROGRESS",
                f"Delivery {delivery_id} is still "
                "being attempted: redeliver it once it is delivered or "
                "abandoned.",
            )
        return find_delivery(account_id, delivery_id)


def find_delivery(account_id: int, delivery_id: str) -> WebhookDelivery:
    """The account's delivery with its attempts; DELIVERY_NOT_FOUND when it has none by
    that id."""
    query = WebhookDelivery.select().where(
        WebhookDelivery.id == delivery_id, WebhookDelivery.account == account_id
    )
    found = _with_attempts(query)
    if not found:
        raise DeliveryError(
            "DELIVERY_NOT_FOUND", f"No delivery {delivery_id} exists for this account."
        )
    return found[0]


def list_deliveries(
    account_id: int,
    *,
    limit: int,
    after: tuple[datetime, str] | None = None,
) -> tuple[list[WebhookDelivery], tuple[datetime, str] | None]:
    """A page of the account's deliveries with their attempts, newest first, and the
    ``(created_at, id)`` position to pass as ``after`` for the next page (None on the last)."""
    query = (
        WebhookDelivery.select()
        .where(WebhookDelivery.account == account_id)
        .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
        .limit(limit + 1)
    )
    if after is not None:
        created_at, delivery_id = after
        query = query.where(
            (WebhookDelivery.created_at < created_at)
            | ((WebhookDelivery.created_at == created_at) & (WebhookDelivery.id < delivery_id))
        )
    deliveries = _with_attempts(query)
    if len(deliveries) <= limit:
        return deliveries, None
    last = deliveries[limit - 1]
    return deliveries[:limit], (last.created_at, last.id)


def _with_attempts(query: peewee.ModelSelect[WebhookDelivery]) -> list[WebhookDelivery]:
    """The deliveries of ``query`` with ``attempts`` as a list, in the order they were made."""
    attempts = WebhookAttempt.select().order_by(WebhookAttempt.id)
    return list(peewee.prefetch(query, attempts))


def prune_deliveries(finished_before: datetime) -> int:
    """Remove the deliveries that ended (delivered or abandoned) before ``finished_before``,
    their attempts with them; returns how many. Pending and sending ones are never removed."""
    return (
        WebhookDelivery.delete()
        .where(WebhookDelivery.status.in_(FINISHED), WebhookDelivery.finished_at < finished_before)
        .execute()
    )
