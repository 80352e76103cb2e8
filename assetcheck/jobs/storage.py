"""Uploads on disk: ``<data_dir>/jobs/<job_id>/upload``, named by the service, never the client.

The service writes and fsyncs the file before it commits the job's row, so an accepted upload
survives a crash. A crash between the two leaves a folder without a row:
:meth:`sweep_orphans` removes such folders once nothing has touched them for a while. Job
folders are 0700 and uploads 0600, under a ``jobs`` folder of mode 0700
(:mod:`assetcheck.private_files`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from assetcheck.formats.sniff import SNIFF_BYTES
from assetcheck.private_files import create_private_file, private_folder, private_subfolder

UPLOAD_NAME = "upload"
#: The folder, inside a job's, where its validation writes temporary files (``TMPDIR``).
SCRATCH_NAME = "tmp"

#: A folder without a job row is an orphan once nothing in it changed for this long; an upload
#: that is still streaming keeps its file's mtime fresh.
ORPHAN_IDLE_SECONDS = 3600


class UploadFile:
    """A file being received: written as it arrives, hashed, its first bytes kept for sniffing."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.size = 0
        self.head = b""
        self._hash = hashlib.sha256()
        self._handle = os.fdopen(create_private_file(path), "wb")  # closed by commit or close

    def write(self, data: bytes | memoryview) -> None:
        if len(self.head) < SNIFF_BYTES:
            self.head += bytes(data[:SNIFF_BYTES - len(self.head)])
        self._handle.write(data)
        self._hash.update(data)
        self.size += len(data)

    @property
    def sha256(self) -> str:
        return self._hash.hexdigest()

    def commit(self) -> None:
        """Flush the file and its folder entry to disk, then close it (blocking: run it off the
        event loop)."""
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        _fsync_folder(self.path.parent)

    def close(self) -> None:
        self._handle.close()


class UploadStorage:
    """The ``jobs`` folder under ``data_dir``; paths stored in the database are relative to
    ``data_dir``, so nodes may mount shared storage at different places."""

    def __init__(self, data_dir: str | Path) -> None:
        self.data_dir = Path(data_dir)
        self.root = self.data_dir / "jobs"

    def create_upload(self, job_id: str) -> UploadFile:
        """A new job folder (0700) with an empty upload file (0600) in it."""
        private_folder(self.root)
        return UploadFile(private_subfolder(self.root / job_id) / UPLOAD_NAME)

    def scratch_folder(self, job_id: str) -> Path | None:
        """The job's folder of temporary files (0700), empty: what a previous attempt left in
        it is removed first. :meth:`clear_scratch` removes it when the attempt ends. None when
        the job's folder is gone (its upload is missing, so nothing will be read)."""
        self.clear_scratch(job_id)
        try:
            return private_subfolder(self.root / job_id / SCRATCH_NAME)
        except FileNotFoundError:
            return None

    def clear_scratch(self, job_id: str) -> None:
        """Remove the job's temporary files, even those of a validation that was killed."""
        shutil.rmtree(self.root / job_id / SCRATCH_NAME, ignore_errors=True)

    def stored_path(self, upload: UploadFile) -> str:
        return upload.path.relative_to(self.data_dir).as_posix()

    def resolve(self, stored_path: str) -> Path:
        return self.data_dir / stored_path

    def discard(self, job_id: str) -> None:
        """Remove a job's folder and everything in it (an upload that was refused)."""
        shutil.rmtree(self.root / job_id, ignore_errors=True)

    def sweep_orphans(
        self,
        existing: Callable[[list[str]], Iterable[str]],
        idle_seconds: float = ORPHAN_IDLE_SECONDS,
    ) -> list[str]:
        """Remove idle job folders whose id ``existing(ids)`` does not return; returns them."""
        if not self.root.is_dir():
            return []
        cutoff = time.time() - idle_seconds
        idle = [folder.name for folder in self.root.iterdir()
                if folder.is_dir() and _last_change(folder) < cutoff]
        known = set(existing(idle)) if idle else set()
        orphans = [job_id for job_id in idle if job_id not in known]
        for job_id in orphans:
            self.discard(job_id)
        return orphans


def _last_change(folder: Path) -> float:
    try:
        return max(entry.stat().st_mtime for entry in [folder, *folder.iterdir()])
    except FileNotFoundError:  # removed while we looked: nothing to sweep
        return time.time()


def _fsync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
