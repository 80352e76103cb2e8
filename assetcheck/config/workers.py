"""``[workers]``: how a node's worker processes run jobs (``docs/operations.md``)."""

from __future__ import annotations

from typing import NamedTuple

from assetcheck.config.values import Table


class WorkerSettings(NamedTuple):
    """``[workers]``: how many worker processes a node runs (0: none), each job's time and
    memory limits, how long a lease lasts, and how long a stopping worker may finish its job.
    Times are seconds."""

    processes: int
    job_timeout: float
    memory_limit_mb: int
    lease_seconds: float
    shutdown_grace: float

    @classmethod
    def read(cls, table: Table) -> WorkerSettings:
        return cls(
            processes=table.whole("processes"),
            job_timeout=table.seconds("job_timeout"),
            memory_limit_mb=table.whole("memory_limit_mb", 1),
            lease_seconds=table.seconds("lease_seconds"),
            shutdown_grace=table.number("shutdown_grace", "must be a number of seconds, 0 or more"),
        )
