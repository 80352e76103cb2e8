"""Fair claims of the outbox on SQLite and PostgreSQL (docs/webhooks.md, Fair deliveries):
accounts with due deliveries take turns, one account has at most ``max_sending`` attempts under
way, and manual deliveries stop at ``max_pending`` while job events are always queued."""

from __future__ import annotations

from datetime import timedelta

import pytest

from assetcheck.service.db.tables import Account, WebhookDelivery, utcnow
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.webhooks.outbox import (
    TOO_MANY_PENDING,
    DeliveryError,
    claim_due,
    pending_count,
    queue_ping,
    record_attempt,
    redeliver,
)
from tests.concurrency import claim_in_threads
from tests.service.jobs.test_queue import add_job
from tests.service.webhooks.harness import SCALED_DELAYS
from tests.service.webhooks.test_outbox import CLAIM, REPORT, SUCCESS

MAX_SENDING = 2


def hooked_account(name: str) -> Account:
    return Account.create(
        email=f"{name}@example.com", plan="pro", webhook_url=f"http://127.0.0.1:9/{name}"
    )


def claim(database, owner: str = "node-a") -> WebhookDelivery | None:
    return claim_due(database, owner, CLAIM, max_sending=MAX_SENDING)


def test_an_account_with_a_backlog_does_not_keep_another_account_waiting(database):
    greedy, patient = hooked_account("greedy"), hooked_account("patient")
    backlog = [queue_ping(greedy).id for _ in range(50)]
    waiting = queue_ping(patient).id
    first_two = [claim(database).id for _ in range(2)]
    assert waiting in first_two and set(first_two) - {waiting} <= set(backlog)


def test_accounts_take_turns_once_each_whatever_their_backlogs(database):
    accounts = [hooked_account(name) for name in ("a", "b", "c")]
    for account, backlog in zip(accounts, (30, 1, 5), strict=True):
        for _ in range(backlog):
            queue_ping(account)
    served = []
    for _ in range(6):  # two rounds; each claim's attempt succeeds at once
        delivery = claim(database)
        served.append(delivery.account_id)
        record_attempt(delivery, utcnow(), SUCCESS, SCALED_DELAYS)
    a, b, c = (account.id for account in accounts)
    assert served == [a, b, c, a, c, a]  # b had one delivery: the others go on taking turns


def test_an_account_has_at_most_max_sending_attempts_under_way(database):
    stuck, other = hooked_account("stuck"), hooked_account("other")
    for _ in range(10):
        queue_ping(stuck)
    queue_ping(other)
    claimed = [claim(database) for _ in range(MAX_SENDING)]
    assert {delivery.account_id for delivery in claimed} == {stuck.id, other.id}
    assert claim(database).account_id == stuck.id  # its second
    assert claim(database) is None  # the stuck account has two under way, nobody else is due
    record_attempt(claimed[0], utcnow(), SUCCESS, SCALED_DELAYS)
    assert claim(database).account_id == stuck.id


def test_a_claim_that_expired_no_longer_counts_as_under_way(database):
    stuck = hooked_account("stuck")
    for _ in range(3):
        queue_ping(stuck)
    taken = [claim(database).id for _ in range(MAX_SENDING)]
    assert claim(database) is None
    WebhookDelivery.update(lease_expires_at=utcnow() - timedelta(seconds=1)).where(
        WebhookDelivery.id == taken[0]
    ).execute()
    assert claim(database, "node-b").id == taken[0]  # taken up again: still two under way
    assert claim(database, "node-b") is None


def test_racing_claimers_never_put_more_than_max_sending_of_one_account_under_way(database):
    accounts = [hooked_account(name) for name in ("a", "b", "c")]
    for account in accounts:
        for _ in range(10):
            queue_ping(account)
    claimed = claim_in_threads(lambda owner: claim(database, owner), database, owners=6)
    assert len(claimed) == len(set(claimed)) == MAX_SENDING * len(accounts)
    for account in accounts:
        under_way = WebhookDelivery.select().where(
            WebhookDelivery.account == account.id, WebhookDelivery.status == "sending"
        )
        assert under_way.count() == MAX_SENDING


def test_a_test_event_past_the_pending_limit_is_refused_saying_why(database):
    account = hooked_account("pinger")
    for _ in range(3):
        queue_ping(account, max_pending=3)
    with pytest.raises(DeliveryError) as refused:
        queue_ping(account, max_pending=3)
    assert refused.value.code == TOO_MANY_PENDING and refused.value.status == 429
    assert "3 deliveries of this account are still waiting" in str(refused.value)
    assert pending_count(account.id) == 3


def test_a_redelivery_past_the_pending_limit_is_refused(database):
    account = hooked_account("redeliverer")
    done = queue_ping(account)
    record_attempt(claim(database), utcnow(), SUCCESS, SCALED_DELAYS)
    queue_ping(account)
    with pytest.raises(DeliveryError) as refused:
        redeliver(account.id, done.id, max_pending=1)
    assert refused.value.code == TOO_MANY_PENDING
    assert redeliver(account.id, done.id, max_pending=2).status == "pending"


def test_job_events_are_queued_past_the_pending_limit(database):
    account = hooked_account("busy")
    for _ in range(3):
        queue_ping(account, max_pending=3)
    queue = JobQueue(database, lease_seconds=30, workers=1)
    job = add_job(queue, account)
    assert queue.claim("worker-a").id == job.id
    queue.complete(job.id, "worker-a", REPORT)
    assert WebhookDelivery.get(WebhookDelivery.job == job.id).status == "pending"
    assert pending_count(account.id) == 4
