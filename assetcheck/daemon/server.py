"""The daemon: one thread, one listening Unix socket, one forked child per request.

The socket is created with mode 0600 in a folder of mode 0700 (:func:`listen`), and each
caller's user id is checked again on the connection: only the user who started the daemon can
use it. A ``validate`` request from a caller whose code fingerprint differs from the daemon's
is declined (the caller validates in its own process), and if the daemon's own files changed
since it started, it stops, so the next ``daemon start`` loads the new code.

Each accepted request is run by a child forked for it (:mod:`.child`), in a process group of
its own; the daemon waits for it on a ``pidfd`` and sends its exit status back. A caller that
goes away (Ctrl-C) closes its connection, and the daemon then kills the child's group. The
daemon stops on ``daemon stop``, SIGTERM or SIGINT, or once it has been idle (no request and
no child) for ``idle_timeout`` seconds; it then removes its socket, and on SIGTERM or SIGINT
kills the children still running.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assetcheck import __version__

from . import child
from .location import check_private_folder
from .protocol import code_fingerprint, encode_answer, peer_uid, receive_request

#: Seconds a connected caller has to send its whole request.
REQUEST_TIMEOUT = 5.0
#: How long a daemon with nothing to do stays (``daemon start --idle-timeout``), in seconds.
DEFAULT_IDLE_TIMEOUT = 3600.0


class AlreadyRunning(Exception):
    """Another daemon answers on the socket."""


@dataclass
class _Running:
    """A child validating one caller's request."""

    pid: int
    pidfd: int
    caller: socket.socket | None


