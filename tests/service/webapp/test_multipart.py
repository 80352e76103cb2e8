"""The streaming multipart receiver and the upload storage, fed real request bytes."""

from __future__ import annotations

import hashlib
import os
import time

import pytest

from assetcheck.issues.names import cut_name
from assetcheck.service.jobs.storage import LocalStorage
from assetcheck.service.jobs.storage.base import SWEEP_BATCH
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.multipart import (
    MultipartUpload,
    client_filename,
    disposition_filename,
)
from assetcheck.testing.zip import tiny_glb

BOUNDARY = "XyZ-boundary-123"
CONTENT_TYPE = f"multipart/form-data; boundary={BOUNDARY}"


def body(*parts: tuple[str, str | None, bytes]) -> bytes:
    out = b""
    for name, filename, content in parts:
        disposition = f'form-data; name="{name}"'
        if filename is not None:
            disposition += f'; filename="{filename}"'
        out += f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n\r\n".encode()
        out += content + b"\r\n"
    return out + f"--{BOUNDARY}--\r\n".encode()


def receive(storage: LocalStorage, data: bytes, chunk: int = 7, limit: int = 1 << 20):
    """``data`` fed to an upload ``chunk`` bytes at a time; a refused body's file is aborted,
    as the service does."""
    upload = MultipartUpload(CONTENT_TYPE, lambda: storage.create_upload("val_test"), limit)
    try:
        for start in range(0, len(data), chunk):
            upload.feed(data[start : start + chunk])
    except RequestError:
        abort(upload)
        raise
    return upload


def abort(upload: MultipartUpload) -> None:
    if upload.file is not None:
        upload.file.abort()


@pytest.fixture
def storage(tmp_path) -> LocalStorage:
    return LocalStorage(tmp_path)


def test_the_file_part_is_written_and_hashed_whatever_the_chunking(storage):
    glb = tiny_glb() * 50
    data = body(("options", None, b'{"engine": "web"}'), ("file", "m.glb", glb))
    for chunk in (1, 3, 64, len(data)):
        storage.delete_job("val_test")
        upload = receive(storage, data, chunk)
        file = upload.finish()
        file.commit()
        assert file.path.read_bytes() == glb
        assert file.sha256 == hashlib.sha256(glb).hexdigest() and file.size == len(glb)
        assert file.head == glb[:4096] and upload.filename == "m.glb"
        assert upload.options == b'{"engine": "web"}'


def test_other_parts_are_skipped_and_only_the_first_file_part_counts(storage):
    upload = receive(
        storage,
        body(("note", None, b"hello"), ("file", "a.glb", b"first"), ("file", "b.glb", b"second")),
    )
    file = upload.finish()
    file.commit()
    assert file.path.read_bytes() == b"first" and upload.filename == "a.glb"


def test_a_file_over_the_limit_raises_file_too_large_while_streaming(storage):
    with pytest.raises(RequestError) as raised:
        receive(storage, body(("file", "big.glb", b"x" * 5000)), chunk=1000, limit=4096)
    assert (raised.value.status_code, raised.value.code) == (413, "FILE_TOO_LARGE")


@pytest.mark.parametrize(
    "data",
    [
        body(("options", None, b"{}")),
        body(("file", "cut.glb", b"glTF"))[:-20],
    ],
    ids=["no file part", "no closing boundary"],
)
def test_a_body_without_a_complete_file_is_missing_file(storage, data):
    upload = receive(storage, data)
    with pytest.raises(RequestError) as raised:
        upload.finish()
    abort(upload)
    assert raised.value.code == "MISSING_FILE"


def test_an_empty_file_part_is_received_for_the_handler_to_judge(storage):
    upload = receive(storage, body(("file", "empty.glb", b"")))
    file = upload.finish()
    abort(upload)
    assert (file.size, file.head, upload.filename) == (0, b"", "empty.glb")


@pytest.mark.parametrize("content_type", [None, "application/json", "multipart/form-data"])
def test_a_request_that_is_not_multipart_with_a_boundary_is_missing_file(storage, content_type):
    with pytest.raises(RequestError) as raised:
        MultipartUpload(content_type, lambda: storage.create_upload("val_x"), 100)
    assert raised.value.code == "MISSING_FILE"


def test_oversized_options_are_invalid_options(storage):
    with pytest.raises(RequestError) as raised:
        receive(storage, body(("options", None, b" " * 20_000), ("file", "a", b"glTF")), 4096)
    assert raised.value.code == "INVALID_OPTIONS"


@pytest.mark.parametrize(
    ("raw", "name"),
    [
        (b"model.glb", "model.glb"),
        (b"../../etc/passwd", "passwd"),
        (b"C:\\Users\\me\\scene.fbx", "scene.fbx"),
        (b"bad\x00\x1bname.glb", "badname.glb"),
        (b"..", "upload"),
        (None, "upload"),
        ("mod\u00e8le.glb".encode(), "mod\u00e8le.glb"),
        (b"a" * 300 + b".glb", cut_name("a" * 300 + ".glb")),
    ],
)
def test_client_filenames_are_reduced_to_a_printable_last_segment(raw, name):
    assert client_filename(raw) == name


@pytest.mark.parametrize(
    ("disposition", "name"),
    [
        (b'form-data; name="file"; filename="plain.glb"', b"plain.glb"),
        (
            b'form-data; name="file"; filename="m_le.glb"; filename*=UTF-8\'\'m%C3%A8le.glb',
            "m\u00e8le.glb".encode(),
        ),
        (b"form-data; name=\"file\"; filename*=utf-8'fr'%E2%9C%93.glb", "\u2713.glb".encode()),
        (b"form-data; name=\"file\"; filename*=iso-8859-1''caf%E9.fbx", "caf\u00e9.fbx".encode()),
        (b'form-data; name="file"; filename="kept.glb"; filename*=koi8-r\'\'%C1.glb', b"kept.glb"),
        (b'form-data; name="file"', None),
    ],
)
def test_filename_star_wins_over_filename_in_utf_8_and_latin_1(disposition, name):
    assert disposition_filename(disposition) == name


def test_the_sweeper_removes_idle_folders_without_a_job_and_keeps_the_rest(storage):
    for job_id in ("val_orphan", "val_known", "val_fresh"):
        file = storage.create_upload(job_id)
        file.write(b"glTF")
        file.commit()
    old = time.time() - 7200
    for job_id in ("val_orphan", "val_known"):
        folder = storage.root / job_id
        os.utime(folder / "upload", (old, old))
        os.utime(folder, (old, old))
    removed = storage.sweep_orphans(lambda ids: [i for i in ids if i == "val_known"])
    assert removed == ["val_orphan"]
    assert sorted(p.name for p in storage.root.iterdir()) == ["val_fresh", "val_known"]


def test_the_sweeper_asks_about_a_bounded_number_of_job_ids_at_a_time(storage):
    old = time.time() - 7200
    job_ids = [f"val_{n:04d}" for n in range(SWEEP_BATCH + 1)]
    for job_id in job_ids:
        folder = storage.root / job_id
        folder.mkdir(parents=True)
        os.utime(folder, (old, old))
    asked: list[int] = []

    def existing(ids: list[str]) -> list[str]:
        asked.append(len(ids))
        return [i for i in ids if i != "val_0000"]

    assert storage.sweep_orphans(existing) == ["val_0000"]
    assert sorted(asked) == [1, SWEEP_BATCH]
    assert len(list(storage.root.iterdir())) == SWEEP_BATCH
