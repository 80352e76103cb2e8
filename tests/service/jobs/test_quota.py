"""Every byte a job stores counts toward its account's quota, and what it derives from its
upload is bounded: on a real server and workers, with the local directory and with object
storage (moto's S3 server), on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import os
from pathlib import Path

from assetcheck.engine import validate
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.previews.drawing import PreviewWriter
from assetcheck.reports.document import json_size
from assetcheck.service.db.tables import Account, Job
from assetcheck.service.jobs.queue import COMPLETED, JobQueue
from assetcheck.service.jobs.storage import LocalStorage
from assetcheck.testing.compressed import shared_zeros_meshopt_glb
from assetcheck.testing.gltf import padded_glb
from assetcheck.testing.shapes import pawn_glb
from tests.service.conftest import s3_client
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import ServiceProcess, upload, wait_for_job
from tests.service.jobs.test_object_storage import pro_account
from tests.service.jobs.test_retention import delete, job_folder

#: Six primitives sharing 20 000 vertices at the origin: a 9 KB upload whose viewer model and
#: overlays take about 1 MB.
HOSTILE = shared_zeros_meshopt_glb(20_000, primitives=6)


def stored_bytes(email: str) -> int:
    account = Account.get(Account.email == email)
    return JobQueue(Job._meta.database, lease_seconds=30, workers=1).stored_bytes(account.id)


def bytes_on_disk(folder: Path) -> int:
    """The bytes of the files under ``folder``, each file once however many links it has."""
    files = {}
    for path in folder.rglob("*"):
        if path.is_file():
            status = os.stat(path)
            files[status.st_dev, status.st_ino] = status.st_size
    return sum(files.values())


def completed(server: ServiceProcess, key: str, content: bytes, filename: str) -> dict:
    answer = upload(server.url, key, content, filename=filename)
    assert answer.status_code == 202, answer.text
    body = wait_for_job(server.url, key, answer.json()["job_id"])
    assert body["status"] == COMPLETED
    return body


def test_a_job_past_its_bound_completes_without_its_viewer_files_and_says_why(local_config):
    server = ServiceProcess(
        local_config(storage={"max_derived_ratio": 16, "derived_allowance_mb": 0})
    ).start()
    try:
        email, key = pro_account(server)
        body = completed(server, key, HOSTILE, "hostile.glb")
        visitor = Visitor(server.url)
        assert visitor.log_in(email).status_code == 302
        page = visitor.get(f"/jobs/{body['job_id']}")
    finally:
        server.stop()
    [withheld] = body["previews_withheld"]
    assert withheld["file"] == "hostile.glb"
    assert withheld["reason"].startswith("The 3D viewer's model was not kept: it needs more ")
    assert "(16 times its 9 KB upload plus 0 bytes)" in withheld["reason"]
    folder = job_folder(server, body["job_id"])
    [picture] = (folder / "previews").iterdir()  # the picture fits; the viewer's files do not
    assert picture.suffix == ".png"
    assert bytes_on_disk(folder) - len(HOSTILE) <= 16 * len(HOSTILE)

    job = Job.get_by_id(body["job_id"])
    assert job.derived_bytes == picture.stat().st_size + json_size(job.result)
    assert body["stored_bytes"] == len(HOSTILE) + job.derived_bytes
    assert page.status_code == 200 and withheld["reason"] in html.unescape(page.text)
    assert f"/jobs/{body['job_id']}/previews/0.png" in page.text


def test_every_byte_a_job_stores_counts_toward_the_quota_until_it_is_deleted(local_config):
    server = ServiceProcess(
        local_config(
            plans={"pro": {"max_upload_mb": 2, "max_storage_mb": 2, "requests_per_minute": 100_000}}
        )
    ).start()
    try:
        email, key = pro_account(server)
        first = completed(server, key, HOSTILE, "hostile.glb")
        folder = job_folder(server, first["job_id"])
        on_disk, report = bytes_on_disk(folder), Job.get_by_id(first["job_id"]).result
        kept = stored_bytes(email)
        padded = padded_glb(1_200_000)
        refused = upload(server.url, key, padded)  # the uploads alone would fit
        assert delete(server.url, key, first["job_id"]).status_code == 204
        freed = stored_bytes(email)
        accepted = upload(server.url, key, padded)
    finally:
        server.stop()
    assert "previews_withheld" not in first
    assert kept == first["stored_bytes"] == on_disk + json_size(report)
    assert kept > len(HOSTILE) + 900_000  # the viewer model and overlays count
    assert refused.status_code == 403, kept
    assert refused.json()["code"] == "QUOTA_EXCEEDED"
    assert refused.json()["stored_bytes"] == kept
    assert accepted.status_code == 202 and freed == 0 and not folder.exists()


def test_with_object_storage_the_quota_counts_the_objects_a_job_stores(local_config, s3_storage):
    server = ServiceProcess(local_config(storage=s3_storage)).start()
    bucket = s3_client(s3_storage["endpoint_url"])
    try:
        email, key = pro_account(server)
        body = completed(server, key, pawn_glb(), "pawn.glb")
        job = Job.get_by_id(body["job_id"])
        prefix = f"assetcheck/jobs/{job.id}/"
        objects = bucket.list_objects_v2(Bucket=s3_storage["bucket"], Prefix=prefix)["Contents"]
        kept = stored_bytes(email)
        assert delete(server.url, key, job.id).status_code == 204
        freed = stored_bytes(email)
    finally:
        server.stop()
    # the viewer model is the upload as it is, yet the bucket holds it as an object of its own
    assert {item["Key"][len(prefix) :].split("/")[0] for item in objects} == {"upload", "previews"}
    assert (
        kept
        == body["stored_bytes"]
        == sum(item["Size"] for item in objects) + json_size(job.result)
    )
    assert job.derived_bytes > len(pawn_glb())
    assert freed == 0
    assert "Contents" not in bucket.list_objects_v2(Bucket=s3_storage["bucket"], Prefix=prefix)


def test_previews_drawn_by_an_attempt_are_kept_only_when_the_job_completes(tmp_path):
    storage = LocalStorage(tmp_path / "data")
    upload_file = storage.create_upload("val_drawn")
    upload_file.write(pawn_glb())
    upload_file.commit()
    plugin_manager = get_plugin_manager()
    for completes in (False, True):  # an attempt that fails, then one that completes
        storage.scratch_folder("val_drawn")
        writer = PreviewWriter(storage.drawing_folder("val_drawn"))
        validate(
            upload_file.path, filename="pawn.glb", plugin_manager=plugin_manager, on_checked=writer
        )
        assert writer.written == 1
        kept = storage.keep_previews("val_drawn") if completes else None
        storage.clear_scratch("val_drawn")
        if not completes:
            assert storage.preview_sizes("val_drawn") == {}
    sizes = storage.preview_sizes("val_drawn")
    assert sorted(name.rsplit(".", 1)[1] for name in sizes) == ["glb", "json", "png"]
    # the viewer model is a link to the upload: its bytes are the upload's, counted once
    assert kept == sum(sizes.values()) - len(pawn_glb())
    assert bytes_on_disk(storage.root / "val_drawn") == len(pawn_glb()) + kept
