"""The files of the job page's 3D viewer, written by the worker beside the preview pictures:
per model file, the GLB the browser loads and the overlays of its issues
(:mod:`assetcheck.previews.job_files` says where); for an FBX file, the overlays also list
where its texture findings show (:mod:`assetcheck.previews.fbx_materials`)."""

from __future__ import annotations

import json
from pathlib import Path

from assetcheck.asset import Asset
from assetcheck.formats.source import SourceFile
from assetcheck.previews.budget import ByteBudget
from assetcheck.previews.fbx_materials import ViewerMaterials, viewer_materials
from assetcheck.previews.job_files import link_whole, model_file_path, write_whole
from assetcheck.previews.overlays import model_overlays
from assetcheck.previews.viewer_glb import (
    VIEWER_MODEL,
    gltf_viewer_glb,
    polygon_viewer_glb,
    shown_as_uploaded,
)


def write_viewer_files(
    asset: Asset, source: SourceFile, job_folder: Path, budget: ByteBudget
) -> None:
    """Write the viewer's GLB and overlays of the model file ``source`` read as ``asset``,
    both or neither: :class:`~assetcheck.previews.budget.OverBudget`, with nothing written,
    when they do not fit ``budget``. A GLB the browser can load as uploaded is linked, not
    copied (it still counts in full: object storage keeps it as a copy). An asset with no
    glTF, FBX or OBJ model gets nothing."""
    materials = viewer_materials(asset, source)
    content = _viewer_model(asset, source, budget, materials)
    if content is None:
        return
    model = model_file_path(job_folder, "viewer_model", source.name)
    size = content.stat().st_size if isinstance(content, Path) else len(content)
    shown = model_overlays(asset)
    if materials is not None:
        shown["textures"] = materials.uses
    overlays = json.dumps(shown, separators=(",", ":"), allow_nan=False).encode()
    budget.take(size + len(overlays), VIEWER_MODEL)
    if isinstance(content, Path):
        link_whole(model, content)
    else:
        write_whole(model, content)
    write_whole(model_file_path(job_folder, "overlays", source.name), overlays)


def _viewer_model(
    asset: Asset, source: SourceFile, budget: ByteBudget, materials: ViewerMaterials | None
) -> Path | bytes | None:
    """What the viewer loads: the upload's own file when the browser can load it as it is,
    else a GLB written from the asset's model (an FBX file's with its ``materials``); None
    without a model."""
    if asset.polygon_scene is not None:
        return polygon_viewer_glb(asset.polygon_scene, budget, materials)
    if asset.gltf is None:
        return None
    if source.path is not None and shown_as_uploaded(asset.gltf, source):
        return source.path
    return gltf_viewer_glb(asset.gltf, source, budget)
