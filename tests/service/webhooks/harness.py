"""Outbox tests' helpers: webhook config scaled down for tests, customers (an account with a key
and a webhook URL), and waiting on deliveries in the database."""

from __future__ import annotations

import secrets
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from assetcheck.config.settings import Config
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Account, WebhookAttempt, WebhookDelivery
from assetcheck.service.webapp.server_secret import load_server_secret
from assetcheck.service.webhooks.outbox import FINISHED
from assetcheck.service.webhooks.secret_box import SecretBox
from assetcheck.service.webhooks.settings import reveal_secret, set_webhook_url
from tests.service.harness import wait_until

#: The interface's delays (0, 1 min, 5 min, 30 min, 2 h) scaled down to under a second.
SCALED_DELAYS = [0, 0.2, 0.4, 0.6, 0.8]
LOOPBACK_ONLY = ["127.0.0.1/32"]
#: Long enough that a loaded machine answers in time: tests that count attempts must never
#: see a slow answer taken for a failure.
TIMEOUT = 2.0


def webhook_settings(**overrides: Any) -> dict[str, Any]:
    """``[webhooks]`` for a test service: scaled delays, a short timeout, frequent polls,
    receivers on 127.0.0.1 allowed."""
    return {
        "retry_delays": SCALED_DELAYS,
        "timeout": TIMEOUT,
        "allowed_cidrs": LOOPBACK_ONLY,
        "poll_interval": 0.05,
        **overrides,
    }


@dataclass(frozen=True)
class Customer:
    """An account with an API key and, when given a URL, a default webhook URL; ``box`` is
    the service's, which seals its webhook secret."""

    account: Account
    key: str
    box: SecretBox

    @property
    def secret(self) -> str:
        return reveal_secret(self.account, self.box)


def make_customer(config: Config, url: str | None = None, plan: str = "pro") -> Customer:
    account = create_account(f"{secrets.token_hex(6)}@example.com", plan, list(config.plans))
    box = SecretBox(load_server_secret(config))
    if url is not None:
        set_webhook_url(account, url, box, LOOPBACK_ONLY)
    return Customer(account, issue_key(account, "test")[1], box)


def wait_for_delivery(
    delivery_id: str, statuses: Collection[str] = FINISHED, timeout: float = 30.0
) -> WebhookDelivery:
    """The delivery once its status is one of ``statuses`` (or as it is at the timeout)."""
    wait_until(lambda: WebhookDelivery.get_by_id(delivery_id).status in statuses, timeout)
    return WebhookDelivery.get_by_id(delivery_id)


def delivery_of_job(job_id: str, timeout: float = 30.0) -> WebhookDelivery:
    """The delivery of a job, once the job has ended and it is delivered or abandoned."""
    delivery = wait_until(
        lambda: WebhookDelivery.get_or_none(WebhookDelivery.job == job_id), timeout
    )
    assert delivery is not None, f"job {job_id} queued no webhook"
    return wait_for_delivery(delivery.id, timeout=timeout)


def attempts_of(delivery_id: str) -> list[WebhookAttempt]:
    return list(
        WebhookAttempt.select()
        .where(WebhookAttempt.delivery == delivery_id)
        .order_by(WebhookAttempt.id)
    )
