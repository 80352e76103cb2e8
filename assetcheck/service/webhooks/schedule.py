"""When a delivery's next attempt is due (``docs/webhooks.md``, Retries).

``[webhooks] retry_delays`` lists the delay before each attempt: ``[0, 60, 300, 1800, 7200]``
sends attempt 1 at once, then waits 1 min, 5 min, 30 min and 2 h; its length is the number of
attempts, after which the delivery is abandoned.

Each delay counts from the end of the previous attempt, as "delay before attempt" reads: the
receiver always gets the full pause, however long an attempt took (up to the timeout) or
however late a scheduler tick ran. The outbox stores the result as the row's due time, so a
restarted service reads the schedule back rather than recomputing it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from assetcheck.config.webhooks import check_retry_delays

DEFAULT_RETRY_DELAYS = (0, 60, 300, 1800, 7200)


def next_attempt_at(
    attempts_made: int, since: datetime, delays: Sequence[float] = DEFAULT_RETRY_DELAYS
) -> datetime | None:
    """When attempt ``attempts_made + 1`` is due, or ``None`` when the delivery is abandoned.

    ``since`` is the delivery's creation time when no attempt was made yet, otherwise the time
    the last attempt ended. The result keeps ``since``'s timezone (or lack of one).
    """
    check_retry_delays(delays)
    if attempts_made < 0:
        raise ValueError(f"attempts_made must be 0 or more, not {attempts_made}")
    if attempts_made >= len(delays):
        return None
    return since + timedelta(seconds=delays[attempts_made])
