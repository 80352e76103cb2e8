"""How a caller proves it runs the same code as the daemon, and the messages they exchange.

A request is one byte carrying the caller's standard input, output and error as ``SCM_RIGHTS``
descriptors, then a JSON object prefixed by its length (4 bytes, big-endian); the daemon answers
with one JSON object on one line. This module imports nothing beyond the standard library: the
caller's side must start faster than numpy imports.
"""

from __future__ import annotations

import json
import os
import socket
import struct
import sys

TYPE_CHECKING = False  # the caller's side imports neither typing nor pathlib: they cost ~8 ms
if TYPE_CHECKING:
    from typing import Any

#: The largest request accepted: arguments and environment, never file contents.
MAX_REQUEST_BYTES = 1 << 20
_LENGTH = struct.Struct(">I")
_PACKAGE = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))


def code_fingerprint() -> list[object]:
    """What the running code is: the interpreter, the import path and when anything on it or
    in AssetCheck's own package last changed. A daemon serves only callers whose fingerprint
    equals its own, so an upgrade, a plugin installed or an edited source file is never
    answered by code loaded before it. (The configuration is no part of it: each request
    reads its own, see ``docs/daemon.md``.)"""
    search_path = [entry for entry in sys.path[1:] if entry]  # [0]: where the script was
    parts: list[object] = [sys.executable, sys.version, search_path]
    parts.extend(_modified(entry) for entry in search_path)
    parts.append(_newest(_PACKAGE))
    return parts


def peer_uid(connection: socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (``SO_PEERCRED``)."""
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)


def send_request(connection: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
    """Send ``fds`` (passed as descriptors) and ``request``."""
    socket.send_fds(connection, [b"R"], fds)
    body = json.dumps(request).encode()
    connection.sendall(_LENGTH.pack(len(body)) + body)


def receive_request(connection: socket.socket, max_fds: int) -> tuple[dict[str, Any], list[int]]:
    """The descriptors and request :func:`send_request` sent. Raises :class:`ValueError` for
    anything else (the descriptors received are closed first)."""
    _data, fds, _flags, _address = socket.recv_fds(connection, 1, max_fds)
    try:
        (length,) = _LENGTH.unpack(_receive_exactly(connection, _LENGTH.size))
        if length > MAX_REQUEST_BYTES:
            raise ValueError(f"a request of {length} bytes")
        request = json.loads(_receive_exactly(connection, length))
        if not isinstance(request, dict):
            raise ValueError("a request that is not a JSON object")
    except (ValueError, OSError):
        for fd in fds:
            os.close(fd)
        raise
    return request, fds


def encode_answer(answer: dict[str, Any]) -> bytes:
    """``answer`` as the one line :func:`receive_answer` reads."""
    return json.dumps(answer).encode() + b"\n"


def receive_answer(connection: socket.socket) -> dict[str, Any]:
    """The answer :func:`send_answer` sent; :class:`ValueError` if the daemon closed the
    connection without one."""
    line = connection.makefile("rb").readline(MAX_REQUEST_BYTES)
    if not line.endswith(b"\n"):
        raise ValueError("the daemon closed the connection without answering")
    answer = json.loads(line)
    if not isinstance(answer, dict):
        raise ValueError("the daemon's answer is not a JSON object")
    return answer


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    chunks = bytearray()
    while len(chunks) < size:
        chunk = connection.recv(size - len(chunks))
        if not chunk:
            raise ValueError("the connection closed in the middle of a request")
        chunks += chunk
    return bytes(chunks)


def _modified(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _newest(folder: str) -> int:
    """The latest modification time of ``folder``, the folders below it (a deleted file
    changes its folder's) and the Python files in them."""
    newest = _modified(folder)
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    newest = max(newest, _newest(entry.path))
            elif entry.name.endswith(".py"):
                newest = max(newest, entry.stat().st_mtime_ns)
    return newest
