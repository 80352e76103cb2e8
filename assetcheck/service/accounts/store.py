"""Accounts and their API keys, as operators (the CLI) and later the dashboard manage them."""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import datetime

import peewee

from assetcheck.service.accounts.keys import (
    KEY_PATTERN,
    KEY_PREFIX,
    PLANS_WITHOUT_API,
    display_prefix,
    generate_key,
    key_digest,
    no_api_access,
)
from assetcheck.service.accounts.passwords import hash_password
from assetcheck.service.db import lock_rows, write_transaction
from assetcheck.service.db.tables import Account, ApiKey, utcnow

EMAIL_PATTERN = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


class AccountError(ValueError):
    """An account or key operation that cannot be done; the message says why."""


def create_account(
    email: str,
    plan: str,
    plans: Collection[str],
    password: str | None = None,
    *,
    password_hash: str | None = None,
) -> Account:
    """A new account on ``plan`` (one of ``plans``), with an optional dashboard password (or
    its hash, when the caller made it already)."""
    email = email.strip().lower()
    if not EMAIL_PATTERN.fullmatch(email):
        raise AccountError(f"{email!r} is not an email address")
    if plan not in plans:
        raise AccountError(f"unknown plan {plan!r}: choose one of {', '.join(plans)}")
    if password and password_hash is None:
        password_hash = hash_password(password)
    try:
        return Account.create(email=email, plan=plan, password_hash=password_hash)
    except peewee.IntegrityError:
        raise AccountError(f"an account for {email} already exists") from None


def find_account(email: str) -> Account:
    account = Account.get_or_none(Account.email == email.strip().lower())
    if account is None:
        raise AccountError(f"no account for {email}")
    return account


def issue_key(
    account: Account,
    name: str = "",
    expires_at: datetime | None = None,
    *,
    max_active: int | None = None,
) -> tuple[ApiKey, str]:
    """A new key for ``account``: the stored row and the key itself, which is shown only once.

    An account whose plan has no API access (its keys would only ever get 403) gets an
    :class:`AccountError` stating the plan rule. With ``max_active`` (``[accounts]
    max_active_keys``), an account that already has that many active keys gets one too; the
    count is taken under the account's row lock, so concurrent requests cannot pass the limit
    together.
    """
    if account.plan in PLANS_WITHOUT_API:
        raise AccountError(no_api_access(account.plan))
    with write_transaction(Account._meta.database):
        if max_active is not None:
            lock_rows(Account.select(Account.id).where(Account.id == account.id)).execute()
            active = active_key_count(account)
            if active >= max_active:
                raise AccountError(
                    f"{account.email} already has {active} active API keys, the "
                    f"most an account may have: revoke one it no longer needs "
                    f"first"
                )
        key = generate_key()
        row = ApiKey.create(
            account=account,
            digest=key_digest(key),
            prefix=display_prefix(key),
            name=name,
            expires_at=expires_at,
        )
    return row, key


def active_key_count(account: Account, now: datetime | None = None) -> int:
    """How many of the account's keys are neither revoked nor expired."""
    now = now or utcnow()
    return (
        ApiKey.select()
        .where(
            ApiKey.account == account.id,
            ApiKey.revoked_at.is_null(),
            ApiKey.expires_at.is_null() | (ApiKey.expires_at > now),
        )
        .count()
    )


def account_keys(account: Account) -> list[ApiKey]:
    return list(account.api_keys.order_by(ApiKey.created_at, ApiKey.id))


def find_key(reference: str) -> ApiKey:
    """The key named by its id, the key itself, or the start of its display prefix."""
    reference = reference.strip()
    if reference.isdigit():
        matches = list(ApiKey.select().where(ApiKey.id == int(reference)))
    elif KEY_PATTERN.fullmatch(reference):
        matches = list(ApiKey.select().where(ApiKey.digest == key_digest(reference)))
    elif reference.startswith(KEY_PREFIX) and len(reference) > len(KEY_PREFIX):
        start = display_prefix(reference)
        matches = list(
            ApiKey.select().where(peewee.fn.SUBSTR(ApiKey.prefix, 1, len(start)) == start)
        )
    else:
        raise AccountError(f"{reference!r} is neither a key id nor a key prefix (svc_...)")
    if not matches:
        raise AccountError(f"no API key matches {reference!r}")
    if len(matches) > 1:
        ids = ", ".join(str(key.id) for key in matches)
        raise AccountError(f"{reference!r} matches several keys (ids {ids}): give the id")
    return matches[0]


def revoke_key(key: ApiKey) -> bool:
    """Revoke ``key``; False when it already was."""
    return (
        ApiKey.update(revoked_at=utcnow())
        .where(ApiKey.id == key.id, ApiKey.revoked_at.is_null())
        .execute()
        == 1
    )


def key_status(key: ApiKey, now: datetime | None = None) -> str:
    """``active``, ``revoked`` or ``expired``."""
    if key.revoked_at is not None:
        return "revoked"
    if key.expires_at is not None and key.expires_at <= (now or utcnow()):
        return "expired"
    return "active"
