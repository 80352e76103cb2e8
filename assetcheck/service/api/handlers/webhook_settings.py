"""``/api/v1/webhooks/settings``: the account's default webhook URL and signing secret, read and
set through the API, and the secret's rotation; the same functions as the CLI and dashboard."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from assetcheck.service.api.handlers.base import ApiHandler
from assetcheck.service.db.tables import Account, iso
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.json_input import JsonInputError, parse_json
from assetcheck.service.webhooks.secret_box import SecretBox
from assetcheck.service.webhooks.settings import (
    WebhookPlanError,
    clear_webhook_url,
    require_webhooks,
    reveal_secret,
    rotate_secret,
    rotation_ends_at,
    set_webhook_url,
)
from assetcheck.service.webhooks.urls import WebhookUrlError


def settings_body(account: Account, box: SecretBox) -> dict[str, Any]:
    """The settings as the API shows them: the URL (null: none), the secret (made on first
    use) and, during a rotation, when the previous secret stops signing."""
    return {
        "webhook_url": account.webhook_url,
        "secret": reveal_secret(account, box),
        "previous_secret_expires_at": iso(rotation_ends_at(account)),
    }


def parse_settings(raw: bytes) -> str | None:
    """The ``webhook_url`` of a PUT body: a JSON object whose only key is ``webhook_url``, a
    string or null (null removes the URL). Anything else is 400 ``INVALID_BODY``, saying why
    when the body is not JSON the service reads
    (:func:`~assetcheck.service.webapp.json_input.parse_json`).
    """
    try:
        body = parse_json(raw or b"null", "The body")
    except JsonInputError as error:
        raise RequestError(400, "INVALID_BODY", str(error)) from None
    if (
        not isinstance(body, dict)
        or set(body) != {"webhook_url"}
        or not isinstance(body["webhook_url"], str | None)
    ):
        raise RequestError(
            400,
            "INVALID_BODY",
            'The body must be a JSON object {"webhook_url": "https://..."} (null removes the URL).',
        )
    return body["webhook_url"]


class WebhookSettingsHandler(ApiHandler):
    """GET the settings; PUT ``{"webhook_url": ...}`` to set (address guard) or remove the URL."""

    async def get(self) -> None:
        self.write_json(
            await self.run_blocking(_settings, self.principal.account_id, self.secret_box)
        )

    async def put(self) -> None:
        url = parse_settings(self.request.body)
        self.write_json(
            await self.run_blocking(
                _set_url,
                self.principal.account_id,
                url,
                self.secret_box,
                self.config.webhooks.allowed_cidrs,
            )
        )


class RotateSecretHandler(ApiHandler):
    """POST: a new secret; the previous one also signs for 24 hours (``docs/webhooks.md``)."""

    async def post(self) -> None:
        self.write_json(
            await self.run_blocking(_rotate, self.principal.account_id, self.secret_box)
        )


def _account(account_id: int) -> Account:
    account = Account.get_by_id(account_id)
    try:
        require_webhooks(account)
    except WebhookPlanError as error:
        raise RequestError(403, error.code, str(error)) from None
    return account


def _settings(account_id: int, box: SecretBox) -> dict[str, Any]:
    return settings_body(_account(account_id), box)


def _set_url(
    account_id: int, url: str | None, box: SecretBox, allowed_cidrs: Iterable[str]
) -> dict[str, Any]:
    account = _account(account_id)
    if url is None:
        clear_webhook_url(account)
    else:
        try:
            set_webhook_url(account, url, box, allowed_cidrs)
        except WebhookUrlError as error:
            raise RequestError(400, error.code, str(error)) from None
    return settings_body(account, box)


def _rotate(account_id: int, box: SecretBox) -> dict[str, Any]:
    account = _account(account_id)
    rotate_secret(account, box)
    return settings_body(account, box)


default_handlers = [
    (r"/api/v1/webhooks/settings", WebhookSettingsHandler),
    (r"/api/v1/webhooks/settings/rotate-secret", RotateSecretHandler),
]
