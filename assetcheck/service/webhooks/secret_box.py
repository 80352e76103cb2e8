"""Webhook secrets at rest (``docs/security.md``, Data at rest): sealed with AES-256-GCM under
a key derived from the server secret, opened only to sign a delivery or to show the secret to
its owner.

The key is HKDF-SHA256 of the server secret (its UTF-8 bytes; no salt) with the info string
:data:`KEY_INFO`, so it is never the key that signs session cookies or badge links. A sealed
value is :data:`SEALED_PREFIX` and the URL-safe base64 of a fresh 12-byte nonce followed by the
ciphertext and its tag; the account's id is the associated data, so a sealed secret copied to
another account's row does not open. Without the server secret, the database alone gives away
no webhook secret; with another server secret, no sealed secret opens (:class:`SecretUnreadable`).
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_INFO = b"assetcheck webhook secrets v1"
SEALED_PREFIX = "v1:"
NONCE_BYTES = 12


class SecretUnreadable(ValueError):
    """A sealed secret that this server secret cannot open: the server secret changed since it
    was sealed, or the stored value was altered."""


class SecretBox:
    """Seals and opens the webhook secrets of accounts with the key of one server secret."""

    def __init__(self, server_secret: str) -> None:
        if not server_secret:
            raise ValueError("a secret box needs the server secret")
        key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=KEY_INFO).derive(
            server_secret.encode()
        )
        self._cipher = AESGCM(key)

    def seal(self, secret: str, account_id: int) -> str:
        """The stored form of ``secret`` for the account ``account_id`` (a new nonce each time,
        so sealing the same secret twice gives two different values)."""
        nonce = os.urandom(NONCE_BYTES)
        sealed = self._cipher.encrypt(nonce, secret.encode(), _associated(account_id))
        return SEALED_PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode("ascii")

    def open(self, stored: str, account_id: int) -> str:
        """The secret sealed in ``stored`` for ``account_id``; :class:`SecretUnreadable` when
        this key did not seal it for that account."""
        if not stored.startswith(SEALED_PREFIX):
            raise SecretUnreadable("the stored webhook secret is not sealed")
        try:
            raw = base64.urlsafe_b64decode(stored.removeprefix(SEALED_PREFIX).encode("ascii"))
            opened = self._cipher.decrypt(
                raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated(account_id)
            )
        except (InvalidTag, ValueError):  # binascii.Error is a ValueError
            raise SecretUnreadable(
                "the stored webhook secret does not open with this server secret (was the "
                "server secret changed?): rotate the webhook secret"
            ) from None
        return opened.decode()


def _associated(account_id: int) -> bytes:
    return f"account:{account_id}".encode()
