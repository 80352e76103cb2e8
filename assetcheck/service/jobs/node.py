"""A node: what every machine of the service runs, with HTTP (``assetcheck serve``) or without
(``assetcheck worker``): the worker processes, the webhook dispatcher and the scheduler of
periodic work. They start together and stop in order: no new periodic work, then the workers
finish their jobs (or hand them back), then the webhook senders end.

With ``[metrics] enabled`` the node's processes record metrics in a multiprocess directory of
the node's own (``observability.metrics``), made before any worker process starts."""

from __future__ import annotations

import os
import socket

import peewee
from prometheus_client.registry import Collector

from assetcheck.config.settings import Config
from assetcheck.service.jobs.maintenance import start_maintenance
from assetcheck.service.jobs.queue import JobQueue
from assetcheck.service.jobs.storage import JobStorage, open_storage
from assetcheck.service.jobs.supervisor import Supervisor
from assetcheck.service.observability.metrics import MetricsDirectory
from assetcheck.service.observability.node_gauges import WorkerProcesses
from assetcheck.service.webhooks.dispatcher import WebhookDispatcher
from assetcheck.service.webhooks.secret_box import SecretBox


class Node:
    """The worker processes, webhook dispatcher and scheduler of one machine, as ``config``
    says (``[workers] processes`` of them).

    ``secret_box`` (keyed by the server secret) opens the webhook secrets the dispatcher signs
    with; ``storage`` is the job storage of ``[storage]`` unless given.
    """

    def __init__(
        self,
        config: Config,
        database: peewee.Database,
        *,
        secret_box: SecretBox,
        storage: JobStorage | None = None,
    ) -> None:
        self.config = config
        self.database = database
        self.storage = storage or open_storage(config.storage)
        self.metrics_directory = MetricsDirectory() if config.metrics.enabled else None
        self.queue = JobQueue.for_config(database, config)
        self.supervisor = Supervisor(
            config,
            process_ended=(
                self.metrics_directory.process_ended if self.metrics_directory else None
            ),
        )
        self.webhooks = WebhookDispatcher(config.webhooks, database, secret_box)
        self._scheduler = None

    @property
    def processes(self) -> int:
        return self.config.workers.processes

    def collectors(self) -> list[Collector]:
        """What a scrape of this node reads at the time: its worker processes."""
        return [WorkerProcesses(self.supervisor.alive, self.processes)]

    def start(self) -> None:
        self.supervisor.start()
        self._scheduler = start_maintenance(
            self.config,
            self.database,
            self.queue,
            self.storage,
            self.webhooks,
            f"{socket.gethostname()}:{os.getpid()}",
        )

    def stop(self) -> None:
        """Blocks until the workers are gone (up to their grace period): call it off the
        event loop."""
        if self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
        self.supervisor.stop()
        self.webhooks.close()
        if self.metrics_directory is not None:
            self.metrics_directory.close()
