"""Limits on log-in and sign-up attempts (``docs/security.md``, Log-in delays and Sign-up),
kept in process memory.

Failed log-ins (and wrong current passwords on the profile) make the client that sent them
wait, with growing delays (:class:`LoginThrottle`), counted by account and client address, by
address across accounts, and by account for browsers that never logged in to it. Sign-ups
are counted per address in a sliding window (:class:`AttemptLimiter`). Like the API's rate
limits, the counts are per service process.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from assetcheck.config.accounts import AccountSettings
from assetcheck.service.dashboard.backoff import Backoff, FailureBackoff

#: How often (in recorded attempts) keys whose attempts all left the window are forgotten.
PRUNE_EVERY = 1000


class AttemptLimiter:
    """At most ``limit`` attempts per key in any ``window`` seconds."""

    def __init__(
        self, limit: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
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


@dataclass(frozen=True)
class LoginAttempt:
    """Who tries a password: the account as typed (lowercased), the client's address, and the
    token of this browser when it has logged in to that account before (``known_devices``)."""

    account: str
    address: str
    device: str | None = None


class LoginThrottle:
    """Growing delays after failed log-ins, so that a guesser slows itself, not the owner.

    Every attempt is held to three counts, and waits for the longest of their delays: its
    (account, address) pair, its address across accounts, and either its known browser
    (``device``) or, for a browser that never logged in to the account, the account across
    all such browsers. The owner's known browser is thus never slowed by guesses from
    elsewhere; a guess spread over many addresses is still bounded by the account's count.
    """

    #: Seconds without a failure after which the pair, address and device counts start over.
    QUIET = 3600
    #: The same for an account's count of unknown browsers: a day, so that a spread-out guess
    #: cannot get its free failures back every hour.
    ACCOUNT_QUIET = 86_400

    def __init__(
        self, first_delay: float, max_delay: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        def counter(free_failures: int, quiet: float) -> FailureBackoff:
            return FailureBackoff(Backoff(free_failures, first_delay, max_delay, quiet), clock)

        self.by_pair = counter(3, self.QUIET)
        self.by_address = counter(10, self.QUIET)
        self.by_device = counter(3, self.QUIET)
        self.by_account = counter(10, self.ACCOUNT_QUIET)

    def retry_after(self, attempt: LoginAttempt) -> int:
        """0 when ``attempt`` may be checked now, otherwise the whole seconds to wait."""
        return max(counter.retry_after(key) for counter, key in self._counts(attempt))

    def failed(self, attempt: LoginAttempt) -> None:
        """Count a wrong password for each of the attempt's counts."""
        for counter, key in self._counts(attempt):
            counter.record(key)

    def succeeded(self, attempt: LoginAttempt) -> None:
        """The right password: the pair (and the known browser) start over. The address and
        account counts do not, or a guesser could clear them by logging in to an account of
        its own."""
        self.by_pair.reset((attempt.account, attempt.address))
        if attempt.device is not None:
            self.by_device.reset((attempt.device, attempt.account))

    def _counts(self, attempt: LoginAttempt) -> list[tuple[FailureBackoff, Hashable]]:
        owner_side = (
            (self.by_device, (attempt.device, attempt.account))
            if attempt.device is not None
            else (self.by_account, attempt.account)
        )
        return [
            (self.by_pair, (attempt.account, attempt.address)),
            (self.by_address, attempt.address),
            owner_side,
        ]


def describe_wait(seconds: int) -> str:
    """A wait as people read it on a form: ``1 second``, ``40 seconds``, ``15 minutes``."""
    if seconds < 60:
        count, unit = seconds, "second"
    else:
        count, unit = math.ceil(seconds / 60), "minute"
    return f"{count} {unit}{'' if count == 1 else 's'}"


@dataclass
class DashboardLimits:
    """The dashboard's limiters, shared by every request of one service process."""

    login: LoginThrottle
    signup_per_address: AttemptLimiter = field(default_factory=lambda: AttemptLimiter(10, 3600))

    @classmethod
    def from_settings(cls, accounts: AccountSettings) -> DashboardLimits:
        """The limits ``[accounts]`` sets (``login_first_delay``, ``login_max_delay``)."""
        return cls(login=LoginThrottle(accounts.login_first_delay, accounts.login_max_delay))
