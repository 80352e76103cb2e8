"""A one-line progress display on stderr, shown only when stderr is a terminal.

The display's thread (and :mod:`threading`) is started only then: a piped or CI run loads no
threads (``docs/performance.md``)."""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import threading

TICK_SECONDS = 0.25
SHOW_AFTER_SECONDS = 0.5


class Progress:
    """``[i/n] name  3.2 s`` on one line, refreshed while a long file is being validated.

    Nothing is drawn for work that ends within ``SHOW_AFTER_SECONDS``, nor when ``stream`` is
    not a terminal, so piped and CI output stays clean.
    """

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.total = total
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self._label = ""
        self._started = 0.0
        self._drawn = False
        #: The display's stop signal and thread, while one runs.
        self._running: tuple[threading.Event, threading.Thread] | None = None

    def __enter__(self) -> Progress:
        if self.enabled:
            import threading

            stop = threading.Event()
            thread = threading.Thread(target=self._run, args=(stop,), daemon=True)
            thread.start()
            self._running = stop, thread
        return self

    def __exit__(self, *exc: object) -> None:
        if self._running is not None:
            stop, thread = self._running
            stop.set()
            thread.join()
        if self._drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def step(self, index: int, label: str) -> None:
        self._label = f"[{index}/{self.total}] {label}"
        self._started = time.monotonic()

    def _run(self, stop: threading.Event) -> None:
        while not stop.wait(TICK_SECONDS):
            elapsed = time.monotonic() - self._started
            if self._label and elapsed >= SHOW_AFTER_SECONDS:
                self.stream.write(f"\r\033[K{self._label}  {elapsed:.1f} s")
                self.stream.flush()
                self._drawn = True
