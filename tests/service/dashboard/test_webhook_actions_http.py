"""The webhook settings page's actions over plain HTTP against a real service: an account whose
receiver never answers cannot delay another account's deliveries, its test events stop at a
limit it is told about, and every state-changing action spends the account's rate."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assetcheck.service.db.tables import Account, WebhookAttempt, WebhookDelivery
from assetcheck.service.webhooks.outbox import pending_count
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.receiver import start_receiver
from tests.service.dashboard.test_accounts_http import Visitor, logged_in
from tests.service.harness import ServiceProcess, service_settings, wait_until, write_config
from tests.service.webhooks.receivers import HangingReceiver, LoopbackServer

MAX_PENDING = 12
#: Longer than any test here waits: an attempt to the receiver that never answers ends only
#: when the test is over.
HANGING_TIMEOUT = 300


@pytest.fixture(scope="module")
def hooked_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """A service whose receivers may be on 127.0.0.1, with a small pending limit and a timeout
    that outlasts the tests."""
    folder = tmp_path_factory.mktemp("hooked")
    webhooks = {
        "allowed_cidrs": ["127.0.0.1/32"],
        "poll_interval": 0.05,
        "timeout": HANGING_TIMEOUT,
        "max_pending_per_account": MAX_PENDING,
    }
    server = ServiceProcess(
        write_config(folder, service_settings(folder, "", webhooks=webhooks))
    ).start()
    site = Site(server)
    site.account()
    yield site
    server.stop()


def hooked(site: Site, url: str) -> tuple[Visitor, int]:
    """A Pro account logged in whose webhook URL is ``url``, and its id."""
    email = site.account("pro")
    visitor = Visitor(site.url)
    assert visitor.log_in(email).status_code == 302
    saved = visitor.post("/settings/webhooks/url", {"webhook_url": url})
    assert saved.headers["Location"] == "/settings/webhooks?done=saved"
    return visitor, Account.get(Account.email == email).id


def test_a_receiver_that_never_answers_delays_no_other_accounts_test_event(hooked_site: Site):
    receiver = start_receiver()
    try:
        with LoopbackServer(HangingReceiver()) as hanging:
            greedy, greedy_id = hooked(hooked_site, hanging.url)
            sent = [greedy.post("/settings/webhooks/test") for _ in range(MAX_PENDING + 1)]
            assert [answer.status_code for answer in sent] == [302] * MAX_PENDING + [429]
            assert "still waiting to be sent" in sent[-1].text
            patient, _ = hooked(hooked_site, receiver.url)
            assert patient.post("/settings/webhooks/test").status_code == 302
            assert wait_until(lambda: receiver.requests, timeout=60)
            # Delivered while every one of the greedy account's attempts is still hanging: none
            # has ended, all its test events are still waiting.
            assert (
                WebhookAttempt.select()
                .join(WebhookDelivery)
                .where(WebhookDelivery.account == greedy_id)
                .count()
                == 0
            )
            assert pending_count(greedy_id) == MAX_PENDING
    finally:
        receiver.stop()


def test_state_changing_dashboard_actions_spend_the_accounts_rate(hooked_site: Site):
    per_minute = hooked_site.server.config.plans["starter"].requests_per_minute
    visitor = logged_in(hooked_site, "starter")
    token = visitor.token()
    answers = []
    while len(answers) < 200 and (not answers or answers[-1].status_code != 429):
        answers.append(
            visitor.post("/settings/webhooks/secret/rotate", {"_xsrf": token}, xsrf=False)
        )
    limited = answers[-1]
    assert limited.status_code == 429 and len(answers) > per_minute
    assert int(limited.headers["Retry-After"]) >= 1
    assert limited.headers["Content-Type"].startswith("text/html")
    assert "Too many requests for this account: retry in" in limited.text
    assert visitor.get("/settings/webhooks").status_code == 200  # pages still show
    other = logged_in(hooked_site, "starter")
    assert other.post("/settings/webhooks/secret/rotate").status_code == 302  # per account
