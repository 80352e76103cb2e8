"""``assetcheck daemon start|stop|status|run``: the resident validator ``validate`` uses when it
runs (``docs/daemon.md``)."""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from assetcheck.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, build_parser, main
from assetcheck.config.settings import Config
from assetcheck.daemon.location import UnsafeSocket, check_private_folder, socket_path
from assetcheck.daemon.protocol import peer_uid, receive_answer, send_request
from assetcheck.daemon.server import DEFAULT_IDLE_TIMEOUT, AlreadyRunning, Daemon, listen

#: The command ``daemon start`` runs in the background.
_RUN = (sys.executable, "-m", "assetcheck", "daemon", "run")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "daemon",
        help="keep a validator running, so that `validate` starts at once",
        description="A resident validator: while it runs, `assetcheck validate` hands its "
        "work to it instead of loading everything again (same output, same exit status). "
        "Its socket is $ASSETCHECK_DAEMON_SOCKET, else $XDG_RUNTIME_DIR/assetcheck/daemon.sock, "
        "else /tmp/assetcheck-UID/daemon.sock. Exit status: 0 done (status: running), "
        "1 status: not running, 2 could not start or stop.",
    )
    parser.add_argument(
        "action",
        choices=("start", "stop", "status", "run"),
        help="start in the background, stop, show whether it runs, or run in the foreground",
    )
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=DEFAULT_IDLE_TIMEOUT,
        metavar="SECONDS",
        help=f"stop after this long without a request (default: {DEFAULT_IDLE_TIMEOUT:.0f})",
    )
    parser.add_argument("--ready-fd", type=int, help=argparse.SUPPRESS)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    path = Path(socket_path())
    if args.idle_timeout <= 0:
        print("assetcheck daemon: --idle-timeout takes a number of seconds", file=sys.stderr)
        return EXIT_USAGE
    actions = {"start": _start, "stop": _stop, "status": _status, "run": _run}
    status: int = actions[args.action](path, args)
    return status


def _start(path: Path, args: argparse.Namespace) -> int:
    """Start ``daemon run`` in a session of its own and wait until it answers (or died)."""
    running = ask(path, "status")
    if running is not None:
        print(f"assetcheck daemon: already running (pid {running['pid']}) on {path}")
        return EXIT_OK
    try:
        with contextlib.suppress(FileExistsError):
            path.parent.mkdir(mode=0o700)
        check_private_folder(str(path.parent))
    except (OSError, UnsafeSocket) as error:
        print(f"assetcheck daemon: cannot use {path.parent}: {error}", file=sys.stderr)
        return EXIT_USAGE
    log = path.with_suffix(".log")
    ready, ready_write = os.pipe()
    with open(log, "ab") as log_file, open(os.devnull, "rb") as nothing:
        subprocess.Popen(
            [*_RUN, "--idle-timeout", str(args.idle_timeout), "--ready-fd", str(ready_write)],
            stdin=nothing,
            stdout=log_file,
            stderr=log_file,
            pass_fds=[ready_write],
            start_new_session=True,
        )
    os.close(ready_write)
    with os.fdopen(ready, "rb") as pipe:
        started = pipe.read()  # "pid" once it listens; nothing if it died first
    if not started:
        print(f"assetcheck daemon: it did not start; see {log}", file=sys.stderr)
        return EXIT_USAGE
    print(f"assetcheck daemon: started (pid {started.decode()}) on {path}")
    return EXIT_OK


def _stop(path: Path, args: argparse.Namespace) -> int:
    answer = ask(path, "stop")
    if answer is None:
        print(f"assetcheck daemon: none is running on {path}")
    else:
        print(f"assetcheck daemon: stopped listening on {path}")
    return EXIT_OK


def _status(path: Path, args: argparse.Namespace) -> int:
    answer = ask(path, "status")
    if answer is None:
        print(f"assetcheck daemon: none is running on {path}")
        return EXIT_FAILED
    uptime = time.time() - answer["started"]
    print(
        f"assetcheck daemon: running (pid {answer['pid']}, version {answer['version']}) on "
        f"{answer['socket']}\n  up {uptime:.0f} s, {answer['served']} commands run, "
        f"{answer['running']} running now; stops after {answer['idle_timeout']:.0f} s idle"
    )
    return EXIT_OK


def _run(path: Path, args: argparse.Namespace) -> int:
    """Listen, load everything (:func:`~assetcheck.daemon.warm.warm_up`), say so on
    ``--ready-fd`` and serve until stopped."""
    try:
        listener = listen(path)
    except (AlreadyRunning, UnsafeSocket, OSError) as error:
        print(f"assetcheck daemon: {error}", file=sys.stderr)
        return EXIT_USAGE
    from assetcheck.daemon.warm import warm_up  # what only the daemon itself needs

    build_parser("validate")  # the command's module and its parser
    warm_up()
    if args.ready_fd is not None:
        os.write(args.ready_fd, str(os.getpid()).encode())
        os.close(args.ready_fd)
    Daemon(listener, path, args.idle_timeout, command=main).serve()
    return EXIT_OK


def ask(path: Path, operation: str) -> dict[str, Any] | None:
    """The daemon's answer to ``operation``; None when none answers on ``path``."""
    try:
        check_private_folder(str(path.parent))
    except UnsafeSocket:
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            connection.connect(str(path))
            if peer_uid(connection) != os.getuid():
                return None
            send_request(connection, {"op": operation}, [])
            return receive_answer(connection)
        except (OSError, ValueError):
            return None
