"""Logs an operator can use (docs/operations.md, Logs): every answer carries its request's
``X-Request-Id``, every log line the request causes names it (the worker's lines about the
job it made included), ``[logging] format = "json"`` writes one JSON object per line, and no
secret ever reaches a line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
import requests

from assetcheck.service.observability.request_ids import accepted_request_id
from assetcheck.testing.zip import tiny_glb
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    connect,
    job_row,
    read_response,
    upload,
    wait_for_job,
    wait_until,
)
from tests.service.webhooks.harness import make_customer

REQUEST_ID = "trace-4f2a:upload.1@edge"
METRICS_TOKEN = "scrape-" + "t0k3n" * 5
FIELDS = {"time", "level", "logger", "message", "process", "request_id", "job_id", "account_id"}
_NEW_ID = re.compile(r"[0-9a-f]{32}")


@pytest.mark.parametrize(
    "given", ["a" * 65, "two words", "id\r\nX-Evil: 1", '{"json":1}', "-starts-with-dash", "", "é"]
)
def test_an_unsafe_or_overlong_request_id_is_replaced_by_a_new_one(given):
    assert _NEW_ID.fullmatch(accepted_request_id(given))


@pytest.mark.parametrize("given", ["a" * 64, "0f8fad5b-d9cb-469f-a165-70867728950e", REQUEST_ID])
def test_a_safe_request_id_is_kept(given):
    assert accepted_request_id(given) == given


@pytest.mark.parametrize(
    ("method", "path", "expected"),
    [
        ("GET", "/healthz", 200),
        ("GET", "/api/v1/engines", 401),  # no key: an API error
        ("GET", "/api/v1/no-such-endpoint", 404),
        ("GET", "/signup", 200),  # a dashboard page
        ("GET", "/profile", 302),  # a redirect to the log-in page
        ("GET", "/no-such-page", 404),  # the dashboard's 404 page
        ("GET", "/static/dashboard.css", 200),
        ("POST", "/healthz", 405),
    ],
)
def test_every_answer_carries_the_request_id_given_or_made(url, method, path, expected):
    given = requests.request(
        method, url + path, headers={"X-Request-Id": REQUEST_ID}, timeout=10, allow_redirects=False
    )
    assert given.status_code == expected
    assert given.headers["X-Request-Id"] == REQUEST_ID
    made = requests.request(method, url + path, timeout=10, allow_redirects=False)
    assert _NEW_ID.fullmatch(made.headers["X-Request-Id"])
    replaced = requests.request(
        method, url + path, headers={"X-Request-Id": "x" * 200}, timeout=10, allow_redirects=False
    )
    assert _NEW_ID.fullmatch(replaced.headers["X-Request-Id"])


def test_a_body_refused_before_it_is_read_carries_the_request_id(url, key):
    sock = connect(url)
    sock.sendall(
        b"POST /api/v1/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
        + key.encode()
        + b"\r\nX-Request-Id: refused-1\r\n"
        b"Content-Type: multipart/form-data; boundary=b\r\n"
        b"Content-Length: 999999999999\r\n\r\n"
    )
    status, head, _ = read_response(sock)
    sock.close()
    assert status == 413
    assert "x-request-id: refused-1" in head.lower()


@pytest.fixture
def json_service(local_config) -> Iterator[ServiceProcess]:
    config = local_config(
        logging={"format": "json"},
        workers={"processes": 1},
        metrics={"enabled": True, "token": METRICS_TOKEN},
    )
    server = ServiceProcess(config).start()
    yield server
    server.stop()


def log_entries(server: ServiceProcess) -> list[dict]:
    """Every line of the server's log, each of which must be one JSON object."""
    return [json.loads(line) for line in server.log().splitlines() if line.strip()]


