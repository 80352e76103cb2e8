"""An account's webhook settings: its default URL and its signing secret, as the CLI and the
dashboard manage them.

The secret is made the first time it is needed (shown, set up a URL, or a delivery is queued)
and kept in the account row: signing needs it in clear, so it is never logged and only its
owner sees it. Rotating it keeps the previous secret for :data:`ROTATION_WINDOW`, during which
``webhook-signature`` carries a signature with each, so receivers can switch without missing
a delivery.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from assetcheck.db.tables import Account, utcnow
from assetcheck.webhooks.signing import new_secret
from assetcheck.webhooks.urls import HostResolver, check_webhook_url

#: Plans without webhooks: the dashboard is all they get.
PLANS_WITHOUT_WEBHOOKS = frozenset({"free"})

#: How long the previous secret still signs deliveries after a rotation.
ROTATION_WINDOW = timedelta(hours=24)


class WebhookPlanError(ValueError):
    """The account's plan has no webhooks."""

    code = "PLAN_REQUIRED"


def has_webhooks(plan: str) -> bool:
    return plan not in PLANS_WITHOUT_WEBHOOKS


def require_webhooks(account: Account) -> None:
    """Raise :class:`WebhookPlanError` unless the account's plan includes webhooks."""
    if not has_webhooks(account.plan):
        raise WebhookPlanError(f"the {account.plan} plan has no webhooks: they need the "
                               "starter, pro or enterprise plan")


def set_webhook_url(account: Account, url: str, allowed_cidrs: Iterable[str] = (),
                    resolver: HostResolver | None = None) -> str:
    """Make ``url`` the default webhook URL of the account's jobs; returns its secret.

    The URL goes through the address guard first (it resolves the host, so it blocks: call it
    off the event loop); a refusal raises :class:`~assetcheck.webhooks.urls.WebhookUrlError`,
    a free plan :class:`WebhookPlanError`.
    """
    require_webhooks(account)
    check_webhook_url(url, allowed_cidrs, resolver)
    Account.update(webhook_url=url).where(Account.id == account.id).execute()
    account.webhook_url = url
    return reveal_secret(account)


def clear_webhook_url(account: Account) -> None:
    """Remove the default URL: jobs without their own ``webhook_url`` send no webhook."""
    Account.update(webhook_url=None).where(Account.id == account.id).execute()
    account.webhook_url = None


def reveal_secret(account: Account) -> str:
    """The account's signing secret, made now if it has none yet."""
    if account.webhook_secret is None:
        # Two first uses at once both try; the guard keeps the first secret written.
        Account.update(webhook_secret=new_secret()).where(
            Account.id == account.id, Account.webhook_secret.is_null()).execute()
        account.webhook_secret = Account.get_by_id(account.id).webhook_secret
    return account.webhook_secret


def rotate_secret(account: Account, now: datetime | None = None) -> str:
    """Replace the secret with a new one, which is returned; the old one keeps signing too
    until :data:`ROTATION_WINDOW` has passed. A second rotation within the window drops the
    secret the first one replaced."""
    secret = new_secret()
    now = now or utcnow()
    Account.update(webhook_secret=secret, webhook_previous_secret=Account.webhook_secret,
                   webhook_secret_rotated_at=now).where(Account.id == account.id).execute()
    stored = Account.get_by_id(account.id)
    account.webhook_secret = stored.webhook_secret
    account.webhook_previous_secret = stored.webhook_previous_secret
    account.webhook_secret_rotated_at = stored.webhook_secret_rotated_at
    return secret


def rotation_ends_at(account: Account, now: datetime | None = None) -> datetime | None:
    """When the previous secret stops signing, or None when no rotation window is open."""
    if account.webhook_previous_secret is None or account.webhook_secret_rotated_at is None:
        return None
    ends = account.webhook_secret_rotated_at + ROTATION_WINDOW
    return ends if ends > (now or utcnow()) else None


def signing_secrets(account: Account, now: datetime | None = None) -> tuple[str, str | None]:
    """The secret to sign with and, during a rotation window, the previous one."""
    previous = account.webhook_previous_secret if rotation_ends_at(account, now) else None
    return reveal_secret(account), previous
