"""Comparing jobs on a live server: an upload naming a baseline job, the comparison its
completed job carries (status, every report format), and the compare endpoint."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from importlib.resources import files

import jsonschema
import pytest
import requests

from assetcheck.service.db.tables import Job, utcnow
from tests.diff.models import gltf_builder
from tests.service.api.test_jobs import get, submit
from tests.service.harness import bearer, upload, wait_for_job, wait_until

SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())
#: A model, and its version decimated (half the triangles) and re-textured (a larger image).
ORIGINAL = gltf_builder().glb()
DECIMATED = gltf_builder(triangles=100, texture_side=128).glb()


def completed(url: str, key: str, content: bytes, filename: str, **options: object) -> str:
    job_id = submit(url, key, content, filename, options or None)
    assert wait_for_job(url, key, job_id)["status"] == "completed"
    return job_id


def escaped(job_id: str) -> str:
    """A job id as Markdown shows it."""
    return job_id.replace("_", "\\_")


def refusal(response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


@pytest.fixture
def versions(url, key) -> tuple[str, str]:
    """Two completed jobs of one account: chair.glb, then its decimated version naming the
    first as its baseline job."""
    old = completed(url, key, ORIGINAL, "chair.glb")
    return old, completed(url, key, DECIMATED, "chair.glb", baseline_job=old)


def test_a_job_naming_a_baseline_job_carries_its_comparison_in_its_status(url, key, versions):
    old, new = versions
    comparison = get(url, f"/api/v1/validate/{new}", key).json()["comparison"]
    assert (comparison["old"], comparison["new"]) == (old, new)
    (entry,) = comparison["files"]
    assert entry["status"] == "changed"
    assert entry["statistics"]["triangles"] == {
        "old": 200,
        "new": 100,
        "change": -100,
        "percent": -50.0,
    }
    assert entry["statistics"]["textures_gpu_memory"]["change"] > 0
    assert "comparison" not in get(url, f"/api/v1/validate/{old}", key).json()


def test_the_comparison_is_in_every_report_format(url, key, versions):
    old, new = versions
    report = get(url, f"/api/v1/report/{new}/json", key).json()
    jsonschema.validate(report, SCHEMA)
    assert report["comparison"]["old"] == old
    text = get(url, f"/api/v1/report/{new}/text", key).text
    assert f"Compared with the baseline job {old}: nothing got worse" in text
    assert "  triangles: 200 → 100 (-100, -50%)" in text
    markdown = get(url, f"/api/v1/report/{new}/markdown", key).text
    assert "## Comparison" in markdown and f"baseline job {escaped(old)}" in markdown
    assert "- triangles: 200 → 100 (-100, -50%)" in markdown
    sarif = get(url, f"/api/v1/report/{new}/sarif", key).json()
    (artifact,) = sarif["runs"][0]["artifacts"]
    assert artifact["properties"]["comparison"]["baselineJob"] == old
    junit = ET.fromstring(get(url, f"/api/v1/report/{new}/junit", key).text)
    properties = {p.get("name"): p.get("value") for p in junit.iter("property")}
    assert properties["comparison.baselineJob"] == old
    assert properties["comparison.worse"] in ("true", "false")


def test_the_compare_endpoint_answers_the_comparison_the_job_carries(url, key, versions):
    old, new = versions
    response = get(url, f"/api/v1/validate/{new}/compare/{old}", key)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/json"
    assert response.json() == get(url, f"/api/v1/validate/{new}", key).json()["comparison"]
    markdown = get(url, f"/api/v1/validate/{new}/compare/{old}", key, format="markdown")
    assert markdown.headers["Content-Type"].startswith("text/markdown")
    assert f"{escaped(old)} → {escaped(new)}" in markdown.text
    text = get(url, f"/api/v1/validate/{new}/compare/{old}", key, format="text")
    assert text.headers["Content-Type"].startswith("text/plain") and "200 → 100" in text.text


def test_a_job_compared_with_itself_has_no_changes(url, key, versions):
    _, new = versions
    body = get(url, f"/api/v1/validate/{new}/compare/{new}", key).json()
    assert body["summary"]["changed"] == 0 and body["worse"] is False


def test_the_compare_endpoint_refuses_an_unknown_format(url, key, versions):
    old, new = versions
    response = get(url, f"/api/v1/validate/{new}/compare/{old}", key, format="html")
    assert refusal(response) == (400, "INVALID_PARAMETER")


def test_another_accounts_job_is_not_found_on_either_side_of_a_comparison(
    url, key, make_key, versions
):
    old, new = versions
    stranger = make_key()
    theirs = completed(url, stranger, ORIGINAL, "chair.glb")
    for path in (
        f"/api/v1/validate/{new}/compare/{theirs}",
        f"/api/v1/validate/{theirs}/compare/{old}",
    ):
        assert refusal(get(url, path, key)) == (404, "JOB_NOT_FOUND")
    assert refusal(get(url, f"/api/v1/validate/{new}/compare/{old}", stranger)) == (
        404,
        "JOB_NOT_FOUND",
    )


def test_a_job_not_completed_cannot_be_compared_yet(url, key, versions):
    old, _ = versions
    waiting = submit(url, key, ORIGINAL, "slow-3.glb")
    response = get(url, f"/api/v1/validate/{waiting}/compare/{old}", key)
    assert refusal(response) == (409, "JOB_NOT_READY")
    assert int(response.headers["Retry-After"]) >= 1
    wait_for_job(url, key, waiting)


def test_a_failed_or_expired_job_cannot_be_compared(url, key, versions):
    old, new = versions
    failed = completed(url, key, ORIGINAL, "gone.glb")
    Job.update(status="failed", error_code="VALIDATION_TIMEOUT", result=None).where(
        Job.id == failed
    ).execute()
    assert refusal(get(url, f"/api/v1/validate/{new}/compare/{failed}", key)) == (409, "JOB_FAILED")
    Job.update(expired_at=utcnow(), result=None).where(Job.id == old).execute()
    assert refusal(get(url, f"/api/v1/validate/{new}/compare/{old}", key)) == (410, "JOB_EXPIRED")


@pytest.mark.parametrize("baseline", [5, "", ["val_x"], "x" * 65])
def test_a_baseline_job_that_is_no_job_id_is_invalid_options(url, key, baseline):
    response = upload(url, key, ORIGINAL, "chair.glb", json.dumps({"baseline_job": baseline}))
    assert refusal(response) == (400, "INVALID_OPTIONS")
    assert "baseline_job" in response.json()["error"]


def test_a_baseline_job_of_no_job_or_another_account_is_baseline_not_found(url, key, make_key):
    theirs = completed(url, make_key(), ORIGINAL, "chair.glb")
    for baseline in ("val_doesnotexist", theirs):
        response = upload(url, key, DECIMATED, "chair.glb", json.dumps({"baseline_job": baseline}))
        assert refusal(response) == (400, "BASELINE_NOT_FOUND")
    for baseline in ("val_\x00", "\udb50"):  # no text a job id could be: the options are bad
        response = upload(url, key, DECIMATED, "chair.glb", json.dumps({"baseline_job": baseline}))
        assert refusal(response) == (400, "INVALID_OPTIONS")
    assert get(url, "/api/v1/validate", key).json()["jobs"] == []  # nothing was queued


def test_a_baseline_job_not_completed_or_expired_is_refused(url, key):
    waiting = submit(url, key, ORIGINAL, "slow-3.glb")
    response = upload(url, key, DECIMATED, "chair.glb", json.dumps({"baseline_job": waiting}))
    assert refusal(response) == (409, "BASELINE_NOT_COMPLETED")
    wait_for_job(url, key, waiting)
    Job.update(expired_at=utcnow(), result=None).where(Job.id == waiting).execute()
    response = upload(url, key, DECIMATED, "chair.glb", json.dumps({"baseline_job": waiting}))
    assert refusal(response) == (409, "BASELINE_EXPIRED")


def test_a_baseline_job_deleted_before_the_job_completes_leaves_the_comparison_unavailable(
    url, key
):
    old = completed(url, key, ORIGINAL, "chair.glb")
    new = submit(url, key, DECIMATED, "slow-2.glb", {"baseline_job": old})
    assert wait_until(lambda: get(url, f"/api/v1/validate/{new}", key).json()["status"] != "queued")
    assert get(url, f"/api/v1/validate/{old}", key).status_code == 200
    deleted = requests.delete(f"{url}/api/v1/validate/{old}", headers=bearer(key), timeout=10)
    assert deleted.status_code == 204
    body = wait_for_job(url, key, new)
    assert body["status"] == "completed"
    comparison = body["comparison"]
    assert comparison["old"] == old and comparison["new"] == new
    assert "deleted" in comparison["unavailable"]
    report = get(url, f"/api/v1/report/{new}/json", key).json()
    jsonschema.validate(report, SCHEMA)
    assert comparison["unavailable"] in get(url, f"/api/v1/report/{new}/text", key).text
