"""``/api/v1/webhooks/deliveries``: the account's webhook deliveries with their attempts, and
redelivery. Another account's delivery is 404, like one that does not exist."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import Any

from assetcheck.service.api.handlers.base import ApiHandler
from assetcheck.service.db.tables import Account, WebhookDelivery, iso
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import decode_cursor, encode_cursor, parse_list_query
from assetcheck.service.webhooks.outbox import (
    DeliveryError,
    find_delivery,
    list_deliveries,
    redeliver,
)


def delivery_body(delivery: WebhookDelivery, default_url: str | None) -> dict[str, Any]:
    """A delivery as the API shows it; ``url`` is where its next attempt goes (the account's
    ``default_url`` unless the job named its own)."""
    return {
        "delivery_id": delivery.id,
        "event": delivery.event,
        "job_id": delivery.job_id,
        "url": delivery.url or default_url,
        "status": delivery.status,
        "created_at": iso(delivery.created_at),
        "next_attempt_at": iso(delivery.next_attempt_at),
        "finished_at": iso(delivery.finished_at),
        "attempts": [
            {
                "cycle": attempt.cycle,
                "number": attempt.number,
                "started_at": iso(attempt.started_at),
                "status_code": attempt.status_code,
                "error": attempt.error,
                "duration_ms": attempt.duration_ms,
            }
            for attempt in delivery.attempts
        ],
    }


class DeliveriesHandler(ApiHandler):
    """GET: a page of the account's deliveries, newest first (``limit``, ``cursor``)."""

    async def get(self) -> None:
        _, limit = parse_list_query(None, self.get_query_argument("limit", None))
        cursor = self.get_query_argument("cursor", None)
        after = decode_cursor(cursor) if cursor else None  # empty: the first page
        self.write_json(await self.run_blocking(_page, self.principal.account_id, limit, after))


class DeliveryHandler(ApiHandler):
    """GET one delivery with its attempts."""

    async def get(self, delivery_id: str) -> None:
        self.write_json(
            await self.run_blocking(_answer, find_delivery, self.principal.account_id, delivery_id)
        )


class RedeliverHandler(ApiHandler):
    """POST: a new cycle of attempts for a delivered or abandoned delivery (202); 429
    TOO_MANY_PENDING_DELIVERIES while the account has ``[webhooks] max_pending_per_account``
    deliveries waiting."""

    async def post(self, delivery_id: str) -> None:
        action = partial(redeliver, max_pending=self.config.webhooks.max_pending_per_account)
        self.write_json(
            await self.run_blocking(_answer, action, self.principal.account_id, delivery_id), 202
        )


def _page(account_id: int, limit: int, after: tuple[datetime, str] | None) -> dict[str, Any]:
    deliveries, following = list_deliveries(account_id, limit=limit, after=after)
    default_url = Account.get_by_id(account_id).webhook_url
    return {
        "deliveries": [delivery_body(delivery, default_url) for delivery in deliveries],
        "next_cursor": None if following is None else encode_cursor(*following),
    }


def _answer(
    action: Callable[[int, str], WebhookDelivery], account_id: int, delivery_id: str
) -> dict[str, Any]:
    try:
        delivery = action(account_id, delivery_id)
    except DeliveryError as error:
        raise RequestError(error.status, error.code, str(error)) from None
    return delivery_body(delivery, Account.get_by_id(account_id).webhook_url)


default_handlers = [
    (r"/api/v1/webhooks/deliveries", DeliveriesHandler),
    (r"/api/v1/webhooks/deliveries/([^/]+)", DeliveryHandler),
    (r"/api/v1/webhooks/deliveries/([^/]+)/redeliver", RedeliverHandler),
]
