"""The outbox on SQLite and PostgreSQL: rows queued in the transaction that ends a job, claims,
the retry schedule, redelivery, and one attempt made by the dispatcher to a loopback receiver."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
import standardwebhooks

from assetcheck.config.loading import load_config
from assetcheck.service.db.tables import Account, Job, WebhookDelivery, utcnow
from assetcheck.service.jobs import queue as job_queue
from assetcheck.service.jobs.queue import MAX_ATTEMPTS, JobQueue, new_job_id
from assetcheck.service.webhooks.delivery import AttemptResult
from assetcheck.service.webhooks.dispatcher import MAX_CONCURRENT_SENDS, WebhookDispatcher
from assetcheck.service.webhooks.outbox import (
    ABANDONED,
    DELIVERED,
    PENDING,
    SENDING,
    DeliveryError,
    claim_due,
    find_delivery,
    list_deliveries,
    queue_ping,
    record_attempt,
    redeliver,
)
from assetcheck.service.webhooks.payload import completed_event, failed_event
from assetcheck.service.webhooks.secret_box import SecretBox, SecretUnreadable
from assetcheck.service.webhooks.settings import ROTATION_WINDOW, reveal_secret, rotate_secret
from assetcheck.service.webhooks.urls import ALLOWED_CIDRS_HINT as HINT
from tests.concurrency import claim_in_threads
from tests.service.harness import write_config
from tests.service.webhooks.harness import SCALED_DELAYS, attempts_of, webhook_settings
from tests.service.webhooks.receivers import (
    ReferenceReceiver,
    ScriptedReceiver,
    closed_loopback_port,
)

REPORT = {
    "valid": True,
    "health_score": 97,
    "grade": "excellent",
    "result": {"meshes": [], "securityScan": {"safe": True, "scannedFiles": 1, "warnings": []}},
}
FAILURE = AttemptResult(status_code=500, error="HTTP 500 Internal Server Error", duration_ms=3)
SUCCESS = AttemptResult(status_code=204, error=None, duration_ms=2)
CLAIM = 30.0
#: More deliveries of one account being attempted at once than any test here has.
ANY_NUMBER_SENDING = 100
BOX = SecretBox("a server secret of the outbox tests, long enough")


@pytest.fixture
def queue(database) -> JobQueue:
    return JobQueue(database, lease_seconds=30, workers=2)


@pytest.fixture
def account(database) -> Account:
    return Account.create(
        email="hooks@example.com", plan="pro", webhook_url="http://127.0.0.1:9/default"
    )


def running_job(queue: JobQueue, account: Account, **options) -> Job:
    job = queue.enqueue(
        id=new_job_id(),
        account=account,
        filename="a.glb",
        engine="generic",
        options=options,
        stored_path="jobs/x/upload",
        sha256="0" * 64,
        size=1,
    )
    assert queue.claim("worker-a").id == job.id
    return job


def claim(database, owner: str) -> WebhookDelivery | None:
    """A claim for ``owner`` with no account's number of attempts under way in its way."""
    return claim_due(database, owner, CLAIM, max_sending=ANY_NUMBER_SENDING)


def pinged(account: Account, count: int = 1) -> list[WebhookDelivery]:
    return [queue_ping(account) for _ in range(count)]


def test_completing_a_job_queues_its_event(queue, account):
    job = running_job(queue, account)
    assert queue.complete(job.id, "worker-a", REPORT)
    delivery = WebhookDelivery.get(WebhookDelivery.job == job.id)
    assert delivery.event == "validation.completed" and delivery.status == PENDING
    # Built from the stored report: PostgreSQL's jsonb may order its keys differently.
    assert json.loads(delivery.body) == json.loads(completed_event(job.id, REPORT))
    assert delivery.next_attempt_at == delivery.created_at  # attempt 1 is due at once
    assert delivery.url is None  # the account's default, read at each attempt


