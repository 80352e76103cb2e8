"""What every child process the service starts does to stay contained, and how its parent
reads what it sends back.

A child first asks the kernel to kill it when its parent dies (:func:`die_with_parent`), so
that no parser, decoder or validation runs on after whoever waits for it is gone, keeps what it
holds out of core files and debuggers (:func:`forbid_core_dumps`), and caps its
address space (:func:`limit_address_space`) and its CPU time (:func:`limit_cpu_time`, as much
as :func:`cpu_time_limit` allows). Its parent loads its answer with a
:class:`RestrictedUnpickler`, which builds only plain data and the classes it names: a child
subverted through a parser bug cannot make its parent run code. ``docs/security.md`` (Child
processes) states the guarantees these give. POSIX only; the parent-death signal is Linux's.
"""

from __future__ import annotations

import builtins
import ctypes
import errno
import io
import math
import os
import pickle
import resource
import sys
from collections.abc import Callable, Iterable

from assetcheck.sandbox.cores import available_cores, thread_cores

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
# Looked up once, in the parent: a child forked from a threaded process calls it without
# going through the dynamic loader, whose lock another thread may have held at the fork.
_prctl = ctypes.CDLL(None, use_errno=True).prctl if sys.platform.startswith("linux") else None


def die_with_parent(parent: int, signal_number: int) -> None:
    """Have the kernel send ``signal_number`` to this process when ``parent`` (the process,
    or rather the thread, that forked it) dies; exit at once if it already has."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal_number)
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def forbid_core_dumps() -> None:
    """Write no core file when this process crashes, and let no other process of the same
    user attach to it or read its memory (``PR_SET_DUMPABLE`` 0): a decoder that crashes on
    an upload leaves none of the upload's content behind on disk."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if _prctl is not None:
        _prctl(_PR_SET_DUMPABLE, 0)


def limit_address_space(limit_mb: int) -> None:
    """Allow this process ``limit_mb`` of address space on top of what it maps now (the
    interpreter, its libraries, what it inherited from its parent), within any limit already
    in force. Soft and hard limits both: nothing this process runs can raise it again, and a
    child it forks gets at most what is left of it."""
    limit = address_space_in_use() + (limit_mb << 20)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def cpu_time_limit(timeout: float) -> int:
    """The CPU seconds a child given ``timeout`` seconds of wall-clock time may use: all of
    them on every core this process may run on (a decoder's threads use several), within the
    CPU-time limit this process is under itself. A child reaches it only when nobody ends it
    at its deadline (its caller is stopped or stuck), or under a lower limit it inherited."""
    seconds = math.ceil(timeout * available_cores())
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    return seconds if hard == resource.RLIM_INFINITY else min(seconds, hard)


def limit_cpu_time(seconds: int) -> None:
    """Have the kernel kill this process (SIGKILL) once it has used ``seconds`` of CPU time.
    Soft and hard limits both: nothing this process runs can raise it, and it ends without
    the SIGXCPU of a soft limit, whose default action would dump its memory to a core file."""
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds))


#: The address space each thread beyond the first may take: its stack (the stack size limit,
#: 8 MiB by default) and the malloc arena glibc reserves for a new thread (64 MiB).
THREAD_ADDRESS_SPACE = 72 << 20


def worker_threads(wanted: int) -> int:
    """How many threads to spread ``wanted`` pieces of work over: at most one per core this
    process's share allows (:func:`~assetcheck.sandbox.cores.thread_cores`) and, under
    an address-space limit, only as many extra threads as the space left holds
    (:data:`THREAD_ADDRESS_SPACE` each). The room is checked first, never found out by trying:
    a thread can start without it (on a stack glibc cached in the parent) and then fail where
    no Python code sees it, glibc ending the process with status 127 when it cannot allocate
    the thread's thread-local data; a child decoding under 8 MB did, depending on what its
    parent had run before."""
    workers = min(wanted, thread_cores())
    limit, _ = resource.getrlimit(resource.RLIMIT_AS)
    if limit != resource.RLIM_INFINITY:
        left = max(limit - address_space_in_use(), 0)
        workers = min(workers, 1 + left // THREAD_ADDRESS_SPACE)
    return max(workers, 1)


def address_space_in_use() -> int:
    """This process's current virtual size; 0 where /proc is missing (the limit is absolute)."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[0])
    except OSError:
        return 0
    return pages * resource.getpagesize()


def is_allocation_failure(error: BaseException) -> bool:
    """Whether ``error`` is an allocation refused under the address-space limit: a
    ``MemoryError``, or ENOMEM from a system call (``mmap``, a thread's stack)."""
    return isinstance(error, MemoryError) or (
        isinstance(error, OSError) and error.errno == errno.ENOMEM
    )


class RestrictedUnpickler(pickle.Unpickler):
    """Loads plain data (numbers, strings, bytes, lists, dicts...), instances of the classes in
    ``allowed``, built-in exceptions, and nothing else: any other global a pickle names (a
    function to call, a class to build) fails with :class:`pickle.UnpicklingError`."""

    def __init__(
        self,
        stream: bytes | memoryview,
        allowed: Iterable[Callable[..., object]],
        *,
        buffers: Iterable[memoryview] = (),
    ) -> None:
        super().__init__(io.BytesIO(stream), buffers=buffers)
        self.allowed = allowed_types(allowed)

    def find_class(self, module: str, name: str) -> Callable[..., object]:
        cls = self.allowed.get((module, name))
        if cls is None and is_builtin_exception(module, name):
            cls = getattr(builtins, name)
        if cls is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not an expected type")
        return cls


def allowed_types(
    classes: Iterable[Callable[..., object]],
) -> dict[tuple[str, str], Callable[..., object]]:
    """``classes`` (or the functions some classes pickle through) by the (module, qualified
    name) a pickle names them with."""
    return {(cls.__module__, cls.__qualname__): cls for cls in classes}


def is_builtin_exception(module: str, name: str) -> bool:
    """Whether ``module.name`` is a built-in exception class (safe to rebuild from a pickle)."""
    candidate = getattr(builtins, name, None) if module == "builtins" else None
    return isinstance(candidate, type) and issubclass(candidate, BaseException)
