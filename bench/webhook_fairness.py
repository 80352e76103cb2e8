"""Another account's webhook while one account's receiver never answers.

    python bench/webhook_fairness.py [--rounds 5]

Starts ``assetcheck serve`` on 127.0.0.1 (SQLite in a temporary folder, webhook receivers
allowed on 127.0.0.1, every other webhook setting at its default). A greedy account whose
receiver reads each request and never answers presses "Send test event" in the dashboard
until it is refused; then, ``--rounds`` times, a patient account presses it once and the time
until its receiver has the event is measured. Prints how many of the greedy account's events
were accepted, what became of them meanwhile, and the patient account's delivery times.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from assetcheck.service.db.tables import WebhookAttempt, WebhookDelivery
from assetcheck.service.webhooks.outbox import pending_count
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.receiver import start_receiver
from tests.service.dashboard.test_webhook_actions_http import hooked
from tests.service.harness import ServiceProcess, service_settings, wait_until, write_config
from tests.service.webhooks.receivers import HangingReceiver, LoopbackServer

#: The greedy account presses the button at most this many times.
PRESSES = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="webhook-bench-"))
    settings = service_settings(folder, "", webhooks={"allowed_cidrs": ["127.0.0.1/32"]})
    server = ServiceProcess(write_config(folder, settings)).start()
    receiver = start_receiver()
    try:
        site = Site(server)
        with LoopbackServer(HangingReceiver()) as hanging:
            greedy, greedy_id = hooked(site, hanging.url)
            started = time.monotonic()
            answers = [greedy.post("/settings/webhooks/test").status_code for _ in range(PRESSES)]
            pressed = time.monotonic() - started
            print(
                f"greedy account: {answers.count(302)} test events accepted, "
                f"{len(answers) - answers.count(302)} refused, in {pressed:.1f} s"
            )
            patient, _ = hooked(site, receiver.url)
            times = []
            for _ in range(args.rounds):
                before = len(receiver.requests)
                sent = time.monotonic()
                patient.post("/settings/webhooks/test")
                wait_until(lambda count=before: len(receiver.requests) > count, timeout=600)
                times.append(time.monotonic() - sent)
            ended = (
                WebhookAttempt.select()
                .join(WebhookDelivery)
                .where(WebhookDelivery.account == greedy_id)
                .count()
            )
            print(
                f"greedy account meanwhile: {pending_count(greedy_id)} deliveries pending, "
                f"{ended} attempts ended (each after the 10 s timeout)"
            )
            print(
                f"patient account's test event delivered in: median "
                f"{statistics.median(times):.2f} s, max {max(times):.2f} s "
                f"over {len(times)} rounds"
            )
    finally:
        receiver.server.shutdown()
        server.stop()


if __name__ == "__main__":
    main()
