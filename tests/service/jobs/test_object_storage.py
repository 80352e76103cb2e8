"""Object storage against a real S3 protocol server (moto's, on loopback): uploads stream into
multipart uploads, nodes share nothing but PostgreSQL and the bucket, and what is deleted or
aborted leaves nothing behind."""

from __future__ import annotations

import os
import secrets
import signal
import socket
from collections import Counter
from pathlib import Path

import pytest
import requests

from assetcheck.cli import main
from assetcheck.config.loading import load_config
from assetcheck.config.values import ConfigError
from assetcheck.previews.job_files import model_file_name
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.queue import COMPLETED
from assetcheck.service.jobs.storage import StorageUnavailable, open_storage
from assetcheck.service.jobs.storage.s3 import PART_SIZE, S3Storage
from assetcheck.testing.shapes import pawn_glb
from tests.service.conftest import s3_client
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    service_settings,
    upload,
    wait_for_job,
    wait_until,
    write_config,
)
from tests.service.webhooks.receivers import closed_loopback_port

SECRET_KEY = "a shared secret of the test nodes, long enough"


def storage_of(folder: Path, s3: dict[str, str]) -> S3Storage:
    config = load_config(write_config(folder, {"storage": {"data_dir": str(folder), **s3}}))
    storage = open_storage(config.storage)
    assert isinstance(storage, S3Storage)
    return storage


def keys_in(s3: dict[str, str], under: str = "") -> list[str]:
    answer = s3_client(s3["endpoint_url"]).list_objects_v2(
        Bucket=s3["bucket"], Prefix=s3["prefix"] + under
    )
    return sorted(item["Key"] for item in answer.get("Contents", ()))


def open_multipart_uploads(s3: dict[str, str]) -> list[dict]:
    answer = s3_client(s3["endpoint_url"]).list_multipart_uploads(Bucket=s3["bucket"])
    return answer.get("Uploads", [])


