"""Running a command in the daemon listening on a socket: the request, the wait, the answer.

:func:`assetcheck.daemon.client.delegate` imports this once it found a socket, so a run with
no daemon never imports ``socket`` or ``json``.
"""

from __future__ import annotations

import os
import socket
import sys

from .protocol import code_fingerprint, peer_uid, receive_answer, send_request

TYPE_CHECKING = False  # see .location: typing is not imported on the way to the daemon
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

#: The exit statuses of a command the user interrupted, and of one that could not run.
_EXIT_INTERRUPTED, _EXIT_USAGE = 130, 2


def run_in_daemon(path: str, argv: Sequence[str]) -> int | None:
    """The exit status of ``argv`` run by the daemon listening on ``path``; None when nobody
    listens there, the daemon is another user's or declines (another code fingerprint), or
    this process has no standard streams or working folder to pass."""
    request = _request(argv)
    if request is None:
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
