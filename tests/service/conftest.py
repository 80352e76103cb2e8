"""Fixtures for the service tests: databases (SQLite, and PostgreSQL when it answers on
127.0.0.1:5432), a running server per backend, accounts with keys, and an S3 protocol server
(moto's, on a free loopback port) with a fresh bucket per test."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

import boto3
import psycopg2
import pytest

from assetcheck.config.loading import load_config
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db import migrations
from assetcheck.testing.zip import tiny_glb
from tests.service.dashboard.receiver import Receiver, start_receiver
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    write_config,
)

POSTGRES = {"host": "127.0.0.1", "port": 5432, "user": "postgres"}
BACKENDS = ["sqlite", "postgresql"]
#: Connections dropping the test databases at the end of a session, together.
DROPPING_CONNECTIONS = 8


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
        """Drop every database made, several at once: each DROP DATABASE waits for a
        checkpoint, and drops that run together share one (one at a time, a worker's hundred
        or so databases took 30 to 100 s at the end of the suite)."""
        self.connection.close()
        with ThreadPoolExecutor(DROPPING_CONNECTIONS) as pool:
            list(pool.map(_drop_database, self.names))


def _drop_database(name: str) -> None:
    connection = psycopg2.connect(dbname="postgres", connect_timeout=30, **POSTGRES)
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        connection.close()


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    try:
        databases = PostgresDatabases()
    except psycopg2.OperationalError as error:
        pytest.skip(f"PostgreSQL is not reachable at 127.0.0.1:5432 ({error})".strip())
    yield databases
    databases.drop_all()


#: Credentials moto accepts; set in this process (and so in every node it starts) for the
#: whole session, and the shared AWS files pointed away, so no real profile is ever read.
S3_ENVIRONMENT = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "moto-secret-never-logged",
    "AWS_DEFAULT_REGION": "us-east-1",
    "AWS_CONFIG_FILE": "/dev/null",
    "AWS_SHARED_CREDENTIALS_FILE": "/dev/null",
}


@pytest.fixture(scope="session")
def s3_endpoint() -> Iterator[str]:
    """The URL of moto's S3 server, in a thread of this process on 127.0.0.1 (port 0: the
    system picks a free one); stopped at the end of the session."""
    from moto.server import ThreadedMotoServer

    with pytest.MonkeyPatch.context() as patch:
        for name, value in S3_ENVIRONMENT.items():
            patch.setenv(name, value)
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        yield f"http://{host}:{port}"
        server.stop()


@pytest.fixture
def s3_storage(s3_endpoint: str) -> dict[str, str]:
    """``[storage]`` keys of a new, empty bucket on the S3 server (under a prefix, as an
    operator sharing a bucket would set)."""
    bucket = f"assetcheck-{secrets.token_hex(6)}"
    s3_client(s3_endpoint).create_bucket(Bucket=bucket)
    return {
        "backend": "s3",
        "bucket": bucket,
        "prefix": "assetcheck/",
        "endpoint_url": s3_endpoint,
        "region": "us-east-1",
    }


def s3_client(endpoint: str):
    """A boto3 client of the test S3 server, to look into buckets behind the service's back."""
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1")


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
def service(
    backend: str, database_factory: Callable[[str], str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServiceProcess]:
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
        account = create_account(email, plan, list(service.config.plans))
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


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    """A webhook receiver on loopback, recording what it is sent."""
    receiver = start_receiver()
    yield receiver
    receiver.stop()
