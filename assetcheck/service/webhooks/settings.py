"""An account's webhook settings: its default URL and its signing secret, as the CLI and the
dashboard manage them.

The secret is made the first time it is needed (shown, set up a URL, or a delivery is queued)
and kept in the account row sealed by a :class:`~assetcheck.service.webhooks.secret_box.SecretBox`:
it is opened only to sign a delivery or to show it to its owner, and never logged. Rotating it
keeps the previous secret for :data:`ROTATION_WINDOW`, during which ``webhook-signature``
carries a signature with each, so receivers can switch without missing a delivery.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import cast

from assetcheck.service.db.tables import Account, utcnow
from assetcheck.service.webhooks.secret_box import SecretBox, SecretUnreadable
from assetcheck.service.webhooks.signing import new_secret
from assetcheck.service.webhooks.urls import HostResolver, check_webhook_url

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
        raise WebhookPlanError(
            f"the {account.plan} plan has no webhooks: they need the "
            "starter, pro or enterprise plan"
        )


def set_webhook_url(
    account: Account,
    url: str,
    box: SecretBox,
    allowed_cidrs: Iterable[str] = (),
    resolver: HostResolver | None = None,
) -> str:
    """Make ``url`` the default webhook URL of the account's jobs; returns its secret.

    The URL goes through the address guard first (it resolves the host, so it blocks: call it
    off the event loop); a refusal raises
    :class:`~assetcheck.service.webhooks.urls.WebhookUrlError`,
    a free plan :class:`WebhookPlanError`.
    """
    require_webhooks(account)
    check_webhook_url(url, allowed_cidrs, resolver)
    Account.update(webhook_url=url).where(Account.id == account.id).execute()
    account.webhook_url = url
    return reveal_secret(account, box)


def clear_webhook_url(account: Account) -> None:
    """Remove the default URL: jobs without their own ``webhook_url`` send no webhook."""
    Account.update(webhook_url=None).where(Account.id == account.id).execute()
    account.webhook_url = None


def reveal_secret(account: Account, box: SecretBox) -> str:
    """The account's signing secret, made (and stored sealed) now if it has none yet.

    Raises :class:`~assetcheck.service.webhooks.secret_box.SecretUnreadable` when the stored secret
    was sealed under another server secret: :func:`rotate_secret` then makes a new one.
    """
    if account.webhook_secret_sealed is None:
        # Two first uses at once both try; the guard keeps the first secret written.
        Account.update(webhook_secret_sealed=box.seal(new_secret(), account.id)).where(
            Account.id == account.id, Account.webhook_secret_sealed.is_null()
        ).execute()
        stored = Account.get_by_id(account.id).webhook_secret_sealed
        # Set just above, by this call or a first use beside it; nothing clears it.
        account.webhook_secret_sealed = cast(str, stored)
    return box.open(account.webhook_secret_sealed, account.id)


def rotate_secret(account: Account, box: SecretBox, now: datetime | None = None) -> str:
    """Replace the secret with a new one, which is returned; the old one keeps signing too
    until :data:`ROTATION_WINDOW` has passed. A second rotation within the window drops the
    secret the first one replaced; so does a rotation of a secret this server secret cannot
    open (after the server secret changed), since it could sign nothing."""
    secret = new_secret()
    now = now or utcnow()
    previous = Account.webhook_secret_sealed if _opens(account, box) else None
    Account.update(
        webhook_secret_sealed=box.seal(secret, account.id),
        webhook_previous_secret_sealed=previous,
        webhook_secret_rotated_at=now,
    ).where(Account.id == account.id).execute()
    stored = Account.get_by_id(account.id)
    account.webhook_secret_sealed = stored.webhook_secret_sealed
    account.webhook_previous_secret_sealed = stored.webhook_previous_secret_sealed
    account.webhook_secret_rotated_at = stored.webhook_secret_rotated_at
    return secret


def rotation_ends_at(account: Account, now: datetime | None = None) -> datetime | None:
    """When the previous secret stops signing, or None when no rotation window is open."""
    if account.webhook_previous_secret_sealed is None or account.webhook_secret_rotated_at is None:
        return None
    ends = account.webhook_secret_rotated_at + ROTATION_WINDOW
    return ends if ends > (now or utcnow()) else None


def signing_secrets(
    account: Account, box: SecretBox, now: datetime | None = None
) -> tuple[str, str | None]:
    """The secret to sign with and, during a rotation window, the previous one, both opened for this
    one signature (:class:`~assetcheck.service.webhooks.secret_box.SecretUnreadable` when the
    current one does not open; a previous one that does not open is left out)."""
    current = reveal_secret(account, box)
    previous = account.webhook_previous_secret_sealed
    if previous is None or not rotation_ends_at(account, now):
        return current, None
    try:
        return current, box.open(previous, account.id)
    except SecretUnreadable:
        return current, None


def _opens(account: Account, box: SecretBox) -> bool:
    """Whether the account's stored secret opens with ``box`` (False when it has none)."""
    if account.webhook_secret_sealed is None:
        return False
    try:
        box.open(account.webhook_secret_sealed, account.id)
    except SecretUnreadable:
        return False
    return True
