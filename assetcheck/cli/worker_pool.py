"""The worker processes of ``validate --jobs`` (:func:`assetcheck.cli.parallel.validate_files`).

The workers are forked from the command once its plugin manager exists, and before any other
thread runs (the progress display starts after them), so each starts with every plugin loaded
and nothing to build. The files are handed out in chunks (:mod:`assetcheck.cli.chunks`: the
largest files first, chunks shrinking toward the end), one chunk at a time to whichever worker
is free; a worker sends each file's outcome back as soon as it has it (the JSON report, or why
the file could not be opened: only plain data crosses between processes,
:mod:`assetcheck.cli.worker_messages`), and the outcomes are yielded in the order of the
files, each as soon as those before it are in.

A worker that dies part-way (a crash in native code, the out-of-memory killer) costs only the
file it was validating, whose outcome says so; the rest of its chunk goes back to the front of
the queue, and a new worker is forked in its place. Its decoder children die with it, as they
die with their caller in a one-process run. (That replacement is the one fork that may happen
while the progress display's thread runs, on a terminal; that thread holds no lock but the
standard error stream's, for the moment of a write, and a worker writes there only to report a
failure of its own.)

An interrupted run leaves no process behind: leaving ``validate_files`` in any way kills the
workers and reaps them before it returns; each worker, like each decoder child, is killed by
the kernel when the process that forked it dies, so SIGTERM or SIGKILL of the command takes the
whole tree with it; and workers ignore SIGINT, so a Ctrl-C at the terminal, which reaches the
whole process group, is handled by the command alone (one line, status 130). Workers need
``os.fork``; where there is none, ``validate_files`` validates the files in the command.
"""

from __future__ import annotations

import contextlib
import gc
import os
import select
import signal
import socket
import traceback
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pluggy

from assetcheck.asset.options import ValidationOptions
from assetcheck.sandbox.containment import die_with_parent
from assetcheck.sandbox.cores import share_cores
from assetcheck.sandbox.forking import fork_with_channel

from .chunks import plan_chunks
from .parallel import Outcome, validate_one
from .worker_messages import (
    pack_chunk,
    pack_outcome,
    receive_message,
    send_message,
    unpack_chunk,
    unpack_outcome,
)


@dataclass
class _Worker:
    """A forked worker: its process, this process's end of their socket, and the file
    indices of its chunk whose outcomes it has not sent yet (in the order it validates them)."""

    pid: int
    channel: socket.socket
    unfinished: deque[int] = field(default_factory=deque)


