"""Sending due webhook deliveries: the scheduler tick every node runs (``serve`` and ``worker``).

Each tick claims due deliveries from the outbox and gives each to a thread of its own, at most
:data:`MAX_CONCURRENT_SENDS` at once. Claims take turns between accounts, and an account has at
most ``[webhooks] max_sending_per_account`` attempts under way on all nodes together
(``assetcheck.service.webhooks.outbox``, Fair claims): a receiver that keeps its attempts waiting
for
the whole timeout holds that many senders, never all of them, and delays no other account's
delivery by more than a turn. Everything a delivery needs is in its row and its account:
a node that dies loses nothing but its claims, which expire and are taken up again.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
from concurrent.futures import ThreadPoolExecutor

import peewee

from assetcheck.config.webhooks import WebhookSettings
from assetcheck.service.db.tables import Account, WebhookDelivery, utcnow
from assetcheck.service.observability import log_context
from assetcheck.service.observability.metrics import service_metrics
from assetcheck.service.webhooks.delivery import AttemptResult, send_attempt
from assetcheck.service.webhooks.outbox import ABANDONED, DELIVERED, claim_due, record_attempt
from assetcheck.service.webhooks.secret_box import SecretBox, SecretUnreadable
from assetcheck.service.webhooks.settings import signing_secrets
from assetcheck.service.webhooks.signing import signature_headers

log = logging.getLogger(__name__)

MAX_CONCURRENT_SENDS = 8
#: A claim lasts the timeout and this much more: the DNS lookup before the attempt is not
#: under the timeout, and recording the result takes a moment.
CLAIM_MARGIN = 30.0


class WebhookDispatcher:
    """Claims due deliveries on each :meth:`tick` and sends them from a pool of threads, on
    the schedule and limits of ``settings``.

    ``secret_box`` opens the accounts' sealed secrets to sign; ``owner`` names this node in
    claims (default: host name and process id).
    """

    def __init__(
        self,
        settings: WebhookSettings,
        database: peewee.Database,
        secret_box: SecretBox,
        owner: str | None = None,
        max_concurrent: int = MAX_CONCURRENT_SENDS,
    ) -> None:
        self.settings = settings
        self.database = database
        self.secret_box = secret_box
        self.owner = owner or f"{socket.gethostname()}:{os.getpid()}"
        self._free_senders = threading.BoundedSemaphore(max_concurrent)
        self._senders = ThreadPoolExecutor(max_concurrent, thread_name_prefix="webhook")

    @property
    def interval(self) -> float:
        """Seconds between ticks: ``[webhooks] poll_interval``."""
        return self.settings.poll_interval

    def tick(self) -> None:
        """Claim due deliveries while a sender is free, and start sending each."""
        while self._free_senders.acquire(blocking=False):
            try:
                delivery = claim_due(
                    self.database,
                    self.owner,
                    self.settings.timeout + CLAIM_MARGIN,
                    max_sending=self.settings.max_sending_per_account,
                )
            except Exception:  # the database is away: the scheduler logs it, the next tick retries
                self._free_senders.release()
                raise
            if delivery is None:
                self._free_senders.release()
                return
            self._senders.submit(self._send_and_free, delivery)

    def close(self) -> None:
        """Wait for the attempts under way (each ends within the timeout)."""
        self._senders.shutdown(wait=True)

    def deliver(self, delivery: WebhookDelivery) -> str | None:
        """Make one attempt of a claimed delivery and record it; returns the delivery's new
        status (None when its claim was lost meanwhile)."""
        with log_context.bound(job_id=delivery.job_id, account_id=delivery.account_id):
            return self._deliver(delivery)

    def _deliver(self, delivery: WebhookDelivery) -> str | None:
        account = Account.get_by_id(delivery.account_id)
        url = delivery.url or account.webhook_url
        started_at = utcnow()
        if url is None:
            result = AttemptResult(
                status_code=None,
                duration_ms=0,
                error="no webhook URL: the account's default was removed",
            )
        else:
            result = self._sign_and_send(delivery, account, url)
        status = record_attempt(delivery, started_at, result, self.settings.retry_delays)
        _log_attempt(delivery, result, status)
        service_metrics().webhook_attempts.labels(outcome=_outcome(result, status)).inc()
        return status

    def _sign_and_send(
        self, delivery: WebhookDelivery, account: Account, url: str
    ) -> AttemptResult:
        """One signed attempt; a secret that does not open is a failed attempt that says so
        (nothing is sent unsigned)."""
        body = delivery.body.encode("ascii")
        try:
            secret, previous = signing_secrets(account, self.secret_box)
        except SecretUnreadable as error:
            return AttemptResult(status_code=None, duration_ms=0, error=str(error))
        headers = signature_headers(
            body, delivery_id=delivery.id, secret=secret, previous_secret=previous
        )
        return send_attempt(
            url,
            body,
            headers,
            timeout=self.settings.timeout,
            allowed_cidrs=self.settings.allowed_cidrs,
        )

    def _send_and_free(self, delivery: WebhookDelivery) -> None:
        try:
            self.deliver(delivery)
        # The pool would keep the error in a future nobody reads; the claim expires, and the
        # delivery is attempted again.
        except Exception:
            log.exception("webhook %s: the attempt raised", delivery.id)
        finally:
            self._free_senders.release()


def _outcome(result: AttemptResult, status: str | None) -> str:
    """The metric's label for an attempt: delivered, failed (retried later) or abandoned."""
    if result.ok:
        return "delivered"
    return "abandoned" if status == ABANDONED else "failed"


def _log_attempt(delivery: WebhookDelivery, result: AttemptResult, status: str | None) -> None:
    # Never the URL (its path or query may hold a token) nor the body.
    number = delivery.attempts_made + 1
    what = f"webhook {delivery.id} ({delivery.event}) attempt {number}"
    if status is None:
        log.warning("%s: its claim expired before the result was stored", what)
    elif status == DELIVERED:
        log.info("%s: delivered, HTTP %s in %d ms", what, result.status_code, result.duration_ms)
    elif status == ABANDONED:
        log.warning("%s failed (%s): abandoned", what, result.error)
    else:
        log.info("%s failed (%s): will retry", what, result.error)
