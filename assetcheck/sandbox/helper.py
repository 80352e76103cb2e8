"""The decoder helper: one child process that runs many decoder requests of its process, so
that a validation run forks once for its decoders, not once per file
(``docs/security.md``, Child processes; ``docs/performance.md``, The decoder helper).

:func:`run_in_helper` keeps :func:`~assetcheck.sandbox.child.run_in_child`'s contract. A
request (the function and what it holds) is pickled and sent to the helper through a Unix
socket with a new sealable file for the answer's arrays; the answer comes back and is loaded
as a child's (:mod:`assetcheck.sandbox.answer`, the same restricted unpickler). The request's
payloads travel as the answer's arrays do: the memoryviews it holds (an upload's bytes where
they lie) and its other pickle-5 buffers (numpy arrays) of :data:`OUT_OF_BAND_BYTES` or more
are written into a sealed file of their own, which the helper maps, so that the socket never
carries (nor waits for the helper to read) megabytes. That file holds those bytes and nothing
else. The helper is
forked, under :func:`~assetcheck.sandbox.child.contain`'s rules, when a request finds none
ready, and replaced:

* when a request fails: a crash, a memory blow-up (its exit) or a hang (killed at the
  request's deadline) costs that request only, as it would have cost a fresh child;
* when its process has imported modules since forking it, so that the helper holds what a
  child forked now would (the decoders' libraries are loaded before the fork, not in it);
* when it cannot give a request the limits a fresh child would get (it then exits unasked,
  before running anything). Each request's address space may grow by its memory limit over
  what the helper maps when it arrives (the soft limit, as a fresh child's); the hard limit,
  which only code calling ``setrlimit`` could reach and which can only be lowered, is set once,
  :data:`HEADROOM_MB` above the first request's, so a helper that has grown by more than that
  is replaced. Its CPU-time limit (soft = hard) is :data:`CPU_ALLOWANCES` times the first
  request's allowance; a request that would have less than its own allowance left gets a new
  helper.

Where a request cannot be pickled (a lambda), the helper is busy (another thread), the caller
is not the main thread (the helper dies with the thread that forked it) or the kernel has no
pidfds, the request runs in a fresh child as before. POSIX and Linux only, as the sandbox.
"""

from __future__ import annotations

import contextlib
import gc
import io
import os
import pickle
import resource
import select
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, NoReturn, TypeVar, cast

from assetcheck.sandbox import answer
from assetcheck.sandbox.child import (
    _EXIT_OUT_OF_MEMORY,
    ChildCrashed,
    ChildTimeout,
    _failure,
    _open_pidfd,
    _outcome,
    _pickled,
    contain,
    loaded,
    run_in_child,
)
from assetcheck.sandbox.containment import (
    address_space_in_use,
    allowed_types,
    cpu_time_limit,
    limit_cpu_time,
)
from assetcheck.sandbox.forking import fork_with_channel

T = TypeVar("T")

#: How many requests' CPU-time allowances a helper may use in all.
CPU_ALLOWANCES = 2
#: How far the helper's hard address-space limit is above its first request's soft limit:
#: room for what requests leave mapped (the threads' stacks and allocation arenas decoders
#: start, about 70 MB a core), past which the helper is replaced.
HEADROOM_MB = 256
#: A request's buffers of this many bytes or more travel out of band, in a file of their own;
#: smaller ones cost less copied through the socket than a file's fresh pages
#: (``docs/performance.md``, Talking to the decoder helper).
OUT_OF_BAND_BYTES = 128 << 10
#: The helper's exit status when it cannot give a request its limits.
_EXIT_RETIRED = 4
_LENGTH = struct.Struct("<Q")
#: Above every descriptor a process may hold (``os.closerange`` closes what is open below it).
_FD_CEILING = max(os.sysconf("SC_OPEN_MAX"), 1 << 20)
_Types = tuple[Callable[..., object], ...]


class _Retired(Exception):
    """The helper ended before running the request: ask a new one."""


