"""The worker processes of a node: started by ``assetcheck serve`` and ``assetcheck worker``,
restarted when one dies, stopped gracefully (SIGTERM, then SIGKILL after the grace period).

Workers are started with ``spawn``: a fresh interpreter that inherits no event loop, thread,
socket or database connection from the supervisor.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from collections.abc import Callable
from multiprocessing.process import BaseProcess

from assetcheck.config.settings import Config
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.sandbox.containment import die_with_parent
from assetcheck.sandbox.cores import share_cores
from assetcheck.service import db
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.jobs.worker import Worker
from assetcheck.service.observability.log_format import setup_process_logging
from assetcheck.start_up import freeze_before_forking

log = logging.getLogger(__name__)

#: A slot whose worker keeps dying is restarted at most this often.
RESTART_DELAY = 1.0
#: What a stopping worker may take on top of its own grace period to exit.
EXIT_MARGIN = 5.0
#: Workers run at a lower CPU priority than the HTTP process, so submits and polls stay quick
#: while every worker is busy validating.
WORKER_NICENESS = 10

_SPAWN = multiprocessing.get_context("spawn")


class Supervisor:
    """Keeps ``[workers] processes`` workers running until :meth:`stop`; ``process_ended(pid)``
    is told of each worker that ended (the node's metrics drop its live figures)."""

    def __init__(
        self,
        config: Config,
        process_ended: Callable[[int], None] | None = None,
    ) -> None:
        self.config = config
        self.process_ended = process_ended
        self.processes = config.workers.processes
        self.grace = config.workers.shutdown_grace
        self._workers: dict[int, BaseProcess] = {}
        self._started_at: dict[int, float] = {}
        self._stopping = threading.Event()
        self._monitor = threading.Thread(target=self._watch, name="supervisor", daemon=True)

    def start(self) -> None:
        for slot in range(self.processes):
            self._spawn(slot)
        self._monitor.start()

    def pids(self) -> list[int]:
        return [process.pid for process in self._workers.values() if process.pid is not None]

    def alive(self) -> int:
        """How many worker processes are running now (from any thread)."""
        return sum(process.is_alive() for process in list(self._workers.values()))

    def stop(self) -> None:
        """Ask every worker to stop (SIGTERM), wait for them, kill those still running."""
        self._stopping.set()
        if self._monitor.is_alive():
            self._monitor.join()
        for process in self._workers.values():
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + self.grace + EXIT_MARGIN
        for process in self._workers.values():
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("worker %s did not stop in time: killed", process.name)
                process.kill()
                process.join()
            self._ended(process)

    def _watch(self) -> None:
        while not self._stopping.wait(RESTART_DELAY / 2):
            for slot, process in list(self._workers.items()):
                if process.is_alive() or self._stopping.is_set():
                    continue
                if time.monotonic() - self._started_at[slot] < RESTART_DELAY:
                    continue
                log.warning("worker %s exited (%s): restarting it", process.name, process.exitcode)
                process.join()
                self._ended(process)
                self._spawn(slot)

    def _ended(self, process: BaseProcess) -> None:
        if self.process_ended is not None and process.pid is not None:
            self.process_ended(process.pid)

    def _spawn(self, slot: int) -> None:
        process = _SPAWN.Process(
            target=worker_main,
            args=(self.config, os.getpid()),
            name=f"worker-{slot + 1}",
        )
        process.start()
        self._workers[slot] = process
        self._started_at[slot] = time.monotonic()


def worker_main(config: Config, supervisor: int) -> None:
    """A worker process: run jobs until SIGTERM (or the supervisor's death) asks it to stop."""
    setup_process_logging(config.logging.format)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the supervisor, which stops us
    die_with_parent(supervisor, signal.SIGTERM)
    os.nice(WORKER_NICENESS)
    share_cores(config.workers.processes)
    database = db.connect(config)
    owner = f"{socket.gethostname()}:{os.getpid()}"
    worker = Worker(
        config,
        JobQueue.for_config(database, config),
        get_plugin_manager(config.plugin_config()),
        owner,
    )
    signal.signal(signal.SIGTERM, lambda *_: worker.request_stop())
    freeze_before_forking()  # each job's child inherits all this: its collections skip it
    log.info("worker %s ready", owner)
    worker.run()
    log.info("worker %s stopped", owner)
