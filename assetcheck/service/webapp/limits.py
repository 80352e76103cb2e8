"""What a connection may send before the service has accepted it (``docs/security.md``,
Limits): the size of a request body outside uploads, and how long a request head, a body and
a silence inside a body may take.

Tornado reads the whole body of an ordinary handler into memory before running it, so the
server-wide body limit is small (``[server] max_body_kb``). Only a handler that streams its
body and sets its own limit once the request is authenticated (``sets_own_body_limit``: the
uploads, by plan) may receive more. Any other request whose body passes the limit is answered
413 BODY_TOO_LARGE by its own route's handler class (JSON on the API, a page on the dashboard):
without reading the body when ``Content-Length`` declares it, as soon as it passes the limit
when it is chunked; what arrives before the connection closes is dropped, never kept.
Tornado's own check would answer a bare 400 and close; the guard keeps Tornado's limit out of
its way, so the clear answer always comes first.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from tornado.http1connection import HTTP1Connection
from tornado.httputil import (
    HTTPHeaders,
    HTTPMessageDelegate,
    HTTPServerRequest,
    RequestStartLine,
    ResponseStartLine,
)
from tornado.ioloop import IOLoop
from tornado.web import Application, RequestHandler

from assetcheck.config.server import ServerSettings
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import BaseHandler, bounded_number

log = logging.getLogger("assetcheck.limits")

#: Tornado's own limit on a chunked body the guard counts itself: out of the guard's way.
_UNBOUNDED = sys.maxsize


def http_server_options(limits: ServerSettings) -> dict[str, Any]:
    """Keyword arguments for Tornado's ``HTTPServer`` that enforce the ``[server]`` limits."""
    return {
        "max_body_size": limits.max_body_bytes,
        "idle_connection_timeout": limits.header_timeout,
        "body_timeout": limits.body_timeout,
    }


def body_too_large(limit_bytes: int) -> RequestError:
    """413 BODY_TOO_LARGE for a body over ``limit_bytes`` on a route without its own limit."""
    return RequestError(
        413,
        "BODY_TOO_LARGE",
        f"The request body is larger than the {limit_bytes >> 10} KiB this endpoint accepts.",
    )


class LimitedApplication(Application):
    """The service's Tornado application: every request passes a :class:`BodyGuard` holding it
    to ``[server]`` of the ``assetcheck_config`` setting."""

    # Tornado annotates its private ``_HandlerDelegate``; its router needs only an
    # ``HTTPMessageDelegate``, which the guard wrapping it is.
    def get_handler_delegate(  # type: ignore[override]
        self,
        request: HTTPServerRequest,
        target_class: type[RequestHandler],
        target_kwargs: dict[str, Any] | None = None,
        path_args: list[bytes] | None = None,
        path_kwargs: dict[str, bytes] | None = None,
    ) -> HTTPMessageDelegate:
        delegate = super().get_handler_delegate(
            request, target_class, target_kwargs, path_args, path_kwargs
        )

        def refuse(error: RequestError) -> None:
            refusing_handler(self, request, target_class, target_kwargs).answer_unread(error)

        return BodyGuard(
            delegate,
            request,
            self.settings["assetcheck_config"].server,
            refuse,
            own_limit=getattr(target_class, "sets_own_body_limit", False),
        )


def refusing_handler(
    application: Application,
    request: HTTPServerRequest,
    target_class: type[RequestHandler],
    target_kwargs: dict[str, Any] | None,
) -> BaseHandler:
    """A handler to refuse ``request`` in the shape of its route: the route's own class when it
    is one of the service's, a plain JSON :class:`BaseHandler` otherwise (static files)."""
    if issubclass(target_class, BaseHandler):
        return target_class(application, request, **(target_kwargs or {}))
    return BaseHandler(application, request)