def test_json_logs_name_the_request_in_every_line_it_causes_worker_included(json_service, receiver):
    bind_database(json_service.config)
    customer = make_customer(json_service.config, url=receiver.url)
    answer = requests.post(
        f"{json_service.url}/api/v1/validate",
        files={"file": ("model.glb", tiny_glb())},
        timeout=30,
        headers={**bearer(customer.key), "X-Request-Id": REQUEST_ID},
    )
    job_id = answer.json()["job_id"]
    assert answer.headers["X-Request-Id"] == REQUEST_ID
    assert wait_for_job(json_service.url, customer.key, job_id)["status"] == "completed"
    assert job_row(job_id).request_id == REQUEST_ID
    assert wait_until(lambda: receiver.requests)
    json_service.stop()

    entries = log_entries(json_service)
    assert all(set(entry) >= FIELDS for entry in entries)
    caused = [entry for entry in entries if entry["request_id"] == REQUEST_ID]
    [access] = [entry for entry in caused if entry["logger"] == "tornado.access"]
    assert access["message"].startswith("202 POST /api/v1/validate")
    assert access["account_id"] == customer.account.id
    job_lines = [entry for entry in entries if entry["job_id"] == job_id]
    worker_lines = [entry for entry in job_lines if entry["process"].startswith("worker-")]
    assert any("validating" in entry["message"] for entry in worker_lines)
    assert any("completed in" in entry["message"] for entry in worker_lines)
    assert all(entry["request_id"] == REQUEST_ID for entry in worker_lines)
    assert all(entry["account_id"] == customer.account.id for entry in job_lines)
    assert any(entry["logger"] == "assetcheck.service.webhooks.dispatcher" for entry in job_lines)


def test_no_key_password_webhook_secret_or_metrics_token_reaches_the_log(json_service, receiver):
    bind_database(json_service.config)
    customer = make_customer(json_service.config, url=receiver.url)
    url = json_service.url
    job_id = upload(url, customer.key, tiny_glb()).json()["job_id"]
    assert wait_for_job(url, customer.key, job_id)["status"] == "completed"
    requests.get(f"{url}/api/v1/engines?api_key={customer.key}", timeout=10)
    requests.get(f"{url}/api/v1/engines", headers=bearer(customer.key + "x"), timeout=10)
    requests.get(f"{url}/metrics", headers=bearer(METRICS_TOKEN), timeout=10)
    requests.get(f"{url}/metrics", headers=bearer(customer.key), timeout=10)
    visitor = Visitor(url)
    assert visitor.log_in(customer.account.email, PASSWORD + "wrong").status_code == 400
    assert wait_until(lambda: receiver.requests)
    json_service.stop()

    text = json_service.log()
    assert log_entries(json_service)  # all lines parse
    for secret in (
        customer.key,
        customer.key[4:],
        customer.secret,
        customer.secret[6:],
        PASSWORD,
        METRICS_TOKEN,
    ):
        assert secret not in text


def test_text_logs_name_the_request_too(url, key, service):
    answer = requests.get(
        f"{url}/api/v1/engines", headers={**bearer(key), "X-Request-Id": "text-line-7"}, timeout=10
    )
    assert answer.status_code == 200
    assert wait_until(
        lambda: re.search(
            r"INFO \[MainProcess\] tornado.access: 200 GET /api/v1/engines .*"
            r"\(request=text-line-7, account=\d+\)",
            service.log(),
        )
    )


#: An upload name that would start a forged line at U+2028 or U+0085, and read backwards from
#: U+202E (right-to-left override), if it reached a log line raw.
FORGING_NAME = "pawn\u2028ERROR forged line\u0085\u202egnp.glb"
FORGING_NAME_ESCAPED = "pawn\\u2028ERROR forged line\\x85\\u202egnp.glb"


def assert_never_raw(text: str) -> None:
    assert not {"\u2028", "\u0085", "\u202e"} & set(text)
    assert not any(line.startswith("ERROR forged") for line in text.splitlines())


def test_a_name_from_a_client_cannot_split_or_reorder_a_text_log_line(url, key, service, glb):
    job_id = upload(url, key, glb, filename=FORGING_NAME).json()["job_id"]
    assert wait_for_job(url, key, job_id)["status"] == "completed"
    assert wait_until(lambda: f"validating {FORGING_NAME_ESCAPED}" in service.log())
    assert_never_raw(service.log())


def test_a_name_from_a_client_cannot_split_a_json_log_line(json_service):
    bind_database(json_service.config)
    customer = make_customer(json_service.config)
    job_id = upload(json_service.url, customer.key, tiny_glb(), filename=FORGING_NAME).json()[
        "job_id"
    ]
    assert wait_for_job(json_service.url, customer.key, job_id)["status"] == "completed"
    json_service.stop()
    assert_never_raw(json_service.log())
    messages = [entry["message"] for entry in log_entries(json_service)]  # every line parses
    assert f"job {job_id}: validating {FORGING_NAME_ESCAPED} (attempt 1)" in messages
