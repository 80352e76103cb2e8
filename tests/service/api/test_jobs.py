"""Jobs through their states on a live server: status bodies, lists, reports, failures."""

from __future__ import annotations

import json
import time

import pytest
import requests

from assetcheck.service.db.tables import Job
from tests.service.harness import bearer, upload, wait_for_job
from tests.service.webhooks.test_webhooks_api import NESTED_CURSOR

PENDING_FIELDS = {"job_id", "status", "progress", "filename", "created_at"}


def get(url: str, path: str, key: str | None, **params) -> requests.Response:
    return requests.get(f"{url}{path}", headers=bearer(key), params=params, timeout=10)


def submit(
    url: str, key: str, content: bytes, filename: str = "model.glb", options: dict | None = None
) -> str:
    response = upload(
        url, key, content, filename, json.dumps(options) if options is not None else None
    )
    assert response.status_code == 202, response.text
    return response.json()["job_id"]


def test_a_completed_job_has_the_interface_fields_and_extras(url, key, glb):
    job_id = submit(url, key, glb, "tiny.glb", {"engine": "web"})
    body = wait_for_job(url, key, job_id)
    assert body["status"] == "completed"
    assert body["progress"] == 100 and body["filename"] == "tiny.glb"
    assert body["grade"] == "excellent" and isinstance(body["health_score"], int)
    assert set(body["result"]) == {"meshes", "securityScan"}
    assert body["result"]["securityScan"] == {"safe": True, "scannedFiles": 1, "warnings": []}
    mesh = body["result"]["meshes"][0]
    for field in (
        "filename",
        "vertexCount",
        "triangleCount",
        "materialCount",
        "usesPBR",
        "animationCount",
    ):
        assert field in mesh
    assert body["engine"] == "web" and body["valid"] is True
    assert body["created_at"].endswith("Z") and body["completed_at"].endswith("Z")


def test_a_job_moves_from_queued_through_processing_to_completed_with_rising_progress(
    url, key, glb
):
    job_id = submit(url, key, glb, "slow-1.5.glb")
    seen = []
    while not seen or seen[-1]["status"] not in ("completed", "failed"):
        body = get(url, f"/api/v1/validate/{job_id}", key).json()
        if not seen or body != seen[-1]:
            seen.append(body)
        time.sleep(0.05)
    statuses = [body["status"] for body in seen]
    assert statuses[0] in ("queued", "processing") and statuses[-1] == "completed"
    assert statuses == sorted(statuses, key=["queued", "processing", "completed"].index)
    processing = [body for body in seen if body["status"] == "processing"]
    assert processing and all(set(body) == PENDING_FIELDS for body in processing)
    progress = [body["progress"] for body in seen]
    assert progress == sorted(progress) and 0 < processing[-1]["progress"] < 100
    assert len({body["progress"] for body in processing}) > 1


def test_a_queued_job_has_progress_zero_and_the_pending_fields(service, url, key, glb):
    job_ids = [submit(url, key, glb, "slow-1.glb") for _ in range(4)]  # 2 workers: 2 wait
    queued = [get(url, f"/api/v1/validate/{j}", key).json() for j in job_ids]
    waiting = [body for body in queued if body["status"] == "queued"]
    assert waiting
    assert all(set(body) == PENDING_FIELDS and body["progress"] == 0 for body in waiting)


def test_a_file_that_cannot_be_parsed_completes_with_errors_and_a_low_grade(url, key):
    job_id = submit(url, key, b"glTF\x02\x00\x00\x00\xff\xff\xff\x7f garbage", "broken.glb")
    body = wait_for_job(url, key, job_id)
    assert body["status"] == "completed"
    assert body["valid"] is False and body["grade"] != "excellent"


def test_a_validation_that_crashes_three_times_fails_validation_crashed(url, key, glb):
    job_id = submit(url, key, glb, "crash.glb")
    body = wait_for_job(url, key, job_id)
    assert body["status"] == "failed"
    assert set(body) == PENDING_FIELDS | {"error"}
    assert body["error"]["code"] == "VALIDATION_CRASHED"
    assert "SIGSEGV" in body["error"]["message"]
    assert Job.get_by_id(job_id).attempts == 3


def test_a_validation_over_the_job_timeout_fails_validation_timeout(url, key, glb):
    job_id = submit(url, key, glb, "slow-60.glb")  # job_timeout is 30 s in the test config
    body = wait_for_job(url, key, job_id)
    assert body["status"] == "failed"
    assert body["error"]["code"] == "VALIDATION_TIMEOUT"
    after = submit(url, key, glb, "after-timeout.glb")
    assert wait_for_job(url, key, after)["status"] == "completed"


def test_another_accounts_job_is_not_found(url, key, make_key, glb):
    job_id = submit(url, key, glb)
    stranger = make_key()
    for path in (f"/api/v1/validate/{job_id}", f"/api/v1/report/{job_id}/json"):
        response = get(url, path, stranger)
        assert response.status_code == 404 and response.json()["code"] == "JOB_NOT_FOUND"
    assert get(url, "/api/v1/validate", stranger).json()["jobs"] == []


