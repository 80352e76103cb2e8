"""What crosses between ``validate --jobs`` and its workers (:mod:`assetcheck.cli.worker_pool`):
messages over a Unix stream socket, each its length and its bytes. The command sends a worker
the file indices of a chunk; the worker sends back each file's outcome.

Plain sockets rather than :mod:`multiprocessing`'s connections: nothing to import (about 4 ms
of the command's serial part) and no selector built for every wait.
"""

from __future__ import annotations

import marshal
import pickle
import socket
import struct
from typing import cast

from assetcheck.reports import Report

_LENGTH = struct.Struct("<Q")
#: The first byte of an outcome: how the rest is serialised (see :func:`pack_outcome`).
_MARSHALLED, _PICKLED = b"m", b"p"


def send_message(channel: socket.socket, payload: bytes) -> None:
    """Send ``payload`` whole; ``OSError`` when the other end has gone."""
    channel.sendall(_LENGTH.pack(len(payload)) + payload)


def receive_message(channel: socket.socket) -> bytes:
    """The next whole message; ``EOFError`` when the other end closed (or died) first."""
    (length,) = _LENGTH.unpack(_receive_exactly(channel, _LENGTH.size))
    return _receive_exactly(channel, length)


def _receive_exactly(channel: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    received = 0
    while received < size:
        count = channel.recv_into(view[received:])
        if count == 0:
            raise EOFError
        received += count
    return bytes(buffer)


def pack_chunk(indices: list[int]) -> bytes:
    """A chunk of file indices as the command sends it."""
    return marshal.dumps(indices)


def unpack_chunk(message: bytes) -> list[int]:
    """What :func:`pack_chunk` packed."""
    return cast(list[int], marshal.loads(message))


def pack_outcome(index: int, report: Report | None, error: str | None) -> bytes:
    """A file's outcome as a worker sends it: with ``marshal``, which writes and reads a
    report's plain data in about a sixth of ``pickle``'s time (``docs/performance.md``); with
    ``pickle`` when a plugin put in a type ``marshal`` refuses (a subclass of a built-in type,
    any other class)."""
    try:
        return _MARSHALLED + marshal.dumps((index, report, error))
    except ValueError:
        return _PICKLED + pickle.dumps((index, report, error), pickle.HIGHEST_PROTOCOL)


def unpack_outcome(message: bytes) -> tuple[int, Report | None, str | None]:
    """What :func:`pack_outcome` packed."""
    load = marshal.loads if message[:1] == _MARSHALLED else pickle.loads
    return cast(tuple[int, "Report | None", "str | None"], load(memoryview(message)[1:]))
