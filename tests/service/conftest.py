"""Fixtures for the service tests: databases (SQLite, and PostgreSQL when it answers on
127.0.0.1:5432), a running server per backend, and accounts with keys."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path

import psycopg2
import pytest

from assetcheck.accounts.store import create_account, issue_key
from assetcheck.config import load_config
from assetcheck.db import migrations
from tests.builders.zip import tiny_glb
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    write_config,
)

POSTGRES = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
BACKENDS = ["sqlite", "postgresql"]


class PostgresDatabases:
    """Creates fresh databases ``assetcheck_test_<random>`` and drops them all at the end."""

    def __init__(self) -> None:
        self.connection = psycopg2.connect(dbname="postgres", connect_timeout=3, **POSTGRES)
        self.connection.autocommit = True
        self.names: list[str] = []

    def create(self) -> str:
        name = f"assetcheck_test_{secrets.token_hex(6)}"
        with self.connection.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {name}")
        self.names.append(name)
        return f"postgresql://{POSTGRES['user']}@{POSTGRES['host']}:{POSTGRES['port']}/{name}"

    def drop_all(self) -> None:
        with self.connection.cursor() as cursor:
            for name in self.names:
                cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        self.connection.close()


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    try:
        databases = PostgresDatabases()
    except psycopg2.OperationalError as error:
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432 ({error})".strip())
    yield databases
    databases.drop_all()


@pytest.fixture(scope="session")
def database_factory(request: pytest.FixtureRequest) -> Callable[[str], str]:
    """``factory(backend)``: the url of a new, empty database ("" for SQLite: the file is made
    under each test's data_dir)."""

    def create(backend: str) -> str:
        if backend == "sqlite":
            return ""
        return request.getfixturevalue("postgres_databases").create()

    return create


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture(scope="session")
def service(backend: str, database_factory: Callable[[str], str],
            tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """One running server per backend, shared by the tests that only talk to the API."""
    folder = tmp_path_factory.mktemp(f"service-{backend}")
    config_path = write_config(folder, service_settings(folder, database_factory(backend)))
    server = ServiceProcess(config_path).start()
    yield server
    server.stop()


@pytest.fixture
def make_key(service: ServiceProcess) -> Callable[..., str]:
    """``make_key(plan="pro", expires_at=None)``: a new account on ``plan`` and a key for it."""
    bind_database(service.config)

    def make(plan: str = "pro", expires_at: datetime | None = None) -> str:
        email = f"{secrets.token_hex(6)}@example.com"
        account = create_account(email, plan, list(service.config["plans"]))
        return issue_key(account, "test", expires_at)[1]

    return make


@pytest.fixture
def key(make_key: Callable[..., str]) -> str:
    return make_key()


@pytest.fixture
def url(service: ServiceProcess) -> str:
    return service.url


@pytest.fixture
def glb() -> bytes:
    return tiny_glb()


@pytest.fixture
def local_config(tmp_path: Path, backend: str, database_factory: Callable[[str], str]):
    """``local_config(**overrides)``: a config file for a server of this test's own."""

    def make(**overrides: dict) -> Path:
        settings = service_settings(tmp_path, database_factory(backend), **overrides)
        return write_config(tmp_path, settings)

    return make


@pytest.fixture
def database(backend: str, database_factory: Callable[[str], str], tmp_path: Path):
    """A new database of this backend with the current schema, bound to the tables."""
    settings = service_settings(tmp_path, database_factory(backend))
    config = load_config(write_config(tmp_path, settings))
    connected = bind_database(config)
    migrations.upgrade(connected)
    yield connected
    connected.close()
