"""Failed log-ins slow the client that makes them, never the account's owner
(``docs/security.md``, Log-in delays), over real HTTP.

The servers here trust ``X-Forwarded-For`` (as behind a proxy), so each visitor can come from
an address of its own, and start their delays at 10 minutes so that no answer depends on how
fast the test runs. The delays' growth is proven with a fake clock in ``test_login_limits.py``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.service.dashboard.conftest import PASSWORD, Site
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import ServiceProcess, service_settings, write_config

FIRST_DELAY = 600
WRONG = "wrong password"
NEW_PASSWORD = "a brand new passphrase"
#: Loopback addresses a proxy could name, one per visitor of this module.
_ADDRESSES = (f"127.1.{n // 250}.{n % 250 + 1}" for n in itertools.count())


def start_slow_site(folder: Path, trust_forwarded_headers: bool) -> Site:
    settings = service_settings(
        folder,
        "",
        server={"trust_forwarded_headers": trust_forwarded_headers},
        accounts={"login_first_delay": FIRST_DELAY, "login_max_delay": 3600},
    )
    return Site(ServiceProcess(write_config(folder, settings)).start())


@pytest.fixture(scope="module")
def proxied_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    site = start_slow_site(tmp_path_factory.mktemp("proxied"), trust_forwarded_headers=True)
    site.account()  # not a fresh install
    yield site
    site.server.stop()


@pytest.fixture(scope="module")
def direct_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    site = start_slow_site(tmp_path_factory.mktemp("direct"), trust_forwarded_headers=False)
    site.account()
    yield site
    site.server.stop()


def visitor_at(site: Site) -> Visitor:
    """A visitor the proxy names as a client address no other visitor has."""
    visitor = Visitor(site.url)
    visitor.http.headers["X-Forwarded-For"] = next(_ADDRESSES)
    return visitor


def test_wrong_passwords_from_other_addresses_do_not_keep_the_owner_out(proxied_site: Site):
    email = proxied_site.account()
    for _ in range(5):
        assert visitor_at(proxied_site).log_in(email, WRONG).status_code == 400
    assert visitor_at(proxied_site).log_in(email).status_code == 302


def test_one_address_guessing_at_one_account_waits_after_three_failures(proxied_site: Site):
    email, guesser = proxied_site.account(), visitor_at(proxied_site)
    assert [guesser.log_in(email, WRONG).status_code for _ in range(4)] == [400, 400, 400, 429]
    slowed = guesser.log_in(email)  # the right password waits as well
    assert slowed.status_code == 429 and 0 < int(slowed.headers["Retry-After"]) <= FIRST_DELAY
    assert "Too many failed attempts: try again in 10 minutes." in slowed.text
    assert "assetcheck_session" not in guesser.http.cookies
    assert visitor_at(proxied_site).log_in(email).status_code == 302  # the owner, elsewhere


def test_one_address_trying_many_accounts_is_slowed_across_them(proxied_site: Site):
    emails = [proxied_site.account() for _ in range(11)]
    guesser = visitor_at(proxied_site)
    for email in emails[:10]:
        assert guesser.log_in(email, WRONG).status_code == 400
    assert guesser.log_in(emails[10]).status_code == 429
    assert visitor_at(proxied_site).log_in(emails[10]).status_code == 302


def test_a_guess_spread_over_many_addresses_slows_unknown_browsers_only(proxied_site: Site):
    email = proxied_site.account()
    owner = visitor_at(proxied_site)
    assert owner.log_in(email).status_code == 302
    assert owner.post("/logout").status_code == 302
    for _ in range(10):
        assert visitor_at(proxied_site).log_in(email, WRONG).status_code == 400
    assert visitor_at(proxied_site).log_in(email).status_code == 429  # a browser never seen
    stranger = visitor_at(proxied_site)  # known, but to another account: it vouches for none
    assert stranger.log_in(proxied_site.account()).status_code == 302
    assert stranger.log_in(email).status_code == 429
    assert owner.log_in(email).status_code == 302  # the browser that logged in before


def test_a_wrong_current_password_slows_whoever_typed_it_not_the_owner(proxied_site: Site):
    email = proxied_site.account()
    owner, intruder = visitor_at(proxied_site), visitor_at(proxied_site)
    assert owner.log_in(email).status_code == 302
    assert intruder.log_in(email).status_code == 302
    guess = {"current_password": WRONG, "new_password": NEW_PASSWORD}
    statuses = [intruder.post("/profile/password", guess).status_code for _ in range(4)]
    assert statuses == [400, 400, 400, 429]
    right = {"current_password": PASSWORD, "new_password": NEW_PASSWORD}
    slowed = intruder.post("/profile/password", right)
    assert slowed.status_code == 429 and int(slowed.headers["Retry-After"]) > 0
    assert "Too many wrong passwords: try again in 10 minutes." in slowed.text
    changed = owner.post("/profile/password", right)
    assert changed.headers["Location"] == "/profile?done=password"


def test_a_successful_log_in_gives_its_address_a_fresh_start_on_the_account(proxied_site: Site):
    email, visitor = proxied_site.account(), visitor_at(proxied_site)
    assert [visitor.log_in(email, WRONG).status_code for _ in range(2)] == [400, 400]
    assert visitor.log_in(email).status_code == 302
    assert [visitor.log_in(email, WRONG).status_code for _ in range(4)] == [400, 400, 400, 429]


def test_forwarded_addresses_are_believed_only_when_configured(direct_site: Site):
    email = direct_site.account()
    statuses = [visitor_at(direct_site).log_in(email, WRONG).status_code for _ in range(4)]
    assert statuses == [400, 400, 400, 429]  # each claims another address; all are 127.0.0.1
