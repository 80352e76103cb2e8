"""Rendered job pages kept in memory, so a report is arranged and rendered once, not once per
visit: least recently used first out, bounded in bytes (``docs/dashboard.md``, The job page)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

#: What the cache holds at most by default: a few hundred pages of a bounded size.
DEFAULT_MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class CacheStats:
    """Lookups that found a page (``hits``) or not (``misses``), and what is held now."""

    hits: int
    misses: int
    entries: int
    bytes: int


class RenderedPages:
    """Rendered HTML by key, at most ``max_bytes`` of it (UTF-8 size); the least recently used
    pages leave first, and a page larger than the whole cache is never kept. Safe to use from
    several threads at once."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._pages: OrderedDict[str, tuple[str, int]] = OrderedDict()
        self._bytes = self._hits = self._misses = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self._lock:
            found = self._pages.get(key)
            if found is None:
                self._misses += 1
                return None
            self._hits += 1
            self._pages.move_to_end(key)
            return found[0]

    def put(self, key: str, page: str) -> None:
        size = len(page.encode())
        with self._lock:
            if key in self._pages:
                self._bytes -= self._pages.pop(key)[1]
            if size > self.max_bytes:
                return
            self._pages[key] = (page, size)
            self._bytes += size
            while self._bytes > self.max_bytes:
                self._bytes -= self._pages.popitem(last=False)[1][1]

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(self._hits, self._misses, len(self._pages), self._bytes)
