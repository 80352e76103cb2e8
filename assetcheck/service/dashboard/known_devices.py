"""Known browsers: a signed cookie naming the accounts that logged in with this browser
(``docs/security.md``, Log-in delays).

A log-in from a browser that logged in to the account before is not slowed by guesses at
that account from elsewhere. The cookie holds a random token for the browser and short
digests of the accounts' emails (never the emails), is signed with the server secret like
the session cookie, and outlives log-outs: it proves nothing but a past log-in, so it opens
nothing by itself.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

DEVICE_COOKIE = "assetcheck_device"
DEVICE_DAYS = 365
#: Accounts one browser is known to at most (the most recent log-ins are kept).
MAX_ACCOUNTS = 8
#: Hex digits of an email's SHA-256 kept in the cookie.
DIGEST_LENGTH = 16


def account_digest(email: str) -> str:
    """The short digest that stands for the account of ``email`` (lowercased) in a cookie."""
    return hashlib.sha256(email.encode()).hexdigest()[:DIGEST_LENGTH]


@dataclass(frozen=True)
class KnownDevice:
    """A browser's token and the digests of the accounts that logged in with it."""

    token: str
    accounts: tuple[str, ...] = ()

    @classmethod
    def new(cls) -> KnownDevice:
        return cls(secrets.token_urlsafe(16))

    @classmethod
    def parse(cls, value: bytes | None) -> KnownDevice | None:
        """The device a (verified) cookie value names; None for a missing or malformed one."""
        if not value:
            return None
        token, *accounts = value.decode("ascii", "replace").split(" ")
        return cls(token, tuple(accounts[:MAX_ACCOUNTS])) if token else None

    def knows(self, email: str) -> bool:
        """Whether the account of ``email`` logged in with this browser."""
        return account_digest(email) in self.accounts

    def remembering(self, email: str) -> KnownDevice:
        """This device, with the account of ``email`` as its most recent log-in."""
        digest = account_digest(email)
        others = tuple(d for d in self.accounts if d != digest)
        return KnownDevice(self.token, (digest, *others)[:MAX_ACCOUNTS])

    def cookie_value(self) -> str:
        return " ".join((self.token, *self.accounts))
