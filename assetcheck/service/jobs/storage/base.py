"""What every storage back-end offers: the contract the upload handler, the worker, the pages
and the scheduler rely on, whatever holds the files.

A job stores an upload and, per model file, its preview picture and the 3D viewer's model and
overlays (:mod:`assetcheck.previews.job_files`), under names that mirror one layout in every
back-end: ``jobs/<job_id>/upload`` (the job row's ``stored_path``) and
``jobs/<job_id>/previews/<name>``. The JSON report is stored in the job's row.
"""

from __future__ import annotations

import hashlib
import shutil
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from assetcheck.formats.registry import SNIFF_BYTES
from assetcheck.service.private_files import private_subfolder

UPLOAD_NAME = "upload"
#: The folder, inside a job's working folder, where its validation writes temporary files.
SCRATCH_NAME = "tmp"

#: Stored files without a job row are orphans once nothing in them changed for this long; an
#: upload that is still streaming keeps its file (or its multipart upload) fresh.
ORPHAN_IDLE_SECONDS = 3600
#: Job ids asked of the database at a time while sweeping.
SWEEP_BATCH = 500


class StorageUnavailable(Exception):
    """The back-end cannot be reached or refused a request; the message says why (never with
    a credential)."""


def upload_key(job_id: str) -> str:
    """The stored name of a job's upload, relative to the back-end's root."""
    return f"jobs/{job_id}/{UPLOAD_NAME}"


class UploadFile(ABC):
    """A file being received: stored as it arrives, hashed, its first bytes kept for sniffing.

    :meth:`write` never blocks on the network; when :attr:`needs_flush` is true the caller
    runs :meth:`flush` off the event loop before feeding more. :meth:`commit` makes the file
    durable and :meth:`abort` removes whatever was stored (both blocking).
    """

    def __init__(self, job_id: str) -> None:
        self.job_id = job_id
        self.stored_path = upload_key(job_id)
        self.size = 0
        self.head = b""
        self._hash = hashlib.sha256()

    def write(self, data: bytes | memoryview) -> None:
        if len(self.head) < SNIFF_BYTES:
            self.head += bytes(data[: SNIFF_BYTES - len(self.head)])
        self._hash.update(data)
        self.size += len(data)
        self._store(data)

    @property
    def sha256(self) -> str:
        return self._hash.hexdigest()

    @property
    def needs_flush(self) -> bool:
        return False

    @abstractmethod
    def flush(self) -> None:
        """Send what is buffered (blocking)."""

    @abstractmethod
    def _store(self, data: bytes | memoryview) -> None: ...

    @abstractmethod
    def commit(self) -> None:
        """Make the whole file durable (blocking: run it off the event loop)."""

    @abstractmethod
    def abort(self) -> None:
        """Drop the file and everything stored of it (blocking)."""


class JobStorage(ABC):
    """Where jobs keep their files. ``data_dir`` is the node's own folder: every back-end
    validates in a working folder under it, which the worker removes after each attempt.

    ``remote`` is true when calls may wait on the network (handlers then run them on the
    thread pool rather than the event loop).
    """

    name = ""
    remote = False

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)

    # Uploads (the API node) ------------------------------------------------------------------

    @abstractmethod
    def create_upload(self, job_id: str) -> UploadFile:
        """A new, empty upload of the job ``job_id``."""

    # Validation (the worker and its child) ---------------------------------------------------

    @abstractmethod
    def work_folder(self, job_id: str) -> Path:
        """The folder on this node where the job is validated: its upload is read there and
        its previews are drawn there (``previews/``)."""

    def scratch_folder(self, job_id: str) -> Path | None:
        """The job's folder of temporary files (0700), empty: what a previous attempt left in
        it is removed first. None when the job's working folder cannot be made."""
        self.clear_scratch(job_id)
        try:
            return private_subfolder(self.work_folder(job_id) / SCRATCH_NAME)
        except FileNotFoundError:
            return None

    def clear_scratch(self, job_id: str) -> None:
        """Remove the job's temporary files, even those of a validation that was killed."""
        shutil.rmtree(self.work_folder(job_id) / SCRATCH_NAME, ignore_errors=True)

    @abstractmethod
    def checkout(self, stored_path: str, job_id: str, size: int) -> Path:
        """The job's upload as a file of this node, in its working folder, refusing more than
        the ``size`` bytes recorded at upload. ``FileNotFoundError`` when it is gone;
        :class:`StorageUnavailable` when the back-end cannot be reached."""

    def drawing_folder(self, job_id: str) -> Path:
        """The folder in whose ``previews/`` the job's validation draws (pictures, viewer
        models and overlays): its scratch folder, which the worker removes after every
        attempt, so only a completed job's :meth:`keep_previews` keeps them."""
        return self.work_folder(job_id) / SCRATCH_NAME

    @abstractmethod
    def keep_previews(self, job_id: str) -> int:
        """Store the files drawn in the drawing folder's ``previews/``; the bytes this stores
        beside the upload, which count toward the account's quota."""

    # Serving and removal -----------------------------------------------------------------

    @abstractmethod
    def preview_sizes(self, job_id: str) -> dict[str, int]:
        """The names of the job's stored preview files, with their sizes in bytes."""

    @abstractmethod
    def read_preview(self, job_id: str, name: str) -> bytes | None:
        """The preview file ``name`` of the job, whole, or None when it has none by that name:
        for small files (pictures, overlays)."""

    @abstractmethod
    def open_preview(self, job_id: str, name: str) -> tuple[BinaryIO, int] | None:
        """The preview file ``name`` of the job opened for streaming, with its size, or None
        when it has none by that name: for files as large as a model. The caller closes it;
        reads may block on the network."""

    @abstractmethod
    def delete_job(self, job_id: str) -> None:
        """Remove everything the job stored (idempotent)."""

    @abstractmethod
    def sweep_orphans(
        self,
        existing: Callable[[list[str]], Iterable[str]],
        idle_seconds: float = ORPHAN_IDLE_SECONDS,
    ) -> list[str]:
        """Remove the idle stored files of jobs whose id ``existing(ids)`` does not return,
        and any other leftovers of an interrupted upload; returns those job ids."""

    def _delete_orphans(
        self, idle: list[str], existing: Callable[[list[str]], Iterable[str]]
    ) -> list[str]:
        """Delete what the jobs in ``idle`` stored unless ``existing(ids)``, asked
        :data:`SWEEP_BATCH` ids at a time, returns their id; returns the deleted ids."""
        orphans = []
        for start in range(0, len(idle), SWEEP_BATCH):
            batch = idle[start : start + SWEEP_BATCH]
            known = set(existing(batch))
            for job_id in batch:
                if job_id not in known:
                    self.delete_job(job_id)
                    orphans.append(job_id)
        return orphans

    @abstractmethod
    def check(self) -> None:
        """Raise :class:`StorageUnavailable` unless the back-end answers and can be written."""