def test_a_failed_job_queues_validation_failed_with_its_error(queue, account):
    job = running_job(queue, account)
    queue.fail(job.id, "worker-a", "VALIDATION_TIMEOUT", "took too long")
    delivery = WebhookDelivery.get(WebhookDelivery.job == job.id)
    assert delivery.event == "validation.failed"
    assert delivery.body.encode() == failed_event(job.id, "VALIDATION_TIMEOUT", "took too long")


def test_jobs_failed_by_crashes_or_the_lease_reaper_queue_their_events_too(queue, account):
    crashed = running_job(queue, account)
    Job.update(attempts=MAX_ATTEMPTS).where(Job.id == crashed.id).execute()
    assert queue.record_crash(crashed.id, "worker-a", "died from SIGSEGV") == "failed"
    reaped = running_job(queue, account)
    Job.update(attempts=MAX_ATTEMPTS, lease_expires_at=utcnow() - timedelta(seconds=1)).where(
        Job.id == reaped.id
    ).execute()
    assert queue.reap_expired_leases() == (0, 1)
    events = {d.job_id: json.loads(d.body)["error"]["code"] for d in WebhookDelivery.select()}
    assert events == {crashed.id: "VALIDATION_CRASHED", reaped.id: "VALIDATION_CRASHED"}


def test_the_jobs_own_webhook_url_wins_over_the_accounts_default(queue, account):
    job = running_job(queue, account, webhook_url="http://127.0.0.1:9/own")
    queue.complete(job.id, "worker-a", REPORT)
    assert WebhookDelivery.get().url == "http://127.0.0.1:9/own"


@pytest.mark.parametrize(("plan", "default_url"), [("pro", None), ("free", "http://127.0.0.1:9")])
def test_no_event_is_queued_without_a_url_or_on_a_plan_without_webhooks(queue, plan, default_url):
    account = Account.create(email="quiet@example.com", plan=plan, webhook_url=default_url)
    job = running_job(queue, account)
    assert queue.complete(job.id, "worker-a", REPORT)
    assert WebhookDelivery.select().count() == 0


def test_a_worker_that_lost_its_lease_ends_nothing_and_queues_nothing(queue, account):
    job = running_job(queue, account)
    assert not queue.complete(job.id, "worker-b", REPORT)
    assert WebhookDelivery.select().count() == 0


def test_a_job_is_not_completed_when_its_event_cannot_be_queued(queue, account, monkeypatch):
    def broken_outbox(job_ids):
        raise RuntimeError("the outbox insert failed")

    job = running_job(queue, account)
    monkeypatch.setattr(job_queue, "queue_job_events", broken_outbox)
    with pytest.raises(RuntimeError):
        queue.complete(job.id, "worker-a", REPORT)
    assert Job.get_by_id(job.id).status == "processing"


def test_only_due_deliveries_are_claimed_the_longest_due_first(database, account):
    later, sooner = pinged(account, 2)
    now = utcnow()
    WebhookDelivery.update(next_attempt_at=now + timedelta(minutes=1)).where(
        WebhookDelivery.id == later.id
    ).execute()
    WebhookDelivery.update(next_attempt_at=now - timedelta(seconds=1)).where(
        WebhookDelivery.id == sooner.id
    ).execute()
    claimed = claim(database, "node-a")
    assert claimed.id == sooner.id and claimed.status == SENDING
    assert claimed.lease_owner == "node-a"
    assert claim(database, "node-a") is None


def test_concurrent_claims_never_hand_out_a_delivery_twice(database, account):
    pinged(account, 40)
    claimed = claim_in_threads(lambda owner: claim(database, owner), database)
    assert len(claimed) == 40 and len(set(claimed)) == 40


def test_a_claim_that_expired_is_taken_again_and_the_first_claimant_cannot_record(
    database, account
):
    pinged(account)
    first = claim(database, "node-a")
    assert claim(database, "node-b") is None
    WebhookDelivery.update(lease_expires_at=utcnow() - timedelta(seconds=1)).execute()
    second = claim(database, "node-b")
    assert second.id == first.id and second.lease_owner == "node-b"
    assert record_attempt(first, utcnow(), SUCCESS, SCALED_DELAYS) is None
    assert record_attempt(second, utcnow(), SUCCESS, SCALED_DELAYS) == DELIVERED
    assert [(a.number, a.status_code) for a in attempts_of(first.id)] == [(1, 204)]


