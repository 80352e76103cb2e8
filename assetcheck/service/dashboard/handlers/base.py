"""The base handlers of the dashboard: sessions, XSRF-checked requests, HTML pages.

A dashboard request is authenticated by its signed session cookie, never by an API key, so
every state-changing request must carry the XSRF token (Tornado's ``xsrf_cookies``: a form
field ``_xsrf`` or, from scripts, the ``X-XSRFToken`` header).
"""

from __future__ import annotations

from functools import partial
from typing import Any
from urllib.parse import urlsplit

import jinja2
from tornado.httputil import responses

from assetcheck.service.accounts.keys import PLANS_WITHOUT_API, Principal
from assetcheck.service.dashboard.known_devices import DEVICE_COOKIE, DEVICE_DAYS, KnownDevice
from assetcheck.service.dashboard.login_limits import DashboardLimits, LoginAttempt
from assetcheck.service.dashboard.sessions import (
    SESSION_COOKIE,
    SESSION_DAYS,
    end_sessions,
    session_account,
    session_value,
)
from assetcheck.service.db.tables import Account
from assetcheck.service.observability import log_context
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import AccountHandler, BaseHandler

#: Methods that change nothing: the only ones a logged-in account may send past its rate.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: Pages load nothing but this service's own files: no inline script, no third party.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


class SessionMixin(BaseHandler):
    """Reading and writing the session cookie (for handlers of any base)."""

    async def session_account(self) -> Account | None:
        value = self.get_signed_cookie(SESSION_COOKIE, max_age_days=SESSION_DAYS)
        return await self.run_blocking(session_account, value) if value else None

    def start_session(self, account: Account) -> None:
        """Set the session cookie for ``account`` at its current session generation."""
        self.set_signed_cookie(
            SESSION_COOKIE,
            session_value(account),
            expires_days=SESSION_DAYS,
            httponly=True,
            samesite="Lax",
            secure=self.cookies_are_secure(),
        )

    def cookies_are_secure(self) -> bool:
        return self.request.protocol == "https" or self.config.server.secure_cookies

    async def end_session(self, account: Account | None) -> None:
        """End every session of ``account`` (this one included, copies of its cookie too) and
        clear this browser's cookie."""
        if account is not None:
            await self.run_blocking(end_sessions, account)
        self.clear_cookie(SESSION_COOKIE)


