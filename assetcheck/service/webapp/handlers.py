"""The base handlers of the API and the dashboard: services from the application settings,
JSON answers, and acting for an account."""

from __future__ import annotations

import contextvars
import json
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from typing import Any, ClassVar, TypeVar

import pluggy
from tornado.httputil import responses
from tornado.ioloop import IOLoop
from tornado.web import HTTPError, RequestHandler

from assetcheck.config.accounts import PlanSettings
from assetcheck.config.settings import Config
from assetcheck.reports import ReportFormat
from assetcheck.scoring.profiles import EngineProfile
from assetcheck.service.accounts.keys import Principal
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.jobs.storage import JobStorage, StorageUnavailable
from assetcheck.service.observability import log_context
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.ratelimit import RateLimiter
from assetcheck.service.webapp.request_ids import request_id_of
from assetcheck.service.webhooks.secret_box import SecretBox

T = TypeVar("T")

#: Codes of errors Tornado raises itself (routing, methods), in the API's error shape.
_STATUS_CODES = {
    400: "BAD_REQUEST",
    404: "NOT_FOUND",
    405: "METHOD_NOT_ALLOWED",
    500: "INTERNAL_ERROR",
    503: "SERVICE_UNAVAILABLE",
}

#: The policy of every answer that is not a dashboard page (JSON, reports, the badge).
API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox"


def storage_unavailable() -> RequestError:
    """503 STORAGE_UNAVAILABLE: the job storage cannot be reached (the log says why)."""
    return RequestError(
        503,
        "STORAGE_UNAVAILABLE",
        "The service cannot reach its file storage right now: retry in a minute.",
        {"Retry-After": "30"},
    )


def bounded_number(text: str, maximum: int) -> int | None:
    """The whole number ``text`` spells in ASCII digits, if it is at most ``maximum``; None for
    anything else. A number from a URL is never converted when it has more digits than
    ``maximum``: no overflow in the database, no conversion limit of Python's ``int``."""
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(maximum)):
        return None
    number = int(text)
    return number if number <= maximum else None


