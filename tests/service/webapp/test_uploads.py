"""POST /api/v1/validate: what is accepted, what is refused, and what is left on disk."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
import requests

from assetcheck.engine import validate
from assetcheck.service.db.tables import Job
from assetcheck.testing.zip import zip_of
from tests.formats.obj.test_obj_reader import CUBE, MTL, png
from tests.formats.usd.test_usd_reader import ASSETS as USD_ASSETS
from tests.plugins import mesh_format
from tests.plugins.test_plugin_format import FLAWED
from tests.service.harness import (
    ServiceProcess,
    bearer,
    connect,
    new_key,
    read_response,
    upload,
    wait_for_job,
    wait_until,
)

BOUNDARY = "assetcheck-test-boundary"


def job_folders(service) -> set[str]:
    root = service.config.storage.data_dir / "jobs"
    return {p.name for p in root.iterdir()} if root.exists() else set()


def assert_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error", "code"} and body["code"] == code
    return body


def test_an_accepted_upload_answers_202_with_location_and_the_job_fields(url, key, glb):
    response = upload(url, key, glb, options=json.dumps({"engine": "web"}))
    assert response.status_code == 202
    body = response.json()
    assert set(body) == {"job_id", "status", "estimated_completion", "status_url", "badge_url"}
    assert body["badge_url"].startswith(f"/badge/{body['job_id']}/")
    badge = requests.get(f"{url}{body['badge_url']}", timeout=10)  # shows the state at once
    assert badge.status_code == 200 and badge.headers["Content-Type"] == "image/svg+xml"
    assert re.fullmatch(r"val_[A-Za-z0-9]{24}", body["job_id"])
    assert body["status"] == "queued"
    assert body["status_url"] == f"/api/v1/validate/{body['job_id']}"
    assert response.headers["Location"] == body["status_url"]
    eta = datetime.strptime(body["estimated_completion"], "%Y-%m-%dT%H:%M:%SZ")
    assert abs(eta.replace(tzinfo=UTC) - datetime.now(UTC)) < timedelta(minutes=5)


def test_the_upload_is_stored_under_the_job_id_with_its_sha256_never_the_client_name(
    service, url, key, glb
):
    body = upload(url, key, glb, filename="../../evil name.glb").json()
    job = Job.get_by_id(body["job_id"])
    stored = service.config.storage.data_dir / job.stored_path
    assert stored == service.config.storage.data_dir / "jobs" / job.id / "upload"
    assert stored.read_bytes() == glb
    assert job.sha256 == hashlib.sha256(glb).hexdigest() and job.size == len(glb)
    assert job.filename == "evil name.glb"


def test_each_accepted_format_is_queued(url, key, glb):
    gltf = json.dumps({"asset": {"version": "2.0"}}).encode()
    fbx = b"; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n}\n"
    for name, content in (
        ("a.glb", glb),
        ("a.gltf", gltf),
        ("a.fbx", fbx),
        ("model", CUBE),  # OBJ, known by its content alone
        ("a.zip", zip_of({"a.glb": glb})),
    ):
        assert upload(url, key, content, filename=name).status_code == 202, name


def test_a_request_without_a_file_part_is_missing_file(url, key):
    no_file = requests_post_fields(url, key, {"options": "{}"})
    assert_error(no_file, 400, "MISSING_FILE")
    not_multipart = requests_post_raw(url, key, b"glTF....", "application/octet-stream")
    assert "multipart/form-data" in assert_error(not_multipart, 400, "MISSING_FILE")["error"]


@pytest.mark.parametrize("options", ["{not json", "[1, 2]", '"web"', '{"colour": "red"}'])
def test_unusable_options_are_invalid_options(url, key, glb, options):
    assert_error(upload(url, key, glb, options=options), 400, "INVALID_OPTIONS")


@pytest.mark.parametrize("options", ["[" * 8000, '{"a":' * 3000])
def test_options_nested_too_deeply_are_invalid_options_not_a_crash(url, key, glb, options):
    body = assert_error(upload(url, key, glb, options=options), 400, "INVALID_OPTIONS")
    assert "nested too deeply" in body["error"]


def test_an_unknown_engine_is_refused_with_the_valid_ones_listed(url, key, glb):
    body = assert_error(upload(url, key, glb, options='{"engine": "quake"}'), 400, "UNKNOWN_ENGINE")
    for engine in ("generic", "web", "unity", "unreal", "godot", "mobile"):
        assert engine in body["error"]


@pytest.mark.parametrize(
    "webhook_url", ["ftp://example.com/x", "not a url", "http://", 42, "https://example.com:99999/"]
)
def test_a_webhook_url_that_is_not_http_is_refused(url, key, glb, webhook_url):
    options = json.dumps({"webhook_url": webhook_url})
    assert_error(upload(url, key, glb, options=options), 400, "INVALID_WEBHOOK_URL")


def test_a_webhook_url_is_stored_with_the_job(url, key, glb):
    options = json.dumps({"engine": "unity", "webhook_url": "http://127.0.0.1:9/hook"})
    job = Job.get_by_id(upload(url, key, glb, options=options).json()["job_id"])
    assert job.options == {"engine": "unity", "webhook_url": "http://127.0.0.1:9/hook"}
    assert job.engine == "unity"


def test_a_null_webhook_url_leaves_the_account_default_to_apply(url, key, glb):
    options = json.dumps({"engine": "unity", "webhook_url": None})
    response = upload(url, key, glb, options=options)
    assert response.status_code == 202, response.text
    assert Job.get_by_id(response.json()["job_id"]).options == {"engine": "unity"}


def test_content_that_is_no_3d_format_is_unsupported_whatever_its_name(url, key):
    response = upload(url, key, b"MZ\x90\x00 not a model at all", filename="model.glb")
    assert assert_error(response, 415, "UNSUPPORTED_FILE_TYPE")["error"] == (
        "model.glb is not a GLB, glTF, FBX, OBJ, USD or ZIP file (its content matches none of "
        "them). Export the model as GLB, glTF, FBX, OBJ or USD, or pack such files in a ZIP."
    )


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [(b"hello", 415, "UNSUPPORTED_FILE_TYPE"), (b"", 400, "EMPTY_FILE")],
    ids=["fake", "empty"],
)
def test_a_file_no_format_reads_is_refused_in_the_words_validate_reports_it(
    url, key, tmp_path, content, status, code
):
    path = tmp_path / "fake.glb"
    path.write_bytes(content)
    (issue,) = validate(path).issues
    refused = assert_error(upload(url, key, content, filename="fake.glb"), status, code)
    assert issue.code == code
    assert refused["error"] == f"{issue.message} {issue.fix}"


#: One worker whose jobs have time to spare: these tests prove what a job's report holds, not
#: how fast it comes. The harness's 6 s limit is too near a USD job's own time (its child imports
#: Pixar's library, about 0.6 s of CPU) on a machine whose cores other work keeps busy; the
#: time limit has its own tests (tests/service/jobs/test_job_processes.py).
ONE_WORKER_WITHOUT_HURRY = {"processes": 1, "job_timeout": 300}


def test_obj_uploads_complete_with_their_reports_and_hostile_ones_leave_the_worker_unharmed(
    local_config,
):
    config_path = local_config(workers=ONE_WORKER_WITHOUT_HURRY)
    server = ServiceProcess(config_path).start()
    packed = zip_of(
        {
            "cube/cube.obj": CUBE,
            "cube/cube.mtl": MTL,
            "cube/textures/albedo map.png": png(),
            "cube/textures/normal.png": png(),
        }
    )
    uploads = [
        # a line over the reader's 1 MiB limit, in an upload under the plan's 2 MB
        ("endless.obj", b"v 0 0 0\nv " + b"1" * (3 << 19)),
        ("claim.obj", b"v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 1000000000\n"),
        ("cube.zip", packed),
        ("cube.obj", CUBE),
    ]
    try:
        key = new_key(server.config)
        jobs = finished_jobs(server.url, key, uploads)
        report = requests.get(
            f"{server.url}/api/v1/report/{jobs['cube.zip']['job_id']}/json",
            headers=bearer(key),
            timeout=10,
        ).json()
    finally:
        server.stop()
    assert {name: body["status"] for name, body in jobs.items()} == dict.fromkeys(jobs, "completed")
    endless, claim = jobs["endless.obj"], jobs["claim.obj"]
    assert "OBJ_LINE_TOO_LONG" in {w["code"] for w in endless["result"]["securityScan"]["warnings"]}
    assert endless["result"]["meshes"][0]["triangleCount"] == 0
    (cube,) = jobs["cube.zip"]["result"]["meshes"]
    assert (cube["filename"], cube["vertexCount"], cube["triangleCount"]) == (
        "cube/cube.obj",
        8,
        12,
    )
    assert cube["usesPBR"] and cube["materialCount"] == 2
    assert [(f["filename"], f["format"]) for f in report["files"]] == [("cube/cube.obj", "obj")]
    assert not [group for group in report["issues"] if group["code"].startswith("OBJ_")]
    assert jobs["cube.obj"]["result"]["meshes"][0]["triangleCount"] == 12
    assert claim["valid"] is False and claim["result"]["meshes"][0]["triangleCount"] == 0


def finished_jobs(url: str, key: str, uploads: list[tuple[str, bytes]]) -> dict[str, dict]:
    """Upload each ``(name, content)`` in turn and wait for its job; the job bodies by name."""
    jobs = {}
    for name, content in uploads:
        accepted = upload(url, key, content, filename=name)
        assert accepted.status_code == 202, accepted.text
        jobs[name] = wait_for_job(url, key, accepted.json()["job_id"], timeout=120)
    return jobs


def test_usd_uploads_complete_with_their_reports_and_hostile_ones_leave_the_worker_unharmed(
    local_config,
):
    config_path = local_config(workers=ONE_WORKER_WITHOUT_HURRY)
    server = ServiceProcess(config_path).start()
    hostile = {
        "leaving.usdz": "USD_PATH_TRAVERSAL",
        "absolute.usdz": "USD_EXTERNAL_PATH",
        "compressed.usdz": "USDZ_COMPRESSED_MEMBER",
        "misaligned.usdz": "USDZ_UNALIGNED_MEMBER",
        "bomb.usdz": "ZIP_BOMB",
    }
    cube = (USD_ASSETS / "cube.usdz").read_bytes()
    uploads = [
        *((name, (USD_ASSETS / name).read_bytes()) for name in hostile),
        ("cube.zip", zip_of({"models/cube.usdz": cube})),
        ("cube.usdz", cube),
    ]
    try:
        key = new_key(server.config)
        jobs = finished_jobs(server.url, key, uploads)
        reports = {
            name: requests.get(
                f"{server.url}/api/v1/report/{job['job_id']}/json",
                headers=bearer(key),
                timeout=10,
            ).json()
            for name, job in jobs.items()
        }
    finally:
        server.stop()
    assert {name: body["status"] for name, body in jobs.items()} == dict.fromkeys(jobs, "completed")
    for name, code in hostile.items():
        assert code in {group["code"] for group in reports[name]["issues"]}, name
        assert jobs[name]["result"]["meshes"][0]["triangleCount"] == 1, name
    report = reports["cube.zip"]
    (packed,) = jobs["cube.zip"]["result"]["meshes"]
    assert (packed["filename"], packed["vertexCount"], packed["triangleCount"]) == (
        "models/cube.usdz",
        8,
        12,
    )
    assert [(f["filename"], f["format"]) for f in report["files"]] == [("models/cube.usdz", "usd")]
    assert jobs["cube.usdz"]["result"]["meshes"][0]["triangleCount"] == 12
    assert jobs["cube.usdz"]["valid"] is True


def test_a_plugin_format_is_accepted_validated_and_named_in_the_415(local_config, tmp_path):
    config_path = local_config(workers={"processes": 1})
    shutil.copy(mesh_format.__file__, tmp_path / "plugins" / "mesh_format.py")
    server = ServiceProcess(config_path).start()
    try:
        key = new_key(server.config)
        accepted = upload(server.url, key, FLAWED.encode(), filename="flawed.mesh")
        assert accepted.status_code == 202, accepted.text
        body = wait_for_job(server.url, key, accepted.json()["job_id"], timeout=120)
        report = requests.get(
            f"{server.url}/api/v1/report/{body['job_id']}/markdown", headers=bearer(key), timeout=10
        )
        refused = upload(server.url, key, b"MESH2\n", filename="other.mesh")
    finally:
        server.stop()
    assert (body["status"], body["valid"]) == ("completed", False)
    assert body["result"]["meshes"][0]["triangleCount"] == 2
    assert [w["code"] for w in body["result"]["securityScan"]["warnings"]] == [
        "MESH_UNSAFE_INCLUDE"
    ]
    assert "MESH_DEGENERATE_TRIANGLE" in report.text
    assert assert_error(refused, 415, "UNSUPPORTED_FILE_TYPE")["error"] == (
        "other.mesh is not a GLB, glTF, FBX, OBJ, USD, ZIP or MESH1 file (its content matches "
        "none of them). Export the model as GLB, glTF, FBX, OBJ, USD or MESH1, or pack such "
        "files in a ZIP."
    )


def test_refused_uploads_leave_no_job_and_no_folder(service, url, key, glb):
    before = job_folders(service)
    upload(url, key, b"plain text", filename="a.glb")
    upload(url, key, glb, options="{")
    assert job_folders(service) == before


def test_a_content_length_over_the_plan_limit_gets_413_before_the_body_is_sent(
    service, url, make_key
):
    key = make_key(plan="starter")  # 1 MB uploads in the test config
    declared = 5 << 20
    with connect(url) as sock:
        sock.sendall(request_head(url, key, content_length=declared))
        status, _, body = read_response(sock)
    assert status == 413
    assert json.loads(body)["code"] == "FILE_TOO_LARGE"


def test_a_chunked_upload_over_the_limit_is_cut_off_leaving_no_job_and_no_file(
    service, url, make_key
):
    key = make_key(plan="starter")
    jobs_before = Job.select().count()
    folders_before = job_folders(service)
    chunk = b"glTF" + b"\0" * (64 * 1024 - 4)
    part_head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.glb"\r\n\r\n'
    ).encode()
    sent = 0
    with connect(url) as sock:
        sock.sendall(request_head(url, key, chunked=True) + encode_chunk(part_head))
        try:
            while sent < 4 << 20:  # the limit is 1 MB: the server stops reading long before
                sock.sendall(encode_chunk(chunk))
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            status, _, body = read_response(sock)
        except ConnectionResetError:
            status, body = None, b""
    assert sent < 4 << 20 or status == 413
    if status is not None:
        assert status == 413 and json.loads(body)["code"] == "FILE_TOO_LARGE"
    assert wait_until(lambda: job_folders(service) == folders_before, timeout=5)
    assert Job.select().count() == jobs_before


def requests_post_fields(url: str, key: str, fields: dict[str, str]):
    files = {name: (None, value) for name, value in fields.items()}
    return requests.post(f"{url}/api/v1/validate", files=files, headers=bearer(key), timeout=10)


def requests_post_raw(url: str, key: str, body: bytes, content_type: str):
    headers = {**bearer(key), "Content-Type": content_type}
    return requests.post(f"{url}/api/v1/validate", data=body, headers=headers, timeout=10)


def request_head(
    url: str, key: str, *, content_length: int | None = None, chunked: bool = False
) -> bytes:
    lines = [
        "POST /api/v1/validate HTTP/1.1",
        f"Host: {urlsplit(url).netloc}",
        f"Authorization: Bearer {key}",
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
    ]
    if content_length is not None:
        lines.append(f"Content-Length: {content_length}")
    if chunked:
        lines.append("Transfer-Encoding: chunked")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def encode_chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"
