"""Starting a child process: the one way the service runs anything in a child (a job's
validation, the FBX parser, the Draco and meshopt decoders), under the same limits.

Native code fed with an upload allocates what the file declares, so it runs here: a hang or a
blow-up costs one child, never the caller. The child is a plain ``os.fork`` (no new
interpreter, nothing to import) that runs one function, sends the pickled result back and
leaves with ``os._exit``. Every child gets:

* a wall-clock deadline, past which its caller kills it (:class:`ChildTimeout`);
* a CPU-time limit derived from it (:func:`~assetcheck.sandbox.containment.cpu_time_limit`),
  which the kernel enforces when nobody is there to see the deadline pass;
* an address-space limit (:func:`~assetcheck.sandbox.containment.limit_address_space`: its
  memory limit on top of what it inherits, soft and hard);
* no core file and no ptrace by other processes of the user
  (:func:`~assetcheck.sandbox.containment.forbid_core_dumps`): a crash leaves no upload
  content on disk;
* death with its parent: the kernel sends it SIGKILL when the thread that forked it dies,
  however that happens (a job's validation killed, the CLI interrupted);
* either its caller's process group (a decoder: a job killed as a group takes it along, and
  the caller's SIGINT and SIGTERM kill it at once, where the caller's handlers would run only
  once the native code returns) or, with ``own_group``, a group of its own that the children
  it starts join, and which is killed whole when it ends (a job's validation, which keeps its
  caller's signal handlers: only its caller ends it).

The result comes back pickled, its arrays through a sealed anonymous file
(:mod:`assetcheck.sandbox.answer`), and is loaded with an unpickler that builds plain data and
the types the caller names only: a child subverted through a parser bug cannot make its parent
run code.

The parent never polls: it sleeps in ``poll`` on the pipe and on a pidfd of the child, so it
wakes as the answer arrives, as the child dies (even while another process holds a copy of
the pipe) or at the deadline. Once the answer is whole the child has nothing left to do and
is killed at once. However the child ends, the parent kills it (its group, with
``own_group``) and reaps it: no zombie and no open descriptor is left behind. Where the kernel
has no pidfds (Linux before 5.3) the end of the pipe stands for the child's death.

After ``fork`` only the calling thread exists in the child, so the function must not need
locks other threads may hold (logging, thread pools): parsing a file and pickling plain data
is safe. The caller's stop signals (SIGINT, SIGTERM, SIGHUP) are blocked around the fork: one
that arrived during it would otherwise be raised inside an at-fork hook (logging registers
one), where Python ignores exceptions, and Ctrl-C would be lost. Held, it is raised once the
fork is done, where the child is killed for it. ``docs/security.md`` (Child processes) states what
these rules guarantee. POSIX only; parent-death signals, seals and pidfds are Linux's.
"""

from __future__ import annotations

import contextlib
import errno
import os
import pickle
import select
import signal
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Generic, NoReturn, TypeVar, cast

from assetcheck.sandbox import answer
from assetcheck.sandbox.containment import (
    allowed_types,
    cpu_time_limit,
    die_with_parent,
    forbid_core_dumps,
    is_allocation_failure,
    is_builtin_exception,
    limit_address_space,
    limit_cpu_time,
)
from assetcheck.sandbox.forking import HELD_DURING_FORK

T = TypeVar("T")

_EXIT_OUT_OF_MEMORY = 3
#: Why ``pidfd_open`` may fail where pidfds are missing: an older kernel, or a seccomp filter
#: that predates them.
_NO_PIDFDS = (errno.ENOSYS, errno.EPERM)
#: A SIGKILL is taken for the CPU-time limit's once the child has used this share of it: the
#: kernel checks the limit against CPU time counted in clock ticks, but reports the time the
#: scheduler measured, a few percent apart when idle; a run of the suite on a loaded machine
#: saw more (a 2 s limit read as under 1.8 s), so the margin is wide. The OOM killer, the other
#: sender of a SIGKILL, does not wait for a child to have spun three quarters of its CPU time.
_CPU_LIMIT_REACHED = 0.75

