"""The one-line progress display: drawn on a terminal for a long file, cleared at the end."""

from __future__ import annotations

import io
import threading
import time

from assetcheck.cli.progress import Progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_long_file_is_shown_on_a_terminal_and_the_line_is_cleared_at_the_end():
    terminal = Terminal()
    threads = threading.active_count()
    with Progress(2, terminal) as progress:
        progress.step(1, "hero.glb")
        deadline = time.monotonic() + 60  # a state, with a bound for a very busy machine
        while "[1/2] hero.glb" not in terminal.getvalue() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "[1/2] hero.glb" in terminal.getvalue()
    assert terminal.getvalue().endswith("\r\033[K")
    assert threading.active_count() == threads  # the display's thread has ended


def test_nothing_is_drawn_and_no_thread_started_when_the_stream_is_no_terminal():
    stream = io.StringIO()
    threads = threading.active_count()
    with Progress(1, stream) as progress:
        progress.step(1, "hero.glb")
        assert threading.active_count() == threads
    assert stream.getvalue() == ""
