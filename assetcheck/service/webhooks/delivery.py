"""One webhook delivery attempt: a POST of the signed body to the vetted addresses of its URL.

The attempt is synchronous, for the outbox job that runs in a scheduler thread; inside, it runs
Tornado's HTTP client on an event loop of its own, which gives what ``http.client`` lacks: a
deadline for the whole attempt (a receiver sending its headers a byte at a time cannot stretch
it), a connection to a given address list (the address guard's answer) while the Host header,
TLS SNI and certificate checks still use the URL's host name, and no redirect following.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import ssl
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tornado.httpclient import HTTPRequest
from tornado.netutil import Resolver
from tornado.simple_httpclient import HTTPTimeoutError, SimpleAsyncHTTPClient

from assetcheck import __version__
from assetcheck.service.webhooks.urls import (
    HostResolver,
    WebhookTarget,
    WebhookUrlError,
    check_webhook_url,
)

DEFAULT_TIMEOUT = 10.0
USER_AGENT = f"AssetCheck/{__version__}"


@dataclass(frozen=True)
class AttemptResult:
    """What one attempt did, as the outbox stores it: ``status_code`` when the receiver
    answered, ``error`` (for people) when the attempt failed, ``duration_ms`` in both cases."""

    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        """The receiver answered 2xx."""
        return self.error is None


def send_attempt(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float = DEFAULT_TIMEOUT,
    allowed_cidrs: Iterable[str] = (),
    resolver: HostResolver | None = None,
    tls: ssl.SSLContext | None = None,
) -> AttemptResult:
    """POST ``body`` to ``url`` once, with ``headers`` (the signature headers), a JSON content
    type and AssetCheck's User-Agent; never raises for anything the receiver or network does.

    The URL goes through the address guard again with ``allowed_cidrs`` and ``resolver``
    (see :func:`~assetcheck.service.webhooks.urls.check_webhook_url`); a refusal is a failed attempt
    made without any connection. A 2xx answer is success. Any other status (3xx included:
    redirects are not followed), a connection or TLS error, and no complete answer within
    ``timeout`` seconds are failures. ``tls`` replaces the system trust store for https.
    Must not be called from a thread that runs an event loop.
    """
    started = time.monotonic()
    try:
        target = check_webhook_url(url, allowed_cidrs, resolver)
    except WebhookUrlError as refusal:
        return _result(started, None, str(refusal))
    status_code, error = asyncio.run(_post(target, body, headers, timeout, tls))
    return _result(started, status_code, error)


async def _post(
    target: WebhookTarget,
    body: bytes,
    headers: Mapping[str, str],
    timeout: float,
    tls: ssl.SSLContext | None,
) -> tuple[int | None, str | None]:
    client = SimpleAsyncHTTPClient(force_instance=True, resolver=PinnedResolver(target=target))
    request = HTTPRequest(
        target.url,
        method="POST",
        body=body,
        headers={"Content-Type": "application/json", "User-Agent": USER_AGENT, **headers},
        connect_timeout=timeout,
        request_timeout=timeout,
        follow_redirects=False,
        decompress_response=False,
        ssl_options=tls,
        streaming_callback=_discard,
    )  # only the status matters; don't buffer what is sent back
    try:
        response = await client.fetch(request, raise_error=False)
    except HTTPTimeoutError:
        return None, f"no complete answer within {timeout:g} s"
    # The receiver controls every byte this parses: whatever goes wrong is this attempt's
    # failure, to be recorded, never an exception for the outbox.
    except Exception as error:
        return None, _describe(error)
    finally:
        client.close()
    if 200 <= response.code < 300:
        return response.code, None
    answer = f"HTTP {response.code} {response.reason}".rstrip()
    if 300 <= response.code < 400:
        return response.code, f"{answer}: redirects are not followed"
    return response.code, answer


class PinnedResolver(Resolver):
    """Answers every lookup with the addresses the guard vetted.

    The requested host is ignored on purpose: whatever Tornado makes of the URL, the connection
    can only go where the check said it may.
    """

    def initialize(self, target: WebhookTarget) -> None:
        self.target = target

    async def resolve(
        self, host: str, port: int, family: socket.AddressFamily = socket.AF_UNSPEC
    ) -> list[tuple[int, Any]]:
        return [_socket_address(address, self.target.port) for address in self.target.addresses]


def _socket_address(address: str, port: int) -> tuple[int, Any]:
    if ipaddress.ip_address(address.partition("%")[0]).version == 4:
        return socket.AF_INET, (address, port)
    return socket.AF_INET6, (address, port, 0, 0)


def _describe(error: Exception) -> str:
    if isinstance(error, ssl.SSLCertVerificationError):
        return f"TLS certificate refused: {error.verify_message}"
    if isinstance(error, ssl.SSLError):
        return f"TLS failed: {error.reason or error}"
    if isinstance(error, OSError) and error.strerror:
        return f"connection failed: {error.strerror}"
    return f"connection failed: {error}" if str(error) else f"failed: {type(error).__name__}"


def _discard(chunk: bytes) -> None:
    pass


def _result(started: float, status_code: int | None, error: str | None) -> AttemptResult:
    return AttemptResult(
        status_code=status_code, error=error, duration_ms=round((time.monotonic() - started) * 1000)
    )
