"""Reports and badges on a live server: content types, caching validators, failed jobs, and
badge links that work without a key and only with their token."""

from __future__ import annotations

import json
import secrets
import xml.etree.ElementTree as ET
from importlib.resources import files

import jsonschema
import pytest
import requests

from assetcheck.reports import visible
from assetcheck.reports.badge import GRADE_COLOURS, INACTIVE_COLOUR
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.webapp.job_views import badge_path
from assetcheck.service.webapp.server_secret import load_server_secret
from tests.reports.cases import STORED_HOSTILE, UPLOADS
from tests.service.harness import bearer, bind_database, upload, wait_for_job

SCHEMA = json.loads(files("assetcheck.reports").joinpath("report.schema.json").read_text())
SVG = "{http://www.w3.org/2000/svg}"
FORMATS = ("json", "markdown", "badge", "junit", "text")
#: The extension of each report format's attachment (the badge, an image, is inline).
SAVED_AS = {"json": "json", "markdown": "md", "junit": "xml", "text": "txt"}
INTERFACE_CONTENT_TYPES = {
    "json": "application/json",
    "markdown": "text/markdown; charset=utf-8",
    "badge": "image/svg+xml",
}


def submit(url: str, key: str, content: bytes, filename: str) -> str:
    response = upload(url, key, content, filename)
    assert response.status_code == 202, response.text
    return response.json()["job_id"]


def finished(url: str, key: str, content: bytes, filename: str) -> dict:
    """Upload, wait for the job to end; its last status body."""
    return wait_for_job(url, key, submit(url, key, content, filename))


def get(url: str, path: str, key: str | None = None, **headers: str) -> requests.Response:
    return requests.get(f"{url}{path}", headers={**bearer(key), **headers}, timeout=10)


def assert_never_rendered_as_a_page(response: requests.Response) -> None:
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")


def badge_values(svg: str) -> tuple[list[str], set[str]]:
    root = ET.fromstring(svg)
    return (
        [t.text for t in root.iter(f"{SVG}text")],
        {r.get("fill") for r in root.iter(f"{SVG}rect")},
    )


@pytest.fixture(scope="module")
def account_key(service) -> str:
    """A key of an account of this module's own, whose jobs the tests below share."""
    bind_database(service.config)
    account = create_account(
        f"reports-{secrets.token_hex(6)}@example.com", "pro", list(service.config.plans)
    )
    return issue_key(account, "reports", None)[1]


@pytest.fixture(scope="module")
def completed(service, account_key) -> tuple[str, dict]:
    """The key and the body of a completed job with issues."""
    body = finished(service.url, account_key, UPLOADS["flawed_glb"].content, "crates.glb")
    assert body["status"] == "completed"
    return account_key, body


@pytest.fixture(scope="module")
def failed(service, account_key) -> tuple[str, dict]:
    """The key and the body of a job that crashed its worker three times (the test plugin
    kills the validation of files named ``crash...``)."""
    body = finished(service.url, account_key, UPLOADS["clean_glb"].content, "crash-reports.glb")
    assert body["status"] == "failed"
    return account_key, body


@pytest.mark.parametrize("format_name", sorted(INTERFACE_CONTENT_TYPES))
def test_a_completed_jobs_report_has_exactly_the_interfaces_content_type(
    url, completed, format_name
):
    key, body = completed
    response = get(url, f"/api/v1/report/{body['job_id']}/{format_name}", key)
    assert response.status_code == 200
    assert response.headers["Content-Type"] == INTERFACE_CONTENT_TYPES[format_name]


def test_the_json_report_is_the_stored_one_and_follows_the_schema(url, completed):
    key, body = completed
    report = get(url, f"/api/v1/report/{body['job_id']}/json", key).json()
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["job"]["job_id"] == body["job_id"]
    assert report["result"] == body["result"] and report["grade"] == body["grade"]


