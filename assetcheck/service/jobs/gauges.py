"""Figures of the whole cluster, read from the database when Prometheus scrapes: jobs by
state and plan, the queue's depth and the age of its oldest job. Read at scrape time they are
the same, and right, on every node, however many nodes and processes change the jobs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

import peewee
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.jobs.queue import QUEUED


class JobGauges(Collector):
    """``assetcheck_jobs{state, plan}``, ``assetcheck_queue_depth`` and
    ``assetcheck_queue_oldest_age_seconds``, from the database the tables are bound to, at
    each collection (on a thread that may block): a ``GROUP BY`` over the jobs and a ``MIN``
    on the ``(status, created_at)`` index."""

    def collect(self) -> Iterator[GaugeMetricFamily]:
        rows = (
            Job.select(Job.status, Account.plan, peewee.fn.COUNT(Job.id))
            .join(Account)
            .group_by(Job.status, Account.plan)
            .tuples()
        )
        # (state, plan, count) rows: the stubs type a ``tuples()`` query as yielding models.
        counts = cast(list[tuple[str, str, int]], list(rows))
        oldest = Job.select(peewee.fn.MIN(Job.created_at)).where(Job.status == QUEUED).scalar()
        jobs = GaugeMetricFamily(
            "assetcheck_jobs",
            "Jobs in the database, by state and by their account's plan.",
            labels=("state", "plan"),
        )
        for state, plan, count in counts:
            jobs.add_metric((state, plan), count)
        yield jobs
        yield GaugeMetricFamily(
            "assetcheck_queue_depth",
            "Jobs waiting to be claimed.",
            value=sum(c for state, _, c in counts if state == QUEUED),
        )
        age = 0.0 if oldest is None else max(0.0, (utcnow() - oldest).total_seconds())
        yield GaugeMetricFamily(
            "assetcheck_queue_oldest_age_seconds",
            "Seconds the oldest queued job has waited (0 when the queue is empty).",
            value=age,
        )
