"""Rate limits: a token bucket per key, sized by the plan's ``requests_per_minute``. The
handlers count by account (``AccountHandler.prepare``): its API keys and its dashboard
session share one bucket.

Buckets live in the memory of one service process: with several nodes behind a balancer, each
node allows the plan's rate (documented in docs/operations.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Buckets untouched for this long are full again and can be forgotten.
IDLE_SECONDS = 120.0
PRUNE_EVERY = 1000


@dataclass
class _Bucket:
    tokens: float
    updated: float


class RateLimiter:
    """``acquire(key, per_minute)`` spends one request; it returns 0 when allowed, or the
    seconds to wait (``Retry-After``) when the key has used up its minute."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._buckets: dict[object, _Bucket] = {}
        self._calls = 0

    def acquire(self, key: object, per_minute: int) -> int:
        now = self._clock()
        self._prune(now)
        bucket = self._buckets.setdefault(key, _Bucket(float(per_minute), now))
        rate = per_minute / 60.0
        bucket.tokens = min(float(per_minute), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0
        return max(1, math.ceil((1.0 - bucket.tokens) / rate))

    def _prune(self, now: float) -> None:
        self._calls += 1
        if self._calls % PRUNE_EVERY:
            return
        for key in [k for k, b in self._buckets.items() if now - b.updated > IDLE_SECONDS]:
            del self._buckets[key]