def test_a_large_upload_streams_in_parts_and_a_small_one_in_one_request(tmp_path, s3_storage):
    storage = storage_of(tmp_path, s3_storage)
    content = os.urandom(PART_SIZE + PART_SIZE // 2)
    large = storage.create_upload("val_large")
    flushes = 0
    for start in range(0, len(content), 64 * 1024):
        large.write(content[start : start + 64 * 1024])
        assert len(large._buffer) < PART_SIZE + 64 * 1024  # never more than a part held
        if large.needs_flush:
            large.flush()
            flushes += 1
    large.commit()
    small = storage.create_upload("val_small")
    small.write(b"glTF tiny")
    small.commit()

    assert flushes == 1 and not open_multipart_uploads(s3_storage)
    client = s3_client(s3_storage["endpoint_url"])
    body = client.get_object(Bucket=s3_storage["bucket"], Key="assetcheck/jobs/val_large/upload")
    assert body["Body"].read() == content
    work = storage.scratch_folder("val_large")
    assert work is not None
    fetched = storage.checkout(large.stored_path, "val_large", len(content))
    assert fetched.read_bytes() == content and fetched.parent == storage.work_folder("val_large")
    with pytest.raises(OSError, match="larger than"):
        storage.checkout(large.stored_path, "val_large", len(content) - 1)
    storage.clear_scratch("val_large")
    assert not storage.work_folder("val_large").exists()


def test_an_aborted_upload_leaves_no_part_and_no_object(tmp_path, s3_storage):
    storage = storage_of(tmp_path, s3_storage)
    upload_file = storage.create_upload("val_gone")
    upload_file.write(os.urandom(PART_SIZE))
    upload_file.flush()
    assert len(open_multipart_uploads(s3_storage)) == 1
    upload_file.abort()
    assert open_multipart_uploads(s3_storage) == [] and keys_in(s3_storage) == []

    stored = storage.create_upload("val_refused")  # stored, then refused (over a quota)
    stored.write(b"glTF")
    stored.commit()
    stored.abort()
    assert keys_in(s3_storage) == []


def test_the_sweeper_aborts_stale_uploads_and_removes_objects_without_a_job(tmp_path, s3_storage):
    storage = storage_of(tmp_path, s3_storage)
    for job_id in ("val_known", "val_orphan"):
        file = storage.create_upload(job_id)
        file.write(b"glTF")
        file.commit()
    stale = storage.create_upload("val_stale")  # an API node died mid-upload
    stale.write(os.urandom(PART_SIZE))
    stale.flush()
    (storage.work_folder("val_killed") / "tmp").mkdir(parents=True)  # a worker died mid-job

    storage.sweep_orphans(lambda ids: ["val_known"], idle_seconds=3600)
    assert keys_in(s3_storage) == [
        "assetcheck/jobs/val_known/upload",
        "assetcheck/jobs/val_orphan/upload",
    ]  # not idle yet
    assert storage.work_folder("val_killed").exists()
    # (moto reports one fixed, long past start for every multipart upload: it is always stale)
    swept = storage.sweep_orphans(lambda ids: [i for i in ids if i == "val_known"], idle_seconds=0)
    assert "val_orphan" in swept
    assert keys_in(s3_storage) == ["assetcheck/jobs/val_known/upload"]
    assert open_multipart_uploads(s3_storage) == []
    assert not storage.work_folder("val_killed").exists()


def test_an_unreachable_bucket_is_storage_unavailable_and_readyz_says_so(
    tmp_path, s3_storage, database_factory
):
    missing = {**s3_storage, "bucket": "no-such-bucket"}
    with pytest.raises(StorageUnavailable, match="no-such-bucket"):
        storage_of(tmp_path, missing).check()
    settings = service_settings(
        tmp_path, database_factory("sqlite"), storage=missing, workers={"processes": 0}
    )
    server = ServiceProcess(write_config(tmp_path, settings)).start()
    try:
        answer = requests.get(f"{server.url}/readyz", timeout=10)
        assert answer.status_code == 503
        body = answer.json()
        assert body["status"] == "unavailable"
        assert body["checks"] == {"database": "ok", "storage": "unavailable"}
        assert body["warnings"][0]["code"] == "NO_WORKERS"
        assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200
    finally:
        server.stop()
    assert "no-such-bucket" in server.log() and "moto-secret-never-logged" not in server.log()


@pytest.fixture
def two_nodes(tmp_path, s3_storage, database_factory):
    """An API node without workers and a worker node, each with its own empty data
    directory: they share the PostgreSQL database and the bucket, nothing else."""
    database = database_factory("postgresql")
    nodes = {}
    for name, processes in (("api", 0), ("worker", 2)):
        folder = tmp_path / name
        folder.mkdir()
        settings = service_settings(
            folder,
            database,
            storage=s3_storage,
            server={"secret_key": SECRET_KEY},
            workers={"processes": processes, "lease_seconds": 2},
        )
        nodes[name] = write_config(folder, settings)
    api = ServiceProcess(nodes["api"]).start()
    workers = ServiceProcess(nodes["worker"], command="worker").start()
    yield api, workers
    for node in (workers, api):
        if node.process.poll() is None:
            node.stop()


def pro_account(api: ServiceProcess) -> tuple[str, str]:
    bind_database(api.config)
    email = f"{secrets.token_hex(6)}@example.com"
    account = create_account(email, "pro", list(api.config.plans), PASSWORD)
    return email, issue_key(account, "test")[1]


def test_an_api_node_and_a_worker_node_sharing_only_postgresql_and_a_bucket_run_100_jobs(
    two_nodes, s3_storage, glb, tmp_path
):
    api, _ = two_nodes
    email, key = pro_account(api)
    answers = [upload(api.url, key, glb, filename=f"tiny-{n}.glb") for n in range(99)]
    answers.append(upload(api.url, key, pawn_glb(), filename="pawn.glb"))
    assert [a.status_code for a in answers] == [202] * 100
    job_ids = [a.json()["job_id"] for a in answers]

    done = wait_until(
        lambda: Job.select().where(Job.status == COMPLETED).count() == 100, timeout=240
    )
    assert done, Counter(job.status for job in Job.select(Job.status))
    assert {job.attempts for job in Job.select(Job.attempts)} == {1}
    uploads = [key for key in keys_in(s3_storage) if key.endswith("/upload")]
    assert uploads == sorted(f"assetcheck/jobs/{job_id}/upload" for job_id in job_ids)
    assert open_multipart_uploads(s3_storage) == []
    assert not (tmp_path / "api" / "data" / "jobs").exists()  # nothing on the API node's disk
    assert not list((tmp_path / "worker" / "data" / "work").iterdir())  # scratch removed

    pawn = job_ids[-1]
    folder = f"assetcheck/jobs/{pawn}/previews/"
    kept = {
        kind: folder + model_file_name(kind, "pawn.glb")
        for kind in ("preview", "viewer_model", "overlays")
    }
    assert keys_in(s3_storage, f"jobs/{pawn}/previews/") == sorted(kept.values())
    visitor = Visitor(api.url)
    assert visitor.log_in(email).status_code == 302
    page = visitor.get(f"/jobs/{pawn}").text
    bucket = s3_client(s3_storage["endpoint_url"])
    for kind, path in (
        ("preview", "previews/0.png"),
        ("viewer_model", "models/0.glb"),
        ("overlays", "models/0.json"),
    ):
        served = visitor.get(f"/jobs/{pawn}/{path}")
        stored = bucket.get_object(Bucket=s3_storage["bucket"], Key=kept[kind])["Body"].read()
        assert served.status_code == 200 and served.content == stored, path
    assert f"/jobs/{pawn}/previews/0.png" in page
    report = requests.get(f"{api.url}/api/v1/report/{pawn}/json", headers=bearer(key), timeout=10)
    assert report.status_code == 200 and report.json()["job"]["job_id"] == pawn

    assert (
        requests.delete(
            f"{api.url}/api/v1/validate/{pawn}", headers=bearer(key), timeout=10
        ).status_code
        == 204
    )
    assert keys_in(s3_storage, f"jobs/{pawn}/") == []
    assert (
        requests.get(
            f"{api.url}/api/v1/validate/{pawn}", headers=bearer(key), timeout=10
        ).status_code
        == 404
    )
    assert visitor.get(f"/jobs/{pawn}/previews/0.png").status_code == 404


def test_a_worker_killed_with_sigkill_mid_job_loses_no_job(two_nodes, glb):
    api, _ = two_nodes
    _, key = pro_account(api)
    job_id = upload(api.url, key, glb, filename="slow-3.glb").json()["job_id"]
    assert wait_for_job(api.url, key, job_id, ("processing",))["status"] == "processing"
    owner = Job.get_by_id(job_id).lease_owner  # "<host>:<pid>" of the worker process
    os.kill(int(owner.rsplit(":", 1)[1]), signal.SIGKILL)  # no hand-back: the lease lapses

    body = wait_for_job(api.url, key, job_id, timeout=60)
    assert body["status"] == "completed"
    assert Job.get_by_id(job_id).attempts == 2


def test_an_unknown_backend_or_a_bucketless_s3_is_a_configuration_error(tmp_path, capsys):
    port = closed_loopback_port()
    for storage, message in (
        ({"backend": "gcs"}, "not one of local, s3"),
        ({"backend": "s3"}, "needs a bucket"),
    ):
        config_path = write_config(tmp_path, service_settings(tmp_path, "", storage=storage))
        with pytest.raises(ConfigError, match=message):
            load_config(config_path)
        assert main(["serve", "--config", str(config_path), "--port", str(port)]) == 2
        assert message in capsys.readouterr().err
        # The socket serve had bound is closed: the port is free at once.
        socket.create_server(("127.0.0.1", port)).close()
