"""Running one function in a forked child process, under a time limit and a memory limit.

Native code fed with an upload (the FBX parser, the Draco and meshopt decoders) allocates what
the file declares, so it runs here: a hang or a blow-up costs one child, never the caller. The
child is a plain ``os.fork`` (no new interpreter, nothing to import) that runs the function,
sends the pickled result back and leaves with ``os._exit``. The pickle stream crosses a pipe;
its large arrays (pickle-5 out-of-band buffers) are written into an anonymous file the parent
made before the fork (a sealed ``memfd`` on Linux), which the parent maps copy-on-write: the
arrays arrive as views of that mapping, without a trip through the pipe. The parent reads with
a deadline, kills the child with SIGKILL when it passes, and always reaps it: no zombie and no
open descriptor is left behind.

A child that parsed a hostile file is not trusted: the parent unpickles only plain data, the
classes the caller names and built-in exceptions
(:class:`assetcheck.sandbox.containment.RestrictedUnpickler`),
so a child subverted through a parser bug cannot make the parent run code; and it maps the
arrays' file only once the child is gone and the file is sealed against shrinking, so nothing
can pull the mapped pages away.

The child never outlives its caller: it gets SIGKILL from the kernel when the thread that
forked it dies, however that happens (a job's validation killed on timeout, the CLI
interrupted), and it stays in its caller's process group, so a job killed as a group takes it
along. Its address-space limit is :func:`assetcheck.sandbox.containment.limit_address_space`'s, as
for
every child the service starts.

After ``fork`` only the calling thread exists in the child, so the function must not need
locks other threads may hold (logging, thread pools): parsing a file and pickling plain data
is safe. POSIX only.

The caller's stop signals (SIGINT, SIGTERM, SIGHUP) are blocked around the fork: one that
arrived during it would otherwise be raised inside an at-fork hook (logging registers one),
where Python ignores exceptions, and Ctrl-C would be lost. Held, it is raised once the fork is
done, where the child is killed for it.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import pickle
import select
import signal
import struct
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from typing import NoReturn, TypeVar

from assetcheck.sandbox.containment import (
    RestrictedUnpickler,
    allowed_types,
    die_with_parent,
    is_allocation_failure,
    is_builtin_exception,
    limit_address_space,
)

T = TypeVar("T")

_LENGTH = struct.Struct("<Q")
_EXIT_OUT_OF_MEMORY = 3
_READ_STEP = 1 << 16
# How long a child that has sent its result (or closed its pipe) may take to exit.
_EXIT_GRACE = 5.0
# Linux: the arrays' file is a memfd, which the child seals before the parent maps it.
_SEALABLE = hasattr(os, "memfd_create")
#: Signals held while forking (see the module docstring).
_HELD_DURING_FORK = frozenset({signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
_SEALS = (fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE) if _SEALABLE else 0


class ChildFailure(Exception):
    """The child did not return a result."""


class ChildTimeout(ChildFailure):
    """The child ran past its time limit and was killed."""


class ChildOutOfMemory(ChildFailure):
    """The child ran out of memory under its limit."""


class ChildCrashed(ChildFailure):
    """The child died without a result: killed by a signal or exited early."""


def run_in_child(
    function: Callable[[], T],
    *,
    timeout: float,
    memory_limit_mb: int,
    result_types: Iterable[Callable[..., object]] = (),
) -> T:
    """``function()``, computed in a forked child and returned through a pipe (its arrays
    through an anonymous file the child seals, see the module docstring).

    The result may hold plain data (numbers, strings, bytes, lists, dicts...), instances
    of the classes in ``result_types`` and what its functions (the rebuilders some classes
    pickle through) return. An exception the function raises is raised here again when it is a
    built-in exception or one of ``result_types``, else as a :class:`RuntimeError` with its
    text. ``memory_limit_mb`` is how much address space the child may add to what it inherits
    from this process (which may already map a large upload). Raises :class:`ChildTimeout`,
    :class:`ChildOutOfMemory` or :class:`ChildCrashed` when there is no result.
    """
    allowed = allowed_types(result_types)
    parent = os.getpid()
    deadline = time.monotonic() + timeout
    arrays = _anonymous_file()
    try:
        read_end, write_end = os.pipe()
    except BaseException:
        os.close(arrays)
        raise
    held = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD_DURING_FORK)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        for fd in (read_end, write_end, arrays):
            os.close(fd)
        raise
    if pid == 0:
        os.close(read_end)
        _child(parent, write_end, arrays, function, memory_limit_mb, allowed, held)
    os.close(write_end)
    try:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is raised here
            message = _receive(read_end, deadline, memory_limit_mb << 20)
        except BaseException:
            _kill(pid)
            raise
        finally:
            os.close(read_end)
        status = _reap(pid, time.monotonic() + _EXIT_GRACE)
        if message is None:
            raise _failure(status)
        try:
            stream, buffers = _unframe(message, arrays, memory_limit_mb << 20)
            kind, value = RestrictedUnpickler(stream, allowed.values(), buffers=buffers).load()
        except Exception as error:
            raise ChildCrashed(f"it sent an unexpected result: {error}") from None
    finally:
        os.close(arrays)
    if kind == "raised":
        raise value
    return value


def _anonymous_file() -> int:
    """A file with no name for the child's arrays: a sealable memfd where there is one."""
    if _SEALABLE:
        return os.memfd_create("assetcheck-child", os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
    handle, name = tempfile.mkstemp(prefix="assetcheck-child-")
    os.unlink(name)
    return handle


def _child(
    parent: int,
    write_end: int,
    arrays: int,
    function: Callable[[], object],
    memory_limit_mb: int,
    allowed: dict[tuple[str, str], Callable[..., object]],
    signal_mask: set[int | signal.Signals],
) -> NoReturn:
    """The child's whole life: it never returns into the caller's stack."""
    code = 1
    try:
        # The caller's handlers would only run once the native parser returns: die at once.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, signal_mask)
        die_with_parent(parent, signal.SIGKILL)
        limit_address_space(memory_limit_mb)
        raised: Exception | None = None
        try:
            payload = ("returned", function())
        except Exception as error:
            if is_allocation_failure(error):  # the exit status says so: there may be no
                raise MemoryError from None  # memory left to pickle anything
            raised = _sendable(error, allowed)
            payload = ("raised", raised)
        buffers: list[pickle.PickleBuffer] = []
        try:
            stream = pickle.dumps(payload, 5, buffer_callback=buffers.append)
        except Exception as error:  # what cannot be pickled is sent as the text of the problem
            stream = pickle.dumps(("raised", _as_text(raised if raised is not None else error)))
            buffers = []
        raw = [buffer.raw() for buffer in buffers]
        _write_arrays(arrays, raw)
        for part in _frame(stream, raw):
            _send(write_end, part)
        code = 0
    except MemoryError:
        code = _EXIT_OUT_OF_MEMORY
    finally:
        os._exit(code)


def _sendable(
    error: Exception,
    allowed: dict[tuple[str, str], Callable[..., object]],
) -> Exception:
    """``error`` if the parent may load it, else its text as a :class:`RuntimeError`."""
    key = (type(error).__module__, type(error).__qualname__)
    return error if key in allowed or is_builtin_exception(*key) else _as_text(error)


def _as_text(error: BaseException) -> RuntimeError:
    return RuntimeError(f"{type(error).__name__}: {error}")


def _offsets(lengths: Iterable[int]) -> Iterator[int]:
    """Where each buffer starts in the arrays' file: one after the other, each at a multiple
    of 16 bytes (so that arrays of any numeric type are aligned)."""
    position = 0
    for length in lengths:
        yield position
        position += length + len(_padding(position + length))


def _write_arrays(fd: int, buffers: list[memoryview]) -> None:
    """Write ``buffers`` into the arrays' file at their :func:`_offsets`, then seal it."""
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


def _frame(stream: bytes, buffers: list[memoryview]) -> list[bytes | memoryview]:
    """The parts to send, in order: the total length, the stream's length, the buffer count,
    each buffer's length, then the stream (the buffers are in the arrays' file)."""
    head = [len(stream), len(buffers), *(len(buffer) for buffer in buffers)]
    parts: list[bytes | memoryview] = [b"".join(map(_LENGTH.pack, head)), stream]
    return [_LENGTH.pack(sum(map(len, parts))), *parts]


def _unframe(message: bytearray, arrays: int, most: int) -> tuple[memoryview, list[memoryview]]:
    """The pickle stream of a message :func:`_frame` built (after its total length) and the
    buffers it announces, mapped from the file ``arrays``; ChildCrashed when the layout does
    not add up, or the file is unsealed or larger than a child could fill (``most`` bytes)."""
    view = memoryview(message)
    try:
        stream_length, count = struct.unpack_from("<QQ", view)
        lengths = struct.unpack_from(f"<{count}Q", view, 16)
    except struct.error:
        raise ChildCrashed("it sent a malformed result") from None
    position = 16 + 8 * count
    if position + stream_length != len(view):
        raise ChildCrashed("it sent a malformed result")
    stream = view[position:]
    if not count:
        return stream, []
    starts = list(_offsets(lengths))
    size = os.fstat(arrays).st_size
    if size != starts[-1] + lengths[-1] or size > most:  # the child sizes it exactly
        raise ChildCrashed(f"its arrays take {size} bytes, not what it said")
    if not size:  # arrays announced, all empty: nothing to map
        return stream, [memoryview(b"")] * count
    if _SEALABLE and fcntl.fcntl(arrays, fcntl.F_GET_SEALS) & _SEALS != _SEALS:
        raise ChildCrashed("it left its arrays unsealed")
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


def _receive(fd: int, deadline: float, most: int) -> bytearray | None:
    """The child's length-prefixed message, or None if the pipe closed before it was whole.

    The length prefix means the parent never waits for end-of-file, which another child
    forked meanwhile (holding a copy of the write end) could delay. The message is read into
    one buffer of its final size, never copied. A child cannot have built a message larger
    than its memory limit (``most`` bytes): one that says so is not believed.
    """
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    prefix = _read_exactly(fd, poller, bytearray(_LENGTH.size), deadline)
    if prefix is None:
        return None
    length = _LENGTH.unpack(prefix)[0]
    if length > most:
        raise ChildCrashed(f"it announced a result of {length} bytes, over its memory limit")
    return _read_exactly(fd, poller, bytearray(length), deadline)


def _read_exactly(
    fd: int,
    poller: select.poll,
    buffer: bytearray,
    deadline: float,
) -> bytearray | None:
    """``buffer`` filled from ``fd``; None if the pipe closes first."""
    view = memoryview(buffer)
    filled = 0
    while filled < len(buffer):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not poller.poll(remaining * 1000):
            raise ChildTimeout
        count = os.readv(fd, [view[filled : filled + _READ_STEP]])
        if not count:
            return None
        filled += count
    return buffer


def _reap(pid: int, deadline: float) -> int:
    """Wait for the child until ``deadline``, then kill it; its wait status (0 if unknown)."""
    delay = 0.0005
    while time.monotonic() < deadline:
        try:
            reaped, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # someone else (a SIGCHLD handler) reaped it
            return 0
        if reaped:
            return status
        time.sleep(delay)
        delay = min(delay * 2, 0.05)
    return _kill(pid)


def _kill(pid: int) -> int:
    try:
        os.kill(pid, signal.SIGKILL)
        return os.waitpid(pid, 0)[1]
    except (ProcessLookupError, ChildProcessError):
        return 0


def _failure(status: int) -> ChildFailure:
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGKILL:  # not ours (we raise ChildTimeout): the kernel's OOM killer
            return ChildOutOfMemory("killed by SIGKILL")
        return ChildCrashed(f"killed by {_signal_name(number)}")
    if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_OUT_OF_MEMORY:
        return ChildOutOfMemory("out of memory")
    return ChildCrashed(f"exited with status {os.waitstatus_to_exitcode(status)}")


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