def run_in_helper(
    function: Callable[[], T],
    *,
    timeout: float,
    memory_limit_mb: int,
    result_types: Iterable[Callable[..., object]] = (),
) -> T:
    """``function()`` computed in this process's decoder helper (or, where it cannot be, in a
    fresh child), as :func:`~assetcheck.sandbox.child.run_in_child` says: the same result, the
    same exceptions, the same limits."""
    with start_in_helper(
        function, timeout=timeout, memory_limit_mb=memory_limit_mb, result_types=result_types
    ) as started:
        return started.result()


def start_in_helper(
    function: Callable[[], T],
    *,
    timeout: float,
    memory_limit_mb: int,
    result_types: Iterable[Callable[..., object]] = (),
) -> Started[T]:
    """``function()`` sent to this process's decoder helper now, to run there while the caller
    does something else; :meth:`Started.result` gives what :func:`run_in_helper` would have.
    The helper is the request's until it is closed (a ``with`` block): close it whatever
    happens, answered or not."""
    return Started(function, timeout, memory_limit_mb, tuple(result_types))


class Started(Generic[T]):
    """A request sent to the decoder helper (or, where the helper cannot take it, to be run
    in a fresh child by :meth:`result`). It holds the helper until :meth:`close`; closed
    unanswered, it ends the helper, so that nothing it asked outlives it."""

    def __init__(
        self, function: Callable[[], T], timeout: float, memory_limit_mb: int, types: _Types
    ) -> None:
        self._function = function
        self._timeout = timeout
        self._memory_limit_mb = memory_limit_mb
        self._types = types
        self._cpu_seconds = cpu_time_limit(timeout)
        self._helper: _Helper | None = None  # the helper it was sent to, until answered
        self._arrays = -1  # the answer's file, while sent
        self._attempts = 0  # a helper that retires is replaced once
        self._request: _Request | None = None  # pickled once it has the helper
        self._locked = False
        self._take_helper()

    def _take_helper(self) -> None:
        """Send the request to the helper if it is free (no other request holds it), may
        serve this thread and the request can be pickled."""
        if threading.current_thread() is not threading.main_thread():
            return
        self._locked = _lock.acquire(blocking=False)
        if not self._locked:
            return
        try:
            self._request = _request(
                self._function, self._types, self._cpu_seconds, self._memory_limit_mb
            )
            if self._request is None:  # a fresh child will run it
                self._locked = False
                _lock.release()
            else:
                self._send()
        except BaseException:  # forking the helper failed, or the caller was interrupted
            self.close()
            raise

    def _send(self) -> None:
        """Send the request to a ready helper (replacing one that retires, once)."""
        while self._attempts < 2 and self._request is not None:
            self._attempts += 1
            helper = _ready_helper(self._cpu_seconds)
            if helper is None:
                return
            with contextlib.suppress(_Retired):
                self._arrays = helper.send(self._request)
                self._helper = helper
                return

    def result(self) -> T:
        """The answer, as :func:`~assetcheck.sandbox.child.run_in_child` gives it: waited for
        at most ``timeout`` from now. Asked once."""
        if not self._locked:  # the helper was busy: it may be free now
            self._take_helper()
        while self._helper is not None:
            helper, arrays, self._helper = self._helper, self._arrays, None
            try:
                return cast(
                    T, helper.collect(arrays, self._timeout, self._memory_limit_mb, self._types)
                )
            except _Retired:
                self._send()
        return run_in_child(
            self._function,
            timeout=self._timeout,
            memory_limit_mb=self._memory_limit_mb,
            result_types=self._types,
        )

    def close(self) -> None:
        """Give the helper back; one still busy with the request unanswered is ended."""
        if self._helper is not None:
            self._helper.end()
            os.close(self._arrays)
            self._helper = None
        if self._request is not None:
            self._request.close()
            self._request = None
        if self._locked:
            self._locked = False
            _lock.release()

    def __enter__(self) -> Started[T]:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def stop_helper() -> None:
    """End this process's helper, if it has one (kill it and reap it)."""
    if _current is not None:
        _current.end()


