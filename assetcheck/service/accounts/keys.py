"""API keys: their format, how they are stored, and authenticating a request with one.

A key is ``svc_`` + 32 characters from ``secrets``. The database keeps only its SHA-256 digest
and a short display prefix, so a dump of it holds no usable key; a lookup hashes the presented
key and looks the digest up. Nothing here logs a key or an ``Authorization`` value.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import string
from dataclasses import dataclass
from datetime import datetime, timedelta

from assetcheck.service.db.tables import Account, ApiKey, utcnow

KEY_PREFIX = "svc_"
KEY_ALPHABET = string.ascii_letters + string.digits
KEY_PATTERN = re.compile(r"svc_[A-Za-z0-9]{32}")
DISPLAY_PREFIX_LENGTH = len(KEY_PREFIX) + 8

#: Plans whose keys the API refuses (403 PLAN_REQUIRED): the dashboard is all they get.
PLANS_WITHOUT_API = frozenset({"free"})

#: ``last_used_at`` is written at most this often per key, not on every request.
TOUCH_INTERVAL = timedelta(seconds=60)


class KeyRefused(Exception):
    """An ``Authorization`` value that authenticates no request: the HTTP ``status`` to answer
    (401, or 403 for a plan without API access), a stable ``code`` and a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def generate_key() -> str:
    return KEY_PREFIX + "".join(secrets.choice(KEY_ALPHABET) for _ in range(32))


def key_digest(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def display_prefix(key: str) -> str:
    """The start of a key, stored to let people tell their keys apart (``svc_Ab12Cd34``)."""
    return key[:DISPLAY_PREFIX_LENGTH]


@dataclass(frozen=True)
class Principal:
    """Who a request acts for: the account behind the key that authenticated it."""

    account_id: int
    plan: str
    key_id: int


def authenticate(authorization: str | None, now: datetime | None = None) -> Principal:
    """The principal of an ``Authorization`` header value, or :class:`KeyRefused`:

    401 MISSING_API_KEY, INVALID_API_KEY, API_KEY_REVOKED or API_KEY_EXPIRED; 403
    PLAN_REQUIRED for a plan without API access.
    """
    if not authorization:
        raise _unauthorized(
            "MISSING_API_KEY",
            "No API key was sent: authenticate with the header `Authorization: Bearer <API_KEY>`.",
        )
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not KEY_PATTERN.fullmatch(token):
        raise _invalid_key()
    key = (
        ApiKey.select(ApiKey, Account)
        .join(Account)
        .where(ApiKey.digest == key_digest(token))
        .first()
    )
    if key is None:
        raise _invalid_key()
    now = now or utcnow()
    if key.revoked_at is not None:
        raise _unauthorized(
            "API_KEY_REVOKED", "This API key has been revoked: create a new key for your account."
        )
    if key.expires_at is not None and key.expires_at <= now:
        raise _unauthorized(
            "API_KEY_EXPIRED",
            f"This API key expired on {key.expires_at:%Y-%m-%d %H:%M} UTC: create a new key.",
        )
    if key.account.plan in PLANS_WITHOUT_API:
        raise KeyRefused(403, "PLAN_REQUIRED", no_api_access(key.account.plan))
    if key.last_used_at is None or now - key.last_used_at >= TOUCH_INTERVAL:
        ApiKey.update(last_used_at=now).where(ApiKey.id == key.id).execute()
    return Principal(account_id=key.account.id, plan=key.account.plan, key_id=key.id)


def _invalid_key() -> KeyRefused:
    return _unauthorized(
        "INVALID_API_KEY",
        "The API key is invalid or malformed: send "
        "`Authorization: Bearer <API_KEY>` with a key created for your account.",
    )


def _unauthorized(code: str, message: str) -> KeyRefused:
    return KeyRefused(401, code, message)


def no_api_access(plan: str) -> str:
    """The plan rule, as every refusal of a plan in :data:`PLANS_WITHOUT_API` words it."""
    return f"The {plan} plan has no API access: API keys need the starter, pro or enterprise plan."
