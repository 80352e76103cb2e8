"""Where jobs keep their files: one interface (:class:`JobStorage`), two back-ends chosen by
``[storage] backend``: ``"local"`` (the default: a directory, ``[storage] data_dir``) and
``"s3"`` (S3-compatible object storage, :mod:`assetcheck.service.jobs.storage.s3`)."""

from __future__ import annotations

from assetcheck.config import Config, ConfigError
from assetcheck.service.jobs.storage.base import (
    ORPHAN_IDLE_SECONDS,
    SCRATCH_NAME,
    UPLOAD_NAME,
    JobStorage,
    StorageUnavailable,
    UploadFile,
    upload_key,
)
from assetcheck.service.jobs.storage.local import LocalStorage

BACKENDS = ("local", "s3")

__all__ = [
    "BACKENDS",
    "ORPHAN_IDLE_SECONDS",
    "SCRATCH_NAME",
    "UPLOAD_NAME",
    "JobStorage",
    "LocalStorage",
    "StorageConfigError",
    "StorageUnavailable",
    "UploadFile",
    "open_storage",
    "upload_key",
]


class StorageConfigError(ConfigError):
    """``[storage]`` names an unknown back-end or lacks a key the back-end needs."""


def open_storage(config: Config) -> JobStorage:
    """The back-end ``[storage]`` names. boto3 is imported only for ``"s3"``."""
    storage = config["storage"]
    backend = storage.get("backend", "local")
    if backend == "local":
        return LocalStorage(storage["data_dir"])
    if backend != "s3":
        raise StorageConfigError(
            f"[storage] backend = {backend!r} is not one of {', '.join(BACKENDS)}"
        )
    if not storage.get("bucket"):
        raise StorageConfigError('[storage] backend = "s3" needs a bucket')
    from assetcheck.service.jobs.storage.s3 import S3Settings, S3Storage

    return S3Storage(
        storage["data_dir"],
        S3Settings(
            bucket=storage["bucket"],
            prefix=storage.get("prefix", ""),
            endpoint_url=storage.get("endpoint_url", ""),
            region=storage.get("region", ""),
        ),
    )
