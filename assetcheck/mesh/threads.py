"""Spreading one big mesh's passes over the cores this process may use.

The compiled kernels release the GIL, so a pass over a mesh's triangles can run as chunks on a
few threads: each stage of the edge table and of the duplicate search is split into
:func:`spans` and run by :func:`run_all`, and every stage is written so that its result does
not depend on how it was split (docs/performance.md, "Big meshes on every core").

**How many threads.** :func:`mesh_threads`: one per :data:`TRIANGLES_PER_THREAD` triangles, at
most :func:`~assetcheck.sandbox.containment.worker_threads` (the cores this process's share
allows, and what the address-space limit leaves room for): a process that is one of several
validating side by side (``validate --jobs``, the service's workers) takes its share of the
cores, not all of them (``docs/architecture.md``, Threads).

**Fork-safe.** The threads live for one :func:`run_all`: none is left running when the process
forks a decoder child or a worker.
"""

from __future__ import annotations

import _thread
import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar, cast

from assetcheck.lazy_imports import lazy_module

if TYPE_CHECKING:
    from assetcheck.sandbox import containment
else:  # imported by the first mesh big enough for threads: small files never need it
    containment = lazy_module("assetcheck.sandbox.containment")

T = TypeVar("T")

#: Triangles a thread more must have to save more than it costs: a stage on two threads costs
#: about 30 µs more, and the chunks' rows of counts and cursors 0.5-1.5 ms more CPU a pass;
#: measured by ``bench/mesh_threads.py`` (docs/performance.md, "Big meshes on every core").
TRIANGLES_PER_THREAD = 100_000


def mesh_threads(triangles: int) -> int:
    """How many threads the passes over a mesh of ``triangles`` take: 1 below twice
    :data:`TRIANGLES_PER_THREAD`, else one per that many, within
    :func:`~assetcheck.sandbox.containment.worker_threads`."""
    wanted = triangles // TRIANGLES_PER_THREAD
    return containment.worker_threads(wanted) if wanted > 1 else 1


def spans(count: int, pieces: int) -> list[tuple[int, int]]:
    """``count`` items cut into ``pieces`` consecutive ``(first, last)`` spans of nearly equal
    size (fewer when there are fewer items; one empty span for none)."""
    if pieces <= 1:
        return [(0, count)]
    pieces = max(1, min(pieces, count))
    bounds = [count * piece // pieces for piece in range(pieces + 1)]
    return list(itertools.pairwise(bounds))


def run_all(tasks: Sequence[Callable[[], T]], threads: int) -> list[T]:
    """The results of ``tasks``, in order, run by this thread and up to ``threads - 1`` more,
    each taking the next task not yet taken; each task runs once. The first task to fail, in
    order, raises its error once all have ended. A thread that cannot start (no room left
    under the address-space limit) is done without: the others, this one at least, take its
    share.

    The helpers are started with ``_thread.start_new_thread``: ``threading.Thread.start``
    waits until the new thread runs, 50 µs at best and a scheduler's slice (milliseconds) on
    a busy machine, while this thread could be working; each helper releases its own lock
    when it has no task left, and this thread waits for those locks."""
    if threads <= 1 or len(tasks) <= 1:
        return [task() for task in tasks]
    outcomes: list[tuple[bool, object]] = [(False, None)] * len(tasks)
    taken = itertools.count()  # next() on it is atomic: each index is taken once

    def work() -> None:
        while (index := next(taken)) < len(tasks):
            try:
                outcomes[index] = (True, tasks[index]())
            except BaseException as error:  # raised again below, in order
                outcomes[index] = (False, error)

    def helper(done: _thread.LockType) -> None:
        try:
            work()
        finally:
            done.release()

    helpers: list[_thread.LockType] = []
    for _ in range(min(threads, len(tasks)) - 1):
        done = _thread.allocate_lock()
        done.acquire()
        try:
            _thread.start_new_thread(helper, (done,))
        except RuntimeError:  # no room for the thread's stack
            break
        helpers.append(done)
    work()
    for done in helpers:
        done.acquire()
    results: list[T] = []
    for finished, value in outcomes:
        if not finished:
            raise cast(BaseException, value)
        results.append(cast(T, value))
    return results
