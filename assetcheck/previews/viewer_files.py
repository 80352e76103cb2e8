"""The files of the job page's 3D viewer, written by the worker beside the preview pictures:
per model file, the GLB the browser loads and the overlays of its issues
(:mod:`assetcheck.previews.job_files` says where)."""

from __future__ import annotations

import json
from pathlib import Path

from assetcheck.asset import Asset
from assetcheck.formats.source import SourceFile
from assetcheck.previews.job_files import link_whole, model_file_path, write_whole
from assetcheck.previews.overlays import model_overlays
from assetcheck.previews.viewer_glb import fbx_viewer_glb, gltf_viewer_glb, shown_as_uploaded


def write_viewer_files(asset: Asset, source: SourceFile, job_folder: Path) -> None:
    """Write the viewer's GLB and overlays of the model file ``source`` read as ``asset``. A
    GLB the browser can load as uploaded is linked, not copied."""
    model = model_file_path(job_folder, "viewer_model", source.name)
    if asset.fbx is not None:
        write_whole(model, fbx_viewer_glb(asset.fbx))
    elif shown_as_uploaded(asset, source):
        link_whole(model, source.path)
    else:
        write_whole(model, gltf_viewer_glb(asset, source))
    overlays = json.dumps(model_overlays(asset), separators=(",", ":"), allow_nan=False)
    write_whole(model_file_path(job_folder, "overlays", source.name), overlays.encode())
