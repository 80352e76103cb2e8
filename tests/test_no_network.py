"""The session-wide ``no_network`` guard: loopback works, anything else fails the test.

192.0.2.1 is TEST-NET-1 (RFC 5737), reserved for documentation: it appears here only as data
for the guard, which refuses it before any packet is sent.
"""

import socket
import threading

import pytest

TEST_NET = ("192.0.2.1", 80)


def test_connecting_to_a_remote_address_fails_the_test(no_network):
    with socket.socket() as sock, pytest.raises(no_network, match=r"192\.0\.2\.1"):
        sock.connect(TEST_NET)


def connect_ex_remote() -> int:
    with socket.socket() as sock:
        return sock.connect_ex(TEST_NET)


def send_udp_remote() -> int:
    with socket.socket(type=socket.SOCK_DGRAM) as sock:
        return sock.sendto(b"x", TEST_NET)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda: socket.create_connection(TEST_NET, timeout=1),
        lambda: socket.create_connection(("example.invalid", 80), timeout=1),
        connect_ex_remote,
        send_udp_remote,
    ],
    ids=["create_connection", "host name", "connect_ex", "udp sendto"],
)
def test_every_way_of_reaching_a_remote_address_is_refused(no_network, attempt):
    with pytest.raises(no_network):
        attempt()


def test_refusal_cannot_be_swallowed_by_code_that_catches_exception(no_network):
    def deliver_webhook() -> str:
        try:
            socket.create_connection(TEST_NET, timeout=1)
        except Exception:
            return "recorded as a failed delivery"
        return "delivered"

    with pytest.raises(no_network):
        deliver_webhook()


def test_ipv4_mapped_remote_address_is_refused(no_network):
    if not socket.has_ipv6:
        pytest.skip("this Python has no IPv6 support")
    with socket.socket(socket.AF_INET6) as sock, pytest.raises(no_network):
        sock.connect(("::ffff:192.0.2.1", 80))


def test_loopback_connections_work():
    def greet(server: socket.socket) -> None:
        connection, _ = server.accept()
        with connection:
            connection.sendall(b"hello")

    with socket.create_server(("127.0.0.1", 0)) as server:
        greeter = threading.Thread(target=greet, args=(server,))
        greeter.start()
        with socket.create_connection(server.getsockname(), timeout=5) as client:
            assert client.recv(5) == b"hello"
        greeter.join()


def test_the_whole_loopback_range_is_allowed():
    with socket.create_server(("127.0.0.2", 0)) as server, socket.socket() as client:
        assert client.connect_ex(server.getsockname()) == 0


def test_unix_sockets_work(tmp_path):
    path = str(tmp_path / "s")
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(path)
        server.listen()
        with socket.socket(socket.AF_UNIX) as client:
            client.connect(path)


def test_host_names_are_not_resolved_but_loopback_and_literals_are():
    with pytest.raises(socket.gaierror, match="resolve no host names"):
        socket.getaddrinfo("metadata.example", 80)
    assert socket.getaddrinfo("localhost", 80)
    assert socket.getaddrinfo("192.0.2.1", 80)  # a literal: parsed here, nothing is sent
