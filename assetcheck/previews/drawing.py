"""Preview pictures of the model files of an upload, drawn on the server with numpy (no GPU).

The worker draws them right after the validation, in the same child process (so under the
same time and memory limits), into the job's working folder beside the upload; the job's
storage keeps them with the job (:meth:`~assetcheck.jobs.storage.JobStorage.keep_previews`)
and removes them with it. ``validate()`` keeps the asset model but lets go
of the bytes once the checks are done, so the glTF and GLB model files are read again here by
the same readers. glTF triangles come from the glTF data layer
(:mod:`assetcheck.formats.gltf_data`), placed in the scene by the node transforms; FBX
triangles from the FBX reader's decoded geometry, placed by the node transforms (geometric
pivots included) and turned into metres with +Y up by the file's unit and axis system.
From the same reading, each model file drawn also gets the 3D viewer's files
(:mod:`assetcheck.previews.viewer_files`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pluggy

from assetcheck.asset import Asset
from assetcheck.checks.gltf_links import DocumentLinks, document_links, index_of
from assetcheck.checks.transforms import world_matrices
from assetcheck.engine import model_sources
from assetcheck.fbx_model import transform_points
from assetcheck.formats.gltf_data import AccessorReader, primitive_triangles
from assetcheck.formats.source import DirectoryResources, ReadContext, SourceFile, map_file
from assetcheck.issues import IssueCollector
from assetcheck.options import ValidationOptions
from assetcheck.plugins import build_registry
from assetcheck.previews.job_files import model_file_path, write_whole
from assetcheck.previews.png import encode_png
from assetcheck.previews.raster import render_clay
from assetcheck.previews.viewer_files import write_viewer_files

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 480, 360
DRAWN_FORMATS = frozenset({"glb", "gltf", "fbx"})
#: More triangles than this are thinned evenly: a preview needs the silhouette, not every face.
MAX_TRIANGLES = 400_000


def preview_path(job_folder: Path, model_filename: str) -> Path:
    """Where the picture of ``model_filename`` is drawn in the job's working folder."""
    return model_file_path(job_folder, "preview", model_filename)


def write_previews(upload: Path, filename: str, options: ValidationOptions,
                   plugin_manager: pluggy.PluginManager, *, until: float | None = None) -> int:
    """Draw every glTF, GLB and FBX model file of the upload at ``upload`` (reported as
    ``filename``) into the job's folder, with the 3D viewer's files of each; returns how many
    pictures were written.

    A preview is an extra: a model file that cannot be drawn is logged and skipped, none is
    started once ``time.monotonic()`` passes ``until``, and this never raises.
    """
    context = ReadContext(IssueCollector(build_registry(plugin_manager), options.policy), options)
    written = 0
    try:
        with map_file(upload) as data:
            root = SourceFile(filename, data, "", DirectoryResources(upload.parent), path=upload)
            for source in model_sources(root, context):
                if until is not None and time.monotonic() > until:
                    log.info("no more previews of %s: out of time", filename)
                    break
                try:
                    written += _draw(source, context, plugin_manager, upload.parent)
                except Exception as error:  # one model that cannot be drawn spoils no other
                    _skipped(source.name, error)
    except Exception as error:  # a drawing bug must never cost the job its report
        _skipped(filename, error)
    return written


def scene_triangles(asset: Asset) -> np.ndarray:
    """The triangles the asset's scene draws, in world space (metres, +Y up): shape
    ``(n, 3, 3)`` float32. Beyond :data:`MAX_TRIANGLES` they are thinned evenly."""
    placed = list(_fbx_instances(asset) if asset.fbx is not None else _gltf_instances(asset))
    total = sum(len(triangles) for _, triangles in placed)
    if not total:
        return np.zeros((0, 3, 3), np.float32)
    step = math.ceil(total / MAX_TRIANGLES)
    return np.concatenate([positions[triangles[::step]] for positions, triangles in placed])


def _gltf_instances(asset: Asset) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(world positions, triangles)`` of each triangle primitive each node instances, placed
    by the node's world transform; when no node uses a mesh, every mesh where it is.
    Triangles with an index past the vertex data are left out."""
    links = document_links(asset)
    nodes, meshes = links.items("nodes"), links.items("meshes")
    placed = [(matrix, mesh) for index, matrix in sorted(world_matrices(links).items())
              if (mesh := index_of(nodes[index], "mesh")) is not None and mesh < len(meshes)]
    if not placed:
        placed = [(np.eye(4), mesh) for mesh in range(len(meshes))]
    geometry = {mesh: list(_mesh_geometry(asset, links, mesh)) for _, mesh in placed}
    for matrix, mesh in placed:
        for positions, triangles in geometry[mesh]:
            yield transform_points(matrix, positions), triangles


def _fbx_instances(asset: Asset) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(world positions, triangles)`` of each mesh instance of the FBX scene, with the
    file's unit and axis system applied, so the model stands upright at its real size."""
    for _, positions, triangles in asset.fbx.world_triangles():
        yield positions, triangles


def _mesh_geometry(asset: Asset, links: DocumentLinks,
                   mesh: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(positions, triangles)`` of each triangle primitive of ``mesh``: float vertex
    positions and the ``(n, 3)`` vertex indices of the triangles that stay within them."""
    reader = AccessorReader.for_asset(asset)
    for primitive in links.mesh_primitives(mesh):
        position = primitive.attributes.get("POSITION")
        positions = None if position is None else reader.normalized(position, np.float64)
        triangles = primitive_triangles(asset, mesh, primitive.number)
        if positions is None or positions.shape[1] != 3 or triangles is None:
            continue
        triangles = triangles[(triangles < len(positions)).all(axis=1)]
        if len(triangles):
            yield positions, triangles


def _draw(source: SourceFile, context: ReadContext, plugin_manager: pluggy.PluginManager,
          job_folder: Path) -> int:
    if source.kind not in DRAWN_FORMATS:
        return 0
    asset = plugin_manager.hook.read_asset(source=source, issues=context.issues.for_file(
        source.name), options=context.options)
    if asset is None or (asset.document is None and asset.fbx is None):
        return 0
    triangles = scene_triangles(asset)
    if not len(triangles):
        return 0
    write_whole(preview_path(job_folder, source.name),
                encode_png(render_clay(triangles, WIDTH, HEIGHT)))
    write_viewer_files(asset, source, job_folder)
    return 1


def _skipped(name: str, error: Exception) -> None:
    log.warning("no preview of %s: %s: %s", name, type(error).__name__, error)
