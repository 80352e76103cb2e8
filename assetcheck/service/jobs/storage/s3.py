"""S3-compatible object storage (AWS S3, MinIO, Ceph RGW...) through boto3: ``[storage]
backend = "s3"`` with ``bucket``, ``prefix``, ``endpoint_url`` and ``region``.

Objects are named ``<prefix>jobs/<job_id>/upload`` and ``<prefix>jobs/<job_id>/previews/...``.
Credentials come from boto3's usual chain (``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``,
``AWS_PROFILE`` and the shared files, an instance role); the service never reads, logs or
echoes them.

An upload streams into a multipart upload, :data:`PART_SIZE` bytes at a time: the API node
holds at most one part in memory and nothing on its disk. A file smaller than one part is sent
with one ``PutObject`` at the end. A refused or abandoned upload aborts its multipart upload;
the sweeper aborts those an API node that died left behind. A worker fetches the upload into
``<data_dir>/work/<job_id>/`` on its own node, validates it there, stores the preview pictures
back in the bucket and removes the folder.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

import boto3
from botocore.config import Config as BotoConfig
from botocore.exceptions import BotoCoreError, ClientError

from assetcheck.config.storage import StorageSettings
from assetcheck.previews import PREVIEW_FOLDER
from assetcheck.previews.job_files import CONTENT_TYPES
from assetcheck.service.jobs.storage.base import (
    ORPHAN_IDLE_SECONDS,
    UPLOAD_NAME,
    JobStorage,
    StorageUnavailable,
    UploadFile,
)
from assetcheck.service.jobs.storage.local import last_change
from assetcheck.service.private_files import create_private_file, private_folder, private_subfolder

#: Bytes of an upload held in memory before they are sent as one part (S3's minimum is 5 MiB).
PART_SIZE = 8 << 20
#: Bytes read from the bucket at a time while a worker fetches an upload.
FETCH_CHUNK = 1 << 20
#: S3's limit of keys in one ``DeleteObjects`` request.
DELETE_BATCH = 1000
_MISSING = frozenset({"NoSuchKey", "404", "NotFound"})


class S3Storage(JobStorage):
    """Job files as objects of one bucket, and every failure to reach the bucket raised as
    :class:`StorageUnavailable`.

    Clients are made per process (a forked validation child makes its own, sharing no
    connection), from one boto3 session made here, before any fork: its loaded service model
    makes a child's client cost milliseconds instead of a third of a second.
    """

    name = "s3"
    remote = True

    def __init__(self, settings: StorageSettings) -> None:
        super().__init__(settings.data_dir)
        self.settings = settings
        self.bucket = settings.bucket
        prefix = settings.prefix.strip("/")
        self.key_prefix = f"{prefix}/" if prefix else ""
        self._session = boto3.session.Session()
        self._lock = threading.Lock()  # boto3 sessions are not thread-safe
        self._clients: dict[tuple[int, bool], Any] = {}
        self.client()

    def client(self, *, quick: bool = False) -> Any:
        """This process's client; ``quick`` fails fast (one try, short timeouts), for probes."""
        key = (os.getpid(), quick)
        with self._lock:
            if key not in self._clients:
                self._clients = {k: v for k, v in self._clients.items() if k[0] == key[0]}
                self._clients[key] = _make_client(self._session, self.settings, quick)
            return self._clients[key]

    def key(self, name: str) -> str:
        return self.key_prefix + name

    def _job_prefix(self, job_id: str) -> str:
        return self.key(f"jobs/{job_id}/")

    # Uploads ----------------------------------------------------------------------------

    def create_upload(self, job_id: str) -> S3Upload:
        return S3Upload(job_id, self)

    # Validation -------------------------------------------------------------------------

    def work_folder(self, job_id: str) -> Path:
        return self.data_dir / "work" / job_id

    def scratch_folder(self, job_id: str) -> Path | None:
        self.clear_scratch(job_id)
        private_folder(self.data_dir / "work")
        return private_subfolder(private_subfolder(self.work_folder(job_id)) / "tmp")

    def clear_scratch(self, job_id: str) -> None:
        """Remove the whole working folder: the fetched upload and the drawn previews too."""
        shutil.rmtree(self.work_folder(job_id), ignore_errors=True)

    def checkout(self, stored_path: str, job_id: str, size: int) -> Path:
        target = self.work_folder(job_id) / UPLOAD_NAME
        with _s3_errors(f"fetching the upload of {job_id}"):
            try:
                answer = self.client().get_object(Bucket=self.bucket, Key=self.key(stored_path))
            except ClientError as error:
                if _code(error) in _MISSING:
                    raise FileNotFoundError(errno.ENOENT, "No such object", stored_path) from None
                raise
            received = 0
            with os.fdopen(create_private_file(target, exclusive=False), "wb") as file:
                for chunk in answer["Body"].iter_chunks(FETCH_CHUNK):
                    received += len(chunk)
                    if received > size:
                        raise OSError(
                            errno.EFBIG,
                            f"the stored upload is larger than the {size} bytes received",
                        )
                    file.write(chunk)
        return target

    def keep_previews(self, job_id: str) -> int:
        folder = self.drawing_folder(job_id) / PREVIEW_FOLDER
        files = (
            sorted(path for path in folder.iterdir() if path.suffix in CONTENT_TYPES)
            if folder.is_dir()
            else []
        )
        with _s3_errors(f"storing the previews of {job_id}"):
            for path in files:  # a viewer model may be large: streamed, in parts if need be
                self.client().upload_file(
                    str(path),
                    self.bucket,
                    self._job_prefix(job_id) + f"{PREVIEW_FOLDER}/{path.name}",
                    ExtraArgs={"ContentType": CONTENT_TYPES[path.suffix]},
                )
        return sum(path.stat().st_size for path in files)

    # Serving and removal ----------------------------------------------------------------

    def preview_sizes(self, job_id: str) -> dict[str, int]:
        prefix = self._job_prefix(job_id) + f"{PREVIEW_FOLDER}/"
        return {item["Key"][len(prefix) :]: item["Size"] for item in self._objects(prefix)}

    def read_preview(self, job_id: str, name: str) -> bytes | None:
        opened = self.open_preview(job_id, name)
        if opened is None:
            return None
        body, _ = opened
        with _s3_errors(f"reading a preview of {job_id}"), contextlib.closing(body):
            return body.read()

    def open_preview(self, job_id: str, name: str) -> tuple[BinaryIO, int] | None:
        key = self._job_prefix(job_id) + f"{PREVIEW_FOLDER}/{name}"
        with _s3_errors(f"reading a preview of {job_id}"):
            try:
                answer = self.client().get_object(Bucket=self.bucket, Key=key)
            except ClientError as error:
                if _code(error) in _MISSING:
                    return None
                raise
        return answer["Body"], answer["ContentLength"]

    def delete_job(self, job_id: str) -> None:
        prefix = self._job_prefix(job_id)
        self._delete_keys([item["Key"] for item in self._objects(prefix)])
        for upload in self._multipart_uploads(prefix):
            self.abort_multipart(upload["Key"], upload["UploadId"])

    def sweep_orphans(
        self,
        existing: Callable[[list[str]], Iterable[str]],
        idle_seconds: float = ORPHAN_IDLE_SECONDS,
    ) -> list[str]:
        """Abort multipart uploads idle for ``idle_seconds`` (an API node died mid-upload),
        delete the objects of idle jobs that have no row, and remove this node's idle
        working folders (a worker was killed mid-job)."""
        cutoff = datetime.now(UTC) - timedelta(seconds=idle_seconds)
        prefix = self.key("jobs/")
        swept = set()
        for upload in self._multipart_uploads(prefix):
            if upload["Initiated"] < cutoff:
                self.abort_multipart(upload["Key"], upload["UploadId"])
                swept.add(self._job_id(upload["Key"], prefix))
        newest: dict[str, datetime] = {}
        for item in self._objects(prefix):
            job_id = self._job_id(item["Key"], prefix)
            newest[job_id] = max(item["LastModified"], newest.get(job_id, item["LastModified"]))
        idle = [job_id for job_id, moment in newest.items() if moment < cutoff]
        swept.update(self._delete_orphans(idle, existing))
        self._sweep_work_folders(time.time() - idle_seconds)
        return sorted(swept)

    def check(self) -> None:
        with _s3_errors(f"reaching the bucket {self.bucket}"):
            self.client(quick=True).head_bucket(Bucket=self.bucket)

    # Listing ----------------------------------------------------------------------------

    def _objects(self, prefix: str) -> Iterator[dict[str, Any]]:
        return self._listing("list_objects_v2", "Contents", prefix, f"listing {prefix}")

    def _multipart_uploads(self, prefix: str) -> Iterator[dict[str, Any]]:
        return self._listing(
            "list_multipart_uploads",
            "Uploads",
            prefix,
            f"listing the multipart uploads of {prefix}",
        )

    def _listing(
        self, operation: str, entries: str, prefix: str, doing: str
    ) -> Iterator[dict[str, Any]]:
        """The ``entries`` of every page the listing ``operation`` gives under ``prefix``;
        a failure is :class:`StorageUnavailable` about ``doing``."""
        with _s3_errors(doing):
            pages = (
                self.client().get_paginator(operation).paginate(Bucket=self.bucket, Prefix=prefix)
            )
            for page in pages:
                yield from page.get(entries, ())

    def _delete_keys(self, keys: list[str]) -> None:
        with _s3_errors("deleting objects"):
            for start in range(0, len(keys), DELETE_BATCH):
                batch = [{"Key": key} for key in keys[start : start + DELETE_BATCH]]
                self.client().delete_objects(
                    Bucket=self.bucket, Delete={"Objects": batch, "Quiet": True}
                )

    def abort_multipart(self, key: str, upload_id: str) -> None:
        """Abort a multipart upload: the bucket drops its parts."""
        with _s3_errors("aborting a multipart upload"):
            try:
                self.client().abort_multipart_upload(
                    Bucket=self.bucket, Key=key, UploadId=upload_id
                )
            except ClientError as error:
                if _code(error) != "NoSuchUpload":  # aborted or completed meanwhile
                    raise

    @staticmethod
    def _job_id(key: str, prefix: str) -> str:
        return key[len(prefix) :].split("/", 1)[0]

    def _sweep_work_folders(self, cutoff: float) -> None:
        root = self.data_dir / "work"
        if root.is_dir():
            for folder in root.iterdir():
                if folder.is_dir() and last_change(folder) < cutoff:
                    shutil.rmtree(folder, ignore_errors=True)


