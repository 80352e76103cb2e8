"""What a connection may send before it is accepted (docs/security.md, Limits): bodies outside
uploads are held to ``[server] max_body_kb`` and refused with a clear 413 without being
buffered; half-sent heads, silent bodies and slow bodies are cut off after their timeouts, and a
stalled upload leaves no job and no folder behind."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator

import pytest
import requests

from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Job
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    closed_by_server,
    connect,
    memory_kb,
    read_response,
    service_settings,
    upload,
    wait_until,
    write_config,
)

MIB = 1 << 20
#: What a refused 50 MB request may add to the server's peak memory.
MEMORY_SLACK_KB = 8 << 10
BOUNDARY = "assetcheck-limits-boundary"
#: The body a slow log-in form declares.
LOGIN_FORM_BYTES = 1000
#: Short limits for this module's own server; generous waits in the tests around them.
SHORT_LIMITS = {"max_body_kb": 64, "header_timeout": 1, "body_timeout": 3, "idle_timeout": 1}


@pytest.fixture(scope="module")
def limited(
    backend: str, database_factory: Callable[[str], str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServiceProcess]:
    """A server of this module's own, with :data:`SHORT_LIMITS`."""
    folder = tmp_path_factory.mktemp(f"limits-{backend}")
    settings = service_settings(folder, database_factory(backend), server=SHORT_LIMITS)
    server = ServiceProcess(write_config(folder, settings)).start()
    yield server
    server.stop()


def pro_key(server: ServiceProcess) -> str:
    """A key of a new pro account (2 MB uploads in the test config) on ``server``."""
    bind_database(server.config)
    account = create_account(
        f"{secrets.token_hex(6)}@example.com", "pro", list(server.config.plans)
    )
    return issue_key(account, "limits")[1]


def job_folders(server: ServiceProcess) -> set[str]:
    root = server.config.storage.data_dir / "jobs"
    return {path.name for path in root.iterdir()} if root.exists() else set()


def blocks(total: int, size: int = MIB) -> Iterator[bytes]:
    """``total`` bytes of form data, ``size`` at a time, never all in memory."""
    block = b"a" * size
    for start in range(0, total, size):
        yield block[: min(size, total - start)]


def post_streamed(url: str, total: int, *, declared: bool) -> requests.Response:
    """POST ``total`` bytes from a generator: with a ``Content-Length``, or chunked."""
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if declared:
        headers["Content-Length"] = str(total)
    return requests.post(url, data=blocks(total), headers=headers, timeout=60)


def raw_head(url: str, method: str, path: str, *headers: str) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {url.split('//', 1)[1]}", *headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def login_form_head(url: str) -> bytes:
    """The head of a log-in form declaring a body of :data:`LOGIN_FORM_BYTES`."""
    return raw_head(
        url,
        "POST",
        "/login",
        f"Content-Length: {LOGIN_FORM_BYTES}",
        "Content-Type: application/x-www-form-urlencoded",
    )


def assert_body_too_large_json(response: requests.Response) -> None:
    assert response.status_code == 413, response.text
    assert response.headers["Content-Type"] == "application/json"
    assert response.json()["code"] == "BODY_TOO_LARGE"
    assert "1024 KiB" in response.json()["error"]


# --- Bodies outside uploads -------------------------------------------------------------------


@pytest.mark.parametrize("declared", [True, False], ids=["content-length", "chunked"])
def test_an_unauthenticated_50_mb_post_to_login_is_refused_without_the_server_growing(
    local_config, declared
):
    server = ServiceProcess(local_config()).start()  # its peak memory is this test's alone
    try:
        before = memory_kb(server.process.pid, "VmRSS")
        response = post_streamed(f"{server.url}/login", 50 * MIB, declared=declared)
        peak = memory_kb(server.process.pid, "VmHWM")
    finally:
        server.stop()
    assert response.status_code == 413
    assert peak - before < MEMORY_SLACK_KB, f"the server grew by {(peak - before) >> 10} MB"


@pytest.mark.parametrize(
    "path", ["/api/v1/engines", "/api/v1/webhooks/deliveries/x/redeliver", "/api/v1/nothing-here"]
)
def test_an_oversized_body_on_an_api_route_gets_json_413_body_too_large(url, path):
    assert_body_too_large_json(post_streamed(url + path, 4 * MIB, declared=True))
    assert_body_too_large_json(post_streamed(url + path, 4 * MIB, declared=False))


