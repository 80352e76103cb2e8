"""The life of an ``assetcheck serve`` process: HTTP server, worker processes and scheduler
start together; SIGTERM or Ctrl-C stops accepting connections, lets the workers finish their
jobs within ``[workers] shutdown_grace`` (or hand them back to the queue), then returns."""

from __future__ import annotations

import asyncio
import logging
import signal
import socket

import peewee
from tornado.httpserver import HTTPServer

from assetcheck.config.settings import Config
from assetcheck.service.app import make_app
from assetcheck.service.jobs.node import Node
from assetcheck.service.webapp.limits import http_server_options
from assetcheck.service.webapp.server_secret import load_server_secret
from assetcheck.service.webhooks.secret_box import SecretBox

log = logging.getLogger("assetcheck.serve")


def serve(config: Config, database: peewee.Database, sockets: list[socket.socket]) -> None:
    """Serve on ``sockets`` (already bound) until a stop signal, then shut down gracefully."""
    asyncio.run(_serve(config, database, sockets))


async def _serve(config: Config, database: peewee.Database, sockets: list[socket.socket]) -> None:
    node = Node(config, database, secret_box=SecretBox(load_server_secret(config)))
    app = make_app(
        config,
        database,
        job_queue=node.queue,
        storage=node.storage,
        worker_processes=node.processes,
        node_collectors=node.collectors(),
    )
    node.start()
    server = HTTPServer(
        app,
        **http_server_options(config.server),
        xheaders=config.server.trust_forwarded_headers,
    )
    server.add_sockets(sockets)
    host, port = sockets[0].getsockname()[:2]
    if node.processes == 0:  # said before "listening", which tools wait for
        log.warning(
            "[workers] processes = 0: this server accepts uploads but validates none; "
            "they wait until an `assetcheck worker` on the same database takes them"
        )
    log.info("AssetCheck listening on http://%s:%d with %d worker(s)", host, port, node.processes)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(number, stopping.set)
    await stopping.wait()
    log.info("stopping: no new connections; waiting for workers to finish or hand back jobs")
    server.stop()
    await loop.run_in_executor(None, node.stop)
    await server.close_all_connections()
    app.settings["executor"].shutdown(wait=False)
    log.info("stopped")