def test_failures_follow_the_retry_delays_then_the_delivery_is_abandoned(database, account):
    delivery_id = pinged(account)[0].id
    statuses = []
    for number, delay in enumerate([*SCALED_DELAYS[1:], None], start=1):
        WebhookDelivery.update(next_attempt_at=utcnow()).where(
            WebhookDelivery.id == delivery_id
        ).execute()  # skip the wait
        claimed = claim(database, "node-a")
        ended = utcnow()
        statuses.append(record_attempt(claimed, ended, FAILURE, SCALED_DELAYS, now=ended))
        row = WebhookDelivery.get_by_id(delivery_id)
        assert row.attempts_made == number
        if delay is not None:
            assert row.next_attempt_at == ended + timedelta(seconds=delay)
    assert statuses == [PENDING] * 4 + [ABANDONED]
    row = WebhookDelivery.get_by_id(delivery_id)
    assert row.next_attempt_at is None and row.finished_at is not None
    assert [a.number for a in attempts_of(delivery_id)] == [1, 2, 3, 4, 5]
    assert claim(database, "node-a") is None


def test_redelivery_starts_a_new_cycle_of_the_same_delivery(database, account):
    delivery = pinged(account)[0]
    record_attempt(claim(database, "node-a"), utcnow(), SUCCESS, SCALED_DELAYS)
    again = redeliver(account.id, delivery.id)
    assert (again.status, again.cycle, again.attempts_made) == (PENDING, 2, 0)
    record_attempt(claim(database, "node-a"), utcnow(), FAILURE, SCALED_DELAYS)
    shown = find_delivery(account.id, delivery.id)
    assert [(a.cycle, a.number, a.status_code) for a in shown.attempts] == [
        (1, 1, 204),
        (2, 1, 500),
    ]


def test_a_delivery_being_attempted_or_of_another_account_is_not_redelivered(account):
    delivery = pinged(account)[0]
    with pytest.raises(DeliveryError) as in_progress:
        redeliver(account.id, delivery.id)
    other = Account.create(email="other@example.com", plan="pro")
    with pytest.raises(DeliveryError) as not_found:
        redeliver(other.id, delivery.id)
    assert (in_progress.value.code, not_found.value.code) == (
        "DELIVERY_IN_PROGRESS",
        "DELIVERY_NOT_FOUND",
    )


def test_deliveries_are_listed_newest_first_page_by_page(account):
    ids = [delivery.id for delivery in pinged(account, 5)]
    first, after = list_deliveries(account.id, limit=3)
    rest, end = list_deliveries(account.id, limit=3, after=after)
    assert [d.id for d in first + rest] == ids[::-1] and end is None
    assert list_deliveries(Account.create(email="x@example.com", plan="pro").id, limit=3) == (
        [],
        None,
    )


def test_a_ping_needs_a_default_url(database):
    with pytest.raises(DeliveryError, match="no webhook URL"):
        queue_ping(Account.create(email="nourl@example.com", plan="pro"))


@pytest.fixture
def dispatcher(database, tmp_path):
    config = load_config(
        write_config(
            tmp_path, {"webhooks": webhook_settings(max_sending_per_account=MAX_CONCURRENT_SENDS)}
        )
    )
    dispatcher = WebhookDispatcher(config.webhooks, database, BOX, owner="node-a")
    yield dispatcher
    dispatcher.close()


def test_the_dispatcher_delivers_a_signed_ping_that_receivers_verify(
    database, dispatcher, account, serve
):
    secret = reveal_secret(account, BOX)
    receiver = ReferenceReceiver(secret)
    account.webhook_url = serve(receiver).url
    account.save()
    delivery = pinged(account)[0]
    assert dispatcher.deliver(claim(database, "node-a")) == DELIVERED
    [request] = receiver.requests
    assert request.body == b'{"event":"ping","job_id":null}'
    assert request.headers["Webhook-Id"] == delivery.id
    standardwebhooks.Webhook(secret).verify(request.body, request.headers)


