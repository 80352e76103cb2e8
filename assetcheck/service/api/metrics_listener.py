"""``/metrics`` of a node without the HTTP API (``assetcheck worker``): a small Tornado server
on ``[metrics] host`` and ``port``, on a thread and event loop of its own, answering only
``/metrics`` (with the same token rule as the API's)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

from prometheus_client.registry import Collector
from tornado.httpserver import HTTPServer
from tornado.netutil import bind_sockets
from tornado.web import Application

from assetcheck.config.settings import Config
from assetcheck.service.api.handlers.metrics import MetricsHandler
from assetcheck.service.webapp.access_log import log_request
from assetcheck.service.webapp.handlers import NotFoundHandler
from assetcheck.service.webapp.request_ids import RequestIdHeader

log = logging.getLogger(__name__)


class MetricsListener:
    """Serves ``/metrics`` from :meth:`start` to :meth:`stop`; ``collectors`` are the node's
    figures read at each scrape."""

    def __init__(self, config: Config, collectors: Sequence[Collector]) -> None:
        self.config = config
        self.collectors = list(collectors)
        self.url = ""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> str:
        """Listen (port 0 picks a free one) and return the endpoint's URL; an ``OSError``
        when the address cannot be bound."""
        metrics = self.config.metrics
        sockets = bind_sockets(metrics.port, metrics.host)
        host, port = sockets[0].getsockname()[:2]
        self.url = f"http://{host}:{port}/metrics"
        ready = threading.Event()
        self._thread = threading.Thread(
            target=asyncio.run,
            args=(self._serve(sockets, ready),),
            name="metrics-listener",
            daemon=True,
        )
        self._thread.start()
        ready.wait()
        log.info("metrics on %s", self.url)
        return self.url

    async def _serve(self, sockets: list, ready: threading.Event) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        executor = ThreadPoolExecutor(1, thread_name_prefix="metrics")
        app = Application(
            [(r"/metrics", MetricsHandler)],
            default_handler_class=NotFoundHandler,
            transforms=[RequestIdHeader],
            log_function=log_request,
            assetcheck_config=self.config,
            metrics_collectors=self.collectors,
            executor=executor,
        )
        server = HTTPServer(app)
        server.add_sockets(sockets)
        ready.set()
        await self._stopping.wait()
        server.stop()
        await server.close_all_connections()
        executor.shutdown(wait=False)

    def stop(self) -> None:
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)
        if self._thread is not None:
            self._thread.join()
