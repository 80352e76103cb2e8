"""Keeping test traffic on this machine: a guard for the test process and its children.

:func:`install` patches the socket module so that connecting or sending to anything but
loopback (127.0.0.0/8, ::1, ``localhost``) or a Unix socket raises
:class:`NetworkAccessBlockedError`, and resolving any other host name fails before a DNS query
leaves. The pytest session installs it (``tests/conftest.py``); the service processes the
tests start run :data:`GUARDED_MAIN`, so a server fuzzed with random webhook URLs cannot reach
out either.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from typing import Any

#: ``python -c`` code that runs the ``assetcheck`` command behind the guard.
GUARDED_MAIN = (
    "import sys, tests.network_guard as guard; guard.install(); "
    "from assetcheck.cli import main; sys.exit(main())"
)


class NetworkAccessBlockedError(BaseException):
    """A test tried to reach an address off this machine.

    A ``BaseException`` so that code under test which catches ``Exception`` (a webhook sender
    recording a failed delivery, say) cannot swallow it and let the test pass quietly.
    """


def install(setattr_: Callable[[Any, str, Any], None] = setattr) -> None:
    """Patch the socket module. ``setattr_`` lets pytest's monkeypatch undo it afterwards."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_sendto = socket.socket.sendto
    real_create_connection = socket.create_connection
    real_getaddrinfo = socket.getaddrinfo

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

    def getaddrinfo(
        host: Any, port: Any, family: int = 0, type: int = 0, proto: int = 0, flags: int = 0
    ) -> list:
        numeric = flags & socket.AI_NUMERICHOST  # parsed locally, never looked up
        if host is not None and not (numeric or _is_loopback(host) or _is_ip_literal(host)):
            raise socket.gaierror(socket.EAI_NONAME, f"tests resolve no host names ({host!r})")
        return real_getaddrinfo(host, port, family, type, proto, flags)

    setattr_(socket.socket, "connect", connect)
    setattr_(socket.socket, "connect_ex", connect_ex)
    setattr_(socket.socket, "sendto", sendto)
    setattr_(socket, "create_connection", create_connection)
    setattr_(socket, "getaddrinfo", getaddrinfo)


def _refuse_remote(family: int | None, address: Any) -> None:
    if family == getattr(socket, "AF_UNIX", object()) or _is_loopback(address):
        return
    raise NetworkAccessBlockedError(
        f"tests must not reach {address!r}: only loopback addresses and Unix sockets are allowed"
    )


def _host(address: Any) -> str | None:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    return host if isinstance(host, str) else None


def _is_ip_literal(address: Any) -> bool:
    host = _host(address)
    try:
        ipaddress.ip_address((host or "").split("%", 1)[0])
    except ValueError:
        return False
    return True


def _is_loopback(address: Any) -> bool:
    host = _host(address)
    if host is None:
        return False
    if host.lower() == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return False  # a host name: resolving it could already send a query off the machine
    mapped = getattr(ip, "ipv4_mapped", None)
    return (mapped or ip).is_loopback
