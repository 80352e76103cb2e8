"""Webhooks end to end: ``assetcheck serve`` and ``assetcheck worker`` processes deliver to real
receivers on 127.0.0.1, with the interface's delays scaled down (see ``webhook_settings``).

Nothing here leaves loopback: refused addresses are 127.0.0.2, outside the allowlist
127.0.0.1/32, and a listener there proves that no connection reached it.
"""

from __future__ import annotations

import json
import socket
from collections import Counter

import pytest
import standardwebhooks

from assetcheck import __version__
from assetcheck.config.loading import load_config
from assetcheck.service.db import migrations
from assetcheck.service.db.tables import Account, Job, WebhookDelivery
from assetcheck.service.webhooks.outbox import ABANDONED, DELIVERED, PENDING, queue_ping
from assetcheck.service.webhooks.payload import completed_event, failed_event
from assetcheck.service.webhooks.urls import ALLOWED_CIDRS_HINT as HINT
from assetcheck.testing.zip import tiny_glb
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    upload,
    wait_until,
    write_config,
)
from tests.service.webhooks.harness import (
    SCALED_DELAYS,
    TIMEOUT,
    attempts_of,
    delivery_of_job,
    make_customer,
    wait_for_delivery,
    webhook_settings,
)
from tests.service.webhooks.receivers import (
    HangingReceiver,
    ReceivedRequest,
    Receiver,
    ReferenceReceiver,
    ScriptedReceiver,
)

pytestmark = pytest.mark.slow


class SilentListener:
    """A socket listening on ``host`` that never accepts: a connection would wait in its
    backlog, where :meth:`connected` finds it."""

    def __init__(self, host: str) -> None:
        self.socket = socket.create_server((host, 0))
        self.socket.setblocking(False)
        self.url = f"http://{host}:{self.socket.getsockname()[1]}/hooks"

    def connected(self) -> bool:
        try:
            self.socket.accept()[0].close()
        except BlockingIOError:
            return False
        return True


@pytest.fixture
def forbidden_listener():
    listener = SilentListener("127.0.0.2")
    yield listener
    listener.socket.close()


def test_a_completed_job_is_delivered_signed_as_the_interface_says(
    webhook_service, new_customer, serve
):
    customer = new_customer()
    receiver = ReferenceReceiver(customer.secret)
    options = json.dumps({"webhook_url": serve(receiver).url})
    job_id = upload(webhook_service.url, customer.key, tiny_glb(), options=options).json()["job_id"]
    delivery = delivery_of_job(job_id)
    assert delivery.status == DELIVERED
    [request] = receiver.requests
    assert receiver.processed_job_ids == [job_id]  # the X-Service-Signature matched
    assert request.body == completed_event(job_id, Job.get_by_id(job_id).result)
    event = standardwebhooks.Webhook(customer.secret).verify(request.body, request.headers)
    assert set(event) == {"event", "job_id", "result"}
    assert set(event["result"]) == {"valid", "health_score", "grade", "meshes", "securityScan"}
    assert request.headers["Webhook-Id"] == delivery.id
    assert request.headers["User-Agent"] == f"AssetCheck/{__version__}"
    assert request.headers["Content-Type"] == "application/json"
    assert customer.secret not in webhook_service.log()


def test_a_failed_job_sends_validation_failed_to_the_accounts_default_url(
    webhook_service, new_customer, serve
):
    receiver = ScriptedReceiver([200])
    customer = new_customer(url=serve(receiver).url)
    job_id = upload(webhook_service.url, customer.key, tiny_glb(), "crash.glb").json()["job_id"]
    assert delivery_of_job(job_id).status == DELIVERED
    [request] = receiver.requests
    message = Job.get_by_id(job_id).error_message
    assert request.body == failed_event(job_id, "VALIDATION_CRASHED", message)


def test_a_receiver_failing_four_times_gets_five_attempts_at_the_scheduled_delays(
    new_customer, serve
):
    receiver = ScriptedReceiver([500, 500, 500, 500, 200])
    delivery = queue_ping(new_customer(url=serve(receiver).url).account)
    assert wait_for_delivery(delivery.id).status == DELIVERED
    attempts = attempts_of(delivery.id)
    assert [a.status_code for a in attempts] == [500, 500, 500, 500, 200]
    assert len(receiver.requests) == 5
    for before, after, delay in zip(attempts[:-1], attempts[1:], SCALED_DELAYS[1:], strict=True):
        assert (after.started_at - before.started_at).total_seconds() >= delay


@pytest.mark.parametrize("status", [500, 302])
def test_a_receiver_that_always_fails_gets_five_attempts_then_the_delivery_is_abandoned(
    new_customer, serve, status
):
    elsewhere = ScriptedReceiver([200])
    receiver = ScriptedReceiver([status], headers={"Location": serve(elsewhere).url})
    delivery = queue_ping(new_customer(url=serve(receiver).url).account)
    abandoned = wait_for_delivery(delivery.id)
    assert abandoned.status == ABANDONED and abandoned.next_attempt_at is None
    assert [a.status_code for a in attempts_of(delivery.id)] == [status] * 5
    assert len(receiver.requests) == 5
    assert elsewhere.requests == []  # a redirect is never followed


