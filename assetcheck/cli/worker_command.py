"""``assetcheck worker``: worker processes without HTTP, for more machines on one PostgreSQL.

The worker modules are imported when the command runs, so other commands start quickly.
"""

from __future__ import annotations

import argparse
import logging
import signal
import threading

from assetcheck.cli.db_command import open_checked_database
from assetcheck.config import Config
from assetcheck.plugins import get_plugin_manager

log = logging.getLogger("assetcheck.worker")


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "worker", help="run worker processes without the HTTP API",
        description="Run [workers] processes worker processes, the lease reaper and the "
                    "webhook deliveries on the configured database and storage. Stop with "
                    "SIGTERM or Ctrl-C: running jobs finish within [workers] shutdown_grace or "
                    "go back to the queue.")
    parser.add_argument("--processes", type=int, metavar="N",
                        help="worker processes (default: [workers] processes)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    from assetcheck.jobs.node import Node
    from assetcheck.jobs.settings import WorkerSettings
    from assetcheck.jobs.supervisor import setup_process_logging
    from assetcheck.webapp.server_secret import load_server_secret
    from assetcheck.webhooks.secret_box import SecretBox

    setup_process_logging()
    get_plugin_manager(config.plugin_config())  # a plugin error stops start-up here
    database = open_checked_database(config, "worker")
    if database is None:
        return 1
    stopping = threading.Event()
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: stopping.set())
    node = Node(config, database, WorkerSettings.from_config(config, args.processes),
                secret_box=SecretBox(load_server_secret(config)))
    node.start()
    log.info("running %d worker(s)", node.processes)
    while not stopping.wait(1.0):
        pass
    log.info("stopping: waiting for workers to finish or hand back their jobs")
    node.stop()
    return 0
