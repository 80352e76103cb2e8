"""Sign-up, log-in and password changes: the rules behind the dashboard's account forms.

Refusals are :class:`FormError`, which names every input at fault with its message, so the
page shows each message next to its input. Passwords are hashed with scrypt
(:mod:`assetcheck.accounts.passwords`).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from assetcheck.accounts.passwords import hash_password, verify_password
from assetcheck.accounts.store import EMAIL_PATTERN, AccountError, create_account
from assetcheck.db.tables import Account

MIN_PASSWORD_LENGTH = 10
MAX_PASSWORD_LENGTH = 1024
#: The plan of every account signed up on the page, except the first of an installation.
SIGNUP_PLAN = "free"


class FormError(ValueError):
    """Form values that cannot be accepted: ``errors`` maps each input at fault to why."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(errors.values()))
        self.errors = errors


def is_fresh_install() -> bool:
    """Whether no account exists yet: the first sign-up then chooses its own plan."""
    return not Account.select().exists()


def signup_plan(plans: Collection[str]) -> str:
    return SIGNUP_PLAN if SIGNUP_PLAN in plans else next(iter(plans))


def sign_up(email: str, password: str, plans: Collection[str],
            chosen_plan: str | None = None) -> Account:
    """A new account with a dashboard password. The first account of an installation (its
    operator's) is on ``chosen_plan``; every later one on :func:`signup_plan`."""
    fresh = is_fresh_install()
    errors = {}
    if not EMAIL_PATTERN.fullmatch(email.strip()):
        errors["email"] = "Enter an email address, such as you@studio.example."
    if problem := password_problem(password):
        errors["password"] = problem
    if fresh and chosen_plan not in plans:
        errors["plan"] = f"Choose one of the plans: {', '.join(plans)}."
    if errors:
        raise FormError(errors)
    plan = chosen_plan if fresh else signup_plan(plans)
    try:
        return create_account(email, plan, plans, password)
    except AccountError as error:  # the email is taken
        raise FormError({"email": str(error)}) from None


def log_in(email: str, password: str) -> Account | None:
    """The account when ``password`` is its dashboard password, else None (same time either
    way: see :func:`_unused_hash`)."""
    account = Account.get_or_none(Account.email == email.strip().lower())
    stored = account.password_hash if account is not None else None
    matches = verify_password(password[:MAX_PASSWORD_LENGTH], stored or _unused_hash())
    return account if matches and stored is not None else None


def change_password(account: Account, current: str, new: str) -> Account:
    """Set a new password once the current one is proven; returns the updated account, moved
    to its next session generation (every session begun before ends)."""
    if account.password_hash is None or not verify_password(current, account.password_hash):
        raise FormError({"current_password": "This is not your current password."})
    if problem := password_problem(new):
        raise FormError({"new_password": problem})
    account.password_hash = hash_password(new)
    Account.update(password_hash=account.password_hash,
                   session_generation=Account.session_generation + 1).where(
        Account.id == account.id).execute()
    account.session_generation = Account.get_by_id(account.id).session_generation
    return account


def password_problem(password: str) -> str | None:
    """Why ``password`` cannot be a new password, or None when it can."""
    if len(password) < MIN_PASSWORD_LENGTH:
        return f"Use at least {MIN_PASSWORD_LENGTH} characters."
    if len(password) > MAX_PASSWORD_LENGTH:
        return f"Use at most {MAX_PASSWORD_LENGTH} characters."
    return None


@cache
def _unused_hash() -> str:
    """Verified when the email has no account, so a wrong email takes as long as a wrong
    password and the time of an answer does not tell which accounts exist."""
    return hash_password("no account has this password")
