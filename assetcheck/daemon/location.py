"""Where the daemon listens, and whether a daemon can be there at all.

Every ``assetcheck validate`` asks this before anything else (``assetcheck/__main__.py``), so
it imports only ``os`` and ``stat``: a run with no daemon pays a few system calls, not the
socket and JSON modules (``docs/performance.md``).
"""

from __future__ import annotations

import os
import stat

#: Overrides where the socket is (tests, or a daemon per project).
SOCKET_VARIABLE = "ASSETCHECK_DAEMON_SOCKET"
#: Set (to anything but empty) to make ``validate`` ignore a running daemon.
NO_DAEMON_VARIABLE = "ASSETCHECK_NO_DAEMON"


class UnsafeSocket(Exception):
    """The socket's folder could be written or read by another user, or is not a folder."""


def socket_path() -> str:
    """The daemon's socket: ``$ASSETCHECK_DAEMON_SOCKET``, else ``assetcheck/daemon.sock`` in
    ``$XDG_RUNTIME_DIR``, else in ``/tmp/assetcheck-UID``."""
    if override := os.environ.get(SOCKET_VARIABLE):
        return os.path.abspath(override)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    folder = os.path.join(runtime, "assetcheck") if runtime else f"/tmp/assetcheck-{os.getuid()}"
    return os.path.join(folder, "daemon.sock")


def check_private_folder(folder: str) -> None:
    """Raise :class:`UnsafeSocket` unless ``folder`` is a real folder (not a link) owned by
    this user that no other user may enter: a socket anyone else could replace would receive
    the caller's standard streams."""
    try:
        info = os.lstat(folder)
    except FileNotFoundError:
        raise UnsafeSocket(f"{folder} does not exist") from None
    if not stat.S_ISDIR(info.st_mode):
        raise UnsafeSocket(f"{folder} is not a folder")
    if info.st_uid != os.getuid():
        raise UnsafeSocket(f"{folder} belongs to another user")
    if info.st_mode & 0o077:
        raise UnsafeSocket(f"{folder} is open to other users (mode {info.st_mode & 0o777:o})")


def socket_exists(path: str) -> bool:
    """Whether ``path`` is a Unix socket (not following a link): without one, no daemon
    listens there and a caller need not build its request."""
    try:
        return stat.S_ISSOCK(os.lstat(path).st_mode)
    except OSError:
        return False
