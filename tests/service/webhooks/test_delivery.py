"""One delivery attempt against real receivers on 127.0.0.1.

Addresses outside loopback appear only behind resolver stubs, and the guard must refuse them
before any connection: the ``connections`` fixture records every connect this process makes.
"""

import json
import shutil
import socket
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
import standardwebhooks

from assetcheck import __version__
from assetcheck.service.webhooks.delivery import send_attempt
from assetcheck.service.webhooks.payload import failed_event
from assetcheck.service.webhooks.signing import new_secret, signature_headers
from assetcheck.service.webhooks.urls import ALLOWED_CIDRS_HINT
from tests.service.webhooks.receivers import (
    HangingReceiver,
    LoopbackServer,
    ReferenceReceiver,
    ScriptedReceiver,
    closed_loopback_port,
    make_certificates,
)

LOOPBACK_ONLY = ["127.0.0.1/32"]
BODY = failed_event("job_1", "VALIDATION_CRASHED", "The validator crashed 3 times.")


@pytest.fixture
def serve():
    """Start a receiver on a free loopback port; it stops when the test ends."""
    with ExitStack() as servers:
        yield lambda receiver, **options: servers.enter_context(LoopbackServer(receiver, **options))


@pytest.fixture
def connections(monkeypatch):
    """The addresses every socket of this process connects to during the test."""
    made = []
    real_connect, real_connect_ex = socket.socket.connect, socket.socket.connect_ex

    def connect(sock, address):
        made.append(address)
        return real_connect(sock, address)

    def connect_ex(sock, address):
        made.append(address)
        return real_connect_ex(sock, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    return made


@pytest.fixture
def secret():
    return new_secret()


def signed(secret, body=BODY, **options):
    return signature_headers(body, delivery_id="dlv_1", secret=secret, **options)


def resolving(answers):
    """A resolver stub answering ``answers[host]`` (one list, or one list per call in turn)."""

    def resolve(host, port):
        calls.append(host)
        answer = answers[host]
        return answer.pop(0) if isinstance(answer[0], list) else answer

    calls = []
    resolve.calls = calls
    return resolve


def test_the_reference_receiver_accepts_a_delivery(serve, secret):
    receiver = ReferenceReceiver(secret)
    server = serve(receiver)
    result = send_attempt(server.url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
    assert (result.ok, result.status_code, result.error) == (True, 200, None)
    assert receiver.processed_job_ids == ["job_1"]


def test_a_delivery_posts_the_exact_body_as_json_with_our_user_agent(serve, secret):
    receiver = ReferenceReceiver(secret)
    send_attempt(serve(receiver).url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
    [request] = receiver.requests
    assert (request.method, request.path, request.body) == ("POST", "/hooks", BODY)
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["User-Agent"] == f"AssetCheck/{__version__}"


def test_an_attempt_can_be_made_from_a_scheduler_thread(serve, secret):
    url = serve(ReferenceReceiver(secret)).url
    with ThreadPoolExecutor(max_workers=2) as pool:
        attempts = [
            pool.submit(send_attempt, url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
            for _ in range(4)
        ]
        assert [attempt.result().status_code for attempt in attempts] == [200] * 4


@pytest.mark.skipif(not socket.has_ipv6, reason="this Python has no IPv6 support")
def test_an_ipv6_receiver_is_reached_when_the_allowlist_names_it(serve, secret):
    try:
        server = serve(ReferenceReceiver(secret), host="::1")
    except OSError as error:
        pytest.skip(f"no IPv6 loopback here ({error})")
    result = send_attempt(server.url, BODY, signed(secret), allowed_cidrs=["::1/128"])
    assert (result.ok, result.status_code) == (True, 200)


def test_standardwebhooks_verifies_the_headers_a_receiver_gets(serve, secret):
    receiver = ReferenceReceiver(secret)
    send_attempt(serve(receiver).url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
    [request] = receiver.requests
    assert standardwebhooks.Webhook(secret).verify(request.body, request.headers) == json.loads(
        BODY
    )


def test_during_a_rotation_receivers_holding_either_secret_verify_the_delivery(serve):
    old, new = new_secret(), new_secret()
    receiver = ReferenceReceiver(new)
    result = send_attempt(
        serve(receiver).url, BODY, signed(new, previous_secret=old), allowed_cidrs=LOOPBACK_ONLY
    )
    assert result.ok
    [request] = receiver.requests
    for secret in (old, new):
        standardwebhooks.Webhook(secret).verify(request.body, request.headers)


def test_the_reference_receiver_rejects_a_tampered_body_with_401(serve, secret):
    receiver = ReferenceReceiver(secret)
    tampered = BODY.replace(b"job_1", b"job_2")
    result = send_attempt(
        serve(receiver).url, tampered, signed(secret), allowed_cidrs=LOOPBACK_ONLY
    )
    assert (result.ok, result.status_code) == (False, 401)
    assert result.error == "HTTP 401 Unauthorized"
    assert receiver.processed_job_ids == []


def test_a_retried_delivery_is_acknowledged_and_processed_once(serve, secret):
    receiver = ReferenceReceiver(secret)
    server = serve(receiver)
    results = [
        send_attempt(server.url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
        for _ in range(2)
    ]
    assert [result.status_code for result in results] == [200, 200]
    assert receiver.processed_job_ids == ["job_1"]
    assert {request.headers["Webhook-Id"] for request in receiver.requests} == {"dlv_1"}


def test_a_500_is_a_failure_with_the_status_recorded(serve, secret):
    result = send_attempt(
        serve(ScriptedReceiver([500])).url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY
    )
    assert (result.ok, result.status_code) == (False, 500)
    assert result.error == "HTTP 500 Internal Server Error"
    assert result.duration_ms >= 0


def test_a_receiver_failing_four_times_then_answering_200_succeeds_on_attempt_five(serve, secret):
    server = serve(ScriptedReceiver([500, 500, 500, 500, 200]))
    results = [
        send_attempt(server.url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
        for _ in range(5)
    ]
    assert [result.status_code for result in results] == [500, 500, 500, 500, 200]
    assert [result.ok for result in results] == [False, False, False, False, True]


def test_a_redirect_is_a_failure_and_its_location_is_never_requested(serve, secret):
    elsewhere = ScriptedReceiver([200])
    redirecting = ScriptedReceiver([302], headers={"Location": serve(elsewhere).url})
    result = send_attempt(serve(redirecting).url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
    assert (result.ok, result.status_code) == (False, 302)
    assert result.error == "HTTP 302 Found: redirects are not followed"
    assert len(redirecting.requests) == 1
    assert elsewhere.requests == []


def test_a_receiver_that_never_answers_times_out(serve, secret):
    receiver = HangingReceiver()
    result = send_attempt(
        serve(receiver).url, BODY, signed(secret), timeout=0.5, allowed_cidrs=LOOPBACK_ONLY
    )
    assert (result.ok, result.status_code) == (False, None)
    assert result.error == "no complete answer within 0.5 s"
    assert len(receiver.requests) == 1


def test_a_closed_port_is_a_connection_failure(secret):
    url = f"http://127.0.0.1:{closed_loopback_port()}/hooks"
    result = send_attempt(url, BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY)
    assert (result.ok, result.status_code) == (False, None)
    assert result.error == "connection failed: Connection refused"


def test_a_loopback_address_outside_the_allowlist_is_refused_without_connecting(
    serve, secret, connections
):
    receiver = ReferenceReceiver(secret)
    server = serve(receiver)
    connections.clear()
    result = send_attempt(
        f"http://127.0.0.2:{server.port}/hooks", BODY, signed(secret), allowed_cidrs=LOOPBACK_ONLY
    )
    assert (result.ok, result.status_code) == (False, None)
    assert result.error == (
        f"webhook URL refused: 127.0.0.2 is a loopback address; {ALLOWED_CIDRS_HINT}"
    )
    assert connections == []
    assert receiver.requests == []


def test_without_an_allowlist_loopback_is_refused(serve, secret, connections):
    server = serve(ReferenceReceiver(secret))
    connections.clear()
    result = send_attempt(server.url, BODY, signed(secret))
    assert "loopback" in result.error
    assert connections == []


def test_a_host_resolving_to_a_private_address_is_refused_without_any_connection(
    secret, connections
):
    resolver = resolving({"hooks.test": ["10.0.0.1"]})
    result = send_attempt(
        "http://hooks.test:8080/hooks",
        BODY,
        signed(secret),
        allowed_cidrs=LOOPBACK_ONLY,
        resolver=resolver,
    )
    assert result.error == (
        "webhook URL refused: hooks.test does not resolve to an address that is allowed; "
        + ALLOWED_CIDRS_HINT
    )
    assert connections == []


def test_the_connection_uses_the_checked_dns_answer_and_the_url_host(serve, secret, connections):
    receiver = ReferenceReceiver(secret)
    server = serve(receiver)
    # A rebinding name: public-looking check, internal connection. Only the first answer counts.
    resolver = resolving({"hooks.test": [["127.0.0.1"], ["10.0.0.1"]]})
    connections.clear()
    result = send_attempt(
        f"http://hooks.test:{server.port}/hooks",
        BODY,
        signed(secret),
        allowed_cidrs=LOOPBACK_ONLY,
        resolver=resolver,
    )
    assert result.ok
    assert resolver.calls == ["hooks.test"]
    assert connections == [("127.0.0.1", server.port)]
    assert receiver.requests[0].headers["Host"] == f"hooks.test:{server.port}"


needs_openssl = pytest.mark.skipif(
    shutil.which("openssl") is None, reason="the openssl command issues the test certificates"
)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory):
    return make_certificates(tmp_path_factory.mktemp("tls"), "hooks.test")


@needs_openssl
def test_https_goes_to_the_pinned_address_with_sni_and_certificate_checked_for_the_host(
    serve, secret, certificates
):
    server_names = []
    receiver = ReferenceReceiver(secret)
    server = serve(receiver, tls=certificates.server_context(server_names))
    result = send_attempt(
        f"https://hooks.test:{server.port}/hooks",
        BODY,
        signed(secret),
        allowed_cidrs=LOOPBACK_ONLY,
        tls=certificates.client_context(),
        resolver=resolving({"hooks.test": ["127.0.0.1"]}),
    )
    assert (result.ok, result.status_code) == (True, 200)
    assert server_names == ["hooks.test"]
    assert receiver.processed_job_ids == ["job_1"]


@needs_openssl
@pytest.mark.parametrize("host", ["other.test", "127.0.0.1"])
def test_https_refuses_a_certificate_issued_for_another_host(serve, secret, certificates, host):
    receiver = ReferenceReceiver(secret)
    server = serve(receiver, tls=certificates.server_context([]))
    result = send_attempt(
        f"https://{host}:{server.port}/hooks",
        BODY,
        signed(secret),
        allowed_cidrs=LOOPBACK_ONLY,
        tls=certificates.client_context(),
        resolver=resolving({"other.test": ["127.0.0.1"]}),
    )
    assert (result.ok, result.status_code) == (False, None)
    assert result.error.startswith("TLS certificate refused:")
    assert "mismatch" in result.error
    assert receiver.requests == []


@needs_openssl
def test_https_trusts_the_system_store_by_default(serve, secret, certificates):
    server = serve(ReferenceReceiver(secret), tls=certificates.server_context([]))
    result = send_attempt(
        f"https://hooks.test:{server.port}/hooks",
        BODY,
        signed(secret),
        allowed_cidrs=LOOPBACK_ONLY,
        resolver=resolving({"hooks.test": ["127.0.0.1"]}),
    )
    assert result.error.startswith("TLS certificate refused:")
