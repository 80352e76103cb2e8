"""``assetcheck.client`` and ``assetcheck submit`` against a live server with real workers."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from assetcheck.cli import build_parser
from assetcheck.cli.submit_command import _submit_all
from assetcheck.client import ApiError, Client, ConnectionFailed, WaitTimedOut
from assetcheck.testing.shapes import box_glb
from tests.service.harness import ServiceProcess, assetcheck_command, new_key

BROKEN_GLB = b"glTF\x02\x00\x00\x00\xff\xff\xff\x7f garbage"


@pytest.fixture
def client(url: str, key: str) -> Client:
    return Client(url, key)


@pytest.fixture
def files(tmp_path: Path):
    """``files({name: bytes, ...})``: the paths of files written with those names and bytes."""

    def write(contents: dict[str, bytes]) -> list[Path]:
        for name, content in contents.items():
            (tmp_path / name).write_bytes(content)
        return [tmp_path / name for name in contents]

    return write


def submit(url: str, key: str | None, *args: str, cwd: Path | None = None):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSETCHECK_")}
    if key is not None:
        env["ASSETCHECK_API_KEY"] = key
    return subprocess.run(
        assetcheck_command("submit", "--url", url, *args),
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_client_submits_waits_at_the_pace_the_service_asks_and_fetches_reports(
    client, files, glb
):
    (path,) = files({"slow-1.glb": glb})
    created = client.submit(path, engine="web")
    assert created.status == "queued" and created.status_url.endswith(created.job_id)
    polls, pauses = [], []

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        time.sleep(seconds)

    job = client.wait(created.job_id, timeout=60, on_poll=polls.append, sleep=pause)
    assert job.status == "completed" and job.valid is True and job.grade == "excellent"
    waiting = [poll for poll in polls if not poll.finished]
    assert waiting and all(poll.retry_after >= 1 for poll in waiting)
    assert pauses == [poll.retry_after for poll in waiting]
    report = client.report(job.job_id, "json")
    assert report.content_type == "application/json"
    assert report.json()["health_score"] == job.health_score
    assert "excellent" in client.report(job.job_id, "markdown").text().lower()
    assert "json" in client.report_formats()
    assert any(engine["name"] == "web" for engine in client.engines())


def test_a_non_ascii_file_name_travels_as_rfc_5987_and_comes_back_whole(client, files, glb):
    (path,) = files({"modèle-à-vérifier.glb": glb})
    job = client.wait(client.submit(path).job_id, timeout=60)
    assert job.body["filename"] == "modèle-à-vérifier.glb"


def test_refusals_raise_api_errors_with_the_services_code(client, url, files):
    (text_file,) = files({"notes.txt": b"just some words"})
    with pytest.raises(ApiError) as unsupported:
        client.submit(text_file)
    assert (unsupported.value.status, unsupported.value.code) == (415, "UNSUPPORTED_FILE_TYPE")
    with pytest.raises(ApiError) as missing:
        client.job("val_doesnotexist")
    assert missing.value.code == "JOB_NOT_FOUND" and "val_doesnotexist" in missing.value.message
    with pytest.raises(ApiError) as unknown:
        Client(url, "svc_" + "x" * 32).engines()
    assert (unknown.value.status, unknown.value.code) == (401, "INVALID_API_KEY")
    assert "svc_" + "x" * 32 not in str(unknown.value)


def test_an_unreachable_service_and_a_slow_job_raise_clear_errors(client, files, glb):
    with pytest.raises(ConnectionFailed, match=r"cannot reach http://127\.0\.0\.1:9"):
        Client("http://127.0.0.1:9", "svc_key").engines()
    (path,) = files({"slow-3.glb": glb})
    created = client.submit(path)
    with pytest.raises(WaitTimedOut, match=created.job_id):
        client.wait(created.job_id, timeout=0.5)


def test_submit_prints_the_report_and_exits_0_for_a_valid_file(url, key, files, glb):
    (path,) = files({"chair.glb": glb})
    done = submit(url, key, str(path))
    assert done.returncode == 0, done.stderr
    assert "chair.glb" in done.stdout and "excellent" in done.stdout.lower()
    assert "queued as val_" in done.stderr and key not in done.stdout + done.stderr


def test_submit_sends_the_products_dimensions_and_refuses_unusable_ones(url, key, files):
    (path,) = files({"chair.glb": box_glb([-0.3, 0.0, -0.2], [0.3, 0.9, 0.2])})
    done = submit(url, key, "--dimensions", "0.6x1.2x0.4", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    (group,) = [
        g for g in json.loads(done.stdout)["issues"] if g["code"] == "MODEL_DIMENSIONS_MISMATCH"
    ]
    assert "height 90 cm instead of 1.2 m" in json.dumps(group)
    refused = submit(url, key, "--dimensions", "0x1x1", str(path))
    assert refused.returncode == 2 and "width must be more than 0" in refused.stderr


def test_submit_saves_one_json_list_for_several_files_and_exits_1_on_errors(
    url, key, files, glb, tmp_path
):
    paths = files({"good.glb": glb, "broken.glb": BROKEN_GLB})
    output = tmp_path / "reports.json"
    done = submit(url, key, *map(str, paths), "--format", "json", "--output", str(output))
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    reports = json.loads(output.read_text())
    assert [report["valid"] for report in reports] == [True, False]
    assert "errors found" in done.stderr


def test_submit_exits_1_under_fail_under_and_for_a_file_the_service_refuses(
    url, key, client, files, glb
):
    (renamed,) = files({"quad.fbx": glb})  # a GLB named .fbx: a FILE_TYPE_MISMATCH warning
    score = client.wait(client.submit(renamed).job_id, timeout=60).health_score
    assert score < 100
    assert submit(url, key, str(renamed), "--fail-under", str(score)).returncode == 0
    assert submit(url, key, str(renamed), "--fail-under", str(score + 1)).returncode == 1
    strict = submit(url, key, str(renamed), "--fail-under", "101")
    assert strict.returncode == 2 and "0 to 100" in strict.stderr
    good, text_file = files({"good.glb": glb, "notes.txt": b"just some words"})
    refused = submit(url, key, str(good), str(text_file))
    assert refused.returncode == 1
    assert "UNSUPPORTED_FILE_TYPE" in refused.stderr and "good.glb" in refused.stdout


def test_submit_walks_folders_as_validate_does_and_prints_one_junit_document(
    url, key, tmp_path, glb
):
    for name in ("assets/chair.glb", "assets/props/lamp.glb", "assets/raw/draft.glb"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(glb)
    (tmp_path / "assets" / "notes.txt").write_text("not a model")
    done = submit(
        url, key, "assets", "--exclude", "raw/", "--jobs", "2", "--format", "junit", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("<?xml") == 1
    suites = ET.fromstring(done.stdout).findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["chair.glb", "lamp.glb"]
    assert "assets/props/lamp.glb: queued as val_" in done.stderr
    assert "draft" not in done.stderr and "notes" not in done.stderr
    (tmp_path / "empty").mkdir()
    nothing = submit(url, key, "empty", cwd=tmp_path)
    assert nothing.returncode == 2
    assert "empty: no GLB, glTF, FBX, OBJ, USD or ZIP files" in nothing.stderr


def test_submit_uploads_jobs_files_at_a_time(url, key, files, glb):
    paths = files({"first.glb": glb, "second.glb": glb})
    both_uploading = threading.Barrier(2, timeout=30)

    class MeetingClient(Client):
        """Each upload starts only once the other one has started too."""

        def submit(self, path, **options):
            both_uploading.wait()  # broken (and raising) if the uploads come one at a time
            return super().submit(path, **options)

    args = build_parser("submit").parse_args(
        ["submit", "--url", url, "--jobs", "2", *map(str, paths)]
    )
    submitted, refused = _submit_all(MeetingClient(url, key), args, paths)
    assert [path for path, _ in submitted] == paths and not refused


def test_submit_waits_for_a_full_queue_to_take_every_file_of_a_folder(local_config, tmp_path, glb):
    # One worker and one queued job at a time: of three files uploaded together, one is
    # being validated (a second), one waits in the queue and the third is refused QUEUE_FULL.
    server = ServiceProcess(
        local_config(workers={"processes": 1}, plans={"pro": {"max_queued_jobs": 1}})
    ).start()
    try:
        folder = tmp_path / "models"
        folder.mkdir()
        for number in range(3):
            (folder / f"slow-1-{number}.glb").write_bytes(glb)
        done = submit(server.url, new_key(server.config), str(folder), "--format", "json")
    finally:
        server.stop()
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)) == 3
    assert "waiting" in done.stderr and "files waiting to be validated" in done.stderr


def test_submit_says_an_empty_file_is_empty_in_the_words_of_validate(url, key, files, glb):
    good, empty = files({"good.glb": glb, "empty.glb": b""})
    done = submit(url, key, str(good), str(empty))
    assert done.returncode == 1
    assert "empty.glb: refused: empty.glb is empty: it has no bytes to read." in done.stderr
    assert "(EMPTY_FILE)" in done.stderr and "multipart" not in done.stderr


def test_submit_without_a_usable_key_or_url_is_a_usage_error_that_never_prints_the_key(
    url, files, glb
):
    (path,) = files({"chair.glb": glb})
    no_key = submit(url, None, str(path))
    assert no_key.returncode == 2 and "ASSETCHECK_API_KEY" in no_key.stderr
    wrong_key = "svc_" + "Q" * 32
    refused = submit(url, wrong_key, str(path))
    assert refused.returncode == 2 and "INVALID_API_KEY" in refused.stderr
    assert wrong_key not in refused.stdout + refused.stderr
    unreachable = submit("http://127.0.0.1:9", wrong_key, str(path))
    assert unreachable.returncode == 2 and "cannot reach" in unreachable.stderr
    unknown_format = submit(url, wrong_key, str(path), "--format", "pdf")
    assert unknown_format.returncode == 2 and "no format 'pdf'" in unknown_format.stderr
    missing_file = submit(url, wrong_key, "no-such.glb")
    assert missing_file.returncode == 2 and "no-such.glb" in missing_file.stderr


def test_the_client_module_needs_neither_the_server_nor_third_party_http_libraries():
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, assetcheck.client; print(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    heavy = {
        "tornado",
        "peewee",
        "numpy",
        "requests",
        "urllib3",
        "assetcheck.service.webapp",
        "assetcheck.engine",
        "assetcheck.config",
    }
    assert heavy.isdisjoint(loaded)


def refusing_server(answer: bytes) -> tuple[str, threading.Thread]:
    """A loopback server that answers its one request with ``answer`` as soon as the headers
    are in, then closes without reading the body (as the service refuses a full queue)."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        with listener, listener.accept()[0] as connection:
            received = b""
            while b"\r\n\r\n" not in received:
                received += connection.recv(65536)
            connection.sendall(answer)

    thread = threading.Thread(target=serve)
    thread.start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}", thread


def test_a_refusal_sent_before_the_whole_upload_is_read_as_the_services_answer(files):
    body = b'{"error": "Your account already has 1 files waiting", "code": "QUEUE_FULL"}'
    url, server = refusing_server(
        b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
        b"Retry-After: 2\r\nConnection: close\r\n"
        + f"Content-Length: {len(body)}\r\n\r\n".encode()
        + body
    )
    (path,) = files({"large.glb": os.urandom(32 << 20)})  # far more than the socket buffers
    try:
        with pytest.raises(ApiError) as refused:
            Client(url, "svc_key").submit(path)
    finally:
        server.join()
    assert (refused.value.status, refused.value.code, refused.value.retry_after) == (
        429,
        "QUEUE_FULL",
        2,
    )
