"""Expensive page renders taken in turns between accounts (``docs/security.md``, Limits).

At most ``slots`` renders run at once; when more are waiting, the next slot goes to the
account that has waited longest for a turn, whatever the number of pages it asked for, so one
account asking for many pages delays another's by at most one render per slot.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

#: Renders at once by default: the thread pool keeps room for the database and storage.
DEFAULT_SLOTS = 2


class RenderTurns:
    """``async with turns.turn(account_id):`` waits for the account's turn, then holds one
    slot. For one event loop: every method runs on it."""

    def __init__(self, slots: int = DEFAULT_SLOTS) -> None:
        self.slots = slots
        self._running = 0
        # Accounts with waiting renders, in the order they get their next turn.
        self._waiting: OrderedDict[int, deque[asyncio.Future[None]]] = OrderedDict()

    @asynccontextmanager
    async def turn(self, account_id: int) -> AsyncIterator[None]:
        if self._running < self.slots and not self._waiting:
            self._running += 1
        else:
            granted = asyncio.get_running_loop().create_future()
            self._waiting.setdefault(account_id, deque()).append(granted)
            try:
                await granted
            except asyncio.CancelledError:
                self._withdraw(account_id, granted)
                raise
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        """Hand the slot to the account first in line (it goes to the back of the line)."""
        while self._waiting:
            account_id, queue = next(iter(self._waiting.items()))
            granted = queue.popleft()
            del self._waiting[account_id]
            if queue:
                self._waiting[account_id] = queue
            if not granted.done():
                granted.set_result(None)
                return
        self._running -= 1

    def _withdraw(self, account_id: int, granted: asyncio.Future[None]) -> None:
        """A waiter that gave up: out of the line, or its slot passed on if it had one."""
        queue = self._waiting.get(account_id)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[account_id]
        elif granted.done() and not granted.cancelled():
            self._release()
