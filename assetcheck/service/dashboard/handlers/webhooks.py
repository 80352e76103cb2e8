"""Webhook settings: the default URL, the signing secret, a test event, the delivery log.

Every change goes through the functions the CLI and the API use
(:mod:`assetcheck.service.webhooks.settings`, :mod:`assetcheck.service.webhooks.outbox`). The secret
is not in the page: the script asks for it when the account holder presses "Reveal". Plans without
webhooks see why, and no controls.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import tornado.web

from assetcheck.service.dashboard.handlers.base import DashboardHandler, DashboardJsonHandler
from assetcheck.service.db.tables import WebhookDelivery
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import decode_cursor, encode_cursor
from assetcheck.service.webhooks.outbox import (
    FINISHED,
    DeliveryError,
    list_deliveries,
    queue_ping,
    redeliver,
)
from assetcheck.service.webhooks.secret_box import SecretUnreadable
from assetcheck.service.webhooks.settings import (
    ROTATION_WINDOW,
    clear_webhook_url,
    has_webhooks,
    reveal_secret,
    rotate_secret,
    rotation_ends_at,
    set_webhook_url,
)
from assetcheck.service.webhooks.urls import WebhookUrlError

DELIVERIES_PER_PAGE = 20
#: Confirmations after a redirect, by the code in ``?done=``: no text comes from the URL.
NOTICES = {
    "saved": "The webhook URL was saved: jobs without their own URL report to it.",
    "removed": "The webhook URL was removed: jobs without their own URL send no webhook.",
    "rotated": "The secret was rotated: deliveries are signed with both secrets until the "
    "time below, then with the new one only.",
    "test": "A test event (ping) is on its way: it appears in the delivery log below.",
    "redelivered": "The delivery was queued again: a new round of attempts starts now.",
}


class WebhooksPage(DashboardHandler):
    """What the webhook handlers share: the page, and the plan check of every change."""

    async def render_settings(self, status: int = 200, /, **context: Any) -> None:
        account = self.logged_in_account
        enabled = has_webhooks(account.plan)
        deliveries: list[WebhookDelivery] = []
        after = None
        if enabled:
            cursor = self.get_query_argument("cursor", None)
            deliveries, after = await self.run_blocking(
                partial(
                    list_deliveries,
                    account.id,
                    limit=DELIVERIES_PER_PAGE,
                    after=decode_cursor(cursor) if cursor else None,
                )
            )
        context.setdefault("errors", {})
        context.setdefault("url_value", account.webhook_url or "")
        self.render_page(
            "webhooks.html",
            status,
            webhooks_enabled=enabled,
            deliveries=deliveries,
            next_cursor=encode_cursor(*after) if after else None,
            finished=FINISHED,
            rotation_ends=rotation_ends_at(account),
            rotation_hours=_hours(ROTATION_WINDOW),
            notice=NOTICES.get(self.get_query_argument("done", "")),
            **context,
        )

    def require_webhooks(self) -> None:
        if not has_webhooks(self.logged_in_account.plan):
            raise plan_required()

    @property
    def max_pending(self) -> int:
        """Unfinished deliveries past which a test event or a redelivery is refused."""
        return self.config.webhooks.max_pending_per_account


class WebhookSettingsHandler(WebhooksPage):
    @tornado.web.authenticated
    async def get(self) -> None:
        await self.render_settings()


class WebhookUrlHandler(WebhooksPage):
    """Save the default URL (checked by the address guard, which resolves its host), or
    remove it."""

    @tornado.web.authenticated
    async def post(self) -> None:
        self.require_webhooks()
        url = self.get_body_argument("webhook_url", "").strip()
        if self.get_body_argument("action", "save") == "remove":
            await self.run_blocking(clear_webhook_url, self.logged_in_account)
            self.redirect("/settings/webhooks?done=removed")
            return
        try:
            await self.run_blocking(
                set_webhook_url,
                self.logged_in_account,
                url,
                self.secret_box,
                self.config.webhooks.allowed_cidrs,
            )
        except WebhookUrlError as error:
            await self.render_settings(400, errors={"webhook_url": str(error)}, url_value=url)
            return
        self.redirect("/settings/webhooks?done=saved")


class WebhookSecretHandler(DashboardJsonHandler):
    """POST: the signing secret, for the page's "Reveal" button (made on first use); 409
    WEBHOOK_SECRET_UNREADABLE when it was sealed under another server secret."""

    async def post(self) -> None:
        account = self.logged_in_account
        if not has_webhooks(account.plan):
            raise plan_required()
        try:
            secret = await self.run_blocking(reveal_secret, account, self.secret_box)
        except SecretUnreadable as error:
            raise RequestError(409, "WEBHOOK_SECRET_UNREADABLE", str(error)) from None
        self.write_json({"secret": secret})


class RotateSecretHandler(WebhooksPage):
    @tornado.web.authenticated
    async def post(self) -> None:
        self.require_webhooks()
        await self.run_blocking(rotate_secret, self.logged_in_account, self.secret_box)
        self.redirect("/settings/webhooks?done=rotated")


class TestEventHandler(WebhooksPage):
    """Queue a ``ping`` to the default URL; it shows up in the delivery log. Refused, saying
    why next to the button, without a URL (400) or with too many deliveries waiting (429)."""

    @tornado.web.authenticated
    async def post(self) -> None:
        self.require_webhooks()
        try:
            await self.run_blocking(queue_ping, self.logged_in_account, self.max_pending)
        except DeliveryError as error:
            await self.render_settings(error.status, errors={"test": str(error)})
            return
        self.redirect("/settings/webhooks?done=test")


class RedeliverHandler(WebhooksPage):
    """Start a new round of attempts for a delivered or abandoned delivery."""

    @tornado.web.authenticated
    async def post(self, delivery_id: str) -> None:
        self.require_webhooks()
        try:
            await self.run_blocking(
                partial(
                    redeliver, self.logged_in_account.id, delivery_id, max_pending=self.max_pending
                )
            )
        except DeliveryError as error:
            raise RequestError(error.status, error.code, str(error)) from None
        self.redirect("/settings/webhooks?done=redelivered")


def plan_required() -> RequestError:
    return RequestError(
        403, "PLAN_REQUIRED", "Webhooks come with the Starter, Pro and Enterprise plans."
    )


def _hours(window: timedelta) -> int:
    return round(window.total_seconds() / 3600)


default_handlers = [
    (r"/settings/webhooks", WebhookSettingsHandler),
    (r"/settings/webhooks/url", WebhookUrlHandler),
    (r"/settings/webhooks/secret", WebhookSecretHandler),
    (r"/settings/webhooks/secret/rotate", RotateSecretHandler),
    (r"/settings/webhooks/test", TestEventHandler),
    (r"/settings/webhooks/deliveries/([A-Za-z0-9_]+)/redeliver", RedeliverHandler),
]
