"""Sign up, log in, log out. Failed log-ins slow the client that makes them, sign-up attempts
(made or refused) are limited per address (:mod:`assetcheck.service.dashboard.login_limits`)."""

from __future__ import annotations

from assetcheck.service.accounts.credentials import (
    MIN_PASSWORD_LENGTH,
    FormError,
    is_fresh_install,
    log_in,
    sign_up,
    signup_plan,
)
from assetcheck.service.dashboard.handlers.base import DashboardHandler
from assetcheck.service.dashboard.login_limits import describe_wait


class SignUpHandler(DashboardHandler):
    """The sign-up form. The first account of an installation chooses its plan; later ones
    get the sign-up plan, which the page names."""

    async def get(self) -> None:
        if self.account is not None:
            self.redirect("/")
            return
        await self._form()

    async def post(self) -> None:
        address = self.client_address()
        values = {
            "email": self.get_body_argument("email", "").strip(),
            "plan": self.get_body_argument("plan", ""),
        }
        wait = self.limits.signup_per_address.retry_after(address)
        if wait:
            self.set_header("Retry-After", str(wait))
            await self._form(
                {
                    "form": f"Too many sign-ups from your address: try again in "
                    f"{describe_wait(wait)}."
                },
                values,
                429,
            )
            return
        # Every attempt counts, refused ones too: an address probing which emails have
        # accounts is held to the same pace as one making accounts.
        self.limits.signup_per_address.record(address)
        try:
            account = await self.run_blocking(
                sign_up,
                values["email"],
                self.get_body_argument("password", ""),
                list(self.config.plans),
                values["plan"] or None,
            )
        except FormError as error:
            await self._form(error.errors, values, 400)
            return
        self.start_session(account)
        self.remember_device(account.email)
        self.redirect("/")

    async def _form(
        self,
        errors: dict[str, str] | None = None,
        values: dict[str, str] | None = None,
        status: int = 200,
    ) -> None:
        plans = self.config.plans
        self.render_page(
            "signup.html",
            status,
            errors=errors or {},
            values=values or {},
            fresh_install=await self.run_blocking(is_fresh_install),
            plans=plans,
            signup_plan=signup_plan(plans),
            min_password_length=MIN_PASSWORD_LENGTH,
        )


class LoginHandler(DashboardHandler):
    """The log-in form; after failures it makes the client wait before checking its passwords
    again (``docs/security.md``, Log-in delays)."""

    async def get(self) -> None:
        if self.account is not None:
            self.redirect_within(self.get_query_argument("next", None))
        elif await self.run_blocking(is_fresh_install):
            self.redirect("/signup")
        else:
            self._form(next_page=self.get_query_argument("next", ""))

    async def post(self) -> None:
        email = self.get_body_argument("email", "").strip().lower()
        next_page = self.get_body_argument("next", "")
        attempt = self.login_attempt(email)
        if wait := self.password_delay(attempt):
            self._form(
                {"form": f"Too many failed attempts: try again in {describe_wait(wait)}."},
                email,
                next_page,
                429,
            )
            return
        account = await self.run_blocking(log_in, email, self.get_body_argument("password", ""))
        if account is None:
            self.limits.login.failed(attempt)
            self._form({"form": "Wrong email or password."}, email, next_page, 400)
            return
        self.limits.login.succeeded(attempt)
        self.start_session(account)
        self.remember_device(email)
        self.redirect_within(next_page)

    def _form(
        self,
        errors: dict[str, str] | None = None,
        email: str = "",
        next_page: str = "",
        status: int = 200,
    ) -> None:
        self.render_page(
            "login.html", status, errors=errors or {}, email=email, next_page=next_page
        )


class LogoutHandler(DashboardHandler):
    """Log out: every session of the account ends, on every device."""

    async def post(self) -> None:
        await self.end_session(self.account)
        self.redirect("/login")


default_handlers = [
    (r"/signup", SignUpHandler),
    (r"/login", LoginHandler),
    (r"/logout", LogoutHandler),
]
