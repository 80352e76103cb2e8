"""``/api/v1/webhooks/deliveries`` on a running service: listing with attempts, paging,
redelivery, and another account's deliveries kept out of sight."""

from __future__ import annotations

import base64

import pytest
import requests

from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_options import check_webhook_option
from assetcheck.service.webhooks.outbox import DELIVERED, queue_ping
from tests.service.harness import bearer
from tests.service.webhooks.harness import LOOPBACK_ONLY, attempts_of, wait_for_delivery
from tests.service.webhooks.receivers import ScriptedReceiver, closed_loopback_port


@pytest.fixture
def api(webhook_service):
    """``api(method, path, key)``: a request to the webhook service."""
    return lambda method, path, key: requests.request(
        method, f"{webhook_service.url}/api/v1/webhooks{path}", headers=bearer(key), timeout=10
    )


@pytest.fixture
def pinged_customer(new_customer, serve):
    """A customer whose receiver got two pings: ``(customer, receiver, [older, newer] ids)``."""
    receiver = ScriptedReceiver([200])
    customer = new_customer(url=serve(receiver).url)
    ids = [queue_ping(customer.account).id for _ in range(2)]
    for delivery_id in ids:
        wait_for_delivery(delivery_id)
    return customer, receiver, ids


def test_deliveries_are_listed_newest_first_with_their_attempts(api, pinged_customer):
    customer, _, ids = pinged_customer
    response = api("GET", "/deliveries", customer.key)
    assert response.status_code == 200
    body = response.json()
    assert [d["delivery_id"] for d in body["deliveries"]] == ids[::-1]
    assert body["next_cursor"] is None
    newest = body["deliveries"][0]
    assert newest["event"] == "ping" and newest["job_id"] is None
    assert newest["status"] == DELIVERED and newest["url"] == customer.account.webhook_url
    assert newest["next_attempt_at"] is None and newest["finished_at"]
    [attempt] = newest["attempts"]
    assert (attempt["cycle"], attempt["number"], attempt["status_code"], attempt["error"]) == (
        1,
        1,
        200,
        None,
    )
    assert attempt["duration_ms"] >= 0 and attempt["started_at"].endswith("Z")


def test_deliveries_are_paged_with_the_cursor_of_the_previous_page(api, pinged_customer):
    customer, _, ids = pinged_customer
    first = api("GET", "/deliveries?limit=1", customer.key).json()
    second = api("GET", f"/deliveries?limit=1&cursor={first['next_cursor']}", customer.key)
    assert [d["delivery_id"] for d in first["deliveries"] + second.json()["deliveries"]] == (
        ids[::-1]
    )
    assert second.json()["next_cursor"] is None


#: A cursor of a thousand nested arrays: base64 of JSON, as the service's own cursors are.
NESTED_CURSOR = base64.urlsafe_b64encode(b"[" * 1000 + b"]" * 1000).decode()


@pytest.mark.parametrize(
    "query", ["limit=0", "limit=101", "limit=x", "cursor=not-ours", f"cursor={NESTED_CURSOR}"]
)
def test_bad_paging_parameters_are_refused(api, new_customer, query):
    response = api("GET", f"/deliveries?{query}", new_customer().key)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_PARAMETER"


def test_one_delivery_is_shown_with_its_attempts(api, pinged_customer):
    customer, _, ids = pinged_customer
    body = api("GET", f"/deliveries/{ids[0]}", customer.key).json()
    assert body["delivery_id"] == ids[0] and len(body["attempts"]) == 1


def test_a_redelivery_sends_the_same_event_again_in_a_new_cycle(api, pinged_customer):
    customer, receiver, ids = pinged_customer
    response = api("POST", f"/deliveries/{ids[0]}/redeliver", customer.key)
    assert response.status_code == 202
    assert response.json()["status"] == "pending" and response.json()["finished_at"] is None
    assert wait_for_delivery(ids[0]).status == DELIVERED
    [before, again] = [r for r in receiver.requests if r.headers["Webhook-Id"] == ids[0]]
    assert again.body == before.body
    assert [(a.cycle, a.number) for a in attempts_of(ids[0])] == [(1, 1), (2, 1)]


def test_a_delivery_still_being_attempted_is_not_redelivered(api, new_customer):
    customer = new_customer(url=f"http://127.0.0.1:{closed_loopback_port()}/hooks")
    delivery = queue_ping(customer.account)
    response = api("POST", f"/deliveries/{delivery.id}/redeliver", customer.key)
    assert response.status_code == 409
    assert response.json()["code"] == "DELIVERY_IN_PROGRESS"


def test_another_accounts_delivery_is_not_found(api, new_customer, pinged_customer):
    _, receiver, ids = pinged_customer
    stranger = new_customer()
    for method, path in (
        ("GET", f"/deliveries/{ids[0]}"),
        ("POST", f"/deliveries/{ids[0]}/redeliver"),
    ):
        response = api(method, path, stranger.key)
        assert response.status_code == 404, path
        assert response.json()["code"] == "DELIVERY_NOT_FOUND"
    for method, path in (("GET", "/deliveries/whd_%00"), ("POST", "/deliveries/%00/redeliver")):
        assert api(method, path, stranger.key).status_code == 404, path
    assert api("GET", "/deliveries", stranger.key).json()["deliveries"] == []
    assert len(receiver.requests) == 2


def test_a_webhook_url_on_a_plan_without_webhooks_needs_another_plan():
    # The API refuses free keys before any option is read; the dashboard's uploads get here.
    with pytest.raises(RequestError) as refusal:
        check_webhook_option({"webhook_url": "http://127.0.0.1:9/hooks"}, "free", LOOPBACK_ONLY)
    assert (refusal.value.status_code, refusal.value.code) == (403, "PLAN_REQUIRED")


def test_the_openapi_document_describes_the_webhook_endpoints(webhook_service):
    paths = requests.get(f"{webhook_service.url}/api/v1/openapi.json", timeout=10).json()["paths"]
    assert paths["/api/v1/webhooks/deliveries"]["get"]["operationId"] == "listWebhookDeliveries"
    assert "409" in paths["/api/v1/webhooks/deliveries/{deliveryId}/redeliver"]["post"]["responses"]
