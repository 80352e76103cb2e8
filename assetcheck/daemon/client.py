"""The caller's side: hand a ``validate`` command to a running daemon if there is one.

The ``assetcheck`` program (``assetcheck/__main__.py``) calls :func:`delegate` before it
imports anything else of AssetCheck; this module imports only the standard library and
:mod:`.protocol`.
"""

from __future__ import annotations

import os
import socket
import sys

from .protocol import (
    NO_DAEMON_VARIABLE,
    UnsafeSocket,
    check_private_folder,
    code_fingerprint,
    peer_uid,
    receive_answer,
    send_request,
    socket_path,
)

TYPE_CHECKING = False  # see .protocol: typing is not imported on the way to the daemon
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: ``validate``'s option that keeps the command in its own process.
NO_DAEMON_OPTION = "--no-daemon"
#: The commands a daemon runs: those whose work is validating files on this machine.
DELEGATED_COMMANDS = frozenset({"validate"})
#: The exit statuses of a command the user interrupted, and of one that could not run.
_EXIT_INTERRUPTED, _EXIT_USAGE = 130, 2


def command_name(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names: its first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def delegate(argv: Sequence[str]) -> int | None:
    """Run the command ``argv`` in the daemon and return its exit status, or None when there
    is no daemon to run it (none listening, ``--no-daemon`` or ``$ASSETCHECK_NO_DAEMON``, a
    socket folder other users could reach, a daemon of another user or running other code):
    the caller then runs it itself, with the same output."""
    if os.environ.get(NO_DAEMON_VARIABLE) or NO_DAEMON_OPTION in argv:
        return None
    request = _request(argv)
    if request is None:
        return None
    path = socket_path()
    try:
        check_private_folder(os.path.dirname(path))
    except UnsafeSocket:
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            connection.connect(path)
            if peer_uid(connection) != os.getuid():
                return None
            send_request(connection, request, [0, 1, 2])
        except OSError:  # nobody listens, or the daemon is going away
            return None
        return _outcome(connection)


def _outcome(connection: socket.socket) -> int | None:
    """The exit status the daemon answers; None if it declined before starting."""
    try:
        answer = receive_answer(connection)
    except KeyboardInterrupt:  # closing the connection stops the daemon's child
        print("assetcheck: interrupted", file=sys.stderr)
        return _EXIT_INTERRUPTED
    except (OSError, ValueError) as error:
        print(f"assetcheck: the daemon stopped while validating: {error}", file=sys.stderr)
        return _EXIT_USAGE
    status = answer.get("status")
    return status if isinstance(status, int) else None


def _request(argv: Sequence[str]) -> dict[str, Any] | None:
    """What the daemon's child needs to run ``argv`` as this process would; None when this
    process has no standard streams to pass or no working folder."""
    streams = (sys.stdin, sys.stdout, sys.stderr)
    if any(stream is None for stream in streams):
        return None
    try:
        cwd = os.getcwd()
    except OSError:  # the working folder was deleted
        return None
    umask = os.umask(0o022)
    os.umask(umask)
    return {
        "op": "validate",
        "argv": list(argv),
        "cwd": cwd,
        "env": dict(os.environ),
        "umask": umask,
        "streams": [
            {
                "encoding": stream.encoding,
                "errors": stream.errors,
                "line_buffering": stream.line_buffering,
            }
            for stream in streams
        ],
        "fingerprint": code_fingerprint(),
    }
