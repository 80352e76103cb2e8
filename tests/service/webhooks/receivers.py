"""Real webhook receivers for the tests: Tornado apps served on a free loopback port.

Each receiver records every request it gets, then answers it its own way. Serve one with
:class:`LoopbackServer`, which runs it on an event loop in a thread of its own, so the code under
test can make blocking calls to it.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import socket
import ssl
import subprocess
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from tornado.httpserver import HTTPServer
from tornado.web import Application, Finish, RequestHandler


@dataclass(frozen=True)
class ReceivedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes


class Receiver:
    """Records each request in :attr:`requests` and answers :meth:`answer`'s status."""

    def __init__(self, headers: Mapping[str, str] | None = None) -> None:
        self.headers = dict(headers or {})
        self.requests: list[ReceivedRequest] = []

    async def answer(self, request: ReceivedRequest) -> int:
        return 200

    def application(self) -> Application:
        return Application([(r"/.*", _ReceiverHandler, {"receiver": self})])


class ReferenceReceiver(Receiver):
    """A receiver written from docs/webhooks.md alone (Headers).

    It recomputes the hex HMAC-SHA256 of the raw body with the secret, compares it with
    ``X-Service-Signature`` in constant time and answers 401 on mismatch; it processes each
    ``job_id`` once and acknowledges duplicates with 200, so the service stops retrying them.
    """

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret
        self.processed_job_ids: list[str] = []

    async def answer(self, request: ReceivedRequest) -> int:
        expected = hmac.new(self.secret.encode(), request.body, hashlib.sha256).hexdigest()
        given = request.headers.get("X-Service-Signature", "")
        if not hmac.compare_digest(expected.encode(), given.encode()):
            return 401
        job_id = json.loads(request.body)["job_id"]
        if job_id not in self.processed_job_ids:
            self.processed_job_ids.append(job_id)
        return 200


class ScriptedReceiver(Receiver):
    """Answers the statuses of ``script`` in turn, then its last one for ever."""

    def __init__(self, script: Sequence[int], headers: Mapping[str, str] | None = None) -> None:
        super().__init__(headers)
        self.script = list(script)

    async def answer(self, request: ReceivedRequest) -> int:
        return self.script[min(len(self.requests), len(self.script)) - 1]


class HangingReceiver(Receiver):
    """Reads the request and never answers; it lets go when the client hangs up."""

    async def answer(self, request: ReceivedRequest) -> int:
        await asyncio.Event().wait()
        raise AssertionError("unreachable: the event is never set")


class _ReceiverHandler(RequestHandler):
    def initialize(self, receiver: Receiver) -> None:
        self.receiver = receiver
        self.hung_up = asyncio.Event()

    def on_connection_close(self) -> None:
        self.hung_up.set()

    async def prepare(self) -> None:
        request = ReceivedRequest(
            method=self.request.method or "",
            path=self.request.path,
            headers=dict(self.request.headers),
            body=self.request.body,
        )
        self.receiver.requests.append(request)
        answering = asyncio.ensure_future(self.receiver.answer(request))
        hung_up = asyncio.ensure_future(self.hung_up.wait())
        await asyncio.wait([answering, hung_up], return_when=asyncio.FIRST_COMPLETED)
        hung_up.cancel()
        if not answering.done():
            answering.cancel()
            # nginx's status for "client closed the request": only the access log sees it
            self.set_status(499, reason="Client Closed Request")
            raise Finish()
        self.set_status(answering.result())
        for name, value in self.receiver.headers.items():
            self.set_header(name, value)
        self.finish()


class LoopbackServer:
    """Serves ``receiver`` on a free loopback port while the ``with`` block runs."""

    def __init__(
        self, receiver: Receiver, *, tls: ssl.SSLContext | None = None, host: str = "127.0.0.1"
    ) -> None:
        self.receiver = receiver
        self.tls = tls
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self._listener = socket.create_server((host, 0), family=family)
        self._listener.setblocking(False)
        self.port = self._listener.getsockname()[1]
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{'https' if self.tls else 'http'}://{host}:{self.port}/hooks"

    def __enter__(self) -> LoopbackServer:
        self._thread = threading.Thread(target=asyncio.run, args=(self._serve(),), daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout=10):
            raise RuntimeError("the loopback receiver did not start")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(timeout=10)

    async def _serve(self) -> None:
        server = HTTPServer(self.receiver.application(), ssl_options=self.tls)
        server.add_sockets([self._listener])
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._ready.set()
        await self._stopping.wait()
        server.stop()
        await server.close_all_connections()


def closed_loopback_port() -> int:
    """A 127.0.0.1 port nothing listens on: connecting to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass(frozen=True)
class ThrowawayCertificates:
    """A throwaway CA, and a server certificate it signed for one host name."""

    ca: Path
    certificate: Path
    key: Path

    def server_context(self, seen_server_names: list[str | None]) -> ssl.SSLContext:
        """A server TLS context that records the SNI name of each handshake."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(self.certificate, self.key)
        context.sni_callback = lambda _socket, name, _context: seen_server_names.append(name)
        return context

    def client_context(self) -> ssl.SSLContext:
        """A client TLS context that trusts only the throwaway CA."""
        return ssl.create_default_context(cafile=self.ca)


def make_certificates(folder: Path, host: str) -> ThrowawayCertificates:
    """Issue a CA and a certificate for ``host`` with the ``openssl`` command line tool."""
    new_key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
    extensions = folder / "server.ext"
    extensions.write_text(f"subjectAltName=DNS:{host}\nbasicConstraints=CA:FALSE\n")
    commands: list[list[Any]] = [
        [
            "req",
            "-x509",
            *new_key,
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
            "-days",
            "1",
            "-subj",
            "/CN=AssetCheck test CA",
            "-addext",
            "basicConstraints=critical,CA:TRUE",
            "-addext",
            "keyUsage=critical,keyCertSign",
        ],
        [
            "req",
            "-new",
            *new_key,
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
            "-subj",
            f"/CN={host}",
        ],
        [
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            "server.pem",
            "-days",
            "1",
            "-extfile",
            extensions,
        ],
    ]
    for command in commands:
        subprocess.run(["openssl", *command], cwd=folder, check=True, capture_output=True)
    return ThrowawayCertificates(
        ca=folder / "ca.pem", certificate=folder / "server.pem", key=folder / "server.key"
    )
