"""How many cores this process may use, and how many of them its threads may take."""

from __future__ import annotations

import os

#: The processes this one validates beside on the same cores (:func:`share_cores`).
_sharing = 1


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it)."""
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return os.cpu_count() or 1


def share_cores(processes: int) -> None:
    """Declare this process one of ``processes`` that validate side by side on its cores (the
    worker processes of ``validate --jobs`` and of a service node): its threads then take its
    share of them (:func:`thread_cores`). A child forked afterwards inherits the share."""
    global _sharing
    _sharing = max(processes, 1)


def thread_cores() -> int:
    """The cores this process's threads may take at once: the :func:`available_cores` shared
    evenly with the processes it validates beside (rounded down, at least 1), so that the
    workers of a node, each spreading a big mesh over threads, never ask for more threads
    than there are cores (docs/architecture.md, Threads)."""
    return max(available_cores() // _sharing, 1)
