"""The log-in and sign-up limiter: a sliding window of attempts per key."""

from __future__ import annotations

from assetcheck.dashboard.login_limits import AttemptLimiter


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
    monkeypatch.setattr("assetcheck.dashboard.login_limits.PRUNE_EVERY", 2)
    clock = Clock()
    limiter = AttemptLimiter(5, 60, clock)
    limiter.record("old")
    clock.now += 61
    limiter.record("new")
    assert list(limiter._attempts) == ["new"]
