"""Running one function in a forked child process, under a time limit and a memory limit.

The FBX parser is native code that allocates what a file declares, so it runs here: a hang
or a blow-up costs one child, never the caller. The child is a plain ``os.fork`` (no new
interpreter, nothing to import) that runs the function, sends the pickled result back through
a pipe and leaves with ``os._exit``. Large arrays travel as pickle-5 out-of-band buffers: the
parent reads the whole message into one buffer and unpickles them as views of it, without a
copy. The parent reads with a deadline, kills the child with
SIGKILL when it passes, and always reaps it: no zombie and no open descriptor is left behind.

A child that parsed a hostile file is not trusted: the parent unpickles only plain data, the
classes the caller names and built-in exceptions, so a child subverted through a parser bug
cannot make the parent run code.

After ``fork`` only the calling thread exists in the child, so the function must not need
locks other threads may hold (logging, thread pools): parsing a file and pickling plain data
is safe. POSIX only.
"""

from __future__ import annotations

import builtins
import io
import os
import pickle
import resource
import select
import signal
import struct
import time
from collections.abc import Callable, Iterable
from typing import NoReturn, TypeVar

T = TypeVar("T")

_LENGTH = struct.Struct("<Q")
_EXIT_OUT_OF_MEMORY = 3
_READ_STEP = 1 << 16
# How long a child that has sent its result (or closed its pipe) may take to exit.
_EXIT_GRACE = 5.0


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
    """``function()``, computed in a forked child and returned through a pipe.

    The result may hold plain data (numbers, strings, bytes, lists, dicts...), instances
    of the classes in ``result_types`` and what its functions (the rebuilders some classes
    pickle through) return. An exception the function raises is raised here again when it is a
    built-in exception or one of ``result_types``, else as a :class:`RuntimeError` with its
    text. ``memory_limit_mb`` is how much address space the child may add to what it inherits
    from this process (which may already map a large upload). Raises :class:`ChildTimeout`,
    :class:`ChildOutOfMemory` or :class:`ChildCrashed` when there is no result.
    """
    allowed = {(cls.__module__, cls.__qualname__): cls for cls in result_types}
    deadline = time.monotonic() + timeout
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except BaseException:
        os.close(read_end)
        os.close(write_end)
        raise
    if pid == 0:
        os.close(read_end)
        _child(write_end, function, memory_limit_mb, allowed)
    os.close(write_end)
    try:
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
        kind, value = _ResultUnpickler(message, allowed).load()
    except Exception as error:
        raise ChildCrashed(f"it sent an unexpected result: {error}") from None
    if kind == "raised":
        raise value
    return value


class _ResultUnpickler(pickle.Unpickler):
    """Loads plain data, the allowed classes and built-in exceptions, and nothing else.

    ``message`` is what :func:`_frame` built: the pickle stream, then its out-of-band buffers,
    which are handed over as views of ``message`` (no copy).
    """

    def __init__(self, message: bytearray, allowed: dict[tuple[str, str], type]) -> None:
        stream, buffers = _unframe(message)
        super().__init__(io.BytesIO(stream), buffers=buffers)
        self.allowed = allowed

    def find_class(self, module: str, name: str) -> type:
        cls = self.allowed.get((module, name))
        if cls is None and _is_builtin_exception(module, name):
            cls = getattr(builtins, name)
        if cls is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not an expected type")
        return cls


def _is_builtin_exception(module: str, name: str) -> bool:
    candidate = getattr(builtins, name, None) if module == "builtins" else None
    return isinstance(candidate, type) and issubclass(candidate, BaseException)


def _child(
    write_end: int,
    function: Callable[[], object],
    memory_limit_mb: int,
    allowed: dict[tuple[str, str], type],
) -> NoReturn:
    """The child's whole life: it never returns into the caller's stack."""
    code = 1
    try:
        # The caller's handlers would only run once the native parser returns: die at once.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        _limit_memory(memory_limit_mb)
        try:
            payload = ("returned", function())
        except MemoryError:
            raise  # reported by the exit status: there may be no memory left to pickle it
        except Exception as error:
            payload = ("raised", _sendable(error, allowed))
        buffers: list[pickle.PickleBuffer] = []
        try:
            stream = pickle.dumps(payload, 5, buffer_callback=buffers.append)
        except Exception as error:  # what cannot be pickled is sent as the text of the problem
            kind, value = payload
            stream = pickle.dumps(("raised", _as_text(value if kind == "raised" else error)))
            buffers = []
        for part in _frame(stream, [buffer.raw() for buffer in buffers]):
            _send(write_end, part)
        code = 0
    except MemoryError:
        code = _EXIT_OUT_OF_MEMORY
    finally:
        os._exit(code)


def _sendable(error: Exception, allowed: dict[tuple[str, str], type]) -> Exception:
    """``error`` if the parent may load it, else its text as a :class:`RuntimeError`."""
    key = (type(error).__module__, type(error).__qualname__)
    return error if key in allowed or _is_builtin_exception(*key) else _as_text(error)


def _as_text(error: BaseException) -> RuntimeError:
    return RuntimeError(f"{type(error).__name__}: {error}")


def _limit_memory(memory_limit_mb: int) -> None:
    limit = _address_space_in_use() + memory_limit_mb * (1 << 20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:  # a lower limit set on the worker stays in force
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _address_space_in_use() -> int:
    """This process's current virtual size; 0 where /proc is missing (the limit is absolute)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
    except OSError:
        return 0
    return pages * resource.getpagesize()


def _frame(stream: bytes, buffers: list[memoryview]) -> list[bytes | memoryview]:
    """The parts to send, in order: the total length, the stream's length, the buffer count,
    each buffer's length, the stream, then each buffer padded to a multiple of 16 bytes (so
    that arrays of any numeric type are aligned in the parent)."""
    head = [len(stream), len(buffers), *(len(buffer) for buffer in buffers)]
    parts: list[bytes | memoryview] = [b"".join(map(_LENGTH.pack, head)), stream]
    for buffer in buffers:
        parts += [_padding(sum(map(len, parts))), buffer]
    total = sum(map(len, parts))
    return [_LENGTH.pack(total), *parts]


def _unframe(message: bytearray) -> tuple[memoryview, list[memoryview]]:
    """The pickle stream and the buffers of a message :func:`_frame` built (after its total
    length); ChildCrashed when the layout does not add up."""
    view = memoryview(message)
    try:
        stream_length, count = struct.unpack_from("<QQ", view)
        lengths = struct.unpack_from(f"<{count}Q", view, 16)
    except struct.error:
        raise ChildCrashed("it sent a malformed result") from None
    position = 16 + 8 * count
    stream = view[position:position + stream_length]
    position += stream_length
    buffers = []
    for length in lengths:
        position += len(_padding(position))
        buffers.append(view[position:position + length])
        position += length
    if position != len(view):
        raise ChildCrashed("it sent a malformed result")
    return stream, buffers


def _padding(position: int) -> bytes:
    return bytes(-position % 16)


def _send(fd: int, data: bytes | memoryview) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


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


def _read_exactly(fd: int, poller: select.poll, buffer: bytearray, deadline: float,
                  ) -> bytearray | None:
    """``buffer`` filled from ``fd``; None if the pipe closes first."""
    view = memoryview(buffer)
    filled = 0
    while filled < len(buffer):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not poller.poll(remaining * 1000):
            raise ChildTimeout
        count = os.readv(fd, [view[filled:filled + _READ_STEP]])
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
