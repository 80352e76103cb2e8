"""Limits on log-in and sign-up attempts (``docs/security.md``, Keys and accounts), kept in
process memory.

Each :class:`AttemptLimiter` allows ``limit`` attempts per key within a sliding ``window``.
The dashboard counts failed log-ins per account (so one account cannot be guessed at from
many addresses) and per client address (so one address cannot try many accounts), and
sign-ups per address. Like the API's rate limits, the counts are per service process.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

#: How often (in recorded attempts) keys whose attempts all left the window are forgotten.
PRUNE_EVERY = 1000


class AttemptLimiter:
    """At most ``limit`` attempts per key in any ``window`` seconds."""

    def __init__(self, limit: int, window: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self._clock = clock
        self._attempts: dict[str, deque[float]] = {}
        self._recorded = 0

    def retry_after(self, key: str) -> int:
        """0 when ``key`` may try now, otherwise the seconds until its oldest attempt in the
        window expires."""
        attempts = self._current(key)
        if attempts is None or len(attempts) < self.limit:
            return 0
        return max(1, math.ceil(attempts[0] + self.window - self._clock()))

    def record(self, key: str) -> None:
        self._attempts.setdefault(key, deque()).append(self._clock())
        self._recorded += 1
        if self._recorded % PRUNE_EVERY == 0:
            for stale in [k for k in self._attempts if not self._current(k)]:
                self._attempts.pop(stale, None)

    def reset(self, key: str) -> None:
        """Forget ``key``'s attempts (a successful log-in)."""
        self._attempts.pop(key, None)

    def _current(self, key: str) -> deque[float] | None:
        attempts = self._attempts.get(key)
        if attempts is not None:
            horizon = self._clock() - self.window
            while attempts and attempts[0] <= horizon:
                attempts.popleft()
        return attempts


def describe_wait(seconds: int) -> str:
    """A wait as people read it on a form: ``1 minute``, ``15 minutes``."""
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


@dataclass
class DashboardLimits:
    """The dashboard's limiters, shared by every request of one service process."""

    login_per_account: AttemptLimiter = field(default_factory=lambda: AttemptLimiter(5, 900))
    login_per_address: AttemptLimiter = field(default_factory=lambda: AttemptLimiter(20, 900))
    signup_per_address: AttemptLimiter = field(default_factory=lambda: AttemptLimiter(10, 3600))