class BodyGuard(HTTPMessageDelegate):
    """Holds one request to the server's limits, then hands it to Tornado's own delegate.

    A body over ``limits.max_body_bytes`` is never passed on (unless the target sets its own
    limit): ``refuse`` answers 413 instead. A body that sends nothing for
    ``limits.idle_timeout`` seconds is cut off: the connection is closed, and the target hears
    of it through ``on_connection_close`` (an upload then discards what it stored).
    """

    def __init__(
        self,
        delegate: HTTPMessageDelegate,
        request: HTTPServerRequest,
        limits: ServerSettings,
        refuse: Callable[[RequestError], None],
        *,
        own_limit: bool,
    ) -> None:
        self.delegate = delegate
        self.request = request
        self.limits = limits
        self.refuse = refuse
        self.own_limit = own_limit
        self.received = 0
        self.refused = False
        self._last_read = 0.0
        self._idle_check: object | None = None

    def headers_received(
        self, start_line: RequestStartLine | ResponseStartLine, headers: HTTPHeaders
    ) -> Awaitable[None] | None:
        if self._refuse_malformed_length(headers):
            return None
        if not self.own_limit and self._refuse_declared_size(headers):
            return None
        ready = self.delegate.headers_received(start_line, headers)
        if ready is None:
            self._watch_body()
            return None
        return self._watch_body_after(ready)

    def data_received(self, chunk: bytes) -> Awaitable[None] | None:
        self._last_read = IOLoop.current().time()
        if self.refused:
            return None
        self.received += len(chunk)
        if not self.own_limit and self.received > self.limits.max_body_bytes:
            self._refuse(body_too_large(self.limits.max_body_bytes))
            return None
        return self.delegate.data_received(chunk)

    def finish(self) -> None:
        self._stop_watching()
        if not self.refused:
            self.delegate.finish()

    def on_connection_close(self) -> None:
        self._stop_watching()
        if not self.refused:
            self.delegate.on_connection_close()

    def _refuse_malformed_length(self, headers: HTTPHeaders) -> bool:
        """Refuse a ``Content-Length`` that is no length (``-5``, ``abc``, unequal copies):
        400 INVALID_CONTENT_LENGTH in the route's shape, where Tornado would write a bare 400.
        The body is not read: Tornado is told it is empty, and the connection closes once the
        answer is sent (it was answered before the request was read)."""
        value = headers.get("Content-Length")
        if value is None or _declared_length(headers) is not None:
            return False
        headers["Content-Length"] = "0"
        self._refuse(
            RequestError(
                400,
                "INVALID_CONTENT_LENGTH",
                (
                    f"Content-Length {value[:40]!r} is not a length: it must be a whole number of "
                    "bytes, 0 or more."
                ),
            )
        )
        return True

    def _refuse_declared_size(self, headers: HTTPHeaders) -> bool:
        """Refuse a declared ``Content-Length`` over the limit (True), or let Tornado read a
        chunked body the guard counts itself (False)."""
        connection = self.request.connection
        declared = _declared_length(headers)
        if declared is None:
            if isinstance(connection, HTTP1Connection):
                connection.set_max_body_size(_UNBOUNDED)
            return False
        if declared <= self.limits.max_body_bytes:
            return False
        if isinstance(connection, HTTP1Connection):
            # The body is never read: the connection closes once the answer is sent. Until
            # then, Tornado must not answer a second time with its own bare 400.
            connection.set_max_body_size(declared)
        self._refuse(body_too_large(self.limits.max_body_bytes))
        return True

    def _refuse(self, error: RequestError) -> None:
        self.refused = True
        self._stop_watching()
        self.refuse(error)

    async def _watch_body_after(self, ready: Awaitable[None]) -> None:
        await ready  # a streaming handler's prepare: the body is read after it
        self._watch_body()

    def _watch_body(self) -> None:
        self._last_read = IOLoop.current().time()
        self._schedule_idle_check(self.limits.idle_timeout)

    def _schedule_idle_check(self, delay: float) -> None:
        self._idle_check = IOLoop.current().call_later(delay, self._check_idle)

    def _check_idle(self) -> None:
        silent = IOLoop.current().time() - self._last_read
        if silent < self.limits.idle_timeout:
            self._schedule_idle_check(self.limits.idle_timeout - silent)
            return
        self._idle_check = None
        log.info(
            "closing the connection of %s %s from %s: its body sent nothing for %.0f s",
            self.request.method,
            self.request.path,
            self.request.remote_ip,
            silent,
        )
        connection = self.request.connection
        if isinstance(connection, HTTP1Connection):
            connection.close()

    def _stop_watching(self) -> None:
        if self._idle_check is not None:
            IOLoop.current().remove_timeout(self._idle_check)
            self._idle_check = None


def _declared_length(headers: HTTPHeaders) -> int | None:
    """The ``Content-Length`` a request declares, or None for a chunked body, none, or a value
    that is no length (not ASCII digits, or unequal comma-separated copies). A number too long
    to be real counts as the largest there is."""
    value = headers.get("Content-Length")
    if value is None:
        return None
    copies = set(re.split(r",[ \t]*", value))  # as Tornado reads duplicated lengths
    first = copies.pop()
    if copies or not (first.isascii() and first.isdigit()):
        return None
    declared = bounded_number(first, _UNBOUNDED)
    return _UNBOUNDED if declared is None else declared
