"""HTTP as clients and proxies expect it: ``Allow`` on every 405, HEAD wherever GET is,
``Retry-After`` while a job waits, a JSON 400 for a ``Content-Length`` that is no length, and
file names sent as ``filename*`` (RFC 5987) or thousands of characters long."""

from __future__ import annotations

import json

import requests

from assetcheck.issues.names import CUT_MARK
from tests.service.harness import (
    bearer,
    closed_by_server,
    connect,
    read_response,
    upload,
    wait_for_job,
)


def multipart_upload(url: str, key: str, disposition: str, content: bytes) -> requests.Response:
    """An upload whose ``file`` part carries exactly the ``Content-Disposition`` given."""
    body = (
        b"--b0undary\r\nContent-Disposition: "
        + disposition.encode()
        + b"\r\nContent-Type: application/octet-stream\r\n\r\n"
        + content
        + b"\r\n--b0undary--\r\n"
    )
    return requests.post(
        f"{url}/api/v1/validate",
        data=body,
        timeout=30,
        headers={**bearer(key), "Content-Type": "multipart/form-data; boundary=b0undary"},
    )


def test_every_405_names_the_methods_the_resource_answers(url, key):
    engines = requests.delete(f"{url}/api/v1/engines", headers=bearer(key), timeout=10)
    assert engines.status_code == 405 and engines.json()["code"] == "METHOD_NOT_ALLOWED"
    assert engines.headers["Allow"] == "GET, HEAD"
    validations = requests.patch(f"{url}/api/v1/validate", headers=bearer(key), timeout=10)
    assert validations.headers["Allow"] == "GET, HEAD, POST"
    rotate = requests.get(
        f"{url}/api/v1/webhooks/settings/rotate-secret", headers=bearer(key), timeout=10
    )
    assert rotate.status_code == 405 and rotate.headers["Allow"] == "POST"
    unknown_method = requests.request("BREW", f"{url}/healthz", timeout=10)
    assert unknown_method.status_code == 405 and unknown_method.headers["Allow"] == "GET, HEAD"
    page = requests.request("BREW", f"{url}/login", timeout=10)  # before the XSRF check
    assert page.status_code == 405 and "GET" in page.headers["Allow"].split(", ")


def test_head_answers_like_get_without_a_body(url, key, glb):
    job_id = upload(url, key, glb).json()["job_id"]
    wait_for_job(url, key, job_id)
    for path, authorized in (
        (f"/api/v1/validate/{job_id}", True),
        (f"/api/v1/report/{job_id}/markdown", True),
        ("/api/v1/openapi.json", False),
        ("/healthz", False),
    ):
        headers = bearer(key) if authorized else {}
        got = requests.get(f"{url}{path}", headers=headers, timeout=10)
        head = requests.head(f"{url}{path}", headers=headers, timeout=10)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        for name in ("Content-Type", "Content-Length", "ETag", "Content-Disposition"):
            assert head.headers.get(name) == got.headers.get(name), (path, name)
    missing = requests.head(f"{url}/api/v1/validate/val_nothing", headers=bearer(key), timeout=10)
    assert missing.status_code == 404 and missing.content == b""


def test_a_waiting_job_says_when_to_poll_again_and_an_ended_one_does_not(url, key, glb):
    job_id = upload(url, key, glb, "slow-1.5.glb").json()["job_id"]
    waiting = requests.get(f"{url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10)
    assert waiting.json()["status"] in ("queued", "processing")
    assert 1 <= int(waiting.headers["Retry-After"]) <= 30
    assert wait_for_job(url, key, job_id)["status"] == "completed"
    ended = requests.get(f"{url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10)
    assert "Retry-After" not in ended.headers


def test_a_content_length_that_is_no_length_is_a_json_400_and_the_connection_closes(url, key):
    for value in ("-5", "12abc", "5, 6"):
        sock = connect(url)
        sock.sendall(
            f"POST /api/v1/validate HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer "
            f"{key}\r\nContent-Length: {value}\r\n\r\nhello".encode()
        )
        status, headers, body = read_response(sock)
        assert status == 400, value
        assert "application/json" in headers
        assert json.loads(body)["code"] == "INVALID_CONTENT_LENGTH"
        assert closed_by_server(sock, timeout=10)
        sock.close()


def test_filename_star_is_honoured_over_the_ascii_fallback(url, key, glb):
    response = multipart_upload(
        url,
        key,
        'form-data; name="file"; filename="mod_le.glb"; '
        "filename*=UTF-8''mod%C3%A8le%20%E2%9C%93.glb",
        glb,
    )
    assert response.status_code == 202, response.text
    body = wait_for_job(url, key, response.json()["job_id"])
    assert body["filename"] == "modèle ✓.glb"


def test_a_file_name_of_5000_characters_is_cut_and_one_past_the_header_limit_is_refused(
    url, key, glb
):
    accepted = upload(url, key, glb, "a" * 5000 + ".glb")
    assert accepted.status_code == 202, accepted.text
    name = wait_for_job(url, key, accepted.json()["job_id"])["filename"]
    assert len(name) == 255 and name.startswith("aaaa") and CUT_MARK in name
    assert "5,004" in name
    refused = upload(url, key, glb, "a" * 40_000 + ".glb")
    assert refused.status_code == 400
    assert refused.json()["code"] == "PART_HEADERS_TOO_LARGE"
    assert "shorter name" in refused.json()["error"]
