"""``assetcheck db upgrade``: create or upgrade the database schema, explicitly.

Also what the other database commands share: :func:`open_checked_database`, the one way they
open the database, and :data:`CONFIG_OPTION`, which lets ``--config`` follow an action
(``assetcheck keys list EMAIL --config FILE``) as well as precede it. The database modules
are imported when a command runs, so ``assetcheck validate`` does not pay for them.
"""

from __future__ import annotations

import argparse
import logging
import sys
from functools import partial
from typing import TYPE_CHECKING

from assetcheck.cli import CONFIG_HELP
from assetcheck.config.settings import Config

if TYPE_CHECKING:
    import peewee

    from assetcheck.service.db import migrations
    from assetcheck.service.webhooks.secret_box import SecretBox

#: A parent parser for actions; SUPPRESS keeps a ``--config`` given before the action.
CONFIG_OPTION = argparse.ArgumentParser(add_help=False)
CONFIG_OPTION.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS, help=CONFIG_HELP)


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "db",
        help="manage the database schema",
        description="Database maintenance. `upgrade` creates the schema of an empty database "
        "or upgrades an existing one to this version of AssetCheck.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("upgrade", help="create or upgrade the schema", parents=[CONFIG_OPTION])
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, config: Config) -> int:
    import peewee

    from assetcheck.service import db
    from assetcheck.service.db import migrations

    try:
        database = db.connect(config)
        applied = migrations.upgrade(database, context=upgrade_context(config))
    except (
        db.DatabaseConfigError,
        migrations.SchemaError,
        peewee.DatabaseError,
        ValueError,
    ) as error:
        print(f"assetcheck db upgrade: {error}", file=sys.stderr)
        return 1
    where = db.describe_database(config)
    if applied:
        print(
            f"{where}: schema now at version {applied[-1]} (applied {', '.join(map(str, applied))})"
        )
    else:
        print(f"{where}: schema already at version {migrations.SCHEMA_VERSION}")
    return 0


def upgrade_context(config: Config) -> migrations.UpgradeContext:
    """What the upgrade steps need from the configuration: the sealer of webhook secrets,
    keyed by the server secret (made under ``data_dir`` if there is none yet). A configured
    secret that is too short raises ``ValueError``."""
    from assetcheck.service.db import migrations

    return migrations.UpgradeContext(seal_webhook_secret=secret_box(config).seal)


def secret_box(config: Config) -> SecretBox:
    """The box that seals and opens webhook secrets, keyed by the server secret."""
    from assetcheck.service.webapp.server_secret import load_server_secret
    from assetcheck.service.webhooks.secret_box import SecretBox

    return SecretBox(load_server_secret(config))


def open_node_database(config: Config, command: str) -> peewee.Database | None:
    """Start-up of a process that runs a node (``serve``, ``worker``): log lines as every
    service process writes them, stop on a plugin error, then :func:`open_checked_database`."""
    from assetcheck.plugins.manager import get_plugin_manager
    from assetcheck.service.observability.log_format import setup_process_logging

    setup_process_logging(config.logging.format)
    get_plugin_manager(config.plugin_config())  # a plugin error stops start-up here
    return open_checked_database(config, command, log=logging.getLogger(f"assetcheck.{command}"))


def open_checked_database(
    config: Config, command: str, log: logging.Logger | None = None
) -> peewee.Database | None:
    """The connected database with the current schema (created if the database is empty), or
    None after printing why it cannot be used. Says which database it is, and from which
    configuration file: a command run from another folder must not go unnoticed on another
    database. That, and that the schema was created, go to ``log`` (a node's log, in its
    format) when given, else to stderr."""
    import peewee

    from assetcheck.service import db
    from assetcheck.service.db import migrations

    origin = (
        f"configuration {config.source}"
        if config.source
        else "no configuration file: built-in defaults, data under the current folder"
    )
    say = log.info if log is not None else partial(print, file=sys.stderr)
    say(f"assetcheck {command}: database {db.describe_database(config)} ({origin})")
    try:
        database = db.connect(config)
        if migrations.prepare_schema(database):
            say(
                f"assetcheck {command}: created the database schema "
                f"(version {migrations.SCHEMA_VERSION})"
            )
    except (db.DatabaseConfigError, migrations.SchemaError, peewee.DatabaseError) as error:
        print(f"assetcheck {command}: {error}", file=sys.stderr)
        return None
    return database
