"""Python's cyclic garbage collector held off, for the tests that count what it would find."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No automatic collection inside the block, so every reference cycle made there is still
    there for an explicit :func:`gc.collect` to count; the collector runs again afterwards if
    it ran before."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
