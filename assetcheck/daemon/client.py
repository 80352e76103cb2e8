"""The caller's side: hand a ``validate`` command to a running daemon if there is one.

The ``assetcheck`` program (``assetcheck/__main__.py``) calls :func:`delegate` before it
imports anything else of AssetCheck. This module imports only ``os`` and :mod:`.location`;
the socket and the messages (:mod:`.handoff`) are imported only when a socket is there.
"""

from __future__ import annotations

import os

from .location import (
    NO_DAEMON_VARIABLE,
    UnsafeSocket,
    check_private_folder,
    socket_exists,
    socket_path,
)

TYPE_CHECKING = False  # see .location: typing is not imported on the way to the daemon
if TYPE_CHECKING:
    from collections.abc import Sequence

#: ``validate``'s option that keeps the command in its own process.
NO_DAEMON_OPTION = "--no-daemon"
#: The commands a daemon runs: those whose work is validating files on this machine.
DELEGATED_COMMANDS = frozenset({"validate"})


def command_name(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` names: its first argument that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def delegate(argv: Sequence[str]) -> int | None:
    """Run the command ``argv`` in the daemon and return its exit status, or None when there
    is no daemon to run it (no socket or none listening, ``--no-daemon`` or
    ``$ASSETCHECK_NO_DAEMON``, a socket folder other users could reach, a daemon of another
    user or running other code): the caller then runs it itself, with the same output."""
    if os.environ.get(NO_DAEMON_VARIABLE) or NO_DAEMON_OPTION in argv:
        return None
    path = socket_path()
    if not socket_exists(path):
        return None
    try:
        check_private_folder(os.path.dirname(path))
    except UnsafeSocket:
        return None
    from .handoff import run_in_daemon

    return run_in_daemon(path, argv)
