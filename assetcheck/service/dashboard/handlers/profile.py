"""The profile: the account's plan, its password and its API keys.

A new key is shown once, in the answer to the form that created it, and never stored: the
database keeps only its digest (``docs/security.md``, Keys and accounts). Accounts on a plan
without API access see why, and no way to create a key.
"""

from __future__ import annotations

from datetime import timedelta
from functools import partial
from typing import Any

import tornado.web

from assetcheck.service.accounts.credentials import MIN_PASSWORD_LENGTH, FormError, change_password
from assetcheck.service.accounts.store import (
    AccountError,
    account_keys,
    issue_key,
    key_status,
    revoke_key,
)
from assetcheck.service.dashboard.handlers.base import DashboardHandler
from assetcheck.service.dashboard.login_limits import describe_wait
from assetcheck.service.db.tables import ApiKey, utcnow
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import bounded_number

#: The expiries a key may be given, in days ("" is none), with their labels.
KEY_EXPIRIES = {
    "": "Never",
    "7": "In 7 days",
    "30": "In 30 days",
    "90": "In 90 days",
    "365": "In a year",
}
KEY_NAME_MAX_LENGTH = 100
#: The largest id a key row can have (a signed 64-bit integer in every database).
MAX_KEY_ID = 2**63 - 1
#: Confirmations after a redirect, by the code in ``?done=``: no text comes from the URL.
NOTICES = {
    "password": "Your password was changed; your other sessions were logged out.",
    "revoked": "The key was revoked: requests that use it are refused from now on.",
}


class ProfilePage(DashboardHandler):
    """What the profile handlers share: rendering the page with the account's keys."""

    async def render_profile(self, status: int = 200, /, **context: Any) -> None:
        account = self.logged_in_account
        keys = await self.run_blocking(account_keys, account)
        now = utcnow()
        rows = [(key, key_status(key, now)) for key in reversed(keys)]
        context.setdefault("errors", {})
        context.setdefault("new_key", None)
        context.setdefault("key_name", "")
        notice = NOTICES.get(self.get_query_argument("done", ""))
        self.render_page(
            "profile.html",
            status,
            keys=rows,
            expiries=KEY_EXPIRIES,
            plan_limits=self.config.plans.get(account.plan),
            min_password_length=MIN_PASSWORD_LENGTH,
            notice=notice,
            **context,
        )


class ProfileHandler(ProfilePage):
    @tornado.web.authenticated
    async def get(self) -> None:
        await self.render_profile()


class PasswordHandler(ProfilePage):
    """Change the password: the current one must be given; a wrong one slows whoever typed it,
    like a failed log-in (``docs/security.md``, Log-in delays)."""

    @tornado.web.authenticated
    async def post(self) -> None:
        attempt = self.login_attempt(self.logged_in_account.email)
        if wait := self.password_delay(attempt):
            await self.render_profile(
                429,
                errors={
                    "current_password": (
                        f"Too many wrong passwords: try again in {describe_wait(wait)}."
                    )
                },
            )
            return
        try:
            self.account = await self.run_blocking(
                change_password,
                self.logged_in_account,
                self.get_body_argument("current_password", ""),
                self.get_body_argument("new_password", ""),
            )
        except FormError as error:
            if "current_password" in error.errors:
                self.limits.login.failed(attempt)
            await self.render_profile(400, errors=error.errors)
            return
        self.limits.login.succeeded(attempt)
        self.start_session(self.account)  # at the new generation: the other sessions ended
        self.redirect("/profile?done=password")


class KeysHandler(ProfilePage):
    """Create a key; the answer shows it once. An account at ``[accounts] max_active_keys``
    gets 409 and the reason next to the form."""

    @tornado.web.authenticated
    async def post(self) -> None:
        if not self.has_api_access:
            raise RequestError(
                403, "PLAN_REQUIRED", "API keys come with the Starter, Pro and Enterprise plans."
            )
        name = self.get_body_argument("name", "").strip()
        expiry = self.get_body_argument("expires_in", "")
        try:
            _check_key_form(name, expiry)
        except FormError as error:
            await self.render_profile(400, errors=error.errors, key_name=name)
            return
        expires_at = utcnow() + timedelta(days=int(expiry)) if expiry else None
        limit = self.config.accounts.max_active_keys
        try:
            row, key = await self.run_blocking(
                partial(issue_key, self.logged_in_account, name, expires_at, max_active=limit)
            )
        except AccountError:
            await self.render_profile(
                409,
                key_name=name,
                errors={
                    "name": (
                        f"You have {limit} active keys, the most an account may have: revoke "
                        "one you no longer need, then create this one."
                    )
                },
            )
            return
        await self.render_profile(201, new_key=key, new_key_row=row)


class RevokeKeyHandler(ProfilePage):
    """Revoke one of the account's keys (another account's key id is simply not found)."""

    @tornado.web.authenticated
    async def post(self, key_id: str) -> None:
        number = bounded_number(key_id, MAX_KEY_ID)
        key = (
            None
            if number is None
            else await self.run_blocking(
                ApiKey.get_or_none,
                (ApiKey.id == number) & (ApiKey.account == self.logged_in_account.id),
            )
        )
        if key is None:
            raise RequestError(404, "KEY_NOT_FOUND", "You have no API key with this id.")
        await self.run_blocking(revoke_key, key)
        self.redirect("/profile?done=revoked#keys")


def _check_key_form(name: str, expiry: str) -> None:
    if len(name) > KEY_NAME_MAX_LENGTH:
        raise FormError({"name": f"Use at most {KEY_NAME_MAX_LENGTH} characters."})
    if expiry not in KEY_EXPIRIES:
        raise FormError({"expires_in": "Choose one of the expiries."})


default_handlers = [
    (r"/profile", ProfileHandler),
    (r"/profile/password", PasswordHandler),
    (r"/profile/keys", KeysHandler),
    (r"/profile/keys/(\d+)/revoke", RevokeKeyHandler),
]