class WorkerPool:
    """Worker processes and the chunks they have not taken yet (see the module docstring)."""

    def __init__(
        self,
        files: Sequence[Path],
        names: Sequence[str],
        options: ValidationOptions,
        pm: pluggy.PluginManager,
        workers: int,
    ) -> None:
        self._files = files
        self._names = names
        self._options = options
        self._pm = pm
        self._count = workers
        self._chunks = deque(plan_chunks([_size(path) for path in files], workers))
        self._workers: dict[int, _Worker] = {}  # by the descriptor of their channel
        self._retired: list[int] = []  # the pids of workers ended early, not reaped yet
        try:
            for _ in range(workers):
                self._give_chunk(self._fork())
        except BaseException:
            self.close()
            raise

    def outcomes(self) -> Iterator[Outcome]:
        """Every file's outcome in the order of the files, each once those before it are in."""
        arrived: dict[int, Outcome] = {}
        for index in range(len(self._files)):
            while index not in arrived:
                poller = select.poll()
                for descriptor in self._workers:
                    poller.register(descriptor, select.POLLIN)
                for descriptor, _ in poller.poll():
                    self._receive(self._workers[descriptor], arrived)
            yield arrived.pop(index)

    def close(self) -> None:
        """Kill every worker (an idle one waits for a chunk that will not come) and reap it."""
        for worker in self._workers.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.pid, signal.SIGKILL)
        for worker in self._workers.values():
            os.waitpid(worker.pid, 0)
            worker.channel.close()
        self._workers.clear()
        for pid in self._retired:
            os.waitpid(pid, 0)
        self._retired.clear()

    def _receive(self, worker: _Worker, arrived: dict[int, Outcome]) -> None:
        """Take one outcome from ``worker`` and give it its next chunk once it has finished its
        own; or, when it has died, what :meth:`_replace` says."""
        try:
            message = receive_message(worker.channel)
        except (EOFError, OSError):
            self._replace(worker, arrived)
            return
        index, report, error = unpack_outcome(message)
        arrived[index] = Outcome(self._files[index], report, error)
        worker.unfinished.popleft()
        if not worker.unfinished:
            self._give_chunk(worker)
        if not worker.unfinished and not self._chunks:
            self._retire(worker)

    def _retire(self, worker: _Worker) -> None:
        """Kill ``worker``, which has nothing left to do, now: the kernel frees its memory
        while the others finish, and :meth:`close` only reaps it."""
        os.kill(worker.pid, signal.SIGKILL)  # not reaped yet: it exists, if only as a zombie
        # Closed once killed: a worker that saw its channel closed would stop by itself.
        del self._workers[worker.channel.fileno()]
        worker.channel.close()
        self._retired.append(worker.pid)

    def _replace(self, dead: _Worker, arrived: dict[int, Outcome]) -> None:
        """The file ``dead`` was validating gets an outcome saying how the worker ended; the
        rest of its chunk goes back to the front of the queue, for a worker forked in its
        place."""
        del self._workers[dead.channel.fileno()]
        dead.channel.close()
        _, status = os.waitpid(dead.pid, 0)
        if dead.unfinished:  # else it died idle, killed from outside
            index = dead.unfinished.popleft()
            arrived[index] = Outcome(
                self._files[index], None, f"not validated: its worker process {_ending(status)}"
            )
        if dead.unfinished:
            self._chunks.appendleft(list(dead.unfinished))
        if self._chunks:
            self._give_chunk(self._fork())

    def _give_chunk(self, worker: _Worker) -> None:
        """Send ``worker`` the next chunk, if any is left. A worker that died since its last
        outcome keeps none (its death is seen at the next wait, its channel closed)."""
        if self._chunks:
            chunk = self._chunks[0]
            try:
                send_message(worker.channel, pack_chunk(chunk))
            except OSError:
                return
            worker.unfinished.extend(self._chunks.popleft())

    def _fork(self) -> _Worker:
        """A new worker, waiting for its first chunk."""
        forked = fork_with_channel()
        if forked.pid == 0:
            status = 1
            # What a worker inherits is never collected there: its collector neither walks
            # (slowly) nor writes to (copying the pages of) what the plugin manager built.
            # Frozen here, not in this process, whose own frozen objects stay as they are.
            gc.freeze()
            try:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                forked.restore_signals()
                for other in self._workers.values():
                    other.channel.close()
                die_with_parent(forked.parent, signal.SIGKILL)
                share_cores(self._count)
                _work(forked.channel, self._files, self._names, self._options, self._pm)
                status = 0
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(status)
        worker = _Worker(forked.pid, forked.channel)
        self._workers[forked.channel.fileno()] = worker
        forked.restore_signals()  # a held signal is raised here
        return worker


def _work(
    channel: socket.socket,
    files: Sequence[Path],
    names: Sequence[str],
    options: ValidationOptions,
    pm: pluggy.PluginManager,
) -> None:
    """A worker's life: validate the files of each chunk it is sent, sending back each file's
    outcome as soon as it has it, until its parent dies (and takes it along), kills it or
    closes the channel."""
    while True:
        try:
            chunk = unpack_chunk(receive_message(channel))
        except EOFError:
            return
        for index in chunk:
            outcome = validate_one(files[index], names[index], options, pm)
            send_message(channel, pack_outcome(index, outcome.report, outcome.error))


def _size(path: Path) -> int:
    """The size of ``path``, 0 when it cannot be read (its outcome will say why)."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _ending(status: int) -> str:
    """How a worker ended, from its wait status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return f"was killed by signal {number} ({signal.strsignal(number)})"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"