Allowed = dict[tuple[str, str], Callable[..., object]]


class ChildFailure(Exception):
    """The child did not return a result."""


class ChildTimeout(ChildFailure):
    """The child ran past its time limit (its deadline or its CPU time) and was killed."""


class ChildOutOfMemory(ChildFailure):
    """The child ran out of memory under its limit, or its answer's arrays do not fit in
    what this process has left."""


class ChildCrashed(ChildFailure):
    """The child died without a result: killed by a signal or exited early."""


def run_in_child(
    function: Callable[[], T],
    *,
    timeout: float,
    memory_limit_mb: int,
    result_types: Iterable[Callable[..., object]] = (),
) -> T:
    """``function()``, computed in a child (see :func:`start_child`) and returned here.

    The result may hold plain data (numbers, strings, bytes, lists, dicts...), instances
    of the classes in ``result_types`` and what its functions (the rebuilders some classes
    pickle through) return. An exception the function raises is raised here again when it is a
    built-in exception or one of ``result_types``, else as a :class:`RuntimeError` with its
    text. ``memory_limit_mb`` is how much address space the child may add to what it inherits
    from this process (which may already map a large upload). Raises :class:`ChildTimeout`,
    :class:`ChildOutOfMemory` or :class:`ChildCrashed` when there is no result.
    """
    with start_child(
        function, timeout=timeout, memory_limit_mb=memory_limit_mb, result_types=result_types
    ) as child:
        return child.result()


@dataclass(frozen=True)
class _Limits:
    """What a child may use, as its parent computed them before the fork."""

    parent: int
    deadline: float  # time.monotonic()
    memory_limit_mb: int
    cpu_seconds: int
    own_group: bool


def start_child(
    function: Callable[[], T],
    *,
    timeout: float,
    memory_limit_mb: int,
    result_types: Iterable[Callable[..., object]] = (),
    own_group: bool = False,
) -> Child[T]:
    """A forked child computing ``function()`` under the limits of the module docstring:
    ``timeout`` seconds from now, ``memory_limit_mb`` of address space on top of what it
    inherits; ``own_group`` makes it lead a process group of its own. Its result is read as
    :func:`run_in_child` says; close the child (or leave its ``with`` block) however it ends."""
    limits = _Limits(
        parent=os.getpid(),
        deadline=time.monotonic() + timeout,
        memory_limit_mb=memory_limit_mb,
        cpu_seconds=cpu_time_limit(timeout),
        own_group=own_group,
    )
    allowed = allowed_types(result_types)
    arrays = answer.anonymous_file()
    try:
        read_end, write_end = os.pipe()
    except BaseException:
        os.close(arrays)
        raise
    held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD_DURING_FORK)
    try:
        pid = os.fork()
    except BaseException:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        for fd in (read_end, write_end, arrays):
            os.close(fd)
        raise
    if pid == 0:
        os.close(read_end)
        _child(limits, function, allowed, write_end, arrays, held)
    os.close(write_end)
    try:
        child: Child[T] = Child(pid, limits, allowed, read_end, arrays)
    except BaseException:  # the child is gone (Child saw to it)
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        raise
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held signal is raised here
    except BaseException:
        child.close()
        raise
    return child