class S3Upload(UploadFile):
    """An upload streamed to the bucket: parts of :data:`PART_SIZE` bytes as it arrives, or
    one ``PutObject`` when it is smaller than a part."""

    def __init__(self, job_id: str, storage: S3Storage) -> None:
        super().__init__(job_id)
        self.storage = storage
        self.object_key = storage.key(self.stored_path)
        self._buffer = bytearray()
        self._upload_id: str | None = None
        self._parts: list[dict[str, Any]] = []
        self._stored = False

    def _store(self, data: bytes | memoryview) -> None:
        self._buffer += data

    @property
    def needs_flush(self) -> bool:
        return len(self._buffer) >= PART_SIZE

    def flush(self) -> None:
        client, bucket = self.storage.client(), self.storage.bucket
        with _s3_errors("storing an upload"):
            if self._upload_id is None:
                self._upload_id = client.create_multipart_upload(
                    Bucket=bucket, Key=self.object_key
                )["UploadId"]
            number = len(self._parts) + 1
            answer = client.upload_part(
                Bucket=bucket,
                Key=self.object_key,
                PartNumber=number,
                UploadId=self._upload_id,
                Body=self._buffer,
            )
        self._parts.append({"ETag": answer["ETag"], "PartNumber": number})
        self._buffer = bytearray()  # sent as it is, never copied

    def commit(self) -> None:
        client, bucket = self.storage.client(), self.storage.bucket
        with _s3_errors("storing an upload"):
            if self._upload_id is None:
                client.put_object(Bucket=bucket, Key=self.object_key, Body=self._buffer)
            else:
                if self._buffer:
                    self.flush()
                client.complete_multipart_upload(
                    Bucket=bucket,
                    Key=self.object_key,
                    UploadId=self._upload_id,
                    MultipartUpload={"Parts": self._parts},
                )
        self._buffer = bytearray()
        self._stored = True

    def abort(self) -> None:
        self._buffer = bytearray()
        if self._upload_id is not None and not self._stored:
            self.storage.abort_multipart(self.object_key, self._upload_id)
        if self._stored:
            self.storage.delete_job(self.job_id)


def _make_client(session: boto3.session.Session, settings: StorageSettings, quick: bool) -> Any:
    options: dict[str, Any] = {
        "retries": {"mode": "standard", "max_attempts": 1 if quick else 3},
        "connect_timeout": 2 if quick else 5,
        "read_timeout": 5 if quick else 60,
    }
    if settings.endpoint_url:  # MinIO-style servers want bucket names in the path
        options["s3"] = {"addressing_style": "path"}
    return session.client(
        "s3",
        endpoint_url=settings.endpoint_url or None,
        region_name=settings.region or None,
        config=BotoConfig(**options),
    )


@contextlib.contextmanager
def _s3_errors(doing: str) -> Iterator[None]:
    """Turn a failure to reach or use the bucket into :class:`StorageUnavailable`."""
    try:
        yield
    except ClientError as error:
        raise StorageUnavailable(f"object storage refused {doing}: {_code(error)}") from None
    except BotoCoreError as error:
        raise StorageUnavailable(f"object storage failed {doing}: {error}") from None


def _code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))
