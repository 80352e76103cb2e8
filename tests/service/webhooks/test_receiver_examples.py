"""The receiver examples of ``examples/webhooks`` (Python, and Node.js when ``node`` is
installed) verify real deliveries from a running service, process a redelivery once, and
refuse a tampered body, a stale timestamp and a wrong secret."""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from assetcheck.service.db.tables import Account
from assetcheck.service.webhooks.outbox import ABANDONED, DELIVERED, queue_ping, redeliver
from assetcheck.service.webhooks.settings import set_webhook_url
from assetcheck.service.webhooks.signing import signature_headers
from tests.service.webhooks.harness import LOOPBACK_ONLY, attempts_of, wait_for_delivery

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "webhooks"


def command(language: str) -> list[str]:
    if language == "python":
        return [sys.executable, str(EXAMPLES / "receiver.py"), "0"]
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the Node.js receiver example cannot run")
    return [node, str(EXAMPLES / "receiver.mjs"), "0"]


class ExampleReceiver:
    """An example receiver in a child process: its URL, and the events it printed."""

    def __init__(self, argv: list[str], secret: str) -> None:
        self.process = subprocess.Popen(
            argv, stdout=subprocess.PIPE, text=True, env={"WEBHOOK_SECRET": secret, "PATH": ""}
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        first = self.lines.get(timeout=10)
        assert first.startswith("listening on "), first
        self.url = first.removeprefix("listening on ").strip()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)

    def next_event(self) -> dict:
        """The next event the receiver prints, waiting for it: Node.js writes to a pipe
        asynchronously, so a line may arrive after the HTTP answer that follows it."""
        return json.loads(self.lines.get(timeout=30))

    def next_event_is_the_sentinel(self, secret: str) -> bool:
        """Whether nothing was printed since the last event read: a fresh, signed sentinel
        event is posted and must be the next line (an event printed before it would come
        first, since the receiver prints before it answers)."""
        body = b'{"event":"sentinel","job_id":null}'
        headers = signed(secret, body, delivery_id="dlv_examplereceiversentinel1")
        assert requests.post(self.url, data=body, headers=headers, timeout=10).status_code == 204
        return self.next_event()["event"] == "sentinel"

    def stop(self) -> None:
        """End the receiver, then close its output once the reader has read it to the end."""
        self.process.terminate()
        self.process.wait(timeout=10)
        self.reader.join(timeout=10)
        assert self.process.stdout is not None
        self.process.stdout.close()


@pytest.fixture(params=["python", "node"])
def receiver(request, new_customer) -> Iterator[tuple[ExampleReceiver, Account, str]]:
    """An example receiver given the secret of a new customer whose default URL it is, the
    customer's account and that secret."""
    customer = new_customer()
    started = ExampleReceiver(command(request.param), customer.secret)
    set_webhook_url(customer.account, started.url, customer.box, LOOPBACK_ONLY)
    yield started, Account.get_by_id(customer.account.id), customer.secret
    started.stop()


def test_a_real_delivery_is_verified_and_a_redelivery_processed_once(receiver):
    example, account, secret = receiver
    delivery = wait_for_delivery(queue_ping(account).id)
    assert delivery.status == DELIVERED
    assert example.next_event() == {"webhook_id": delivery.id, "event": "ping", "job_id": None}

    redeliver(account.id, delivery.id)
    again = wait_for_delivery(delivery.id, statuses=(DELIVERED, ABANDONED))
    assert again.status == DELIVERED and [a.status_code for a in attempts_of(delivery.id)] == [
        204,
        204,
    ]
    assert example.next_event_is_the_sentinel(secret)  # acknowledged, not processed twice


def signed(
    secret: str,
    body: bytes,
    *,
    timestamp: int | None = None,
    delivery_id: str = "dlv_examplereceivertest0001",
) -> dict[str, str]:
    return signature_headers(body, delivery_id=delivery_id, secret=secret, timestamp=timestamp)


def test_tampered_stale_and_wrongly_keyed_requests_are_refused(receiver):
    example, _, secret = receiver
    body = b'{"event":"ping","job_id":null}'

    def post(data: bytes, headers: dict[str, str]) -> int:
        return requests.post(example.url, data=data, headers=headers, timeout=10).status_code

    assert post(body, signed(secret, body)) == 204
    assert example.next_event()["event"] == "ping"
    assert post(body.replace(b"null", b'"val_x"'), signed(secret, body)) == 401
    assert post(body, signed(secret, body, timestamp=int(time.time()) - 600)) == 401
    assert post(body, signed("whsec_" + "A" * 32, body)) == 401
    assert example.next_event_is_the_sentinel(secret)  # the refused requests printed nothing


def test_the_webhook_guide_points_to_the_tested_examples_and_cites_no_outside_document():
    guide = (EXAMPLES.parents[1] / "docs" / "webhooks.md").read_text()
    assert "examples/webhooks/receiver.py" in guide and "examples/webhooks/receiver.mjs" in guide
    assert "the interface, 6" not in guide
