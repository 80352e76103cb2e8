"""Webhook secrets and the signature headers of a delivery attempt.

One secret per account, ``whsec_`` followed by 32 alphanumerics, signs two schemes:

- ``X-Service-Signature`` (``docs/webhooks.md``, Headers): hex HMAC-SHA256 of the body bytes,
  keyed with the secret exactly as shown to the user, ``whsec_`` prefix included, as ASCII
  bytes. This is what a receiver written from the interface alone does with the secret it copied.
- Standard Webhooks (``webhook-id``, ``webhook-timestamp``, ``webhook-signature``): the key is
  the base64 decoding of the text after ``whsec_``, as that specification and its libraries
  derive it. 32 alphanumerics are valid unpadded base64 and decode to 24 bytes, the
  specification's minimum key size, so ``standardwebhooks.Webhook(secret)`` verifies as is.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import string
import time

SECRET_PREFIX = "whsec_"
SECRET_LENGTH = 32
SECRET_ALPHABET = string.ascii_letters + string.digits

SERVICE_SIGNATURE_HEADER = "X-Service-Signature"
WEBHOOK_ID_HEADER = "webhook-id"
WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp"
WEBHOOK_SIGNATURE_HEADER = "webhook-signature"


def new_secret() -> str:
    """A fresh account secret: ``whsec_`` + 32 alphanumerics (about 190 bits) from ``secrets``."""
    return SECRET_PREFIX + "".join(secrets.choice(SECRET_ALPHABET) for _ in range(SECRET_LENGTH))


def service_signature(body: bytes, secret: str) -> str:
    """The ``X-Service-Signature`` value: hex HMAC-SHA256 of ``body`` keyed with the whole
    secret string."""
    return hmac.new(secret.encode("ascii"), body, hashlib.sha256).hexdigest()


def standard_signature(body: bytes, secret: str, *, message_id: str, timestamp: int) -> str:
    """One Standard Webhooks signature, ``v1,<base64 HMAC-SHA256 of "id.timestamp.body">``."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    digest = hmac.new(_standard_key(secret), signed, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def signature_headers(
    body: bytes,
    *,
    delivery_id: str,
    secret: str,
    previous_secret: str | None = None,
    timestamp: int | None = None,
) -> dict[str, str]:
    """The signature headers of one attempt to send ``body``.

    ``delivery_id`` becomes ``webhook-id`` and must stay the same across retries, so receivers
    can dedupe; ``timestamp`` (unix seconds, default now) must be fresh for every attempt, since
    Standard Webhooks receivers refuse messages older than a few minutes. During a rotation
    window pass the old secret as ``previous_secret``: ``webhook-signature`` then carries both
    signatures, newest first, while ``X-Service-Signature`` (room for one) uses the new secret.
    """
    sent_at = int(time.time()) if timestamp is None else timestamp
    keys = [secret] if previous_secret is None else [secret, previous_secret]
    return {
        SERVICE_SIGNATURE_HEADER: service_signature(body, secret),
        WEBHOOK_ID_HEADER: delivery_id,
        WEBHOOK_TIMESTAMP_HEADER: str(sent_at),
        WEBHOOK_SIGNATURE_HEADER: " ".join(
            standard_signature(body, key, message_id=delivery_id, timestamp=sent_at) for key in keys
        ),
    }


def _standard_key(secret: str) -> bytes:
    encoded = secret.removeprefix(SECRET_PREFIX)
    try:
        key = base64.b64decode(encoded, validate=True)
    except ValueError:  # binascii.Error, or non-ASCII text
        key = b""
    if not key:
        raise ValueError(
            f"a webhook secret is {SECRET_PREFIX!r} followed by base64 text, "
            f"such as {SECRET_LENGTH} alphanumerics"
        )
    return key
