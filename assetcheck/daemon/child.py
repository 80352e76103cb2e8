"""The child the daemon forks for one request: it becomes the caller's ``assetcheck`` process.

It takes the caller's standard streams as its own (rebuilt with the caller's encodings and
buffering, so what it writes is byte for byte what the caller would have written), the
caller's working folder, environment and umask, then runs the command line
(:func:`assetcheck.cli.main`) on the caller's arguments and exits with its status. It dies
with the daemon, and leads a process group of its own, so that the daemon can stop it and its
``--jobs`` workers together. It declares itself one of the commands the daemon runs at once
(:func:`~assetcheck.sandbox.cores.share_cores`), so that two commands at the same time do not
each spread a big mesh's threads over every core.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterable
from typing import Any, NoReturn, TextIO

from assetcheck.sandbox.containment import die_with_parent
from assetcheck.sandbox.cores import share_cores
from assetcheck.sandbox.forking import HELD_DURING_FORK

#: The daemon's handlers a child must not run; ``SIGINT`` raises ``KeyboardInterrupt`` again.
_DEFAULT_HANDLERS: dict[signal.Signals, signal._HANDLER] = {
    signal.SIGINT: signal.default_int_handler,
    signal.SIGTERM: signal.SIG_DFL,
    signal.SIGHUP: signal.SIG_DFL,
}


#: The command line itself: :func:`assetcheck.cli.main`, arguments -> exit status.
Command = Callable[[list[str]], int]


def fork(
    command: Command,
    request: dict[str, Any],
    fds: list[int],
    keep_open: Iterable[int],
    commands: int = 1,
) -> int:
    """Fork the child that runs ``command`` on the request's arguments with the caller's
    streams ``fds`` (stdin, stdout, stderr), as one of ``commands`` the daemon runs at once
    (its share of the cores); it first closes the daemon's descriptors ``keep_open`` lists.
    Returns its pid."""
    parent = os.getpid()
    daemon_fds = list(keep_open)
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_DURING_FORK)
    try:
        pid = os.fork()
        if pid == 0:
            _run(command, request, fds, daemon_fds, parent, held, commands)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    return pid


def _run(
    command: Command,
    request: dict[str, Any],
    fds: list[int],
    daemon_fds: list[int],
    parent: int,
    held: set[int | signal.Signals],
    commands: int,
) -> NoReturn:
    status = 1
    try:
        share_cores(commands)
        for number, handler in _DEFAULT_HANDLERS.items():
            signal.signal(number, handler)
        os.setpgid(0, 0)
        die_with_parent(parent, signal.SIGKILL)
        for fd in daemon_fds:
            os.close(fd)
        _take_streams(fds, request["streams"])
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        os.umask(request["umask"])
        tempfile.tempdir = None  # found again from the caller's $TMPDIR
        sys.argv = ["assetcheck", *request["argv"]]
        status = command(request["argv"])
    except SystemExit as exit:  # argparse's --help and usage errors, as Python ends on them
        status = exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 1
        if exit.code is not None and not isinstance(exit.code, int):
            print(exit.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        _flush()
        os._exit(status)


def _take_streams(fds: list[int], settings: list[dict[str, Any]]) -> None:
    """Make ``fds`` this process's descriptors 0, 1 and 2, and ``sys.stdin``, ``sys.stdout``
    and ``sys.stderr`` text streams on them as the caller had them."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    sys.stdin, sys.stdout, sys.stderr = (
        _text_stream(target, "r" if target == 0 else "w", setting)
        for target, setting in enumerate(settings)
    )


def _text_stream(fd: int, mode: str, setting: dict[str, Any]) -> TextIO:
    raw = io.FileIO(fd, mode, closefd=False)
    return io.TextIOWrapper(
        io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw),
        encoding=setting["encoding"],
        errors=setting["errors"],
        line_buffering=setting["line_buffering"],
        write_through=fd == 2,  # as Python's own stderr
    )


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