class Child(Generic[T]):
    """A child :func:`start_child` started: wait for it, take its result, close it."""

    def __init__(self, pid: int, limits: _Limits, allowed: Allowed, pipe: int, arrays: int):
        """Take charge of the forked child ``pid``: its pipe's read end and its arrays' file."""
        self.pid = pid
        self._limits = limits
        self._allowed = allowed
        self._pipe = pipe
        self._arrays = arrays
        self._pidfd: int | None = None
        self._exited = False  # seen to have died (or, without a pidfd, to have closed its pipe)
        self._status: int | None = None  # its wait status, once reaped
        self._cpu_used = 0.0
        self._closed = False
        self._poller = select.poll()
        try:
            if limits.own_group:  # the child does so too: whichever runs first, the group
                with contextlib.suppress(ProcessLookupError):  # exists before it forks
                    os.setpgid(pid, pid)
            self._inbox = answer.Inbox(pipe, most=limits.memory_limit_mb << 20)
            self._pidfd = _open_pidfd(pid)
        except BaseException:
            self.close()
            raise
        self._poller.register(pipe, select.POLLIN)
        if self._pidfd is not None:
            self._poller.register(self._pidfd, select.POLLIN)

    def __enter__(self) -> Child[T]:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def wait(self, seconds: float | None = None) -> bool:
        """Sleep until the child has answered, has died or has passed its deadline (True), or
        until ``seconds`` pass first (False; None: no such bound)."""
        until = self._limits.deadline
        if seconds is not None:
            until = min(until, time.monotonic() + seconds)
        while not self._settled():
            remaining = until - time.monotonic()
            if remaining <= 0:
                return False
            for fd, _ in self._poller.poll(remaining * 1000):
                if fd == self._pidfd:
                    self._exited = True
                self._receive()  # what a dead child wrote is still in the pipe
        return True

    def result(self) -> T:
        """What :func:`run_in_child` says, once the child has answered or ended (this waits
        until its deadline at most); the child is then gone."""
        self.wait()
        if self._inbox.message is not None:
            self._end()  # it has nothing left to do
            return self._load(self._inbox.message)
        raise self._no_result()

    def close(self) -> None:
        """Kill the child (its whole group, if it leads one), reap it and close what is left
        open. Safe to call again."""
        if self._closed:
            return
        self._closed = True
        try:
            self._end()
        finally:
            for fd in (self._pipe, self._pidfd, self._arrays):
                if fd is not None:
                    os.close(fd)

    def _no_result(self) -> ChildFailure:
        """Why there is no answer, the child being gone."""
        refusal, exited = self._inbox.refusal, self._exited
        self._end()
        if refusal is not None:
            return ChildCrashed(str(refusal))
        if not exited:
            return ChildTimeout()
        return _failure(self._status or 0, self._cpu_used, self._limits.cpu_seconds)

    def _settled(self) -> bool:
        return (
            self._inbox.message is not None
            or self._inbox.refusal is not None
            or self._exited
            or time.monotonic() >= self._limits.deadline
        )

    def _receive(self) -> None:
        """Read what the pipe holds; stop watching it once it has nothing more to give."""
        if self._inbox.done:
            return
        self._inbox.read()
        if self._inbox.done:
            self._poller.unregister(self._pipe)
            if self._inbox.message is None and self._pidfd is None:
                self._exited = True  # without a pidfd, a closed pipe is the sign of its death

    def _end(self) -> None:
        """Kill the child and reap it (once); its wait status and CPU time are then known."""
        if self._status is not None:
            return
        if self._exited and self._pidfd is None:
            # Its pipe closed: it is exiting. Let it finish, so that its status is its own.
            with contextlib.suppress(ChildProcessError):
                os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)
        with contextlib.suppress(ProcessLookupError):  # it and all it started have exited
            if self._limits.own_group:  # before reaping: until then the group's id is not reused
                os.killpg(self.pid, signal.SIGKILL)
            else:
                os.kill(self.pid, signal.SIGKILL)
        try:
            _, self._status, usage = os.wait4(self.pid, 0)
        except ChildProcessError:  # someone else (a SIGCHLD handler) reaped it
            self._status = 0
        else:
            self._cpu_used = usage.ru_utime + usage.ru_stime

    def _load(self, message: bytearray) -> T:
        """The value the child's ``message`` returns, or the exception it raises."""
        most = self._limits.memory_limit_mb << 20
        return cast(T, loaded(message, self._arrays, most, self._allowed))