def test_during_a_rotation_deliveries_carry_both_signatures_then_only_the_new_one(
    database, dispatcher, account, serve
):
    receiver = ScriptedReceiver([200])
    account.webhook_url = serve(receiver).url
    account.save()
    old = reveal_secret(account, BOX)
    new = rotate_secret(account, BOX)
    for rotated_ago in (timedelta(0), ROTATION_WINDOW):
        Account.update(webhook_secret_rotated_at=utcnow() - rotated_ago).execute()
        pinged(account)
        while (claimed := claim(database, "node-a")) is not None:
            dispatcher.deliver(claimed)
    during, after = receiver.requests[-2:]
    for secret in (old, new):
        standardwebhooks.Webhook(secret).verify(during.body, during.headers)
    standardwebhooks.Webhook(new).verify(after.body, after.headers)
    with pytest.raises(standardwebhooks.webhooks.WebhookVerificationError):
        standardwebhooks.Webhook(old).verify(after.body, after.headers)


def test_the_database_holds_webhook_secrets_only_sealed_to_their_account(database, account):
    secret = reveal_secret(account, BOX)
    rotate_secret(account, BOX)
    stored = Account.get_by_id(account.id)
    sealed = (stored.webhook_secret_sealed, stored.webhook_previous_secret_sealed)
    assert all(
        value.startswith("v1:") and secret.removeprefix("whsec_") not in value for value in sealed
    )
    assert BOX.open(sealed[1], account.id) == secret
    with pytest.raises(SecretUnreadable):
        BOX.open(sealed[1], account.id + 1)  # copied to another account's row, it opens not


def test_after_the_server_secret_changes_attempts_fail_until_the_secret_is_rotated(
    database, dispatcher, account, serve
):
    receiver = ScriptedReceiver([200])
    account.webhook_url = serve(receiver).url
    account.save()
    reveal_secret(account, SecretBox("the server secret before it was changed, long enough"))
    delivery = pinged(account)[0]
    assert dispatcher.deliver(claim(database, "node-a")) == PENDING
    assert "does not open with this server secret" in attempts_of(delivery.id)[0].error
    assert receiver.requests == []
    new = rotate_secret(account, BOX)
    assert Account.get_by_id(account.id).webhook_previous_secret_sealed is None
    pinged(account)
    while (claimed := claim(database, "node-a")) is not None:
        dispatcher.deliver(claimed)
    standardwebhooks.Webhook(new).verify(receiver.requests[-1].body, receiver.requests[-1].headers)


def test_a_tick_sends_every_due_delivery_each_from_its_own_thread(
    database, dispatcher, account, serve
):
    receiver = ScriptedReceiver([200])
    account.webhook_url = serve(receiver).url
    account.save()
    # Made now, not by the first attempt: that would write the account's row while the tick
    # claims, and a claim skips an account whose row is locked (until the next tick).
    reveal_secret(account, BOX)
    ids = {delivery.id for delivery in pinged(account, 3)}
    dispatcher.tick()
    dispatcher.close()
    assert {request.headers["Webhook-Id"] for request in receiver.requests} == ids
    assert {WebhookDelivery.get_by_id(i).status for i in ids} == {DELIVERED}


def test_an_attempt_is_refused_at_connect_time_when_the_url_is_no_longer_allowed(
    database, dispatcher, account
):
    account.webhook_url = f"http://127.0.0.2:{closed_loopback_port()}/hooks"
    account.save()
    delivery = pinged(account)[0]
    dispatcher.deliver(claim(database, "node-a"))
    [attempt] = attempts_of(delivery.id)
    assert attempt.error == f"webhook URL refused: 127.0.0.2 is a loopback address; {HINT}"
    assert attempt.status_code is None


def test_removing_the_default_url_fails_the_attempts_of_deliveries_that_used_it(
    database, dispatcher, account
):
    delivery = pinged(account)[0]
    Account.update(webhook_url=None).execute()
    assert dispatcher.deliver(claim(database, "node-a")) == PENDING
    assert attempts_of(delivery.id)[0].error.startswith("no webhook URL")
