"""Growing delays after failures, per key, kept in process memory (``docs/security.md``,
Log-in delays).

A key may fail :attr:`Backoff.free_failures` times without waiting; each failure after that
makes it wait from that failure on, twice as long as the one before, up to a ceiling. A key
that has not failed for :attr:`Backoff.forget_after` seconds starts again from nothing.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

#: Keys a :class:`FailureBackoff` remembers at most; past it, the least recently failed go.
MAX_KEYS = 50_000
#: Doublings past which the delay is at its ceiling anyway (keeps ``2 ** n`` small).
MAX_DOUBLINGS = 40


@dataclass(frozen=True)
class Backoff:
    """The delay policy of one kind of key."""

    free_failures: int
    first_delay: float
    max_delay: float
    forget_after: float

    def __post_init__(self) -> None:
        if not 0 < self.first_delay <= self.max_delay <= self.forget_after:
            raise ValueError("delays must satisfy 0 < first_delay <= max_delay <= forget_after")

    def delay(self, failures: int) -> float:
        """Seconds to wait after the last of ``failures`` failures."""
        doublings = failures - self.free_failures
        if doublings < 0:
            return 0.0
        return min(self.max_delay, self.first_delay * 2 ** min(doublings, MAX_DOUBLINGS))


class FailureBackoff:
    """Failures per key under one :class:`Backoff` policy.

    Memory stays bounded: keys are kept in the order of their last failure, so the ones
    quiet for ``forget_after`` are dropped from the front as failures are recorded, and at
    most ``max_keys`` are kept.
    """

    def __init__(
        self, policy: Backoff, clock: Callable[[], float] = time.monotonic, max_keys: int = MAX_KEYS
    ) -> None:
        self.policy = policy
        self.max_keys = max_keys
        self._clock = clock
        #: key -> (failures, time of the last one), oldest last failure first.
        self._failures: dict[Hashable, tuple[int, float]] = {}

    def __len__(self) -> int:
        return len(self._failures)

    def retry_after(self, key: Hashable) -> int:
        """0 when ``key`` may try now, otherwise the whole seconds it must still wait."""
        failures, last = self._failures.get(key, (0, 0.0))
        remaining = last + self.policy.delay(failures) - self._clock()
        return math.ceil(remaining) if failures and remaining > 0 else 0

    def record(self, key: Hashable) -> None:
        """Count a failure of ``key`` now."""
        now = self._clock()
        self._forget_quiet(now)
        failures, _ = self._failures.pop(key, (0, 0.0))
        self._failures[key] = (failures + 1, now)
        while len(self._failures) > self.max_keys:
            del self._failures[next(iter(self._failures))]

    def reset(self, key: Hashable) -> None:
        """Forget ``key``'s failures."""
        self._failures.pop(key, None)

    def _forget_quiet(self, now: float) -> None:
        """Drop the keys that have not failed for ``forget_after``: all at the front."""
        horizon = now - self.policy.forget_after
        quiet = []
        for key, (_, last) in self._failures.items():
            if last > horizon:
                break
            quiet.append(key)
        for key in quiet:
            del self._failures[key]
