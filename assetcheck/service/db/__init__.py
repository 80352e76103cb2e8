"""The database: SQLite (WAL) under ``data_dir`` by default, PostgreSQL for several nodes.

A SQLite database and its ``-wal`` and ``-shm`` files are mode 0600, in a ``data_dir`` of mode
0700, whatever the umask (:mod:`assetcheck.service.private_files`): they hold password hashes.

Tables (``assetcheck.service.db.tables``) are bound to :data:`database_proxy`; :func:`connect` opens
the database the config names and points the proxy at it. Peewee keeps one connection per thread, so
the service's executor threads, the scheduler thread and each worker process have their own.
"""

from __future__ import annotations

import os
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TypeVar
from urllib.parse import urlsplit

import peewee
from playhouse.db_url import connect as connect_url

from assetcheck.config.settings import Config
from assetcheck.service.private_files import create_private_file, private_folder, tighten_file

database_proxy = peewee.DatabaseProxy()

M = TypeVar("M", bound=peewee.Model)

SQLITE_FILENAME = "assetcheck.db"

#: WAL lets readers run beside the one writer; ``synchronous=normal`` is durable against a killed
#: process (only a power loss can drop the last commits). ``busy_timeout`` is set by ``timeout``.
SQLITE_PRAGMAS = {"journal_mode": "wal", "synchronous": "normal", "foreign_keys": 1}
SQLITE_BUSY_TIMEOUT = 15


class DatabaseConfigError(ValueError):
    """``[database] url`` names a database this project cannot use."""


def open_database(config: Config) -> peewee.Database:
    """A new, unconnected database for ``[database] url`` (SQLite under data_dir when empty)."""
    url = config.database.url
    if not url:
        return _sqlite(str(private_folder(config.storage.data_dir) / SQLITE_FILENAME))
    scheme = urlsplit(url).scheme
    if scheme in ("postgresql", "postgres"):
        return connect_url(url)
    if scheme == "sqlite":
        return _sqlite(urlsplit(url).path.removeprefix("/") or ":memory:")
    raise DatabaseConfigError(
        f"database url {describe_url(url)} is not supported: use postgresql://... or sqlite:///PATH"
    )


def connect(config: Config) -> peewee.Database:
    """Open the configured database and bind the tables to it; returns the database."""
    database = open_database(config)
    database_proxy.initialize(database)
    return database


def describe_database(config: Config) -> str:
    """Which database ``config`` names, for people: ``SQLite /abs/path/assetcheck.db`` or the
    URL without its password."""
    url = config.database.url
    if not url:
        return f"SQLite {(config.storage.data_dir / SQLITE_FILENAME).resolve()}"
    if urlsplit(url).scheme == "sqlite":
        path = urlsplit(url).path.removeprefix("/")
        return f"SQLite {Path(path).resolve() if path else ':memory:'}"
    return describe_url(url)


def is_postgresql(database: peewee.Database) -> bool:
    return isinstance(database, peewee.PostgresqlDatabase)


def describe_url(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


def _sqlite(path: str) -> peewee.SqliteDatabase:
    if path != ":memory:":
        _private_database_files(Path(path))
    return peewee.SqliteDatabase(
        path, pragmas=SQLITE_PRAGMAS, timeout=SQLITE_BUSY_TIMEOUT, returning_clause=True
    )


def write_transaction(
    database: peewee.Database | peewee.DatabaseProxy,
) -> AbstractContextManager[object]:
    """A transaction in which rows can be counted, then changed on the strength of that count.

    On SQLite it starts with ``BEGIN IMMEDIATE``, which takes the database's one write lock at
    once: no other writer runs until it ends, so what was counted stays true. On PostgreSQL it
    is an ordinary READ COMMITTED transaction; the rows a count depends on are locked with
    :func:`lock_rows` first, and each later statement sees what committed before it started.
    """
    database = behind_proxy(database)
    if is_postgresql(database):
        return database.atomic()
    return database.atomic("IMMEDIATE")


def lock_rows(
    query: peewee.ModelSelect[M],
    *,
    skip_locked: bool = False,
) -> peewee.ModelSelect[M]:
    """``query`` locking the rows it returns until the transaction ends, on PostgreSQL
    (``FOR NO KEY UPDATE``, which still lets other transactions insert rows referencing them;
    ``SKIP LOCKED`` leaves out rows another transaction holds instead of waiting). Unchanged on
    SQLite, where :func:`write_transaction` already excludes every other writer."""
    if not is_postgresql(behind_proxy(query.model._meta.database)):
        return query
    # peewee takes the clause itself as well as True; its stubs allow only a bool.
    return query.for_update(
        "FOR NO KEY UPDATE",  # type: ignore[arg-type]
        skip_locked=skip_locked or None,
    )


def behind_proxy(database: peewee.Database | peewee.DatabaseProxy) -> peewee.Database:
    """The database itself, behind a :class:`peewee.DatabaseProxy` (the tables' binding)."""
    return database.obj if isinstance(database, peewee.DatabaseProxy) else database


def _private_database_files(path: Path) -> None:
    """Create the database file 0600 before SQLite does (SQLite gives its ``-wal`` and ``-shm``
    files the database file's mode), and tighten those of an older installation. A missing
    folder is left for SQLite to report."""
    if not path.parent.is_dir():
        return
    os.close(create_private_file(path, exclusive=False))
    for suffix in ("-wal", "-shm"):
        tighten_file(path.with_name(path.name + suffix))