@pytest.mark.parametrize(
    ("job_id", "code"),
    [
        ("val_doesnotexist", "JOB_NOT_FOUND"),
        ("%F4%88%82%8E%C2%91", "JOB_NOT_FOUND"),
        ("val_%00nul", "NOT_FOUND"),  # a NUL names nothing, whatever the route
    ],
)
def test_an_unknown_job_is_not_found(url, key, job_id, code):
    for path in (
        f"/api/v1/validate/{job_id}",
        f"/api/v1/report/{job_id}/json",
        f"/api/v1/validate/{job_id}/compare/{job_id}",
    ):
        response = get(url, path, key)
        assert response.status_code == 404
        assert response.json() == {"error": response.json()["error"], "code": code}


def test_the_job_list_is_newest_first_paginated_and_filtered(url, make_key, glb):
    key = make_key()
    job_ids = [submit(url, key, glb, f"m{i}.glb") for i in range(5)]
    for job_id in job_ids:
        wait_for_job(url, key, job_id)
    first = get(url, "/api/v1/validate", key, limit=2).json()
    second = get(url, "/api/v1/validate", key, limit=2, cursor=first["next_cursor"]).json()
    third = get(url, "/api/v1/validate", key, limit=2, cursor=second["next_cursor"]).json()
    listed = [job["job_id"] for page in (first, second, third) for job in page["jobs"]]
    assert listed == list(reversed(job_ids))
    assert third["next_cursor"] is None
    completed = get(url, "/api/v1/validate", key, status="completed").json()["jobs"]
    assert len(completed) == 5 and all(j["grade"] for j in completed)
    assert get(url, "/api/v1/validate", key, status="failed").json()["jobs"] == []


@pytest.mark.parametrize(
    "params",
    [
        {"status": "done"},
        {"limit": "0"},
        {"limit": "x"},
        {"limit": "101"},
        {"limit": "9" * 5000},
        {"limit": "²"},
        {"cursor": "garbage!"},
        {"cursor": NESTED_CURSOR},
    ],
)
def test_bad_list_parameters_are_invalid_parameter(url, key, params):
    response = get(url, "/api/v1/validate", key, **params)
    assert response.status_code == 400 and response.json()["code"] == "INVALID_PARAMETER"


def test_reports_come_in_each_format_with_its_content_type(url, key, glb):
    job_id = submit(url, key, glb, "tiny.glb")
    wait_for_job(url, key, job_id)
    as_json = get(url, f"/api/v1/report/{job_id}/json", key)
    assert as_json.headers["Content-Type"] == "application/json"
    assert as_json.json()["job"]["job_id"] == job_id
    assert as_json.json()["result"] == get(url, f"/api/v1/validate/{job_id}", key).json()["result"]
    markdown = get(url, f"/api/v1/report/{job_id}/markdown", key)
    assert markdown.headers["Content-Type"] == "text/markdown; charset=utf-8"
    assert "tiny.glb" in markdown.text


def test_an_unknown_report_format_is_refused_with_the_formats_listed(url, key, glb):
    job_id = submit(url, key, glb)
    response = get(url, f"/api/v1/report/{job_id}/pdf", key)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "INVALID_REPORT_FORMAT"
    assert "json" in body["error"] and "markdown" in body["error"]


def test_the_report_of_an_unfinished_job_is_not_ready_with_retry_after(url, key, glb):
    job_id = submit(url, key, glb, "slow-2.glb")
    response = get(url, f"/api/v1/report/{job_id}/json", key)
    assert response.status_code == 409
    assert response.json()["code"] == "JOB_NOT_READY"
    assert int(response.headers["Retry-After"]) >= 1


def test_engines_lists_every_profile_with_its_budgets(url, key):
    engines = get(url, "/api/v1/engines", key).json()["engines"]
    assert {e["name"] for e in engines} >= {"generic", "web", "unity", "unreal", "godot", "mobile"}
    assert all("triangles_per_file" in e["budgets"] for e in engines)


def test_health_and_the_openapi_document_need_no_key(url):
    assert get(url, "/healthz", None).json() == {"status": "ok"}
    document = get(url, "/api/v1/openapi.json", None).json()
    assert document["openapi"] == "3.1.0"
    assert "/api/v1/validate/{jobId}" in document["paths"]


def test_unknown_paths_and_methods_answer_json_errors(url, key):
    missing = get(url, "/api/v2/validate", key)
    assert missing.status_code == 404 and missing.json()["code"] == "NOT_FOUND"
    wrong = requests.delete(f"{url}/api/v1/engines", headers=bearer(key), timeout=10)
    assert wrong.status_code == 405 and wrong.json()["code"] == "METHOD_NOT_ALLOWED"