class BaseHandler(RequestHandler):
    """Every handler of the service answers JSON, errors included."""

    #: Whether state-changing requests need the XSRF token. The API authenticates with keys,
    #: never cookies, so a forged cross-site request carries no credential: not needed. The
    #: dashboard's handlers, which use session cookies, turn it on.
    xsrf_protected = False
    #: Whether the handler streams its body and sets the size limit of its own request once
    #: the request is authenticated (uploads, by plan). Every other handler's body is held to
    #: ``[server] max_body_kb`` before the handler runs (``webapp.limits``).
    sets_own_body_limit: ClassVar[bool] = False

    def set_default_headers(self) -> None:
        """Answers are data, never pages to render: no type sniffing, and no content of any
        kind may load or run from them."""
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Content-Security-Policy", API_CONTENT_SECURITY_POLICY)

    def decode_argument(self, value: bytes, name: str | None = None) -> str:
        """An argument as text (Tornado's rule: UTF-8, else 400). A part of the path (``name``
        None) that holds a NUL character names nothing the service stores: 404 NOT_FOUND,
        before any lookup (PostgreSQL refuses NUL in a query's text)."""
        text = super().decode_argument(value, name)
        if name is None and "\0" in text:
            raise RequestError(404, "NOT_FOUND", "Nothing here: the path holds a NUL character.")
        return text

    def check_xsrf_cookie(self) -> None:
        """On handlers that need it, refuse a state-changing request without the XSRF token
        (403 XSRF_MISSING) or whose token is not this browser's (403 XSRF_INVALID): a form sent
        from a page that has expired, or from another site."""
        if not self.xsrf_protected:
            return
        try:
            super().check_xsrf_cookie()
        except HTTPError:
            raise xsrf_refused(sent=self._sent_xsrf_token()) from None

    def _sent_xsrf_token(self) -> bool:
        """Whether the request carries an XSRF token at all, where Tornado looks for one."""
        return bool(
            self.get_argument("_xsrf", None)
            or self.request.headers.get("X-Xsrftoken")
            or self.request.headers.get("X-Csrftoken")
        )

    def head(self, *args: str) -> Awaitable[None] | None:
        """HEAD on every resource that has GET: GET's status and headers, without the body
        (Tornado never sends the body of an answer to HEAD)."""
        if not self.implements("get"):
            raise HTTPError(405)
        return self.get(*args)

    @classmethod
    def implements(cls, method: str) -> bool:
        """Whether the handler has its own ``method`` (``"get"``, ``"post"``...)."""
        return getattr(cls, method) is not RequestHandler._unimplemented_method

    @classmethod
    def allowed_methods(cls) -> list[str]:
        """The methods the resource answers, for the ``Allow`` header of a 405: HEAD wherever
        GET is."""
        return [
            name
            for name in cls.SUPPORTED_METHODS
            if cls.implements("get" if name == "HEAD" else name.lower())
        ]

    def set_allow_header(self, status_code: int) -> None:
        """Every 405 names the methods the resource does answer (RFC 9110, 15.5.6)."""
        if status_code == 405:
            self.set_header("Allow", ", ".join(self.allowed_methods()))

    @property
    def config(self) -> Config:
        return self.settings["assetcheck_config"]

    @property
    def queue(self) -> JobQueue:
        return self.settings["job_queue"]

    @property
    def server_secret(self) -> str:
        return self.settings["server_secret"]

    @property
    def storage(self) -> JobStorage:
        return self.settings["upload_storage"]

    @property
    def plugin_manager(self) -> pluggy.PluginManager:
        return self.settings["plugin_manager"]

    @property
    def engines(self) -> dict[str, EngineProfile]:
        return self.settings["engine_profiles"]

    @property
    def report_formats(self) -> dict[str, ReportFormat]:
        return self.settings["report_formats"]

    @property
    def rate_limiter(self) -> RateLimiter:
        return self.settings["rate_limiter"]

    @property
    def secret_box(self) -> SecretBox:
        """Seals and opens the accounts' webhook secrets (keyed by the server secret)."""
        return self.settings["webhook_secret_box"]

    @property
    def executor(self) -> Executor:
        return self.settings["executor"]

    @property
    def request_id(self) -> str:
        """The request's ``X-Request-Id`` (``webapp.request_ids``)."""
        return request_id_of(self.request)

    async def run_blocking(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` on the service's thread pool: database and disk work that must
        not stall the event loop. It runs in a copy of the request's context, so its log lines
        name the request (``observability.log_context``)."""
        context = contextvars.copy_context()
        return await IOLoop.current().run_in_executor(self.executor, context.run, function, *args)

    def write_json(self, body: Any, status: int = 200) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps(body, ensure_ascii=False))

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, StorageUnavailable):
            error = storage_unavailable()
        if not isinstance(error, RequestError):
            error = RequestError(
                status_code,
                _STATUS_CODES.get(status_code, "HTTP_ERROR"),
                responses.get(status_code, "Error"),
            )
        for name, value in error.headers.items():
            self.set_header(name, value)
        self.set_allow_header(status_code)
        self.write_json(error.body(), error.status_code)

    def spend_account_request(self, account_id: int, plan: str) -> None:
        """Count this request against the account's ``requests_per_minute``, one budget for
        its API keys and its dashboard session; 429 RATE_LIMITED with ``Retry-After`` once it
        is spent."""
        per_minute = limits_of_plan(self.config, plan).requests_per_minute
        wait = self.rate_limiter.acquire(("account", account_id), per_minute)
        if wait:
            raise RequestError(
                429,
                "RATE_LIMITED",
                f"Too many requests for this account: retry in {wait} s.",
                {"Retry-After": str(wait)},
            )

    def answer_unread(self, error: RequestError) -> None:
        """Answer ``error`` for a request Tornado has not run (no ``prepare``, no method) and
        whose body will not be read, in this handler's own error shape."""
        # What Tornado's own run of a handler sets first: the application's output transforms.
        self._transforms = [transform(self.request) for transform in self.application.transforms]
        self.send_error(error.status_code, exc_info=(type(error), error, None))


class AccountHandler(BaseHandler):
    """A handler acting for one account. ``authenticate`` (given by an authentication mixin:
    the API's key, the dashboard's session) names the principal; then the plan's rate limit
    applies, before any method runs. The rate counts the account's requests, whichever of its
    keys or its dashboard session sent them, so more keys never buy more requests."""

    principal: Principal

    async def authenticate(self) -> Principal:
        """Who the request acts for, or a :class:`RequestError` (401, 403)."""
        raise NotImplementedError

    async def prepare(self) -> None:
        self.principal = await self.authenticate()
        log_context.bind(account_id=self.principal.account_id)
        self.spend_account_request(self.principal.account_id, self.principal.plan)

    @property
    def plan_limits(self) -> PlanSettings:
        return limits_of_plan(self.config, self.principal.plan)


def limits_of_plan(config: Config, plan: str) -> PlanSettings:
    """``[plans.<plan>]``; 403 PLAN_REQUIRED for a plan the service no longer offers."""
    settings = config.plans.get(plan)
    if settings is None:
        raise RequestError(
            403, "PLAN_REQUIRED", f"The account's plan {plan!r} is not offered by this service."
        )
    return settings


class NotFoundHandler(BaseHandler):
    """Any path no route matches."""

    def prepare(self) -> None:
        raise RequestError(404, "NOT_FOUND", f"No endpoint at {self.request.path}.")


#: What a person whose form was refused for its XSRF token is told, page or JSON.
XSRF_MESSAGE = "This form has expired or was sent from another site: reload the page and try again."


def xsrf_refused(*, sent: bool) -> RequestError:
    """403 XSRF_MISSING for a request without the token, XSRF_INVALID for one whose token does
    not match this browser's cookie (no cookie, another session's, another site's)."""
    return RequestError(403, "XSRF_INVALID" if sent else "XSRF_MISSING", XSRF_MESSAGE)
