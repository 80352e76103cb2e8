"""``/api/v1/webhooks/settings`` on a running service: an integrator reads and sets the default
URL and rotates the secret with an API key, as an operator does with the CLI."""

from __future__ import annotations

import pytest
import requests
from standardwebhooks import Webhook

from assetcheck.service.db.tables import Account
from assetcheck.service.webhooks.outbox import queue_ping
from tests.service.harness import bearer
from tests.service.webhooks.harness import wait_for_delivery
from tests.service.webhooks.receivers import ScriptedReceiver


@pytest.fixture
def settings_api(webhook_service):
    """``settings_api(method, key, path="", **request_options)``: a request to the settings."""

    def call(method: str, key: str, path: str = "", **options) -> requests.Response:
        return requests.request(
            method,
            f"{webhook_service.url}/api/v1/webhooks/settings{path}",
            headers=bearer(key),
            timeout=10,
            **options,
        )

    return call


def test_get_shows_the_url_and_the_secret(settings_api, new_customer):
    customer = new_customer()
    response = settings_api("GET", customer.key)
    assert response.status_code == 200
    assert response.json() == {
        "webhook_url": None,
        "secret": customer.secret,
        "previous_secret_expires_at": None,
    }


def test_put_sets_the_default_url_that_deliveries_then_use(settings_api, new_customer, serve):
    customer = new_customer()
    receiver = ScriptedReceiver([200])
    url = serve(receiver).url
    response = settings_api("PUT", customer.key, json={"webhook_url": url})
    assert response.status_code == 200 and response.json()["webhook_url"] == url
    delivery = wait_for_delivery(queue_ping(Account.get_by_id(customer.account.id)).id)
    assert delivery.status == "delivered" and len(receiver.requests) == 1


def test_put_null_removes_the_url(settings_api, new_customer, serve):
    customer = new_customer(url=serve(ScriptedReceiver([200])).url)
    response = settings_api("PUT", customer.key, json={"webhook_url": None})
    assert response.status_code == 200 and response.json()["webhook_url"] is None
    assert Account.get_by_id(customer.account.id).webhook_url is None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"webhook_url": "http://10.0.0.1/hook"}, "INVALID_WEBHOOK_URL"),
        ({"webhook_url": "ftp://example.com/"}, "INVALID_WEBHOOK_URL"),
        ({"url": "https://example.com/"}, "INVALID_BODY"),
        ([], "INVALID_BODY"),
    ],
)
def test_put_refuses_a_url_the_address_guard_refuses_and_a_malformed_body(
    settings_api, new_customer, body, code
):
    customer = new_customer()
    response = settings_api("PUT", customer.key, json=body)
    assert response.status_code == 400 and response.json()["code"] == code
    assert Account.get_by_id(customer.account.id).webhook_url is None


NESTED = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize(
    "body",
    [NESTED, '{"webhook_url": ' + NESTED + "}", '{"webhook_url": NaN}', "{not json", b'"\xff"'],
    ids=["nested", "nested-value", "nan", "malformed", "not-utf8"],
)
def test_put_answers_400_invalid_body_to_a_body_nested_too_deeply_or_malformed(
    settings_api, new_customer, body
):
    customer = new_customer()
    response = settings_api("PUT", customer.key, data=body)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_BODY"
    assert response.json()["error"].startswith("The body ")


def test_rotation_returns_the_new_secret_and_both_secrets_sign_for_a_day(
    settings_api, new_customer, serve
):
    receiver = ScriptedReceiver([200])
    customer = new_customer(url=serve(receiver).url)
    old = customer.secret
    response = settings_api("POST", customer.key, "/rotate-secret")
    body = response.json()
    assert response.status_code == 200
    assert body["secret"] != old and body["previous_secret_expires_at"].endswith("Z")
    assert settings_api("GET", customer.key).json() == body
    wait_for_delivery(queue_ping(Account.get_by_id(customer.account.id)).id)
    [request] = receiver.requests
    headers = {name.lower(): value for name, value in request.headers.items()}
    for secret in (body["secret"], old):
        assert Webhook(secret).verify(request.body, headers)["event"] == "ping"
