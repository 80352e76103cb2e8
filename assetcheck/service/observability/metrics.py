"""The Prometheus metrics a node records as things happen, and the text a scrape answers.

A node is several processes (``serve`` or ``worker``, and its spawned worker processes), so
when ``[metrics] enabled`` the node runs the client's multiprocess mode: each process writes
its samples to files in the node's own directory (:class:`MetricsDirectory`), and a scrape
adds them up. Facts about the whole cluster (jobs by state, the queue) are not recorded here:
they are read from the database at scrape time (``observability.database_gauges``), so every
node answers the same, correct figures. ``docs/operations.md`` (Metrics) says why.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest, values
from prometheus_client.multiprocess import MultiProcessCollector, mark_process_dead
from prometheus_client.registry import Collector

MULTIPROCESS_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"

#: Seconds: from a quick GLB to a job that runs into a long ``job_timeout``.
VALIDATION_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800)
#: Seconds: from a health check to a large upload.
HTTP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300)


@dataclass(frozen=True)
class ServiceMetrics:
    """The metrics recorded as events happen, in whichever process they happen."""

    http_requests: Counter
    http_duration: Histogram
    validation_duration: Histogram
    job_failures: Counter
    webhook_attempts: Counter

    @classmethod
    def create(cls) -> ServiceMetrics:
        """New metrics, registered nowhere: a scrape collects them (see :func:`exposition`)."""
        return cls(
            http_requests=Counter(
                "assetcheck_http_requests",
                "HTTP requests answered, by route pattern, method and status.",
                ("route", "method", "status"),
                registry=None,
            ),
            http_duration=Histogram(
                "assetcheck_http_request_duration_seconds",
                "Time to answer an HTTP request, by route pattern.",
                ("route",),
                buckets=HTTP_BUCKETS,
                registry=None,
            ),
            validation_duration=Histogram(
                "assetcheck_validation_duration_seconds",
                "Time a worker spent on one "
                "validation attempt, by the format the file name claims and the outcome.",
                ("format", "outcome"),
                buckets=VALIDATION_BUCKETS,
                registry=None,
            ),
            job_failures=Counter(
                "assetcheck_job_failures",
                "Jobs that ended failed, by error code.",
                ("code",),
                registry=None,
            ),
            webhook_attempts=Counter(
                "assetcheck_webhook_attempts",
                "Webhook delivery attempts, by outcome "
                "(delivered, failed: retried later, abandoned: failed for the last time).",
                ("outcome",),
                registry=None,
            ),
        )

    def collectors(self) -> tuple[Collector, ...]:
        return (
            self.http_requests,
            self.http_duration,
            self.validation_duration,
            self.job_failures,
            self.webhook_attempts,
        )


_current: ServiceMetrics | None = None


def service_metrics() -> ServiceMetrics:
    """This process's metrics, made on first use: after :class:`MetricsDirectory` (if any) has
    chosen where their samples go."""
    global _current
    if _current is None:
        _current = ServiceMetrics.create()
    return _current


class MetricsDirectory:
    """The multiprocess directory of one node: new and empty at start (as the client requires),
    named in the environment that the node's worker processes inherit, removed at stop."""

    def __init__(self) -> None:
        global _current
        self.path = tempfile.mkdtemp(prefix="assetcheck-metrics-")
        os.environ[MULTIPROCESS_VARIABLE] = self.path
        # The client reads the variable when it is imported; this process may have imported
        # it before, so choose again, and make this process's metrics anew to use the files.
        values.ValueClass = values.get_value_class()
        _current = None

    def process_ended(self, pid: int) -> None:
        """A worker process ended: drop its live gauges (its counters still count)."""
        mark_process_dead(pid, self.path)

    def close(self) -> None:
        global _current
        if os.environ.get(MULTIPROCESS_VARIABLE) == self.path:
            del os.environ[MULTIPROCESS_VARIABLE]
            values.ValueClass = values.get_value_class()
            _current = None
        shutil.rmtree(self.path, ignore_errors=True)


def exposition(collectors: Iterable[Collector] = ()) -> bytes:
    """The text of a scrape: this node's recorded metrics (summed over its processes in
    multiprocess mode) and ``collectors`` (figures computed now)."""
    registry = CollectorRegistry(auto_describe=False)
    directory = os.environ.get(MULTIPROCESS_VARIABLE)
    if directory:
        MultiProcessCollector(registry, directory)
    else:
        for collector in service_metrics().collectors():
            registry.register(collector)
    for collector in collectors:
        registry.register(collector)
    return generate_latest(registry)
