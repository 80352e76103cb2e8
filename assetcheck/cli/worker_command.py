"""``assetcheck worker``: worker processes without HTTP, for more machines on one PostgreSQL.

The worker modules are imported when the command runs, so other commands start quickly.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading

from assetcheck.cli.db_command import open_node_database, secret_box
from assetcheck.config.settings import Config

log = logging.getLogger("assetcheck.worker")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "worker",
        help="run worker processes without the HTTP API",
        description="Run [workers] processes worker processes, the lease reaper and the "
        "webhook deliveries on the configured database and storage. Stop with "
        "SIGTERM or Ctrl-C: running jobs finish within [workers] shutdown_grace or "
        "go back to the queue. With [metrics] enabled, serves /metrics on [metrics] "
        "host and port.",
    )
    parser.add_argument(
        "--processes", type=int, metavar="N", help="worker processes (default: [workers] processes)"
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.service.api.metrics_listener import MetricsListener
    from assetcheck.service.jobs.node import Node

    database = open_node_database(config, "worker")
    if database is None:
        return 1
    stopping = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopping.set())
    if args.processes:  # none, or 0: [workers] processes
        config = config._replace(workers=config.workers._replace(processes=args.processes))
    node = Node(config, database, secret_box=secret_box(config))
    listener = MetricsListener(config, node.collectors())
    if config.metrics.enabled:
        try:
            listener.start()
        except OSError as error:
            print(
                f"assetcheck worker: cannot serve metrics on {config.metrics.host}:"
                f"{config.metrics.port}: {error.strerror}",
                file=sys.stderr,
            )
            node.stop()
            return 1
    node.start()
    log.info("running %d worker(s)", node.processes)
    while not stopping.wait(1.0):
        pass
    log.info("stopping: waiting for workers to finish or hand back their jobs")
    node.stop()
    listener.stop()
    return 0
