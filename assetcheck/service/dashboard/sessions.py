"""Dashboard sessions: a signed cookie naming the account, its session generation and a stamp
of its password (``docs/security.md``, Sessions).

Tornado signs the cookie with the server secret (HMAC-SHA256), so its value cannot be forged
or altered; it is ``HttpOnly``, ``SameSite=Lax``, and ``Secure`` over HTTPS or when ``[server]
secure_cookies`` says the service is behind a TLS-terminating proxy. A cookie stands only while
the account is at the generation it names: logging out and changing the password move the
account to the next generation (:func:`end_sessions`), so every cookie issued before, copies
included, stops working at once. The password stamp, a digest of the stored password hash,
does the same when the password is set by other means (the operator's command line).
"""

from __future__ import annotations

import hashlib
import hmac

from assetcheck.service.db.tables import Account

SESSION_COOKIE = "assetcheck_session"
SESSION_DAYS = 14


def password_stamp(account: Account) -> str:
    return hashlib.sha256((account.password_hash or "").encode()).hexdigest()[:16]


def session_value(account: Account) -> str:
    """What the session cookie of ``account`` holds (before Tornado signs it)."""
    return f"{account.id}:{account.session_generation}:{password_stamp(account)}"


def session_account(value: bytes | None) -> Account | None:
    """The account a verified cookie value names, or None when it no longer stands: the
    account is gone, has no password, has moved past the cookie's session generation, or its
    password changed since the session began."""
    if not value:
        return None
    parts = value.decode("ascii", "replace").split(":")
    if len(parts) != 3 or not parts[0].isdigit() or not parts[1].isdigit():
        return None
    account_id, generation, stamp = parts
    account = Account.get_or_none(Account.id == int(account_id))
    if account is None or account.password_hash is None:
        return None
    if int(generation) != account.session_generation:
        return None
    return account if hmac.compare_digest(stamp, password_stamp(account)) else None


def end_sessions(account: Account) -> None:
    """End every session of ``account``: it moves to its next session generation (``account``
    is updated to it)."""
    Account.update(session_generation=Account.session_generation + 1).where(
        Account.id == account.id
    ).execute()
    account.session_generation = Account.get_by_id(account.id).session_generation
