"""Where the worker keeps what the job page shows of each model file, and how it writes it.

Everything is written in the ``previews`` folder of the job's drawing folder, and the job's
storage keeps it, once the job completes, beside the upload (``jobs/<job_id>/previews/``), named
by a digest of the model file's name in the upload (never by the name itself), so it lives and
goes with the job:

- ``previews/<digest>.png``: the server-drawn picture (:mod:`assetcheck.previews.drawing`);
- ``previews/<digest>.glb``: the model the page's 3D viewer loads
  (:mod:`assetcheck.previews.viewer_glb`);
- ``previews/<digest>.json``: what the viewer's issue overlays draw
  (:mod:`assetcheck.previews.overlays`).

Every file is written whole under a temporary name, then renamed: a reader never sees half.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from assetcheck.issues.names import cut_name
from assetcheck.previews import PREVIEW_FOLDER

#: The kinds of file kept per model file: ``kind -> suffix``.
KINDS = {"preview": ".png", "viewer_model": ".glb", "overlays": ".json"}
#: The media type of each suffix, as the storage keeps and the pages serve the files.
CONTENT_TYPES = {".png": "image/png", ".glb": "model/gltf-binary", ".json": "application/json"}


def model_file_name(kind: str, model_filename: str) -> str:
    """The stored name of the ``kind`` file of the model file ``model_filename`` (its name in
    the upload, a path inside the archive for ZIP members). The digest is of the name as
    reports keep it (cut to 255 characters), so the worker and the page reading the report
    find the same file."""
    digest = hashlib.sha256(cut_name(model_filename).encode("utf-8", "surrogatepass")).hexdigest()
    return f"{digest[:24]}{KINDS[kind]}"


def model_file_path(job_folder: Path, kind: str, model_filename: str) -> Path:
    """Where the ``kind`` file of ``model_filename`` is written in the job's working folder."""
    return job_folder / PREVIEW_FOLDER / model_file_name(kind, model_filename)


def write_whole(target: Path, data: bytes | memoryview) -> None:
    """Write ``data`` to ``target`` (making its folder), visible only once complete."""
    target.parent.mkdir(exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, target)


def link_whole(target: Path, source: Path) -> None:
    """Make ``target`` the same file as ``source`` (a hard link: no copy on disk), or a copy
    where the file system cannot link."""
    target.parent.mkdir(exist_ok=True)
    partial = target.with_name(target.name + ".part")
    partial.unlink(missing_ok=True)
    try:
        os.link(source, partial)
    except OSError:
        write_whole(target, source.read_bytes())
        return
    os.replace(partial, target)