@pytest.mark.parametrize("format_name", FORMATS)
def test_every_report_has_a_strong_etag_and_answers_304_when_it_matches(
    url, completed, format_name
):
    key, body = completed
    path = f"/api/v1/report/{body['job_id']}/{format_name}"
    first = get(url, path, key)
    etag = first.headers["ETag"]
    assert etag.startswith('"') and first.headers["Cache-Control"] == "private, no-cache"
    again = get(url, path, key, **{"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["ETag"] == etag and "Cache-Control" in again.headers
    stale = get(url, path, key, **{"If-None-Match": '"0000"'})
    assert stale.status_code == 200 and stale.content == first.content


def test_each_format_has_its_own_etag(url, completed):
    key, body = completed
    etags = {
        get(url, f"/api/v1/report/{body['job_id']}/{name}", key).headers["ETag"] for name in FORMATS
    }
    assert len(etags) == len(FORMATS)


def test_a_failed_job_explains_itself_in_every_format(url, failed):
    key, body = failed
    base = f"/api/v1/report/{body['job_id']}"
    report = get(url, f"{base}/json", key).json()
    jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert report["grade"] is None and report["job"]["error"]["code"] == "VALIDATION_CRASHED"
    assert "`VALIDATION_CRASHED`" in get(url, f"{base}/markdown", key).text
    assert "validation FAILED (VALIDATION_CRASHED)" in get(url, f"{base}/text", key).text
    (case,) = ET.fromstring(get(url, f"{base}/junit", key).content).iter("testcase")
    assert case.find("failure").get("type") == "VALIDATION_CRASHED"
    texts, fills = badge_values(get(url, f"{base}/badge", key).text)
    assert texts == ["asset", "failed"] and INACTIVE_COLOUR in fills


def test_a_completed_jobs_badge_url_needs_no_key_and_is_cached_for_long(url, completed):
    _, body = completed
    response = get(url, body["badge_url"])
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "image/svg+xml"
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    texts, fills = badge_values(response.text)
    assert texts == ["asset", f"{body['grade']} {body['health_score']}"]
    assert GRADE_COLOURS[body["grade"]] in fills
    again = get(url, body["badge_url"], **{"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304


def test_the_badge_link_and_the_api_badge_are_the_same_image(url, completed):
    key, body = completed
    api = get(url, f"/api/v1/report/{body['job_id']}/badge", key)
    assert get(url, body["badge_url"]).content == api.content


def test_a_wrong_badge_token_answers_exactly_like_an_unknown_job(service, url, completed):
    _, body = completed
    right = body["badge_url"]
    token = right.rsplit("/", 1)[1].removesuffix(".svg")
    wrong = right.replace(token, ("0" if token[0] != "0" else "1") + token[1:])
    unknown = badge_path(load_server_secret(service.config), "val_doesnotexist")
    answers = [get(url, path) for path in (wrong, unknown, right.replace(token, "short"))]
    assert [a.status_code for a in answers] == [404, 404, 404]
    assert len({a.content for a in answers}) == 1
    assert answers[0].json()["code"] == "NOT_FOUND"


def test_a_waiting_jobs_badge_shows_its_state_in_grey_briefly_cached(service, url, key):
    job_id = submit(url, key, UPLOADS["clean_glb"].content, "slow-2.glb")
    response = get(url, badge_path(load_server_secret(service.config), job_id))
    texts, fills = badge_values(response.text)
    assert texts[1] in ("queued", "processing") and INACTIVE_COLOUR in fills
    assert response.headers["Cache-Control"] == "public, max-age=10"


def test_hostile_names_come_back_safe_in_every_format(url, key):
    body = finished(url, key, UPLOADS["hostile_glb"].content, "<script>|`x`.glb")
    assert body["status"] == "completed"
    assert body["result"]["meshes"][0]["parts"][0]["name"] == STORED_HOSTILE
    base = f"/api/v1/report/{body['job_id']}"
    rendered = {name: get(url, f"{base}/{name}", key) for name in FORMATS}
    assert all(r.status_code == 200 for r in rendered.values())
    assert "<script>" not in rendered["markdown"].text
    for name in ("junit", "badge"):
        ET.fromstring(rendered[name].content)  # well-formed XML
    assert "\x1b" not in rendered["text"].text and visible(STORED_HOSTILE) in rendered["text"].text


def test_the_openapi_document_describes_the_keyless_badge(url):
    document = get(url, "/api/v1/openapi.json").json()
    badge = document["paths"]["/badge/{jobId}/{token}.svg"]["get"]
    assert badge["security"] == [] and "image/svg+xml" in badge["responses"]["200"]["content"]
    assert "304" in document["paths"]["/api/v1/report/{jobId}/{format}"]["get"]["responses"]


@pytest.mark.parametrize("format_name", FORMATS)
def test_reports_are_attachments_named_by_the_service_and_the_badge_is_inline(
    url, completed, format_name
):
    key, body = completed
    response = get(url, f"/api/v1/report/{body['job_id']}/{format_name}", key)
    assert response.status_code == 200
    assert_never_rendered_as_a_page(response)
    if format_name == "badge":
        assert "Content-Disposition" not in response.headers
    else:
        assert response.headers["Content-Disposition"] == (
            f'attachment; filename="{body["job_id"]}-report.{SAVED_AS[format_name]}"'
        )


def test_every_api_answer_is_nosniff_under_a_default_src_none_policy(url, completed):
    key, body = completed
    answers = [
        get(url, "/api/v1/engines", key),
        get(url, "/api/v1/engines"),
        get(url, "/api/v1/validate/val_nothing", key),
        get(url, "/healthz"),
        get(url, "/api/v1/openapi.json"),
        get(url, body["badge_url"]),
        requests.post(f"{url}/api/v1/engines", timeout=10),
    ]
    assert [response.status_code for response in answers] == [200, 401, 404, 200, 200, 200, 401]
    for response in answers:
        assert_never_rendered_as_a_page(response)
    assert "Content-Disposition" not in answers[5].headers  # the badge link stays an image
