"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Iterator
from typing import Any

import pytest


class NetworkAccessBlockedError(BaseException):
    """A test tried to reach an address off this machine.

    A ``BaseException`` so that code under test which catches ``Exception`` (a webhook sender
    recording a failed delivery, say) cannot swallow it and let the test pass quietly.
    """


@pytest.fixture(autouse=True, scope="session")
def no_network() -> Iterator[type[NetworkAccessBlockedError]]:
    """For the whole session, connecting or sending to an address other than loopback
    (127.0.0.0/8, ::1, ``localhost``) or a Unix socket raises :class:`NetworkAccessBlockedError`.

    Host names are refused before they are resolved, so not even a DNS query leaves. Yields the
    exception class, for the tests of the guard itself.
    """
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_sendto = socket.socket.sendto
    real_create_connection = socket.create_connection

    def connect(self: socket.socket, address: Any) -> None:
        _refuse_remote(self.family, address)
        return real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _refuse_remote(self.family, address)
        return real_connect_ex(self, address)

    def sendto(self: socket.socket, data: bytes, *flags_and_address: Any) -> int:
        _refuse_remote(self.family, flags_and_address[-1])
        return real_sendto(self, data, *flags_and_address)

    def create_connection(address: Any, *args: Any, **kwargs: Any) -> socket.socket:
        _refuse_remote(None, address)
        return real_create_connection(address, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", connect)
        patch.setattr(socket.socket, "connect_ex", connect_ex)
        patch.setattr(socket.socket, "sendto", sendto)
        patch.setattr(socket, "create_connection", create_connection)
        yield NetworkAccessBlockedError


def _refuse_remote(family: int | None, address: Any) -> None:
    if family == getattr(socket, "AF_UNIX", object()) or _is_loopback(address):
        return
    raise NetworkAccessBlockedError(
        f"tests must not reach {address!r}: only loopback addresses and Unix sockets are allowed")


def _is_loopback(address: Any) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    if not isinstance(host, str):
        return False
    if host.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # a host name: resolving it could already send a query off the machine
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden files (tests/assets/<area>/*.report.json) from the "
                          "current results instead of comparing with them")


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether this run rewrites golden files (``--update-golden``) rather than checking them."""
    return bool(request.config.getoption("--update-golden"))
