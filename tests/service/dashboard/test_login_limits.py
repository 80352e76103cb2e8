"""The log-in and sign-up limits: growing delays after failed log-ins (by pair, address,
account and known browser) on a fake clock, and the sign-up limiter's sliding window."""

from __future__ import annotations

import pytest

from assetcheck.config.loading import config_from
from assetcheck.config.values import ConfigError
from assetcheck.service.dashboard.backoff import Backoff, FailureBackoff
from assetcheck.service.dashboard.known_devices import MAX_ACCOUNTS, KnownDevice
from assetcheck.service.dashboard.login_limits import (
    AttemptLimiter,
    DashboardLimits,
    LoginAttempt,
    LoginThrottle,
    describe_wait,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_key_may_try_up_to_the_limit_then_waits_for_its_oldest_attempt_to_expire():
    clock = Clock()
    limiter = AttemptLimiter(3, 60, clock)
    for seconds in (0, 10, 20):
        clock.now = 1000 + seconds
        assert limiter.retry_after("ada@studio.example") == 0
        limiter.record("ada@studio.example")
    assert limiter.retry_after("ada@studio.example") == 40  # the first attempt leaves at 60 s
    clock.now = 1060
    assert limiter.retry_after("ada@studio.example") == 0


def test_keys_are_counted_apart_and_a_reset_forgets_one():
    limiter = AttemptLimiter(1, 60, Clock())
    limiter.record("a")
    limiter.record("b")
    assert limiter.retry_after("a") > 0 and limiter.retry_after("b") > 0
    limiter.reset("a")
    assert limiter.retry_after("a") == 0 and limiter.retry_after("b") > 0


def test_keys_whose_attempts_all_expired_are_forgotten(monkeypatch):
    monkeypatch.setattr("assetcheck.service.dashboard.login_limits.PRUNE_EVERY", 2)
    clock = Clock()
    limiter = AttemptLimiter(5, 60, clock)
    limiter.record("old")
    clock.now += 61
    limiter.record("new")
    assert list(limiter._attempts) == ["new"]


def test_delays_grow_from_the_first_paid_failure_and_stop_at_the_ceiling():
    policy = Backoff(free_failures=3, first_delay=1, max_delay=900, forget_after=3600)
    assert [policy.delay(n) for n in (0, 2, 3, 4, 5, 12, 13, 10**6)] == [
        0,
        0,
        1,
        2,
        4,
        512,
        900,
        900,
    ]


def test_a_key_waits_its_growing_delay_from_its_last_failure():
    clock = Clock()
    backoff = FailureBackoff(Backoff(2, 1, 900, 3600), clock)
    waits = []
    for _ in range(6):
        backoff.record("key")
        waits.append(backoff.retry_after("key"))
        clock.now += waits[-1]  # the client waits exactly as long as it is told
    assert waits == [0, 1, 2, 4, 8, 16]
    clock.now -= 1
    assert backoff.retry_after("key") == 1 and backoff.retry_after("other") == 0


def test_a_key_quiet_for_the_forget_period_starts_over_and_a_reset_forgets_it():
    clock = Clock()
    backoff = FailureBackoff(Backoff(2, 10, 60, 600), clock)
    for _ in range(3):
        backoff.record("key")
    assert backoff.retry_after("key") == 20
    clock.now += 600
    backoff.record("key")  # the first failure again: free
    assert backoff.retry_after("key") == 0
    backoff.record("key")
    backoff.reset("key")
    assert backoff.retry_after("key") == 0


def test_keys_quiet_for_the_forget_period_are_dropped_and_the_count_of_keys_is_capped():
    clock = Clock()
    backoff = FailureBackoff(Backoff(1, 1, 60, 600), clock, max_keys=100)
    for number in range(50):
        backoff.record(f"old-{number}")
    clock.now += 601
    backoff.record("new")
    assert len(backoff) == 1
    for number in range(10_000):  # an address flood: memory stays at the cap
        backoff.record(f"flood-{number}")
    assert len(backoff) == 100
    backoff.record("flood-9999")
    backoff.record("flood-9999")
    assert backoff.retry_after("flood-9999") > 0  # the most recent are the ones kept


def test_the_guessers_failures_slow_its_own_pair_not_the_owner():
    clock = Clock()
    throttle = LoginThrottle(1, 900, clock)
    guesser = LoginAttempt("ada@studio.example", "198.51.100.7")
    owner = LoginAttempt("ada@studio.example", "203.0.113.5")
    for _ in range(3):
        assert throttle.retry_after(guesser) == 0
        throttle.failed(guesser)
    assert throttle.retry_after(guesser) == 1 and throttle.retry_after(owner) == 0
    throttle.succeeded(owner)
    assert throttle.retry_after(guesser) == 1


def test_one_address_across_accounts_pays_after_ten_failures():
    throttle = LoginThrottle(1, 900, Clock())
    for number in range(10):
        throttle.failed(LoginAttempt(f"artist-{number}@studio.example", "198.51.100.7"))
    assert throttle.retry_after(LoginAttempt("new@studio.example", "198.51.100.7")) == 1
    assert throttle.retry_after(LoginAttempt("new@studio.example", "198.51.100.8")) == 0


def test_a_spread_guess_slows_unknown_browsers_of_the_account_but_not_a_known_one():
    throttle = LoginThrottle(1, 900, Clock())
    for number in range(10):
        throttle.failed(LoginAttempt("ada@studio.example", f"198.51.100.{number}"))
    assert throttle.retry_after(LoginAttempt("ada@studio.example", "203.0.113.5")) == 1
    known = LoginAttempt("ada@studio.example", "203.0.113.5", device="owners-laptop")
    assert throttle.retry_after(known) == 0


def test_a_known_browser_that_guesses_is_slowed_by_its_own_count_wherever_it_is():
    throttle = LoginThrottle(1, 900, Clock())
    for number in range(3):
        throttle.failed(LoginAttempt("ada@studio.example", f"198.51.100.{number}", "stolen"))
    assert throttle.retry_after(LoginAttempt("ada@studio.example", "198.51.100.9", "stolen")) == 1
    throttle.succeeded(LoginAttempt("ada@studio.example", "203.0.113.5", "stolen"))
    assert throttle.retry_after(LoginAttempt("ada@studio.example", "198.51.100.9", "stolen")) == 0


def test_a_success_starts_the_pair_over_but_not_the_address_nor_the_account():
    throttle = LoginThrottle(1, 900, Clock())
    for number in range(10):  # an address guessing ten accounts, then logging in to its own
        throttle.failed(LoginAttempt(f"artist-{number}@studio.example", "198.51.100.7"))
    own = LoginAttempt("artist-0@studio.example", "198.51.100.7")
    throttle.succeeded(own)
    assert throttle.retry_after(own) == 1  # still the address's delay
    assert throttle.by_pair.retry_after(("artist-0@studio.example", "198.51.100.7")) == 0


@pytest.mark.parametrize(
    ("seconds", "words"),
    [(1, "1 second"), (45, "45 seconds"), (60, "1 minute"), (61, "2 minutes"), (900, "15 minutes")],
)
def test_waits_are_described_in_seconds_then_minutes(seconds, words):
    assert describe_wait(seconds) == words


def test_a_known_device_keeps_its_most_recent_accounts_and_names_them_by_digest():
    device = KnownDevice.new()
    for number in range(MAX_ACCOUNTS + 2):
        device = device.remembering(f"artist-{number}@studio.example")
    assert device.knows(f"artist-{MAX_ACCOUNTS + 1}@studio.example")
    assert not device.knows("artist-0@studio.example")
    assert "studio.example" not in device.cookie_value()
    assert KnownDevice.parse(device.cookie_value().encode()) == device
    assert KnownDevice.parse(None) is None and KnownDevice.parse(b" ") is None


@pytest.mark.parametrize(
    "accounts",
    [
        {"login_first_delay": 0},
        {"login_first_delay": 10, "login_max_delay": 5},
        {"login_max_delay": 7200},
        {"login_first_delay": True},
        {"login_max_delay": "900"},
    ],
)
def test_unusable_log_in_delays_are_refused_at_start(accounts):
    with pytest.raises(ConfigError, match="login_first_delay"):
        config_from({"accounts": accounts}, environ={})


def test_the_log_in_delays_come_from_the_config():
    config = config_from({"accounts": {"login_first_delay": 5, "login_max_delay": 60}}, environ={})
    limits = DashboardLimits.from_settings(config.accounts)
    assert limits.login.by_pair.policy == Backoff(3, 5, 60, LoginThrottle.QUIET)
