"""Where jobs keep their files: one interface (:class:`JobStorage`), two back-ends chosen by
``[storage] backend``: ``"local"`` (the default: a directory, ``[storage] data_dir``) and
``"s3"`` (S3-compatible object storage, :mod:`assetcheck.service.jobs.storage.s3`). The
configuration checked the back-end's name and keys as it loaded (``config.storage``)."""

from __future__ import annotations

from assetcheck.config.storage import StorageSettings
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

__all__ = [
    "ORPHAN_IDLE_SECONDS",
    "SCRATCH_NAME",
    "UPLOAD_NAME",
    "JobStorage",
    "LocalStorage",
    "StorageUnavailable",
    "UploadFile",
    "open_storage",
    "upload_key",
]


def open_storage(storage: StorageSettings) -> JobStorage:
    """The back-end ``storage`` names. boto3 is imported only for ``"s3"``."""
    if storage.backend == "local":
        return LocalStorage(storage.data_dir)
    from assetcheck.service.jobs.storage.s3 import S3Storage

    return S3Storage(storage)
