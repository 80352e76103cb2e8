"""``[workers]`` of the config as one typed value, read once, with the queue it implies (and
the plans' ``max_processing_jobs``, which the queue's claims obey)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import peewee

from assetcheck.config import Config
from assetcheck.service.jobs.queue import JobQueue


@dataclass(frozen=True)
class WorkerSettings:
    """How a node's workers run jobs: how many processes, each job's time and memory limits,
    how long a lease lasts, how long a stopping worker may finish its job, and how many jobs of
    one account may be processing at once, by plan (``[plans.<name>] max_processing_jobs``)."""

    processes: int
    job_timeout: float
    memory_limit_mb: int
    lease_seconds: float
    shutdown_grace: float
    max_processing: Mapping[str, int]

    @classmethod
    def from_config(cls, config: Config, processes: int | None = None) -> WorkerSettings:
        """The settings of ``config``; ``processes`` overrides ``[workers] processes``."""
        workers = config["workers"]
        return cls(
            processes=int(processes or workers["processes"]),
            job_timeout=float(workers["job_timeout"]),
            memory_limit_mb=int(workers["memory_limit_mb"]),
            lease_seconds=float(workers["lease_seconds"]),
            shutdown_grace=float(workers["shutdown_grace"]),
            max_processing={
                name: int(plan["max_processing_jobs"]) for name, plan in config["plans"].items()
            },
        )

    @property
    def tick(self) -> float:
        """How often a worker renews its lease while busy, and looks for work while idle:
        well within the lease."""
        return min(1.0, self.lease_seconds / 4)

    def job_queue(self, database: peewee.Database) -> JobQueue:
        """The job queue on ``database``, with these leases, workers and plan limits."""
        return JobQueue(
            database,
            lease_seconds=self.lease_seconds,
            workers=self.processes,
            max_processing=self.max_processing,
        )