@pytest.mark.parametrize("path", ["/login", "/signup", "/profile/keys"])
def test_an_oversized_form_on_a_dashboard_page_gets_a_readable_413_page(url, path):
    response = post_streamed(url + path, 4 * MIB, declared=False)
    assert response.status_code == 413
    assert response.headers["Content-Type"].startswith("text/html")
    assert "larger than the 1024 KiB this endpoint accepts" in response.text


def test_an_oversized_body_is_refused_before_a_byte_of_it_is_sent(url):
    with connect(url) as sock:
        sock.sendall(
            raw_head(
                url,
                "POST",
                "/login",
                f"Content-Length: {400 * MIB}",
                "Content-Type: application/x-www-form-urlencoded",
            )
        )
        status, headers, body = read_response(sock)
        assert closed_by_server(sock)
    assert status == 413
    assert headers.count("HTTP/1.1") == 1  # one answer: never Tornado's bare 400 after it
    assert b"larger than the 1024 KiB" in body


@pytest.mark.parametrize("length", ["9" * 30, "9" * 5000])
def test_a_content_length_too_long_to_be_real_is_refused_413(url, length):
    with connect(url) as sock:
        sock.sendall(raw_head(url, "POST", "/api/v1/engines", f"Content-Length: {length}"))
        status, _, body = read_response(sock)
    assert status == 413 and b"BODY_TOO_LARGE" in body


def test_a_body_within_the_limit_reaches_its_handler(url):
    response = requests.post(f"{url}/api/v1/engines", data=b"a" * (512 << 10), timeout=10)
    assert response.status_code == 401  # read, then refused for its missing key


def test_the_body_limit_is_max_body_kb(limited):
    response = requests.post(f"{limited.url}/api/v1/engines", data=b"a" * (65 << 10), timeout=10)
    assert response.status_code == 413
    assert "64 KiB" in response.json()["error"]


def test_an_upload_may_be_larger_than_the_body_limit_up_to_its_plan(limited, glb):
    content = glb + b"\0" * (MIB - len(glb) % 4)  # over 64 KiB, within the pro plan's 2 MB
    response = upload(limited.url, pro_key(limited), content)
    assert response.status_code == 202, response.text


# --- Timeouts ---------------------------------------------------------------------------------


def test_a_half_sent_request_head_is_closed_after_header_timeout(limited):
    with connect(limited.url) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")  # no blank line
        assert closed_by_server(sock)


def test_an_idle_keep_alive_connection_is_closed_after_header_timeout(limited):
    with connect(limited.url) as sock:
        sock.sendall(raw_head(limited.url, "GET", "/healthz"))
        assert read_response(sock)[0] == 200
        assert closed_by_server(sock)


def test_a_body_that_goes_silent_is_cut_off_after_idle_timeout(limited):
    with connect(limited.url) as sock:
        sock.sendall(login_form_head(limited.url) + b"email=")
        assert closed_by_server(sock)


def test_a_body_that_never_finishes_is_cut_off_after_body_timeout(limited):
    with connect(limited.url) as sock:
        sock.sendall(login_form_head(limited.url))
        deadline = time.monotonic() + 30
        sent = 0
        try:
            while time.monotonic() < deadline and sent < LOGIN_FORM_BYTES:
                sock.sendall(b"a")  # never silent for a whole idle_timeout
                sent += 1
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        assert sent < LOGIN_FORM_BYTES and closed_by_server(sock)


def test_a_stalled_upload_is_cut_off_and_leaves_no_job_and_no_folder(limited, glb):
    key = pro_key(limited)
    jobs_before = Job.select().count()
    folders_before = job_folders(limited)
    part = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="stalled.glb"\r\n\r\n'
    ).encode() + glb
    with connect(limited.url) as sock:
        sock.sendall(
            raw_head(
                limited.url,
                "POST",
                "/api/v1/validate",
                f"Content-Length: {MIB}",
                *(f"{name}: {value}" for name, value in bearer(key).items()),
                f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
            )
            + part
        )
        assert wait_until(lambda: job_folders(limited) - folders_before, timeout=10)
        assert closed_by_server(sock)  # then nothing more is sent
    assert wait_until(lambda: job_folders(limited) == folders_before, timeout=10)
    assert Job.select().count() == jobs_before


def test_the_openapi_document_declares_body_too_large_where_a_body_is_posted(url):
    document = requests.get(f"{url}/api/v1/openapi.json", timeout=10).json()
    redeliver = document["paths"]["/api/v1/webhooks/deliveries/{deliveryId}/redeliver"]["post"]
    assert "BODY_TOO_LARGE" in redeliver["responses"]["413"]["description"]
    assert (
        "FILE_TOO_LARGE"
        in document["paths"]["/api/v1/validate"]["post"]["responses"]["413"]["description"]
    )