@dataclass
class Daemon:
    """The daemon's state; :meth:`serve` runs it."""

    listener: socket.socket
    path: Path
    idle_timeout: float
    #: What a child runs: :func:`assetcheck.cli.main`.
    command: child.Command
    fingerprint: list[object] = field(default_factory=code_fingerprint)
    started: float = field(default_factory=time.time)
    served: int = 0
    stopping: bool = False
    _running: dict[int, _Running] = field(default_factory=dict)
    _selector: selectors.BaseSelector = field(default_factory=selectors.DefaultSelector)
    _idle_since: float = field(default_factory=time.monotonic)
    _inode: int = 0  # the socket file's, so that one another daemon made is never removed

    def __post_init__(self) -> None:
        self._inode = os.stat(self.path).st_ino

    def serve(self) -> None:
        """Answer requests until stopped; the socket is removed on the way out."""
        handlers = {signal.SIGTERM: self._interrupted, signal.SIGINT: self._interrupted}
        previous = {number: signal.signal(number, handler) for number, handler in handlers.items()}
        self._selector.register(self.listener, selectors.EVENT_READ, self._accept)
        try:
            while not (self.stopping and not self._running):
                events = self._selector.select(self._wait())
                for key, _ in events:
                    key.data(key.fileobj)
                if not self._running and time.monotonic() - self._idle_since >= self.idle_timeout:
                    self._stop_listening()
        finally:
            self._stop_listening()
            for running in list(self._running.values()):
                _kill_group(running.pid)
                self._reap(running.pidfd)
            for number, handler in previous.items():
                signal.signal(number, handler)

    def status(self) -> dict[str, Any]:
        """What ``assetcheck daemon status`` prints."""
        return {
            "pid": os.getpid(),
            "version": __version__,
            "socket": str(self.path),
            "started": self.started,
            "served": self.served,
            "running": len(self._running),
            "idle_timeout": self.idle_timeout,
        }

    def _wait(self) -> float | None:
        """How long to wait for the next event: until idle for long enough, if idle."""
        if self._running or self.stopping:
            return None
        return max(0.0, self.idle_timeout - (time.monotonic() - self._idle_since))

    def _accept(self, listener: Any) -> None:
        try:
            caller, _ = listener.accept()
        except OSError:  # the caller gave up before we got to it
            return
        with contextlib.ExitStack() as stack:
            stack.enter_context(caller)
            caller.settimeout(REQUEST_TIMEOUT)
            if peer_uid(caller) != os.getuid():
                return
            try:
                request, fds = receive_request(caller, max_fds=3)
            except (ValueError, OSError):
                return
            stack.callback(_close_all, fds)
            operation = request.get("op")
            if operation == "status":
                send_answer(caller, self.status())
            elif operation == "stop":
                self._stop_listening()  # before answering: the socket is gone once it hears
                send_answer(caller, {"stopping": True})
            elif operation == "validate" and len(fds) == 3:
                if request.get("fingerprint") != self.fingerprint:
                    send_answer(caller, {"declined": "the caller runs other code"})
                    if code_fingerprint() != self.fingerprint:  # this daemon's code is stale
                        self._stop_listening()
                    return
                stack.pop_all()
                self._start(caller, request, fds)
            else:
                send_answer(caller, {"error": f"unknown request {operation!r}"})

    def _start(self, caller: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
        """Fork the child that runs ``request`` with the caller's streams ``fds``, sharing the
        cores with the children already running (each keeps the share it started with)."""
        pid = child.fork(
            self.command,
            request,
            fds,
            keep_open=self._descriptors(),
            commands=len(self._running) + 1,
        )
        _close_all(fds)
        with contextlib.suppress(OSError):  # the child already set it, or is gone
            os.setpgid(pid, pid)
        pidfd = os.pidfd_open(pid)
        self._running[pidfd] = _Running(pid, pidfd, caller)
        self._selector.register(pidfd, selectors.EVENT_READ, self._finished)
        self._selector.register(caller, selectors.EVENT_READ, self._caller_left)
        self.served += 1

    def _descriptors(self) -> Iterator[int]:
        """Every descriptor the daemon holds, for the child to close."""
        yield self.listener.fileno()
        for running in self._running.values():
            yield running.pidfd
            if running.caller is not None:
                yield running.caller.fileno()

    def _finished(self, pidfd: Any) -> None:
        status = self._reap(pidfd)
        running = self._running.pop(pidfd, None)
        if running is not None and running.caller is not None:
            send_answer(running.caller, {"status": status})
            self._selector.unregister(running.caller)
            running.caller.close()
        if not self._running:
            self._idle_since = time.monotonic()

    def _reap(self, pidfd: int) -> int:
        """Wait for the child behind ``pidfd`` and close it; the exit status as a shell
        reports it (128 + N for a child killed by signal N)."""
        running = self._running[pidfd]
        self._selector.unregister(pidfd)
        _, wait_status = os.waitpid(running.pid, 0)
        os.close(pidfd)
        code = os.waitstatus_to_exitcode(wait_status)
        return code if code >= 0 else 128 - code

    def _caller_left(self, caller: Any) -> None:
        """The caller closed its connection (or wrote to it, which it never does): stop its
        child; its status has nowhere to go."""
        for running in self._running.values():
            if running.caller is caller:
                _kill_group(running.pid)
                running.caller = None
        self._selector.unregister(caller)
        caller.close()

    def _stop_listening(self) -> None:
        """Take no more requests: close the socket and remove it (if it is still ours)."""
        if self.stopping:
            return
        self.stopping = True
        with contextlib.suppress(KeyError):
            self._selector.unregister(self.listener)
        with contextlib.suppress(OSError):
            if os.stat(self.path).st_ino == self._inode:
                self.path.unlink()
        self.listener.close()

    def _interrupted(self, number: int, _frame: object) -> None:
        raise SystemExit(128 + number)


def listen(path: Path) -> socket.socket:
    """A socket listening at ``path``, mode 0600, in a folder of mode 0700 made if missing.

    Raises :class:`AlreadyRunning` if a daemon answers there, and
    :class:`~assetcheck.daemon.location.UnsafeSocket` if the folder is not this user's alone;
    a socket left by a daemon that died is replaced.
    """
    with contextlib.suppress(FileExistsError):
        path.parent.mkdir(mode=0o700)
    check_private_folder(str(path.parent))
    if _answers(path):
        raise AlreadyRunning(f"a daemon is already running on {path}")
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    previous = os.umask(0o177)
    try:
        listener.bind(str(path))
    finally:
        os.umask(previous)
    listener.listen(64)
    listener.setblocking(False)
    return listener


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(str(path))
        except OSError:
            return False
        return True


def send_answer(connection: socket.socket, answer: dict[str, Any]) -> None:
    """Send ``answer``; a caller already gone is not an error."""
    with contextlib.suppress(OSError):
        connection.sendall(encode_answer(answer))


def _kill_group(pid: int) -> None:
    """SIGKILL the child ``pid`` and every process of its group (its ``--jobs`` workers)."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            kill(pid, signal.SIGKILL)


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
