"""Fixtures for the outbox tests: the service tests' databases (SQLite, and PostgreSQL when it
answers on 127.0.0.1:5432), loopback receivers, and one running service with its webhook
delays scaled down, shared by the tests that only need deliveries to happen."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest

from tests.service.conftest import (  # noqa: F401 (fixtures, used by name)
    backend,
    database,
    database_factory,
    postgres_databases,
)
from tests.service.harness import ServiceProcess, bind_database, service_settings, write_config
from tests.service.webhooks.harness import Customer, make_customer, webhook_settings
from tests.service.webhooks.receivers import LoopbackServer


@pytest.fixture
def serve() -> Iterator[Callable[..., LoopbackServer]]:
    """Start a receiver on a free loopback port; it stops when the test ends."""
    with ExitStack() as servers:
        yield lambda receiver, **options: servers.enter_context(LoopbackServer(receiver, **options))


@pytest.fixture(scope="session")
def webhook_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """``assetcheck serve`` on SQLite, one worker, delays of under a second."""
    folder = tmp_path_factory.mktemp("webhook-service")
    settings = service_settings(folder, "", workers={"processes": 1}, webhooks=webhook_settings())
    server = ServiceProcess(write_config(folder, settings)).start()
    yield server
    server.stop()


@pytest.fixture
def new_customer(webhook_service: ServiceProcess) -> Callable[..., Customer]:
    """``new_customer(url=None, plan="pro")``: an account of the webhook service, with a key."""
    bind_database(webhook_service.config)
    return lambda url=None, plan="pro": make_customer(webhook_service.config, url, plan)
