"""Forking a process that talks with its parent over a socket, the signals held across the fork.

A signal that arrives while ``os.fork`` runs would be handled in both processes, or in one at
a moment it cannot be; so SIGINT, SIGTERM and SIGHUP are held (blocked) around the fork, and
each side raises what arrived by restoring its mask once it is set up (the child after its
own signal handling, the parent once it has taken charge of the child). The decoder helper
(:mod:`assetcheck.sandbox.helper`) and ``validate --jobs``' workers
(:mod:`assetcheck.cli.worker_pool`) start this way; a decoder child
(:mod:`assetcheck.sandbox.child`) holds the same signals around its own fork.
"""

from __future__ import annotations

import os
import signal
import socket
from dataclasses import dataclass

#: Signals held while forking.
HELD_DURING_FORK = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})


@dataclass(frozen=True)
class Forked:
    """One side of a fork: ``pid`` is the child's in the parent and 0 in the child; ``parent``
    the process that forked; ``channel`` this side's end of their socket (the other end is
    closed here); ``held`` the signal mask this side restores once it is set up."""

    pid: int
    parent: int
    channel: socket.socket
    held: set[int | signal.Signals]

    def restore_signals(self) -> None:
        """Restore the mask of before the fork: a signal that arrived meanwhile is raised."""
        signal.pthread_sigmask(signal.SIG_SETMASK, self.held)


def fork_with_channel() -> Forked:
    """Fork with a connected Unix stream socket between parent and child and
    :data:`HELD_DURING_FORK` held; each side gets its :class:`Forked`. When the fork fails,
    the mask is restored, the socket closed and the error raised."""
    ours, theirs = socket.socketpair()
    parent = os.getpid()
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_DURING_FORK)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        ours.close()
        theirs.close()
        raise
    kept, closed = (theirs, ours) if pid == 0 else (ours, theirs)
    closed.close()
    return Forked(pid, parent, kept, held)