class _RequestPickler(pickle.Pickler):
    """Pickles a request with its buffers as pickle-5 buffers, memoryviews (an upload's bytes
    where they lie) among them: each arrives in the helper as a memoryview of the same bytes."""

    def reducer_override(self, obj: object) -> Any:
        if type(obj) is memoryview:
            if obj.contiguous:
                return memoryview, (pickle.PickleBuffer(obj),)
            return bytes, (obj.tobytes(),)
        return NotImplemented


@dataclass(frozen=True)
class _Request:
    """A pickled request: its stream, its out-of-band buffers' lengths and the sealed file
    holding them (None without any), until :meth:`close`."""

    stream: bytes
    lengths: list[int]
    payloads: int | None

    def close(self) -> None:
        if self.payloads is not None:
            os.close(self.payloads)


def _request(
    function: Callable[[], object], types: _Types, cpu_seconds: int, memory_mb: int
) -> _Request | None:
    """The pickled request; None when it cannot be sent: ``function`` cannot be pickled (a
    lambda, a closure) or its buffers cannot be written."""
    stream = io.BytesIO()
    seen: list[pickle.PickleBuffer] = []
    buffers: list[pickle.PickleBuffer] = []  # those out of band

    def in_band(buffer: pickle.PickleBuffer) -> bool:
        seen.append(buffer)
        with buffer.raw() as view:
            if view.nbytes < OUT_OF_BAND_BYTES:
                return True
        buffers.append(buffer)
        return False

    try:
        _RequestPickler(stream, 5, buffer_callback=in_band).dump(
            (function, types, cpu_seconds, memory_mb)
        )
        return _Request(stream.getvalue(), *_written(buffers))
    except Exception:
        return None
    finally:
        for buffer in seen:
            buffer.release()


def _written(buffers: list[pickle.PickleBuffer]) -> tuple[list[int], int | None]:
    """The lengths of ``buffers`` and a sealed anonymous file holding them (None for none).
    No view of them is kept: a buffer exported by a view that a reference cycle holds could
    crash the collector, which can clear the view first (CPython 3.11)."""
    if not buffers:
        return [], None
    views = [buffer.raw() for buffer in buffers]
    lengths = [len(view) for view in views]
    payloads = answer.anonymous_file()
    try:
        answer.write_buffers(payloads, views)
    except BaseException:
        os.close(payloads)
        raise
    finally:
        for view in views:
            view.release()
    return lengths, payloads


