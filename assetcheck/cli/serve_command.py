"""``assetcheck serve``: the HTTP API, the node's worker processes and its scheduler, together.

On an empty database it creates the schema first (so a fresh clone starts with one command);
an existing database of another schema version is refused until ``assetcheck db upgrade``.
The server's modules are imported when the command runs, so other commands start quickly.
"""

from __future__ import annotations

import argparse
import sys

from assetcheck.cli.db_command import open_node_database
from assetcheck.config.settings import Config


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "serve",
        help="run the HTTP API with its worker processes",
        description="Run the /api/v1 service, [workers] processes worker processes and the "
        "scheduler, on the configured database (SQLite under data_dir by default). "
        "SIGTERM or Ctrl-C stops it gracefully.",
    )
    parser.add_argument("--host", help="address to listen on (default: [server] host)")
    parser.add_argument(
        "--port", type=int, help="port to listen on (default: [server] port; 0 picks a free one)"
    )
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    from tornado.netutil import bind_sockets

    from assetcheck.service.server import serve

    database = open_node_database(config, "serve")
    if database is None:
        return 1
    host = args.host or config.server.host
    port = config.server.port if args.port is None else args.port
    try:
        sockets = bind_sockets(port, host)
    except OSError as error:
        print(
            f"assetcheck serve: cannot listen on {host}:{port}: {error.strerror}", file=sys.stderr
        )
        return 1
    try:
        serve(config, database, sockets)
    finally:  # serving may not start (a configuration error): the sockets are closed all the same
        for sock in sockets:
            sock.close()
    return 0