class DashboardHandler(SessionMixin, BaseHandler):
    """A dashboard page: HTML answers (errors included) for the session's account, if any.

    ``self.account`` is the logged-in account or None; ``@tornado.web.authenticated`` sends
    visitors without a session to the log-in page, and the methods it guards read
    ``self.logged_in_account``.
    """

    xsrf_protected = True
    account: Account | None = None

    async def prepare(self) -> None:
        """Find the session's account; a state-changing request of a logged-in account counts
        against its plan's rate, like its API requests (``docs/security.md``, Limits)."""
        self.account = await self.session_account()
        if self.account is not None:
            log_context.bind(account_id=self.account.id)
            if self.request.method not in SAFE_METHODS:
                self.spend_account_request(self.account.id, self.account.plan)

    def get_current_user(self) -> Account | None:
        return self.account

    @property
    def logged_in_account(self) -> Account:
        """The session's account, in a method ``@tornado.web.authenticated`` guards (or in a
        :class:`DashboardJsonHandler`); 401 NOT_LOGGED_IN anywhere else without a session."""
        if self.account is None:
            raise not_logged_in()
        return self.account

    def set_default_headers(self) -> None:
        self.set_header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "same-origin")

    @property
    def templates(self) -> jinja2.Environment:
        return self.settings["dashboard_templates"]

    @property
    def limits(self) -> DashboardLimits:
        return self.settings["dashboard_limits"]

    @property
    def has_api_access(self) -> bool:
        """Whether the account's plan comes with API keys and webhooks."""
        return self.account is not None and self.account.plan not in PLANS_WITHOUT_API

    def render_page(self, template: str, status: int = 200, /, **context: Any) -> None:
        """Render ``template`` here, on the event loop: for pages of a bounded size."""
        self._send_page(
            status, self.templates.get_template(template).render(**self._page_context(), **context)
        )

    async def render_large_page(self, template: str, status: int = 200, /, **context: Any) -> None:
        """Render ``template`` on the thread pool: for pages as large as a report, so the event
        loop goes on serving other requests meanwhile."""
        render = partial(
            self.templates.get_template(template).render, **self._page_context(), **context
        )
        self._send_page(status, await self.run_blocking(render))

    def _page_context(self) -> dict[str, Any]:
        """What every template gets (read on the event loop: the XSRF token may set its
        cookie)."""
        return {
            "account": self.account,
            "has_api_access": self.has_api_access,
            "xsrf_token": self.xsrf_token.decode(),
            "static_url": self.static_url,
            "path": self.request.path,
        }

    def _send_page(self, status: int, page: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")  # pages may show keys and secrets
        self.finish(page)

    def redirect_within(self, target: str | None, default: str = "/") -> None:
        """Redirect to ``target`` when it is a path of this site (never to another site)."""
        if target and target.startswith("/") and "\\" not in target and not urlsplit(target).netloc:
            self.redirect(target)
        else:
            self.redirect(default)

    def client_address(self) -> str:
        """The client's address: the proxy's ``X-Forwarded-For`` or ``X-Real-IP`` only with
        ``[server] trust_forwarded_headers`` (Tornado's ``xheaders``), else the peer's."""
        return self.request.remote_ip or "unknown"

    def known_device(self) -> KnownDevice | None:
        return KnownDevice.parse(self.get_signed_cookie(DEVICE_COOKIE, max_age_days=DEVICE_DAYS))

    def login_attempt(self, email: str) -> LoginAttempt:
        """This request's try at the password of ``email``, as the log-in limits count it."""
        device = self.known_device()
        token = device.token if device is not None and device.knows(email) else None
        return LoginAttempt(email, self.client_address(), token)

    def password_delay(self, attempt: LoginAttempt) -> int:
        """Seconds before ``attempt`` may try a password, with ``Retry-After`` set to them;
        0 when it may try now."""
        wait = self.limits.login.retry_after(attempt)
        if wait:
            self.set_header("Retry-After", str(wait))
        return wait

    def remember_device(self, email: str) -> None:
        """Mark this browser as one the account of ``email`` logged in with."""
        device = (self.known_device() or KnownDevice.new()).remembering(email)
        self.set_signed_cookie(
            DEVICE_COOKIE,
            device.cookie_value(),
            expires_days=DEVICE_DAYS,
            httponly=True,
            samesite="Lax",
            secure=self.cookies_are_secure(),
        )

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, RequestError):
            message = error.message
            for name, value in error.headers.items():  # Retry-After of a 429
                self.set_header(name, value)
        elif status_code == 403:  # a form sent after logging out (XSRF refusals are RequestErrors)
            message = "The page had expired or you are no longer logged in: reload it."
        else:
            message = responses.get(status_code, "Something went wrong") + "."
        self.set_allow_header(status_code)
        self.render_page("error.html", status_code, status_code=status_code, message=message)


class DashboardJsonHandler(DashboardHandler):
    """A dashboard endpoint for the page's script: JSON answers, errors included, and 401
    NOT_LOGGED_IN instead of a redirect when the session has ended."""

    write_error = BaseHandler.write_error

    async def prepare(self) -> None:
        await super().prepare()
        if self.account is None:
            raise not_logged_in()

    def set_default_headers(self) -> None:
        BaseHandler.set_default_headers(self)  # JSON, not a page: the API's headers
        self.set_header("Cache-Control", "no-store")


class SessionAuthentication(SessionMixin, AccountHandler):
    """Acting for the session's account instead of an API key, so the dashboard can serve a
    shared endpoint whole (``class UploadHandler(SessionAuthentication, uploads.UploadHandler)``).
    Requests count against the plan's rate per account, in the same budget as the account's
    API keys; every plan may use it."""

    xsrf_protected = True

    async def authenticate(self) -> Principal:
        account = await self.session_account()
        if account is None:
            raise not_logged_in()
        return Principal(account_id=account.id, plan=account.plan, key_id=0)


def not_logged_in() -> RequestError:
    return RequestError(401, "NOT_LOGGED_IN", "Your session has ended: log in again.")