def test_a_receiver_that_never_answers_times_out(new_customer, serve):
    receiver = HangingReceiver()
    delivery = queue_ping(new_customer(url=serve(receiver).url).account)
    assert wait_until(lambda: attempts_of(delivery.id))
    [first, *_] = attempts_of(delivery.id)
    assert first.status_code is None
    assert first.error == f"no complete answer within {TIMEOUT:g} s"


def test_a_forbidden_address_is_refused_at_submit_time_without_a_connection(
    webhook_service, new_customer, forbidden_listener
):
    customer = new_customer()
    options = json.dumps({"webhook_url": forbidden_listener.url})
    response = upload(webhook_service.url, customer.key, tiny_glb(), options=options)
    assert response.status_code == 400
    assert response.json() == {
        "code": "INVALID_WEBHOOK_URL",
        "error": f"Webhook URL refused: 127.0.0.2 is a loopback address; {HINT}.",
    }
    assert Job.select().where(Job.account == customer.account.id).count() == 0
    assert not forbidden_listener.connected()


def test_a_forbidden_address_is_refused_again_at_connect_time_without_a_connection(
    webhook_service, new_customer, forbidden_listener
):
    customer = new_customer()
    # Stored before the allowlist changed, say: the check at connect time still refuses it.
    Account.update(webhook_url=forbidden_listener.url).where(
        Account.id == customer.account.id
    ).execute()
    job_id = upload(webhook_service.url, customer.key, tiny_glb()).json()["job_id"]
    assert delivery_of_job(job_id).status == ABANDONED
    assert {a.error for a in attempts_of(delivery_of_job(job_id).id)} == {
        f"webhook URL refused: 127.0.0.2 is a loopback address; {HINT}"
    }
    assert not forbidden_listener.connected()


def test_a_service_killed_between_attempts_sends_the_next_one_on_schedule_after_a_restart(
    tmp_path, serve
):
    delays = [0, 0.2, 2.0, 0.2, 0.2]
    settings = service_settings(
        tmp_path, "", workers={"processes": 1}, webhooks=webhook_settings(retry_delays=delays)
    )
    config_path = write_config(tmp_path, settings)
    service = ServiceProcess(config_path).start()
    bind_database(service.config)
    receiver = ScriptedReceiver([500, 500, 200])
    delivery = queue_ping(make_customer(service.config, url=serve(receiver).url).account)
    assert wait_until(lambda: WebhookDelivery.get_by_id(delivery.id).attempts_made == 2)
    service.kill()
    assert wait_for_delivery(delivery.id, [PENDING]).attempts_made == 2
    restarted = ServiceProcess(config_path).start()
    try:
        assert wait_for_delivery(delivery.id).status == DELIVERED
    finally:
        restarted.stop()
    second, third = attempts_of(delivery.id)[1:]
    assert [r.headers["Webhook-Id"] for r in receiver.requests] == [delivery.id] * 3
    assert (third.started_at - second.started_at).total_seconds() >= delays[2]
    assert "attempt 3: delivered" in restarted.log()


class FailsFirstTry(Receiver):
    """Answers 500 to the first request of each ``webhook-id``, 200 to the others."""

    async def answer(self, request: ReceivedRequest) -> int:
        seen = [
            r for r in self.requests if r.headers["Webhook-Id"] == request.headers["Webhook-Id"]
        ]
        return 500 if len(seen) == 1 else 200


def test_two_nodes_on_postgresql_send_each_attempt_exactly_once(tmp_path, database_factory, serve):
    settings = service_settings(
        tmp_path,
        database_factory("postgresql"),
        workers={"processes": 1},
        webhooks=webhook_settings(timeout=10),
    )
    config_path = write_config(tmp_path, settings)
    config = load_config(config_path)
    migrations.upgrade(bind_database(config))
    receiver = FailsFirstTry()
    account = make_customer(config, url=serve(receiver).url).account
    nodes = [ServiceProcess(config_path, command="worker").start() for _ in range(2)]
    try:
        for node in nodes:
            assert wait_until(lambda node=node: "running 1 worker" in node.log())
        ids = [queue_ping(account).id for _ in range(60)]
        assert wait_until(
            lambda: (
                WebhookDelivery.select().where(WebhookDelivery.status == DELIVERED).count()
                == len(ids)
            )
        )
    finally:
        exits = [node.stop() for node in nodes]
    assert exits == [0, 0]
    assert Counter(r.headers["Webhook-Id"] for r in receiver.requests) == dict.fromkeys(ids, 2)
    assert all([a.number for a in attempts_of(i)] == [1, 2] for i in ids)
    assert all(node.log().count("webhook dlv_") > 0 for node in nodes)  # both took a share
