"""An AssetCheck webhook receiver with Python's standard library alone.

It verifies ``webhook-signature`` (Standard Webhooks, which also covers the id and the
timestamp), refuses a timestamp more than five minutes away (a replayed request), and
processes each ``webhook-id`` once: retries and redeliveries repeat the id.

    WEBHOOK_SECRET=whsec_... python receiver.py [PORT]

PORT 0 picks a free port; the first line printed is the address listened on. Each event
processed is printed as one JSON line. With the ``standardwebhooks`` package, ``verify`` is
``Webhook(secret).verify(body, headers)``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: Seconds a timestamp may be from now: a captured request cannot be replayed later.
TOLERANCE = 5 * 60
#: Seconds a processed webhook-id is remembered: the whole retry schedule, with room to spare.
REMEMBER = 24 * 60 * 60


class Refused(ValueError):
    """A request that is not a genuine, fresh AssetCheck delivery (answer 401)."""


def verify(secret: str, headers: Any, body: bytes, now: float | None = None) -> dict:
    """The event of ``body`` when ``headers`` (names in any case) sign it with ``secret``."""
    message_id = headers.get("webhook-id")
    timestamp = headers.get("webhook-timestamp")
    signatures = headers.get("webhook-signature")
    if not (message_id and timestamp and signatures and timestamp.isdigit()):
        raise Refused("missing webhook-id, webhook-timestamp or webhook-signature")
    if abs((time.time() if now is None else now) - int(timestamp)) > TOLERANCE:
        raise Refused("timestamp outside the tolerance")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    signed = f"{message_id}.{timestamp}.".encode() + body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    # During a secret rotation there are two signatures, space-separated: either may match.
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            return json.loads(body)
    raise Refused("no valid signature")


class SeenIds:
    """The webhook-ids processed in the last :data:`REMEMBER` seconds."""

    def __init__(self) -> None:
        self._seen: dict[str, float] = {}
        self._lock = threading.Lock()

    def add(self, message_id: str) -> bool:
        """Record ``message_id``; False when it was already there (a duplicate)."""
        now = time.monotonic()
        with self._lock:
            for old in [i for i, at in self._seen.items() if now - at > REMEMBER]:
                del self._seen[old]
            if message_id in self._seen:
                return False
            self._seen[message_id] = now
            return True


class Handler(BaseHTTPRequestHandler):
    secret = os.environ.get("WEBHOOK_SECRET", "")
    seen = SeenIds()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        try:
            event = verify(self.secret, self.headers, body)  # the raw bytes, before parsing
        except Refused:
            self.send_response(401)
            self.end_headers()
            return
        if self.seen.add(self.headers["webhook-id"]):
            print(json.dumps({"webhook_id": self.headers["webhook-id"], **event}), flush=True)
        # A duplicate is acknowledged too, or it would be retried.
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep stdout for the events


if __name__ == "__main__":
    server = ThreadingHTTPServer(
        ("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 8000), Handler
    )
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()
