"""The default back-end: a local (or shared, mounted) directory, ``<data_dir>/jobs/<job_id>/``.

The service writes and fsyncs the upload before it commits the job's row, so an accepted
upload survives a crash. A crash between the two leaves a folder without a row:
:meth:`LocalStorage.sweep_orphans` removes such folders once nothing has touched them for a
while. Job folders are 0700 and files 0600, under a ``jobs`` folder of mode 0700
(:mod:`assetcheck.service.private_files`). The job's folder is its working folder too: the worker
reads the upload where it is, draws previews in its scratch folder, and moves them beside the
upload once the job completes.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import BinaryIO

from assetcheck.previews import PREVIEW_FOLDER
from assetcheck.service.jobs.storage.base import (
    ORPHAN_IDLE_SECONDS,
    UPLOAD_NAME,
    JobStorage,
    StorageUnavailable,
    UploadFile,
)
from assetcheck.service.private_files import create_private_file, private_folder, private_subfolder


class LocalUpload(UploadFile):
    """An upload written to its job's folder as it arrives."""

    def __init__(self, job_id: str, folder: Path) -> None:
        super().__init__(job_id)
        self.folder = folder
        self.path = folder / "upload"
        self._handle = os.fdopen(create_private_file(self.path), "wb")  # closed by commit/abort

    def _store(self, data: bytes | memoryview) -> None:
        self._handle.write(data)

    def flush(self) -> None:
        """Nothing to send: every write went to the file already."""

    def commit(self) -> None:
        """Flush the file and its folder entry to disk, then close it."""
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self._handle.close()
        _fsync_folder(self.folder)

    def abort(self) -> None:
        self._handle.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class LocalStorage(JobStorage):
    """The ``jobs`` folder under ``data_dir``. Stored paths are relative to ``data_dir``, so
    nodes may mount shared storage at different places."""

    name = "local"

    def __init__(self, data_dir: str | Path) -> None:
        super().__init__(data_dir)
        self.root = self.data_dir / "jobs"

    def create_upload(self, job_id: str) -> LocalUpload:
        """A new job folder (0700) with an empty upload file (0600) in it."""
        private_folder(self.root)
        return LocalUpload(job_id, private_subfolder(self.root / job_id))

    def work_folder(self, job_id: str) -> Path:
        return self.root / job_id

    def checkout(self, stored_path: str, job_id: str, size: int) -> Path:
        path = self.data_dir / stored_path
        if not path.is_file():
            raise FileNotFoundError(2, "No such file", str(path))
        return path

    def keep_previews(self, job_id: str) -> int:
        """Move the drawn previews beside the upload; their bytes, less those of a viewer
        model that is a link to the upload (the same bytes on disk)."""
        folder = self.root / job_id
        drawn = self.drawing_folder(job_id) / PREVIEW_FOLDER
        if drawn.is_dir():
            shutil.rmtree(folder / PREVIEW_FOLDER, ignore_errors=True)
            os.replace(drawn, folder / PREVIEW_FOLDER)
        try:
            upload = (folder / UPLOAD_NAME).stat().st_ino
        except FileNotFoundError:
            upload = None
        return sum(
            entry.stat().st_size
            for entry in _preview_entries(folder)
            if entry.stat().st_ino != upload
        )

    def preview_sizes(self, job_id: str) -> dict[str, int]:
        return {entry.name: entry.stat().st_size for entry in _preview_entries(self.root / job_id)}

    def read_preview(self, job_id: str, name: str) -> bytes | None:
        try:
            return (self.root / job_id / PREVIEW_FOLDER / name).read_bytes()
        except FileNotFoundError:
            return None

    def open_preview(self, job_id: str, name: str) -> tuple[BinaryIO, int] | None:
        try:
            handle = (self.root / job_id / PREVIEW_FOLDER / name).open("rb")
        except FileNotFoundError:
            return None
        return handle, os.fstat(handle.fileno()).st_size

    def delete_job(self, job_id: str) -> None:
        shutil.rmtree(self.root / job_id, ignore_errors=True)

    def sweep_orphans(
        self,
        existing: Callable[[list[str]], Iterable[str]],
        idle_seconds: float = ORPHAN_IDLE_SECONDS,
    ) -> list[str]:
        if not self.root.is_dir():
            return []
        cutoff = time.time() - idle_seconds
        idle = [
            folder.name
            for folder in self.root.iterdir()
            if folder.is_dir() and last_change(folder) < cutoff
        ]
        return self._delete_orphans(idle, existing)

    def check(self) -> None:
        try:
            writable = os.access(private_folder(self.data_dir), os.W_OK | os.X_OK)
        except OSError as error:
            raise StorageUnavailable(
                f"the data directory {self.data_dir} cannot be made: {error.strerror}"
            ) from None
        if not writable:
            raise StorageUnavailable(f"the data directory {self.data_dir} is not writable")


def last_change(folder: Path) -> float:
    """The newest modification time of ``folder`` and its entries (now when it vanished)."""
    try:
        return max(entry.stat().st_mtime for entry in [folder, *folder.iterdir()])
    except FileNotFoundError:  # removed while we looked: nothing to sweep
        return time.time()


def _preview_entries(job_folder: Path) -> list[os.DirEntry]:
    """The complete files of the job folder's ``previews/`` (none when it has none)."""
    try:
        with os.scandir(job_folder / PREVIEW_FOLDER) as entries:
            return [
                entry for entry in entries if entry.is_file() and not entry.name.endswith(".part")
            ]
    except FileNotFoundError:
        return []


def _fsync_folder(folder: Path) -> None:
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
