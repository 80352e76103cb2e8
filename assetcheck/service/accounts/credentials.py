"""Sign-up, log-in and password changes: the rules behind the dashboard's account forms.

Refusals are :class:`FormError`, which names every input at fault with its message, so the
page shows each message next to its input. Passwords are hashed with scrypt
(:mod:`assetcheck.service.accounts.passwords`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from contextlib import contextmanager
from functools import cache

from assetcheck.service.accounts.passwords import hash_password, verify_password
from assetcheck.service.accounts.store import EMAIL_PATTERN, AccountError, create_account
from assetcheck.service.db import database_proxy, is_postgresql
from assetcheck.service.db.tables import Account

MIN_PASSWORD_LENGTH = 10
MAX_PASSWORD_LENGTH = 1024
#: The plan of every account signed up on the page, except the first of an installation.
SIGNUP_PLAN = "free"
#: What a sign-up with an address that has an account hears: it names no address and does not
#: say that one exists (``docs/security.md``, Sign-up).
NOT_SIGNED_UP = (
    "No account was made with these details. If you already have one, log in; "
    "if not, check the address."
)


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


def sign_up(
    email: str, password: str, plans: Collection[str], chosen_plan: str | None = None
) -> Account:
    """A new account with a dashboard password. The first account of an installation (its
    operator's) is on ``chosen_plan``; every later one on :func:`signup_plan`.

    Which account is the first is decided in the transaction that creates it, one sign-up at
    a time, so sign-ups racing on a fresh install make one operator. An address that already
    has an account gets :data:`NOT_SIGNED_UP`, which does not name the address, after the same
    work as a sign-up (the password is hashed either way).
    """
    errors = {}
    if not EMAIL_PATTERN.fullmatch(email.strip()):
        errors["email"] = "Enter an email address, such as you@studio.example."
    if problem := password_problem(password):
        errors["password"] = problem
    if is_fresh_install() and chosen_plan not in plans:
        errors["plan"] = _choose_a_plan(plans)
    if errors:
        raise FormError(errors)
    password_hash = hash_password(password)  # slow: before the transaction, not in it
    with _one_sign_up_at_a_time():
        if not is_fresh_install():
            plan = signup_plan(plans)
        elif chosen_plan is not None and chosen_plan in plans:
            plan = chosen_plan
        else:
            raise FormError({"plan": _choose_a_plan(plans)})
        try:
            return create_account(email, plan, plans, password_hash=password_hash)
        except AccountError:  # the email is taken
            raise FormError({"form": NOT_SIGNED_UP}) from None


@contextmanager
def _one_sign_up_at_a_time() -> Iterator[None]:
    """A transaction no other sign-up runs beside, so "is this the first account?" and its
    creation are one step: SQLite takes its write lock at ``BEGIN IMMEDIATE``; PostgreSQL
    locks the account table against other writers (readers go on) until the commit."""
    database = database_proxy.obj
    if is_postgresql(database):
        with database.atomic():
            database.execute_sql(
                f'LOCK TABLE "{Account._meta.table_name}" IN SHARE ROW EXCLUSIVE MODE'
            )
            yield
    else:
        with database.atomic("IMMEDIATE"):
            yield


def _choose_a_plan(plans: Collection[str]) -> str:
    return f"Choose one of the plans: {', '.join(plans)}."


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
    Account.update(
        password_hash=account.password_hash, session_generation=Account.session_generation + 1
    ).where(Account.id == account.id).execute()
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
