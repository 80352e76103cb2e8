"""How a child's answer reaches its parent (:mod:`assetcheck.sandbox.child`): a pickle stream
through a pipe, after its length, and the stream's large arrays (pickle-5 out-of-band buffers)
through an anonymous file. A request reaches the decoder helper the same way
(:mod:`assetcheck.sandbox.helper`): :func:`frame`, its payloads written by
:func:`write_buffers` and mapped by :func:`unframe`.

The parent makes the arrays' file before the fork (a sealable ``memfd`` on Linux); the child
writes the arrays into it, seals it against any change and sends the stream; the parent maps
the file copy-on-write, so the arrays arrive as views of that mapping, without a trip through
the pipe. The length prefix means the parent never waits for end-of-file, which another
process forked meanwhile (holding a copy of the pipe's write end) could delay.

A child that parsed a hostile file is not trusted: the parent unpickles only plain data, the
classes its caller names and built-in exceptions
(:class:`~assetcheck.sandbox.containment.RestrictedUnpickler`), so a child subverted through a
parser bug cannot make it run code; and it maps the arrays' file only once the file is sealed
against shrinking and is no larger than the child could have filled, so nothing can pull the
mapped pages away. Whatever does not add up is :class:`BadAnswer`.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import struct
import tempfile
from collections.abc import Callable, Iterable, Iterator

from assetcheck.sandbox.containment import RestrictedUnpickler

_LENGTH = struct.Struct("<Q")
# Linux: the arrays' file is a memfd, which the child seals before the parent maps it.
_SEALABLE = hasattr(os, "memfd_create")
_SEALS = (fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE) if _SEALABLE else 0


class BadAnswer(Exception):
    """What the child sent cannot be its answer (malformed, too large, or naming types the
    parent does not load)."""


def anonymous_file() -> int:
    """A file with no name for a child's arrays: a sealable memfd where there is one."""
    if _SEALABLE:
        return os.memfd_create("assetcheck-child", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    handle, name = tempfile.mkstemp(prefix="assetcheck-child-")
    os.unlink(name)
    return handle


def send(pipe: int, arrays: int, stream: bytes, buffers: list[memoryview]) -> None:
    """In the child: write ``buffers`` into the file ``arrays`` and seal it, then send the
    pickle ``stream`` they belong to through ``pipe``."""
    write_buffers(arrays, buffers)
    for part in frame(stream, [len(buffer) for buffer in buffers]):
        _send(pipe, part)


class Inbox:
    """In the parent: the child's message, read from the non-blocking pipe ``fd`` as it
    arrives, its length first, then as many bytes into one buffer of its final size (never
    copied). A child cannot have built a message larger than its memory limit (``most``
    bytes): one that says so is refused."""

    def __init__(self, fd: int, most: int) -> None:
        os.set_blocking(fd, False)
        self.fd = fd
        self.most = most
        self.buffer = bytearray(_LENGTH.size)
        self.filled = 0
        self.has_length = False
        self.message: bytearray | None = None
        self.refusal: BadAnswer | None = None
        self.closed = False

    @property
    def done(self) -> bool:
        """Whether there is nothing more to read: the message is whole, refused, or cut."""
        return self.message is not None or self.refusal is not None or self.closed

    def read(self) -> None:
        """Read all the pipe holds now (the message is whole when it has all arrived)."""
        while not self.done:
            try:
                count = os.readv(self.fd, [memoryview(self.buffer)[self.filled :]])
            except BlockingIOError:
                return
            if not count:
                self.closed = True
                return
            self.filled += count
            if self.filled == len(self.buffer):
                self._next_part()

    def _next_part(self) -> None:
        if self.has_length:
            self.message = self.buffer
            return
        length = _LENGTH.unpack(self.buffer)[0]
        if length > self.most:
            self.refusal = BadAnswer(f"announced a result of {length} bytes, over its limit")
            return
        self.buffer, self.filled, self.has_length = bytearray(length), 0, True


def load(
    message: bytearray,
    arrays: int,
    most: int,
    allowed: Iterable[Callable[..., object]],
) -> tuple[str, object]:
    """In the parent: the (kind, value) pair the child's whole ``message`` holds, ``returned``
    or ``raised``, its arrays mapped from the file ``arrays`` (which the child may have
    filled up to ``most`` bytes), built by a :class:`RestrictedUnpickler` that loads the
    ``allowed`` types only."""
    stream, buffers = unframe(message, arrays, most)
    try:
        kind, value = RestrictedUnpickler(stream, allowed, buffers=buffers).load()
    except Exception as error:
        raise BadAnswer(f"sent an unexpected result: {error}") from None
    if kind not in ("returned", "raised"):
        raise BadAnswer("sent a malformed result")
    return kind, value


def _offsets(lengths: Iterable[int]) -> Iterator[int]:
    """Where each buffer starts in the arrays' file: one after the other, each at a multiple
    of 16 bytes (so that arrays of any numeric type are aligned)."""
    position = 0
    for length in lengths:
        yield position
        position += length + len(_padding(position + length))


def write_buffers(fd: int, buffers: list[memoryview]) -> None:
    """Write ``buffers`` into the anonymous file ``fd`` at their :func:`_offsets`, then seal it
    against any change."""
    starts = list(_offsets(map(len, buffers)))
    if buffers:
        os.ftruncate(fd, starts[-1] + len(buffers[-1]))  # the size the parent checks
    for offset, buffer in zip(starts, buffers, strict=True):
        view = buffer.cast("B")
        while view:
            written = os.pwrite(fd, view, offset)
            view, offset = view[written:], offset + written
    if _SEALABLE:
        fcntl.fcntl(fd, fcntl.F_ADD_SEALS, _SEALS | fcntl.F_SEAL_SEAL)


def frame(stream: bytes, lengths: list[int]) -> list[bytes | memoryview]:
    """The parts to send, in order: the total length of the rest, then the stream's length, the
    buffer count, the ``lengths`` of the buffers, then the stream (the buffers go in a file of
    their own, :func:`write_buffers`)."""
    head = [len(stream), len(lengths), *lengths]
    parts: list[bytes | memoryview] = [b"".join(map(_LENGTH.pack, head)), stream]
    return [_LENGTH.pack(sum(map(len, parts))), *parts]


def unframe(message: bytearray, arrays: int, most: int) -> tuple[memoryview, list[memoryview]]:
    """The pickle stream of a message :func:`frame` built (after its total length) and the
    buffers it announces, mapped (copy-on-write) from the file ``arrays``; BadAnswer when the
    layout does not add up, or the file is unsealed or larger than its writer could fill
    (``most`` bytes)."""
    view = memoryview(message)
    try:
        stream_length, count = struct.unpack_from("<QQ", view)
        lengths = struct.unpack_from(f"<{count}Q", view, 16)
    except struct.error:
        raise BadAnswer("sent a malformed result") from None
    position = 16 + 8 * count
    if position + stream_length != len(view):
        raise BadAnswer("sent a malformed result")
    stream = view[position:]
    if not count:
        return stream, []
    starts = list(_offsets(lengths))
    size = os.fstat(arrays).st_size
    if size != starts[-1] + lengths[-1] or size > most:  # the child sizes it exactly
        raise BadAnswer(f"its arrays take {size} bytes, not what it said")
    if not size:  # arrays announced, all empty: nothing to map
        return stream, [memoryview(b"")] * count
    if _SEALABLE and fcntl.fcntl(arrays, fcntl.F_GET_SEALS) & _SEALS != _SEALS:
        raise BadAnswer("left its arrays unsealed")
    mapped = memoryview(mmap.mmap(arrays, size, access=mmap.ACCESS_COPY))
    return stream, [
        mapped[start : start + length] for start, length in zip(starts, lengths, strict=True)
    ]


def _padding(position: int) -> bytes:
    return bytes(-position % 16)


def _send(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
