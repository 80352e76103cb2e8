"""The retry schedule: attempt 1 at once, then +1 min, +5 min, +30 min, +2 h, then abandon."""

from datetime import UTC, datetime, timedelta

import pytest

from assetcheck.service.webhooks.schedule import DEFAULT_RETRY_DELAYS, next_attempt_at

CREATED = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)


def test_the_first_attempt_is_due_when_the_delivery_is_created():
    assert next_attempt_at(0, CREATED) == CREATED


@pytest.mark.parametrize(
    ("attempts_made", "delay"),
    [
        (1, timedelta(minutes=1)),
        (2, timedelta(minutes=5)),
        (3, timedelta(minutes=30)),
        (4, timedelta(hours=2)),
    ],
)
def test_each_retry_waits_its_delay_after_the_previous_attempt_ended(attempts_made, delay):
    ended = CREATED + timedelta(hours=3, seconds=10)
    assert next_attempt_at(attempts_made, ended) == ended + delay


def test_after_five_attempts_the_delivery_is_abandoned():
    assert next_attempt_at(5, CREATED) is None


def test_a_receiver_that_always_fails_gets_exactly_five_attempts():
    attempts, due = 0, next_attempt_at(0, CREATED)
    while due is not None:
        attempts += 1
        due = next_attempt_at(attempts, due)
    assert attempts == len(DEFAULT_RETRY_DELAYS) == 5


def test_delays_scaled_down_for_tests_give_the_same_shape():
    delays = [0, 0.1, 0.5]
    assert next_attempt_at(1, CREATED, delays) == CREATED + timedelta(milliseconds=100)
    assert next_attempt_at(3, CREATED, delays) is None


def test_the_timezone_of_the_reference_time_is_kept():
    naive = datetime(2025, 3, 1, 12, 0)
    assert next_attempt_at(1, naive).tzinfo is None
    assert next_attempt_at(1, CREATED).tzinfo is UTC


@pytest.mark.parametrize("delays", [[], [0, -60], [0, "60"], [True]])
def test_a_schedule_that_is_not_a_list_of_non_negative_seconds_is_refused(delays):
    with pytest.raises(ValueError, match="retry_delays"):
        next_attempt_at(0, CREATED, delays)


def test_a_negative_attempt_count_is_refused():
    with pytest.raises(ValueError, match="attempts_made"):
        next_attempt_at(-1, CREATED)