def loaded(message: bytearray, arrays: int, most: int, allowed: Allowed) -> object:
    """The value a child's whole ``message`` returns (its arrays in the file ``arrays``, which
    it may have filled up to ``most`` bytes), or the exception it raises; ChildCrashed when it
    is no answer of ``allowed`` types, ChildOutOfMemory when its arrays do not fit under this
    process's address-space limit."""
    try:
        kind, value = answer.load(message, arrays, most, allowed.values())
    except answer.BadAnswer as error:
        raise ChildCrashed(str(error)) from None
    except OSError as error:
        if is_allocation_failure(error):  # mapping the arrays
            raise ChildOutOfMemory(str(error)) from None
        raise
    if kind == "raised":
        raise value if isinstance(value, Exception) else ChildCrashed("raised a non-exception")
    return value


def _open_pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when ``pid`` exits; None where there are none."""
    try:
        return os.pidfd_open(pid)
    except AttributeError:  # not Linux
        return None
    except OSError as error:
        if error.errno in _NO_PIDFDS:
            return None
        raise


def _child(
    limits: _Limits,
    function: Callable[[], object],
    allowed: Allowed,
    write_end: int,
    arrays: int,
    signal_mask: set[int | signal.Signals],
) -> NoReturn:
    """The child's whole life: it never returns into the caller's stack."""
    code = 1
    try:
        contain(limits.parent, signal_mask, own_group=limits.own_group)
        limit_address_space(limits.memory_limit_mb)
        limit_cpu_time(limits.cpu_seconds)
        answer.send(write_end, arrays, *_pickled(_outcome(function, allowed)))
        code = 0
    except MemoryError:
        code = _EXIT_OUT_OF_MEMORY
    finally:
        os._exit(code)


def contain(parent: int, signal_mask: set[int | signal.Signals], *, own_group: bool) -> None:
    """In a child just forked by ``parent``: the rules of the module docstring but the limits
    (its group and stop signals, ``signal_mask`` restored, death with its parent, no core file
    and no tracing)."""
    if own_group:
        os.setpgid(0, 0)
    else:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, signal_mask)
    die_with_parent(parent, signal.SIGKILL)
    forbid_core_dumps()


def _outcome(function: Callable[[], object], allowed: Allowed) -> tuple[str, object]:
    """``("returned", value)`` or ``("raised", error)``, ``error`` being one the parent may load.
    An allocation refused under the limit is raised as MemoryError: the exit status says so,
    as there may be no memory left to pickle anything."""
    try:
        return "returned", function()
    except Exception as error:
        if is_allocation_failure(error):
            raise MemoryError from None
        return "raised", _sendable(error, allowed)


def _pickled(payload: tuple[str, object]) -> tuple[bytes, list[memoryview]]:
    """The pickle stream of ``payload`` and its out-of-band buffers; what cannot be pickled is
    sent as the text of the problem."""
    buffers: list[pickle.PickleBuffer] = []
    try:
        stream = pickle.dumps(payload, 5, buffer_callback=buffers.append)
    except Exception as error:
        kind, value = payload
        problem = value if kind == "raised" and isinstance(value, Exception) else error
        return pickle.dumps(("raised", _as_text(problem))), []
    return stream, [buffer.raw() for buffer in buffers]


def _sendable(error: Exception, allowed: Allowed) -> Exception:
    """``error`` if the parent may load it, else its text as a :class:`RuntimeError`."""
    key = (type(error).__module__, type(error).__qualname__)
    return error if key in allowed or is_builtin_exception(*key) else _as_text(error)


def _as_text(error: BaseException) -> RuntimeError:
    return RuntimeError(f"{type(error).__name__}: {error}")


def _failure(status: int, cpu_used: float, cpu_seconds: int) -> ChildFailure:
    """Why a child that died with the wait ``status``, having used ``cpu_used`` of its
    ``cpu_seconds`` of CPU time, sent nothing."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGKILL and cpu_used >= cpu_seconds * _CPU_LIMIT_REACHED:
            return ChildTimeout(f"used its {cpu_seconds} s of CPU time")
        if number == signal.SIGKILL:  # not ours (we kill at the deadline): the OOM killer
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