class _Helper:
    """A helper this process forked: its pid, socket and pidfd."""

    def __init__(self, pid: int, channel: socket.socket, pidfd: int, cpu_limit: int) -> None:
        self.pid = pid
        self.channel = channel
        self.pidfd = pidfd
        self.cpu_limit = cpu_limit
        self.modules = len(sys.modules)  # what it holds of this process's imports
        self.ended: tuple[int, float] | None = None  # its wait status and CPU time, once reaped

    def send(self, request: _Request) -> int:
        """Send the pickled ``request`` (with its payloads' file, if it has one) and a new file
        for its answer's arrays, and return that file; ``_Retired`` when the helper ended
        before taking it. Whatever goes wrong, the helper is ended."""
        arrays = answer.anonymous_file()
        files = [arrays] if request.payloads is None else [arrays, request.payloads]
        length, *rest = answer.frame(request.stream, request.lengths)
        try:
            self.channel.setblocking(True)
            socket.send_fds(self.channel, [length], files)
            for part in rest:
                self.channel.sendall(part)
        except BaseException as error:
            os.close(arrays)
            self.end()
            if isinstance(error, OSError):  # it ended before taking the request
                raise _Retired from None
            raise
        return arrays

    def collect(self, arrays: int, timeout: float, memory_limit_mb: int, types: _Types) -> object:
        """The answer to the request sent with the file ``arrays`` (closed here), waited for
        at most ``timeout``, as ``run_in_child`` gives it; ``_Retired`` when the helper ended
        without running it. Whatever goes wrong (the request failing, the caller
        interrupted), the helper is ended."""
        most = memory_limit_mb << 20
        try:
            try:
                message = self._receive(time.monotonic() + timeout, most)
            except BaseException:
                self.end()
                raise
            try:
                return loaded(message, arrays, most, allowed_types(types))
            except ChildCrashed:  # it sent no answer: it cannot be trusted with another
                self.end()
                raise
        finally:
            os.close(arrays)

    def _receive(self, deadline: float, most: int) -> bytearray:
        """The answer's message, once it has come."""
        inbox = answer.Inbox(self.channel.fileno(), most)
        if not self._wait(inbox, deadline):
            raise ChildTimeout()
        if inbox.message is not None:
            return inbox.message
        status, cpu_used = self.end()
        if inbox.refusal is not None:
            raise ChildCrashed(str(inbox.refusal))
        if os.WIFEXITED(status) and os.WEXITSTATUS(status) == _EXIT_RETIRED:
            raise _Retired
        raise _failure(status, cpu_used, self.cpu_limit)

    def _wait(self, inbox: answer.Inbox, deadline: float) -> bool:
        """Sleep until the helper has answered in whole or ended (True) or the deadline has
        passed (False)."""
        poller = select.poll()
        poller.register(self.channel, select.POLLIN)
        poller.register(self.pidfd, select.POLLIN)
        watching, ended = True, False
        while inbox.message is None and inbox.refusal is None and not ended:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            for fd, _ in poller.poll(remaining * 1000):
                ended = ended or fd == self.pidfd
            inbox.read()  # what an ended helper wrote is still there
            if inbox.closed and watching:  # it is ending: wait for its end
                poller.unregister(self.channel)
                watching = False
        return True

    def end(self) -> tuple[int, float]:
        """Kill the helper, reap it and close its descriptors (once): its wait status and the
        CPU time it used. It is no longer this process's helper."""
        global _current
        if _current is self:
            _current = None
        if self.ended is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            try:
                _, status, usage = os.wait4(self.pid, 0)
            except ChildProcessError:  # someone else (a SIGCHLD handler) reaped it
                self.ended = (0, 0.0)
            else:
                self.ended = (status, usage.ru_utime + usage.ru_stime)
            self.forget()
        return self.ended

    def forget(self) -> None:
        """Close this process's descriptors of the helper."""
        self.channel.close()
        os.close(self.pidfd)


_current: _Helper | None = None
_lock = threading.Lock()


def _ready_helper(cpu_seconds: int) -> _Helper | None:
    """The helper, forked now if there is none or it is behind this process's imports; None
    where there can be none (no pidfds)."""
    global _current
    if _current is not None and _current.modules != len(sys.modules):
        stop_helper()
    if _current is None:
        _current = _start(min(CPU_ALLOWANCES * cpu_seconds, _hard_cpu_limit()))
    return _current


def _hard_cpu_limit() -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    return sys.maxsize if hard == resource.RLIM_INFINITY else hard


def _start(cpu_limit: int) -> _Helper | None:
    """Fork a helper under ``cpu_limit`` CPU seconds; None where there are no pidfds."""
    forked = fork_with_channel()
    if forked.pid == 0:
        _serve(forked.parent, forked.channel, cpu_limit, forked.held)
    pid, ours = forked.pid, forked.channel
    helper = None
    try:
        pidfd = _open_pidfd(pid)
        if pidfd is not None:
            helper = _Helper(pid, ours, pidfd, cpu_limit)
    finally:
        if helper is None:  # without a pidfd its death could go unseen: no helper
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            ours.close()
        try:
            forked.restore_signals()  # a held signal is raised here
        except BaseException:
            if helper is not None:
                helper.end()
            raise
    return helper


def _serve(
    parent: int, channel: socket.socket, cpu_limit: int, signal_mask: set[int | signal.Signals]
) -> NoReturn:
    """The helper's whole life: requests answered one at a time, until one it cannot serve
    (none: its parent closed the socket; one it cannot unpickle or give its limits), when it
    exits with ``_EXIT_RETIRED``."""
    code = 1
    try:
        # What it inherited is never collected here: the finalizer of an object its parent
        # had let go (an upload's mapping) would close a descriptor number that
        # _close_inherited freed and a request's file now holds.
        gc.freeze()
        contain(parent, signal_mask, own_group=False)
        _close_inherited(keep=channel.fileno())
        limit_cpu_time(cpu_limit)
        inherited = resource.getrlimit(resource.RLIMIT_AS)[1]
        while _answer(channel, cpu_limit, inherited):
            pass
        code = _EXIT_RETIRED  # unasked: the parent gone, or a request to pass on
    except MemoryError:
        code = _EXIT_OUT_OF_MEMORY
    finally:
        os._exit(code)


