"""Processes as ``/proc`` shows them, for the tests that prove nothing outlives its job: the
descendants of a process, recorded while they run, and waiting until none is left alive.

A process is named by its pid and its start time, so that a pid the system hands out again
to an unrelated process is never taken for the one recorded; a zombie (dead, not yet reaped by
whoever adopted it) counts as gone.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Process:
    pid: int
    started: int  # clock ticks after boot (field 22 of /proc/<pid>/stat)


def _stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` from the state on (the name may hold spaces)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return text.rsplit(")", 1)[1].split()


def process(pid: int) -> Process | None:
    """The process ``pid`` is now, or None when there is none."""
    fields = _stat(pid)
    return None if fields is None else Process(pid, int(fields[19]))


def is_alive(recorded: Process) -> bool:
    """Whether ``recorded`` still runs: same pid and start time, and not a zombie."""
    fields = _stat(recorded.pid)
    return fields is not None and int(fields[19]) == recorded.started and fields[0] not in "ZX"


def children(pid: int) -> set[int]:
    """The pids of the processes ``pid``'s threads started (and have not lost)."""
    found: set[int] = set()
    for listing in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found.update(int(child) for child in listing.read_text().split())
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def descendants(pid: int) -> set[Process]:
    """Every live process below ``pid`` (children, their children...)."""
    found: set[Process] = set()
    pending = list(children(pid))
    while pending:
        current = process(pending.pop())
        if current is not None and is_alive(current):
            found.add(current)
            pending.extend(children(current.pid))
    return found


def wait_until_gone(processes: set[Process], timeout: float = 60.0) -> set[Process]:
    """Poll until none of ``processes`` is alive; those still alive when ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while True:
        left = {recorded for recorded in processes if is_alive(recorded)}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def wait_for_descendants(
    pid: int, depth: int, count: int = 1, timeout: float = 60.0
) -> set[Process]:
    """Poll until ``pid`` has ``count`` descendants ``depth`` levels down (1: its children);
    all its descendants then (empty if they did not come in time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        level = {pid}
        for _ in range(depth):
            level = set().union(*(children(member) for member in level))
        if len(level) >= count:
            return descendants(pid)
        time.sleep(0.05)
    return set()


def kill_all(processes: set[Process]) -> None:
    """SIGKILL those of ``processes`` still alive (a test's cleanup when what it tests failed)."""
    for recorded in processes:
        if is_alive(recorded):
            with contextlib.suppress(ProcessLookupError):
                os.kill(recorded.pid, signal.SIGKILL)


def assert_children_die_with_their_caller(code: str, signal_number: int, what: str) -> None:
    """Run ``code`` in a new Python process that starts a child (``what``, for the message) and
    waits; once the child is there, send the caller ``signal_number``: the child must go too."""
    caller = subprocess.Popen([sys.executable, "-c", code])
    started: set[Process] = set()
    try:
        started = wait_for_descendants(caller.pid, depth=1)
        assert started, f"the {what} never started"
        caller.send_signal(signal_number)
        caller.wait(60)
        assert wait_until_gone(started) == set()
    finally:
        kill_all(started)
        caller.kill()
        caller.wait()
