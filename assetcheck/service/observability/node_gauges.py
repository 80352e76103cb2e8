"""Figures of one node, read when Prometheus scrapes it: its worker processes."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector


class WorkerProcesses(Collector):
    """``assetcheck_worker_processes`` (alive now) and ``assetcheck_worker_processes_wanted``
    (``[workers] processes``) of this node; ``alive()`` counts them."""

    def __init__(self, alive: Callable[[], int], wanted: int) -> None:
        self.alive = alive
        self.wanted = wanted

    def collect(self) -> Iterator[GaugeMetricFamily]:
        yield GaugeMetricFamily(
            "assetcheck_worker_processes",
            "Worker processes of this node that are alive.",
            value=self.alive(),
        )
        yield GaugeMetricFamily(
            "assetcheck_worker_processes_wanted",
            "Worker processes this node keeps running ([workers] processes).",
            value=self.wanted,
        )