def _close_inherited(keep: int) -> None:
    """Close every descriptor the helper inherited but ``keep`` and the standard three. The
    helper outlives the request that forked it: holding the write end of a pipe its parent
    opened (a browser driver's, a ``daemon start``'s) would keep the reader at the other end
    from ever seeing it closed."""
    os.closerange(3, keep)
    os.closerange(keep + 1, _FD_CEILING)


def _answer(channel: socket.socket, cpu_limit: int, inherited: int) -> bool:
    """Receive the next request, run it and send its answer; False, running nothing, for a
    request the helper cannot serve. What the request held (its payloads' mapping among it)
    is let go on return, before the next one."""
    request = _receive(channel)
    if request is None:
        return False
    function, types, cpu_seconds, memory_mb, arrays = request
    try:
        if not _limit(cpu_limit, cpu_seconds, memory_mb, inherited):
            return False
        outcome = _outcome(function, allowed_types(types))
        answer.send(channel.fileno(), arrays, *_pickled(outcome))
    finally:
        os.close(arrays)
    return True


def _receive(channel: socket.socket) -> tuple[Any, ...] | None:
    """The next request (function, result types, CPU seconds, memory limit, its buffers mapped
    from their file) and its arrays' file; None once the parent has closed the socket, or when
    the request names what the helper lacks (a function its parent defined after forking it):
    a new helper will have it."""
    head, files, _, _ = socket.recv_fds(channel, _LENGTH.size, 2)
    if not head or len(files) not in (1, 2):
        for fd in files:
            os.close(fd)
        return None
    arrays, payloads = files[0], files[1] if len(files) == 2 else -1
    try:
        head += _exactly(channel, _LENGTH.size - len(head))
        message = _exactly(channel, _LENGTH.unpack(head)[0])
        stream, buffers = answer.unframe(message, payloads, sys.maxsize)  # the parent's
        request = pickle.loads(stream, buffers=buffers)
    except MemoryError:
        raise
    except Exception:
        os.close(arrays)
        return None
    finally:
        if payloads >= 0:
            os.close(payloads)  # its mapping stays while the request holds its buffers
    return (*request, arrays)


def _exactly(channel: socket.socket, count: int) -> bytearray:
    buffer = bytearray(count)
    view = memoryview(buffer)
    while view:
        received = channel.recv_into(view)
        if not received:
            raise EOFError("the parent closed the helper's socket mid-request")
        view = view[received:]
    return buffer


def _limit(cpu_limit: int, cpu_seconds: int, memory_mb: int, inherited: int) -> bool:
    """Set the request's address-space limit: as a fresh child's soft limit, its memory limit
    over what the helper maps now (within the limit the helper inherited); the hard limit, set
    by the first request, :data:`HEADROOM_MB` above the first request's soft limit. False,
    setting nothing, when the request would need the hard limit raised (the helper has grown
    by more than the headroom) or has less than ``cpu_seconds`` of CPU time left."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    if cpu_limit - (usage.ru_utime + usage.ru_stime) < cpu_seconds:
        return False
    wanted = address_space_in_use() + (memory_mb << 20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == inherited:  # the first request
        hard = wanted + (HEADROOM_MB << 20)
        if inherited != resource.RLIM_INFINITY:
            hard = min(hard, inherited)
    elif wanted > hard:
        return False
    resource.setrlimit(resource.RLIMIT_AS, (min(wanted, hard), hard))
    return True


def _forget_in_child() -> None:
    """In any child this process forks: the helper is not its own."""
    global _current, _lock
    if _current is not None:
        _current.forget()
        _current = None
    _lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_in_child)
