"""Dashboard sessions: a signed cookie naming the account and a stamp of its password.

Tornado signs the cookie with the server secret (HMAC-SHA256), so its value cannot be forged
or altered; it is ``HttpOnly`` and ``SameSite=Lax``. The stamp is a digest of the stored
password hash, which changes with every new password: changing the password ends every
other session of the account at once, with nothing stored on the server.
"""

from __future__ import annotations

import hashlib
import hmac

from assetcheck.db.tables import Account

SESSION_COOKIE = "assetcheck_session"
SESSION_DAYS = 14


def password_stamp(account: Account) -> str:
    return hashlib.sha256((account.password_hash or "").encode()).hexdigest()[:16]


def session_value(account: Account) -> str:
    """What the session cookie of ``account`` holds (before Tornado signs it)."""
    return f"{account.id}:{password_stamp(account)}"


def session_account(value: bytes | None) -> Account | None:
    """The account a verified cookie value names, or None when it no longer stands: the
    account is gone, has no password, or its password changed since the session began."""
    if not value:
        return None
    account_id, _, stamp = value.decode("ascii", "replace").partition(":")
    if not account_id.isdigit():
        return None
    account = Account.get_or_none(Account.id == int(account_id))
    if account is None or account.password_hash is None:
        return None
    return account if hmac.compare_digest(stamp, password_stamp(account)) else None
